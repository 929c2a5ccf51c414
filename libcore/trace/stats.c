/* Trace characterisation: exact integer totals, nearest-rank quantiles,
 * breakdowns and offered load. Nothing here prints. */
#include "tt/stats.h"

#include "base/radix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int tt_stats_pct[TT_STATS_NPCT] = {0, 10, 25, 50, 75, 90, 99, 100};

/* Checks what every statistic relies on, once per call, and returns the
 * totals of GPU-seconds and GPUs. Once every job's submit + duration and
 * its offset from the first submit fit in int64, no time, difference or
 * bin offset below can overflow; once the two totals fit, no product
 * gpus x duration and no partial sum of GPUs, durations or GPU-seconds
 * can. */
typedef struct totals {
    int64_t gpu_s, gpus;
} totals;

static int check(tt_ctx *ctx, const tt_trace *t, totals *tot)
{
    if (t->n < 1)
        return tt_err(ctx, TT_EEMPTY, "the trace has no jobs");
    if (!t->gpu_milli || !t->user || !t->vc) /* tt_trace_load_cols without TT_COL_STATS */
        return tt_err(ctx, TT_EINVAL, "the trace was read without the columns statistics need");
    __int128 gpu_s = 0, gpus = 0, first = t->submit[0];
    for (int64_t i = 0; i < t->n; i++) {
        if (t->gpus[i] < 1 || t->duration[i] < 0 || t->gpu_milli[i] < 0 ||
            (i > 0 && t->submit[i] < t->submit[i - 1]))
            return tt_err(ctx, TT_EFORMAT,
                          "job %lld breaks the trace contract (gpus >= 1, duration >= 0, "
                          "gpu_milli >= 0, sorted by submit)",
                          (long long)i);
        if ((__int128)t->submit[i] + t->duration[i] > INT64_MAX ||
            (__int128)t->submit[i] - first + t->duration[i] > INT64_MAX)
            return tt_err(ctx, TT_ERANGE, "job %lld: submit + duration is out of range",
                          (long long)i);
        gpu_s += (__int128)t->gpus[i] * t->duration[i];
        gpus += t->gpus[i];
        if (gpu_s > INT64_MAX || gpus > INT64_MAX)
            return tt_err(ctx, TT_ERANGE,
                          "the GPUs or GPU-seconds of the trace add up to more than 2^63");
    }
    tot->gpu_s = (int64_t)gpu_s;
    tot->gpus = (int64_t)gpus;
    return 0;
}

/* Marks the distinct codes in use (code -1, absent, not counted). */
static int count_codes(tt_ctx *ctx, const int32_t *codes, int64_t n, int32_t ncodes, int64_t *out)
{
    unsigned char *seen = (unsigned char *)calloc((size_t)ncodes + 1, 1);
    if (!seen)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t c = codes[i];
        if (c < -1 || c >= ncodes) {
            free(seen);
            return tt_err(ctx, TT_EFORMAT, "job %lld: string code %d is not in its table",
                          (long long)i, c);
        }
        if (c >= 0 && !seen[c]) {
            seen[c] = 1;
            k++;
        }
    }
    free(seen);
    *out = k;
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Jobs with elastic = 1, workflows and tasks (-1 without the column). */
static int count_optional(tt_ctx *ctx, const tt_trace *t, tt_stats_summary *out)
{
    out->elastic_jobs = out->workflows = out->tasks = -1;
    if (t->elastic) {
        out->elastic_jobs = 0;
        for (int64_t i = 0; i < t->n; i++)
            out->elastic_jobs += t->elastic[i] == 1;
    }
    if (!t->wf)
        return 0;
    int64_t *w = (int64_t *)malloc((size_t)t->n * sizeof *w), k = 0;
    if (!w)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; i < t->n; i++)
        if (t->wf[i] >= 0)
            w[k++] = t->wf[i];
    qsort(w, (size_t)k, sizeof *w, cmp_i64);
    out->tasks = k;
    out->workflows = 0;
    for (int64_t i = 0; i < k; i++)
        out->workflows += i == 0 || w[i] != w[i - 1];
    free(w);
    return 0;
}

