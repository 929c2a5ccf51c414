/* What a simulation is configured with and how its results read as text:
 * the cluster, the scheduler's parameters, the model table, the jobs as the
 * engine takes them, and the metrics' names. The engine is in sim.c. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/sha256.h"
#include "io/src.h"
#include "tt/parse.h"
#include "tt/sim.h"

/* The text of data/models.tsv (models_default.c). */
extern const char tt_models_default_tsv[];

/* Model names go into mix values (NAME:WEIGHT,...) and TSV columns. The
 * length bound keeps a formatted mix within TT_MAX_CLASSES * 75 bytes. */
#define NAME_MAX_LEN 63
#define MAX_FIELDS 64

/* Quotes a value for a message, cut to a readable length. */
static const char *shown(const char *text, char *buf, size_t size)
{
    if (strlen(text) < size - 4)
        return text;
    snprintf(buf, size, "%.*s...", (int)(size - 4), text);
    return buf;
}

/* ---- small TSV tables (cluster and model files) ---- */

typedef struct {
    tt_ctx *ctx;
    tt_src *src;
    int nh;              /* header fields */
    char *f[MAX_FIELDS]; /* fields of the last line read */
} table;

/* A TT_EPARSE error prefixed with "FILE:LINE: ". */
static int tfail(table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int tfail(table *t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int64_t line = tt_src_lineno(t->src);
    return tt_err(t->ctx, TT_EPARSE, "%s:%lld: %s", tt_src_label(t->src),
                  (long long)(line ? line : 1), msg);
}

/* The next non-blank line split on tabs, fields trimmed: 1, 0 at the end,
 * or a negative code. */
static int table_row(table *t, int *nf)
{
    char *line;
    for (;;) {
        int rc = tt_src_getline(t->src, t->ctx, &line, NULL);
        if (rc <= 0)
            return rc;
        if (line[strspn(line, " \t")] != '\0')
            break;
    }
    int n = tt_tab_split(line, t->f, MAX_FIELDS);
    if (n > MAX_FIELDS)
        return tfail(t, "%d fields, at most %d expected", n, MAX_FIELDS);
    for (int i = 0; i < n; i++)
        t->f[i] = tt_trim(t->f[i]);
    *nf = n;
    return 1;
}

/* Opens path (or takes the open source mem) and reads its header; idx[k]
 * gets the column of need[k], found by name. */
static int table_open(table *t, tt_ctx *ctx, const char *path, tt_src *mem,
                      const char *const *need, int nneed, int *idx)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->src = mem;
    int rc = mem ? 0 : tt_src_open(ctx, path, &t->src);
    if (rc)
        return rc;
    int n = 0;
    rc = table_row(t, &n);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return tfail(t, "empty: no header line");
    for (int k = 0; k < nneed; k++) {
        idx[k] = -1;
        for (int i = 0; i < n && idx[k] < 0; i++)
            if (strcmp(t->f[i], need[k]) == 0)
                idx[k] = i;
        if (idx[k] < 0)
            return tfail(t, "field '%s': no such column in the header", need[k]);
    }
    t->nh = n;
    return 0;
}

static void table_close(table *t) { tt_src_close(t->src); }

/* The next data row, with exactly the header's field count. */
static int table_next(table *t)
{
    int n = 0;
    int rc = table_row(t, &n);
    if (rc == 1 && n != t->nh)
        return tfail(t, "expected %d fields, got %d", t->nh, n);
    return rc;
}

/* An integer field in [min, max]; want describes the range. */
static int table_int(table *t, const char *field, const char *text, int64_t min, int64_t max,
                     const char *want, int64_t *out)
{
    char buf[64];
    if (tt_parse_i64(text, out) || *out < min || *out > max)
        return tfail(t, "field '%s': expected %s, got '%s'", field, want,
                     shown(text, buf, sizeof buf));
    return 0;
}

/* ---- the cluster ---- */

static const char *const cluster_fields[3] = {"racks", "nodes_per_rack", "gpus_per_node"};

