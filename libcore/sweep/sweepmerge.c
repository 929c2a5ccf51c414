/* Joins the shard files of one sweep (tt/sweepmerge.h). Every input is
 * checked before anything is written; then each column is read shard by
 * shard, scattered to its configurations' positions and written whole with
 * the writer's own helper (tt_h5u_write_col), so the output has the chunking
 * and filters of an unsharded sweep file. */
#include "tt/sweepmerge.h"

#include <errno.h>
#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/h5util.h"
#include "io/layout.h"
#include "tt/outfile.h"
#include "tt/parse.h"
#include "tt/sweep.h"

#define LIST_MISSING 8 /* missing shards named in the message */

/* The string attributes that must be equal in every shard of one sweep
 * (configurations, an integer, too). trace_jobs_sha256, the jobs as
 * simulated, tells apart traces whose source cannot (tt-gen's have none;
 * one CSV read with two column maps has one); it is compared where both
 * shards have it, a shard written before it being checked by
 * trace_source_sha256 alone, as then. */
static const char *const same_attrs[] = {"trace_source_sha256", "trace_format", "cluster",
                                         "models_sha256", "trace_jobs_sha256",
                                         "configs_sha256"};

typedef struct {
    const char *path; /* as named: in messages and merged_from */
    const char *file; /* what is opened (a copy of standard input for "-") */
    int arg; /* position on the command line: ties sort in it */
    hid_t f, g; /* the file and its /sweep */
    int64_t k, n, rows, total;
    int64_t sims; /* distinct_simulations, -1 when absent */
    double elapsed;
    char *device;
} shard;

typedef struct {
    shard *sh; /* in shard order once opened */
    int n;
    int64_t total, most_rows;
    h5u_names cols; /* "index", "metrics/<name>"..., "params/<name>"... of shard 0 */
    /* the merged group attributes that are not shard 0's */
    const char *shard_s;
    char *device, *from;
    double elapsed, sims_per_s;
    int64_t sims; /* the shards' distinct_simulations summed; -1: not written */
    hid_t str_type;
    /* a failure to read an input while writing (tt_h5u_save's own message
     * would name only the output) */
    char err[1024];
} merge;

/* Closes the n HDF5 ids given that are open (>= 0), of any kind. */
static void close_ids(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        hid_t id = va_arg(ap, hid_t);
        switch (id < 0 ? H5I_BADID : H5Iget_type(id)) {
        case H5I_FILE: H5Fclose(id); break;
        case H5I_GROUP: H5Gclose(id); break;
        case H5I_DATASET: H5Dclose(id); break;
        case H5I_DATATYPE: H5Tclose(id); break;
        case H5I_DATASPACE: H5Sclose(id); break;
        case H5I_ATTR: H5Aclose(id); break;
        default: break;
        }
    }
    va_end(ap);
}

/* ---- attributes ---- */

