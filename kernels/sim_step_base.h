/* sim_step_base.h: the first of the four parts of the simulation step
 * (sim_step.h includes them in order; each calls only those before it).
 * Here: the host/device marking, the engine's plain structs (the trace and
 * model table, the cluster, one configuration, the segment log, the
 * state), integer arithmetic, the per-job rules every later part asks (a
 * job's class, its slowdown at a level, the level its timers allow, its
 * queue class), and the state's one buffer (its size, its layout).
 * Nothing comes before it; sim_step_queue.h comes next. */
#ifndef TT_SIM_STEP_BASE_H
#define TT_SIM_STEP_BASE_H

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
/* What a waiting fresh job may do now; see sim_step.h's opening comment. */
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
    /* fresh-job tree (sim_step_queue.h): TTS_TREE_B children a node; level
     * h starts at tree + tree_off[h], tree_top is the root's level */
    int32_t *tree;
    int64_t *tree_off;
    int32_t tree_top;
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
    /* largest k whose L0 fits now (rack_l0) or after evictions (rack_pc),
     * worked out from counts kept as nodes change, not from the nodes:
     * per rack, nodes by free GPUs (rack_nfree, G + 1 a rack), nodes whose
     * occupants are all evictable (rack_clear), and the other nodes by
     * free + evictable GPUs (rack_nev, G + 1 a rack) */
    int32_t *rack_free, *rack_l0, *rack_pc, *rack_clear, *rack_nfree, *rack_nev;
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

/* The fresh-job tree has TTS_TREE_B children a node (16: a node's
 * children hold one 64-byte line per class). Each level is stored in groups
 * of TTS_TREE_B siblings, class-major ([class][sibling]), so a node's value
 * is a min over a short contiguous array and the children that pass a
 * threshold come out as one bit mask. */
#ifndef TTS_TREE_B
#define TTS_TREE_B 16
#endif
#define TTS_TREE_GROUP (TTS_TREE_B * TTS_NCLASS) /* int32 per group */
#define TTS_TREE_MAXLV 12                       /* levels: n < 2^31, B >= 8 */

/* The tree's shape for n jobs: off[h] (h = 0 .. top + 1) is where level h
 * starts (int32 elements; off[top + 1] is the whole), when off is given.
 * Returns top, the root's level (a level of one node). */
TTS_FN int32_t tts_tree_shape(int64_t n, int64_t *off, int64_t *total)
{
    int64_t m = n > 0 ? n : 1, at = 0;
    int32_t h = 0;
    for (;;) {
        int64_t groups = (m + TTS_TREE_B - 1) / TTS_TREE_B;
        if (off)
            off[h] = at;
        at += groups * TTS_TREE_GROUP;
        if (m == 1)
            break;
        m = groups;
        h++;
    }
    if (off)
        off[h + 1] = at;
    *total = at;
    return h;
}

/* Bytes of the buffer one simulation of n jobs on c needs (8-aligned). */
TTS_FN int64_t tts_state_bytes(int64_t n, const tts_cluster *c)
{
    int64_t nodes = (int64_t)c->racks * c->nodes_per_rack, slots = nodes * c->gpus_per_node;
    int64_t tree, b = 0;
    tts_tree_shape(n, NULL, &tree);
#define TTS_ADD(count, type) b += ((int64_t)(count) * (int64_t)sizeof(type) + 7) / 8 * 8
    TTS_ADD(n, uint8_t);
    TTS_ADD(9 * n, int32_t); /* cls evict level slow heap_pos alloc_head flags age (2) */
    TTS_ADD(3 * n, int32_t);  /* starts */
    TTS_ADD(9 * n, int64_t);  /* w enq t0 end first queue gpu_s vkey sub */
    TTS_ADD(tree, int32_t);
    TTS_ADD(TTS_TREE_MAXLV + 1, int64_t); /* tree_off */
    TTS_ADD(2 * n, int32_t);  /* vict pend */
    TTS_ADD(n, int32_t);      /* heap */
    TTS_ADD(4 * nodes, int32_t);
    TTS_ADD(slots, int32_t);
    TTS_ADD(4 * c->racks, int32_t);
    TTS_ADD(2 * c->racks * (c->gpus_per_node + 1), int32_t); /* rack_nfree rack_nev */
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
    int64_t tree;
    tts_tree_shape(n, NULL, &tree);
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
    S->tree = (int32_t *)tts_carve(&p, tree, 4);
    S->tree_off = (int64_t *)tts_carve(&p, TTS_TREE_MAXLV + 1, 8);
    S->vict = (int32_t *)tts_carve(&p, 2 * n, 4);
    S->pend = S->vict + n;
    S->heap = (int32_t *)tts_carve(&p, n, 4);
    S->freeg = (int32_t *)tts_carve(&p, 4 * nodes, 4);
    S->nocc = S->freeg + nodes;
    S->ev = S->freeg + 2 * nodes;
    S->nonev = S->freeg + 3 * nodes;
    S->occ = (int32_t *)tts_carve(&p, slots, 4);
    S->rack_free = (int32_t *)tts_carve(&p, 4 * c->racks, 4);
    S->rack_l0 = S->rack_free + c->racks;
    S->rack_pc = S->rack_free + 2 * c->racks;
    S->rack_clear = S->rack_free + 3 * c->racks;
    S->rack_nfree = (int32_t *)tts_carve(&p, 2 * c->racks * (c->gpus_per_node + 1), 4);
    S->rack_nev = S->rack_nfree + c->racks * (c->gpus_per_node + 1);
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

#endif