/* Total GPUs of r x n x g, or -1 when past TT_MAX_CLUSTER_GPUS (each
 * factor is an int32 >= 1, so r * n cannot overflow). */
static int64_t cluster_gpus(const int64_t v[3])
{
    int64_t rn = v[0] * v[1];
    if (rn > TT_MAX_CLUSTER_GPUS || rn * v[2] > TT_MAX_CLUSTER_GPUS)
        return -1;
    return rn * v[2];
}

static void cluster_set(tt_cluster *c, const int64_t v[3])
{
    c->racks = (int32_t)v[0];
    c->nodes_per_rack = (int32_t)v[1];
    c->gpus_per_node = (int32_t)v[2];
}

/* "RxNxG": digits, signs and x only, so that "4x32" is a malformed
 * cluster rather than a file name. */
static int is_cluster_text(const char *s)
{
    return *s && strspn(s, "0123456789+-x") == strlen(s) && strchr(s, 'x');
}

static int cluster_text(tt_ctx *ctx, const char *spec, tt_cluster *c)
{
    char buf[64], part[3][32];
    const char *p = spec;
    int n = 0;
    for (;;) {
        size_t len = strcspn(p, "x");
        /* a part too long for any int32 is cut for the message (and fails) */
        if (n < 3 && len < sizeof part[n])
            snprintf(part[n], sizeof part[n], "%.*s", (int)len, p);
        else if (n < 3)
            snprintf(part[n], sizeof part[n], "%.20s...", p);
        n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    if (n != 3)
        return tt_err(ctx, TT_EINVAL,
                      "cluster '%s': expected RxNxG (racks x nodes per rack x GPUs per node, "
                      "e.g. 4x32x8) or a cluster file",
                      shown(spec, buf, sizeof buf));
    int64_t v[3];
    for (int i = 0; i < 3; i++)
        if (tt_parse_i64(part[i], &v[i]) || v[i] < 1 || v[i] > INT32_MAX)
            return tt_err(ctx, TT_EINVAL, "cluster '%s': field '%s': expected an integer "
                          "1 .. %d, got '%s'", shown(spec, buf, sizeof buf), cluster_fields[i],
                          INT32_MAX, part[i]);
    if (cluster_gpus(v) < 0)
        return tt_err(ctx, TT_EINVAL, "cluster '%s': more than %d GPUs in all",
                      shown(spec, buf, sizeof buf), TT_MAX_CLUSTER_GPUS);
    cluster_set(c, v);
    return 0;
}

static int cluster_file(tt_ctx *ctx, const char *path, tt_cluster *c)
{
    table t;
    int idx[3];
    int64_t v[3];
    int rc = table_open(&t, ctx, path, NULL, cluster_fields, 3, idx);
    if (!rc) {
        rc = table_next(&t);
        if (rc == 0)
            rc = tfail(&t, "no data row: expected one row of racks nodes_per_rack "
                           "gpus_per_node");
        else if (rc == 1)
            rc = 0;
    }
    for (int i = 0; i < 3 && !rc; i++)
        rc = table_int(&t, cluster_fields[i], t.f[idx[i]], 1, INT32_MAX,
                       "an integer >= 1", &v[i]);
    if (!rc && cluster_gpus(v) < 0)
        rc = tfail(&t, "more than %d GPUs in all", TT_MAX_CLUSTER_GPUS);
    if (!rc) {
        int more = table_next(&t);
        rc = more == 1 ? tfail(&t, "a second row: a cluster file has one row") : more;
    }
    if (!rc)
        cluster_set(c, v);
    table_close(&t);
    return rc;
}

int tt_cluster_parse(tt_ctx *ctx, const char *spec, tt_cluster *c)
{
    return is_cluster_text(spec) ? cluster_text(ctx, spec, c) : cluster_file(ctx, spec, c);
}

void tt_cluster_format(const tt_cluster *c, char *buf, size_t size)
{
    snprintf(buf, size, "%dx%dx%d", c->racks, c->nodes_per_rack, c->gpus_per_node);
}

/* ---- the model table ---- */

struct tt_models {
    int n;
    char *names[TT_MAX_CLASSES];
    int64_t slow_l1[TT_MAX_CLASSES], slow_l2[TT_MAX_CLASSES];
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

static int models_read(tt_ctx *ctx, const char *path, tt_src *mem, tt_models *m)
{
    static const char *const need[3] = {"name", "slow_l1", "slow_l2"};
    static const char range[] = "an integer 1000 .. 1000000 (permille)";
    table t;
    int idx[3], rc = table_open(&t, ctx, path, mem, need, 3, idx);
    int64_t lines[TT_MAX_CLASSES];
    while (!rc && (rc = table_next(&t)) == 1) {
        rc = 0;
        const char *name = t.f[idx[0]], *why = bad_name(name);
        if (why) {
            rc = tfail(&t, "field 'name': '%.*s' %s", NAME_MAX_LEN, name, why);
            break;
        }
        int dup = tt_models_find(m, name);
        if (dup >= 0) {
            rc = tfail(&t, "field 'name': '%s' already named on line %lld", name,
                       (long long)lines[dup]);
            break;
        }
        if (m->n == TT_MAX_CLASSES) {
            rc = tfail(&t, "more than %d model classes", TT_MAX_CLASSES);
            break;
        }
        int64_t l1, l2;
        if ((rc = table_int(&t, "slow_l1", t.f[idx[1]], 1000, 1000000, range, &l1)) ||
            (rc = table_int(&t, "slow_l2", t.f[idx[2]], 1000, 1000000, range, &l2)))
            break;
        if (!(m->names[m->n] = strdup(name))) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        m->slow_l1[m->n] = l1;
        m->slow_l2[m->n] = l2;
        lines[m->n++] = tt_src_lineno(t.src);
    }
    if (!rc && m->n == 0)
        rc = tfail(&t, "no model class: expected rows of name slow_l1 slow_l2");
    if (!rc)
        rc = tt_src_finish(t.src, ctx, m->sha256);
    if (!mem) /* a memory source is closed by its opener */
        table_close(&t);
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

/* ---- parameters ---- */

enum {
    P_ORDER, P_W0, P_W1, P_THETA, P_RESTART, P_CONGESTION, P_MIN_RUN, P_MAX_PREEMPT,
    P_BACKFILL, P_LOAD, P_SEED, P_MIX, P_TIMERS
};

const char *const tt_param_names[TT_NPARAMS] = {
    "order",      "w0",      "w1",          "theta",    "restart", "congestion",
    "min_run",    "max_preempt", "backfill", "load",    "seed",    "mix", "timers"};

static const char *const order_names[] = {"fifo", "sjf", "srtf", "las"};

/* The int64 parameters: where they live, their range, whether "inf"
 * (TT_INF) is allowed, and the words of the message. */
typedef struct {
    size_t off;
    int64_t min, max;
    int inf;
    const char *want;
} num_param;

#define NUM(f, lo, hi, inf, want) {offsetof(tt_params, f), lo, hi, inf, want}
static const num_param nums[TT_NPARAMS] = {
    [P_W0] = NUM(w0, 0, INT64_MAX, 1, "seconds >= 0 or inf"),
    [P_W1] = NUM(w1, 0, INT64_MAX, 1, "seconds >= 0 or inf"),
    [P_THETA] = NUM(theta, 0, INT64_MAX, 1, "permille >= 0 or inf"),
    [P_RESTART] = NUM(restart, 0, INT64_C(4294967296), 0, "seconds 0 .. 4294967296"),
    [P_CONGESTION] = NUM(congestion, 0, 999, 0, "permille 0 .. 999"),
    [P_MIN_RUN] = NUM(min_run, 0, INT64_MAX, 0, "seconds >= 0"),
    [P_MAX_PREEMPT] = NUM(max_preempt, 0, INT64_MAX, 0, "a count >= 0"),
    [P_LOAD] = NUM(load, 1, 1000000, 0, "permille 1 .. 1000000"),
};

void tt_params_default(tt_params *p)
{
    memset(p, 0, sizeof *p);
    p->order = TT_ORDER_FIFO;
    p->w0 = p->w1 = p->theta = TT_INF;
    p->restart = 30;
    p->congestion = 0;
    p->min_run = 300;
    p->max_preempt = 3;
    p->backfill = 1;
    p->load = 1000;
    p->seed = 1;
    for (int c = 0; c < TT_MAX_CLASSES; c++) {
        p->mix[c] = 1;
        p->class_w0[c] = p->class_w1[c] = TT_TIMER_GLOBAL;
    }
    p->mix_set = 0;
}

static int bad_value(tt_ctx *ctx, const char *name, const char *want, const char *value)
{
    char buf[64];
    return tt_err(ctx, TT_EINVAL, "parameter '%s': expected %s, got '%s'", name, want,
                  shown(value, buf, sizeof buf));
}

/* Decimal digits only, no sign: the whole uint64_t range. */
static int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* NAME:WEIGHT,... into mix; unnamed classes weigh 0. */
static int set_mix(tt_ctx *ctx, tt_params *p, const tt_models *m, const char *value)
{
    static const char pairs[] = "NAME:WEIGHT pairs separated by commas";
    char buf[64];
    if (!m)
        return tt_err(ctx, TT_EINVAL, "parameter 'mix': no model table to name classes from");
    uint32_t mix[TT_MAX_CLASSES] = {0};
    int named[TT_MAX_CLASSES] = {0};
    int64_t total = 0;
    const char *item = value;
    for (;;) {
        size_t len = strcspn(item, ",");
        const char *colon = memchr(item, ':', len);
        char name[NAME_MAX_LEN + 2], wtext[32];
        size_t nlen = colon ? (size_t)(colon - item) : 0, wlen = colon ? len - nlen - 1 : 0;
        if (!colon || nlen == 0 || wlen == 0) {
            snprintf(buf, sizeof buf, "%.*s", (int)(len < 60 ? len : 60), item);
            return tt_err(ctx, TT_EINVAL, "parameter 'mix': expected %s, got '%s'", pairs,
                          len ? buf : "");
        }
        snprintf(name, sizeof name, "%.*s", (int)(nlen <= NAME_MAX_LEN ? nlen : NAME_MAX_LEN + 1),
                 item);
        int c = nlen <= NAME_MAX_LEN ? tt_models_find(m, name) : -1;
        if (c < 0) {
            char known[TT_MAX_CLASSES * (NAME_MAX_LEN + 1) + 1] = "";
            size_t k = 0;
            for (int i = 0; i < m->n; i++)
                k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? " " : "",
                                      m->names[i]);
            return tt_err(ctx, TT_EINVAL, "parameter 'mix': unknown class '%s' (classes: %s)",
                          shown(name, buf, sizeof buf), known);
        }
        if (named[c])
            return tt_err(ctx, TT_EINVAL, "parameter 'mix': class '%s' given twice", name);
        named[c] = 1;
        snprintf(wtext, sizeof wtext, "%.*s", (int)(wlen < sizeof wtext ? wlen : sizeof wtext - 1),
                 colon + 1);
        int64_t w;
        if (wlen >= sizeof wtext || tt_parse_i64(wtext, &w) || w < 0 || w > INT32_MAX)
            return tt_err(ctx, TT_EINVAL,
                          "parameter 'mix': weight of '%s': expected an integer 0 .. %d, got "
                          "'%.*s'", name, INT32_MAX, (int)(wlen < 40 ? wlen : 40), colon + 1);
        mix[c] = (uint32_t)w;
        total += w;
        if (!item[len])
            break;
        item += len + 1;
    }
    if (total == 0)
        return tt_err(ctx, TT_EINVAL, "parameter 'mix': expected at least one weight > 0, got "
                      "'%s'", shown(value, buf, sizeof buf));
    memcpy(p->mix, mix, sizeof mix);
    p->mix_set = 1;
    return 0;
}

/* ---- per-class timers ---- */

int tt_params_class_timers(const tt_params *p)
{
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        if (p->class_w0[c] != TT_TIMER_GLOBAL || p->class_w1[c] != TT_TIMER_GLOBAL)
            return 1;
    return 0;
}

int tt_params_class_timer_name(const tt_models *models, const char *name, int *which, int *cls)
{
    if ((strncmp(name, "w0.", 3) != 0 && strncmp(name, "w1.", 3) != 0) || !name[3])
        return 0;
    *which = name[1] - '0';
    *cls = models ? tt_models_find(models, name + 3) : -1;
    return *cls < 0 ? -1 : 1;
}

/* The classes of m, space-separated, for messages. */
static void class_list(const tt_models *m, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", m->names[i]);
}

/* One class timer: seconds >= 0, inf, or "-" (the global one). */
static int parse_timer(const char *text, size_t len, int64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (strcmp(buf, "-") == 0) {
        *out = TT_TIMER_GLOBAL;
        return 0;
    }
    if (strcmp(buf, "inf") == 0) {
        *out = TT_INF;
        return 0;
    }
    return tt_parse_i64(buf, out) || *out < 0 ? -1 : 0;
}

/* CLASS:W0:W1,... into class_w0/class_w1; unnamed classes use the global
 * pair. */
static int set_timers(tt_ctx *ctx, tt_params *p, const tt_models *m, const char *value)
{
    static const char want[] = "CLASS:W0:W1 triples separated by commas (W0, W1: seconds, "
                               "inf, or - for the global timer)";
    char buf[64], known[TT_MAX_CLASSES * (NAME_MAX_LEN + 1) + 1];
    if (!m)
        return tt_err(ctx, TT_EINVAL, "parameter 'timers': no model table to name classes from");
    int64_t w0[TT_MAX_CLASSES], w1[TT_MAX_CLASSES];
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        w0[c] = w1[c] = TT_TIMER_GLOBAL;
    if (*value && strcmp(value, "-") != 0) {
        const char *item = value;
        for (;;) {
            size_t len = strcspn(item, ",");
            const char *c1 = memchr(item, ':', len);
            const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - item)) : NULL;
            size_t nlen = c1 ? (size_t)(c1 - item) : 0;
            int64_t a, b;
            snprintf(buf, sizeof buf, "%.*s", (int)(len < 60 ? len : 60), item);
            if (!c2 || nlen == 0 || parse_timer(c1 + 1, (size_t)(c2 - c1 - 1), &a) ||
                parse_timer(c2 + 1, len - (size_t)(c2 + 1 - item), &b))
                return tt_err(ctx, TT_EINVAL, "parameter 'timers': expected %s, got '%s'", want,
                              buf);
            char name[NAME_MAX_LEN + 2];
            snprintf(name, sizeof name, "%.*s",
                     (int)(nlen <= NAME_MAX_LEN ? nlen : NAME_MAX_LEN + 1), item);
            int c = nlen <= NAME_MAX_LEN ? tt_models_find(m, name) : -1;
            if (c < 0) {
                class_list(m, known, sizeof known);
                return tt_err(ctx, TT_EINVAL,
                              "parameter 'timers': unknown class '%s' (classes: %s)",
                              shown(name, buf, sizeof buf), known);
            }
            if (w0[c] != TT_TIMER_GLOBAL || w1[c] != TT_TIMER_GLOBAL)
                return tt_err(ctx, TT_EINVAL, "parameter 'timers': class '%s' given twice",
                              name);
            w0[c] = a;
            w1[c] = b;
            if (!item[len])
                break;
            item += len + 1;
        }
    }
    memcpy(p->class_w0, w0, sizeof w0);
    memcpy(p->class_w1, w1, sizeof w1);
    return 0;
}