/* A number attribute (one value of class cls) into *out as memtype. 0 or -1. */
static int attr_num(hid_t obj, const char *name, H5T_class_t cls, hid_t memtype, void *out)
{
    hid_t a = tt_h5u_attr_open_scalar(obj, name, cls);
    if (a < 0)
        return -1;
    herr_t rc = H5Aread(a, memtype, out);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

/* Copies every attribute of an object; with a merge, the group attributes
 * the merged file sets itself get their new value in shard 0's type. */
typedef struct {
    hid_t dst;
    const merge *m;
} attr_copy;

static const void *merged_value(const merge *m, const char *name, hid_t *type)
{
    *type = m->str_type;
    if (strcmp(name, "shard") == 0)
        return &m->shard_s;
    if (strcmp(name, "device") == 0)
        return &m->device;
    *type = H5T_NATIVE_INT64;
    if (strcmp(name, "rows") == 0)
        return &m->total;
    *type = H5T_NATIVE_DOUBLE;
    if (strcmp(name, "elapsed_s") == 0)
        return &m->elapsed;
    if (strcmp(name, "sims_per_s") == 0)
        return &m->sims_per_s;
    return NULL;
}

static herr_t copy_attr(hid_t src, const char *name, const H5A_info_t *info, void *arg)
{
    (void)info;
    const attr_copy *c = (const attr_copy *)arg;
    hid_t vt = -1;
    const void *val = c->m ? merged_value(c->m, name, &vt) : NULL;
    if (c->m && (strcmp(name, "merged_from") == 0 || strcmp(name, "distinct_simulations") == 0))
        return 0; /* written afresh */
    hid_t a = H5Aopen(src, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1, sp = a >= 0 ? H5Aget_space(a) : -1;
    hid_t mt = ft >= 0 ? H5Tget_native_type(ft, H5T_DIR_ASCEND) : -1;
    hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    size_t size = mt >= 0 ? H5Tget_size(mt) : 0;
    void *buf = !val && np >= 0 && size ? calloc((size_t)(np > 0 ? np : 1), size) : NULL;
    hid_t b = val || buf ? H5Acreate2(c->dst, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    herr_t rc = -1;
    if (b >= 0 && val)
        rc = H5Awrite(b, vt, val);
    else if (b >= 0 && H5Aread(a, mt, buf) >= 0) {
        rc = H5Awrite(b, mt, buf);
        H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, buf); /* strings and sequences only */
    }
    free(buf);
    close_ids(5, b, mt, sp, ft, a);
    return rc < 0 ? -1 : 0;
}

static int copy_attrs(hid_t src, hid_t dst, const merge *m)
{
    attr_copy c = {dst, m};
    return H5Aiterate2(src, H5_INDEX_NAME, H5_ITER_INC, NULL, copy_attr, &c) < 0 ? -1 : 0;
}

/* ---- opening and checking the shards ---- */

/* "K/N" with 0 <= K < N, as tt-sweep writes it. */
static int parse_shard(const char *s, int64_t *k, int64_t *n)
{
    const char *slash = s ? strchr(s, '/') : NULL;
    char a[32];
    if (!slash || (size_t)(slash - s) >= sizeof a)
        return -1;
    snprintf(a, sizeof a, "%.*s", (int)(slash - s), s);
    return tt_parse_i64(a, k) || tt_parse_i64(slash + 1, n) || *k < 0 || *n < 1 || *k >= *n ? -1
                                                                                          : 0;
}

static int need_attr(tt_ctx *ctx, const shard *s, const char *name, int ok)
{
    return ok ? 0 : tt_err(ctx, TT_EFORMAT, "%s: no attribute '%s'", s->path, name);
}

static int open_shard(tt_ctx *ctx, shard *s)
{
    const char *p = s->path;
    if (access(s->file, R_OK) != 0)
        return tt_err(ctx, TT_EIO, "%s: cannot read: %s", p, strerror(errno));
    if (H5Fis_hdf5(s->file) <= 0)
        return tt_err(ctx, TT_EFORMAT, "%s: not an HDF5 file", p);
    if ((s->f = H5Fopen(s->file, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return tt_err(ctx, TT_EFORMAT, "%s: cannot open as HDF5", p);
    if (H5Lexists(s->f, GRP_SWEEP, H5P_DEFAULT) <= 0 ||
        (s->g = H5Gopen2(s->f, GRP_SWEEP, H5P_DEFAULT)) < 0)
        return tt_err(ctx, TT_EFORMAT, "%s: not a sweep file (no /sweep group)", p);
    char *layout = tt_h5u_attr_read_str(s->g, LAYOUT_ATTR);
    int rc = 0;
    if (!layout)
        rc = tt_err(ctx, TT_EFORMAT, "%s: not a sweep file (no tracetune_layout on /sweep)", p);
    else if (strcmp(layout, LAYOUT_SWEEP) != 0)
        rc = tt_err(ctx, TT_EFORMAT, "%s: tracetune_layout '%s', expected '%s'", p, layout,
                    LAYOUT_SWEEP);
    free(layout);
    char *sh = rc ? NULL : tt_h5u_attr_read_str(s->g, "shard");
    if (!rc && !sh)
        rc = need_attr(ctx, s, "shard", 0);
    else if (!rc && parse_shard(sh, &s->k, &s->n))
        rc = tt_err(ctx, TT_EFORMAT, "%s: attribute shard '%s': expected K/N with 0 <= K < N", p,
                    sh);
    free(sh);
    if (!rc)
        rc = need_attr(ctx, s, "configurations",
                       !attr_num(s->g, "configurations", H5T_INTEGER, H5T_NATIVE_INT64, &s->total));
    if (!rc && (s->total < 1 || s->total > TT_SWEEP_MAX_CONFIGS))
        rc = tt_err(ctx, TT_EFORMAT, "%s: configurations %lld: expected 1 .. %lld", p,
                    (long long)s->total, (long long)TT_SWEEP_MAX_CONFIGS);
    if (!rc)
        rc = need_attr(ctx, s, "rows",
                       !attr_num(s->g, "rows", H5T_INTEGER, H5T_NATIVE_INT64, &s->rows));
    if (!rc)
        rc = need_attr(ctx, s, "elapsed_s",
                       !attr_num(s->g, "elapsed_s", H5T_FLOAT, H5T_NATIVE_DOUBLE, &s->elapsed));
    if (!rc)
        rc = need_attr(ctx, s, "device",
                       (s->device = tt_h5u_attr_read_str(s->g, "device")) != NULL);
    if (!rc && attr_num(s->g, "distinct_simulations", H5T_INTEGER, H5T_NATIVE_INT64, &s->sims))
        s->sims = -1; /* every row simulated (--no-dedup), or written before it was counted */
    return rc;
}

/* The one value every row of s holds in /sweep/params/<name>, as the
 * tools print it ("inf", "fifo"), into buf: 1; 0 when the rows differ, the
 * shard is empty or the column is of another kind. */
static int one_value(const shard *s, const char *name, char *buf, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", GRP_PARAMS, name);
    hid_t d = H5Dopen2(s->g, path, H5P_DEFAULT);
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1, ft = d >= 0 ? H5Dget_type(d) : -1;
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : 0;
    H5T_class_t cls = ft >= 0 ? H5Tget_class(ft) : H5T_NO_CLASS;
    int is_text = cls == H5T_STRING, is_u = cls == H5T_INTEGER && H5Tget_sign(ft) == H5T_SGN_NONE;
    hid_t mt = is_text ? tt_h5u_vlen_utf8() : is_u ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64;
    void *v = n > 0 && (is_text || cls == H5T_INTEGER) ? calloc((size_t)n, 8) : NULL;
    int one = v && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
    for (hssize_t r = 1; one && r < n; r++)
        one = is_text ? strcmp(((char **)v)[r] ? ((char **)v)[r] : "",
                               ((char **)v)[0] ? ((char **)v)[0] : "") == 0
                      : memcmp((char *)v + r * 8, v, 8) == 0;
    int64_t inf;
    if (one && is_text)
        snprintf(buf, size, "%s", ((char **)v)[0] ? ((char **)v)[0] : "");
    else if (one && !tt_h5u_attr_read_i64(d, "infinite", &inf) && *(int64_t *)v == inf)
        snprintf(buf, size, "inf");
    else if (one)
        snprintf(buf, size, is_u ? "%llu" : "%lld", is_u ? *(unsigned long long *)v
                                                         : (unsigned long long)*(int64_t *)v);
    if (v && is_text)
        H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, v);
    free(v);
    if (is_text)
        H5Tclose(mt);
    close_ids(3, ft, sp, d);
    return one;
}

/* The parameters that set one shard apart from the others when
 * configs_sha256 differs: each holds one value in all rows of every shard,
 * the same in all shards but one. A grid's parameter may hold one value per
 * shard too, when the shard count N is a multiple of its length L (which
 * divides the configurations T), but then the other shards do not agree;
 * of two shards, a difference is named only when N and T have no common
 * factor, so that no grid's parameter can. */
typedef struct {
    const merge *m;
    int odd; /* the shard set apart, -1 until found */
    char in_odd[512], in_rest[512];
} param_diff;

/* The shard whose value in v (n of them, VALUE_MAX apart) differs from all
 * the others', which agree; -1 when none. Of two, the second. */
#define VALUE_MAX 128
static int odd_one(const char *v, int n)
{
    int same0 = 0;
    for (int i = 1; i < n; i++)
        same0 += strcmp(v + i * VALUE_MAX, v) == 0;
    if (same0 == n - 1)
        return -1;
    if (n == 2 || same0 == n - 2)
        for (int i = 1; i < n; i++)
            if (strcmp(v + i * VALUE_MAX, v) != 0)
                return i;
    for (int i = 2; i < n && same0 == 0; i++)
        if (strcmp(v + i * VALUE_MAX, v + VALUE_MAX) != 0)
            return -1;
    return same0 == 0 ? 0 : -1;
}

static herr_t diff_param(hid_t g, const char *name, const H5L_info_t *info, void *arg)
{
    (void)g;
    (void)info;
    param_diff *pd = (param_diff *)arg;
    int n = pd->m->n, one = 1;
    char *v = (char *)calloc((size_t)n, VALUE_MAX);
    for (int i = 0; v && one && i < n; i++)
        one = one_value(&pd->m->sh[i], name, v + i * VALUE_MAX, VALUE_MAX);
    int odd = v && one ? odd_one(v, n) : -1;
    if (odd >= 0 && pd->odd < 0)
        pd->odd = odd;
    if (odd >= 0 && odd == pd->odd) {
        size_t lo = strlen(pd->in_odd), lr = strlen(pd->in_rest);
        snprintf(pd->in_odd + lo, sizeof pd->in_odd - lo, " %s=%s", name, v + odd * VALUE_MAX);
        snprintf(pd->in_rest + lr, sizeof pd->in_rest - lr, " %s=%s", name,
                 v + (odd == 0 ? VALUE_MAX : 0));
    }
    free(v);
    return 0;
}

/* s was run on another grid than ref (configs_sha256 differs): names the
 * shard and the parameters that set it apart, else says which options to
 * compare. */
static int other_grid(tt_ctx *ctx, const merge *m, const shard *s, const shard *ref)
{
    param_diff pd = {m, -1, "", ""};
    hid_t g = H5Gopen2(s->g, GRP_PARAMS, H5P_DEFAULT);
    if (g >= 0) {
        H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, diff_param, &pd);
        H5Gclose(g);
    }
    int64_t a = ref->n, b = ref->total;
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    const shard *o = pd.odd >= 0 && (m->n > 2 || a == 1) ? &m->sh[pd.odd] : NULL;
    if (o && m->n == 2)
        return tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld has%s, %s (shard %lld/%lld)%s: not "
                      "one sweep", o->path, (long long)o->k, (long long)o->n, pd.in_odd,
                      m->sh[1 - pd.odd].path, (long long)m->sh[1 - pd.odd].k,
                      (long long)m->sh[1 - pd.odd].n, pd.in_rest);
    if (o)
        return tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld has%s, the other shards%s: not one "
                      "sweep", o->path, (long long)o->k, (long long)o->n, pd.in_odd, pd.in_rest);
    return tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld was run on another grid than %s "
                  "(configs_sha256 differs): compare their -p, -g and --configs options",
                  s->path, (long long)s->k, (long long)s->n, ref->path);
}

