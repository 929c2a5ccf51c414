/* The model table: each class's name and slowdowns at L1 and L2, read
 * from a file, from the copy of data/models.tsv compiled in, or from
 * arrays; the SHA-256 of its source for provenance. */
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "sim/simconf.h"
#include "tt/parse.h"
#include "tt/sim.h"

/* The text of data/models.tsv (models_default.c). */
extern const char tt_models_default_tsv[];

/* ---- the model table ---- */

struct tt_models {
    int n;
    char *names[TT_MAX_CLASSES];
    int64_t slow_l1[TT_MAX_CLASSES], slow_l2[TT_MAX_CLASSES];
    /* the scale column (SPEC 10.2): nscale[c] values sp(1), sp(2),
     * sp(4), ...; 0 values: linear */
    int32_t nscale[TT_MAX_CLASSES];
    int64_t scale[TT_MAX_CLASSES][TT_SCALE_VALUES];
    /* the mem_mb column (docs/model.md section 13): MiB of the fp32
     * weights, -1 unknown */
    int32_t mem_mb[TT_MAX_CLASSES];
    char *source;
    char sha256[65];
};

void tt_models_free(tt_models *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++)
        free(m->names[i]);
    free(m->source);
    free(m);
}

static tt_models *models_new(const char *source)
{
    tt_models *m = (tt_models *)calloc(1, sizeof *m);
    if (m && !(m->source = strdup(source))) {
        free(m);
        m = NULL;
    }
    return m;
}

/* Why name cannot be a class name, or NULL when it can. */
static const char *bad_name(const char *name)
{
    if (!*name)
        return "is empty";
    if (strlen(name) > NAME_MAX_LEN)
        return "is longer than 63 characters";
    if (strpbrk(name, ",: \t"))
        return "contains ',', ':' or a space (mix values use them as separators)";
    return NULL;
}

/* "1000,1975,3797,..." into v: sp(1) = 1000, never decreasing, at most
 * TT_SCALE_VALUES values. The count, or -1 with why. */
static int parse_scale(const char *text, int64_t *v, const char **why)
{
    int n = 0;
    const char *at = text;
    *why = "expected 1000 and then values that never decrease, separated by commas";
    for (;;) {
        char buf[24];
        size_t len = strcspn(at, ",");
        int64_t x;
        if (n == TT_SCALE_VALUES) {
            *why = "more than 8 values (1 .. 128 GPUs)";
            return -1;
        }
        if (len == 0 || len >= sizeof buf)
            return -1;
        memcpy(buf, at, len);
        buf[len] = '\0';
        if (tt_parse_i64(buf, &x) || x < 1000 || x > 1000000000 || (n == 0 && x != 1000) ||
            (n > 0 && x < v[n - 1]))
            return -1;
        v[n++] = x;
        if (!at[len])
            return n;
        at += len + 1;
    }
}

static int models_read(tt_ctx *ctx, const char *path, tt_src *mem, tt_models *m)
{
    static const char *const need[5] = {"name", "slow_l1", "slow_l2", "?scale", "?mem_mb"};
    static const char range[] = "an integer 1000 .. 1000000 (permille)";
    tt_conftab t;
    int idx[5], rc = tt_conftab_open(&t, ctx, path, mem, need, 5, idx);
    int64_t lines[TT_MAX_CLASSES];
    while (!rc && (rc = tt_conftab_next(&t)) == 1) {
        rc = 0;
        const char *name = t.f[idx[0]], *why = bad_name(name);
        if (why) {
            rc = tt_conftab_fail(&t, "field 'name': '%.*s' %s", NAME_MAX_LEN, name, why);
            break;
        }
        int dup = tt_models_find(m, name);
        if (dup >= 0) {
            rc = tt_conftab_fail(&t, "field 'name': '%s' already named on line %lld", name,
                                 (long long)lines[dup]);
            break;
        }
        if (m->n == TT_MAX_CLASSES) {
            rc = tt_conftab_fail(&t, "more than %d model classes", TT_MAX_CLASSES);
            break;
        }
        int64_t l1, l2;
        if ((rc = tt_conftab_int(&t, "slow_l1", t.f[idx[1]], 1000, 1000000, range, &l1)) ||
            (rc = tt_conftab_int(&t, "slow_l2", t.f[idx[2]], 1000, 1000000, range, &l2)))
            break;
        if (idx[3] >= 0) {
            const char *swhy;
            int ns = parse_scale(t.f[idx[3]], m->scale[m->n], &swhy);
            if (ns < 0) {
                rc = tt_conftab_fail(&t, "field 'scale': %s, got '%.60s'", swhy, t.f[idx[3]]);
                break;
            }
            m->nscale[m->n] = ns;
        }
        int64_t mb = -1;
        if (idx[4] >= 0 &&
            (rc = tt_conftab_int(&t, "mem_mb", t.f[idx[4]], -1, INT32_MAX,
                                 "MiB 0 .. 2147483647, or -1 (unknown)", &mb)))
            break;
        m->mem_mb[m->n] = (int32_t)mb;
        /* the name is copied last: a row that fails leaves nothing to free */
        if (!(m->names[m->n] = strdup(name))) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        m->slow_l1[m->n] = l1;
        m->slow_l2[m->n] = l2;
        lines[m->n++] = tt_src_lineno(t.src);
    }
    if (!rc && m->n == 0)
        rc = tt_conftab_fail(&t, "no model class: expected rows of name slow_l1 slow_l2");
    if (!rc)
        rc = tt_src_finish(t.src, ctx, m->sha256);
    if (!mem) /* a memory source is closed by its opener */
        tt_conftab_close(&t);
    return rc;
}