/* "w0.CLASS" or "w1.CLASS" = value; 1 when name is not of that form. */
static int set_class_timer(tt_ctx *ctx, tt_params *p, const tt_models *m, const char *name,
                           const char *value)
{
    int which, c, k = tt_params_class_timer_name(m, name, &which, &c);
    char buf[64], known[TT_MAX_CLASSES * (NAME_MAX_LEN + 1) + 1];
    if (k == 0)
        return 1;
    if (k < 0) {
        if (!m)
            return tt_err(ctx, TT_EINVAL,
                          "parameter '%s': no model table to name classes from",
                          shown(name, buf, sizeof buf));
        class_list(m, known, sizeof known);
        return tt_err(ctx, TT_EINVAL, "parameter '%s': unknown class '%s' (classes: %s)",
                      shown(name, buf, sizeof buf), name + 3, known);
    }
    int64_t v;
    if (parse_timer(value, strlen(value), &v))
        return tt_err(ctx, TT_EINVAL, "parameter '%s': expected seconds >= 0, inf or -, got '%s'",
                      name, shown(value, buf, sizeof buf));
    (which ? p->class_w1 : p->class_w0)[c] = v;
    return 0;
}

static int param_index(const char *name)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            return i;
    return -1;
}

int tt_params_set(tt_ctx *ctx, tt_params *p, const tt_models *models, const char *name,
                  const char *value)
{
    int i = param_index(name);
    if (i < 0) {
        int rc = set_class_timer(ctx, p, models, name, value);
        if (rc <= 0)
            return rc;
        char buf[64], known[256] = "";
        size_t k = 0;
        for (int j = 0; j < TT_NPARAMS; j++)
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", j ? " " : "",
                                  tt_param_names[j]);
        return tt_err(ctx, TT_EINVAL, "unknown parameter '%s' (known: %s w0.CLASS w1.CLASS)",
                      shown(name, buf, sizeof buf), known);
    }
    switch (i) {
    case P_ORDER:
        for (int o = 0; o < 4; o++)
            if (strcmp(value, order_names[o]) == 0) {
                p->order = o;
                return 0;
            }
        return bad_value(ctx, name, "fifo, sjf, srtf or las", value);
    case P_BACKFILL:
        if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
            return bad_value(ctx, name, "0 or 1", value);
        p->backfill = value[0] - '0';
        return 0;
    case P_SEED: {
        uint64_t s;
        if (parse_u64(value, &s))
            return bad_value(ctx, name, "an integer 0 .. 18446744073709551615", value);
        p->seed = s;
        return 0;
    }
    case P_MIX: return set_mix(ctx, p, models, value);
    case P_TIMERS: return set_timers(ctx, p, models, value);
    default: {
        const num_param *q = &nums[i];
        int64_t v;
        if (q->inf && strcmp(value, "inf") == 0)
            v = TT_INF;
        else if (tt_parse_i64(value, &v) || v < q->min || v > q->max)
            return bad_value(ctx, name, q->want, value);
        *(int64_t *)((char *)p + q->off) = v;
        return 0;
    }
    }
}

