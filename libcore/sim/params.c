/* A simulation's parameter set: its defaults, the grammar tt_params_set
 * reads (numbers, inf, the queue order, the mix, the per-class timers,
 * SPEC 11's thresholds and distribution) and the text tt_params_format
 * writes back. The presets are presets.c's. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simconf.h"
#include "tt/parse.h"
#include "tt/sim.h"
#include "tt/simfile.h"

/* ---- parameters ---- */


const char *const tt_param_names[] = {
    "order",      "w0",      "w1",          "theta",    "restart", "congestion",
    "min_run",    "max_preempt", "backfill", "load",    "seed",    "mix", "timers",
    "mlfq",       "promote", "prio_preempt", "gittins_delta", "gittins_dist",
    "el_up",      "el_down", "el_frac",     "resize",   "resize_cost", "resize_gap",
    "gpu_mem",    "cache_slots", "load_bw", "xfer_bw",  "evict",   "cache_place", "w_warm",
    "requeue",    "prio_victims"};

/* Where each integer parameter lives in tt_params, its width, and
 * whether the tuner searches it; the others (mix, timers, mlfq,
 * gittins_dist) have no row. A new integer parameter: one row here, one in
 * nums when it has a range. */
typedef struct {
    size_t off;
    unsigned char size, search;
} int_field;

#define FIELD(f, search) {offsetof(tt_params, f), sizeof(((tt_params *)0)->f), search}
static const int_field fields[TT_NPARAMS] = {
    [TT_P_ORDER] = FIELD(order, 0),
    [TT_P_W0] = FIELD(w0, 1),
    [TT_P_W1] = FIELD(w1, 1),
    [TT_P_THETA] = FIELD(theta, 1),
    [TT_P_RESTART] = FIELD(restart, 1),
    [TT_P_CONGESTION] = FIELD(congestion, 1),
    [TT_P_MIN_RUN] = FIELD(min_run, 1),
    [TT_P_MAX_PREEMPT] = FIELD(max_preempt, 1),
    [TT_P_BACKFILL] = FIELD(backfill, 1),
    [TT_P_LOAD] = FIELD(load, 1),
    [TT_P_SEED] = FIELD(seed, 0),
    [TT_P_PROMOTE] = FIELD(promote, 1),
    [TT_P_PRIO_PREEMPT] = FIELD(prio_preempt, 1),
    [TT_P_GITTINS_DELTA] = FIELD(gittins_delta, 1),
    [TT_P_EL_UP] = FIELD(el_up, 1),
    [TT_P_EL_DOWN] = FIELD(el_down, 1),
    [TT_P_EL_FRAC] = FIELD(el_frac, 0),
    [TT_P_RESIZE] = FIELD(resize, 0),
    [TT_P_RESIZE_COST] = FIELD(resize_cost, 1),
    [TT_P_RESIZE_GAP] = FIELD(resize_gap, 1),
    [TT_P_GPU_MEM] = FIELD(gpu_mem, 0),
    [TT_P_CACHE_SLOTS] = FIELD(cache_slots, 1),
    [TT_P_LOAD_BW] = FIELD(load_bw, 0),
    [TT_P_XFER_BW] = FIELD(xfer_bw, 0),
    [TT_P_EVICT] = FIELD(evict, 0),
    [TT_P_CACHE_PLACE] = FIELD(cache_place, 0),
    [TT_P_W_WARM] = FIELD(w_warm, 1),
    [TT_P_REQUEUE] = FIELD(requeue, 1),
    [TT_P_PRIO_VICTIMS] = FIELD(prio_victims, 1),
};
_Static_assert(TT_P_COUNT == TT_NPARAMS, "a parameter index without its name");
_Static_assert(sizeof tt_param_names / sizeof *tt_param_names == TT_NPARAMS,
               "a parameter name missing");

int tt_param_int(const tt_params *p, int i, int64_t *v)
{
    if (i < 0 || i >= TT_NPARAMS || !fields[i].size)
        return 0;
    const char *at = (const char *)p + fields[i].off;
    if (fields[i].size == 8) {
        int64_t x;
        memcpy(&x, at, 8); /* seed is a uint64_t: its bits */
        *v = x;
    } else {
        int32_t x;
        memcpy(&x, at, 4);
        *v = x;
    }
    return 1;
}

