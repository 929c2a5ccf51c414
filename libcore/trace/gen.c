/* Synthetic traces: bursty diurnal arrivals, log-normal-mixture durations,
 * a discrete GPU mix, Zipf users and VCs. See tt/gen.h. */
#include "tt/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/parse.h"

/* Results must not depend on the compiler fusing a*b+c into one rounding:
 * GCC does not fuse in ISO C mode (-std=c11); clang needs telling. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- defaults (fitted to the Philly per-job CSV, see data/README.md) ---- */

/* num_gpus counts of the 82,247 jobs of the Pollux Philly CSV. */
static const int32_t philly_gpu_k[] = {1, 2, 4, 8, 12, 16, 24, 32, 64, 128};
static const double philly_gpu_n[] = {76627, 1818, 1870, 1643, 7, 199, 7, 67, 6, 3};
/* Three log-normals fitted to its duration quantiles p5..p99.9. */
static const double philly_dur[][3] = {
    {0.292, 72.7, 0.435}, {0.574, 1549.5, 0.833}, {0.134, 26556.0, 1.563}};

void tt_gen_defaults(tt_gen_params *p)
{
    memset(p, 0, sizeof *p);
    p->jobs = 1000;
    p->seed = 0;
    p->interarrival = 114.4; /* 9,408,690 s span / 82,247 jobs */
    p->batch = 1.7;          /* jobs per run of gaps <= 5 s */
    p->day_ratio = 1.8;      /* first harmonic of the hour-of-day counts */
    p->peak_hour = 15;       /* "busier afternoons" */
    p->weekend = 0.55;       /* jobs per weekend day / per weekday */
    p->start = TT_TIME_NONE;
    p->users = 300;
    p->vcs = 15;
    p->user_skew = 1.0;
    p->vc_skew = 1.5;
    p->ngpu = (int)(sizeof philly_gpu_k / sizeof philly_gpu_k[0]);
    for (int i = 0; i < p->ngpu; i++) {
        p->gpu_k[i] = philly_gpu_k[i];
        p->gpu_w[i] = philly_gpu_n[i];
    }
    p->ndur = (int)(sizeof philly_dur / sizeof philly_dur[0]);
    for (int i = 0; i < p->ndur; i++) {
        p->dur_w[i] = philly_dur[i][0];
        p->dur_median[i] = philly_dur[i][1];
        p->dur_sigma[i] = philly_dur[i][2];
    }
}

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
    ST_DUR_Z
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

