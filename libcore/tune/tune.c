/* The auto-tuner (tt/tune.h): search spaces, objectives, the cache of
 * evaluated configurations, and the grid, refine and model strategies. */
#include "tt/tune.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/parse.h"
#include "tt/sweep.h"

/* the lattice's size limit: ids and products stay far from overflow */
#define GRID_MAX ((int64_t)1 << 62)
#define INF_COORD 1.25
#define NUGGET 1e-6
#define POOL_MAX 65536
#define CHUNK 4096

/* ---- the search space ---- */

static int param_index(const char *name)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            return i;
    return -1;
}

/* The value of integer parameter i in p. */
static int64_t param_get(const tt_params *p, int i)
{
    switch (i) {
    case 1: return p->w0;
    case 2: return p->w1;
    case 3: return p->theta;
    case 4: return p->restart;
    case 5: return p->congestion;
    case 6: return p->min_run;
    case 7: return p->max_preempt;
    case 8: return p->backfill;
    case 9: return p->load;
    default: return 0;
    }
}

/* The value of dimension d in p: a parameter, or a class's own timer. */
static int64_t dim_get(const tt_params *p, const tt_tune_dim *d)
{
    if (d->cls >= 0)
        return (d->param == 1 ? p->class_w0 : p->class_w1)[d->cls];
    return param_get(p, d->param);
}

static void param_put(tt_params *p, int i, int64_t v);

static void dim_put(tt_params *p, const tt_tune_dim *d, int64_t v)
{
    if (d->cls >= 0)
        (d->param == 1 ? p->class_w0 : p->class_w1)[d->cls] = v;
    else
        param_put(p, d->param, v);
}