/* A class timer as parse_timer reads it. */
static void timer_text(int64_t v, char *buf, size_t size)
{
    if (v == TT_TIMER_GLOBAL)
        snprintf(buf, size, "-");
    else if (v == TT_INF)
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%lld", (long long)v);
}

int tt_params_format(const tt_params *p, const tt_models *models, int i, char *buf, size_t size)
{
    if (size == 0)
        return TT_EINVAL;
    buf[0] = '\0';
    int n = 0;
    switch (i) {
    case P_ORDER:
        n = snprintf(buf, size, "%s",
                     p->order >= 0 && p->order < 4 ? order_names[p->order] : "?");
        break;
    case P_BACKFILL: n = snprintf(buf, size, "%d", p->backfill); break;
    case P_SEED: n = snprintf(buf, size, "%llu", (unsigned long long)p->seed); break;
    case P_MIX: {
        if (!models)
            return TT_EINVAL;
        size_t k = 0;
        for (int c = 0; c < models->n; c++) {
            if (!p->mix[c])
                continue; /* unnamed classes weigh 0 */
            n = snprintf(buf + k, size - k, "%s%s:%u", k ? "," : "", models->names[c],
                         (unsigned)p->mix[c]);
            if (n < 0 || (size_t)n >= size - k) {
                buf[0] = '\0';
                return TT_EINVAL;
            }
            k += (size_t)n;
        }
        return 0;
    }
    case P_TIMERS: {
        if (!tt_params_class_timers(p)) {
            n = snprintf(buf, size, "-");
            break;
        }
        if (!models)
            return TT_EINVAL;
        size_t k = 0;
        for (int c = 0; c < models->n; c++) {
            if (p->class_w0[c] == TT_TIMER_GLOBAL && p->class_w1[c] == TT_TIMER_GLOBAL)
                continue;
            char a[24], b[24];
            timer_text(p->class_w0[c], a, sizeof a);
            timer_text(p->class_w1[c], b, sizeof b);
            n = snprintf(buf + k, size - k, "%s%s:%s:%s", k ? "," : "", models->names[c], a, b);
            if (n < 0 || (size_t)n >= size - k) {
                buf[0] = '\0';
                return TT_EINVAL;
            }
            k += (size_t)n;
        }
        return 0;
    }
    default: {
        if (i < 0 || i >= TT_NPARAMS)
            return TT_EINVAL;
        int64_t v = *(const int64_t *)((const char *)p + nums[i].off);
        if (nums[i].inf && v == TT_INF)
            n = snprintf(buf, size, "inf");
        else
            n = snprintf(buf, size, "%lld", (long long)v);
    }
    }
    if (n < 0 || (size_t)n >= size) {
        buf[0] = '\0';
        return TT_EINVAL;
    }
    return 0;
}