/* s was run on another input than ref: what names it (trace_file,
 * models_source) and the start of each sha256. */
static int other_input(tt_ctx *ctx, const shard *s, const shard *ref, const char *what,
                       const char *name_attr, const char *a, const char *b)
{
    char *na = tt_h5u_attr_read_str(s->g, name_attr), *nb = tt_h5u_attr_read_str(ref->g, name_attr);
    int rc = tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld was run on another %s: '%s' (sha256 "
                    "%.12s...) vs '%s' (sha256 %.12s...) in %s", s->path, (long long)s->k,
                    (long long)s->n, what, na ? na : "?", a, nb ? nb : "?", b, ref->path);
    free(na);
    free(nb);
    return rc;
}

/* s simulated other jobs than ref: both shards and both traces named. */
static int other_jobs(tt_ctx *ctx, const shard *s, const shard *ref, const char *a,
                      const char *b)
{
    char *ta = tt_h5u_attr_read_str(s->g, "trace_file");
    char *tb = tt_h5u_attr_read_str(ref->g, "trace_file");
    int rc = tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld simulated other jobs than %s "
                    "(trace_jobs_sha256 %.12s... vs %.12s...): traces '%s' and '%s' differ in "
                    "their contents: not one sweep", s->path, (long long)s->k, (long long)s->n,
                    ref->path, a, b, ta ? ta : "?", tb ? tb : "?");
    free(ta);
    free(tb);
    return rc;
}