int tt_models_load(tt_ctx *ctx, const char *path, tt_models **out)
{
    *out = NULL;
    tt_models *m = models_new(path);
    if (!m)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc = models_read(ctx, path, NULL, m);
    if (rc) {
        tt_models_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int tt_models_default(tt_ctx *ctx, tt_models **out)
{
    *out = NULL;
    tt_src *s = NULL;
    tt_models *m = models_new("(built in)");
    int rc = m ? tt_src_open_mem(ctx, tt_models_default_tsv, strlen(tt_models_default_tsv),
                                 "(built in)", &s)
               : tt_err(ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = models_read(ctx, NULL, s, m);
    tt_src_close(s);
    if (rc) {
        tt_models_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

int tt_models_create(tt_ctx *ctx, int n, const char *const *names, const int64_t *slow_l1,
                     const int64_t *slow_l2, tt_models **out)
{
    *out = NULL;
    if (n < 1 || n > TT_MAX_CLASSES)
        return tt_err(ctx, TT_EINVAL, "%d model classes: expected 1 .. %d", n, TT_MAX_CLASSES);
    tt_models *m = models_new("(in memory)");
    if (!m)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    tt_sha256 sha;
    tt_sha256_init(&sha);
    tt_sha256_update(&sha, "name\tslow_l1\tslow_l2\n", 21);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        const char *why = bad_name(names[i]);
        char row[128];
        if (why)
            rc = tt_err(ctx, TT_EINVAL, "model %d: name '%.*s' %s", i, NAME_MAX_LEN,
                        names[i], why);
        else if (tt_models_find(m, names[i]) >= 0)
            rc = tt_err(ctx, TT_EINVAL, "model %d: name '%s' given twice", i, names[i]);
        else if (slow_l1[i] < 1000 || slow_l1[i] > 1000000 || slow_l2[i] < 1000 ||
                 slow_l2[i] > 1000000)
            rc = tt_err(ctx, TT_EINVAL, "model %d ('%s'): slowdowns %lld, %lld: expected "
                        "1000 .. 1000000 (permille)", i, names[i], (long long)slow_l1[i],
                        (long long)slow_l2[i]);
        else if (!(m->names[i] = strdup(names[i])))
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
        if (rc)
            break;
        m->slow_l1[i] = slow_l1[i];
        m->slow_l2[i] = slow_l2[i];
        m->mem_mb[i] = -1;
        m->n = i + 1;
        int len = snprintf(row, sizeof row, "%s\t%lld\t%lld\n", names[i], (long long)slow_l1[i],
                           (long long)slow_l2[i]);
        tt_sha256_update(&sha, row, (size_t)len);
    }
    if (rc) {
        tt_models_free(m);
        return rc;
    }
    tt_sha256_hex(&sha, m->sha256);
    *out = m;
    return 0;
}

int tt_models_count(const tt_models *m) { return m ? m->n : 0; }

int tt_models_find(const tt_models *m, const char *name)
{
    for (int i = 0; m && i < m->n; i++)
        if (strcmp(m->names[i], name) == 0)
            return i;
    return -1;
}

/* Out-of-range classes give NULL and 0: no caller should ask for them. */
const char *tt_models_name(const tt_models *m, int c)
{
    return m && c >= 0 && c < m->n ? m->names[c] : NULL;
}

int tt_models_scale(const tt_models *m, int c, int64_t *sp)
{
    if (!m || c < 0 || c >= m->n)
        return 0;
    for (int q = 0; q < m->nscale[c]; q++)
        sp[q] = m->scale[c][q];
    return m->nscale[c];
}

int tt_models_set_scale(tt_ctx *ctx, tt_models *m, int c, int n, const int64_t *sp)
{
    if (!m || c < 0 || c >= m->n || n < 0 || n > TT_SCALE_VALUES)
        return tt_err(ctx, TT_EINVAL, "scale of class %d: no such class, or not 0 .. %d values",
                      c, TT_SCALE_VALUES);
    for (int q = 0; q < n; q++)
        if (sp[q] < 1000 || sp[q] > 1000000000 || (q == 0 && sp[q] != 1000) ||
            (q > 0 && sp[q] < sp[q - 1]))
            return tt_err(ctx, TT_EINVAL, "scale of class '%s': expected 1000 and then values "
                          "that never decrease", m->names[c]);
    for (int q = 0; q < n; q++)
        m->scale[c][q] = sp[q];
    m->nscale[c] = n;
    return 0;
}

int32_t tt_models_mem_mb(const tt_models *m, int c)
{
    return m && c >= 0 && c < m->n ? m->mem_mb[c] : -1;
}

int tt_models_set_mem_mb(tt_ctx *ctx, tt_models *m, int c, int32_t mb)
{
    if (!m || c < 0 || c >= m->n || mb < -1)
        return tt_err(ctx, TT_EINVAL, "mem_mb of class %d: no such class, or below -1", c);
    m->mem_mb[c] = mb;
    return 0;
}

int64_t tt_models_slow_l1(const tt_models *m, int c)
{
    return m && c >= 0 && c < m->n ? m->slow_l1[c] : 0;
}

int64_t tt_models_slow_l2(const tt_models *m, int c)
{
    return m && c >= 0 && c < m->n ? m->slow_l2[c] : 0;
}

const char *tt_models_source(const tt_models *m) { return m->source; }
const char *tt_models_sha256(const tt_models *m) { return m->sha256; }
