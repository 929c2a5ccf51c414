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

/* 1 when a run of cf rejects job i for its model's size (tts_init's rule). */
static int too_large(const tts_trace *tr, const tts_config *cf, int64_t i)
{
    return cf->gpu_mem > 0 && tr->msz && tts_model_too_large(tr, cf, i, tts_job_class(tr, cf, i));
}

int tt_gittins_from_trace(tt_ctx *ctx, const tts_trace *tr, const tts_config *cf,
                          int64_t cluster_gpus, tts_gittins *g)
{
    int64_t *v = (int64_t *)malloc((size_t)(tr->n ? tr->n : 1) * sizeof *v), n = 0;
    uint8_t *bad = (uint8_t *)calloc((size_t)(tr->nwf ? tr->nwf : 1), 1);
    int rc = v && bad ? 0 : tt_err(ctx, TT_ENOMEM, "out of memory for the Gittins samples");
    /* a workflow is rejected whole: a task too large, or a parent that is
     * not an earlier task of its workflow (tts_wf_init) */
    for (int64_t i = 0; !rc && tr->tsk && i < tr->n; i++) {
        if (tr->tsk[i] < 0)
            continue;
        int32_t w = tr->wfi[i];
        bad[w] |= tr->gpus[i] > cluster_gpus || too_large(tr, cf, i);
        for (int64_t d = tr->dep_off[i]; d < tr->dep_off[i + 1]; d++)
            bad[w] |= tts_bad_parent(tr, i, tr->deps[d]);
    }
    for (int64_t i = 0; !rc && i < tr->n; i++)
        if (tr->gpus[i] <= cluster_gpus && !too_large(tr, cf, i) &&
            !(tr->tsk && tr->tsk[i] >= 0 && bad[tr->wfi[i]]))
            v[n++] = (int64_t)tr->gpus[i] * tr->duration[i];
    if (!rc)
        rc = sort_fill(ctx, g, v, n);
    free(v);
    free(bad);
    return rc;
}

/* ctx's message behind "gittins_dist 'path': ", the parameter and its
 * file named: copied first, as tt_err writes into the buffer it would
 * read. Returns rc. */
static int dist_err(tt_ctx *ctx, int rc, const char *path)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", tt_errmsg(ctx));
    return tt_err(ctx, rc, "gittins_dist '%s': %s", path, why);
}

/* One integer a line (blank lines skipped); a first line that is not a
 * number is a header ("duration" in Tiresias's files). */
int tt_gittins_load(tt_ctx *ctx, const char *path, tts_gittins *g)
{
    tt_src *src = NULL;
    int rc = tt_src_open(ctx, path, &src);
    if (rc)
        return dist_err(ctx, rc, path);
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
    if (!rc && n == 0)
        rc = tt_err(ctx, TT_EPARSE, "%s: no samples", path);
    if (rc < 0)
        rc = dist_err(ctx, rc, path);
    if (!rc)
        rc = sort_fill(ctx, g, v, n);
    free(v);
    tt_src_close(src);
    return rc;
}

/* ---- the bundled distributions ---- */

/* gittins_yarn.c: data/gittins/yarn-gput1000.csv */
extern const int32_t tt_gittins_yarn1000[];
extern const int32_t tt_gittins_yarn1000_n;

int tt_gittins_bundled(const char *value)
{
    return value && strcmp(value, "yarn-gput1000") == 0;
}

int tt_gittins_builtin(tt_ctx *ctx, const char *name, tts_gittins *g)
{
    if (!tt_gittins_bundled(name))
        return tt_err(ctx, TT_EINVAL, "gittins_dist '%.60s': not a bundled distribution", name);
    int64_t n = tt_gittins_yarn1000_n, *v = (int64_t *)malloc((size_t)n * sizeof *v);
    if (!v)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++)
        v[i] = tt_gittins_yarn1000[i];
    int rc = sort_fill(ctx, g, v, n);
    free(v);
    return rc;
}

/* ---- the distributions a preparation holds ---- */

/* The key of p's distribution: what p's runs reject beyond the jobs too
 * large for the cluster, as far as it changes the trace's samples. */
static void git_key(const tt_simprep *prep, const tt_params *p, int drawn, tt_gitkey *k)
{
    memset(k, 0, sizeof *k);
    if (strcmp(p->gittins_dist, "trace") != 0 || p->gpu_mem <= 0 || !prep->tr.msz)
        return;
    int32_t most = -1;
    for (int32_t m = 0; m < prep->tr.nmid + prep->tr.nclasses; m++)
        most = prep->tr.msz[m] > most ? prep->tr.msz[m] : most;
    if (most <= p->gpu_mem)
        return; /* no model rejected */
    k->gpu_mem = p->gpu_mem;
    if (drawn != 2)
        return;
    tts_config cf;
    tt_simrun_config(p, prep->nclasses, &cf);
    k->seed = cf.seed;
    memcpy(k->mix_cum, cf.mix_cum, sizeof k->mix_cum);
}

static int32_t find(const tt_simprep *prep, const tt_params *p, int drawn)
{
    tt_gitkey k;
    git_key(prep, p, drawn, &k);
    for (int32_t g = 0; g < prep->ngit; g++)
        if (strcmp(prep->git_name[g], p->gittins_dist) == 0 &&
            memcmp(&prep->git_key[g], &k, sizeof k) == 0)
            return g;
    return -1;
}

int32_t tt_simprep_gittins_find(const tt_simprep *prep, const tt_params *p)
{
    return find(prep, p, prep->git_drawn);
}

int tt_simprep_gittins(tt_ctx *ctx, tt_simprep *prep, const tt_params *p)
{
    if (!prep->git_drawn) {
        prep->git_drawn = 1;
        for (int64_t i = 0; i < prep->tr.n && prep->git_drawn == 1; i++)
            prep->git_drawn += prep->tr.cls[i] < 0;
    }
    if (find(prep, p, prep->git_drawn) >= 0)
        return 0;
    size_t k = (size_t)prep->ngit + 1;
    tts_gittins *git = (tts_gittins *)realloc(prep->git, k * sizeof *git);
    if (git)
        prep->git = git;
    char(*names)[TT_GITTINS_DIST_MAX] =
        (char(*)[TT_GITTINS_DIST_MAX])realloc(prep->git_name, k * sizeof *names);
    if (names)
        prep->git_name = names;
    tt_gitkey *keys = (tt_gitkey *)realloc(prep->git_key, k * sizeof *keys);
    if (keys)
        prep->git_key = keys;
    if (!git || !names || !keys)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    tts_gittins *g = &prep->git[prep->ngit];
    int rc;
    if (strcmp(p->gittins_dist, "trace") == 0) {
        tts_config cf;
        tt_simrun_config(p, prep->nclasses, &cf);
        int64_t gpus = (int64_t)prep->tc.racks * prep->tc.nodes_per_rack * prep->tc.gpus_per_node;
        rc = tt_gittins_from_trace(ctx, &prep->tr, &cf, gpus, g);
    } else if (tt_gittins_bundled(p->gittins_dist)) {
        rc = tt_gittins_builtin(ctx, p->gittins_dist, g);
    } else {
        rc = tt_gittins_load(ctx, p->gittins_dist, g);
    }
    if (rc)
        return rc;
    snprintf(prep->git_name[prep->ngit], TT_GITTINS_DIST_MAX, "%s", p->gittins_dist);
    git_key(prep, p, prep->git_drawn, &prep->git_key[prep->ngit]);
    prep->ngit++;
    prep->tr.git = prep->git; /* it may have moved */
    prep->tr.ngit = prep->ngit;
    return 0;
}
