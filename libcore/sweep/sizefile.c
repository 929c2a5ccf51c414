/* The outputs of a size study (tt/size.h): its TSV rows, the summary line
 * per policy, and its HDF5 file, whose parameter and metric columns are
 * those of every result file (sim/simdesc.h). */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "sim/simdesc.h"
#include "tt/simfile.h"
#include "tt/size.h"
#include "tt/version.h"

#define LAYOUT_SIZE "size/1"

/* What each row of the study is: meets, smallest and stable, policy-major
 * (row p * nsizes + s); *best gets each policy's smallest size (-1 none).
 * The arrays are malloc'ed together in *meets; NULL when out of memory. */
static int flags(const tt_size_study *s, int **meets, int **smallest, int **stable, int **best)
{
    size_t n = (size_t)s->npol * (size_t)s->nsizes;
    int *a = (int *)calloc(3 * n + (size_t)s->npol + 1, sizeof *a);
    if (!a)
        return -1;
    *meets = a;
    *smallest = a + n;
    *stable = a + 2 * n;
    *best = a + 3 * n;
    for (int p = 0; p < s->npol; p++) {
        size_t o = (size_t)p * (size_t)s->nsizes;
        for (int k = 0; k < s->nsizes; k++)
            a[o + (size_t)k] = tt_size_meets(s->target, &s->metrics[o + (size_t)k]);
        (*best)[p] = tt_size_smallest(a + o, s->nsizes, *stable + o);
        if ((*best)[p] >= 0)
            (*smallest)[o + (size_t)(*best)[p]] = 1;
    }
    return 0;
}

int tt_size_tsv(FILE *f, const tt_size_study *s)
{
    int *meets, *smallest, *stable, *best;
    if (flags(s, &meets, &smallest, &stable, &best))
        return TT_ENOMEM;
    char target[128], c[64];
    tt_size_target_format(s->target, target, sizeof target);
    fprintf(f, "policy\tcluster\tnodes\tgpus\ttarget\tmeets\tsmallest\tstable\t");
    tt_sim_tsv_header(f);
    for (int p = 0; p < s->npol; p++)
        for (int k = 0; k < s->nsizes; k++) {
            const tt_cluster *cl = &s->sizes[k];
            size_t r = (size_t)p * (size_t)s->nsizes + (size_t)k;
            tt_cluster_format(cl, c, sizeof c);
            fprintf(f, "%s\t%s\t%lld\t%lld\t%s\t%d\t%d\t%d\t", s->pol[p].label, c,
                    (long long)cl->racks * cl->nodes_per_rack, (long long)tt_size_gpus(cl),
                    target, meets[r], smallest[r], stable[r]);
            tt_sim_tsv_row(f, &s->pol[p].p, s->models, &s->metrics[r]);
        }
    free(meets);
    return ferror(f) ? TT_EIO : 0;
}

void tt_size_summary(const tt_size_study *s, int p, char *buf, size_t size)
{
    int n = s->nsizes, m[TT_SIZE_MAX], st[TT_SIZE_MAX];
    const tt_metrics *pm = &s->metrics[(size_t)p * (size_t)n];
    char c[64], v[64];
    for (int k = 0; k < n; k++)
        m[k] = tt_size_meets(s->target, &pm[k]);
    int b = tt_size_smallest(m, n, st);
    if (b < 0) {
        tt_cluster_format(&s->sizes[n - 1], c, sizeof c);
        tt_metric_format(&pm[n - 1], s->target->metric, v, sizeof v);
        snprintf(buf, size, "%s: none of the sizes tried (the largest, %s: %s %s)",
                 s->pol[p].label, c, tt_metric_names[s->target->metric],
                 *v ? v : "cannot be computed");
        return;
    }
    tt_cluster_format(&s->sizes[b], c, sizeof c);
    int len = snprintf(buf, size, "%s: %s (%lld GPUs), %s", s->pol[p].label, c,
                       (long long)tt_size_gpus(&s->sizes[b]), st[b] ? "stable" : "not stable:");
    int said = 0;
    for (int k = b + 1; !st[b] && k < n && len >= 0 && (size_t)len < size; k++)
        if (!m[k]) {
            tt_cluster_format(&s->sizes[k], c, sizeof c);
            len += snprintf(buf + len, size - (size_t)len, "%s %s", said++ ? "," : "", c);
        }
    if (!st[b] && len >= 0 && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, " %s", said == 1 ? "misses it" : "miss it");
}

