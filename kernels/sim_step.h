/* sim_step.h: the simulation step (docs/model.md sections 2 to 7), written
 * once for the CPU backend (libcore/sim.c) and the CUDA kernels.
 *
 * Common subset of C11, C++ and CUDA: static inline functions marked
 * HOST_DEVICE, fixed-width integers, plain structs, no allocation (the
 * caller sizes one buffer with tts_state_bytes and hands it to
 * tts_state_bind), integer arithmetic only.
 *
 * What each event costs, and why the structures are what they are:
 *  - Fresh waiting jobs (never started) sit in a segment tree indexed by
 *    their static queue rank (fifo and las: job index; sjf and srtf:
 *    (duration, index)). Each tree node keeps, per job class, the fewest
 *    GPUs any job below it asks for. The classes are what a job may do
 *    now: L0 only; L0/L1 (insensitive or sensitive); any level
 *    (insensitive or sensitive). Whether a job of k GPUs fits at a level
 *    is monotone in k, so the cluster state reduces to one threshold per
 *    class (the largest k that fits now) and a pass finds the next job
 *    that will start in O(log n), skipping every job that cannot.
 *  - Evicted jobs may take any level and are never sensitive: under fifo
 *    and sjf their key does not move, so they go back into the tree at
 *    their rank as "any level, insensitive"; under srtf and las it moves,
 *    so they wait in an array sorted by (GPUs, key, index): per distinct
 *    GPU count that fits, one binary search finds the next in order.
 *  - Timer crossings happen in job index order (submit' + W0 is monotone),
 *    so two cursors replace a timer heap; with timers per class, two per
 *    class, each visiting only its class's jobs. Running jobs end through a
 *    binary heap on (end, index).
 *  - Per node: free GPUs, its occupants (at most G), and what eviction
 *    could free there now (free + evictable GPUs; occupants that are not
 *    evictable). A running job becomes evictable min_run after its start;
 *    starts come in time order, so a list in start order ages them. Per
 *    rack: free GPUs and the largest L0 request it can take, with and
 *    without eviction. The nodes are also kept in one bitset per free
 *    count, so best fit (fewest free >= k, lowest index) and most-free-
 *    first look at G + 1 words per 64 nodes rather than at every node.
 *  - A pass that finds nothing to start (most passes end so) costs one
 *    look at the tree's root.
 */
#ifndef TT_SIM_STEP_H
#define TT_SIM_STEP_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif
#define TTS_FN static inline HOST_DEVICE

#define TTS_INF INT64_MAX
#define TTS_NONE INT64_MIN
#define TTS_BIG INT32_MAX
#define TTS_MAX_CLASSES 64

enum { TTS_FUTURE, TTS_WAIT, TTS_WAITV, TTS_RUN, TTS_DONE, TTS_REJECTED };
enum { TTS_ORDER_FIFO, TTS_ORDER_SJF, TTS_ORDER_SRTF, TTS_ORDER_LAS };
/* Per-job flags: sensitive; may be evicted in this segment (insensitive,
 * under max_preempt); evictable now (also aged min_run). */
enum { TTS_F_SENS = 1, TTS_F_ELIG = 2, TTS_F_EVICT = 4 };
/* What a waiting fresh job may do now; see the header comment. */
enum { TTS_C0, TTS_C1I, TTS_C1S, TTS_C2I, TTS_C2S, TTS_NCLASS };

/* The trace and model table, read-only and shared by every configuration. */
typedef struct {
    int64_t n;
    const int64_t *submit, *duration;
    const int32_t *gpus, *cls; /* cls: class, or -1 = drawn from the mix */
    /* sjf/srtf queue ranks: rank_job[p] = job at rank p sorted by
     * (duration, index), job_rank its inverse. */
    const int32_t *rank_job, *job_rank;
    int32_t nclasses;
    const int64_t *slow_l1, *slow_l2; /* per class, permille */
} tts_trace;

typedef struct {
    int32_t racks, nodes_per_rack, gpus_per_node;
} tts_cluster;

/* One configuration; mix_cum is the running sum of the class weights.
 * With class_timers set, class c waits w0c[c] and w1c[c] (the caller fills
 * every class, the global pair where a class has none of its own) and w0,
 * w1 are unused. */
typedef struct {
    int32_t order, backfill, class_timers;
    int64_t w0, w1, theta, restart, congestion, min_run, max_preempt, load;
    uint64_t seed;
    uint64_t mix_cum[TTS_MAX_CLASSES];
    int64_t w0c[TTS_MAX_CLASSES], w1c[TTS_MAX_CLASSES];
} tts_config;

/* A segment, for the optional log (host only; invariant checks). */
typedef struct {
    int64_t job, t0, t1, r, s, w_before, done;
    int32_t level, completed;
    int64_t alloc_off, alloc_n; /* alloc_n (node, gpus) pairs from tts_seglog.alloc[alloc_off] */
} tts_segment;

typedef struct {
    int64_t cap, n, alloc_cap, alloc_n;
    tts_segment *seg;
    int32_t *alloc; /* node, gpus, node, gpus, ... */
    int32_t overflow;
} tts_seglog;

typedef struct {
    /* inputs */
    const tts_trace *tr;
    const tts_config *cf; /* the caller's, alive for the run */
    int32_t R, N, G, nodes, rack_gpus;
    int64_t cluster_gpus, n;
    /* per job */
    uint8_t *state;
    int32_t *cls, *evict, *level, *slow, *heap_pos, *alloc_head, *flags;
    int32_t *age_prev, *age_next; /* running jobs not yet evictable, by start */
    int32_t age_head, age_tail;
    int32_t *starts; /* 3 per job */
    int64_t *w, *enq, *t0, *end, *first, *queue, *gpu_s, *vkey, *sub;
    /* fresh-job segment tree: TTS_NCLASS int32 per node, 2 * size nodes */
    int32_t *tree;
    int64_t size;
    /* evicted waiting jobs (srtf, las); those evicted in the running pass
     * wait apart until it ends (every order) */
    int32_t *vict, *pend;
    int64_t nvict, npend;
    /* running jobs: heap on (end, index) */
    int32_t *heap;
    int64_t nheap;
    /* nodes and racks */
    int32_t *freeg, *nocc, *occ; /* occ: G entry ids per node */
    /* the nodes by free count: bit x of lvl[f * words ...] when node x has
     * f free GPUs, so placements find a node by level, not by a scan */
    uint64_t *lvl;
    int32_t words;
    int32_t *ev, *nonev;         /* free + evictable GPUs; occupants not evictable */
    /* largest k whose L0 fits now (rack_l0) or after evictions (rack_pc) */
    int32_t *rack_free, *rack_l0, *rack_pc;
    int64_t total_free;
    /* allocation entries: one per (job, node) held */
    int32_t *ent_job, *ent_node, *ent_gpus, *ent_next;
    int32_t ent_free;
    /* scratch for a placement and a preemption */
    int32_t *pl_node, *pl_gpus, *mark, *vic, *tmp;
    int32_t pl_n, nvic;
    /* the clock and cursors; timer cursors per timer group (one group, or
     * one per class with class timers): cur[2g] for W0, cur[2g + 1] for
     * W0 + W1 */
    int64_t now, next_arr;
    int64_t *cur;
    int32_t groups;
    /* totals */
    int64_t used, comm_milli, restart_gs, preempt, placed[3];
    int64_t waiting, running, busy, running_level[3];
    tts_seglog *log; /* NULL: no log */
} tts_state;

/* ---- arithmetic ---- */

TTS_FN int64_t tts_ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