/* s belongs to the sweep of ref. */
static int check_same(tt_ctx *ctx, const merge *m, const shard *s, const shard *ref)
{
    int rc = 0;
    for (size_t i = 0; !rc && i < sizeof same_attrs / sizeof same_attrs[0]; i++) {
        const char *name = same_attrs[i];
        char *a = tt_h5u_attr_read_str(s->g, name), *b = tt_h5u_attr_read_str(ref->g, name);
        if (!a && strcmp(name, "configs_sha256") == 0)
            rc = tt_err(ctx, TT_EFORMAT,
                        "%s: no configs_sha256: written by an older tt-sweep; cannot check it is "
                        "the same grid",
                        s->path);
        else if (strcmp(name, "trace_jobs_sha256") == 0 && (!a || !b))
            rc = 0; /* written before it: the source's sha256 alone */
        else if (!a)
            rc = need_attr(ctx, s, name, 0);
        else if (!b || strcmp(a, b) == 0)
            rc = 0;
        else if (strcmp(name, "trace_source_sha256") == 0)
            rc = other_input(ctx, s, ref, "trace", "trace_file", a, b);
        else if (strcmp(name, "models_sha256") == 0)
            rc = other_input(ctx, s, ref, "model table", "models_source", a, b);
        else if (strcmp(name, "trace_jobs_sha256") == 0)
            rc = other_jobs(ctx, s, ref, a, b);
        else if (strcmp(name, "configs_sha256") == 0)
            rc = other_grid(ctx, m, s, ref);
        else
            rc = tt_err(ctx, TT_EFORMAT, "%s: %s '%s' differs from '%s' in %s", s->path, name, a,
                        b, ref->path);
        free(a);
        free(b);
    }
    if (!rc && s->total != ref->total)
        rc = tt_err(ctx, TT_EFORMAT, "%s: configurations %lld differs from %lld in %s", s->path,
                    (long long)s->total, (long long)ref->total, ref->path);
    if (!rc && s->n != ref->n)
        rc = tt_err(ctx, TT_EFORMAT,
                    "%s: shard %lld/%lld is one of %lld shards, but %s (shard %lld/%lld) is one "
                    "of %lld",
                    s->path, (long long)s->k, (long long)s->n, (long long)s->n, ref->path,
                    (long long)ref->k, (long long)ref->n, (long long)ref->n);
    return rc;
}