/* ---- the HDF5 file ---- */

struct size_write {
    const tt_size_study *s;
    int *meets, *smallest, *stable, *best;
};

static const tt_params *row_params(void *arg, int64_t r, tt_params *scratch)
{
    const tt_size_study *s = ((const struct size_write *)arg)->s;
    (void)scratch;
    return &s->pol[r / s->nsizes].p;
}

/* An int64 column of n values of fn(w, r). */
static int int_col(hid_t g, const char *name, int64_t n, int64_t *buf, const char *units,
                   int64_t (*fn)(const struct size_write *w, int64_t r),
                   const struct size_write *w)
{
    for (int64_t r = 0; r < n; r++)
        buf[r] = fn(w, r);
    return tt_h5u_write_col(g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, n, buf, units, 0, 0);
}

static const tt_cluster *row_cl(const struct size_write *w, int64_t r)
{
    return &w->s->sizes[r % w->s->nsizes];
}
static int64_t c_racks(const struct size_write *w, int64_t r) { return row_cl(w, r)->racks; }
static int64_t c_npr(const struct size_write *w, int64_t r) { return row_cl(w, r)->nodes_per_rack; }
static int64_t c_gpn(const struct size_write *w, int64_t r) { return row_cl(w, r)->gpus_per_node; }
static int64_t c_nodes(const struct size_write *w, int64_t r)
{
    return (int64_t)row_cl(w, r)->racks * row_cl(w, r)->nodes_per_rack;
}
static int64_t c_gpus(const struct size_write *w, int64_t r) { return tt_size_gpus(row_cl(w, r)); }
static int64_t c_meets(const struct size_write *w, int64_t r) { return w->meets[r]; }
static int64_t c_smallest(const struct size_write *w, int64_t r) { return w->smallest[r]; }
static int64_t c_stable(const struct size_write *w, int64_t r) { return w->stable[r]; }
/* per policy */
static const tt_cluster *best_cl(const struct size_write *w, int64_t p)
{
    return w->best[p] >= 0 ? &w->s->sizes[w->best[p]] : NULL;
}
static int64_t b_gpus(const struct size_write *w, int64_t p)
{
    return best_cl(w, p) ? tt_size_gpus(best_cl(w, p)) : -1;
}
static int64_t b_nodes(const struct size_write *w, int64_t p)
{
    const tt_cluster *c = best_cl(w, p);
    return c ? (int64_t)c->racks * c->nodes_per_rack : -1;
}
static int64_t b_stable(const struct size_write *w, int64_t p)
{
    return w->best[p] >= 0 && w->stable[p * w->s->nsizes + w->best[p]];
}

/* The text columns: policy and cluster of each row (rows 1) or each
 * policy's label and smallest size (rows 0). */
static int text_cols(hid_t g, const struct size_write *w, int rows, char (*cl)[64],
                     const char **v)
{
    const tt_size_study *s = w->s;
    int64_t n = rows ? (int64_t)s->npol * s->nsizes : s->npol;
    for (int64_t r = 0; r < n; r++) {
        v[r] = s->pol[rows ? r / s->nsizes : r].label;
        const tt_cluster *c = rows ? row_cl(w, r) : best_cl(w, r);
        if (c)
            tt_cluster_format(c, cl[r], 64);
        else
            cl[r][0] = '\0';
    }
    if (tt_h5u_write_strs(g, "policy", n, v))
        return -1;
    for (int64_t r = 0; r < n; r++)
        v[r] = cl[r];
    return tt_h5u_write_strs(g, "cluster", n, v);
}