int tt_stats_summary_get(tt_ctx *ctx, const tt_trace *t, tt_stats_summary *out)
{
    memset(out, 0, sizeof *out);
    totals tot;
    int rc = check(ctx, t, &tot);
    if (rc)
        return rc;
    __int128 milli = 0;
    int64_t gmax = 0, dsum = 0; /* dsum <= gpu_s: gpus >= 1 */
    for (int64_t i = 0; i < t->n; i++) {
        milli += (__int128)t->gpu_milli[i] * t->duration[i];
        dsum += t->duration[i];
        if (t->gpus[i] > gmax)
            gmax = t->gpus[i];
    }
    if (milli > INT64_MAX)
        return tt_err(ctx, TT_ERANGE, "the milli-GPU-seconds of the trace exceed 2^63");
    if ((rc = count_codes(ctx, t->user, t->n, tt_strtab_count(t->users), &out->users)) ||
        (rc = count_codes(ctx, t->vc, t->n, tt_strtab_count(t->vcs), &out->vcs)))
        return rc;
    out->jobs = t->n;
    out->gpu_s = tot.gpu_s;
    out->gpu_milli_s = (int64_t)milli;
    out->first_submit = t->submit[0];
    out->last_submit = t->submit[t->n - 1];
    out->span_s = out->last_submit - out->first_submit;
    out->duplicates = t->prov.duplicates;
    out->gpus_sum = tot.gpus;
    out->max_gpus = gmax;
    out->duration_sum = dsum;
    return count_optional(ctx, t, out);
}

const char *tt_stats_quantity_name(int quantity)
{
    static const char *const names[TT_STATS_NQUANTITY] = {"duration_s", "gpus", "interarrival_s",
                                                          "gpu_s"};
    return quantity >= 0 && quantity < TT_STATS_NQUANTITY ? names[quantity] : NULL;
}

int64_t tt_stats_rank(int64_t n, int pct)
{
    int64_t r = (int64_t)(((__int128)pct * n + 99) / 100);
    return r < 1 ? 1 : r > n ? n : r;
}

/* LSD radix sort, 8 bits a pass, skipping the bytes in which no key
 * differs from the first (durations need 3 or 4 passes, not 8). Keys are
 * biased by 2^63 so negative values order first. */
int tt_stats_dist_get(tt_ctx *ctx, const tt_trace *t, int quantity, tt_stats_dist *out)
{
    memset(out, 0, sizeof *out);
    if (!tt_stats_quantity_name(quantity))
        return tt_err(ctx, TT_EINVAL, "unknown quantity %d", quantity);
    totals tot;
    int rc = check(ctx, t, &tot);
    if (rc)
        return rc;
    int64_t n = quantity == TT_STATS_INTERARRIVAL ? t->n - 1 : t->n;
    if (n == 0)
        return 0;
    int64_t *v = (int64_t *)malloc((size_t)n * sizeof *v);
    if (!v)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int64_t sum = 0; /* at most the GPU total, the GPU-seconds or the span: all checked */
    for (int64_t i = 0; i < n; i++) {
        switch (quantity) {
        case TT_STATS_DURATION: v[i] = t->duration[i]; break;
        case TT_STATS_GPUS: v[i] = t->gpus[i]; break;
        case TT_STATS_INTERARRIVAL: v[i] = t->submit[i + 1] - t->submit[i]; break;
        default: v[i] = (int64_t)t->gpus[i] * t->duration[i]; break;
        }
        sum += v[i];
    }
    if (tt_radix_sort_i64(v, NULL, n)) {
        free(v);
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    }
    out->n = n;
    out->sum = sum;
    for (int k = 0; k < TT_STATS_NPCT; k++)
        out->q[k] = v[tt_stats_rank(n, tt_stats_pct[k]) - 1];
    free(v);
    return 0;
}

/* Open addressing from GPU count to its row; few distinct counts in
 * practice, so the table stays small. */
typedef struct gmap {
    tt_stats_group *rows;
    int64_t *slot; /* row index + 1, 0 = empty */
    int64_t nrows, nslot;
} gmap;

