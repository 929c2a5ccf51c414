/* Helpers of the fuzzers (fuzz.h): checks, input text, files in a private
 * folder for the readers that take a path, the model table. */
#include "fuzz.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt/table.h"

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

void fuzz_check_rc(tt_ctx *ctx, int rc, const char *what)
{
    FUZZ_CHECK(rc <= 0, "%s: returned %d, not 0 or a negative code", what, rc);
    FUZZ_CHECK(rc == 0 || *tt_errmsg(ctx), "%s: failed (%d) without a message", what, rc);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = (char *)malloc(size + 1);
    if (!s)
        fuzz_fail("out of memory");
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

char *fuzz_line(char **cursor)
{
    char *s = *cursor;
    if (!s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = NULL;
    }
    return s;
}

static char dir[256];
static char made[16][320]; /* the files written, removed at exit */
static int nmade;

static void remove_dir(void)
{
    for (int i = 0; i < nmade; i++)
        unlink(made[i]);
    rmdir(dir);
}

const char *fuzz_dir(void)
{
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/tt-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            fuzz_fail("cannot make a folder %s", dir);
        atexit(remove_dir);
    }
    return dir;
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
    static char path[sizeof made[0]];
    snprintf(path, sizeof path, "%s/%.63s", fuzz_dir(), name);
    int known = 0;
    for (int i = 0; i < nmade; i++)
        known |= strcmp(made[i], path) == 0;
    if (!known && nmade < 16)
        memcpy(made[nmade++], path, sizeof path);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
        fuzz_fail("cannot write %s", path);
    return path;
}

const tt_models *fuzz_models(void)
{
    static tt_models *m;
    if (!m) {
        tt_ctx *ctx = tt_ctx_create();
        if (!ctx || tt_models_default(ctx, &m))
            fuzz_fail("no built-in model table");
        tt_ctx_free(ctx);
    }
    return m;
}

void fuzz_table_walk(tt_ctx *ctx, tt_table *t)
{
    int64_t rows = tt_table_rows(t);
    int cols = tt_table_cols(t);
    double sum = 0;
    size_t chars = 0;
    for (int c = 0; c < cols; c++) {
        FUZZ_CHECK(tt_table_find(t, tt_table_name(t, c)) == c, "column %d is not found by name",
                   c);
        chars += strlen(tt_table_units(t, c));
        const double *v = tt_table_values(t, c);
        for (int64_t r = 0; r < rows; r++)
            if (v)
                sum += v[r];
            else
                chars += strlen(tt_table_text(t, c, r));
    }
    (void)sum;
    (void)chars;
    const double *v = cols > 0 ? tt_table_values(t, 0) : NULL;
    /* an absent value (NaN) equals no cell */
    if (rows > 0 && cols > 0 && (!v || v[0] == v[0])) {
        char cell[64];
        const char *text = cell;
        if (!v)
            text = tt_table_text(t, 0, 0);
        else if (v[0] > DBL_MAX)
            snprintf(cell, sizeof cell, "inf");
        else
            snprintf(cell, sizeof cell, "%.17g", v[0]);
        char *name = strdup(tt_table_name(t, 0)), *want = strdup(text);
        FUZZ_CHECK(name && want, "out of memory");
        int rc = tt_table_where(ctx, t, name, want);
        FUZZ_CHECK(rc == 0 && tt_table_rows(t) >= 1, "where %s = '%s' keeps no row: %s", name,
                   want, rc ? tt_errmsg(ctx) : "");
        free(name);
        free(want);
    }
    tt_table_free(t);
}

void fuzz_table_read(tt_ctx *ctx, const void *data, size_t size, int part)
{
    tt_table *t = NULL;
    int rc = tt_table_read_mem(ctx, "fuzz", data, size, (tt_table_part)part, &t);
    fuzz_check_rc(ctx, rc, "tt_table_read_mem");
    FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the table and the return code disagree");
    if (t)
        fuzz_table_walk(ctx, t);
}