TTS_FN int64_t tts_sat_add(int64_t a, int64_t b)
{
    if (a == TTS_INF || b == TTS_INF || a > TTS_INF - b)
        return TTS_INF;
    return a + b;
}

/* splitmix64 at step i + 1 of a generator seeded with seed: a counter-based
 * hash, so a job's class does not depend on the order jobs are visited. */
TTS_FN uint64_t tts_hash(uint64_t seed, int64_t i)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * ((uint64_t)i + 1u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The class of job i: the trace's, or the mix's pick for hash(seed, i). */
TTS_FN int32_t tts_job_class(const tts_trace *tr, const tts_config *cf, int64_t i)
{
    if (tr->cls[i] >= 0)
        return tr->cls[i];
    uint64_t total = cf->mix_cum[tr->nclasses - 1];
    uint64_t u = tts_hash(cf->seed, i) % total;
    int32_t c = 0;
    while (u >= cf->mix_cum[c])
        c++;
    return c;
}

TTS_FN int64_t tts_slow_eff(int64_t s, int64_t c) { return 1000 + (s - 1000) * 1000 / (1000 - c); }

TTS_FN int64_t tts_level_slow(const tts_state *S, int64_t i, int32_t level)
{
    if (level == 0)
        return 1000;
    int32_t c = S->cls[i];
    return tts_slow_eff(level == 1 ? S->tr->slow_l1[c] : S->tr->slow_l2[c], S->cf->congestion);
}

TTS_FN int tts_sensitive(const tts_state *S, int64_t i) { return S->flags[i] & TTS_F_SENS; }

/* submit' = s0 + (submit - s0) * 1000 / load, worked out once by tts_init
 * (a division: the queue order and the event loop ask for it often) */
TTS_FN int64_t tts_submit(const tts_state *S, int64_t i) { return S->sub[i]; }

/* The timers of class c (or of timer group c). */
TTS_FN int64_t tts_w0(const tts_state *S, int32_t c)
{
    return S->cf->class_timers ? S->cf->w0c[c] : S->cf->w0;
}

TTS_FN int64_t tts_w1(const tts_state *S, int32_t c)
{
    return S->cf->class_timers ? S->cf->w1c[c] : S->cf->w1;
}

/* The level the timers allow job i at t. */
TTS_FN int32_t tts_allowed(const tts_state *S, int64_t i, int64_t t)
{
    if (S->state[i] == TTS_WAITV || S->tr->gpus[i] > S->rack_gpus)
        return 2;
    int64_t wait = t - S->enq[i], w0 = tts_w0(S, S->cls[i]), w1 = tts_w1(S, S->cls[i]);
    if (w0 == TTS_INF || wait < w0)
        return 0;
    if (w1 == TTS_INF || wait - w0 < w1)
        return 1;
    return 2;
}

TTS_FN int tts_waited(const tts_state *S, int64_t i, int64_t t)
{
    int64_t w0 = tts_w0(S, S->cls[i]);
    return S->state[i] == TTS_WAITV || (w0 != TTS_INF && t - S->enq[i] >= w0);
}

TTS_FN int32_t tts_class_of(const tts_state *S, int64_t i, int64_t t)
{
    int32_t al = tts_allowed(S, i, t);
    if (al == 0)
        return TTS_C0;
    int s = S->tr->gpus[i] <= S->rack_gpus && tts_sensitive(S, i);
    if (al == 1)
        return s ? TTS_C1S : TTS_C1I;
    return s ? TTS_C2S : TTS_C2I;
}

/* ---- memory ---- */

TTS_FN int64_t tts_tree_size(int64_t n)
{
    int64_t s = 1;
    while (s < n)
        s *= 2;
    return s;
}

/* Bytes of the buffer one simulation of n jobs on c needs (8-aligned). */
TTS_FN int64_t tts_state_bytes(int64_t n, const tts_cluster *c)
{
    int64_t nodes = (int64_t)c->racks * c->nodes_per_rack, slots = nodes * c->gpus_per_node;
    int64_t size = tts_tree_size(n), b = 0;
#define TTS_ADD(count, type) b += ((int64_t)(count) * (int64_t)sizeof(type) + 7) / 8 * 8
    TTS_ADD(n, uint8_t);
    TTS_ADD(9 * n, int32_t); /* cls evict level slow heap_pos alloc_head flags age (2) */
    TTS_ADD(3 * n, int32_t);  /* starts */
    TTS_ADD(9 * n, int64_t);  /* w enq t0 end first queue gpu_s vkey sub */
    TTS_ADD(2 * size * TTS_NCLASS, int32_t);
    TTS_ADD(2 * n, int32_t);  /* vict pend */
    TTS_ADD(n, int32_t);      /* heap */
    TTS_ADD(4 * nodes, int32_t);
    TTS_ADD(slots, int32_t);
    TTS_ADD(3 * c->racks, int32_t);
    TTS_ADD(4 * slots, int32_t);
    TTS_ADD(3 * nodes, int32_t); /* pl_node pl_gpus mark */
    TTS_ADD(2 * slots, int32_t); /* vic tmp */
    TTS_ADD(2 * TTS_MAX_CLASSES, int64_t); /* timer cursors */
    TTS_ADD((c->gpus_per_node + 1) * ((nodes + 63) / 64), uint64_t); /* lvl */
#undef TTS_ADD
    return b;
}

TTS_FN void *tts_carve(char **p, int64_t count, int64_t elem)
{
    void *r = (void *)*p;
    *p += (count * elem + 7) / 8 * 8;
    return r;
}

/* Points S's arrays into buf (tts_state_bytes(n, c) bytes, 8-aligned). */
TTS_FN void tts_state_bind(tts_state *S, void *buf, int64_t n, const tts_cluster *c)
{
    char *p = (char *)buf;
    int64_t nodes = (int64_t)c->racks * c->nodes_per_rack, slots = nodes * c->gpus_per_node;
    S->size = tts_tree_size(n);
    S->state = (uint8_t *)tts_carve(&p, n, 1);
    int32_t *i32 = (int32_t *)tts_carve(&p, 9 * n, 4);
    S->cls = i32;
    S->evict = i32 + n;
    S->level = i32 + 2 * n;
    S->slow = i32 + 3 * n;
    S->heap_pos = i32 + 4 * n;
    S->alloc_head = i32 + 5 * n;
    S->flags = i32 + 6 * n;
    S->age_prev = i32 + 7 * n;
    S->age_next = i32 + 8 * n;
    S->starts = (int32_t *)tts_carve(&p, 3 * n, 4);
    int64_t *i64 = (int64_t *)tts_carve(&p, 9 * n, 8);
    S->w = i64;
    S->enq = i64 + n;
    S->t0 = i64 + 2 * n;
    S->end = i64 + 3 * n;
    S->first = i64 + 4 * n;
    S->queue = i64 + 5 * n;
    S->gpu_s = i64 + 6 * n;
    S->vkey = i64 + 7 * n;
    S->sub = i64 + 8 * n;
    S->tree = (int32_t *)tts_carve(&p, 2 * S->size * TTS_NCLASS, 4);
    S->vict = (int32_t *)tts_carve(&p, 2 * n, 4);
    S->pend = S->vict + n;
    S->heap = (int32_t *)tts_carve(&p, n, 4);
    S->freeg = (int32_t *)tts_carve(&p, 4 * nodes, 4);
    S->nocc = S->freeg + nodes;
    S->ev = S->freeg + 2 * nodes;
    S->nonev = S->freeg + 3 * nodes;
    S->occ = (int32_t *)tts_carve(&p, slots, 4);
    S->rack_free = (int32_t *)tts_carve(&p, 3 * c->racks, 4);
    S->rack_l0 = S->rack_free + c->racks;
    S->rack_pc = S->rack_free + 2 * c->racks;
    S->ent_job = (int32_t *)tts_carve(&p, 4 * slots, 4);
    S->ent_node = S->ent_job + slots;
    S->ent_gpus = S->ent_job + 2 * slots;
    S->ent_next = S->ent_job + 3 * slots;
    S->pl_node = (int32_t *)tts_carve(&p, 3 * nodes, 4);
    S->pl_gpus = S->pl_node + nodes;
    S->mark = S->pl_node + 2 * nodes;
    S->vic = (int32_t *)tts_carve(&p, 2 * slots, 4);
    S->tmp = S->vic + slots;
    S->cur = (int64_t *)tts_carve(&p, 2 * TTS_MAX_CLASSES, 8);
    S->words = (int32_t)((nodes + 63) / 64);
    S->lvl = (uint64_t *)tts_carve(&p, (int64_t)(c->gpus_per_node + 1) * S->words, 8);
}

/* ---- the fresh-job tree ---- */

TTS_FN int64_t tts_pos(const tts_state *S, int64_t i)
{
    int32_t o = S->cf->order;
    return (o == TTS_ORDER_SJF || o == TTS_ORDER_SRTF) ? S->tr->job_rank[i] : i;
}

TTS_FN int64_t tts_job_at(const tts_state *S, int64_t p)
{
    int32_t o = S->cf->order;
    return (o == TTS_ORDER_SJF || o == TTS_ORDER_SRTF) ? S->tr->rank_job[p] : p;
}

TTS_FN void tts_tree_pull(tts_state *S, int64_t v)
{
    int32_t *d = S->tree + v * TTS_NCLASS, *l = S->tree + 2 * v * TTS_NCLASS,
            *r = l + TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        d[c] = l[c] < r[c] ? l[c] : r[c];
}

/* Leaf of job i: class cl with k GPUs, or empty when cl < 0. */
TTS_FN void tts_tree_set(tts_state *S, int64_t i, int32_t cl, int32_t k)
{
    int64_t v = S->size + tts_pos(S, i);
    int32_t *d = S->tree + v * TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        d[c] = c == cl ? k : TTS_BIG;
    for (v >>= 1; v >= 1; v >>= 1)
        tts_tree_pull(S, v);
}

TTS_FN int tts_tree_ok(const tts_state *S, int64_t v, const int32_t *thr)
{
    const int32_t *d = S->tree + v * TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        if (d[c] <= thr[c])
            return 1;
    return 0;
}

/* The first rank >= p whose job passes thr for its class, or -1. */
TTS_FN int64_t tts_tree_first(const tts_state *S, int64_t p, const int32_t *thr)
{
    /* the root first: most passes end with a call that finds nothing */
    if (p >= S->n || !tts_tree_ok(S, 1, thr))
        return -1;
    int64_t v = 1; /* from rank 0: the leftmost passing leaf, straight down */
    if (p > 0) {   /* else up from leaf p to the first passing right sibling */
        v = S->size + p;
        while (!tts_tree_ok(S, v, thr)) {
            while (v & 1) {
                if (v == 1)
                    return -1;
                v >>= 1;
            }
            v++;
        }
    }
    while (v < S->size) {
        v *= 2;
        if (!tts_tree_ok(S, v, thr))
            v++;
    }
    return v - S->size;
}

/* ---- queue order ---- */

/* The order key of job i now (ties: lower index). */
TTS_FN int64_t tts_key(const tts_state *S, int64_t i)
{
    switch (S->cf->order) {
    case TTS_ORDER_SJF:
        return S->tr->duration[i];
    case TTS_ORDER_SRTF:
        return S->w[i];
    case TTS_ORDER_LAS:
        return S->gpu_s[i];
    default:
        return tts_submit(S, i);
    }
}

TTS_FN int tts_after(int64_t k1, int64_t i1, int64_t k2, int64_t i2)
{
    return k1 > k2 || (k1 == k2 && i1 > i2);
}

/* The first tree rank whose fresh job comes after (key, idx) in order. */
TTS_FN int64_t tts_rank_after(const tts_state *S, int64_t key, int64_t idx)
{
    int64_t lo = 0, hi = S->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, j = tts_job_at(S, mid);
        int64_t kj = S->cf->order == TTS_ORDER_LAS    ? 0
                     : S->cf->order == TTS_ORDER_SRTF ? S->tr->duration[j] * 1000
                                                     : tts_key(S, j);
        if (tts_after(kj, j, key, idx))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ---- nodes and racks ---- */

TTS_FN void tts_rack_refresh(tts_state *S, int32_t r)
{
    int32_t whole = 0, part = 0, f = 0, clear = 0, cpart = 0;
    for (int32_t x = r * S->N; x < (r + 1) * S->N; x++) {
        int32_t g = S->freeg[x];
        f += g;
        if (g == S->G)
            whole++;
        else if (g > part)
            part = g;
        if (S->nonev[x] == 0)
            clear++;
        else if (S->ev[x] > cpart)
            cpart = S->ev[x];
    }
    S->rack_free[r] = f;
    S->rack_l0[r] = whole * S->G + part;
    S->rack_pc[r] = clear * S->G + cpart;
}

/* Largest k with a free L0 / L1 / L2 placement now. */
TTS_FN void tts_fit_max(const tts_state *S, int32_t *m0, int32_t *m1, int32_t *m2)
{
    int32_t a = 0, b = 0;
    for (int32_t r = 0; r < S->R; r++) {
        if (S->rack_l0[r] > a)
            a = S->rack_l0[r];
        if (S->rack_free[r] > b)
            b = S->rack_free[r];
    }
    *m0 = a;
    *m1 = b;
    *m2 = (int32_t)S->total_free;
}

/* Running, insensitive, evicted fewer than max_preempt times, and started
 * at least min_run ago (the aging list keeps the flag up to date for the
 * time being processed). */
TTS_FN int tts_evictable(const tts_state *S, int64_t i)
{
    return S->flags[i] & TTS_F_EVICT;
}

/* Largest k for which eviction could open an L0 placement now: per rack,
 * the clearable nodes (every occupant evictable) whole, plus the best
 * other node's free + evictable GPUs; the same shape as rack_l0. */
TTS_FN int32_t tts_preempt_max(const tts_state *S)
{
    int32_t best = 0;
    for (int32_t r = 0; r < S->R; r++)
        if (S->rack_pc[r] > best)
            best = S->rack_pc[r];
    return best;
}

/* ---- placement searches: fill pl_node/pl_gpus, or return 0 ---- */

TTS_FN void tts_pl_add(tts_state *S, int32_t x, int32_t g)
{
    S->pl_node[S->pl_n] = x;
    S->pl_gpus[S->pl_n] = g;
    S->pl_n++;
}

TTS_FN int32_t tts_ctz64(uint64_t m)
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)m) - 1;
#else
    return __builtin_ctzll(m);