static int by_shard(const void *a, const void *b)
{
    const shard *x = (const shard *)a, *y = (const shard *)b;
    return x->k != y->k ? (x->k > y->k) - (x->k < y->k) : x->arg - y->arg;
}

/* Every shard 0 .. N-1 exactly once; sh is sorted by shard. */
static int check_cover(tt_ctx *ctx, const merge *m)
{
    for (int i = 1; i < m->n; i++) {
        const shard *a = &m->sh[i - 1], *b = &m->sh[i];
        if (a->k != b->k)
            continue;
        if (tt_same_file(a->file, b->file))
            return tt_err(ctx, TT_EFORMAT, "%s: given twice", b->path);
        return tt_err(ctx, TT_EFORMAT, "%s: shard %lld/%lld again (also %s)", b->path,
                      (long long)b->k, (long long)b->n, a->path);
    }
    int64_t n = m->sh[0].n, missing = n - m->n; /* K < N and all distinct: n <= N */
    if (!missing)
        return 0;
    char list[LIST_MISSING * 48] = "";
    size_t len = 0;
    int listed = 0, i = 0;
    for (int64_t k = 0; k < n && listed < LIST_MISSING; k++) {
        if (i < m->n && m->sh[i].k == k) {
            i++;
            continue;
        }
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%lld/%lld", listed ? ", " : "",
                                (long long)k, (long long)n);
        listed++;
    }
    if (missing > listed)
        return tt_err(ctx, TT_EFORMAT, "shards %s and %lld more missing", list,
                      (long long)(missing - listed));
    return tt_err(ctx, TT_EFORMAT, "shard%s %s missing", missing > 1 ? "s" : "", list);
}

/* The shard's row count, and its /sweep/index exactly K, K+N, K+2N, ... */
static int check_index(tt_ctx *ctx, const shard *s)
{
    int64_t want = tt_sweep_shard_count(s->total, s->k, s->n);
    if (s->rows != want)
        return tt_err(ctx, TT_EFORMAT,
                      "%s: rows %lld, but shard %lld/%lld of %lld configurations has %lld",
                      s->path, (long long)s->rows, (long long)s->k, (long long)s->n,
                      (long long)s->total, (long long)want);
    int64_t *idx = (int64_t *)malloc((size_t)(want > 0 ? want : 1) * sizeof *idx);
    if (!idx)
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld rows", (long long)want);
    hid_t d = H5Lexists(s->g, "index", H5P_DEFAULT) > 0 ? H5Dopen2(s->g, "index", H5P_DEFAULT)
                                                         : -1;
    hid_t t = d >= 0 ? H5Dget_type(d) : -1;
    int rc = 0;
    if (t < 0 || H5Tget_class(t) != H5T_INTEGER)
        rc = tt_err(ctx, TT_EFORMAT, "%s: no integer dataset /sweep/index", s->path);
    /* its length is checked with the other columns' */
    else if (want > 0 && H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, idx) < 0)
        rc = tt_err(ctx, TT_EFORMAT, "%s: cannot read /sweep/index (%lld entries expected)",
                    s->path, (long long)want);
    for (int64_t r = 0; !rc && r < want; r++)
        if (idx[r] != s->k + r * s->n)
            rc = tt_err(ctx, TT_EFORMAT,
                        "%s: /sweep/index[%lld] = %lld, expected %lld (shard %lld/%lld holds "
                        "configurations %lld, %lld, ...)",
                        s->path, (long long)r, (long long)idx[r], (long long)(s->k + r * s->n),
                        (long long)s->k, (long long)s->n, (long long)s->k,
                        (long long)(s->k + s->n));
    close_ids(2, t, d);
    free(idx);
    return rc;
}

/* ---- the columns ---- */

typedef struct {
    h5u_names *list;
    const char *prefix;
} col_lister;

static herr_t add_name(hid_t grp, const char *name, const H5L_info_t *info, void *arg)
{
    (void)grp;
    (void)info;
    const col_lister *c = (const col_lister *)arg;
    return tt_h5u_names_add(c->list, c->prefix, name) ? -1 : 0;
}

