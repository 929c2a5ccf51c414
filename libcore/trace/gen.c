/* Synthetic traces: bursty diurnal arrivals, log-normal-mixture durations,
 * a discrete GPU mix, Zipf users and VCs, drawn from counter-based random
 * numbers (the parameters and their defaults are in gen_params.c). See
 * tt/gen.h. */
#include "tt/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Results must not depend on the compiler fusing a*b+c into one rounding:
 * GCC does not fuse in ISO C mode (-std=c11); clang needs telling. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- counter-based random numbers ---- */

/* splitmix64's output function: a bijection with full avalanche. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Independent streams, one per kind of draw, so adding a draw of one kind
 * never shifts the values of another. */
enum {
    ST_BATCH_GAP = 1,
    ST_BATCH_SIZE,
    ST_GPUS,
    ST_VC,
    ST_USER,
    ST_JOB_GAP,
    ST_DUR_PICK,
    ST_DUR_Z,
    ST_WF,
    ST_WF_SHAPE,
    ST_OUT_MB,
    ST_MID,
    ST_MEM_MB
};

static uint64_t draw(uint64_t seed, uint64_t stream, uint64_t index)
{
    return mix64(mix64(mix64(seed) ^ stream) ^ index);
}

/* Uniform in (0, 1] and in (0, 1), from the top 53 bits. */
static double u01_closed(uint64_t r) { return (double)((r >> 11) + 1) * 0x1p-53; }
static double u01_open(uint64_t r) { return ((double)(r >> 11) + 0.5) * 0x1p-53; }

/* ---- elementary functions from IEEE basic operations only ----
 * libm's log and exp may differ in the last bit between versions, and a
 * last bit can flip a rounded duration; these give the same bits on every
 * IEEE machine (frexp, ldexp, floor and sqrt are exact or correctly
 * rounded everywhere). Accuracy: about 1 ulp. */

static const double LN2_HI = 6.93147180369123816490e-01; /* fdlibm split of ln 2 */
static const double LN2_LO = 1.90821492927058770002e-10;
static const double LOG2E = 1.44269504088896338700e+00;

/* ln x for finite x > 0: x = m 2^e with m in [1/sqrt2, sqrt2), then
 * ln m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172, series to s^25. */
static double gen_log(double x)
{
    int e;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e--;
    }
    static const double inv_odd[] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,
                                     1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19,
                                     1.0 / 21, 1.0 / 23, 1.0 / 25};
    double s = (m - 1.0) / (m + 1.0), z = s * s;
    double t = inv_odd[12];
    for (int k = 11; k >= 0; k--)
        t = inv_odd[k] + z * t;
    return 2.0 * s * t + (double)e * LN2_HI + (double)e * LN2_LO;
}

/* e^x for |x| <= 700: x = k ln2 + r, |r| <= ln2/2, Taylor to r^14. */
static double gen_exp(double x)
{
    if (x < -700.0)
        return 0.0;
    if (x > 700.0)
        x = 700.0;
    double k = floor(x * LOG2E + 0.5);
    double r = (x - k * LN2_HI) - k * LN2_LO;
    static const double inv[] = {0.0,      1.0,      1.0 / 2,  1.0 / 3,  1.0 / 4,
                                 1.0 / 5,  1.0 / 6,  1.0 / 7,  1.0 / 8,  1.0 / 9,
                                 1.0 / 10, 1.0 / 11, 1.0 / 12, 1.0 / 13, 1.0 / 14};
    double t = 1.0;
    for (int i = 14; i >= 1; i--)
        t = 1.0 + r * t * inv[i];
    return ldexp(t, (int)k);
}

/* The standard normal quantile (Acklam's rational approximation, relative
 * error < 1.2e-9) for p in (0, 1). */