#endif
}

/* Node x now has g free GPUs: freeg and its level bit. */
TTS_FN void tts_set_free(tts_state *S, int32_t x, int32_t g)
{
    uint64_t bit = (uint64_t)1 << (x & 63);
    S->lvl[(int64_t)S->freeg[x] * S->words + (x >> 6)] &= ~bit;
    S->lvl[(int64_t)g * S->words + (x >> 6)] |= bit;
    S->freeg[x] = g;
}

/* The lowest node in [lo, hi) with exactly f free GPUs, or -1. */
TTS_FN int32_t tts_level_next(const tts_state *S, int32_t f, int32_t lo, int32_t hi)
{
    const uint64_t *b = S->lvl + (int64_t)f * S->words;
    while (lo < hi) {
        uint64_t m = b[lo >> 6] & (~(uint64_t)0 << (lo & 63));
        if (m) {
            int32_t x = (lo & ~63) + tts_ctz64(m);
            return x < hi ? x : -1;
        }
        lo = (lo & ~63) + 64;
    }
    return -1;
}

/* The node in [lo, hi) with the fewest free GPUs >= k, lowest index, not
 * marked; -1 if none. */
TTS_FN int32_t tts_best_fit(const tts_state *S, int32_t lo, int32_t hi, int32_t k)
{
    for (int32_t f = k; f <= S->G; f++)
        for (int32_t x = tts_level_next(S, f, lo, hi); x >= 0;
             x = tts_level_next(S, f, x + 1, hi))
            if (!S->mark[x])
                return x;
    return -1;
}

