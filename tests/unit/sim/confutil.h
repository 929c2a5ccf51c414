/* Helpers of the tests of a simulation's configuration (clusters, model
 * tables, parameters) and of its result file. */
#ifndef TT_CONFUTIL_H
#define TT_CONFUTIL_H

#include "testutil.h"
#include "tt/sim.h"

/* Writes text to a new file in a fresh temporary folder; the caller
 * removes it with rm_tmp. */
static inline const char *tmp_file(const char *name, const char *text)
{
    static char path[8][512];
    static int k;
    char dir[] = "/tmp/tt_simconf_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    FILE *f = fopen(path[k], "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return path[k];
}

static inline void rm_tmp(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    unlink(path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
}

/* Two classes: "fast" (no slowdown) and "slow" (1.5x at L1, 2.5x at L2). */
static inline tt_models *two_models(void)
{
    const char *names[] = {"fast", "slow"};
    const int64_t l1[] = {1000, 1500}, l2[] = {1000, 2500};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, l1, l2, &m), 0);
    return m;
}

#endif
