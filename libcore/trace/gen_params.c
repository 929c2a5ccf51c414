/* Parameters of the synthetic trace generator: the Philly-fitted defaults,
 * the -g/-d/-w mix strings, the range check, and the command line that
 * reproduces a parameter set (the trace's provenance). See tt/gen.h. */
#include "tt/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt/parse.h"

/* ---- defaults (fitted to the Philly per-job CSV, see data/README.md) ---- */

/* num_gpus counts of the 82,247 jobs of the Pollux Philly CSV. */
static const int32_t philly_gpu_k[] = {1, 2, 4, 8, 12, 16, 24, 32, 64, 128};
static const double philly_gpu_n[] = {76627, 1818, 1870, 1643, 7, 199, 7, 67, 6, 3};
/* Three log-normals (weight, median s, sigma) and their weights per GPU
 * count, fitted together: the weighted mix to the duration quantiles
 * p5..p99.9, each count's weights to its mean and quantiles, so that GPU-
 * hours fall on the GPU counts as in Philly (big jobs run longer). */
static const double philly_dur[][3] = {
    {0.355, 85.1, 0.553}, {0.582, 2270.0, 1.09}, {0.063, 85300.0, 1.17}};
static const int32_t philly_gpu_dur_k[] = {1, 2, 4, 8, 16, 32};
static const double philly_gpu_dur_w[][3] = {{0.351, 0.615, 0.034}, {0.818, 0.0, 0.182},
                                             {0.15, 0.387, 0.463},  {0.25, 0.0, 0.75},
                                             {0.25, 0.0, 0.75},     {0.0, 0.841, 0.159}};

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
    p->elastic = -1;
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
    p->ngpu_dur = (int)(sizeof philly_gpu_dur_k / sizeof philly_gpu_dur_k[0]);
    for (int i = 0; i < p->ngpu_dur; i++) {
        p->gpu_dur_k[i] = philly_gpu_dur_k[i];
        for (int c = 0; c < p->ndur; c++)
            p->gpu_dur_w[i][c] = philly_gpu_dur_w[i][c];
    }
}