/* The columns of s in name order: index, metrics/..., params/... */
static int list_cols(tt_ctx *ctx, const shard *s, h5u_names *l)
{
    static const char *const groups[] = {GRP_METRICS, GRP_PARAMS};
    if (tt_h5u_names_add(l, "", "index"))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < 2; i++) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, "%s/", groups[i]);
        col_lister cl = {l, prefix};
        hid_t g = H5Lexists(s->g, groups[i], H5P_DEFAULT) > 0
                      ? H5Gopen2(s->g, groups[i], H5P_DEFAULT)
                      : -1;
        if (g < 0)
            return tt_err(ctx, TT_EFORMAT, "%s: no group /sweep/%s", s->path, groups[i]);
        herr_t rc = H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, add_name, &cl);
        H5Gclose(g);
        if (rc < 0)
            return tt_err(ctx, TT_EFORMAT, "%s: cannot list /sweep/%s", s->path, groups[i]);
    }
    return 0;
}

/* Column col of s: a 1-D dataset of s->rows entries of the type of ref's. */
static int check_col(tt_ctx *ctx, const shard *s, const shard *ref, const char *col)
{
    hid_t d = H5Dopen2(s->g, col, H5P_DEFAULT), r = H5Dopen2(ref->g, col, H5P_DEFAULT);
    hid_t t = d >= 0 ? H5Dget_type(d) : -1, rt = r >= 0 ? H5Dget_type(r) : -1;
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    int rc = 0;
    if (t < 0 || rt < 0 || sp < 0)
        rc = tt_err(ctx, TT_EFORMAT, "%s: /sweep/%s is not a dataset", d < 0 ? s->path : ref->path,
                    col);
    else if (H5Tequal(t, rt) <= 0)
        rc = tt_err(ctx, TT_EFORMAT, "%s: /sweep/%s: HDF5 type differs from that in %s", s->path,
                    col, ref->path);
    else if (H5Sget_simple_extent_ndims(sp) != 1 ||
             H5Sget_simple_extent_npoints(sp) != (hssize_t)s->rows)
        rc = tt_err(ctx, TT_EFORMAT, "%s: /sweep/%s: %lld entries in %d dimension(s), expected "
                    "%lld in 1 (rows)", s->path, col, (long long)H5Sget_simple_extent_npoints(sp),
                    H5Sget_simple_extent_ndims(sp), (long long)s->rows);
    close_ids(5, sp, t, rt, d, r);
    return rc;
}

/* The columns of s are those of m (shard 0's), each checked. */
static int check_cols(tt_ctx *ctx, const merge *m, const shard *s)
{
    h5u_names l = {0};
    int rc = list_cols(ctx, s, &l), i = 0, j = 0;
    while (!rc && (i < m->cols.n || j < l.n)) {
        int c = i == m->cols.n ? 1 : j == l.n ? -1 : strcmp(m->cols.v[i], l.v[j]);
        if (c < 0)
            rc = tt_err(ctx, TT_EFORMAT, "%s: no /sweep/%s (%s has it)", s->path, m->cols.v[i],
                        m->sh[0].path);
        else if (c > 0)
            rc = tt_err(ctx, TT_EFORMAT, "%s: /sweep/%s is not in %s", s->path, l.v[j],
                        m->sh[0].path);
        else
            rc = check_col(ctx, s, &m->sh[0], m->cols.v[i]);
        i++;
        j++;
    }
    tt_h5u_names_free(&l);
    return rc;
}

/* Reads column col of every shard into its configurations' places and
 * writes it whole under dst with shard 0's type and attributes. */
static int merge_col(merge *m, hid_t dst, const char *col)
{
    hid_t d0 = H5Dopen2(m->sh[0].g, col, H5P_DEFAULT);
    hid_t ft = d0 >= 0 ? H5Dget_type(d0) : -1;
    hid_t mt = ft >= 0 ? H5Tget_native_type(ft, H5T_DIR_ASCEND) : -1;
    size_t size = mt >= 0 ? H5Tget_size(mt) : 0;
    hsize_t dim = (hsize_t)m->total;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    char *all = size ? (char *)calloc((size_t)m->total, size) : NULL;
    char *part = size ? (char *)malloc((size_t)(m->most_rows > 0 ? m->most_rows : 1) * size) : NULL;
    int rc = all && part && sp >= 0 ? 0 : -1;
    for (int i = 0; !rc && i < m->n; i++) {
        const shard *s = &m->sh[i];
        hid_t d = s->rows > 0 ? H5Dopen2(s->g, col, H5P_DEFAULT) : -1;
        if (s->rows > 0 && (d < 0 || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, part) < 0)) {
            snprintf(m->err, sizeof m->err, "%s: cannot read /sweep/%s", s->path, col);
            rc = -1;
        }
        for (int64_t r = 0; !rc && r < s->rows; r++) /* index checked: K + r N */
            memcpy(all + (size_t)(s->k + r * s->n) * size, part + (size_t)r * size, size);
        if (d >= 0)
            H5Dclose(d);
    }
    if (!rc)
        rc = tt_h5u_write_col(dst, col, ft, mt, m->total, all, NULL, 0, 0);
    hid_t d = rc ? -1 : H5Dopen2(dst, col, H5P_DEFAULT);
    if (!rc)
        rc = d < 0 || copy_attrs(d0, d, NULL) ? -1 : 0;
    /* a metric that cannot be computed in a row of another shard only */
    int64_t missing;
    for (int i = 1; !rc && i < m->n && H5Aexists(d, "missing") <= 0; i++) {
        hid_t ds = m->sh[i].rows > 0 ? H5Dopen2(m->sh[i].g, col, H5P_DEFAULT) : -1;
        if (ds >= 0 && tt_h5u_attr_read_i64(ds, "missing", &missing) == 0)
            rc = tt_h5u_attr_i64(d, "missing", missing);
        if (ds >= 0)
            H5Dclose(ds);
    }
    if (all && sp >= 0) /* the strings the reads allocated; unfilled places are NULL */
        H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, all);
    free(all);
    free(part);
    close_ids(5, d, sp, mt, ft, d0);
    return rc;
}

