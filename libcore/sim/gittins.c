/* The service distributions of order=gittins (SPEC 11.2): sorted samples
 * and their prefix sums, from the trace (gpus x duration of the accepted
 * jobs) or from a file of integers such as Tiresias's yarn-gput1000.csv,
 * read once per run on the host; the engine's table (tts_gittins) is
 * shared read-only by every configuration that names it. */
#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "io/src.h"
#include "sim/simrun.h"
#include "base/csv.h"
#include "tt/parse.h"

/* A sample beyond this is refused: 1024 of them sum below 2^61. */
#define MAX_SAMPLE ((int64_t)1 << 50)

/* From n values sorted in place: M = min(n, 1024) samples at ranks
 * ceil(i n / M), i = 1 .. M, and their prefix sums. */
static void fill(tts_gittins *g, const int64_t *sorted, int64_t n)
{
    int64_t m = n < TTS_GITTINS_MAX ? n : TTS_GITTINS_MAX;
    g->m = (int32_t)m;
    g->pre[0] = 0;
    for (int64_t i = 1; i <= m; i++) {
        g->x[i - 1] = sorted[(i * n + m - 1) / m - 1];
        g->pre[i] = g->pre[i - 1] + g->x[i - 1];
    }
}

static int sort_fill(tt_ctx *ctx, tts_gittins *g, int64_t *v, int64_t n)
{
    if (tt_radix_sort_i64(v, NULL, n))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    fill(g, v, n);
    return 0;
}

int tt_gittins_from_jobs(tt_ctx *ctx, const tt_sim_jobs *j, int64_t cluster_gpus,
                         tts_gittins *g)
{
    int64_t *v = (int64_t *)malloc((size_t)(j->n ? j->n : 1) * sizeof *v), n = 0;
    if (!v)
        return tt_err(ctx, TT_ENOMEM, "out of memory for the Gittins samples");
    for (int64_t i = 0; i < j->n; i++)
        if (j->gpus[i] <= cluster_gpus)
            v[n++] = (int64_t)j->gpus[i] * j->duration[i];
    int rc = sort_fill(ctx, g, v, n);
    free(v);
    return rc;
}

/* One integer a line (blank lines skipped); a first line that is not a
 * number is a header ("duration" in Tiresias's files). */
int tt_gittins_load(tt_ctx *ctx, const char *path, tts_gittins *g)
{
    tt_src *src = NULL;
    int rc = tt_src_open(ctx, path, &src);
    if (rc)
        return tt_err(ctx, rc, "gittins_dist '%s': %s", path, tt_errmsg(ctx));
    int64_t n = 0, cap = 1024, *v = (int64_t *)malloc((size_t)cap * sizeof *v);
    char *line;
    rc = v ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory");
    while (!rc && (rc = tt_src_getline(src, ctx, &line, NULL)) == 1) {
        rc = 0;
        char *f = tt_trim(line);
        int64_t x, at = tt_src_lineno(src);
        if (!*f)
            continue;
        if (tt_parse_i64(f, &x)) {
            if (at == 1 && n == 0)
                continue; /* a header */
            rc = tt_err(ctx, TT_EPARSE, "%s:%lld: expected an integer of GPU-seconds, got "
                        "'%.40s'", path, (long long)at, f);
        } else if (x < 0 || x > MAX_SAMPLE) {
            rc = tt_err(ctx, TT_EPARSE, "%s:%lld: %lld GPU-seconds outside 0 .. 2^50", path,
                        (long long)at, (long long)x);
        } else {
            if (n == cap) {
                int64_t *w = (int64_t *)realloc(v, (size_t)(cap *= 2) * sizeof *v);
                if (!w) {
                    rc = tt_err(ctx, TT_ENOMEM, "out of memory");
                    break;
                }
                v = w;
            }
            v[n++] = x;
        }
    }
    if (rc < 0 && !strstr(tt_errmsg(ctx), path))
        rc = tt_err(ctx, rc, "gittins_dist '%s': %s", path, tt_errmsg(ctx));
    if (!rc && n == 0)
        rc = tt_err(ctx, TT_EPARSE, "%s: no samples", path);
    if (!rc)
        rc = sort_fill(ctx, g, v, n);
    free(v);
    tt_src_close(src);
    return rc;
}