TTS_FN int tts_find_l0(tts_state *S, int32_t k)
{
    S->pl_n = 0;
    if (k <= S->G) {
        int32_t x = tts_best_fit(S, 0, S->nodes, k);
        if (x < 0)
            return 0;
        tts_pl_add(S, x, k);
        return 1;
    }
    int32_t a = k / S->G, b = k % S->G, best = -1;
    for (int32_t r = 0; r < S->R; r++)
        if (S->rack_l0[r] >= k && (best < 0 || S->rack_free[r] < S->rack_free[best]))
            best = r;
    if (best < 0)
        return 0;
    int32_t lo = best * S->N, hi = lo + S->N, got = 0;
    for (int32_t x = lo; x < hi && got < a; x++)
        if (S->freeg[x] == S->G) {
            tts_pl_add(S, x, S->G);
            S->mark[x] = 1;
            got++;
        }
    if (b > 0)
        tts_pl_add(S, tts_best_fit(S, lo, hi, b), b);
    for (int32_t q = 0; q < S->pl_n; q++)
        S->mark[S->pl_node[q]] = 0;
    return 1;
}

/* Takes k GPUs from the nodes of rack r, most free first, lower index on
 * ties (a node's free count does not move while others are taken, so this
 * is a walk over the free counts from G down). */
TTS_FN int32_t tts_take_most_free(tts_state *S, int32_t r, int32_t k)
{
    int32_t hi = (r + 1) * S->N;
    for (int32_t f = S->G; f > 0 && k > 0; f--)
        for (int32_t x = tts_level_next(S, f, r * S->N, hi); x >= 0 && k > 0;
             x = tts_level_next(S, f, x + 1, hi)) {
            int32_t g = f < k ? f : k;
            tts_pl_add(S, x, g);
            k -= g;
        }
    return k;
}

TTS_FN int tts_find_l1(tts_state *S, int32_t k)
{
    S->pl_n = 0;
    int32_t best = -1;
    for (int32_t r = 0; r < S->R; r++)
        if (S->rack_free[r] >= k && (best < 0 || S->rack_free[r] < S->rack_free[best]))
            best = r;
    if (best < 0)
        return 0;
    tts_take_most_free(S, best, k);
    return 1;
}

TTS_FN int tts_find_l2(tts_state *S, int32_t k)
{
    S->pl_n = 0;
    if (S->total_free < k)
        return 0;
    /* racks by most free first, lower index on ties */
    for (int32_t r = 0; r < S->R; r++)
        S->mark[r] = 0;
    while (k > 0) {
        int32_t best = -1;
        for (int32_t r = 0; r < S->R; r++)
            if (!S->mark[r] && S->rack_free[r] > 0 &&
                (best < 0 || S->rack_free[r] > S->rack_free[best]))
                best = r;
        S->mark[best] = 1;
        k = tts_take_most_free(S, best, k);
    }
    for (int32_t r = 0; r < S->R; r++)
        S->mark[r] = 0;
    return 1;
}

/* The level of the placement in pl (docs/model.md section 4). */
TTS_FN int32_t tts_classify(const tts_state *S, int32_t k)
{
    int32_t rack = S->pl_node[0] / S->N;
    for (int32_t q = 1; q < S->pl_n; q++)
        if (S->pl_node[q] / S->N != rack)
            return 2;
    return S->pl_n == (k + S->G - 1) / S->G ? 0 : 1;
}

/* ---- preemption ---- */

TTS_FN int tts_cost_less(int64_t g1, int64_t n1, int64_t g2, int64_t n2)
{
    return g1 < g2 || (g1 == g2 && n1 < n2);
}

/* The k <= G rule on node x for need GPUs: evictable occupants, most GPUs
 * on the node first, then lower job index, until need are free. Returns 1
 * with the cost (victims' total GPUs, count) and, when out is given, the
 * victims appended to out[*nout]; 0 when eviction cannot free need. */
TTS_FN int tts_node_cost(tts_state *S, int32_t x, int32_t need, int64_t *cg,
                         int64_t *cn, int32_t *out, int32_t *nout)
{
    int32_t freed = S->freeg[x], m = 0;
    int32_t *cand = S->tmp; /* entry ids of evictable occupants */
    *cg = *cn = 0;
    if (freed >= need)
        return 1;
    for (int32_t s = 0; s < S->nocc[x]; s++) {
        int32_t e = S->occ[x * S->G + s];
        if (tts_evictable(S, S->ent_job[e]))
            cand[m++] = e;
    }
    /* insertion sort: most GPUs on the node first, then lower job index */
    for (int32_t a = 1; a < m; a++) {
        int32_t e = cand[a], b = a;
        while (b > 0 && (S->ent_gpus[cand[b - 1]] < S->ent_gpus[e] ||
                         (S->ent_gpus[cand[b - 1]] == S->ent_gpus[e] &&
                          S->ent_job[cand[b - 1]] > S->ent_job[e]))) {
            cand[b] = cand[b - 1];
            b--;
        }
        cand[b] = e;
    }
    int32_t used = 0;
    while (freed < need && used < m) {
        int32_t e = cand[used++];
        freed += S->ent_gpus[e];
        *cg += S->tr->gpus[S->ent_job[e]];
        *cn += 1;
    }
    if (freed < need)
        return 0;
    if (out)
        for (int32_t q = 0; q < used; q++)
            out[(*nout)++] = S->ent_job[cand[q]];
    return 1;
}

/* Clearing node x: every occupant must be evictable. */
TTS_FN int tts_clear_cost(const tts_state *S, int32_t x, int64_t *cg, int64_t *cn)
{
    *cg = *cn = 0;
    for (int32_t s = 0; s < S->nocc[x]; s++) {
        int32_t j = S->ent_job[S->occ[x * S->G + s]];
        if (!tts_evictable(S, j))
            return 0;
        *cg += S->tr->gpus[j];
        *cn += 1;
    }
    return 1;
}

/* For rack r and k > G: marks (mark[x] = 1) the a cheapest clearable nodes
 * and sets *bnode (-1 when b = 0). 1 with the rack's cost, or 0. Leaves
 * the marks set; the caller clears the rack's marks. */