static uint64_t *cum_build(const double *w, int64_t n)
{
    uint64_t *cum = (uint64_t *)malloc((size_t)n * sizeof *cum);
    if (!cum)
        return NULL;
    double total = 0.0, acc = 0.0;
    for (int64_t i = 0; i < n; i++)
        total += w[i];
    for (int64_t i = 0; i < n; i++) {
        acc += w[i];
        cum[i] = i == n - 1 ? CUM_ONE : (uint64_t)(acc / total * (double)CUM_ONE);
    }
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

/* ---- option strings ---- */

/* Splits "a:b:c" at ':' into exactly want fields (in place). */
static int split_colon(char *s, char **f, int want)
{
    int n = 0;
    for (;;) {
        if (n == want)
            return -1;
        f[n++] = s;
        char *c = strchr(s, ':');
        if (!c)
            break;
        *c = '\0';
        s = c + 1;
    }
    return n == want ? 0 : -1;
}

/* Calls entry(i, fields) for each comma-separated entry of spec. */
static int parse_list(tt_ctx *ctx, const char *what, const char *spec, int nfield, int max,
                      const char *shape, int (*entry)(tt_ctx *, const char *, int, char **, void *),
                      void *arg)
{
    if (!spec || !*spec)
        return tt_err(ctx, TT_EINVAL, "%s: empty (expected %s,...)", what, shape);
    size_t len = strlen(spec);
    char *copy = (char *)malloc(len + 1);
    if (!copy)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    memcpy(copy, spec, len + 1);
    int rc = 0, i = 0;
    char *s = copy;
    for (;;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        char *f[4];
        int at = (int)(s - copy), elen = (int)strlen(s);
        if (i == max) {
            rc = tt_err(ctx, TT_EINVAL, "%s '%s': more than %d entries", what, spec, max);
            break;
        }
        if (split_colon(s, f, nfield)) {
            rc = tt_err(ctx, TT_EINVAL, "%s '%s': entry %d '%.*s' is not %s", what, spec, i + 1,
                        elen, spec + at, shape);
            break;
        }
        if ((rc = entry(ctx, what, i, f, arg)))
            break;
        i++;
        if (!comma)
            break;
        s = comma + 1;
    }
    free(copy);
    return rc ? rc : i;
}

/* A positive finite number, at most max. */
static int positive(tt_ctx *ctx, const char *what, const char *name, const char *text, double max,
                    double *out)
{
    if (tt_parse_f64(text, out) || !(*out > 0.0) || *out > max)
        return tt_err(ctx, TT_EINVAL, "%s: %s '%s' is not a number in (0, %g]", what, name, text,
                      max);
    return 0;
}

static int gpu_entry(tt_ctx *ctx, const char *what, int i, char **f, void *arg)
{
    tt_gen_params *p = (tt_gen_params *)arg;
    int32_t k;
    if (tt_parse_i32(f[0], &k) || k < 1 || k > INT32_MAX / 1000)
        return tt_err(ctx, TT_EINVAL, "%s: GPU count '%s' is not an integer in [1, %d]", what,
                      f[0], INT32_MAX / 1000);
    for (int j = 0; j < i; j++)
        if (p->gpu_k[j] == k)
            return tt_err(ctx, TT_EINVAL, "%s: GPU count %d given twice", what, (int)k);
    p->gpu_k[i] = k;
    return positive(ctx, what, "weight", f[1], 1e15, &p->gpu_w[i]);
}

int tt_gen_parse_gpus(tt_ctx *ctx, const char *spec, tt_gen_params *p)
{
    tt_gen_params tmp = *p;
    int n = parse_list(ctx, "GPU mix", spec, 2, TT_GEN_MAX_GPU_MIX, "GPUS:WEIGHT", gpu_entry,
                       &tmp);
    if (n < 0)
        return n;
    tmp.ngpu = n;
    *p = tmp;
    return 0;
}

static int dur_entry(tt_ctx *ctx, const char *what, int i, char **f, void *arg)
{
    tt_gen_params *p = (tt_gen_params *)arg;
    int rc;
    if ((rc = positive(ctx, what, "weight", f[0], 1e15, &p->dur_w[i])) ||
        (rc = positive(ctx, what, "median", f[1], 1e9, &p->dur_median[i])))
        return rc;
    if (tt_parse_f64(f[2], &p->dur_sigma[i]) || !(p->dur_sigma[i] >= 0.0) ||
        p->dur_sigma[i] > 10.0)
        return tt_err(ctx, TT_EINVAL, "%s: sigma '%s' is not a number in [0, 10]", what, f[2]);
    return 0;
}

int tt_gen_parse_durations(tt_ctx *ctx, const char *spec, tt_gen_params *p)
{
    tt_gen_params tmp = *p;
    int n = parse_list(ctx, "duration mix", spec, 3, TT_GEN_MAX_DUR_MIX, "WEIGHT:MEDIAN:SIGMA",
                       dur_entry, &tmp);
    if (n < 0)
        return n;
    tmp.ndur = n;
    *p = tmp;
    return 0;
}

/* ---- parameters ---- */

#define MAX_START 1000000000000ll /* year ~33,700: keeps every sum in int64 */

static int bad_range(tt_ctx *ctx, const char *field, double v, double lo, double hi)
{
    return tt_err(ctx, TT_EINVAL, "%s must be in [%g, %g], got %g", field, lo, hi, v);
}

int tt_gen_check(tt_ctx *ctx, const tt_gen_params *p)
{
    if (p->jobs < 1 || p->jobs > INT32_MAX - 1)
        return tt_err(ctx, TT_EINVAL, "jobs (-n) must be in [1, %d], got %lld", INT32_MAX - 1,
                      (long long)p->jobs);
    if (p->seed < 0)
        return tt_err(ctx, TT_EINVAL, "seed (-s) must be >= 0, got %lld", (long long)p->seed);
    if (!(p->interarrival > 0.0) || p->interarrival > 1e7)
        return tt_err(ctx, TT_EINVAL, "mean inter-arrival (-a) must be in (0, 1e+07] s, got %g",
                      p->interarrival);
    if (!(p->batch >= 1.0 && p->batch <= 1000.0))
        return bad_range(ctx, "mean batch size (-b)", p->batch, 1, 1000);
    if (!(p->day_ratio >= 1.0 && p->day_ratio <= 100.0))
        return bad_range(ctx, "day ratio (--day-ratio)", p->day_ratio, 1, 100);
    if (p->peak_hour < 0 || p->peak_hour > 23)
        return bad_range(ctx, "peak hour (--peak-hour)", p->peak_hour, 0, 23);
    if (!(p->weekend >= 0.01 && p->weekend <= 100.0))
        return bad_range(ctx, "weekend factor (--weekend)", p->weekend, 0.01, 100);
    if (p->start != TT_TIME_NONE && (p->start < 0 || p->start > MAX_START))
        return tt_err(ctx, TT_EINVAL, "start (--start) must be in [0, %lld], got %lld",
                      (long long)MAX_START, (long long)p->start);
    if (p->users < 1 || p->users > 1000000)
        return bad_range(ctx, "users (-u)", p->users, 1, 1000000);
    if (p->vcs < 1 || p->vcs > 1000000)
        return bad_range(ctx, "VCs (-v)", p->vcs, 1, 1000000);
    if (!(p->user_skew >= 0.0 && p->user_skew <= 10.0))
        return bad_range(ctx, "user skew (--user-skew)", p->user_skew, 0, 10);
    if (!(p->vc_skew >= 0.0 && p->vc_skew <= 10.0))
        return bad_range(ctx, "VC skew (--vc-skew)", p->vc_skew, 0, 10);
    if (p->ngpu < 1 || p->ngpu > TT_GEN_MAX_GPU_MIX)
        return tt_err(ctx, TT_EINVAL, "GPU mix (-g) needs 1 to %d entries", TT_GEN_MAX_GPU_MIX);
    for (int i = 0; i < p->ngpu; i++)
        if (p->gpu_k[i] < 1 || p->gpu_k[i] > INT32_MAX / 1000 || !(p->gpu_w[i] > 0.0) ||
            p->gpu_w[i] > 1e15)
            return tt_err(ctx, TT_EINVAL, "GPU mix (-g): entry %d out of range", i + 1);
    if (p->ndur < 1 || p->ndur > TT_GEN_MAX_DUR_MIX)
        return tt_err(ctx, TT_EINVAL, "duration mix (-d) needs 1 to %d entries",
                      TT_GEN_MAX_DUR_MIX);
    for (int i = 0; i < p->ndur; i++)
        if (!(p->dur_w[i] > 0.0) || p->dur_w[i] > 1e15 || !(p->dur_median[i] > 0.0) ||
            p->dur_median[i] > 1e9 || !(p->dur_sigma[i] >= 0.0) || p->dur_sigma[i] > 10.0)
            return tt_err(ctx, TT_EINVAL, "duration mix (-d): entry %d out of range", i + 1);
    return 0;
}

/* ---- the command line in the provenance ---- */

/* Whole numbers as integers, others in the shortest %g form that reads
 * back as exactly v. */
static void put_num(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, size, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        double back;
        if (tt_parse_f64(buf, &back) == 0 && back == v)
            return;
    }
}

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int oom;
} strbuf;