/* The merged sweep into the file f (tt_h5u_save). 0 or -1. */
static int write_merged(hid_t f, void *arg)
{
    merge *m = (merge *)arg;
    hid_t g = tt_h5u_group(f, GRP_SWEEP);
    hid_t gp = g >= 0 ? tt_h5u_group(g, GRP_PARAMS) : -1;
    hid_t gm = g >= 0 ? tt_h5u_group(g, GRP_METRICS) : -1;
    int rc = g < 0 || gp < 0 || gm < 0 || copy_attrs(m->sh[0].g, g, m) ||
             tt_h5u_attr_str(g, "merged_from", m->from) ||
             (m->sims > 0 && tt_h5u_attr_i64(g, "distinct_simulations", m->sims));
    for (int i = 0; !rc && i < m->cols.n; i++)
        rc = merge_col(m, g, m->cols.v[i]);
    close_ids(3, gp, gm, g);
    return rc;
}

/* a + sep + b into *a (a malloc'd string or NULL). */
static int append(char **a, const char *sep, const char *b)
{
    size_t la = *a ? strlen(*a) : 0, len = la + strlen(sep) + strlen(b) + 1;
    char *v = (char *)realloc(*a, len);
    if (!v)
        return -1;
    snprintf(v + la, len - la, "%s%s", la ? sep : "", b);
    *a = v;
    return 0;
}

/* device, elapsed_s, sims_per_s, distinct_simulations and merged_from of
 * the merged file. The simulations are the shards' sum, what was run: a
 * canonical form in two shards ran in each. A shard with rows but no
 * count (every row simulated) leaves the merged file without one. */
static int join_attrs(tt_ctx *ctx, merge *m)
{
    m->shard_s = "0/1";
    m->sims = 0;
    for (int i = 0; i < m->n; i++) {
        const shard *s = &m->sh[i];
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= strcmp(m->sh[j].device, s->device) == 0;
        if ((!seen && append(&m->device, "; ", s->device)) || append(&m->from, "\n", s->path))
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        m->elapsed += s->elapsed; /* in shard order: the same sum whatever the file order */
        if (m->sims >= 0 && s->rows > 0)
            m->sims = s->sims >= 0 ? m->sims + s->sims : -1;
        if (s->rows > m->most_rows)
            m->most_rows = s->rows;
    }
    m->sims_per_s = m->elapsed > 0 ? (double)m->total / m->elapsed : 0.0;
    return 0;
}

static int check_all(tt_ctx *ctx, merge *m)
{
    int rc = 0;
    for (int i = 0; !rc && i < m->n; i++)
        rc = open_shard(ctx, &m->sh[i]);
    if (rc)
        return rc;
    qsort(m->sh, (size_t)m->n, sizeof *m->sh, by_shard);
    for (int i = 0; !rc && i < m->n; i++)
        rc = check_same(ctx, m, &m->sh[i], &m->sh[0]);
    if (!rc)
        rc = check_cover(ctx, m);
    for (int i = 0; !rc && i < m->n; i++)
        rc = check_index(ctx, &m->sh[i]);
    if (!rc)
        rc = list_cols(ctx, &m->sh[0], &m->cols);
    for (int i = 0; !rc && i < m->n; i++)
        rc = check_cols(ctx, m, &m->sh[i]);
    m->total = m->sh[0].total;
    return rc ? rc : join_attrs(ctx, m);
}