static uint64_t hash32(uint32_t k)
{
    uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static int gmap_grow(gmap *m)
{
    int64_t ns = m->nslot ? m->nslot * 2 : 64;
    int64_t *slot = (int64_t *)calloc((size_t)ns, sizeof *slot);
    tt_stats_group *rows = (tt_stats_group *)realloc(m->rows, (size_t)(ns / 2) * sizeof *rows);
    if (!slot || !rows) {
        free(slot);
        if (rows)
            m->rows = rows;
        return TT_ENOMEM;
    }
    m->rows = rows;
    for (int64_t r = 0; r < m->nrows; r++) {
        uint64_t s = hash32((uint32_t)rows[r].key) & (uint64_t)(ns - 1);
        while (slot[s])
            s = (s + 1) & (uint64_t)(ns - 1);
        slot[s] = r + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->nslot = ns;
    return 0;
}

static tt_stats_group *gmap_get(gmap *m, int32_t key)
{
    if (m->nrows * 2 >= m->nslot && gmap_grow(m))
        return NULL;
    uint64_t mask = (uint64_t)(m->nslot - 1), s = hash32((uint32_t)key) & mask;
    while (m->slot[s]) {
        tt_stats_group *g = &m->rows[m->slot[s] - 1];
        if (g->key == key)
            return g;
        s = (s + 1) & mask;
    }
    tt_stats_group *g = &m->rows[m->nrows++];
    memset(g, 0, sizeof *g);
    g->key = key;
    m->slot[s] = m->nrows;
    return g;
}

static int by_key(const void *pa, const void *pb)
{
    const tt_stats_group *a = (const tt_stats_group *)pa, *b = (const tt_stats_group *)pb;
    return (a->key > b->key) - (a->key < b->key);
}

int tt_stats_by_gpus(tt_ctx *ctx, const tt_trace *t, tt_stats_group **out, int64_t *n)
{
    *out = NULL;
    *n = 0;
    totals tot;
    int rc = check(ctx, t, &tot);
    if (rc)
        return rc;
    gmap m = {NULL, NULL, 0, 0};
    tt_stats_group *g = NULL;
    for (int64_t i = 0; i < t->n; i++) {
        /* consecutive jobs often share a count: skip the lookup then */
        if (!g || g->key != t->gpus[i]) {
            if (!(g = gmap_get(&m, t->gpus[i]))) {
                free(m.rows);
                free(m.slot);
                return tt_err(ctx, TT_ENOMEM, "out of memory");
            }
        }
        g->jobs++;
        g->gpu_s += (int64_t)t->gpus[i] * t->duration[i];
    }
    free(m.slot);
    qsort(m.rows, (size_t)m.nrows, sizeof *m.rows, by_key);
    *out = m.rows;
    *n = m.nrows;
    return 0;
}

/* GPU-seconds descending, then name ascending with no VC as "-"; the key
 * settles a VC really named "-", so the order is total. */
static int by_load(const void *pa, const void *pb)
{
    const tt_stats_group *a = (const tt_stats_group *)pa, *b = (const tt_stats_group *)pb;
    if (a->gpu_s != b->gpu_s)
        return a->gpu_s > b->gpu_s ? -1 : 1;
    int c = strcmp(a->name ? a->name : "-", b->name ? b->name : "-");
    if (c)
        return c;
    return (a->key > b->key) - (a->key < b->key);
}

int tt_stats_by_vc(tt_ctx *ctx, const tt_trace *t, tt_stats_group **out, int64_t *n)
{
    *out = NULL;
    *n = 0;
    totals tot;
    int rc = check(ctx, t, &tot);
    if (rc)
        return rc;
    int32_t nvc = tt_strtab_count(t->vcs);
    /* row 0: no VC; row c + 1: code c */
    tt_stats_group *rows = (tt_stats_group *)calloc((size_t)nvc + 1, sizeof *rows);
    if (!rows)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; i < t->n; i++) {
        int32_t c = t->vc[i];
        if (c < -1 || c >= nvc) {
            free(rows);
            return tt_err(ctx, TT_EFORMAT, "job %lld: VC code %d is not in its table",
                          (long long)i, c);
        }
        rows[c + 1].jobs++;
        rows[c + 1].gpu_s += (int64_t)t->gpus[i] * t->duration[i];
    }
    int64_t k = 0;
    for (int32_t c = -1; c < nvc; c++) {
        if (!rows[c + 1].jobs)
            continue;
        tt_stats_group g = rows[c + 1];
        g.key = c;
        g.name = c >= 0 ? tt_strtab_get(t->vcs, c) : NULL;
        rows[k++] = g; /* k <= c + 1: never overwrites a row not yet read */
    }
    qsort(rows, (size_t)k, sizeof *rows, by_load);
    *out = rows;
    *n = k;
    return 0;
}

void tt_stats_load_free(tt_stats_load *l)
{
    if (!l)
        return;
    free(l->submitted);
    free(l->submitted_gpus);
    free(l->gpu_s);
    memset(l, 0, sizeof *l);
}

int tt_stats_load_get(tt_ctx *ctx, const tt_trace *t, int64_t bin, int64_t max_bins,
                      tt_stats_load *out)
{
    memset(out, 0, sizeof *out);
    if (bin < 1)
        return tt_err(ctx, TT_EINVAL, "bin length %lld s: must be at least 1 s", (long long)bin);
    totals tot;
    int rc = check(ctx, t, &tot);
    if (rc)
        return rc;
    /* Offsets from the first submit fit in int64 (checked). The last
     * instant any job needs is its last busy second, or its submit for a
     * job of duration 0 (it still counts as submitted). A duration in
     * another unit (steps) tells no busy second: submissions only. */
    int secs = tt_trace_in_seconds(t);
    int64_t first = t->submit[0], last = t->submit[t->n - 1] - first;
    for (int64_t i = 0; secs && i < t->n; i++) {
        int64_t e = t->submit[i] - first + t->duration[i];
        if (t->duration[i] > 0 && e - 1 > last)
            last = e - 1;
    }
    int64_t nbins = last / bin + 1;
    if (nbins > max_bins)
        return tt_err(ctx, TT_EINVAL,
                      "%lld bins of %lld s would be needed (at most %lld): use a larger bin",
                      (long long)nbins, (long long)bin, (long long)max_bins);
    size_t sz = (size_t)nbins * sizeof(int64_t);
    out->submitted = (int64_t *)calloc(1, sz);
    out->submitted_gpus = (int64_t *)calloc(1, sz);
    out->gpu_s = secs ? (int64_t *)calloc(1, sz) : NULL;
    /* running[b]: GPUs of the jobs that cover bin b entirely, as a
     * difference array (+g at the first full bin, -g after the last) */
    int64_t *running = (int64_t *)calloc((size_t)nbins + 1, sizeof(int64_t));
    if (!out->submitted || !out->submitted_gpus || (secs && !out->gpu_s) || !running) {
        free(running);
        tt_stats_load_free(out);
        return tt_err(ctx, TT_ENOMEM, "out of memory for %lld bins", (long long)nbins);
    }
    out->start = first;
    out->bin = bin;
    out->nbins = nbins;
    for (int64_t i = 0; i < t->n; i++) {
        int64_t g = t->gpus[i], a = t->submit[i] - first, d = t->duration[i];
        int64_t ba = a / bin;
        out->submitted[ba]++;
        out->submitted_gpus[ba] += g;
        if (d == 0 || !secs)
            continue;
        int64_t e = a + d, be = (e - 1) / bin; /* the bin of the last busy second */
        if (ba == be) {
            out->gpu_s[ba] += g * d;
            continue;
        }
        /* (ba + 1) * bin and be * bin lie in (a, e): no overflow */
        out->gpu_s[ba] += g * ((ba + 1) * bin - a);
        out->gpu_s[be] += g * (e - be * bin);
        running[ba + 1] += g;
        running[be] -= g;
    }
    /* running GPUs x bin never exceeds the GPU-seconds total: no overflow */
    int64_t r = 0;
    for (int64_t b = 0; secs && b < nbins; b++) {
        r += running[b];
        out->gpu_s[b] += r * bin;
    }
    free(running);
    return 0;
}

int tt_stats_fixed(char *buf, size_t size, int64_t num, int64_t den, int decimals)
{
    if (den < 1 || decimals < 0 || decimals > 18 || size == 0)
        return TT_EINVAL;
    __int128 pow10 = 1;
    for (int k = 0; k < decimals; k++)
        pow10 *= 10;
    /* |num| * 10^18 < 2^123: the scaled magnitude and its double fit */
    __int128 mag = num < 0 ? -(__int128)num : (__int128)num;
    __int128 q = (2 * mag * pow10 + den) / (2 * (__int128)den);
    unsigned long long ip = (unsigned long long)(q / pow10), fp = (unsigned long long)(q % pow10);
    const char *sign = num < 0 && q != 0 ? "-" : "";
    int len = decimals ? snprintf(buf, size, "%s%llu.%0*llu", sign, ip, decimals, fp)
                       : snprintf(buf, size, "%s%llu", sign, ip);
    if (len < 0 || (size_t)len >= size) {
        buf[0] = '\0';
        return TT_EINVAL;
    }
    return len;
}
