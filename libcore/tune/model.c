/* The model strategy of the tuner: a Gaussian-process surrogate (Matern
 * 5/2 kernel over the lattice's normalised coordinates, the length scale
 * of greatest marginal likelihood) fitted to every point evaluated so far,
 * one more per condition, through the dense algebra of tt/linalg.h; each
 * round proposes the unvisited neighbours of the best points and the
 * lattice points of highest expected improvement, spread apart. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tt/linalg.h"
#include "tt/tune.h"
#include "tune/tune_impl.h"

#define NUGGET 1e-6
#define POOL_MAX 65536
#define CHUNK 4096

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
    tt_tune_id_to_idx(t, id, idx);
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
static int model_fit(tt_search *s, tt_la *la, model *m)
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
    tt_search_ranked *r = tt_search_rank(s, bound);
    int rc = 0;
    if (!m->x || !m->l || !m->alpha || !d2 || !k || !y || !r) {
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory for a model of %d points", n);
        goto done;
    }
    m->logy = 1;
    for (int i = 0; i < n; i++) {
        int64_t idx[TT_TUNE_MAX_DIMS];
        tt_search_row_idx(t, s->set[i], idx);
        coords(t, tt_tune_idx_to_id(t, idx), m->x + i, n);
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
    double low; /* the mean less TT_TUNE_ROOM_SD standard deviations, in objective units */
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
static int model_score(tt_search *s, tt_la *la, const model *m, const int64_t *pool, int64_t np,
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
            double low = (mean[i] - TT_TUNE_ROOM_SD * sdv) * m->sd[0] + m->mu[0];
            out[c0 + i].acq = (float)acq;
            out[c0 + i].id = pool[c0 + i];
            out[c0 + i].mean = m->logy ? exp(y) : y;
            out[c0 + i].low = m->logy ? exp(low) : low;
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
static int64_t *model_pool(tt_search *s, int64_t *np)
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
            if (!tt_search_proposed(s, id))
                pool[(*np)++] = id;
        return pool;
    }
    /* a sample; a repeat now and then costs a little work, nothing more */
    for (int64_t k = 0; k < 4 * want && *np < want; k++) {
        int64_t id = (int64_t)(tt_tune_rand(&s->rng) % (uint64_t)t->grid);
        if (!tt_search_proposed(s, id))
            pool[(*np)++] = id;
    }
    return pool;
}

/* Whether lattice points a and b are neighbours (Chebyshev distance <= 1). */
static int near(const tt_tune *t, int64_t a, int64_t b)
{
    int64_t ia[TT_TUNE_MAX_DIMS], ib[TT_TUNE_MAX_DIMS];
    tt_tune_id_to_idx(t, a, ia);
    tt_tune_id_to_idx(t, b, ib);
    for (int d = 0; d < t->nd; d++)
        if (ia[d] - ib[d] > 1 || ib[d] - ia[d] > 1)
            return 0;
    return 1;
}