static int write_groups(hid_t top, const struct size_write *w, void *buf, char (*cl)[64],
                        const char **v, const tt_metrics **mp)
{
    const tt_size_study *s = w->s;
    int64_t n = (int64_t)s->npol * s->nsizes;
    char target[128];
    tt_size_target_format(s->target, target, sizeof target);
    hid_t rows = tt_h5u_group(top, "rows"), res = tt_h5u_group(top, "result");
    hid_t gp = rows >= 0 ? tt_h5u_group(rows, GRP_PARAMS) : -1;
    hid_t gm = rows >= 0 ? tt_h5u_group(rows, GRP_METRICS) : -1;
    int64_t *b = (int64_t *)buf;
    int rc = rows < 0 || res < 0 || gp < 0 || gm < 0 ||
             tt_sd_write_origin(top, LAYOUT_SIZE, s->trace_path, s->trace_prov,
                                &s->sizes[s->nsizes - 1], s->models) ||
             tt_h5u_attr_str(top, "target", target) ||
             tt_h5u_attr_str(top, "tool_version", TT_VERSION) ||
             text_cols(rows, w, 1, cl, v) || int_col(rows, "racks", n, b, NULL, c_racks, w) ||
             int_col(rows, "nodes_per_rack", n, b, NULL, c_npr, w) ||
             int_col(rows, "gpus_per_node", n, b, NULL, c_gpn, w) ||
             int_col(rows, "nodes", n, b, NULL, c_nodes, w) ||
             int_col(rows, "gpus", n, b, NULL, c_gpus, w) ||
             int_col(rows, "meets", n, b, NULL, c_meets, w) ||
             int_col(rows, "smallest", n, b, NULL, c_smallest, w) ||
             int_col(rows, "stable", n, b, NULL, c_stable, w) ||
             tt_sd_write_param_cols(gp, s->models, row_params, (void *)w, n, buf) ||
             tt_sd_write_metric_cols(gm, mp, n, buf) || text_cols(res, w, 0, cl, v) ||
             int_col(res, "gpus", s->npol, b, NULL, b_gpus, w) ||
             int_col(res, "nodes", s->npol, b, NULL, b_nodes, w) ||
             int_col(res, "stable", s->npol, b, NULL, b_stable, w);
    hid_t ids[] = {gp, gm, rows, res};
    for (int i = 0; i < 4; i++)
        if (ids[i] >= 0)
            H5Gclose(ids[i]);
    return rc ? -1 : 0;
}

static int write_size(hid_t f, void *arg)
{
    const struct size_write *w = (const struct size_write *)arg;
    const tt_size_study *s = w->s;
    size_t n = (size_t)s->npol * (size_t)s->nsizes + 1;
    void *buf = malloc(n * 8);
    char(*cl)[64] = (char(*)[64])malloc(n * 64);
    const char **v = (const char **)malloc(n * sizeof *v);
    const tt_metrics **mp = (const tt_metrics **)malloc(n * sizeof *mp);
    hid_t top = buf && cl && v && mp ? tt_h5u_group(f, "size") : -1;
    for (size_t r = 0; top >= 0 && r + 1 < n; r++)
        mp[r] = &s->metrics[r];
    int rc = top < 0 || write_groups(top, w, buf, cl, v, mp) ? -1 : 0;
    if (top >= 0)
        H5Gclose(top);
    free(buf);
    free(cl);
    free((void *)v);
    free((void *)mp);
    return rc;
}

int tt_size_save(tt_ctx *ctx, const char *path, const tt_size_study *s)
{
    if (!s || !s->target || !s->sizes || s->nsizes < 1 || !s->pol || s->npol < 1 ||
        !s->models || !s->metrics)
        return tt_err(ctx, TT_EINVAL, "tt_size_save: a required argument is missing");
    struct size_write w = {s, NULL, NULL, NULL, NULL};
    if (flags(s, &w.meets, &w.smallest, &w.stable, &w.best))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc = tt_h5u_save(ctx, path, write_size, &w);
    free(w.meets);
    return rc;
}