void tt_param_set_int(tt_params *p, int i, int64_t v)
{
    if (i < 0 || i >= TT_NPARAMS || !fields[i].size)
        return;
    char *at = (char *)p + fields[i].off;
    if (fields[i].size == 8) {
        memcpy(at, &v, 8);
    } else {
        int32_t x = (int32_t)v;
        memcpy(at, &x, 4);
    }
}

int tt_param_searchable(int i) { return i >= 0 && i < TT_NPARAMS && fields[i].search; }

static const char *const resize_names[] = {"sidecar", "term"};
static const char *const evict_names[] = {"lru", "demand"};
static const char *const place_names[] = {"off", "affinity"};
static const char *const requeue_names[] = {"keep", "front"};
static const char *const victims_names[] = {"lowest", "refill"};

static const char *const order_names[TT_NORDERS] = {"fifo", "sjf",     "srtf", "las",
                                                    "dlas", "gittins", "ftf"};

/* The int64 parameters: where they live, their range, whether "inf"
 * (TT_INF) is allowed, and the words of the message ("expected WANT, got
 * 'x'"; OVER where a value above max has words of its own, else WANT).
 * tt_params_set reads them in range, and tt_params_check_ranges holds a
 * parameter set built in code to the same rows.
 *
 * Why each range keeps the engine's int64 arithmetic (kernels/sim_step*.h)
 * exact. The premise: every time a run holds (a submit', a start, an end,
 * an event) lies below T = 2^62 s. submit' itself is below 2^52 (|submit|
 * <= 2^40 s, TT_SUBMIT_MAX, stretched at most 1000 times by load >= 1),
 * and a segment adds at most 2^30 s of work (docs/model.md 10.22's work
 * bound) and 2^34 s of overhead (restart, load, transfer: below); a clock
 * past T needs more than 10^11 years of jobs, and the engine's totals
 * (GPU-seconds used) would pass 2^63 first. Under it, what a parameter
 * adds to a time or multiplies is:
 *  - w0, w1 and the class timers (any value >= 0): compared with a wait
 *    (t - submit' < w0, then wait - w0 < w1 with wait >= w0 >= 0), and
 *    added to submit' for a timer crossing by tts_sat_add, where a sum
 *    past 2^63 - 1 counts as never. A crossing is an event only while
 *    its job waits, and a job waits only while some job runs (with none
 *    running, a pass starts every waiting job that fits the cluster) or
 *    within w_warm of its arrival or eviction: so before an end, below T
 *    + 2^31, whatever the timer.
 *  - theta (any value >= 0): compared with a class's raw slow_l2 only.
 *  - min_run (any value >= 0): compared with t - t0; its anniversary
 *    t0 + min_run (tts_sat_add) is an event only for a running job still
 *    aging, so before that job's end.
 *  - promote (0 .. 10^6): 1000 P >= promote E by tts_sat_mul (a product
 *    past 2^63 - 1 is never), then pp + ceil(need / 1000) < 2^62 + 2^53.
 */
typedef struct {
    size_t off;
    int64_t min, max;
    int inf;
    const char *want, *over;
} num_param;