int tt_params_format_options(const tt_params *p, const tt_models *models, char *buf,
                             size_t size)
{
    if (size == 0)
        return TT_EINVAL;
    tt_params def;
    tt_params_default(&def);
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < TT_NPARAMS; i++) {
        /* compared as text: a parameter the table cannot write (a mix
         * without models) is "" on both sides and left out */
        char v[TT_PARAM_TEXT_MAX], d[TT_PARAM_TEXT_MAX];
        tt_params_format(p, models, i, v, sizeof v);
        tt_params_format(&def, models, i, d, sizeof d);
        if (strcmp(v, d) == 0)
            continue;
        int n = snprintf(buf + at, size - at, "%s-p %s=%s", at ? " " : "", tt_param_names[i], v);
        if (n < 0 || (size_t)n >= size - at)
            return TT_ERANGE;
        at += (size_t)n;
    }
    return 0;
}

/* ---- jobs ---- */

int tt_sim_jobs_from_trace(tt_ctx *ctx, const tt_trace *t, const tt_models *m,
                           tt_sim_jobs *out)
{
    memset(out, 0, sizeof *out);
    if (!tt_trace_is_sorted(t))
        return tt_err(ctx, TT_EINVAL, "the trace is not sorted by submit time");
    /* a run time in training steps (gavel) has no meaning as seconds */
    if (t->prov.duration_unit && *t->prov.duration_unit && strcmp(t->prov.duration_unit, "s"))
        return tt_err(ctx, TT_EINVAL,
                      "durations are in %s, not seconds (duration_unit): the trace cannot be "
                      "simulated as it is",
                      t->prov.duration_unit);
    for (int64_t i = 0; i < t->n; i++) {
        const char *what = t->submit[i] == TT_TIME_NONE     ? "has no submit time"
                           : t->duration[i] == TT_TIME_NONE ? "has no duration"
                           : t->duration[i] < 0             ? "has a negative duration"
                           : t->gpus[i] < 1                 ? "asks for no GPU"
                                                            : NULL;
        if (what)
            return tt_err(ctx, TT_EINVAL, "job %lld (submit %lld) %s", (long long)i,
                          (long long)t->submit[i], what);
    }
    size_t n = (size_t)(t->n > 0 ? t->n : 1);
    int32_t nstr = tt_strtab_count(t->models);
    int32_t *cls_of = (int32_t *)malloc((size_t)(nstr > 0 ? nstr : 1) * sizeof *cls_of);
    out->submit = (int64_t *)malloc(n * sizeof *out->submit);
    out->duration = (int64_t *)malloc(n * sizeof *out->duration);
    out->gpus = (int32_t *)malloc(n * sizeof *out->gpus);
    out->cls = (int32_t *)malloc(n * sizeof *out->cls);
    if (!cls_of || !out->submit || !out->duration || !out->gpus || !out->cls) {
        free(cls_of);
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld jobs", (long long)t->n);
    }
    /* one table lookup per distinct model string, not per job */
    for (int32_t s = 0; s < nstr; s++)
        cls_of[s] = tt_models_find(m, tt_strtab_get(t->models, s));
    out->n = t->n;
    memcpy(out->submit, t->submit, (size_t)t->n * sizeof *out->submit);
    memcpy(out->duration, t->duration, (size_t)t->n * sizeof *out->duration);
    memcpy(out->gpus, t->gpus, (size_t)t->n * sizeof *out->gpus);
    for (int64_t i = 0; i < t->n; i++) {
        int32_t code = t->model[i];
        out->cls[i] = code >= 0 && code < nstr ? cls_of[code] : -1;
        out->unknown_models += out->cls[i] < 0;
    }
    free(cls_of);
    return 0;
}