TTS_FN int tts_rack_pick(tts_state *S, int32_t r, int32_t k, int32_t *bnode,
                         int64_t *cg, int64_t *cn)
{
    int32_t a = k / S->G, b = k % S->G, lo = r * S->N, hi = lo + S->N;
    *cg = *cn = 0;
    *bnode = -1;
    for (int32_t got = 0; got < a; got++) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (!S->mark[x] && tts_clear_cost(S, x, &g, &c) &&
                (y < 0 || tts_cost_less(g, c, yg, yn))) {
                y = x;
                yg = g;
                yn = c;
            }
        }
        if (y < 0)
            return 0;
        S->mark[y] = 1;
        *cg += yg;
        *cn += yn;
    }
    if (b > 0) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (!S->mark[x] && tts_node_cost(S, x, b, &g, &c, 0, 0) &&
                (y < 0 || tts_cost_less(g, c, yg, yn))) {
                y = x;
                yg = g;
                yn = c;
            }
        }
        if (y < 0)
            return 0;
        *bnode = y;
        *cg += yg;
        *cn += yn;
    }
    return 1;
}

TTS_FN void tts_unmark_rack(tts_state *S, int32_t r)
{
    for (int32_t x = r * S->N; x < (r + 1) * S->N; x++)
        S->mark[x] = 0;
}

/* The cheapest L0 placement eviction opens for k GPUs: fills pl and the
 * victims vic[0..nvic) (sorted, distinct). 1 found, 0 none. */
TTS_FN int tts_find_preempt(tts_state *S, int32_t k)
{
    S->pl_n = 0;
    S->nvic = 0;
    if (k <= S->G) {
        int32_t best = -1;
        int64_t bg = 0, bn = 0;
        for (int32_t x = 0; x < S->nodes; x++) {
            int64_t g, c;
            if (tts_node_cost(S, x, k, &g, &c, 0, 0) &&
                (best < 0 || tts_cost_less(g, c, bg, bn))) {
                best = x;
                bg = g;
                bn = c;
            }
        }
        if (best < 0)
            return 0;
        int64_t g, c;
        tts_node_cost(S, best, k, &g, &c, S->vic, &S->nvic);
        tts_pl_add(S, best, k);
    } else {
        int32_t best = -1, bnode = -1;
        int64_t bg = 0, bn = 0;
        for (int32_t r = 0; r < S->R; r++) {
            int64_t g, c;
            int32_t bx;
            int ok = tts_rack_pick(S, r, k, &bx, &g, &c);
            tts_unmark_rack(S, r);
            if (ok && (best < 0 || tts_cost_less(g, c, bg, bn))) {
                best = r;
                bg = g;
                bn = c;
            }
        }
        if (best < 0)
            return 0;
        int64_t g, c;
        tts_rack_pick(S, best, k, &bnode, &g, &c);
        for (int32_t x = best * S->N; x < (best + 1) * S->N; x++)
            if (S->mark[x]) {
                for (int32_t s = 0; s < S->nocc[x]; s++)
                    S->vic[S->nvic++] = S->ent_job[S->occ[x * S->G + s]];
                tts_pl_add(S, x, S->G);
            }
        tts_unmark_rack(S, best);
        if (bnode >= 0) {
            tts_node_cost(S, bnode, k % S->G, &g, &c, S->vic, &S->nvic);
            tts_pl_add(S, bnode, k % S->G);
        }
    }
    /* distinct victims in index order (a job may sit on several nodes) */
    for (int32_t a = 1; a < S->nvic; a++) {
        int32_t v = S->vic[a], b = a;
        while (b > 0 && S->vic[b - 1] > v) {
            S->vic[b] = S->vic[b - 1];
            b--;
        }
        S->vic[b] = v;
    }
    int32_t m = 0;
    for (int32_t a = 0; a < S->nvic; a++)
        if (m == 0 || S->vic[m - 1] != S->vic[a])
            S->vic[m++] = S->vic[a];
    S->nvic = m;
    return 1;
}

/* ---- the running-job heap, on (end, index) ---- */

TTS_FN int tts_heap_less(const tts_state *S, int32_t a, int32_t b)
{
    return S->end[a] < S->end[b] || (S->end[a] == S->end[b] && a < b);
}

TTS_FN void tts_heap_place(tts_state *S, int64_t p, int32_t j)
{
    S->heap[p] = j;
    S->heap_pos[j] = (int32_t)p;
}

TTS_FN void tts_heap_fix(tts_state *S, int64_t p)
{
    int32_t j = S->heap[p];
    while (p > 0 && tts_heap_less(S, j, S->heap[(p - 1) / 2])) {
        tts_heap_place(S, p, S->heap[(p - 1) / 2]);
        p = (p - 1) / 2;
    }
    for (;;) {
        int64_t c = 2 * p + 1;
        if (c >= S->nheap)
            break;
        if (c + 1 < S->nheap && tts_heap_less(S, S->heap[c + 1], S->heap[c]))
            c++;
        if (!tts_heap_less(S, S->heap[c], j))
            break;
        tts_heap_place(S, p, S->heap[c]);
        p = c;
    }
    tts_heap_place(S, p, j);
}

TTS_FN void tts_heap_push(tts_state *S, int32_t j)
{
    tts_heap_place(S, S->nheap++, j);
    tts_heap_fix(S, S->nheap - 1);
}

TTS_FN void tts_heap_remove(tts_state *S, int32_t j)
{
    int64_t p = S->heap_pos[j];
    S->nheap--;
    if (p != S->nheap) {
        tts_heap_place(S, p, S->heap[S->nheap]);
        tts_heap_fix(S, p);
    }
    S->heap_pos[j] = -1;
}

/* ---- starts and ends ---- */

TTS_FN void tts_refresh_pl_racks(tts_state *S)
{
    int32_t last = -1;
    for (int32_t q = 0; q < S->pl_n; q++) {
        int32_t r = S->pl_node[q] / S->N;
        if (r != last)
            tts_rack_refresh(S, r);
        last = r;
    }
}

/* Starts waiting job i at t on the placement in pl. */
/* Victims keep a static key under fifo and sjf: they wait in the tree. */
TTS_FN int tts_victims_in_tree(const tts_state *S)
{
    return S->cf->order == TTS_ORDER_FIFO || S->cf->order == TTS_ORDER_SJF;
}

/* Refreshes the racks job i holds GPUs in (its entries come rack by rack:
 * every placement search fills one rack before the next). */
TTS_FN void tts_refresh_job_racks(tts_state *S, int32_t i)
{
    int32_t last = -1;
    for (int32_t e = S->alloc_head[i]; e >= 0; e = S->ent_next[e])
        if (S->ent_node[e] / S->N != last) {
            last = S->ent_node[e] / S->N;
            tts_rack_refresh(S, last);
        }
}

/* ---- evicted jobs under srtf and las: sorted by (GPUs, key, index) ---- */

TTS_FN int tts_vict_less(const tts_state *S, int32_t a, int32_t b)
{
    int32_t ga = S->tr->gpus[a], gb = S->tr->gpus[b];
    if (ga != gb)
        return ga < gb;
    return tts_after(S->vkey[b], b, S->vkey[a], a);
}