#define NUM(f, lo, hi, inf, want, over) {offsetof(tt_params, f), lo, hi, inf, want, over}
static const num_param nums[TT_NPARAMS_ALL] = {
    [TT_P_W0] = NUM(w0, 0, INT64_MAX, 1, "seconds >= 0 or inf", NULL),
    [TT_P_W1] = NUM(w1, 0, INT64_MAX, 1, "seconds >= 0 or inf", NULL),
    [TT_P_THETA] = NUM(theta, 0, INT64_MAX, 1, "permille >= 0 or inf", NULL),
    /* t + r + work at a start or resize, r <= restart + load + transfer
     * <= 2^32 + 2 (2^31 - 1) < 2^34; with elastic jobs the restart part
     * is kept in int32 (el_rk): 2^31 - 1 then (tt_params_check_ranges) */
    [TT_P_RESTART] = NUM(restart, 0, INT64_C(4294967296), 0, "seconds 0 .. 4294967296", NULL),
    /* tts_slow_eff: (s - 1000) 1000 / (1000 - c) < 2^30, a divisor >= 1 */
    [TT_P_CONGESTION] = NUM(congestion, 0, 999, 0, "permille 0 .. 999", NULL),
    [TT_P_MIN_RUN] = NUM(min_run, 0, INT64_MAX, 0, "seconds >= 0", NULL),
    /* a job's evictions are an int32 (tts_state.evict), counted only while
     * below max_preempt: at most 2^31 - 1 */
    [TT_P_MAX_PREEMPT] = NUM(max_preempt, 0, INT32_MAX, 0, "a count >= 0",
                          "a count 0 .. 2147483647 (a job's evictions are counted in 32 bits)"),
    /* submit' = s0 + (submit - s0) 1000 / load: (submit - s0) 1000 < 2^51
     * and the divisor >= 1 */
    [TT_P_LOAD] = NUM(load, 1, 1000000, 0, "permille 1 .. 1000000", NULL),
    [TT_P_PROMOTE] = NUM(promote, 0, 1000000, 0, "permille 0 .. 1000000 (0: off)", NULL),
    /* the Gittins index c / s: s <= 1024 D <= 2^50, c <= 1024, and the
     * order compares c1 s2 with c2 s1 <= 2^60 (sim_step_order.h) */
    [TT_P_GITTINS_DELTA] = NUM(gittins_delta, 1, INT64_C(1099511627776), 0,
                            "GPU-seconds 1 .. 1099511627776", NULL),
    /* the size k0 << el_up is kept only up to the cluster's 2^16 GPUs, in
     * a 20-bit field; the doublings and halvings in 3-bit ones */
    [TT_P_EL_UP] = NUM(el_up, 0, 6, 0, "doublings 0 .. 6", NULL),
    [TT_P_EL_DOWN] = NUM(el_down, 0, 6, 0, "halvings 0 .. 6", NULL),
    [TT_P_EL_FRAC] = NUM(el_frac, 0, 1000, 0, "permille 0 .. 1000", NULL),
    /* a resize's end: t + C + u + L + work, C <= 2^31 - 1, u (the
     * overhead still unpaid) < 2^34, L <= 2^31 - 1 */
    [TT_P_RESIZE_COST] = NUM(resize_cost, 0, INT32_MAX, 0, "seconds 0 .. 2147483647", NULL),
    /* compared with t - the last resize; its end last + gap (tts_sat_add)
     * is an event only for a running job */
    [TT_P_RESIZE_GAP] = NUM(resize_gap, 0, INT32_MAX, 0, "seconds 0 .. 2147483647", NULL),
    /* a GPU's cached MiB plus a model's, both at most gpu_mem (a job whose
     * model is larger is rejected), are summed in int32 (tts_c_take) */
    [TT_P_GPU_MEM] = NUM(gpu_mem, 0, INT32_MAX / 2, 0, "MiB 0 .. 1073741823 (0: no model cache)",
                      NULL),
    [TT_P_CACHE_SLOTS] = NUM(cache_slots, 1, 8, 0, "models 1 .. 8", NULL),
    /* divisors: ceil(MiB / bw) <= a model's or the parents' outputs' MiB
     * < 2^31, kept in int32 (ov_l, ov_x) */
    [TT_P_LOAD_BW] = NUM(load_bw, 1, INT32_MAX, 0, "MiB/s 1 .. 2147483647", NULL),
    [TT_P_XFER_BW] = NUM(xfer_bw, 1, INT32_MAX, 0, "MiB/s 1 .. 2147483647", NULL),
    /* compared with t - submit' or t - an eviction; its end (tts_sat_add)
     * is at most 2^31 - 1 s after an arrival or an eviction */
    [TT_P_W_WARM] = NUM(w_warm, 0, INT32_MAX, 0, "seconds 0 .. 2147483647", NULL),
};

/* mlfq thresholds: a running job's next demotion is t + ceil((theta -
 * a_q) / k) <= t + 2^50 (a_q >= 0, k >= 1), the bound of a Gittins
 * sample too (gittins.c) */