static int model_round(tt_search *s, tt_la *la)
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
    tt_search_ranked *r = tt_search_rank(s, bound);
    int64_t one[TT_TUNE_MAX_DIMS], quarter = s->batch / 4 > 1 ? s->batch / 4 : 1;
    for (int d = 0; d < t->nd; d++)
        one[d] = 1;
    int64_t saved = s->batch;
    s->batch = quarter < s->batch ? quarter : s->batch;
    int64_t nr = s->nset; /* r's length: a flush in a proposal adds rows */
    for (int64_t i = 0, n = 0; r && n < 2 && i < nr && !rc; i++)
        if (!tt_search_ranked_repeat(s, r, i)) {
            rc = tt_search_propose_around(s, r[i].row, one, 1, NAN);
            n++;
        }
    s->batch = saved;
    free(r);
    /* explore: the best expected improvement, kept apart, then the rest */
    int64_t *picked = (int64_t *)malloc((size_t)(s->batch + 1) * sizeof *picked), npk = 0;
    for (int pass = 0; pass < 2 && !rc && picked; pass++)
        for (int64_t i = 0; i < np && tt_search_room(s) > 0 && !rc; i++) {
            if (tt_search_proposed(s, c[i].id))
                continue;
            int clash = 0;
            for (int64_t k = 0; pass == 0 && k < npk && !clash; k++)
                clash = near(t, picked[k], c[i].id);
            if (clash)
                continue;
            int got = tt_search_propose(s, c[i].id, c[i].mean);
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

int tt_search_run_model(tt_search *s)
{
    /* round 0: a Latin hypercube of a batch or half the budget, whichever
     * is less, so that the surrogate has rounds to spend (a batch of 16 of
     * a budget of 21 left it one) */
    int64_t first = s->batch < s->limit ? s->batch : s->limit, saved = s->batch;
    first = first < s->o->budget / 2 ? first : s->o->budget / 2 > 0 ? s->o->budget / 2 : 1;
    s->batch = first;
    int rc = tt_search_propose_lhs(s, first);
    /* the rest of round 0 (where the hypercube repeats a point): random points */
    for (int64_t tries = 0; !rc && tt_search_room(s) > 0 && tries < 20 * s->batch; tries++) {
        int64_t id = (int64_t)(tt_tune_rand(&s->rng) % (uint64_t)s->t->grid);
        int got = tt_search_propose(s, id, NAN);
        rc = got < 0 ? got : 0;
    }
    if (rc || (rc = tt_search_flush(s)))
        return rc;
    s->batch = saved;
    tt_la *la = s->o->la, *own = NULL;
    if (!la && (rc = tt_la_create(s->ctx, TT_DEVICE_CPU, &own)))
        return rc;
    la = la ? la : own;
    while (!rc && s->spent < s->limit && s->nid_used < s->t->grid) {
        rc = model_round(s, la);
        if (!rc && s->npend == 0)
            break;
        if (!rc)
            rc = tt_search_flush(s);
    }
    tt_la_free(own);
    return rc;
}

/* ---- how far the choice may lie from the grid's best ---- */

/* The most points the surrogate of the room is fitted to (its Cholesky
 * factors cost n^3): past them the room is not known. */
#define ROOM_POINTS 4096

int tt_search_estimate_room(tt_search *s, double *room)
{
    *room = NAN;
    if (s->nset < 3 || s->nset > ROOM_POINTS)
        return 0;
    /* every point alike: no spread to scale a surrogate by, and none seen */
    int same = 1;
    for (int64_t i = 1; i < s->nset && same; i++)
        same = s->t->rows[s->set[i]].objective == s->t->rows[s->set[0]].objective;
    if (same) {
        *room = 0.0;
        return 0;
    }
    tt_la *la = s->o->la, *own = NULL;
    int rc = la ? 0 : tt_la_create(s->ctx, TT_DEVICE_CPU, &own);
    if (rc)
        return rc;
    la = la ? la : own;
    model m;
    rc = model_fit(s, la, &m);
    int64_t np = 0, *pool = rc ? NULL : model_pool(s, &np);
    if (!rc && !pool)
        rc = TT_ENOMEM;
    /* the configurations not simulated: neither proposed nor of a form a
     * row has */
    int64_t k = 0;
    for (int64_t i = 0; i < np; i++) {
        tt_params p, f;
        tt_tune_point(s->t, pool[i], &p);
        tt_tune_form(s->t, &p, &f);
        if (tt_tune_cache_find(s->t, &p) < 0 && tt_tune_form_find(s->t, &f) < 0)
            pool[k++] = pool[i];
    }
    np = k;
    cand *c = pool ? (cand *)malloc((size_t)(np > 0 ? np : 1) * sizeof *c) : NULL;
    if (!rc && !c)
        rc = tt_err(s->ctx, TT_ENOMEM, "out of memory");
    if (!rc)
        rc = model_score(s, la, &m, pool, np, c);
    double bound[TT_OBJ_MAX_CONDS];
    tt_search_ranked *r = rc ? NULL : tt_search_rank(s, bound);
    if (!rc && !r)
        rc = TT_ENOMEM;
    if (!rc) {
        double best = r[0].obj, low = best;
        for (int64_t i = 0; i < np; i++)
            low = c[i].low < low ? c[i].low : low;
        *room = best != 0 ? (best - low) / fabs(best) : low < best ? INFINITY : 0.0;
    }
    if (rc == TT_ERANGE) { /* no length scale gives a usable model: not known */
        tt_err_clear(s->ctx);
        rc = 0;
    }
    free(r);
    free(c);
    free(pool);
    model_free(&m);
    tt_la_free(own);
    return rc;
}