static void sb_add(strbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *c = (char *)realloc(b->s, cap);
        if (!c) {
            b->oom = 1;
            return;
        }
        b->s = c;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

static void sb_num(strbuf *b, const char *opt, double v)
{
    char num[64];
    put_num(num, sizeof num, v);
    sb_add(b, opt);
    sb_add(b, num);
}

static void sb_int(strbuf *b, const char *opt, long long v)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    sb_add(b, opt);
    sb_add(b, num);
}

char *tt_gen_describe(const tt_gen_params *p)
{
    strbuf b = {NULL, 0, 0, 0};
    sb_int(&b, "tt-gen -n ", (long long)p->jobs);
    sb_int(&b, " -s ", (long long)p->seed);
    sb_num(&b, " -a ", p->interarrival);
    sb_num(&b, " -b ", p->batch);
    sb_num(&b, " --day-ratio ", p->day_ratio);
    sb_int(&b, " --peak-hour ", p->peak_hour);
    sb_num(&b, " --weekend ", p->weekend);
    if (p->start != TT_TIME_NONE)
        sb_int(&b, " --start ", (long long)p->start);
    sb_add(&b, " -g ");
    for (int i = 0; i < p->ngpu; i++) {
        sb_int(&b, i ? "," : "", p->gpu_k[i]);
        sb_num(&b, ":", p->gpu_w[i]);
    }
    sb_add(&b, " -d ");
    for (int i = 0; i < p->ndur; i++) {
        sb_num(&b, i ? "," : "", p->dur_w[i]);
        sb_num(&b, ":", p->dur_median[i]);
        sb_num(&b, ":", p->dur_sigma[i]);
    }
    sb_int(&b, " -u ", p->users);
    sb_num(&b, " --user-skew ", p->user_skew);
    sb_int(&b, " -v ", p->vcs);
    sb_num(&b, " --vc-skew ", p->vc_skew);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
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
    uint64_t *gpu, *dur, *user, *vc;
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
    g->dur = cum_build(p->dur_w, p->ndur);
    g->user = zipf_build(p->users, p->user_skew);
    g->vc = zipf_build(p->vcs, p->vc_skew);
    g->user_code = (int32_t *)malloc((size_t)p->users * sizeof *g->user_code);
    g->vc_code = (int32_t *)malloc((size_t)p->vcs * sizeof *g->vc_code);
    if (!g->gpu || !g->dur || !g->user || !g->vc || !g->user_code || !g->vc_code)
        return TT_ENOMEM;
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

static int64_t duration_of(const tt_gen_params *p, const gen_tables *g, uint64_t seed,
                           int64_t j)
{
    int k = (int)cum_pick(g->dur, p->ndur, draw(seed, ST_DUR_PICK, (uint64_t)j));
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
        job.gpus = p->gpu_k[cum_pick(g->gpu, p->ngpu, draw(seed, ST_GPUS, (uint64_t)b))];
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
            job.duration = duration_of(p, g, seed, j);
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
    if (tt_trace_sort(t) || name_jobs(t) || tt_prov_set(&t->prov.format, "tt-gen") ||
        tt_prov_set(&t->prov.notes, notes) ||
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