/* The first position whose job is not less than j. */
TTS_FN int64_t tts_vict_lower(const tts_state *S, int32_t j)
{
    int64_t lo = 0, hi = S->nvict;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (tts_vict_less(S, S->vict[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

TTS_FN void tts_vict_insert(tts_state *S, int32_t j)
{
    int64_t p = tts_vict_lower(S, j);
    for (int64_t q = S->nvict; q > p; q--)
        S->vict[q] = S->vict[q - 1];
    S->vict[p] = j;
    S->nvict++;
}

TTS_FN void tts_vict_remove(tts_state *S, int32_t j)
{
    int64_t p = tts_vict_lower(S, j);
    S->nvict--;
    for (int64_t q = p; q < S->nvict; q++)
        S->vict[q] = S->vict[q + 1];
}

/* The evicted job first in queue order after (ckey, cidx) (anywhere when
 * !have_cur) among those of at most thr GPUs, or -1: per GPU count, a
 * binary search for the first after the cursor. */
TTS_FN int64_t tts_vict_next(const tts_state *S, int32_t thr, int have_cur, int64_t ckey,
                             int64_t cidx)
{
    int64_t pos = 0, best = -1;
    while (pos < S->nvict) {
        int32_t g = S->tr->gpus[S->vict[pos]];
        if (g > thr)
            break;
        int64_t lo = pos, hi = S->nvict, end;
        while (lo < hi) { /* end of this GPU count's run */
            int64_t mid = lo + (hi - lo) / 2;
            if (S->tr->gpus[S->vict[mid]] <= g)
                lo = mid + 1;
            else
                hi = mid;
        }
        end = lo;
        lo = pos;
        hi = end;
        while (have_cur && lo < hi) { /* first after the cursor */
            int64_t mid = lo + (hi - lo) / 2, j = S->vict[mid];
            if (tts_after(S->vkey[j], j, ckey, cidx))
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo < end) {
            int64_t j = S->vict[lo];
            if (best < 0 || tts_after(S->vkey[best], best, S->vkey[j], j))
                best = j;
        }
        pos = end;
    }
    return best;
}

TTS_FN void tts_age_unlink(tts_state *S, int32_t i)
{
    int32_t a = S->age_prev[i], b = S->age_next[i];
    if (a >= 0)
        S->age_next[a] = b;
    else
        S->age_head = b;
    if (b >= 0)
        S->age_prev[b] = a;
    else
        S->age_tail = a;
}

/* Job i (running) becomes evictable: what eviction could free on its
 * nodes grows by its GPUs there. */
TTS_FN void tts_make_evictable(tts_state *S, int32_t i)
{
    S->flags[i] |= TTS_F_EVICT;
    for (int32_t e = S->alloc_head[i]; e >= 0; e = S->ent_next[e]) {
        S->ev[S->ent_node[e]] += S->ent_gpus[e];
        S->nonev[S->ent_node[e]]--;
    }
    tts_refresh_job_racks(S, i);
}

/* Marks evictable the running jobs that reached min_run by t. */
TTS_FN void tts_age(tts_state *S, int64_t t)
{
    while (S->age_head >= 0 && t - S->t0[S->age_head] >= S->cf->min_run) {
        int32_t i = S->age_head;
        tts_age_unlink(S, i);
        tts_make_evictable(S, i);
    }
}

TTS_FN void tts_start(tts_state *S, int32_t i, int64_t t)
{
    int32_t k = S->tr->gpus[i];
    if (S->state[i] == TTS_WAIT || tts_victims_in_tree(S)) {
        tts_tree_set(S, i, -1, 0);
    } else {
        tts_vict_remove(S, i);
    }
    int elig = !tts_sensitive(S, i) && S->evict[i] < S->cf->max_preempt;
    int now_ev = elig && S->cf->min_run == 0;
    S->flags[i] = (S->flags[i] & TTS_F_SENS) | (elig ? TTS_F_ELIG : 0) | (now_ev ? TTS_F_EVICT : 0);
    S->alloc_head[i] = -1;
    for (int32_t q = 0; q < S->pl_n; q++) {
        int32_t x = S->pl_node[q], e = S->ent_free;
        S->ent_free = S->ent_next[e];
        S->ent_job[e] = i;
        S->ent_node[e] = x;
        S->ent_gpus[e] = S->pl_gpus[q];
        S->ent_next[e] = S->alloc_head[i];
        S->alloc_head[i] = e;
        S->occ[x * S->G + S->nocc[x]++] = e;
        tts_set_free(S, x, S->freeg[x] - S->pl_gpus[q]);
        if (!now_ev) {
            S->ev[x] -= S->pl_gpus[q];
            S->nonev[x]++;
        }
    }
    S->total_free -= k;
    tts_refresh_pl_racks(S);
    int32_t lv = tts_classify(S, k);
    int64_t s = tts_level_slow(S, i, lv), r = S->evict[i] > 0 ? S->cf->restart : 0;
    S->level[i] = lv;
    S->slow[i] = (int32_t)s;
    S->t0[i] = t;
    if (elig && !now_ev) { /* ages in start order: append */
        S->age_prev[i] = S->age_tail;
        S->age_next[i] = -1;
        if (S->age_tail >= 0)
            S->age_next[S->age_tail] = i;
        else
            S->age_head = i;
        S->age_tail = i;
    }
    S->end[i] = t + r + tts_ceil_div(S->w[i] * s, 1000000);
    if (S->first[i] == TTS_NONE)
        S->first[i] = t;
    S->queue[i] += t - S->enq[i];
    S->starts[3 * (int64_t)i + lv]++;
    S->placed[lv]++;
    S->state[i] = TTS_RUN;
    tts_heap_push(S, i);
    S->waiting--;
    S->running++;
    S->busy += k;
    S->running_level[lv]++;
}

/* Ends job i's segment at t: completed, or evicted back to the queue (into
 * the pending list: it waits for the next pass). */
TTS_FN void tts_end(tts_state *S, int32_t i, int64_t t, int completed)
{
    int64_t k = S->tr->gpus[i], r = S->evict[i] > 0 ? S->cf->restart : 0;
    int64_t held = t - S->t0[i], run = held - r > 0 ? held - r : 0, done;
    if (completed) {
        done = S->w[i];
    } else {
        done = run * 1000000 / S->slow[i];
        if (done > S->w[i])
            done = S->w[i];
    }
    tts_seglog *L = S->log;
    if (L && !L->overflow) {
        if (L->n == L->cap || L->alloc_n + 2 * (int64_t)S->nodes > L->alloc_cap) {
            L->overflow = 1;
        } else {
            tts_segment *g = &L->seg[L->n++];
            g->job = i;
            g->t0 = S->t0[i];
            g->t1 = t;
            g->r = r;
            g->s = S->slow[i];
            g->w_before = S->w[i];
            g->done = done;
            g->level = S->level[i];
            g->completed = completed;
            g->alloc_off = L->alloc_n;
            g->alloc_n = 0;
            for (int32_t e = S->alloc_head[i]; e >= 0; e = S->ent_next[e]) {
                L->alloc[L->alloc_n++] = S->ent_node[e];
                L->alloc[L->alloc_n++] = S->ent_gpus[e];
                g->alloc_n++;
            }
        }
    }
    S->w[i] -= done;
    S->used += k * held;
    S->comm_milli += k * (run * 1000 - done);
    S->restart_gs += k * (r < held ? r : held);
    S->gpu_s[i] += k * held;
    int was_ev = S->flags[i] & TTS_F_EVICT;
    if ((S->flags[i] & TTS_F_ELIG) && !was_ev)
        tts_age_unlink(S, i);
    S->flags[i] &= TTS_F_SENS;
    for (int32_t e = S->alloc_head[i]; e >= 0; e = S->ent_next[e]) {
        int32_t x = S->ent_node[e];
        tts_set_free(S, x, S->freeg[x] + S->ent_gpus[e]);
        if (!was_ev) {
            S->ev[x] += S->ent_gpus[e];
            S->nonev[x]--;
        }
        for (int32_t s = 0; s < S->nocc[x]; s++)
            if (S->occ[x * S->G + s] == e) {
                S->occ[x * S->G + s] = S->occ[x * S->G + --S->nocc[x]];
                break;
            }
    }
    tts_refresh_job_racks(S, i);
    int32_t e = S->alloc_head[i];
    while (e >= 0) {
        int32_t nx = S->ent_next[e];
        S->ent_next[e] = S->ent_free;
        S->ent_free = e;
        e = nx;
    }
    S->alloc_head[i] = -1;
    S->total_free += k;
    S->running--;
    S->busy -= k;
    S->running_level[S->level[i]]--;
    tts_heap_remove(S, i);
    if (completed) {
        S->state[i] = TTS_DONE;
        S->end[i] = t;
    } else {
        S->state[i] = TTS_WAITV;
        S->enq[i] = t;
        S->evict[i]++;
        S->preempt++;
        S->waiting++;
        S->pend[S->npend++] = i;
    }
}

/* ---- the pass ---- */

/* Tries job i at t by the steps of docs/model.md section 6. 1 if it
 * started, 0 if not. */
TTS_FN int tts_try(tts_state *S, int32_t i, int64_t t, int32_t m0, int32_t m1, int32_t m2)
{
    int32_t k = S->tr->gpus[i], al = tts_allowed(S, i, t);
    /* 1. a free L0 placement */
    if (k <= m0 && k <= S->rack_gpus && tts_find_l0(S, k)) {
        tts_start(S, i, t);
        return 1;
    }
    /* 2. sensitive and waited W0: evict to open L0 */
    if (k <= S->rack_gpus && tts_sensitive(S, i) && tts_waited(S, i, t) &&
        tts_preempt_max(S) >= k && tts_find_preempt(S, k)) {
        for (int32_t v = 0; v < S->nvic; v++)
            tts_end(S, S->vic[v], t, 0);
        tts_start(S, i, t);
        return 1;
    }
    /* 3. the best level the timers allow */
    if (al >= 1 && k <= m1 && tts_find_l1(S, k)) {
        tts_start(S, i, t);
        return 1;
    }
    if (al >= 2 && k <= m2 && tts_find_l2(S, k)) {
        tts_start(S, i, t);
        return 1;
    }
    return 0;
}

/* One pass at t over the jobs waiting when it began. 1 if it started a
 * job. */
TTS_FN int tts_pass(tts_state *S, int64_t t)
{
    int changed = 0, have_cur = 0;
    int64_t ckey = 0, cidx = -1, p = 0;
    int need_mp = S->cf->theta != TTS_INF;
    for (;;) {
        int32_t m0, m1, m2, thr[TTS_NCLASS];
        tts_fit_max(S, &m0, &m1, &m2);
        if (!S->cf->backfill) {
            for (int c = 0; c < TTS_NCLASS; c++)
                thr[c] = TTS_BIG - 1;
        } else {
            int32_t mp = 0;
            if (need_mp && (S->tree[TTS_NCLASS + TTS_C1S] < TTS_BIG ||
                            S->tree[TTS_NCLASS + TTS_C2S] < TTS_BIG))
                mp = tts_preempt_max(S);
            thr[TTS_C0] = m0;
            thr[TTS_C1I] = m1;
            thr[TTS_C1S] = m1 > mp ? m1 : mp;
            thr[TTS_C2I] = m2;
            thr[TTS_C2S] = m2 > mp ? m2 : mp;
        }
        /* the next fresh candidate, and the next evicted one */
        int64_t fr = tts_tree_first(S, p, thr), fj = fr < 0 ? -1 : tts_job_at(S, fr);
        int64_t vj = tts_vict_next(S, S->cf->backfill ? m2 : TTS_BIG - 1, have_cur, ckey, cidx);
        int64_t vk = vj >= 0 ? S->vkey[vj] : 0;
        int64_t j;
        if (fj >= 0 && (vj < 0 || tts_after(vk, vj, tts_key(S, fj), fj)))
            j = fj;
        else
            j = vj;
        if (j < 0)
            break;
        have_cur = 1;
        ckey = tts_key(S, j);
        cidx = j;
        int started = tts_try(S, (int32_t)j, t, m0, m1, m2);
        if (started)
            changed = 1;
        else if (!S->cf->backfill)
            break;
        p = j == fj ? fr + 1 : tts_rank_after(S, ckey, cidx);
    }
    /* jobs evicted in this pass join the queue for the next one */
    for (int64_t q = 0; q < S->npend; q++) {
        int32_t j = S->pend[q];
        if (tts_victims_in_tree(S)) {
            tts_tree_set(S, j, TTS_C2I, S->tr->gpus[j]);
        } else {
            S->vkey[j] = tts_key(S, j);
            tts_vict_insert(S, j);
        }
    }
    S->npend = 0;
    return changed;
}

/* ---- timers and events ---- */

/* Advances the timer cursor *c of group g past jobs that are no longer
 * fresh and waiting (or of another class, with class timers); returns the
 * next crossing (enq + off) of a waiting fresh job of the group, TTS_INF if
 * none (a job not yet arrived crosses after its arrival). */
TTS_FN int64_t tts_timer_next(tts_state *S, int64_t *c, int32_t g, int64_t off)
{
    int by_class = S->cf->class_timers;
    while (*c < S->next_arr && (S->state[*c] != TTS_WAIT || (by_class && S->cls[*c] != g)))
        (*c)++;
    if (*c >= S->next_arr)
        return TTS_INF;
    return tts_sat_add(S->enq[*c], off);
}

/* Re-classes the waiting fresh jobs of group g whose timer crossed at or
 * before t. */
TTS_FN void tts_timers(tts_state *S, int64_t *c, int32_t g, int64_t off, int64_t t)
{
    for (;;) {
        int64_t x = tts_timer_next(S, c, g, off);
        if (x == TTS_INF || x > t)
            return;
        tts_tree_set(S, *c, tts_class_of(S, *c, t), S->tr->gpus[*c]);
        (*c)++;
    }
}

/* When group g's jobs may take L2: W0 + W1 after they queue. */
TTS_FN int64_t tts_off2(const tts_state *S, int32_t g)
{
    int64_t w0 = tts_w0(S, g);
    return w0 == TTS_INF ? TTS_INF : tts_sat_add(w0, tts_w1(S, g));
}

/* The least event time: 1 with *t, or 0 when nothing is left. */
TTS_FN int tts_next_event(tts_state *S, int64_t *t)
{
    int64_t best = TTS_INF;
    int any = 0;
    /* a rejected job's submit is no event */
    while (S->next_arr < S->n && S->state[S->next_arr] == TTS_REJECTED)
        S->next_arr++;
    if (S->next_arr < S->n) {
        best = tts_submit(S, S->next_arr);
        any = 1;
    }
    if (S->nheap > 0 && (!any || S->end[S->heap[0]] < best)) {
        best = S->end[S->heap[0]];
        any = 1;
    }
    for (int32_t g = 0; g < S->groups; g++) {
        int64_t w0 = tts_w0(S, g);
        if (w0 == TTS_INF)
            continue;
        int64_t a = tts_timer_next(S, &S->cur[2 * g], g, w0);
        int64_t b = tts_timer_next(S, &S->cur[2 * g + 1], g, tts_off2(S, g));
        if (a != TTS_INF && (!any || a < best)) {
            best = a;
            any = 1;
        }
        if (b != TTS_INF && (!any || b < best)) {
            best = b;
            any = 1;
        }
    }
    *t = best;
    return any;
}

/* Resets S for a run of tr on c under cf (S bound to a buffer of
 * tts_state_bytes). log may be NULL. */
TTS_FN void tts_init(tts_state *S, const tts_trace *tr, const tts_cluster *c,
                     const tts_config *cf, tts_seglog *log)
{
    S->tr = tr;
    S->cf = cf;
    S->R = c->racks;
    S->N = c->nodes_per_rack;
    S->G = c->gpus_per_node;
    S->nodes = S->R * S->N;
    S->rack_gpus = S->N * S->G;
    S->cluster_gpus = (int64_t)S->nodes * S->G;
    S->n = tr->n;
    S->log = log;
    S->waiting = S->running = S->busy = 0;
    S->used = S->comm_milli = S->restart_gs = S->preempt = 0;
    for (int l = 0; l < 3; l++)
        S->placed[l] = S->running_level[l] = 0;
    for (int64_t i = 0; i < S->n; i++) {
        S->sub[i] = tr->submit[0] + (tr->submit[i] - tr->submit[0]) * 1000 / cf->load;
        S->state[i] = tr->gpus[i] > S->cluster_gpus ? TTS_REJECTED : TTS_FUTURE;
        S->cls[i] = tts_job_class(tr, cf, i);
        S->flags[i] = cf->theta != TTS_INF && tr->slow_l2[S->cls[i]] >= cf->theta ? TTS_F_SENS : 0;
        S->age_prev[i] = S->age_next[i] = -1;
        S->evict[i] = 0;
        S->level[i] = -1;
        S->slow[i] = 0;
        S->heap_pos[i] = -1;
        S->alloc_head[i] = -1;
        S->starts[3 * i] = S->starts[3 * i + 1] = S->starts[3 * i + 2] = 0;
        S->w[i] = tr->duration[i] * 1000;
        S->enq[i] = 0;
        S->t0[i] = 0;
        S->end[i] = TTS_NONE;
        S->first[i] = TTS_NONE;
        S->queue[i] = 0;
        S->gpu_s[i] = 0;
        S->vkey[i] = 0;
    }
    S->age_head = S->age_tail = -1;
    for (int64_t v = 0; v < 2 * S->size * TTS_NCLASS; v++)
        S->tree[v] = TTS_BIG;
    S->nvict = S->npend = S->nheap = 0;
    for (int64_t w = 0; w < (int64_t)(S->G + 1) * S->words; w++)
        S->lvl[w] = 0;
    for (int32_t x = 0; x < S->nodes; x++) {
        S->freeg[x] = S->G;
        S->lvl[(int64_t)S->G * S->words + (x >> 6)] |= (uint64_t)1 << (x & 63);
        S->ev[x] = S->G;
        S->nonev[x] = 0;
        S->nocc[x] = 0;
        S->mark[x] = 0;
    }
    for (int32_t r = 0; r < S->R; r++)
        tts_rack_refresh(S, r);
    S->total_free = S->cluster_gpus;
    int32_t slots = S->nodes * S->G;
    for (int32_t e = 0; e < slots; e++)
        S->ent_next[e] = e + 1 < slots ? e + 1 : -1;
    S->ent_free = 0;
    S->pl_n = S->nvic = 0;
    S->now = 0;
    S->next_arr = 0;
    S->groups = cf->class_timers ? tr->nclasses : 1;
    for (int32_t g = 0; g < 2 * S->groups; g++)
        S->cur[g] = 0;
}

/* Processes the next event time: frees the jobs that end then, queues the
 * jobs submitted then, re-classes jobs whose timers crossed, and repeats
 * the pass until one changes nothing. Returns 1, or 0 when no event is
 * left. */
TTS_FN int tts_step(tts_state *S)
{
    int64_t t;
    if (!tts_next_event(S, &t))
        return 0;
    S->now = t;
    while (S->nheap > 0 && S->end[S->heap[0]] <= t)
        tts_end(S, S->heap[0], t, 1);
    tts_age(S, t);
    while (S->next_arr < S->n && tts_submit(S, S->next_arr) <= t) {
        int64_t i = S->next_arr++;
        if (S->state[i] == TTS_REJECTED)
            continue;
        S->state[i] = TTS_WAIT;
        S->enq[i] = t;
        S->waiting++;
        tts_tree_set(S, i, tts_class_of(S, i, t), S->tr->gpus[i]);
    }
    for (int32_t g = 0; g < S->groups; g++) {
        int64_t w0 = tts_w0(S, g);
        if (w0 == TTS_INF)
            continue;
        tts_timers(S, &S->cur[2 * g], g, w0, t);
        tts_timers(S, &S->cur[2 * g + 1], g, tts_off2(S, g), t);
    }
    while (tts_pass(S, t))
        ;
    return 1;
}

/* ---- after the run: what the metrics are made of (SPEC 7) ----
 * Integers only, so every backend reduces a run to the same numbers; the
 * host turns them into tt_metrics with one function. The percentiles are
 * filled by the caller from the sorted jct and que arrays (nearest rank). */
typedef struct {
    int64_t accepted, rejected;      /* jobs simulated / larger than the cluster */
    int64_t first, last;             /* earliest submit, latest end of accepted jobs */
    int64_t jct_sum, que_sum;
    int64_t jct_p50, jct_p90, jct_p99, que_p99;
    int64_t comm_milli, used, restart_gs, preempt, placed[3], cluster_gpus;
    int32_t fault;                   /* 1: jobs left waiting with no event (a bug) */
} tts_summary;

/* Fills everything in m but the percentiles, and writes the accepted jobs'
 * JCTs and queueing delays, in job order, to jct[0..accepted) and
 * que[0..accepted). */
TTS_FN void tts_summarize(const tts_state *S, tts_summary *m, int64_t *jct, int64_t *que)
{
    int64_t acc = 0, rej = 0, first = 0, last = 0, jsum = 0, qsum = 0;
    for (int64_t i = 0; i < S->n; i++) {
        if (S->state[i] == TTS_REJECTED) {
            rej++;
            continue;
        }
        int64_t sub = tts_submit(S, i);
        if (acc == 0 || sub < first)
            first = sub;
        if (acc == 0 || S->end[i] > last)
            last = S->end[i];
        jct[acc] = S->end[i] - sub;
        que[acc] = S->queue[i];
        jsum += jct[acc];
        qsum += que[acc];
        acc++;
    }
    m->accepted = acc;
    m->rejected = rej;
    m->first = first;
    m->last = last;
    m->jct_sum = jsum;
    m->que_sum = qsum;
    m->jct_p50 = m->jct_p90 = m->jct_p99 = m->que_p99 = 0;
    m->comm_milli = S->comm_milli;
    m->used = S->used;
    m->restart_gs = S->restart_gs;
    m->preempt = S->preempt;
    for (int l = 0; l < 3; l++)
        m->placed[l] = S->placed[l];
    m->cluster_gpus = S->cluster_gpus;
    m->fault = S->waiting != 0 || S->running != 0;
}

/* The pct-th percentile of sorted[0..n) by nearest rank; 0 when n = 0. */
TTS_FN int64_t tts_nearest_rank(const int64_t *sorted, int64_t n, int64_t pct)
{
    if (n == 0)
        return 0;
    int64_t rank = (pct * n + 99) / 100;
    return sorted[(rank < 1 ? 1 : rank) - 1];
}

/* The four percentiles of m from the sorted arrays tts_summarize wrote. */
TTS_FN void tts_percentiles(tts_summary *m, const int64_t *jct_sorted, const int64_t *que_sorted)
{
    m->jct_p50 = tts_nearest_rank(jct_sorted, m->accepted, 50);
    m->jct_p90 = tts_nearest_rank(jct_sorted, m->accepted, 90);
    m->jct_p99 = tts_nearest_rank(jct_sorted, m->accepted, 99);
    m->que_p99 = tts_nearest_rank(que_sorted, m->accepted, 99);
}

#endif