#define MLFQ_MAX INT64_C(1125899906842624)

/* SPEC 11.5's defaults: Tiresias's queue_limit and gittins_delta */
static const int64_t default_mlfq[] = {3250, 7200};

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
    p->nmlfq = 2;
    memcpy(p->mlfq, default_mlfq, sizeof default_mlfq);
    p->promote = 0;
    p->prio_preempt = 1;
    p->gittins_delta = 3250;
    snprintf(p->gittins_dist, sizeof p->gittins_dist, "trace");
    p->el_up = p->el_down = 0;
    p->el_frac = 1000;
    p->resize = TT_RESIZE_SIDECAR;
    p->resize_cost = 10;
    p->resize_gap = 300;
    p->gpu_mem = 0;
    p->cache_slots = 4;
    p->load_bw = 2000;
    p->xfer_bw = 1250;
    p->w_warm = 0;
    p->evict = TT_EVICT_LRU;
    p->cache_place = TT_CACHE_PLACE_OFF;
}

static int bad_value(tt_ctx *ctx, const char *name, const char *want, const char *value)
{
    char buf[64];
    return tt_err(ctx, TT_EINVAL, "parameter '%s': expected %s, got '%s'", name, want,
                  tt_shown(value, buf, sizeof buf));
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
            for (int i = 0; i < tt_models_count(m); i++)
                k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? " " : "",
                                      tt_models_name(m, i));
            return tt_err(ctx, TT_EINVAL, "parameter 'mix': unknown class '%s' (classes: %s)",
                          tt_shown(name, buf, sizeof buf), known);
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
                      "'%s'", tt_shown(value, buf, sizeof buf));
    memcpy(p->mix, mix, sizeof mix);
    p->mix_set = 1;
    return 0;
}

/* ---- SPEC 11 ---- */

/* mlfq: 1 .. TT_MAX_MLFQ thresholds >= 1, strictly ascending, separated by
 * ',' or '/' (the second needs no quoting in a sweep's ';' list). */
static int set_mlfq(tt_ctx *ctx, tt_params *p, const char *value)
{
    static const char want[] = "1 to 7 ascending GPU-second thresholds 1 .. 1125899906842624 "
                               "separated by ',' or '/'";
    int64_t v[TT_MAX_MLFQ];
    int n = 0;
    const char *item = value;
    for (;;) {
        size_t len = strcspn(item, ",/");
        char num[32];
        if (len == 0 || len >= sizeof num || n == TT_MAX_MLFQ)
            return bad_value(ctx, "mlfq", want, value);
        memcpy(num, item, len);
        num[len] = '\0';
        if (tt_parse_i64(num, &v[n]) || v[n] < 1 || v[n] > MLFQ_MAX ||
            (n > 0 && v[n] <= v[n - 1]))
            return bad_value(ctx, "mlfq", want, value);
        n++;
        if (!item[len])
            break;
        item += len + 1;
    }
    p->nmlfq = n;
    memcpy(p->mlfq, v, (size_t)n * sizeof *v);
    return 0;
}

/* gittins_dist: "trace", a bundled name or a path (read when a run needs
 * it). */
static int set_gittins_dist(tt_ctx *ctx, tt_params *p, const char *value)
{
    if (!*value || strlen(value) >= sizeof p->gittins_dist)
        return bad_value(ctx, "gittins_dist", "'trace', 'yarn-gput1000' or a file's path (at "
                         "most 511 bytes)",
                         value);
    snprintf(p->gittins_dist, sizeof p->gittins_dist, "%s", value);
    return 0;
}