static void param_put(tt_params *p, int i, int64_t v)
{
    switch (i) {
    case 1: p->w0 = v; break;
    case 2: p->w1 = v; break;
    case 3: p->theta = v; break;
    case 4: p->restart = v; break;
    case 5: p->congestion = v; break;
    case 6: p->min_run = v; break;
    case 7: p->max_preempt = v; break;
    case 8: p->backfill = (int32_t)v; break;
    case 9: p->load = v; break;
    default: break;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int tt_tune_dim_parse(tt_ctx *ctx, const tt_models *models, const char *name, const char *spec,
                      tt_tune_dim *out)
{
    memset(out, 0, sizeof *out);
    char label[160];
    snprintf(label, sizeof label, "%.40s=%.100s%s", name, spec, strlen(spec) > 100 ? "..." : "");
    int i = param_index(name), which, cls = -1;
    int ct = i < 0 ? tt_params_class_timer_name(models, name, &which, &cls) : 0;
    if (ct == 1)
        i = 1 + which;
    else
        cls = -1;
    if (ct < 0)
        return tt_err(ctx, TT_EINVAL, "range '%s': unknown model class '%s'", label, name + 3);
    if (i < 0 || i == 0 || i >= 10)
        return tt_err(ctx, TT_EINVAL, "range '%s': %s", label,
                      i < 0 ? "unknown parameter (searchable: w0 w1 theta restart congestion "
                              "min_run max_preempt backfill load w0.CLASS w1.CLASS)"
                            : "only integer parameters can be searched (w0 w1 theta restart "
                              "congestion min_run max_preempt backfill load w0.CLASS w1.CLASS)");
    /* the grid grammar takes a range ending in ",inf" (the tune's "never"
     * column); said here in the tuner's words for the other parameters */
    size_t len = strlen(spec);
    if (i > 3 && strchr(spec, ':') && len > 4 && strcmp(spec + len - 4, ",inf") == 0)
        return tt_err(ctx, TT_EINVAL, "range '%s': only w0, w1 and theta take inf", label);
    tt_sweep *s = NULL;
    int rc = tt_sweep_create(ctx, models, &s);
    if (rc)
        return rc;
    if ((rc = tt_sweep_grid(ctx, s, name, spec))) {
        /* "grid 'NAME=SPEC': reason" -> "range ...": the tool's word */
        char msg[1024];
        const char *m = tt_errmsg(ctx), *colon = strstr(m, "': ");
        snprintf(msg, sizeof msg, "%s", colon ? colon + 3 : m);
        tt_sweep_free(s);
        return tt_err(ctx, rc, "range '%s': %s", label, msg);
    }
    int64_t n = tt_sweep_count(s);
    out->v = (int64_t *)malloc((size_t)(n ? n : 1) * sizeof *out->v);
    if (!out->v) {
        tt_sweep_free(s);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    out->param = i;
    out->cls = cls;
    snprintf(out->name, sizeof out->name, "%s", name);
    for (int64_t k = 0; k < n; k++) {
        tt_params p;
        tt_sweep_params(ctx, s, k, &p);
        out->v[k] = dim_get(&p, out);
    }
    tt_sweep_free(s);
    qsort(out->v, (size_t)n, sizeof *out->v, cmp_i64);
    int64_t u = 0;
    for (int64_t k = 0; k < n; k++)
        if (u == 0 || out->v[k] != out->v[u - 1])
            out->v[u++] = out->v[k];
    out->n = u;
    out->scale = !strchr(spec, ':') ? TT_TUNE_LIST
                 : strncmp(spec, "log:", 4) == 0 ? TT_TUNE_LOG
                                                 : TT_TUNE_LINEAR;
    return 0;
}

void tt_tune_dim_free(tt_tune_dim *d)
{
    if (!d)
        return;
    free(d->v);
    memset(d, 0, sizeof *d);
}

/* ---- objectives ---- */

typedef struct {
    int metric;
    int ge;        /* >= rather than <= */
    int rel;       /* the bound is factor * best */
    double factor; /* the number, or the factor of best */
} cond;

struct tt_objective {
    int nterms;
    int metric[TT_NMETRICS * 2];
    double weight[TT_NMETRICS * 2];
    int nconds;
    cond conds[TT_OBJ_MAX_CONDS];
    char text[512];
};

typedef struct {
    const char *s, *text;
    tt_ctx *ctx;
} lexer;

static void skip_ws(lexer *l)
{
    while (isspace((unsigned char)*l->s))
        l->s++;
}

static int syntax(lexer *l, const char *what)
{
    return tt_err(l->ctx, TT_EINVAL, "objective '%s': %s at '%.30s'", l->text, what,
                  *l->s ? l->s : "(end)");
}

/* A number (as strtod reads it, no sign) into *v; 0 when there is none. */
static int lex_number(lexer *l, double *v)
{
    skip_ws(l);
    if (!isdigit((unsigned char)*l->s) && *l->s != '.')
        return 0;
    char *end;
    *v = strtod(l->s, &end);
    if (end == l->s)
        return 0;
    l->s = end;
    return 1;
}

/* A word ([a-z0-9_.]) into buf. */
static int lex_word(lexer *l, char *buf, size_t size)
{
    skip_ws(l);
    size_t n = 0;
    while (isalnum((unsigned char)l->s[n]) || l->s[n] == '_' || l->s[n] == '.')
        n++;
    if (n == 0 || n >= size)
        return 0;
    memcpy(buf, l->s, n);
    buf[n] = '\0';
    l->s += n;
    return 1;
}

static int lex_metric(lexer *l, int *metric)
{
    char w[64];
    const char *at = l->s;
    if (!lex_word(l, w, sizeof w))
        return syntax(l, "expected a metric");
    for (int i = 0; i < TT_NMETRICS; i++)
        if (strcmp(tt_metric_names[i], w) == 0) {
            *metric = i;
            return 0;
        }
    char known[512] = "";
    for (int i = 0; i < TT_NMETRICS; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? " " : "",
                 tt_metric_names[i]);
    (void)at;
    return tt_err(l->ctx, TT_EINVAL, "objective '%s': unknown metric '%s' (known: %s)", l->text,
                  w, known);
}

/* [NUMBER "*"] METRIC with sign */
static int parse_term(lexer *l, tt_objective *o, double sign)
{
    double w = 1.0;
    const char *save = l->s;
    if (lex_number(l, &w)) {
        skip_ws(l);
        if (*l->s != '*')
            return syntax(l, "expected '*' after a weight");
        l->s++;
    } else {
        l->s = save;
    }
    if (o->nterms == TT_NMETRICS * 2)
        return syntax(l, "too many terms");
    int rc = lex_metric(l, &o->metric[o->nterms]);
    if (rc)
        return rc;
    o->weight[o->nterms++] = sign * w;
    return 0;
}

static int keyword(lexer *l, const char *kw)
{
    skip_ws(l);
    size_t n = strlen(kw);
    if (strncmp(l->s, kw, n) != 0 || isalnum((unsigned char)l->s[n]) || l->s[n] == '_')
        return 0;
    l->s += n;
    return 1;
}

static int parse_cond(lexer *l, tt_objective *o)
{
    if (o->nconds == TT_OBJ_MAX_CONDS)
        return syntax(l, "more than 4 conditions");
    cond *c = &o->conds[o->nconds];
    int rc = lex_metric(l, &c->metric);
    if (rc)
        return rc;
    skip_ws(l);
    if (strncmp(l->s, "<=", 2) == 0)
        c->ge = 0;
    else if (strncmp(l->s, ">=", 2) == 0)
        c->ge = 1;
    else
        return syntax(l, "expected <= or >=");
    l->s += 2;
    double v = 1.0;
    int have = lex_number(l, &v);
    skip_ws(l);
    if (have && *l->s == '*')
        l->s++;
    if (keyword(l, "best")) {
        c->rel = 1;
        if (c->ge ? v > 1.0 : v < 1.0)
            return tt_err(l->ctx, TT_EINVAL,
                          "objective '%s': a bound %s %g * best can never hold (the factor "
                          "must be %s 1)", l->text, c->ge ? ">=" : "<=", v, c->ge ? "<=" : ">=");
    } else if (!have) {
        return syntax(l, "expected a bound (NUMBER, best or NUMBER * best)");
    }
    c->factor = v;
    o->nconds++;
    return 0;
}

int tt_objective_parse(tt_ctx *ctx, const char *text, tt_objective **out)
{
    *out = NULL;
    tt_objective *o = (tt_objective *)calloc(1, sizeof *o);
    if (!o)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    lexer l = {text, text, ctx};
    double sign = 1.0;
    skip_ws(&l);
    if (*l.s == '-') {
        sign = -1.0;
        l.s++;
    }
    int rc = parse_term(&l, o, sign);
    while (!rc) {
        skip_ws(&l);
        if (*l.s != '+' && *l.s != '-')
            break;
        sign = *l.s++ == '-' ? -1.0 : 1.0;
        rc = parse_term(&l, o, sign);
    }
    if (!rc && keyword(&l, "s.t.")) {
        rc = parse_cond(&l, o);
        while (!rc && keyword(&l, "and"))
            rc = parse_cond(&l, o);
    }
    skip_ws(&l);
    if (!rc && *l.s)
        rc = syntax(&l, "unexpected text");
    if (rc) {
        free(o);
        return rc;
    }
    /* the normalised text */
    char *t = o->text;
    size_t sz = sizeof o->text;
    for (int k = 0; k < o->nterms; k++) {
        double w = o->weight[k];
        const char *op = k == 0 ? (w < 0 ? "-" : "") : (w < 0 ? " - " : " + ");
        if (fabs(w) == 1.0)
            snprintf(t + strlen(t), sz - strlen(t), "%s%s", op, tt_metric_names[o->metric[k]]);
        else
            snprintf(t + strlen(t), sz - strlen(t), "%s%g * %s", op, fabs(w),
                     tt_metric_names[o->metric[k]]);
    }
    for (int k = 0; k < o->nconds; k++) {
        const cond *c = &o->conds[k];
        snprintf(t + strlen(t), sz - strlen(t), "%s%s %s ", k ? " and " : " s.t. ",
                 tt_metric_names[c->metric], c->ge ? ">=" : "<=");
        if (!c->rel)
            snprintf(t + strlen(t), sz - strlen(t), "%g", c->factor);
        else if (c->factor == 1.0)
            snprintf(t + strlen(t), sz - strlen(t), "best");
        else
            snprintf(t + strlen(t), sz - strlen(t), "%g * best", c->factor);
    }
    *out = o;
    return 0;
}

void tt_objective_free(tt_objective *o) { free(o); }
const char *tt_objective_text(const tt_objective *o) { return o->text; }

double tt_objective_value(const tt_objective *o, const tt_metrics *m)
{
    double v = 0.0;
    for (int k = 0; k < o->nterms; k++)
        v += o->weight[k] * tt_metric_value(m, o->metric[k]);
    return v;
}

/* Metric set i of sets that lie stride bytes apart: an array of them, or
 * the metrics in a tuner's rows, which are read in place. */
static const tt_metrics *nth(const tt_metrics *m, size_t stride, int64_t i)
{
    return (const tt_metrics *)(const void *)((const char *)m + (size_t)i * stride);
}

/* The bound of each condition over the n sets m, stride bytes apart. */
static void bounds_of(const tt_objective *o, const tt_metrics *m, size_t stride, int64_t n,
                      double *bound)
{
    for (int k = 0; k < o->nconds; k++) {
        const cond *c = &o->conds[k];
        if (!c->rel) {
            bound[k] = c->factor;
            continue;
        }
        double best = n > 0 ? tt_metric_value(m, c->metric) : 0.0;
        for (int64_t i = 1; i < n; i++) {
            double v = tt_metric_value(nth(m, stride, i), c->metric);
            best = c->ge ? fmax(best, v) : fmin(best, v);
        }
        bound[k] = c->factor * best;
    }
}

/* The total relative violation of x under bound (0: feasible). */
static double violation(const tt_objective *o, const double *bound, const tt_metrics *x)
{
    double viol = 0.0;
    for (int k = 0; k < o->nconds; k++) {
        double v = tt_metric_value(x, o->conds[k].metric), b = bound[k];
        if (isnan(v) || isnan(b))
            return NAN; /* a metric that cannot be computed holds no bound */
        double over = o->conds[k].ge ? b - v : v - b;
        if (over > 0)
            viol += over / fmax(fabs(b), 1e-300);
    }
    return viol;
}

int tt_objective_feasible(const tt_objective *o, const tt_metrics *m, int64_t n,
                          const tt_metrics *x)
{
    double bound[TT_OBJ_MAX_CONDS];
    bounds_of(o, m, sizeof *m, n, bound);
    return violation(o, bound, x) == 0.0;
}

/* Whether candidate (objective a, violation va) ranks before (b, vb). A
 * candidate whose objective or constraints cannot be computed (NAN) ranks
 * after every other: it is never the best while one can be. */
static int ranks_before(double a, double va, double b, double vb)
{
    int na = isnan(a) || isnan(va), nb = isnan(b) || isnan(vb);
    if (na || nb)
        return !na && nb;
    if ((va == 0.0) != (vb == 0.0))
        return va == 0.0;
    if (va != vb) /* both infeasible: the nearer to feasible */
        return va < vb;
    return a < b;
}

int tt_objective_best(const tt_objective *o, const tt_metrics *m, int64_t n, int64_t *best,
                      int *feasible)
{
    if (n <= 0)
        return TT_EEMPTY;
    double bound[TT_OBJ_MAX_CONDS];
    bounds_of(o, m, sizeof *m, n, bound);
    int64_t b = 0;
    double bo = tt_objective_value(o, &m[0]), bv = violation(o, bound, &m[0]);
    for (int64_t i = 1; i < n; i++) {
        double v = tt_objective_value(o, &m[i]), vv = violation(o, bound, &m[i]);
        if (ranks_before(v, vv, bo, bv)) {
            b = i;
            bo = v;
            bv = vv;
        }
    }
    if (isnan(bo) || isnan(bv))
        return TT_EEMPTY; /* not one set has a value to rank */
    *best = b;
    if (feasible)
        *feasible = bv == 0.0;
    return 0;
}

void tt_objective_why_infeasible(const tt_objective *o, const tt_metrics *m, int64_t n,
                                 char *buf, size_t size)
{
    double bound[TT_OBJ_MAX_CONDS];
    bounds_of(o, m, sizeof *m, n, bound);
    buf[0] = '\0';
    for (int k = 0; k < o->nconds; k++) {
        const cond *c = &o->conds[k];
        int64_t i;
        double best = 0.0;
        for (i = 0; i < n; i++) {
            double v = tt_metric_value(&m[i], c->metric);
            if (c->ge ? v >= bound[k] : v <= bound[k])
                break;
            best = i == 0 ? v : c->ge ? fmax(best, v) : fmin(best, v);
        }
        if (i < n)
            continue;
        snprintf(buf, size, "constraint '%s %s %g' holds for none of the %lld configurations "
                 "(%s %s %.12g)", tt_metric_names[c->metric], c->ge ? ">=" : "<=", bound[k],
                 (long long)n, c->ge ? "greatest" : "least", tt_metric_names[c->metric], best);
        return;
    }
}

/* ---- the tuner and its cache ---- */

/* The rows' phases as tt_tune_run_roles stores them (/tune/history/phase
 * in tt/tune.h). */
enum { PHASE_SEARCH, PHASE_GRID, PHASE_SINGLE, PHASE_HINDSIGHT };

struct tt_tune {
    tt_params base;
    int nd;
    tt_tune_dim dims[TT_TUNE_MAX_DIMS];
    double *coord[TT_TUNE_MAX_DIMS]; /* the surrogate's coordinate of each value */
    int64_t grid;
    const tt_objective *obj;
    tt_tune_row *rows;
    int64_t nrows, cap;
    int64_t *slot; /* open addressing over rows by parameters; -1 empty */
    int64_t nslots;
};

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* splitmix64: the one source of random choices */
static uint64_t next_rand(uint64_t *s) { return mix64(*s += 0x9e3779b97f4a7c15ULL); }

/* The fields that make a configuration, for the cache. */
static void params_key(const tt_params *p, uint64_t *k)
{
    k[0] = (uint64_t)p->order;
    for (int i = 1; i < 10; i++)
        k[i] = (uint64_t)param_get(p, i);
    k[10] = p->seed;
    k[11] = (uint64_t)p->mix_set;
}

static int params_same(const tt_params *a, const tt_params *b)
{
    uint64_t ka[12], kb[12];
    params_key(a, ka);
    params_key(b, kb);
    return memcmp(ka, kb, sizeof ka) == 0 &&
           (!a->mix_set || memcmp(a->mix, b->mix, sizeof a->mix) == 0) &&
           memcmp(a->class_w0, b->class_w0, sizeof a->class_w0) == 0 &&
           memcmp(a->class_w1, b->class_w1, sizeof a->class_w1) == 0;
}

static uint64_t params_hash(const tt_params *p)
{
    uint64_t k[12], h = 0x243f6a8885a308d3ULL;
    params_key(p, k);
    for (int i = 0; i < 12; i++)
        h = mix64(h ^ k[i]);
    for (int c = 0; p->mix_set && c < TT_MAX_CLASSES; c++)
        h = mix64(h ^ p->mix[c]);
    for (int c = 0; c < TT_MAX_CLASSES; c++)
        if (p->class_w0[c] != TT_TIMER_GLOBAL || p->class_w1[c] != TT_TIMER_GLOBAL)
            h = mix64(h ^ (uint64_t)c ^ mix64((uint64_t)p->class_w0[c]) ^
                      mix64(mix64((uint64_t)p->class_w1[c])));
    return h;
}

/* The row of p, or -1. */
static int64_t cache_find(const tt_tune *t, const tt_params *p)
{
    if (!t->nslots)
        return -1;
    for (uint64_t h = params_hash(p);; h++) {
        int64_t r = t->slot[h & (uint64_t)(t->nslots - 1)];
        if (r < 0 || params_same(&t->rows[r].params, p))
            return r;
    }
}

static void cache_put(tt_tune *t, int64_t row)
{
    uint64_t h = params_hash(&t->rows[row].params);
    while (t->slot[h & (uint64_t)(t->nslots - 1)] >= 0)
        h++;
    t->slot[h & (uint64_t)(t->nslots - 1)] = row;
}

/* Room for more rows, the slots at most half full. */
static int reserve_rows(tt_ctx *ctx, tt_tune *t, int64_t more)
{
    int64_t need = t->nrows + more;
    if (need > t->cap) {
        int64_t cap = t->cap ? t->cap : 64;
        while (cap < need)
            cap *= 2;
        tt_tune_row *r = (tt_tune_row *)realloc(t->rows, (size_t)cap * sizeof *r);
        if (!r)
            return tt_err(ctx, TT_ENOMEM, "out of memory for %lld rows", (long long)cap);
        t->rows = r;
        t->cap = cap;
    }
    if (2 * need > t->nslots) {
        int64_t ns = t->nslots ? t->nslots : 128;
        while (ns < 2 * need)
            ns *= 2;
        int64_t *s = (int64_t *)malloc((size_t)ns * sizeof *s);
        if (!s)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
        free(t->slot);
        t->slot = s;
        t->nslots = ns;
        for (int64_t i = 0; i < ns; i++)
            s[i] = -1;
        for (int64_t r = 0; r < t->nrows; r++)
            cache_put(t, r);
    }
    return 0;
}

int tt_tune_create(tt_ctx *ctx, const tt_params *base, const tt_tune_dim *dims, int ndims,
                   const tt_objective *obj, tt_tune **out)
{
    *out = NULL;
    if (ndims < 1 || ndims > TT_TUNE_MAX_DIMS || !obj)
        return tt_err(ctx, TT_EINVAL, "a search needs 1 .. %d parameters and an objective",
                      TT_TUNE_MAX_DIMS);
    tt_tune *t = (tt_tune *)calloc(1, sizeof *t);
    if (!t)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    t->base = *base;
    t->obj = obj;
    t->grid = 1;
    int rc = 0;
    for (int d = 0; d < ndims && !rc; d++) {
        const tt_tune_dim *s = &dims[d];
        for (int e = 0; e < d; e++)
            if (dims[e].param == s->param && dims[e].cls == s->cls)
                rc = tt_err(ctx, TT_EINVAL, "parameter '%s' is searched twice", s->name);
        if (!rc && (s->n < 1 || t->grid > GRID_MAX / s->n))
            rc = tt_err(ctx, TT_EINVAL, "the grid has more than 2^62 points");
        if (rc)
            break;
        t->grid *= s->n;
        t->dims[d] = *s;
        t->dims[d].v = (int64_t *)malloc((size_t)s->n * sizeof *s->v);
        t->coord[d] = (double *)malloc((size_t)s->n * sizeof *t->coord[d]);
        t->nd = d + 1;
        if (!t->dims[d].v || !t->coord[d]) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            break;
        }
        memcpy(t->dims[d].v, s->v, (size_t)s->n * sizeof *s->v);
        int64_t nf = s->n - (s->v[s->n - 1] == TT_INF); /* finite values */
        double lo = nf ? (double)s->v[0] : 0, hi = nf ? (double)s->v[nf - 1] : 0;
        if (s->scale == TT_TUNE_LOG && lo > 0) {
            lo = log(lo);
            hi = log(hi);
        }
        for (int64_t k = 0; k < s->n; k++) {
            double x = s->scale == TT_TUNE_LOG && s->v[k] > 0 ? log((double)s->v[k])
                                                               : (double)s->v[k];
            t->coord[d][k] = k >= nf                   ? INF_COORD
                             : nf < 2                  ? 0.0
                             : s->scale == TT_TUNE_LIST ? (double)k / (double)(nf - 1)
                                                        : (x - lo) / (hi - lo);
        }
    }
    if (rc) {
        tt_tune_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void tt_tune_free(tt_tune *t)
{
    if (!t)
        return;
    for (int d = 0; d < t->nd; d++) {
        free(t->dims[d].v);
        free(t->coord[d]);
    }
    free(t->rows);
    free(t->slot);
    free(t);
}

int64_t tt_tune_grid_size(const tt_tune *t) { return t->grid; }
int64_t tt_tune_default_budget(const tt_tune *t) { return t->grid / 10 > 0 ? t->grid / 10 : 1; }
int64_t tt_tune_rows(const tt_tune *t) { return t->nrows; }
const tt_tune_row *tt_tune_row_at(const tt_tune *t, int64_t i) { return &t->rows[i]; }

/* Lattice point id <-> value indices (the last dimension fastest). */
static void id_to_idx(const tt_tune *t, int64_t id, int64_t *idx)
{
    for (int d = t->nd - 1; d >= 0; d--) {
        idx[d] = id % t->dims[d].n;
        id /= t->dims[d].n;
    }
}

static int64_t idx_to_id(const tt_tune *t, const int64_t *idx)
{
    int64_t id = 0;
    for (int d = 0; d < t->nd; d++)
        id = id * t->dims[d].n + idx[d];
    return id;
}

void tt_tune_point(const tt_tune *t, int64_t k, tt_params *p)
{
    int64_t idx[TT_TUNE_MAX_DIMS];
    id_to_idx(t, k, idx);
    *p = t->base;
    for (int d = 0; d < t->nd; d++)
        dim_put(p, &t->dims[d], t->dims[d].v[idx[d]]);
}

/* TT_EEMPTY when a metric of the objective cannot be computed in m: the
 * same for every configuration when no job is simulated (the cluster
 * alone rejects jobs), so there is nothing to tune. */
static int check_defined(tt_ctx *ctx, const tt_objective *o, const tt_metrics *m)
{
    for (int k = 0; k < o->nterms + o->nconds; k++) {
        int i = k < o->nterms ? o->metric[k] : o->conds[k - o->nterms].metric;
        if (!tt_metric_defined(m, i))
            return tt_err(ctx, TT_EEMPTY, "the objective's %s cannot be computed (%s): nothing "
                          "to tune", tt_metric_names[i],
                          tt_metric_defined(m, 0) ? "no GPU time was used"
                                                  : "every job is larger than the cluster");
    }
    return 0;
}

/* Simulates ps[0..n) and appends their rows. */
static int add_rows(tt_ctx *ctx, tt_tune *t, const tt_params *ps, const double *pred, int64_t n,
                    int phase, int round, tt_tune_eval_fn eval, void *arg)
{
    if (n == 0)
        return 0;
    tt_metrics *m = (tt_metrics *)calloc((size_t)n, sizeof *m);
    if (!m)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int rc = reserve_rows(ctx, t, n);
    if (!rc)
        rc = eval(arg, ctx, ps, n, m);
    for (int64_t i = 0; i < n && !rc; i++)
        rc = check_defined(ctx, t->obj, &m[i]);
    for (int64_t i = 0; i < n && !rc; i++) {
        tt_tune_row *r = &t->rows[t->nrows];
        memset(r, 0, sizeof *r);
        r->params = ps[i];
        r->metrics = m[i];
        r->objective = tt_objective_value(t->obj, &m[i]);
        r->predicted = pred ? pred[i] : NAN;
        r->phase = phase;
        r->round = round;
        cache_put(t, t->nrows++);
    }
    free(m);
    return rc;
}

int tt_tune_eval(tt_ctx *ctx, tt_tune *t, const tt_params *p, int phase, tt_tune_eval_fn eval,
                 void *arg, int64_t *row)
{
    *row = cache_find(t, p);
    if (*row >= 0)
        return 0;
    int rc = add_rows(ctx, t, p, NULL, 1, phase, 0, eval, arg);
    if (!rc)
        *row = t->nrows - 1;
    return rc;
}

/* The best among rows[0..n) of t (tt_objective_best over their metrics). */
static int best_of_rows(const tt_tune *t, const int64_t *rows, int64_t n, int64_t *best,
                        int *feasible)
{
    tt_metrics *m = (tt_metrics *)malloc((size_t)(n > 0 ? n : 1) * sizeof *m);
    if (!m)
        return TT_ENOMEM;
    for (int64_t i = 0; i < n; i++)
        m[i] = t->rows[rows ? rows[i] : i].metrics;
    int64_t b = 0;
    int rc = tt_objective_best(t->obj, m, n, &b, feasible);
    free(m);
    if (!rc)
        *best = rows ? rows[b] : b;
    return rc;
}

int tt_tune_best_row(const tt_tune *t, int64_t *row, int *feasible)
{
    return best_of_rows(t, NULL, t->nrows, row, feasible);
}

int tt_tune_row_feasible(const tt_tune *t, int64_t row)
{
    double bound[TT_OBJ_MAX_CONDS];
    bounds_of(t->obj, &t->rows[0].metrics, sizeof *t->rows, t->nrows, bound);
    return violation(t->obj, bound, &t->rows[row].metrics) == 0.0;
}

void tt_tune_rows_feasible(const tt_tune *t, int64_t *feas)
{
    if (t->nrows == 0)
        return;
    double bound[TT_OBJ_MAX_CONDS];
    bounds_of(t->obj, &t->rows[0].metrics, sizeof *t->rows, t->nrows, bound);
    for (int64_t r = 0; r < t->nrows; r++)
        feas[r] = violation(t->obj, bound, &t->rows[r].metrics) == 0.0;
}

int tt_tune_why_infeasible(tt_ctx *ctx, const tt_tune *t, char *buf, size_t size)
{
    buf[0] = '\0';
    tt_metrics *m = (tt_metrics *)malloc((size_t)(t->nrows > 0 ? t->nrows : 1) * sizeof *m);
    if (!m)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = 0;
    for (int64_t r = 0; r < t->nrows; r++)
        if (t->rows[r].phase == PHASE_SEARCH)
            m[k++] = t->rows[r].metrics;
    tt_objective_why_infeasible(t->obj, m, k, buf, size);
    free(m);
    return 0;
}

int64_t tt_tune_default_batch(int64_t budget)
{
    int64_t b = budget / 4;
    b = b < 16 ? 16 : b > 4096 ? 4096 : b;
    return b < budget ? b : budget;
}

/* ---- one search ---- */

typedef struct {
    tt_ctx *ctx;
    tt_tune *t;
    const tt_tune_opts *o;
    tt_tune_eval_fn eval;
    void *arg;
    int64_t batch, spent;
    int round;
    uint64_t rng;
    /* the lattice points proposed: their rows, and a set of their ids */
    int64_t *set, nset, capset;
    int64_t *ids, nids; /* open addressing, -1 empty; nids a power of 2 */
    int64_t nid_used;
    /* the batch being gathered */
    tt_params *pend;
    double *pred;
    int64_t npend;
} search;

static int64_t *id_slot(search *s, int64_t id)
{
    for (uint64_t h = mix64((uint64_t)id);; h++) {
        int64_t *p = &s->ids[h & (uint64_t)(s->nids - 1)];
        if (*p < 0 || *p == id)
            return p;
    }
}

static int proposed(search *s, int64_t id) { return *id_slot(s, id) == id; }

static int grow_ids(search *s)
{
    if (2 * (s->nid_used + 1) <= s->nids)
        return 0;
    int64_t old = s->nids, *o = s->ids;
    s->nids = old ? old * 2 : 1024;
    if (!(s->ids = (int64_t *)malloc((size_t)s->nids * sizeof *s->ids))) {
        s->ids = o;
        s->nids = old;
        return tt_err(s->ctx, TT_ENOMEM, "out of memory");
    }
    for (int64_t i = 0; i < s->nids; i++)
        s->ids[i] = -1;
    for (int64_t i = 0; i < old; i++)
        if (o[i] >= 0)
            *id_slot(s, o[i]) = o[i];
    free(o);
    return 0;
}

static int push_set(search *s, int64_t row)
{
    if (s->nset == s->capset) {
        int64_t cap = s->capset ? s->capset * 2 : 256;
        int64_t *p = (int64_t *)realloc(s->set, (size_t)cap * sizeof *p);
        if (!p)
            return tt_err(s->ctx, TT_ENOMEM, "out of memory");
        s->set = p;
        s->capset = cap;
    }
    s->set[s->nset++] = row;
    return 0;
}

/* The room left in this round. */
static int64_t room(const search *s)
{
    int64_t left = s->o->budget - s->spent - s->npend, b = s->batch - s->npend;
    return left < b ? left : b;
}

/* Proposes lattice point id: a cached row joins the set at no cost; a new
 * one joins the batch while there is room. 1 when it joined the batch, 0
 * when not, < 0 on error. */
static int propose(search *s, int64_t id, double pred)
{
    if (proposed(s, id))
        return 0;
    tt_params p;
    tt_tune_point(s->t, id, &p);
    int64_t row = cache_find(s->t, &p);
    if (row < 0 && room(s) <= 0)
        return 0;
    int rc = grow_ids(s);
    if (rc)
        return rc;
    *id_slot(s, id) = id;
    s->nid_used++;
    if (row >= 0)
        return push_set(s, row) ? TT_ENOMEM : 0;
    s->pend[s->npend] = p;
    s->pred[s->npend++] = pred;
    return 1;
}

/* Simulates the batch; its rows join the set. */
static int flush(search *s)
{
    if (s->o->stop && s->o->stop(s->o->stop_arg))
        return tt_err(s->ctx, TT_ESTOPPED, "stopped");
    int64_t first = s->t->nrows;
    int rc = add_rows(s->ctx, s->t, s->pend, s->pred, s->npend, s->o->phase, s->round, s->eval,
                      s->arg);
    for (int64_t r = first; !rc && r < s->t->nrows; r++)
        rc = push_set(s, r);
    s->spent += s->npend;
    s->npend = 0;
    if (!rc && s->o->progress)
        s->o->progress(s->o->progress_arg, s->round, s->spent, s->o->budget);
    s->round++;
    return rc;
}

/* Points per dimension of the most even sub-lattice of at most limit
 * points: one more along each dimension in turn while it fits. */
static void sub_counts(const tt_tune *t, int64_t limit, int64_t *k)
{
    int64_t prod = 1;
    for (int d = 0; d < t->nd; d++)
        k[d] = 1;
    for (int grew = 1; grew;) {
        grew = 0;
        for (int d = 0; d < t->nd; d++)
            if (k[d] < t->dims[d].n && prod / k[d] * (k[d] + 1) <= limit) {
                prod = prod / k[d] * (k[d] + 1);
                k[d]++;
                grew = 1;
            }
    }
}

/* Value index j of k spread evenly over n (both ends; the middle for k = 1). */
static int64_t sub_index(int64_t j, int64_t k, int64_t n)
{
    return k == 1 ? (n - 1) / 2 : (2 * j * (n - 1) + (k - 1)) / (2 * (k - 1));
}

static int propose_sub(search *s, const int64_t *k)
{
    int64_t j[TT_TUNE_MAX_DIMS] = {0}, idx[TT_TUNE_MAX_DIMS];
    for (;;) {
        for (int d = 0; d < s->t->nd; d++)
            idx[d] = sub_index(j[d], k[d], s->t->dims[d].n);
        int rc = propose(s, idx_to_id(s->t, idx), NAN);
        if (rc < 0)
            return rc;
        int d = s->t->nd - 1;
        while (d >= 0 && ++j[d] == k[d])
            j[d--] = 0;
        if (d < 0)
            return 0;
    }
}

/* The set's rows ranked best first (bounds over the set). */
typedef struct {
    double obj, viol;
    int64_t row;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = (const ranked *)a, *y = (const ranked *)b;
    if (ranks_before(x->obj, x->viol, y->obj, y->viol))
        return -1;
    if (ranks_before(y->obj, y->viol, x->obj, x->viol))
        return 1;
    return (x->row > y->row) - (x->row < y->row);
}

static ranked *rank_set(search *s, double *bound)
{
    tt_metrics *m = (tt_metrics *)malloc((size_t)(s->nset + 1) * sizeof *m);
    ranked *r = (ranked *)malloc((size_t)(s->nset + 1) * sizeof *r);
    if (!m || !r) {
        free(m);
        free(r);
        tt_err(s->ctx, TT_ENOMEM, "out of memory");
        return NULL;
    }
    for (int64_t i = 0; i < s->nset; i++)
        m[i] = s->t->rows[s->set[i]].metrics;
    bounds_of(s->t->obj, m, sizeof *m, s->nset, bound);
    for (int64_t i = 0; i < s->nset; i++) {
        const tt_tune_row *w = &s->t->rows[s->set[i]];
        r[i].obj = w->objective;
        r[i].viol = violation(s->t->obj, bound, &w->metrics);
        r[i].row = s->set[i];
    }
    free(m);
    qsort(r, (size_t)s->nset, sizeof *r, cmp_ranked);
    return r;
}

/* The value indices of row r's parameters (every row of a set is a
 * lattice point). */
static void row_idx(const tt_tune *t, int64_t r, int64_t *idx)
{
    for (int d = 0; d < t->nd; d++) {
        int64_t v = dim_get(&t->rows[r].params, &t->dims[d]), lo = 0, hi = t->dims[d].n;
        while (lo + 1 < hi) { /* the values are sorted */
            int64_t mid = (lo + hi) / 2;
            if (t->dims[d].v[mid] <= v)
                lo = mid;
            else
                hi = mid;
        }
        idx[d] = lo;
    }
}

/* Proposes the neighbours of row r at +-step[d] along every combination
 * of axes (only along single axes beyond 6 dimensions, or when axes_only). */
static int propose_around(search *s, int64_t r, const int64_t *step, int axes_only, double pred)
{
    const tt_tune *t = s->t;
    int64_t c[TT_TUNE_MAX_DIMS], idx[TT_TUNE_MAX_DIMS];
    row_idx(t, r, c);
    int64_t combos = 1;
    int full = !axes_only && t->nd <= 6;
    for (int d = 0; full && d < t->nd; d++)
        combos *= 3;
    int64_t n = full ? combos : 2 * t->nd;
    for (int64_t k = 0; k < n && room(s) > 0; k++) {
        int moved = 0;
        for (int d = 0, q = (int)k; d < t->nd; d++) {
            int o = full ? q % 3 - 1 : (k / 2 == d ? (k % 2 ? 1 : -1) : 0);
            if (full)
                q /= 3;
            idx[d] = c[d] + o * step[d];
            idx[d] = idx[d] < 0 ? 0 : idx[d] >= t->dims[d].n ? t->dims[d].n - 1 : idx[d];
            moved |= idx[d] != c[d];
        }
        if (!moved)
            continue;
        int rc = propose(s, idx_to_id(t, idx), pred);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int run_grid(search *s)
{
    int64_t k[TT_TUNE_MAX_DIMS];
    sub_counts(s->t, s->o->budget, k);
    s->batch = s->o->budget;
    int rc = propose_sub(s, k);
    return rc ? rc : flush(s);
}

static int run_refine(search *s)
{
    const tt_tune *t = s->t;
    int64_t k[TT_TUNE_MAX_DIMS], step[TT_TUNE_MAX_DIMS];
    sub_counts(t, s->batch < s->o->budget ? s->batch : s->o->budget, k);
    int rc = propose_sub(s, k);
    if (rc || (rc = flush(s)))
        return rc;
    for (int d = 0; d < t->nd; d++)
        step[d] = k[d] > 1 ? (t->dims[d].n - 1 + k[d] - 2) / (k[d] - 1) : t->dims[d].n;
    while (s->spent < s->o->budget) {
        int fine = 1;
        for (int d = 0; d < t->nd; d++) {
            step[d] = step[d] > 1 ? (step[d] + 1) / 2 : 1;
            fine &= step[d] == 1;
        }
        double bound[TT_OBJ_MAX_CONDS];
        ranked *r = rank_set(s, bound);
        if (!r)
            return TT_ENOMEM;
        for (int64_t i = 0; i < s->nset && room(s) > 0 && !rc; i++)
            rc = propose_around(s, r[i].row, step, 0, NAN);
        free(r);
        if (rc)
            return rc;
        if (s->npend == 0 && fine)
            break; /* every neighbour of every point is known */
        if (s->npend > 0 && (rc = flush(s)))
            return rc;
    }
    return 0;
}

/* ---- the model ---- */

static double matern52(double d2, double ell)
{
    double r = sqrt(d2 > 0 ? d2 : 0) / ell, a = sqrt(5.0) * r;
    return (1.0 + a + a * a / 3.0) * exp(-a);
}

static double norm_cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }
static double norm_pdf(double z) { return exp(-0.5 * z * z) / sqrt(2.0 * acos(-1.0)); }

/* Coordinates of lattice point id into x[0..nd) with stride ld. */
static void coords(const tt_tune *t, int64_t id, double *x, int64_t ld)
{
    int64_t idx[TT_TUNE_MAX_DIMS];
    id_to_idx(t, id, idx);
    for (int d = 0; d < t->nd; d++)
        x[d * ld] = t->coord[d][idx[d]];
}

/* Squared distances between the c rows of a (ld lda) and the n rows of b
 * (ld ldb), both nd columns, into out (c x n, ld c). */
static int sqdist(tt_ctx *ctx, tt_la *la, int nd, const double *a, int c, const double *b, int n,
                  double *out)
{
    int rc = tt_la_gemm(ctx, la, 0, 1, c, n, nd, -2.0, a, c, b, n, 0.0, out, c);
    if (rc)
        return rc;
    for (int j = 0; j < n; j++) {
        double bj = 0;
        for (int d = 0; d < nd; d++)
            bj += b[j + d * n] * b[j + d * n];
        for (int i = 0; i < c; i++) {
            double ai = 0;
            for (int d = 0; d < nd; d++)
                ai += a[i + d * c] * a[i + d * c];
            double v = out[i + (size_t)j * c] + ai + bj;
            out[i + (size_t)j * c] = v > 0 ? v : 0;
        }
    }
    return 0;
}

typedef struct {
    int n, ny;     /* points, targets (objective + conditions) */
    double *x;     /* n x nd */
    double *l;     /* n x n Cholesky factor */
    double *alpha; /* n x ny: K^-1 y */
    double mu[1 + TT_OBJ_MAX_CONDS], sd[1 + TT_OBJ_MAX_CONDS];
    int logy;      /* the objective modelled as its logarithm */
    double ell;
    double fbest;  /* best feasible standardised objective; NAN: none */
    int have_best;
    double bound[TT_OBJ_MAX_CONDS]; /* standardised */
} model;

static void model_free(model *m)
{
    free(m->x);
    free(m->l);
    free(m->alpha);
}

/* Fits the surrogate to the set: targets standardised, the length scale
 * of greatest marginal likelihood among a few. */
static int model_fit(search *s, tt_la *la, model *m)
{
    const tt_tune *t = s->t;
    const tt_objective *o = t->obj;
    int n = (int)s->nset, nd = t->nd, ny = 1 + o->nconds;
    memset(m, 0, sizeof *m);
    m->n = n;
    m->ny = ny;
    size_t nn = (size_t)n * (size_t)n;
    m->x = (double *)malloc((size_t)n * (size_t)nd * sizeof(double));
    m->l = (double *)malloc(nn * sizeof(double));
    m->alpha = (double *)malloc((size_t)n * (size_t)ny * sizeof(double));
    double *d2 = (double *)malloc(nn * sizeof(double)), *k = (double *)malloc(nn * sizeof(double));
    double *y = (double *)malloc((size_t)n * (size_t)ny * sizeof(double));
    double bound[TT_OBJ_MAX_CONDS];
    ranked *r = rank_set(s, bound);
    int rc = 0;
    if (!m->x || !m->l || !m->alpha || !d2 || !k || !y || !r) {
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory for a model of %d points", n);
        goto done;
    }
    m->logy = 1;
    for (int i = 0; i < n; i++) {
        int64_t idx[TT_TUNE_MAX_DIMS];
        row_idx(t, s->set[i], idx);
        coords(t, idx_to_id(t, idx), m->x + i, n);
        m->logy &= t->rows[s->set[i]].objective > 0;
    }
    for (int q = 0; q < ny; q++) {
        double sum = 0, sq = 0;
        for (int i = 0; i < n; i++) {
            const tt_tune_row *w = &t->rows[s->set[i]];
            double v = q == 0 ? (m->logy ? log(w->objective) : w->objective)
                              : tt_metric_value(&w->metrics, o->conds[q - 1].metric);
            y[i + (size_t)q * n] = v;
            sum += v;
        }
        m->mu[q] = sum / n;
        for (int i = 0; i < n; i++)
            sq += (y[i + (size_t)q * n] - m->mu[q]) * (y[i + (size_t)q * n] - m->mu[q]);
        m->sd[q] = n > 1 && sq > 0 ? sqrt(sq / (n - 1)) : 1.0;
        for (int i = 0; i < n; i++)
            y[i + (size_t)q * n] = (y[i + (size_t)q * n] - m->mu[q]) / m->sd[q];
        if (q > 0)
            m->bound[q - 1] = (bound[q - 1] - m->mu[q]) / m->sd[q];
    }
    /* the best feasible objective, standardised: the ranking's first */
    m->have_best = r[0].viol == 0.0;
    for (int i = 0; i < n && m->have_best; i++)
        if (s->set[i] == r[0].row)
            m->fbest = y[i];
    if ((rc = sqdist(s->ctx, la, nd, m->x, n, m->x, n, d2)))
        goto done;
    static const double ells[] = {0.05, 0.1, 0.2, 0.4, 0.8};
    double best_ml = -INFINITY;
    for (size_t e = 0; e < sizeof ells / sizeof ells[0]; e++) {
        for (size_t i = 0; i < nn; i++)
            k[i] = matern52(d2[i], ells[e]);
        for (int i = 0; i < n; i++)
            k[i + (size_t)i * n] += NUGGET;
        tt_ctx *quiet = tt_ctx_create();
        int bad = tt_la_cholesky(quiet, la, n, k, n);
        int code = tt_errcode(quiet);
        tt_ctx_free(quiet);
        if (bad && code != TT_ERANGE) {
            rc = tt_err(s->ctx, bad, "surrogate: linear algebra failed");
            goto done;
        }
        if (bad)
            continue; /* not positive definite at this scale */
        double a[1];
        double *z = m->alpha; /* scratch: L^-1 y for the objective */
        memcpy(z, y, (size_t)n * sizeof *z);
        if ((rc = tt_la_trsm(s->ctx, la, 0, 0, n, 1, 1.0, k, n, z, n)))
            goto done;
        a[0] = 0;
        for (int i = 0; i < n; i++)
            a[0] += -0.5 * z[i] * z[i] - log(k[i + (size_t)i * n]);
        if (a[0] > best_ml) {
            best_ml = a[0];
            m->ell = ells[e];
            memcpy(m->l, k, nn * sizeof *k);
        }
    }
    if (best_ml == -INFINITY) {
        rc = tt_err(s->ctx, TT_ERANGE, "surrogate: no length scale gives a usable model");
        goto done;
    }
    memcpy(m->alpha, y, (size_t)n * (size_t)ny * sizeof *y);
    if (!(rc = tt_la_trsm(s->ctx, la, 0, 0, n, ny, 1.0, m->l, n, m->alpha, n)))
        rc = tt_la_trsm(s->ctx, la, 0, 1, n, ny, 1.0, m->l, n, m->alpha, n);
done:
    free(d2);
    free(k);
    free(y);
    free(r);
    return rc;
}

typedef struct {
    float acq;
    int64_t id;
    double mean;
} cand;

static int cmp_cand(const void *a, const void *b)
{
    const cand *x = (const cand *)a, *y = (const cand *)b;
    if (x->acq != y->acq)
        return x->acq > y->acq ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Scores pool[0..np) with the model: expected improvement times the
 * probability that every condition holds. */
static int model_score(search *s, tt_la *la, const model *m, const int64_t *pool, int64_t np,
                       cand *out)
{
    const tt_tune *t = s->t;
    const tt_objective *o = t->obj;
    int n = m->n, nd = t->nd, ny = m->ny;
    size_t cn = (size_t)CHUNK * (size_t)n;
    double *xp = (double *)malloc((size_t)CHUNK * (size_t)nd * sizeof(double));
    double *kx = (double *)malloc(cn * sizeof(double)), *w = (double *)malloc(cn * sizeof(double));
    double *mean = (double *)malloc((size_t)CHUNK * (size_t)ny * sizeof(double));
    int rc = 0;
    if (!xp || !kx || !w || !mean)
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory for the surrogate's predictions");
    for (int64_t c0 = 0; c0 < np && !rc; c0 += CHUNK) {
        int c = (int)(np - c0 < CHUNK ? np - c0 : CHUNK);
        for (int i = 0; i < c; i++)
            coords(t, pool[c0 + i], xp + i, c);
        if ((rc = sqdist(s->ctx, la, nd, xp, c, m->x, n, kx)))
            break;
        for (size_t i = 0; i < (size_t)c * (size_t)n; i++)
            kx[i] = matern52(kx[i], m->ell);
        memcpy(w, kx, (size_t)c * (size_t)n * sizeof *w);
        /* means: Kx alpha; variances: 1 - |row of Kx L^-T|^2 */
        if ((rc = tt_la_gemm(s->ctx, la, 0, 0, c, ny, n, 1.0, kx, c, m->alpha, n, 0.0, mean, c)) ||
            (rc = tt_la_trsm(s->ctx, la, 1, 1, c, n, 1.0, m->l, n, w, c)))
            break;
        for (int i = 0; i < c; i++) {
            double v = 1.0 + NUGGET;
            for (int j = 0; j < n; j++)
                v -= w[i + (size_t)j * c] * w[i + (size_t)j * c];
            double sdv = sqrt(v > 1e-12 ? v : 1e-12), acq = 1.0;
            if (m->have_best) {
                double z = (m->fbest - mean[i]) / sdv;
                acq = (m->fbest - mean[i]) * norm_cdf(z) + sdv * norm_pdf(z);
            }
            for (int q = 0; q < o->nconds; q++) {
                double z = (m->bound[q] - mean[i + (size_t)(q + 1) * c]) / sdv;
                acq *= norm_cdf(o->conds[q].ge ? -z : z);
            }
            double y = mean[i] * m->sd[0] + m->mu[0];
            out[c0 + i].acq = (float)acq;
            out[c0 + i].id = pool[c0 + i];
            out[c0 + i].mean = m->logy ? exp(y) : y;
        }
    }
    free(xp);
    free(kx);
    free(w);
    free(mean);
    return rc;
}

/* The candidates for the next batch: every unproposed lattice point when
 * they are few enough for the model's cost, else a seeded sample. */
static int64_t *model_pool(search *s, int64_t *np)
{
    const tt_tune *t = s->t;
    double n = (double)s->nset;
    int64_t cap = (int64_t)(4e10 / (n * n));
    cap = cap < 2048 ? 2048 : cap > POOL_MAX ? POOL_MAX : cap;
    int64_t left = t->grid - s->nid_used, want = left < cap ? left : cap;
    int64_t *pool = (int64_t *)malloc((size_t)(want > 0 ? want : 1) * sizeof *pool);
    if (!pool) {
        tt_err(s->ctx, TT_ENOMEM, "out of memory");
        return NULL;
    }
    *np = 0;
    if (left <= cap) {
        for (int64_t id = 0; id < t->grid && *np < want; id++)
            if (!proposed(s, id))
                pool[(*np)++] = id;
        return pool;
    }
    /* a sample; a repeat now and then costs a little work, nothing more */
    for (int64_t k = 0; k < 4 * want && *np < want; k++) {
        int64_t id = (int64_t)(next_rand(&s->rng) % (uint64_t)t->grid);
        if (!proposed(s, id))
            pool[(*np)++] = id;
    }
    return pool;
}

/* Whether lattice points a and b are neighbours (Chebyshev distance <= 1). */
static int near(const tt_tune *t, int64_t a, int64_t b)
{
    int64_t ia[TT_TUNE_MAX_DIMS], ib[TT_TUNE_MAX_DIMS];
    id_to_idx(t, a, ia);
    id_to_idx(t, b, ib);
    for (int d = 0; d < t->nd; d++)
        if (ia[d] - ib[d] > 1 || ib[d] - ia[d] > 1)
            return 0;
    return 1;
}

static int model_round(search *s, tt_la *la)
{
    const tt_tune *t = s->t;
    model m;
    int rc = model_fit(s, la, &m);
    int64_t np = 0, *pool = rc ? NULL : model_pool(s, &np);
    cand *c = pool ? (cand *)malloc((size_t)(np > 0 ? np : 1) * sizeof *c) : NULL;
    if (!rc && !c)
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = model_score(s, la, &m, pool, np, c);
    model_free(&m);
    free(pool);
    if (rc) {
        free(c);
        return rc;
    }
    qsort(c, (size_t)np, sizeof *c, cmp_cand);
    /* exploit: the unvisited axis neighbours of the two best points */
    double bound[TT_OBJ_MAX_CONDS];
    ranked *r = rank_set(s, bound);
    int64_t one[TT_TUNE_MAX_DIMS], quarter = s->batch / 4 > 1 ? s->batch / 4 : 1;
    for (int d = 0; d < t->nd; d++)
        one[d] = 1;
    int64_t saved = s->batch;
    s->batch = quarter < s->batch ? quarter : s->batch;
    for (int64_t i = 0; r && i < 2 && i < s->nset && !rc; i++)
        rc = propose_around(s, r[i].row, one, 1, NAN);
    s->batch = saved;
    free(r);
    /* explore: the best expected improvement, kept apart, then the rest */
    int64_t *picked = (int64_t *)malloc((size_t)(s->batch + 1) * sizeof *picked), npk = 0;
    for (int pass = 0; pass < 2 && !rc && picked; pass++)
        for (int64_t i = 0; i < np && room(s) > 0 && !rc; i++) {
            if (proposed(s, c[i].id))
                continue;
            int clash = 0;
            for (int64_t k = 0; pass == 0 && k < npk && !clash; k++)
                clash = near(t, picked[k], c[i].id);
            if (clash)
                continue;
            int got = propose(s, c[i].id, c[i].mean);
            if (got < 0)
                rc = got;
            else if (got)
                picked[npk++] = c[i].id;
        }
    if (!picked && !rc)
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory");
    free(picked);
    free(c);
    return rc;
}

static int run_model(search *s)
{
    int64_t k[TT_TUNE_MAX_DIMS], first = s->batch < s->o->budget ? s->batch : s->o->budget;
    sub_counts(s->t, first / 2 > 1 ? first / 2 : 1, k);
    int rc = propose_sub(s, k);
    /* the rest of the first batch: random points */
    for (int64_t tries = 0; !rc && room(s) > 0 && tries < 20 * s->batch; tries++) {
        int got = propose(s, (int64_t)(next_rand(&s->rng) % (uint64_t)s->t->grid), NAN);
        rc = got < 0 ? got : 0;
    }
    if (rc || (rc = flush(s)))
        return rc;
    tt_la *la = s->o->la, *own = NULL;
    if (!la && (rc = tt_la_create(s->ctx, TT_DEVICE_CPU, &own)))
        return rc;
    la = la ? la : own;
    while (!rc && s->spent < s->o->budget && s->nid_used < s->t->grid) {
        rc = model_round(s, la);
        if (!rc && s->npend == 0)
            break;
        if (!rc)
            rc = flush(s);
    }
    tt_la_free(own);
    return rc;
}

int tt_tune_search(tt_ctx *ctx, tt_tune *t, const tt_tune_opts *o, tt_tune_eval_fn eval,
                   void *arg, int64_t *best)
{
    if (!o || !eval || o->budget < 1)
        return tt_err(ctx, TT_EINVAL, "a search needs a budget of at least 1 simulation");
    search s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.t = t;
    s.o = o;
    s.eval = eval;
    s.arg = arg;
    s.rng = o->seed;
    s.batch = o->batch > 0 ? o->batch : tt_tune_default_batch(o->budget);
    int64_t cap = (o->strategy == TT_TUNE_GRID ? o->budget : s.batch) + 1;
    s.pend = (tt_params *)malloc((size_t)cap * sizeof *s.pend);
    s.pred = (double *)malloc((size_t)cap * sizeof *s.pred);
    int rc = s.pend && s.pred ? grow_ids(&s) : tt_err(ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = o->strategy == TT_TUNE_GRID     ? run_grid(&s)
             : o->strategy == TT_TUNE_REFINE ? run_refine(&s)
                                             : run_model(&s);
    if (!rc)
        rc = best_of_rows(t, s.set, s.nset, best, NULL);
    free(s.pend);
    free(s.pred);
    free(s.set);
    free(s.ids);
    return rc;
}

/* ---- the choice beside its baselines ---- */

const char *const tt_tune_role_names[TT_NROLES] = {"recommended", "strict", "no_wait",
                                                   "grid_best", "hindsight"};

/* base waiting w for w0 and w1 in every class: a class timer of its own
 * would make the baseline something else for that class. */
static tt_params every_class_waits(const tt_params *base, int64_t w)
{
    tt_params p = *base;
    p.w0 = p.w1 = w;
    for (int k = 0; k < TT_MAX_CLASSES; k++)
        p.class_w0[k] = p.class_w1[k] = TT_TIMER_GLOBAL;
    return p;
}

int tt_tune_run_roles(tt_ctx *ctx, tt_tune *train, tt_tune *test, const tt_tune_opts *opts,
                      void *hindsight_progress_arg, tt_tune_eval_fn eval, void *train_arg,
                      void *test_arg, tt_tune_roles *out)
{
    int64_t *tr = out->train_row, *te = out->test_row;
    int64_t before = train->nrows;
    memset(out, 0, sizeof *out);
    for (int r = 0; r < TT_NROLES; r++)
        tr[r] = te[r] = -1;
    out->nroles = test ? TT_NROLES : TT_ROLE_HINDSIGHT;
    tt_tune_opts o = *opts;
    o.phase = PHASE_SEARCH;
    int rc = tt_tune_search(ctx, train, &o, eval, train_arg, &tr[TT_ROLE_RECOMMENDED]);
    out->sims_search = train->nrows - before;
    o.strategy = TT_TUNE_GRID;
    o.phase = PHASE_GRID;
    o.progress = NULL;
    if (!rc)
        rc = tt_tune_search(ctx, train, &o, eval, train_arg, &tr[TT_ROLE_GRID_BEST]);
    out->sims_grid = train->nrows - before - out->sims_search;
    tt_params strict = every_class_waits(&train->base, TT_INF);
    tt_params nowait = every_class_waits(&train->base, 0);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &strict, PHASE_SINGLE, eval, train_arg,
                          &tr[TT_ROLE_STRICT]);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &nowait, PHASE_SINGLE, eval, train_arg,
                          &tr[TT_ROLE_NO_WAIT]);
    if (rc || !test)
        return rc;
    for (int r = 0; r < TT_ROLE_HINDSIGHT && !rc; r++)
        rc = tt_tune_eval(ctx, test, &train->rows[tr[r]].params, PHASE_SINGLE, eval, test_arg,
                          &te[r]);
    o = *opts;
    o.phase = PHASE_HINDSIGHT;
    o.progress_arg = hindsight_progress_arg;
    int64_t found; /* the best of the search alone; hindsight takes every test row */
    if (!rc)
        rc = tt_tune_search(ctx, test, &o, eval, test_arg, &found);
    if (!rc)
        rc = tt_tune_best_row(test, &te[TT_ROLE_HINDSIGHT], NULL);
    if (!rc)
        rc = tt_tune_eval(ctx, train, &test->rows[te[TT_ROLE_HINDSIGHT]].params, PHASE_SINGLE,
                          eval, train_arg, &tr[TT_ROLE_HINDSIGHT]);
    if (!rc)
        out->hindsight = test->rows[te[TT_ROLE_HINDSIGHT]].objective;
    return rc;
}

/* ---- time split ---- */

int tt_tune_slice(tt_ctx *ctx, const tt_sim_jobs *j, int64_t a, int64_t b, tt_sim_jobs *out)
{
    memset(out, 0, sizeof *out);
    if (a < 0 || b > j->n || a >= b)
        return tt_err(ctx, TT_EINVAL, "jobs [%lld, %lld): not a non-empty part of 0 .. %lld",
                      (long long)a, (long long)b, (long long)j->n);
    size_t n = (size_t)(b - a);
    out->submit = (int64_t *)malloc(n * sizeof *out->submit);
    out->duration = (int64_t *)malloc(n * sizeof *out->duration);
    out->gpus = (int32_t *)malloc(n * sizeof *out->gpus);
    out->cls = (int32_t *)malloc(n * sizeof *out->cls);
    if (!out->submit || !out->duration || !out->gpus || !out->cls) {
        tt_sim_jobs_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    out->n = (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        out->submit[i] = j->submit[a + (int64_t)i] - j->submit[a];
        out->duration[i] = j->duration[a + (int64_t)i];
        out->gpus[i] = j->gpus[a + (int64_t)i];
        out->cls[i] = j->cls[a + (int64_t)i];
        out->unknown_models += out->cls[i] < 0;
    }
    return 0;
}

int tt_tune_holdout(int64_t n, double f, int64_t *cut)
{
    if (!(f > 0 && f < 1))
        return TT_EINVAL;
    int64_t c = n - (int64_t)floor(f * (double)n + 0.5);
    if (c <= 0 || c >= n)
        return TT_EINVAL;
    *cut = c;
    return 0;
}