int tt_sweep_merge(tt_ctx *ctx, const char *out, const char *const *paths, int n,
                   tt_sweep_merge_info *info)
{
    return tt_sweep_merge_named(ctx, out, paths, paths, n, info);
}

/* The merge from the opening of the shards on; with rehearse set the
 * merged file is built in memory and dropped (tt_h5u_build), so that a
 * child makes the reads the merge makes (tt_h5u_rehearse). */
static int merge_run(tt_ctx *ctx, const char *out, const char *const *files,
                     const char *const *paths, int n, tt_sweep_merge_info *info, int rehearse)
{
    tt_h5u_quiet();
    merge m;
    memset(&m, 0, sizeof m);
    if (!(m.sh = (shard *)calloc((size_t)n, sizeof *m.sh)))
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    m.n = n;
    for (int i = 0; i < n; i++)
        m.sh[i] = (shard){.path = paths[i], .file = files[i], .arg = i, .f = -1, .g = -1};
    m.str_type = tt_h5u_vlen_utf8();
    int rc = check_all(ctx, &m);
    if (!rc && rehearse)
        rc = tt_h5u_build(write_merged, &m);
    else if (!rc && (rc = tt_h5u_save(ctx, out, write_merged, &m)) != 0 && m.err[0])
        rc = tt_err(ctx, TT_EFORMAT, "%s", m.err);
    if (!rc && info) {
        info->shards = m.sh[0].n;
        info->configurations = m.total;
    }
    for (int i = 0; i < n; i++) {
        close_ids(2, m.sh[i].g, m.sh[i].f);
        free(m.sh[i].device);
    }
    H5Tclose(m.str_type);
    tt_h5u_names_free(&m.cols);
    free(m.device);
    free(m.from);
    free(m.sh);
    return rc;
}

typedef struct {
    const char *const *files, *const *paths;
    int n;
} rehearsal;

static void rehearse_merge(void *arg)
{
    const rehearsal *r = (const rehearsal *)arg;
    merge_run(tt_ctx_create(), NULL, r->files, r->paths, r->n, NULL, 1);
}

/* One shard's reads as the merge makes them, to name the damaged one. */
static void rehearse_shard(void *arg)
{
    shard *s = (shard *)arg;
    tt_ctx *c = tt_ctx_create();
    h5u_names l = {0};
    if (open_shard(c, s) || check_index(c, s) || list_cols(c, s, &l))
        return; /* the child ends here; the parent's own reads then say why */
    for (int i = 0; i < l.n; i++) {
        hid_t d = H5Dopen2(s->g, l.v[i], H5P_DEFAULT);
        hid_t t = d >= 0 ? H5Dget_type(d) : -1, sp = d >= 0 ? H5Dget_space(d) : -1;
        hid_t mt = t >= 0 ? H5Tget_native_type(t, H5T_DIR_ASCEND) : -1;
        hssize_t np = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
        size_t size = mt >= 0 ? H5Tget_size(mt) : 0;
        void *buf = np > 0 && size && np <= s->rows ? calloc((size_t)np, size) : NULL;
        if (buf && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0)
            H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, buf);
        free(buf);
        close_ids(4, mt, sp, t, d);
    }
}

int tt_sweep_merge_named(tt_ctx *ctx, const char *out, const char *const *files,
                         const char *const *paths, int n, tt_sweep_merge_info *info)
{
    if (!out || !files || !paths || n < 1)
        return tt_err(ctx, TT_EINVAL, "no shard files to merge");
    tt_outfile o; /* the files read: a copy of standard input is never the output */
    int rc = tt_outfile_check(ctx, &o, out, files, n);
    if (rc)
        return rc;
    /* a shard without a seal that holds: the merge's reads rehearsed in a
     * child first, so that a damaged one is an error, not a hang */
    int i = 0;
    while (i < n && tt_h5u_sealed(files[i]))
        i++;
    if (i < n) {
        rehearsal r = {files, paths, n};
        size_t size = 0;
        for (int k = 0; k < n; k++)
            size += tt_h5u_file_size(files[k]);
        if ((rc = tt_h5u_rehearse(ctx, "the shards", size, rehearse_merge, &r))) {
            /* which: each shard's own reads, alone */
            for (int k = 0; k < n; k++) {
                shard s = {.path = paths[k], .file = files[k], .arg = k, .f = -1, .g = -1};
                if (!tt_h5u_sealed(files[k]) &&
                    tt_h5u_rehearse(ctx, paths[k], tt_h5u_file_size(files[k]), rehearse_shard,
                                    &s))
                    return TT_EFORMAT;
            }
            return tt_h5u_rehearse(ctx, "the shards", size, rehearse_merge, &r);
        }
    }
    return merge_run(ctx, out, files, paths, n, info, 0);
}