int tt_params_check_ranges(tt_ctx *ctx, const tt_params *p)
{
    char buf[64];
    for (int i = 0; i < TT_NPARAMS_ALL; i++) {
        const num_param *q = &nums[i];
        if (!q->want)
            continue;
        int64_t v = *(const int64_t *)((const char *)p + q->off);
        if ((v < q->min || v > q->max) && !(q->inf && v == TT_INF))
            return tt_err(ctx, TT_EINVAL, "parameter '%s': %lld out of range (expected %s)",
                          tt_param_names[i], (long long)v, q->over ? q->over : q->want);
    }
    if (p->nmlfq < 1 || p->nmlfq > TT_MAX_MLFQ)
        return tt_err(ctx, TT_EINVAL, "parameter 'mlfq': %d thresholds (expected 1 to 7)",
                      (int)p->nmlfq);
    for (int q = 0; q < p->nmlfq; q++)
        if (p->mlfq[q] < 1 || p->mlfq[q] > MLFQ_MAX || (q > 0 && p->mlfq[q] <= p->mlfq[q - 1]))
            return tt_err(ctx, TT_EINVAL, "parameter 'mlfq': threshold %lld out of range "
                          "(expected ascending thresholds 1 .. %lld)", (long long)p->mlfq[q],
                          (long long)MLFQ_MAX);
    for (int c = 0; c < TT_MAX_CLASSES; c++) {
        const int64_t w[2] = {p->class_w0[c], p->class_w1[c]};
        for (int k = 0; k < 2; k++)
            if (w[k] < 0 && w[k] != TT_TIMER_GLOBAL) {
                snprintf(buf, sizeof buf, "w%d of class %d", k, c);
                return tt_err(ctx, TT_EINVAL, "parameter '%s': %lld out of range (expected "
                              "seconds >= 0, inf or the global timer)", buf, (long long)w[k]);
            }
    }
    /* a start's restart part is kept in int32 with elastic jobs (el_rk) */
    if ((p->el_up > 0 || p->el_down > 0) && p->restart > INT32_MAX)
        return tt_err(ctx, TT_EINVAL, "parameter 'restart': %lld out of range with elastic jobs "
                      "(expected seconds 0 .. 2147483647 when el_up or el_down > 0)",
                      (long long)p->restart);
    return 0;
}

const char *tt_params_input(const tt_params *p)
{
    return strcmp(p->gittins_dist, "trace") != 0 && !tt_gittins_bundled(p->gittins_dist)
               ? p->gittins_dist
               : NULL;
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
    for (int i = 0; i < tt_models_count(m) && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", tt_models_name(m, i));
}

/* A value in the units people think in (docs/model.md's parameter
 * table): for a parameter in seconds, a number with s, m or min, h, d or
 * w (10m, 1.5h, 2d); for one in permille, a factor with x or a percentage
 * (2x, 200%). The result must be a whole number of the parameter's unit.
 * 1 when text has such a suffix and it parsed (into *out), 0 when it has
 * none (the caller parses a plain integer), -1 when it is malformed. */
static int parse_unit(const char *text, const char *want, int64_t *out)
{
    static const struct {
        const char *suffix;
        int64_t mult; /* of the parameter's unit */
        int permille; /* 1: for permille parameters, 0: for seconds */
    } units[] = {{"s", 1, 0},   {"min", 60, 0}, {"m", 60, 0},    {"h", 3600, 0},
                 {"d", 86400, 0}, {"w", 604800, 0}, {"x", 1000, 1}, {"%", 10, 1}};
    int secs = strncmp(want, "seconds", 7) == 0, pm = strncmp(want, "permille", 8) == 0;
    size_t len = strlen(text);
    if ((!secs && !pm) || len == 0 || len > 40)
        return 0;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t ls = strlen(units[u].suffix);
        if (units[u].permille != pm || len <= ls || strcmp(text + len - ls, units[u].suffix) != 0)
            continue;
        char num[48], *end;
        memcpy(num, text, len - ls);
        num[len - ls] = '\0';
        if (!(num[0] >= '0' && num[0] <= '9') && num[0] != '.')
            return -1;
        double x = strtod(num, &end) * (double)units[u].mult;
        if (*end || !(x >= 0) || x > 9.2e18 || x != (double)(int64_t)x)
            return -1; /* not a whole number of the unit, or past int64 */
        *out = (int64_t)x;
        return 1;
    }
    return 0;
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
    int u = parse_unit(buf, "seconds", out);
    if (u)
        return u < 0 ? -1 : 0;
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
                              tt_shown(name, buf, sizeof buf), known);
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
                          tt_shown(name, buf, sizeof buf));
        class_list(m, known, sizeof known);
        return tt_err(ctx, TT_EINVAL, "parameter '%s': unknown class '%s' (classes: %s)",
                      tt_shown(name, buf, sizeof buf), name + 3, known);
    }
    int64_t v;
    if (parse_timer(value, strlen(value), &v))
        return tt_err(ctx, TT_EINVAL, "parameter '%s': expected seconds >= 0, inf or -, got '%s'",
                      name, tt_shown(value, buf, sizeof buf));
    (which ? p->class_w1 : p->class_w0)[c] = v;
    return 0;
}

