/* The objective language (tt/objective.h): the parser of an objective and
 * its conditions, and the ranking of configurations by it, feasible ones
 * first. */
#include "tt/objective.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/tune_impl.h"

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

/* A number (as strtod reads it, no sign) into *v: 1, 0 when there is
 * none, or TT_EINVAL for one past a double (its text would read "inf"). */
static int lex_number(lexer *l, double *v)
{
    skip_ws(l);
    if (!isdigit((unsigned char)*l->s) && *l->s != '.')
        return 0;
    char *end;
    *v = strtod(l->s, &end);
    if (end == l->s)
        return 0;
    if (!isfinite(*v))
        return syntax(l, "a number too large");
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
    int have = lex_number(l, &w);
    if (have < 0)
        return have;
    if (have) {
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
    tt_obj_cond *c = &o->conds[o->nconds];
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
    if (have < 0)
        return have;
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

/* Longest text of one number from shortest: sign, 17 digits, point,
 * "e-308". */
#define NUM_MAX 32

/* The shortest text of v by %g that strtod reads back to v exactly (of
 * two as short, the one of fewer digits: 1000, not 1e+03): what is
 * stored (the objective of a tune file) must parse to the same
 * objective, which %g's 6 digits did not promise (1.0000001 wrote "1"). */
static void shortest(char *buf, size_t size, double v)
{
    char try[NUM_MAX];
    buf[0] = '\0';
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(try, sizeof try, "%.*g", prec, v);
        if (strtod(try, NULL) == v && (!buf[0] || strlen(try) < strlen(buf)))
            snprintf(buf, size, "%s", try);
    }
}

/* The normalised text of o, with single spaces and the shortest numbers;
 * malloc'd, NULL when out of memory. */
static char *objective_format(const tt_objective *o)
{
    size_t size = 1;
    for (int k = 0; k < o->nterms; k++)
        size += strlen(tt_metric_names[o->metric[k]]) + NUM_MAX + 8;
    for (int k = 0; k < o->nconds; k++)
        size += strlen(tt_metric_names[o->conds[k].metric]) + NUM_MAX + 24;
    char *t = (char *)malloc(size), num[NUM_MAX];
    if (!t)
        return NULL;
    size_t n = 0;
    t[0] = '\0';
    for (int k = 0; k < o->nterms; k++) {
        double w = o->weight[k];
        const char *op = k == 0 ? (w < 0 ? "-" : "") : (w < 0 ? " - " : " + ");
        shortest(num, sizeof num, fabs(w));
        n += (size_t)snprintf(t + n, size - n, "%s%s%s%s", op, fabs(w) == 1.0 ? "" : num,
                              fabs(w) == 1.0 ? "" : " * ", tt_metric_names[o->metric[k]]);
    }
    for (int k = 0; k < o->nconds; k++) {
        const tt_obj_cond *c = &o->conds[k];
        shortest(num, sizeof num, c->factor);
        n += (size_t)snprintf(t + n, size - n, "%s%s %s %s%s", k ? " and " : " s.t. ",
                              tt_metric_names[c->metric], c->ge ? ">=" : "<=",
                              c->rel && c->factor == 1.0 ? "" : num,
                              !c->rel ? "" : c->factor == 1.0 ? "best" : " * best");
    }
    return t;
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
    if (!rc && !(o->text = objective_format(o)))
        rc = tt_err(ctx, TT_ENOMEM, "out of memory");
    if (rc) {
        tt_objective_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

int tt_objective_same(const tt_objective *a, const tt_objective *b)
{
    if (a->nterms != b->nterms || a->nconds != b->nconds)
        return 0;
    for (int k = 0; k < a->nterms; k++)
        if (a->metric[k] != b->metric[k] || a->weight[k] != b->weight[k])
            return 0;
    for (int k = 0; k < a->nconds; k++) {
        const tt_obj_cond *x = &a->conds[k], *y = &b->conds[k];
        if (x->metric != y->metric || x->ge != y->ge || x->rel != y->rel ||
            x->factor != y->factor)
            return 0;
    }
    return 1;
}

void tt_objective_free(tt_objective *o)
{
    if (o)
        free(o->text);
    free(o);
}

const char *tt_objective_text(const tt_objective *o) { return o->text; }

double tt_objective_value(const tt_objective *o, const tt_metrics *m)
{
    double v = 0.0;
    for (int k = 0; k < o->nterms; k++)
        v += o->weight[k] * tt_metric_value(m, o->metric[k]);
    return v;
}

/* Metric set i of sets that lie stride bytes apart. */
static const tt_metrics *nth(const tt_metrics *m, size_t stride, int64_t i)
{
    return (const tt_metrics *)(const void *)((const char *)m + (size_t)i * stride);
}

void tt_obj_bounds(const tt_objective *o, const tt_metrics *m, size_t stride, int64_t n,
                   double *bound)
{
    for (int k = 0; k < o->nconds; k++) {
        const tt_obj_cond *c = &o->conds[k];
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

double tt_obj_violation(const tt_objective *o, const double *bound, const tt_metrics *x)
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
    tt_obj_bounds(o, m, sizeof *m, n, bound);
    return tt_obj_violation(o, bound, x) == 0.0;
}

int tt_obj_ranks_before(double a, double va, double b, double vb)
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
    tt_obj_bounds(o, m, sizeof *m, n, bound);
    int64_t b = 0;
    double bo = tt_objective_value(o, &m[0]), bv = tt_obj_violation(o, bound, &m[0]);
    for (int64_t i = 1; i < n; i++) {
        double v = tt_objective_value(o, &m[i]), vv = tt_obj_violation(o, bound, &m[i]);
        if (tt_obj_ranks_before(v, vv, bo, bv)) {
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
    tt_obj_bounds(o, m, sizeof *m, n, bound);
    buf[0] = '\0';
    for (int k = 0; k < o->nconds; k++) {
        const tt_obj_cond *c = &o->conds[k];
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