static double gen_probit(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    const double plow = 0.02425;
    if (p < plow || p > 1.0 - plow) {
        double q = sqrt(-2.0 * gen_log(p < plow ? p : 1.0 - p));
        double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                   ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
        return p < plow ? x : -x;
    }
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

/* ---- discrete distributions ----
 * Cumulative weights as integers in [0, 2^53], so a draw compares
 * integers: cum[i] = floor(2^53 * (w[0] + .. + w[i]) / total), last = 2^53. */

#define CUM_ONE (1ull << 53)

/* A weight of 0 gives cum[i] = cum[i - 1]: never picked. */
static void cum_fill(const double *w, int64_t n, uint64_t *cum)
{
    double total = 0.0, acc = 0.0;
    for (int64_t i = 0; i < n; i++)
        total += w[i];
    for (int64_t i = 0; i < n; i++) {
        acc += w[i];
        cum[i] = i == n - 1 ? CUM_ONE : (uint64_t)(acc / total * (double)CUM_ONE);
    }
}

static uint64_t *cum_build(const double *w, int64_t n)
{
    uint64_t *cum = (uint64_t *)malloc((size_t)n * sizeof *cum);
    if (cum)
        cum_fill(w, n, cum);
    return cum;
}

/* The first i with (r >> 11) < cum[i]. */
static int64_t cum_pick(const uint64_t *cum, int64_t n, uint64_t r)
{
    uint64_t u = r >> 11;
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (u < cum[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Zipf: rank k (1-based) has weight k^-s. */
static uint64_t *zipf_build(int32_t n, double s)
{
    double *w = (double *)malloc((size_t)n * sizeof *w);
    if (!w)
        return NULL;
    for (int32_t k = 0; k < n; k++)
        w[k] = s == 0.0 ? 1.0 : gen_exp(-s * gen_log((double)k + 1.0));
    uint64_t *cum = cum_build(w, n);
    free(w);
    return cum;
}

/* ---- arrivals ----
 * Submissions are a Poisson process in "busy time": hour h of the week
 * runs at weight w[h] (integer units per real second) and the weights
 * average to the long-run rate. An exponential gap is drawn in units and
 * spent hour by hour, so the real gap stretches at night and at weekends
 * (the time-rescaling construction of a non-homogeneous Poisson process,
 * in integers). */

#define WEEK_HOURS 168
#define W_SCALE 1000.0 /* weight of a weekday hour at the mean of the cycle */
#define MAX_SLOT (1ll << 40) /* hours; ~125 million years */

/* cos(2 pi k / 24), k = 0..23, so the daily cycle needs no libm. */
static const double cos24[24] = {
    1.0,  0.96592582628906829,  0.86602540378443865,  0.70710678118654752,
    0.5,  0.25881904510252076,  0.0,                  -0.25881904510252076,
    -0.5, -0.70710678118654752, -0.86602540378443865, -0.96592582628906829,
    -1.0, -0.96592582628906829, -0.86602540378443865, -0.70710678118654752,
    -0.5, -0.25881904510252076, 0.0,                  0.25881904510252076,
    0.5,  0.70710678118654752,  0.86602540378443865,  0.96592582628906829};

typedef struct clock_state {
    int64_t w[WEEK_HOURS]; /* units per second, hour 0 = Monday 00:00 */
    int64_t week_units;
    double mean_w;
    int64_t hour0;  /* time of the start of slot 0 */
    int how0;       /* hour of the week of slot 0 */
    int64_t slot;   /* hours since slot 0 */
    int64_t used;   /* units spent in the current slot */
} clock_state;

static void clock_init(clock_state *c, const tt_gen_params *p)
{
    /* A raised cosine with max/min = day_ratio: 1 + A cos, A = (R-1)/(R+1). */
    double amp = (p->day_ratio - 1.0) / (p->day_ratio + 1.0);
    int64_t sum = 0;
    for (int h = 0; h < WEEK_HOURS; h++) {
        int day = h / 24, hod = h % 24;
        double f = day >= 5 ? p->weekend : 1.0;
        double v = W_SCALE * f * (1.0 + amp * cos24[(hod - p->peak_hour + 24) % 24]);
        c->w[h] = (int64_t)(v + 0.5);
        if (c->w[h] < 1)
            c->w[h] = 1;
        sum += c->w[h];
    }
    c->week_units = sum * 3600;
    c->mean_w = (double)sum / WEEK_HOURS;
    int64_t t0 = p->start == TT_TIME_NONE ? 0 : p->start; /* relative: day 0 is a Monday */
    c->hour0 = t0 - t0 % 3600;
    int64_t day = t0 / 86400;
    /* 1970-01-01 was a Thursday (day 3 of a week from Monday). */
    c->how0 = p->start == TT_TIME_NONE ? 0 : (int)(((day + 3) % 7) * 24 + (t0 % 86400) / 3600);
    c->slot = 0;
    c->used = (t0 - c->hour0) * c->w[c->how0];
}

static int64_t clock_now(const clock_state *c)
{
    int64_t w = c->w[(c->how0 + c->slot) % WEEK_HOURS];
    return c->hour0 + c->slot * 3600 + c->used / w;
}

/* Spends units of busy time; -1 when the clock would run past MAX_SLOT. */
static int clock_advance(clock_state *c, int64_t units)
{
    for (;;) {
        int64_t left = c->w[(c->how0 + c->slot) % WEEK_HOURS] * 3600 - c->used;
        if (units < left) {
            c->used += units;
            return 0;
        }
        units -= left;
        c->slot++;
        c->used = 0;
        if (units >= c->week_units) {
            c->slot += WEEK_HOURS * (units / c->week_units);
            units %= c->week_units;
        }
        if (c->slot > MAX_SLOT)
            return -1;
    }
}

/* ---- generation ---- */

#define BURST_GAP_MAX 5 /* seconds between the jobs of one burst: 0..5 */

typedef struct gen_tables {
    uint64_t *gpu, *user, *vc;
    uint64_t *dur; /* the duration mix of GPU mix entry i at dur + i * ndur */
    double dur_mu[TT_GEN_MAX_DUR_MIX];
    int32_t *user_code, *vc_code; /* string code of each rank, -1 until first drawn */
} gen_tables;

static void tables_free(gen_tables *g)
{
    free(g->gpu);
    free(g->dur);
    free(g->user);
    free(g->vc);
    free(g->user_code);
    free(g->vc_code);
}

static int tables_build(gen_tables *g, const tt_gen_params *p)
{
    g->gpu = cum_build(p->gpu_w, p->ngpu);
    g->dur = (uint64_t *)malloc((size_t)p->ngpu * (size_t)p->ndur * sizeof *g->dur);
    g->user = zipf_build(p->users, p->user_skew);
    g->vc = zipf_build(p->vcs, p->vc_skew);
    g->user_code = (int32_t *)malloc((size_t)p->users * sizeof *g->user_code);
    g->vc_code = (int32_t *)malloc((size_t)p->vcs * sizeof *g->vc_code);
    if (!g->gpu || !g->dur || !g->user || !g->vc || !g->user_code || !g->vc_code)
        return TT_ENOMEM;
    for (int i = 0; i < p->ngpu; i++) {
        const double *w = p->dur_w;
        for (int j = 0; j < p->ngpu_dur; j++)
            if (p->gpu_dur_k[j] == p->gpu_k[i])
                w = p->gpu_dur_w[j];
        cum_fill(w, p->ndur, g->dur + (size_t)i * (size_t)p->ndur);
    }
    for (int i = 0; i < p->ndur; i++)
        g->dur_mu[i] = gen_log(p->dur_median[i]);
    memset(g->user_code, 0xff, (size_t)p->users * sizeof *g->user_code);
    memset(g->vc_code, 0xff, (size_t)p->vcs * sizeof *g->vc_code);
    return 0;
}

/* The string code of rank r (0-based) named "PREFIX-(r+1)", interned on
 * first use so the table lists only names that occur, in order of first
 * appearance. -1 when out of memory. */
static int32_t rank_code(tt_strtab *tab, int32_t *codes, const char *prefix, int64_t r)
{
    if (codes[r] < 0) {
        char name[32];
        snprintf(name, sizeof name, "%s-%lld", prefix, (long long)r + 1);
        codes[r] = tt_strtab_intern(tab, name);
    }
    return codes[r];
}

/* Job j's duration, its component drawn from the mix of GPU mix entry gi. */
static int64_t duration_of(const tt_gen_params *p, const gen_tables *g, int64_t gi, uint64_t seed,
                           int64_t j)
{
    const uint64_t *mix = g->dur + (size_t)gi * (size_t)p->ndur;
    int k = (int)cum_pick(mix, p->ndur, draw(seed, ST_DUR_PICK, (uint64_t)j));
    double z = gen_probit(u01_open(draw(seed, ST_DUR_Z, (uint64_t)j)));
    double d = gen_exp(g->dur_mu[k] + p->dur_sigma[k] * z);
    if (!(d >= TT_GEN_MIN_DURATION))
        return TT_GEN_MIN_DURATION;
    if (d >= TT_GEN_MAX_DURATION)
        return TT_GEN_MAX_DURATION;
    return (int64_t)(d + 0.5);
}

/* Jobs in one submission: geometric on {1, 2, ...} with mean p->batch, by
 * inversion: 1 + floor(ln U / ln(1 - 1/mean)). */
static int64_t batch_size(const tt_gen_params *p, double ln_q, uint64_t seed, int64_t b,
                          int64_t left)
{
    if (p->batch <= 1.0)
        return 1;
    double k = 1.0 + floor(gen_log(u01_closed(draw(seed, ST_BATCH_SIZE, (uint64_t)b))) / ln_q);
    return k < (double)left ? (int64_t)k : left;
}

static int generate(tt_ctx *ctx, const tt_gen_params *p, gen_tables *g, tt_trace *t)
{
    uint64_t seed = (uint64_t)p->seed;
    clock_state clk, *c = &clk;
    clock_init(c, p);
    double ln_q = p->batch > 1.0 ? gen_log(1.0 - 1.0 / p->batch) : 0.0;
    double mean_gap = p->interarrival * p->batch; /* between submissions, busy seconds */
    int64_t j = 0;
    for (int64_t b = 0; j < p->jobs; b++) {
        double gap = -gen_log(u01_closed(draw(seed, ST_BATCH_GAP, (uint64_t)b))) * mean_gap;
        if (clock_advance(c, (int64_t)(gap * c->mean_w + 0.5)))
            return tt_err(ctx, TT_ERANGE, "submit times run past %lld hours: lower -n or -a",
                          (long long)MAX_SLOT);
        int64_t size = batch_size(p, ln_q, seed, b, p->jobs - j);
        tt_job job = tt_job_empty();
        int64_t gi = cum_pick(g->gpu, p->ngpu, draw(seed, ST_GPUS, (uint64_t)b));
        job.gpus = p->gpu_k[gi];
        /* User and VC go in as codes: interning the same few names a
         * million times would cost more than generating the jobs. */
        int32_t user = rank_code(t->users, g->user_code, "user",
                                 cum_pick(g->user, p->users, draw(seed, ST_USER, (uint64_t)b)));
        int32_t vc = rank_code(t->vcs, g->vc_code, "vc",
                               cum_pick(g->vc, p->vcs, draw(seed, ST_VC, (uint64_t)b)));
        job.submit = clock_now(c);
        for (int64_t i = 0; i < size && user >= 0 && vc >= 0; i++, j++) {
            if (i)
                job.submit += (int64_t)(((draw(seed, ST_JOB_GAP, (uint64_t)j) >> 32) *
                                         (BURST_GAP_MAX + 1)) >> 32);
            job.duration = duration_of(p, g, gi, seed, j);
            if (tt_trace_append(t, &job)) {
                user = -1;
                break;
            }
            t->user[t->n - 1] = user;
            t->vc[t->n - 1] = vc;
        }
        if (user < 0 || vc < 0)
            return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    return 0;
}

/* ---- the optional columns (SPEC 10.6, 12.7), on the sorted trace ---- */

/* 1 when SPEC 10.1's hash makes job i elastic at permille: tts_hash(seed ^
 * 0xE1A5, i) mod 1000 < permille, where tts_hash(s, i) (kernels/
 * sim_step_base.h) is splitmix64's step i + 1 from s, that is
 * mix64(s + gamma i). */
static int8_t el_drawn(uint64_t seed, int64_t i, int32_t permille)
{
    uint64_t h = mix64((seed ^ 0xE1A5u) + 0x9e3779b97f4a7c15ull * (uint64_t)i);
    return (int8_t)((int64_t)(h % 1000u) < permille);
}

/* The parents of task k of shape s into par (0-based task numbers in the
 * workflow); returns how many. */
static int32_t shape_parents(const tt_gen_shape *s, int32_t k, int32_t *par)
{
    if (s->kind == TT_GEN_CHAIN)
        return k > 0 ? (par[0] = k - 1, 1) : 0;
    if (s->kind == TT_GEN_FAN)
        return k > 0 ? (par[0] = 0, 1) : 0;
    if (k < s->a)
        return 0;
    for (int32_t m = 0; m < s->a; m++)
        par[m] = m;
    return s->a;
}

/* wf, deps and out_mb: each job not yet in a workflow starts one with a
 * probability that makes wf_frac of the jobs tasks (a workflow of mean
 * size S started with probability q turns S jobs into tasks: the share
 * is qS / (qS + 1 - q)); the workflow takes that job and the ones after. */
static int gen_workflows(const tt_gen_params *p, tt_trace *t)
{
    static const tt_gen_shape chain3 = {TT_GEN_CHAIN, 3, 1};
    const tt_gen_shape *shapes = p->nshape ? p->shape : &chain3;
    int nshape = p->nshape ? p->nshape : 1;
    double mean = 0.0, f = p->wf_frac;
    for (int i = 0; i < nshape; i++)
        mean += (double)tt_gen_shape_tasks(&shapes[i]) / nshape;
    double q = f >= 1.0 ? 1.0 : f / (mean * (1.0 - f) + f);
    uint64_t seed = (uint64_t)p->seed;
    int64_t n = t->n, ndep = 0, cap = 1024;
    t->wf = (int64_t *)malloc((size_t)t->cap * sizeof *t->wf);
    t->out_mb = (int32_t *)malloc((size_t)t->cap * sizeof *t->out_mb);
    t->dep_off = (int64_t *)malloc(((size_t)t->cap + 1) * sizeof *t->dep_off);
    t->deps = (int32_t *)malloc((size_t)cap * sizeof *t->deps);
    int32_t *par = (int32_t *)malloc(TT_GEN_MAX_SHAPE_TASKS * sizeof *par);
    if (!t->wf || !t->out_mb || !t->dep_off || !t->deps || !par) {
        free(par);
        return TT_ENOMEM;
    }
    int64_t wf = 0;
    t->dep_off[0] = 0;
    for (int64_t i = 0; i < n;) {
        int64_t size = 1;
        const tt_gen_shape *s = NULL;
        if (u01_open(draw(seed, ST_WF, (uint64_t)i)) < q) {
            s = &shapes[draw(seed, ST_WF_SHAPE, (uint64_t)i) % (uint64_t)nshape];
            size = tt_gen_shape_tasks(s) < n - i ? tt_gen_shape_tasks(s) : n - i; /* cut at the end */
        }
        for (int32_t k = 0; k < size; k++, i++) {
            int32_t np = s ? shape_parents(s, k, par) : 0;
            if (ndep + np > cap) {
                cap = (ndep + np) * 2;
                int32_t *d = (int32_t *)realloc(t->deps, (size_t)cap * sizeof *d);
                if (!d) {
                    free(par);
                    return TT_ENOMEM;
                }
                t->deps = d;
            }
            for (int32_t m = 0; m < np; m++)
                t->deps[ndep++] = (int32_t)(i - k + par[m]);
            t->dep_off[i + 1] = ndep;
            t->wf[i] = s ? wf : -1;
            /* log-uniform over [1, 1000] MiB */
            t->out_mb[i] = s ? (int32_t)(gen_exp(u01_closed(draw(seed, ST_OUT_MB, (uint64_t)i)) *
                                                 gen_log(1000.0)) + 0.5)
                             : 0;
        }
        wf += s != NULL;
    }
    t->dep_cap = cap;
    free(par);
    return 0;
}

/* The columns p asks for (none at the defaults). 0 or TT_ENOMEM. */
static int gen_columns(const tt_gen_params *p, tt_trace *t)
{
    uint64_t seed = (uint64_t)p->seed;
    if (p->elastic >= 0) {
        if (!(t->elastic = (int8_t *)malloc((size_t)t->cap)))
            return TT_ENOMEM;
        for (int64_t i = 0; i < t->n; i++)
            t->elastic[i] = el_drawn(seed, i, p->elastic);
    }
    if (p->models > 0) {
        uint64_t *cum = zipf_build(p->models, 1.0);
        if (!cum || !(t->mid = (int32_t *)malloc((size_t)t->cap * sizeof *t->mid))) {
            free(cum);
            return TT_ENOMEM;
        }
        for (int64_t i = 0; i < t->n; i++)
            t->mid[i] = (int32_t)cum_pick(cum, p->models, draw(seed, ST_MID, (uint64_t)i));
        free(cum);
        /* each id's size, log-uniform over [45, 1400] MiB (fp32 weights
         * from resnet18 to about BERT-large), drawn per id so that a model
         * has one size wherever it runs and the cache (SPEC 12.2) can hold it */
        if (!(t->mem_mb = (int32_t *)malloc((size_t)t->cap * sizeof *t->mem_mb)))
            return TT_ENOMEM;
        for (int64_t i = 0; i < t->n; i++) {
            double u = u01_closed(draw(seed, ST_MEM_MB, (uint64_t)t->mid[i]));
            t->mem_mb[i] = (int32_t)(45.0 * gen_exp(u * gen_log(1400.0 / 45.0)) + 0.5);
        }
    }
    return p->wf_frac > 0 ? gen_workflows(p, t) : 0;
}

/* What the notes add when p asks for an optional column. */
static int note_synthetic(const tt_gen_params *p, tt_trace *t)
{
    if (p->elastic < 0 && !(p->wf_frac > 0) && p->models <= 0)
        return 0;
    const char *what[3] = {
        p->elastic >= 0 ? "elastic (SPEC 10.1's hash of -s and the job index)" : NULL,
        p->wf_frac > 0 ? "wf and deps (the --wf-shape shapes), out_mb (log-uniform over "
                         "[1, 1000] MiB)"
                       : NULL,
        p->models > 0 ? "mid (Zipf over --models ids), mem_mb (per id, log-uniform over "
                        "[45, 1400] MiB)"
                      : NULL};
    char line[512] = "; synthetic columns: ";
    for (int i = 0, first = 1; i < 3; i++)
        if (what[i]) {
            size_t at = strlen(line);
            snprintf(line + at, sizeof line - at, "%s%s", first ? "" : ", ", what[i]);
            first = 0;
        }
    size_t old = strlen(t->prov.notes);
    char *c = (char *)realloc(t->prov.notes, old + strlen(line) + 1);
    if (!c)
        return TT_ENOMEM;
    memcpy(c + old, line, strlen(line) + 1);
    t->prov.notes = c;
    return 0;
}

/* Names follow the final (sorted) order: job-1 is the first submitted. */
static int name_jobs(tt_trace *t)
{
    char name[32];
    for (int64_t i = 0; i < t->n; i++) {
        snprintf(name, sizeof name, "job-%lld", (long long)i + 1);
        int32_t code = tt_strtab_intern(t->names, name);
        if (code < 0)
            return code;
        t->name[i] = code;
    }
    return 0;
}

int tt_gen_run(tt_ctx *ctx, const tt_gen_params *p, tt_trace **out)
{
    *out = NULL;
    int rc = tt_gen_check(ctx, p);
    if (rc)
        return rc;
    gen_tables g;
    memset(&g, 0, sizeof g);
    tt_trace *t = tt_trace_create();
    char *notes = tt_gen_describe(p);
    if (!t || !notes || tables_build(&g, p) || tt_trace_reserve(t, p->jobs)) {
        rc = tt_err(ctx, TT_ENOMEM, "out of memory (%lld jobs)", (long long)p->jobs);
        goto done;
    }
    if ((rc = generate(ctx, p, &g, t)))
        goto done;
    if (tt_trace_sort(t) || name_jobs(t) || gen_columns(p, t) ||
        tt_prov_set(&t->prov.format, "tt-gen") || tt_prov_set(&t->prov.notes, notes) ||
        note_synthetic(p, t) ||
        tt_prov_set(&t->prov.time_base, p->start == TT_TIME_NONE ? "relative" : "unix") ||
        tt_prov_set(&t->prov.timezone, p->start == TT_TIME_NONE ? "" : "UTC")) {
        rc = tt_err(ctx, TT_ENOMEM, "out of memory (%lld jobs)", (long long)p->jobs);
        goto done;
    }
    t->prov.rows_read = t->prov.rows_kept = t->n;
    *out = t;
    t = NULL;
done:
    tables_free(&g);
    free(notes);
    tt_trace_free(t);
    return rc;
}