void tt_sim_jobs_free(tt_sim_jobs *j)
{
    if (!j)
        return;
    free(j->submit);
    free(j->duration);
    free(j->gpus);
    free(j->cls);
    memset(j, 0, sizeof *j);
}

/* ---- results ---- */

const char *const tt_metric_names[TT_NMETRICS] = {
    "makespan",   "jct_mean",      "jct_p50",     "jct_p90",   "jct_p99",   "queue_mean",
    "queue_p99",  "comm_gpu_s",    "comm_share",  "restart_gpu_s", "preemptions",
    "placed_l0",  "placed_l1",     "placed_l2",   "util",      "rejected"};

/* Where each metric lives and how it prints: decimals for a double,
 * -1 for an int64. */
static const struct {
    size_t off;
    int decimals;
} metric_desc[TT_NMETRICS] = {
    {offsetof(tt_metrics, makespan), -1},      {offsetof(tt_metrics, jct_mean), 6},
    {offsetof(tt_metrics, jct_p50), -1},       {offsetof(tt_metrics, jct_p90), -1},
    {offsetof(tt_metrics, jct_p99), -1},       {offsetof(tt_metrics, queue_mean), 6},
    {offsetof(tt_metrics, queue_p99), -1},     {offsetof(tt_metrics, comm_gpu_s), 3},
    {offsetof(tt_metrics, comm_share), 6},     {offsetof(tt_metrics, restart_gpu_s), -1},
    {offsetof(tt_metrics, preemptions), -1},   {offsetof(tt_metrics, placed_l0), -1},
    {offsetof(tt_metrics, placed_l1), -1},     {offsetof(tt_metrics, placed_l2), -1},
    {offsetof(tt_metrics, util), 6},           {offsetof(tt_metrics, rejected), -1},
};

void tt_metric_format(const tt_metrics *m, int i, char *buf, size_t size)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    if (i < 0 || i >= TT_NMETRICS)
        return;
    const char *at = (const char *)m + metric_desc[i].off;
    if (metric_desc[i].decimals < 0) {
        snprintf(buf, size, "%lld", (long long)*(const int64_t *)at);
        return;
    }
    double v = *(const double *)at;
    if (!isfinite(v))
        return; /* undefined: an empty field, as tt-stats prints one */
    if (v == 0)
        v = 0; /* no "-0.000000" */
    snprintf(buf, size, "%.*f", metric_desc[i].decimals, v);
}

double tt_metric_value(const tt_metrics *m, int i)
{
    if (i < 0 || i >= TT_NMETRICS)
        return NAN;
    const char *at = (const char *)m + metric_desc[i].off;
    return metric_desc[i].decimals < 0 ? (double)*(const int64_t *)at : *(const double *)at;
}

void tt_timeline_free(tt_timeline *tl)
{
    if (!tl)
        return;
    free(tl->rows);
    memset(tl, 0, sizeof *tl);
}