static int param_index(const char *name)
{
    for (int i = 0; i < TT_NPARAMS_ALL; i++)
        if (strcmp(tt_param_names[i], name) == 0)
            return i;
    return -1;
}

int tt_params_set(tt_ctx *ctx, tt_params *p, const tt_models *models, const char *name,
                  const char *value)
{
    int i = param_index(name);
    if (i < 0) {
        if (strcmp(name, "preset") == 0)
            return tt_params_preset(ctx, p, value);
        int rc = set_class_timer(ctx, p, models, name, value);
        if (rc <= 0)
            return rc;
        char buf[64], known[320] = "", near[64] = "";
        const char *all[TT_NPARAMS_ALL + 1];
        size_t k = 0;
        for (int j = 0; j < TT_NPARAMS_ALL; j++) {
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", j ? " " : "",
                                  tt_param_names[j]);
            all[j] = tt_param_names[j];
        }
        all[TT_NPARAMS_ALL] = "preset";
        const char *sug = tt_view_suggest(name, all, TT_NPARAMS_ALL + 1);
        if (sug)
            snprintf(near, sizeof near, ", did you mean '%s'?", sug);
        return tt_err(ctx, TT_EINVAL,
                      "unknown parameter '%s'%s (known: %s w0.CLASS w1.CLASS preset)",
                      tt_shown(name, buf, sizeof buf), near, known);
    }
    switch (i) {
    case TT_P_ORDER:
        for (int o = 0; o < TT_NORDERS; o++)
            if (strcmp(value, order_names[o]) == 0) {
                p->order = o;
                return 0;
            }
        return bad_value(ctx, name, "fifo, sjf, srtf, las, dlas, gittins or ftf", value);
    case TT_P_BACKFILL:
    case TT_P_PRIO_PREEMPT:
        if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
            return bad_value(ctx, name, "0 or 1", value);
        *(i == TT_P_BACKFILL ? &p->backfill : &p->prio_preempt) = value[0] - '0';
        return 0;
    case TT_P_MLFQ: return set_mlfq(ctx, p, value);
    case TT_P_GITTINS_DIST: return set_gittins_dist(ctx, p, value);
    case TT_P_SEED: {
        uint64_t s;
        if (parse_u64(value, &s))
            return bad_value(ctx, name, "an integer 0 .. 18446744073709551615", value);
        p->seed = s;
        return 0;
    }
    case TT_P_MIX: return set_mix(ctx, p, models, value);
    case TT_P_TIMERS: return set_timers(ctx, p, models, value);
    case TT_P_RESIZE:
        for (int r = 0; r < 2; r++)
            if (strcmp(value, resize_names[r]) == 0) {
                p->resize = r;
                return 0;
            }
        return bad_value(ctx, name, "sidecar or term", value);
    case TT_P_EVICT:
    case TT_P_CACHE_PLACE:
    case TT_P_REQUEUE:
    case TT_P_PRIO_VICTIMS: {
        const char *const *nm = i == TT_P_EVICT          ? evict_names
                                : i == TT_P_REQUEUE      ? requeue_names
                                : i == TT_P_PRIO_VICTIMS ? victims_names
                                                      : place_names;
        int32_t *f = i == TT_P_EVICT          ? &p->evict
                     : i == TT_P_REQUEUE      ? &p->requeue
                     : i == TT_P_PRIO_VICTIMS ? &p->prio_victims
                                           : &p->cache_place;
        for (int r = 0; r < 2; r++)
            if (strcmp(value, nm[r]) == 0) {
                *f = r;
                return 0;
            }
        return bad_value(ctx, name,
                         i == TT_P_EVICT     ? "lru or demand"
                         : i == TT_P_REQUEUE ? "keep or front"
                         : i == TT_P_PRIO_VICTIMS ? "lowest or refill"
                                          : "off or affinity",
                         value);
    }
    default: {
        const num_param *q = &nums[i];
        int64_t v;
        int u = parse_unit(value, q->want, &v);
        if (q->inf && strcmp(value, "inf") == 0)
            v = TT_INF;
        else if (u < 0 || (!u && tt_parse_i64(value, &v)) || v < q->min)
            return bad_value(ctx, name, q->want, value);
        else if (v > q->max)
            return bad_value(ctx, name, q->over ? q->over : q->want, value);
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
    case TT_P_ORDER:
        n = snprintf(buf, size, "%s",
                     p->order >= 0 && p->order < TT_NORDERS ? order_names[p->order] : "?");
        break;
    case TT_P_BACKFILL: n = snprintf(buf, size, "%d", p->backfill); break;
    case TT_P_PRIO_PREEMPT: n = snprintf(buf, size, "%d", p->prio_preempt); break;
    case TT_P_GITTINS_DIST: n = snprintf(buf, size, "%s", p->gittins_dist); break;
    case TT_P_MLFQ: {
        size_t k = 0;
        for (int q = 0; q < p->nmlfq && q < TT_MAX_MLFQ; q++) {
            n = snprintf(buf + k, size - k, "%s%lld", q ? "," : "", (long long)p->mlfq[q]);
            if (n < 0 || (size_t)n >= size - k) {
                buf[0] = '\0';
                return TT_EINVAL;
            }
            k += (size_t)n;
        }
        return 0;
    }
    case TT_P_RESIZE:
        n = snprintf(buf, size, "%s", p->resize == TT_RESIZE_TERM ? "term" : "sidecar");
        break;
    case TT_P_EVICT: n = snprintf(buf, size, "%s", evict_names[p->evict == TT_EVICT_DEMAND]); break;
    case TT_P_CACHE_PLACE:
        n = snprintf(buf, size, "%s", place_names[p->cache_place == TT_CACHE_PLACE_AFFINITY]);
        break;
    case TT_P_REQUEUE:
        n = snprintf(buf, size, "%s", requeue_names[p->requeue == TT_REQUEUE_FRONT]);
        break;
    case TT_P_PRIO_VICTIMS:
        n = snprintf(buf, size, "%s", victims_names[p->prio_victims == TT_PRIO_VICTIMS_REFILL]);
        break;
    case TT_P_SEED: n = snprintf(buf, size, "%llu", (unsigned long long)p->seed); break;
    case TT_P_MIX: {
        if (!models)
            return TT_EINVAL;
        size_t k = 0;
        for (int c = 0; c < tt_models_count(models); c++) {
            if (!p->mix[c])
                continue; /* unnamed classes weigh 0 */
            n = snprintf(buf + k, size - k, "%s%s:%u", k ? "," : "", tt_models_name(models, c),
                         (unsigned)p->mix[c]);
            if (n < 0 || (size_t)n >= size - k) {
                buf[0] = '\0';
                return TT_EINVAL;
            }
            k += (size_t)n;
        }
        return 0;
    }
    case TT_P_TIMERS: {
        if (!tt_params_class_timers(p)) {
            n = snprintf(buf, size, "-");
            break;
        }
        if (!models)
            return TT_EINVAL;
        size_t k = 0;
        for (int c = 0; c < tt_models_count(models); c++) {
            if (p->class_w0[c] == TT_TIMER_GLOBAL && p->class_w1[c] == TT_TIMER_GLOBAL)
                continue;
            char a[24], b[24];
            timer_text(p->class_w0[c], a, sizeof a);
            timer_text(p->class_w1[c], b, sizeof b);
            n = snprintf(buf + k, size - k, "%s%s:%s:%s", k ? "," : "", tt_models_name(models, c),
                         a, b);
            if (n < 0 || (size_t)n >= size - k) {
                buf[0] = '\0';
                return TT_EINVAL;
            }
            k += (size_t)n;
        }
        return 0;
    }
    default: {
        if (i < 0 || i >= TT_NPARAMS_ALL)
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
    for (int i = 0; i < TT_NPARAMS_ALL; i++) {
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