int64_t tt_gen_shape_tasks(const tt_gen_shape *s)
{
    return s->kind == TT_GEN_CHAIN ? s->a : s->kind == TT_GEN_FAN ? (int64_t)s->a + 1
                                                                   : (int64_t)s->a + s->b;
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
        char *f[1 + TT_GEN_MAX_DUR_MIX];
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

/* A GPU count not among the n before it. */
static int gpu_count(tt_ctx *ctx, const char *what, const char *text, const int32_t *before,
                     int n, int32_t *out)
{
    if (tt_parse_i32(text, out) || *out < 1 || *out > INT32_MAX / 1000)
        return tt_err(ctx, TT_EINVAL, "%s: GPU count '%s' is not an integer in [1, %d]", what,
                      text, INT32_MAX / 1000);
    for (int j = 0; j < n; j++)
        if (before[j] == *out)
            return tt_err(ctx, TT_EINVAL, "%s: GPU count %d given twice", what, (int)*out);
    return 0;
}

static int gpu_entry(tt_ctx *ctx, const char *what, int i, char **f, void *arg)
{
    tt_gen_params *p = (tt_gen_params *)arg;
    int rc = gpu_count(ctx, what, f[0], p->gpu_k, i, &p->gpu_k[i]);
    return rc ? rc : positive(ctx, what, "weight", f[1], 1e15, &p->gpu_w[i]);
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
    tmp.ngpu_dur = 0;
    *p = tmp;
    return 0;
}

/* Weights of the duration mix for one GPU count: not all 0. */
static int gpu_dur_ok(const tt_gen_params *p, int i)
{
    double sum = 0.0;
    for (int c = 0; c < p->ndur; c++) {
        double w = p->gpu_dur_w[i][c];
        if (!(w >= 0.0) || w > 1e15)
            return 0;
        sum += w;
    }
    return sum > 0.0;
}

static int gpu_dur_entry(tt_ctx *ctx, const char *what, int i, char **f, void *arg)
{
    tt_gen_params *p = (tt_gen_params *)arg;
    int rc = gpu_count(ctx, what, f[0], p->gpu_dur_k, i, &p->gpu_dur_k[i]);
    if (rc)
        return rc;
    for (int c = 0; c < p->ndur; c++)
        if (tt_parse_f64(f[1 + c], &p->gpu_dur_w[i][c]) || !(p->gpu_dur_w[i][c] >= 0.0) ||
            p->gpu_dur_w[i][c] > 1e15)
            return tt_err(ctx, TT_EINVAL, "%s: weight '%s' is not a number in [0, 1e+15]", what,
                          f[1 + c]);
    if (!gpu_dur_ok(p, i))
        return tt_err(ctx, TT_EINVAL, "%s: the weights of %d GPUs are all 0", what,
                      (int)p->gpu_dur_k[i]);
    return 0;
}

int tt_gen_parse_gpu_durations(tt_ctx *ctx, const char *spec, tt_gen_params *p)
{
    /* "GPUS:W1:W2:W3" for three components */
    char shape[16 + 4 * TT_GEN_MAX_DUR_MIX] = "GPUS";
    for (int c = 0; c < p->ndur; c++)
        snprintf(shape + strlen(shape), sizeof shape - strlen(shape), ":W%d", c + 1);
    tt_gen_params tmp = *p;
    int n = parse_list(ctx, "duration weights per GPU count", spec, 1 + p->ndur,
                       TT_GEN_MAX_GPU_MIX, shape, gpu_dur_entry, &tmp);
    if (n < 0)
        return n;
    tmp.ngpu_dur = n;
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
    if (p->ngpu_dur < 0 || p->ngpu_dur > TT_GEN_MAX_GPU_MIX)
        return tt_err(ctx, TT_EINVAL, "duration weights per GPU count (-w) need 0 to %d entries",
                      TT_GEN_MAX_GPU_MIX);
    for (int i = 0; i < p->ngpu_dur; i++) {
        int twice = 0;
        for (int j = 0; j < i; j++)
            twice |= p->gpu_dur_k[j] == p->gpu_dur_k[i];
        if (twice || p->gpu_dur_k[i] < 1 || p->gpu_dur_k[i] > INT32_MAX / 1000 ||
            !gpu_dur_ok(p, i))
            return tt_err(ctx, TT_EINVAL,
                          "duration weights per GPU count (-w): entry %d out of range", i + 1);
    }
    if (p->elastic < -1 || p->elastic > 1000)
        return bad_range(ctx, "elastic share (--elastic)", p->elastic / 1000.0, 0, 1);
    if (!(p->wf_frac >= 0.0 && p->wf_frac <= 1.0))
        return bad_range(ctx, "workflow share (--wf-frac)", p->wf_frac, 0, 1);
    if (p->nshape < 0 || p->nshape > TT_GEN_MAX_SHAPES)
        return tt_err(ctx, TT_EINVAL, "workflow shapes (--wf-shape) need 0 to %d entries",
                      TT_GEN_MAX_SHAPES);
    for (int i = 0; i < p->nshape; i++)
        if (p->shape[i].kind < TT_GEN_CHAIN || p->shape[i].kind > TT_GEN_MR ||
            p->shape[i].a < 1 || p->shape[i].b < 1 || tt_gen_shape_tasks(&p->shape[i]) < 2 ||
            tt_gen_shape_tasks(&p->shape[i]) > TT_GEN_MAX_SHAPE_TASKS)
            return tt_err(ctx, TT_EINVAL, "workflow shapes (--wf-shape): entry %d out of range",
                          i + 1);
    if (p->models < 0 || p->models > 1000000)
        return bad_range(ctx, "model ids (--models)", p->models, 0, 1000000);
    return 0;
}

/* One shape "chain:L", "fan:W" or "mr:M:R" (modified in place). */
static int parse_shape(tt_ctx *ctx, char *e, tt_gen_shape *out)
{
    static const char *const kinds[] = {"chain", "fan", "mr"};
    char *f[3] = {e, NULL, NULL};
    int n = 1;
    for (char *c = e; *c && n <= 3; c++)
        if (*c == ':') {
            *c = '\0';
            if (n < 3)
                f[n] = c + 1;
            n++;
        }
    int k = 0;
    while (k < 3 && strcmp(f[0], kinds[k]) != 0)
        k++;
    int64_t a = 0, b = 1;
    if (k == 3 || n != (k == TT_GEN_MR ? 3 : 2) || tt_parse_i64(f[1], &a) ||
        (k == TT_GEN_MR && tt_parse_i64(f[2], &b)))
        return tt_err(ctx, TT_EINVAL, "not chain:L, fan:W or mr:M:R");
    tt_gen_shape s = {k, (int32_t)(a > 0 && a <= INT32_MAX ? a : 0),
                      (int32_t)(b > 0 && b <= INT32_MAX ? b : 0)};
    if (s.a < (k == TT_GEN_CHAIN ? 2 : 1) || s.b < 1 ||
        tt_gen_shape_tasks(&s) > TT_GEN_MAX_SHAPE_TASKS)
        return tt_err(ctx, TT_EINVAL, "%s needs %s and at most %d tasks", kinds[k],
                      k == TT_GEN_CHAIN ? "L >= 2" : k == TT_GEN_FAN ? "W >= 1" : "M, R >= 1",
                      TT_GEN_MAX_SHAPE_TASKS);
    *out = s;
    return 0;
}

int tt_gen_parse_shapes(tt_ctx *ctx, const char *spec, tt_gen_params *p)
{
    char *copy = spec ? strdup(spec) : NULL, *save = NULL;
    if (!copy)
        return spec ? tt_err(ctx, TT_ENOMEM, "out of memory")
                    : tt_err(ctx, TT_EINVAL, "workflow shapes: none given");
    tt_gen_shape sh[TT_GEN_MAX_SHAPES];
    int n = 0, rc = 0;
    for (char *e = strtok_r(copy, ",", &save); e && !rc; e = strtok_r(NULL, ",", &save)) {
        char entry[64];
        snprintf(entry, sizeof entry, "%s", e);
        if (n == TT_GEN_MAX_SHAPES)
            rc = tt_err(ctx, TT_EINVAL, "workflow shapes '%s': more than %d", spec,
                        TT_GEN_MAX_SHAPES);
        else if (parse_shape(ctx, e, &sh[n]) == 0)
            n++;
        else {
            char why[128];
            snprintf(why, sizeof why, "%s", tt_errmsg(ctx));
            rc = tt_err(ctx, TT_EINVAL, "workflow shape '%s': %s", entry, why);
        }
    }
    free(copy);
    if (!rc && n == 0)
        rc = tt_err(ctx, TT_EINVAL, "workflow shapes: none given");
    if (rc)
        return rc;
    memcpy(p->shape, sh, (size_t)n * sizeof *sh);
    p->nshape = n;
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
    for (int i = 0; i < p->ngpu_dur; i++) {
        sb_int(&b, i ? "," : " -w ", p->gpu_dur_k[i]);
        for (int c = 0; c < p->ndur; c++)
            sb_num(&b, ":", p->gpu_dur_w[i][c]);
    }
    sb_int(&b, " -u ", p->users);
    sb_num(&b, " --user-skew ", p->user_skew);
    sb_int(&b, " -v ", p->vcs);
    sb_num(&b, " --vc-skew ", p->vc_skew);
    /* the optional columns only when asked for: the defaults' line stays */
    if (p->elastic >= 0)
        sb_num(&b, " --elastic ", p->elastic / 1000.0);
    if (p->wf_frac > 0)
        sb_num(&b, " --wf-frac ", p->wf_frac);
    for (int i = 0; p->wf_frac > 0 && i < p->nshape; i++) {
        const tt_gen_shape *sh = &p->shape[i];
        sb_add(&b, i ? "," : " --wf-shape ");
        sb_int(&b, sh->kind == TT_GEN_CHAIN ? "chain:" : sh->kind == TT_GEN_FAN ? "fan:" : "mr:",
               sh->a);
        if (sh->kind == TT_GEN_MR)
            sb_int(&b, ":", sh->b);
    }
    if (p->models > 0)
        sb_int(&b, " --models ", p->models);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

