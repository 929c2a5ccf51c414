/* sim_step_base.h: the first of the twelve parts of the simulation step
 * (sim_step.h includes them in order; each calls only those before it).
 * Here: the host/device marking, the engine's plain structs (the trace and
 * model table, the cluster, one configuration, the segment log, the
 * state), integer arithmetic, the per-job rules every later part asks (a
 * job's class, its slowdown at a level, the level its timers allow, its
 * queue class). The state's one buffer (its size, its layout) is
 * sim_step_layout.h's. Nothing comes before it; sim_step_layout.h comes
 * next. */
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

/* TTS_CHECK(ok, name): the bound of a carved array (sim_step_layout.h
 * proves each next to its carve) or another invariant of the step code,
 * checked only in a debug build (-DTTS_DEBUG: the sanitizer build that
 * runs the unit tests and their random cases): a write past an array's
 * bound would land silently in the next array of the one buffer, so it
 * aborts naming the array instead. No code otherwise. */
#if defined(TTS_DEBUG) && defined(__CUDA_ARCH__)
#define TTS_CHECK(ok, name)                                                                 \
    do {                                                                                   \
        if (!(ok)) {                                                                       \
            printf("tts: bound of %s broken (%s:%d)\n", name, __FILE__, __LINE__);          \
            __trap();                                                                      \
        }                                                                                  \
    } while (0)
#elif defined(TTS_DEBUG)
#include <stdio.h>
#include <stdlib.h>
#define TTS_CHECK(ok, name)                                                                 \
    do {                                                                                   \
        if (!(ok)) {                                                                       \
            fprintf(stderr, "tts: bound of %s broken (%s:%d)\n", name, __FILE__, __LINE__); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)
#else
#define TTS_CHECK(ok, name) ((void)0)
#endif

#define TTS_INF INT64_MAX
#define TTS_NONE INT64_MIN
#define TTS_BIG INT32_MAX
#define TTS_MAX_CLASSES 64

enum { TTS_FUTURE, TTS_WAIT, TTS_WAITV, TTS_RUN, TTS_DONE, TTS_REJECTED };
enum {
    TTS_ORDER_FIFO, TTS_ORDER_SJF, TTS_ORDER_SRTF, TTS_ORDER_LAS,
    TTS_ORDER_DLAS, TTS_ORDER_GITTINS, TTS_ORDER_FTF
};
/* dlas and gittins: at most 7 thresholds, so 8 queues (SPEC 11.5); a
 * Gittins table holds at most 1024 samples (SPEC 11.2) */
#define TTS_MAX_MLFQ 7
#define TTS_MAX_QUEUES (TTS_MAX_MLFQ + 1)
#define TTS_GITTINS_MAX 1024
/* Per-job flags: sensitive; may be evicted in this segment (insensitive,
 * under max_preempt); evictable now (also aged min_run). */
enum { TTS_F_SENS = 1, TTS_F_ELIG = 2, TTS_F_EVICT = 4 };
/* What a waiting fresh job may do now; see sim_step.h's opening comment. */
enum { TTS_C0, TTS_C1I, TTS_C1S, TTS_C2I, TTS_C2S, TTS_NCLASS };

/* A service distribution for order=gittins (SPEC 11.2): m sorted samples
 * x[0..m) in GPU-seconds and their prefix sums pre[k] = x[0] + .. +
 * x[k-1], so an index costs two binary searches. Read-only, shared. */
typedef struct {
    int32_t m;
    int64_t x[TTS_GITTINS_MAX], pre[TTS_GITTINS_MAX + 1];
} tts_gittins;

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
    /* the service distributions configurations under gittins name by
     * index (tts_config.git) */
    const tts_gittins *git;
    int32_t ngit;
    /* elasticity (SPEC 10, docs/model.md section 12), each NULL when absent: the
     * trace's columns elastic (1, 0, -1 = unknown), gpus_min and gpus_max
     * (-1 = no bound); per class, the scale column's nscale[c] values at
     * 1, 2, 4, ... GPUs from scale[TTS_SCALE_MAX * c] (0 values: linear) */
    const int8_t *elastic;
    const int32_t *gmin, *gmax;
    const int32_t *nscale;
    const int64_t *scale;
    /* workflows (SPEC 12, docs/model.md section 13), NULL and 0 when the trace has
     * no task, built on the host (libcore/sim/wf.c): per job its task
     * index (tsk, -1: a plain job) and its workflow's (wfi, dense, -1);
     * its parents deps[dep_off[i] .. dep_off[i + 1]) and its children
     * ch[ch_off[i] .. ch_off[i + 1]), job indices; per workflow its
     * lowest job index */
    int64_t ntask, nwf;
    const int32_t *tsk, *wfi, *deps, *ch, *wf_first;
    const int64_t *dep_off, *ch_off;
    /* each job's output (MiB), NULL unless a task has one above 0 */
    const int32_t *out_mb;
    /* the model cache's view (sim_step_cache.h), NULL unless a run has
     * gpu_mem > 0: each job's dense model id (its mid's rank among the
     * trace's mids, or -1: its class's, nmid + class) and each id's size
     * (MiB, -1 unknown) */
    const int32_t *mdl, *msz;
    int32_t nmid;
} tts_trace;

#define TTS_SCALE_MAX 8

typedef struct {
    int32_t racks, nodes_per_rack, gpus_per_node;
} tts_cluster;

/* An entry of the running jobs' heap: the job with its end and its slot
 * beside it, so the heap's comparisons and moves read the heap alone. */
typedef struct {
    int64_t end;
    int32_t job, slot;
} tts_hent;

/* One configuration; mix_cum is the running sum of the class weights.
 * With class_timers set, class c waits w0c[c] and w1c[c] (the caller fills
 * every class, the global pair where a class has none of its own) and w0,
 * w1 are unused. */
typedef struct {
    int32_t order, backfill, class_timers;
    int64_t w0, w1, theta, restart, congestion, min_run, max_preempt, load;
    /* elasticity: doublings above and halvings below a job's GPUs, the
     * permille of jobs elastic where the trace does not say, resize=term
     * (1) or sidecar (0), the SideCar resize cost and the gap before a
     * grow (s) */
    int32_t el_up, el_down, el_frac, resize_term;
    int64_t resize_cost, resize_gap;
    /* workflows and GPU memory (docs/model.md section 13): MiB per GPU (0:
     * no cache), bandwidths (MiB/s), the warm wait (s), models per GPU,
     * eviction (0 lru, 1 demand), placement (0 off, 1 affinity) */
    int64_t gpu_mem, load_bw, xfer_bw, w_warm;
    int32_t cache_slots, evict, cache_place;
    uint64_t seed;
    uint64_t mix_cum[TTS_MAX_CLASSES];
    int64_t w0c[TTS_MAX_CLASSES], w1c[TTS_MAX_CLASSES];
    /* dlas and gittins (SPEC 11.1, 11.2): nq queues split at the GPU-second
     * thresholds mlfq[0 .. nq - 2]; promote (permille, 0 = off); priority
     * preemption; gittins: the quantum D and the distribution's index in
     * tts_trace.git */
    int32_t nq, prio_preempt, git;
    int64_t mlfq[TTS_MAX_MLFQ], promote, gittins_delta;
    /* 1: a job evicted at t waits ahead of its queue's waiters, unless it
     * entered the queue at t (requeue=front, docs/model.md 11 item 11) */
    int32_t requeue_front;
#define TTS_QENT_FRONT (-((int64_t)1 << 62)) /* qent of "evicted at t": this - t */
    /* 1: step 7's victims as Tiresias's greedy refill picks them
     * (prio_victims=refill, docs/model.md 11 item 12) */
    int32_t prio_refill;
    /* 1: none of the shortcuts docs/model.md says change nothing (the
     * pass's thresholds, step 7's L0 failure bound, the grow phase's
     * skip): every waiting job is tried and the phase always runs. Only
     * the tests set it, to run both readings; tools leave it 0 */
    int32_t literal;
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

/* What a configuration keeps per job, the one thing that grows with the
 * trace (docs/architecture.md, "Memory"): a word of state, the evictions,
 * the end, the time held. Everything else a job's rules ask is the
 * trace's, shared by every configuration (submit after load scaling by
 * every configuration of one load), or lives with a running job in the
 * slot of its first allocation entry (at most one per cluster GPU). The
 * per-job results tt-sim prints (first start, starts per level) are kept
 * only when a run asks for them. */
#define TTS_WITH_VICT 1 /* the evicted jobs' array of srtf and las (4 bytes a job) */
#define TTS_WITH_JOBS 2 /* first start and starts per level (20 bytes a job) */
/* SPEC 11.7: dlas and gittins's 48 bytes a job (sim_step_order.h), ftf's
 * key (8 bytes a job); the fairness metrics' A at submit' is kept under
 * every order (8 bytes a job) */
#define TTS_WITH_MLFQ 4
#define TTS_WITH_FTF 8
#define TTS_WITH_ELASTIC 16 /* sizes, last resize, restart part (16 bytes a job; 24 with
                              * TTS_WITH_VICT or TTS_WITH_JOBS: GPU-seconds held) */
/* the load and transfer parts of each job's overhead, with the cache or
 * transfers on (8 bytes a job; docs/model.md section 13) */
#define TTS_WITH_OVH 32
/* GPU identity and the model cache (docs/model.md section 13) */
#define TTS_WITH_CACHE 64
#define TTS_CACHE_SLOTS 8 /* models a GPU may hold: cache_slots' most */
/* With the cache, the models per GPU the layout holds (1 ..
 * TTS_CACHE_SLOTS): the largest cache_slots of the configurations a
 * preparation serves. A run's GPUs keep their models cf->cache_slots
 * apart, so a GPU costs what its configuration asks, in the same buffer. */
#define TTS_WITH_SLOTS_SHIFT 8
#define TTS_WITH_SLOTS(k) ((int32_t)(k) << TTS_WITH_SLOTS_SHIFT)
#define TTS_WITH_SLOTS_OF(with) ((with) >> TTS_WITH_SLOTS_SHIFT & 15)
/* With the cache, placement by L (cache_place=affinity or the warm wait):
 * per node and model id the free GPUs holding the model (a byte each) */
#define TTS_WITH_LXCNT 128
/* w_warm > 0: the evicted jobs' warm wait (12.4; 16 bytes a job); above
 * the bits of TTS_WITH_SLOTS */
#define TTS_WITH_WARM 4096

/* The word of job i (tts_state.info): state, flags, level + 1, class, and
 * the slot of a running job (TTS_NO_SLOT otherwise). */
#define TTS_I_STATE 0
#define TTS_I_FLAGS 3
#define TTS_I_LEVEL 6
#define TTS_I_CLASS 8
#define TTS_I_SLOT 14
#define TTS_I_AGING 31 /* the slot's running job is on the aging list */
#define TTS_NO_SLOT 0x1FFFF /* 17 bits: slots < TT_MAX_CLUSTER_GPUS = 65536 */

typedef struct {
    /* inputs */
    const tts_trace *tr;
    const tts_config *cf; /* the caller's, alive for the run */
    const int64_t *sub;   /* submit' per job (tts_scale_submit), the caller's */
    int32_t R, N, G, nodes, rack_gpus, with;
    int64_t cluster_gpus, n;
    /* per job */
    uint32_t *info;
    int32_t *evict;
    /* tend: the end of a running or done job; the remaining work (ms) of
     * an evicted one waiting (a fresh one's is its duration) */
    int64_t *tend;
    int64_t *held; /* seconds held over every segment so far */
    int64_t *first;  /* TTS_WITH_JOBS, else NULL */
    int32_t *starts; /* TTS_WITH_JOBS: 3 per job, else NULL */
    /* per running job, by slot: heap position, the aging list (slots of
     * running jobs not yet evictable, by start), start, remaining work */
    int32_t *heap_pos, *age_prev, *age_next;
    int64_t *t0, *run_w;
    int32_t age_head, age_tail;
    /* per class and level (1, 2): the effective slowdown under congestion */
    int64_t *slow_tab;
    /* fresh-job tree (sim_step_queue.h): TTS_TREE_B children a node; the
     * leaves are a byte per rank, the class of the fresh job waiting there
     * (TTS_LEAF_NONE: none), its GPUs the trace's; level h >= 1 starts at
     * tree + tree_off[h], tree_top is the root's level */
    uint8_t *leaf;
    int32_t *tree;
    int64_t *tree_off;
    int32_t tree_top;
    /* evicted waiting jobs (srtf, las; TTS_WITH_VICT); those evicted in the
     * running pass wait apart until it ends (every order) */
    int32_t *vict, *pend;
    int64_t nvict, npend, vcnt[TTS_NCLASS]; /* vcnt[c]: class c's segment */
    /* running jobs: heap on (end, index) */
    tts_hent *heap;
    int64_t nheap;
    /* nodes and racks */
    int32_t *freeg, *nocc, *occ; /* occ: G entry ids per node */
    /* the nodes by free count: bit x of lvl[f * words ...] when node x has
     * f free GPUs, so placements find a node by level, not by a scan */
    uint64_t *lvl;
    /* the same by free + evictable GPUs (ev): evl, for the preemption
     * search, which looks only at nodes where eviction frees enough */
    uint64_t *evl;
    int32_t words;
    int32_t *ev, *nonev;         /* free + evictable GPUs; occupants not evictable */
    /* largest k whose L0 fits now (rack_l0) or after evictions (rack_pc),
     * kept as nodes change (sim_step_cluster.h), not worked out from the
     * nodes: per rack, nodes by free GPUs (rack_nfree, G + 1 a rack), nodes
     * whose occupants are all evictable (rack_clear), the other nodes by
     * free + evictable GPUs (rack_nev, G + 1 a rack), the most free GPUs
     * below G a node has (rack_part) and the most free + evictable GPUs a
     * node not clearable has (rack_cpart) */
    int32_t *rack_free, *rack_l0, *rack_pc, *rack_clear, *rack_part, *rack_cpart;
    int32_t *rack_nfree, *rack_nev;
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
    /* under fifo when no timer is 0 (arr_direct), the jobs that arrive at
     * a step, ranks arr_lo .. arr_hi - 1, wait outside the tree through
     * its first pass (sim_step_pass.h, tts_arrival_first) */
    int32_t arr_direct;
    int64_t arr_lo, arr_hi;
    /* totals */
    int64_t used, comm_milli, restart_gs, preempt, placed[3];
    int64_t waiting, running, busy, running_level[3];
    tts_seglog *log; /* NULL: no log */
    /* dlas and gittins (TTS_WITH_MLFQ; sim_step_order.h): per job its
     * queue, the time it entered it, its GPU-seconds held at its last
     * promotion, P (seconds waited after its first start since then: the
     * count while it runs, the time P would be 0 while it waits), its
     * next demotion or promotion time and its slot in the heap of those,
     * and a link in the list of promotions due at the next event */
    int32_t *mq, *mlink, *mheap, *mheap_pos;
    int64_t *qent, *aq0, *pp, *nxt;
    /* with elasticity too: the seconds held at the last promotion (E is
     * no longer a_q / gpus when the size changes), else NULL */
    int64_t *mh0;
    int64_t nmheap;
    int32_t due_head;
    /* per queue, the GPUs of running jobs priority preemption may evict
     * (aged, under max_preempt); victim_q: which eviction rule the victim
     * searches apply, -1 for SPEC 6's, q for a priority eviction by a
     * waiter of queue q */
    int64_t pe[TTS_MAX_QUEUES];
    int32_t victim_q;
    /* the fewest GPUs step 7's L0 victim search failed for (a waiter of
     * queue 0) since a job last started or ended: the search fails for
     * every larger request too until one does */
    int32_t l0fail;
    int64_t *fkey; /* ftf (TTS_WITH_FTF): the key F of each job */
    /* every order, for the fairness metrics (SPEC 11.6): A at submit' of
     * each job, and once it ends, its rho (permille; -1: none); area is A
     * up to area_t */
    int64_t *asub;
    int64_t area, area_t;
    int64_t demotions, promotions, preempt_prio;
    /* elasticity (sim_step_elastic.h), TTS_WITH_ELASTIC, else NULL; on
     * when the state has them and the configuration has el_up or
     * el_down. Per job: el_k (size, the level its timers allowed at its
     * last start, the elastic and touched bits: TTS_E_*), the last resize
     * (TTS_NONE: never) and the restart kind's part of the current
     * segment's overhead. Per node: loaned GPUs. The event's log of the
     * running jobs a shrink or grow touched: 6 int32 a job (job, size and
     * level before, started at t, offset and count of its (node, GPUs)
     * pairs before t in el_lp). */
    int32_t elastic;
    int32_t *el_k, *el_rk, *loan, *el_lj, *el_lp, *el_key, *el_rmark;
    int64_t *el_last;
    /* GPU-seconds held over finished segments at their real sizes (las's
     * key, a job's gpu_s; SPEC 10.5), with the evicted jobs' array (the
     * orders whose keys move) or per-job results, else NULL */
    int64_t *el_gs;
    /* the running elastic jobs below their largest size (the grow phase's
     * and the resize_gap ends' only candidates), in no order: el_gl, and
     * by a job's first allocation entry its place there (-1: none) */
    int32_t *el_gl, *el_gpos;
    int32_t el_ngl;
    int64_t total_loan, nlj, nlp;
    int64_t resizes, grows, shrinks, resize_gs, loan_gs, comm_rem;
    /* the grow phase's skip (10.4's rule): the free GPUs and starts when
     * it last ran whole (el_gfree < 0: it did not), whether a resize_gap
     * ends at the event, and a lower bound on the next end of one */
    int64_t el_gfree, el_gstarts, el_gapnow, el_gaplb;
    /* workflows (sim_step_wf.h), NULL unless the trace has tasks
     * (tts_wf_layout): per task its parents not yet ended, its home node
     * and its ready time; the tasks in the order they became ready (rl,
     * nrl of them: their timers cross in that order, as plain jobs' do in
     * index order) and per timer group two cursors into it (rcur); per
     * workflow its last end (TTS_NONE before, TTS_INF: rejected). rl_lo:
     * where the tasks readied at the event being processed begin in rl.
     * arr_hint: no arrival event below it (tasks waiting for parents are
     * none). */
    int32_t *t_left, *t_home, *rl;
    /* TTS_WITH_OVH, else NULL: per job the load (ov_l) and transfer (ov_x)
     * parts of the current segment's overhead still unpaid at its start or
     * last resize (the restart part is R, or el_rk with elasticity) */
    int32_t *ov_l, *ov_x;
    /* the model cache (sim_step_cache.h), TTS_WITH_CACHE, else NULL; on
     * (cache) when gpu_mem > 0. Per node its free GPUs (a mask), per
     * allocation entry its GPUs; per GPU cf->cache_slots models (id and
     * last use; GPU g's from g x cf->cache_slots) and the MiB they take; per model id the waiting jobs that
     * need it (under demand); the recency clock. With elasticity too,
     * el_lm: the GPU mask of each of el_lp's pairs (10.3's "same GPUs") */
    uint64_t *c_free, *ent_mask, *el_lm;
    int32_t *c_id, *c_use, *c_mb, *c_need;
    int64_t c_clock;
    int32_t cache;
    /* TTS_WITH_LXCNT, else NULL: node x's free GPUs holding model m at
     * c_wfree[x * c_nm + m] (c_nm: the model ids), kept (c_lx) in the runs
     * that place by L, so a node's L is one look (12.9) */
    uint8_t *c_wfree;
    int32_t c_nm, c_lx;
    int64_t *t_ready, *wf_end, *rcur;
    int64_t nrl, rl_lo, arr_hint, wf_rej;
    /* the warm wait's cursors (12.4): plain jobs by index, tasks in rl;
     * TTS_WITH_WARM, else NULL: the evicted jobs in their warm wait, in
     * eviction order (a list: wv_prev, wv_next, head and tail), and each
     * one's eviction time (TTS_NONE: none in the list) */
    int64_t wcur, wrcur;
    int64_t *wv_t;
    int32_t *wv_prev, *wv_next;
    int32_t wv_head, wv_tail;
    /* SPEC 12.8's counts of the cache and transfers */
    int64_t starts_all, starts_hit, loads, model_evicts, load_gs, xfer_gs;
} tts_state;

/* The running jobs' bound, min(jobs, GPUs): every running job holds a GPU
 * (sim_step_layout.h sizes its arrays by it). */
TTS_FN int64_t tts_run_cap(const tts_state *S)
{
    return S->n < S->cluster_gpus ? S->n : S->cluster_gpus;
}

/* ---- the word of a job ---- */

TTS_FN uint32_t tts_field(const tts_state *S, int64_t i, int shift, uint32_t mask)
{
    return S->info[i] >> shift & mask;
}

TTS_FN void tts_put(tts_state *S, int64_t i, int shift, uint32_t mask, uint32_t v)
{
    S->info[i] = (S->info[i] & ~(mask << shift)) | (v & mask) << shift;
}

TTS_FN int32_t tts_st(const tts_state *S, int64_t i)
{
    return (int32_t)tts_field(S, i, TTS_I_STATE, 7);
}

TTS_FN void tts_set_st(tts_state *S, int64_t i, int32_t st)
{
    tts_put(S, i, TTS_I_STATE, 7, (uint32_t)st);
}

TTS_FN int32_t tts_flags(const tts_state *S, int64_t i)
{
    return (int32_t)tts_field(S, i, TTS_I_FLAGS, 7);
}

TTS_FN void tts_set_flags(tts_state *S, int64_t i, int32_t f)
{
    tts_put(S, i, TTS_I_FLAGS, 7, (uint32_t)f);
}

/* The level of job i's last placement, -1 before its first. */
TTS_FN int32_t tts_level(const tts_state *S, int64_t i)
{
    return (int32_t)tts_field(S, i, TTS_I_LEVEL, 3) - 1;
}

TTS_FN void tts_set_level(tts_state *S, int64_t i, int32_t l)
{
    tts_put(S, i, TTS_I_LEVEL, 3, (uint32_t)(l + 1));
}

/* The class job i runs as (tts_job_class, drawn once by tts_init). */
TTS_FN int32_t tts_cls(const tts_state *S, int64_t i)
{
    return (int32_t)tts_field(S, i, TTS_I_CLASS, 63);
}

/* The slot of running job i: its first allocation entry; -1 when it holds
 * none. */
TTS_FN int32_t tts_slot(const tts_state *S, int64_t i)
{
    uint32_t s = tts_field(S, i, TTS_I_SLOT, TTS_NO_SLOT);
    return s == TTS_NO_SLOT ? -1 : (int32_t)s;
}

TTS_FN void tts_set_slot(tts_state *S, int64_t i, int32_t s)
{
    tts_put(S, i, TTS_I_SLOT, TTS_NO_SLOT, s < 0 ? TTS_NO_SLOT : (uint32_t)s);
}

/* Whether running job i is on the aging list (has not aged min_run yet,
 * and may be evicted once it has). */
TTS_FN int tts_aging(const tts_state *S, int64_t i) { return (int)tts_field(S, i, TTS_I_AGING, 1); }

TTS_FN void tts_set_aging(tts_state *S, int64_t i, int on)
{
    tts_put(S, i, TTS_I_AGING, 1, (uint32_t)(on != 0));
}

/* An allocation entry's GPUs; the loan flag (SPEC 10.3) is a bit
 * of ent_gpus, never set without elasticity. */
#define TTS_LOAN_BIT 0x40000000

TTS_FN int32_t tts_eg(const tts_state *S, int32_t e) { return S->ent_gpus[e] & ~TTS_LOAN_BIT; }

TTS_FN int tts_eloan(const tts_state *S, int32_t e) { return (S->ent_gpus[e] & TTS_LOAN_BIT) != 0; }

/* el_k of a job: its size, the level its timers allowed at its last start,
 * elastic, touched by a shrink or grow at the event being processed, and
 * its doublings and halvings (kmax = k0 << up, kmin = k0 >> down; worked
 * out once, tts_el_range asks at every event). */
#define TTS_E_SIZE 0xFFFFF
#define TTS_E_AV 20
#define TTS_E_EL 0x400000
#define TTS_E_TOUCH 0x800000
#define TTS_E_UP 24
#define TTS_E_DOWN 27
#define TTS_E_KEEP (TTS_E_EL | 0x3F000000) /* what a start keeps */
#define TTS_E_LOAD 0x40000000 /* a grow at the event loaded its model (12.3) */

/* The fewest GPUs waiting job i can start with: its trace's, or with
 * elasticity its smallest size (step 6 of 10.4 starts it there). What the
 * waiting jobs' structures hold a job under, so that a pass's thresholds
 * skip only jobs that cannot start. */
TTS_FN int32_t tts_need(const tts_state *S, int64_t i)
{
    int32_t k0 = S->tr->gpus[i];
    return S->elastic ? k0 >> (S->el_k[i] >> TTS_E_DOWN & 7) : k0;
}

/* The GPUs job i holds now (its trace's, without elasticity). */
TTS_FN int32_t tts_size(const tts_state *S, int64_t i)
{
    return S->elastic ? S->el_k[i] & TTS_E_SIZE : S->tr->gpus[i];
}

/* ---- arithmetic ---- */

TTS_FN int64_t tts_ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

TTS_FN int64_t tts_sat_add(int64_t a, int64_t b)
{
    if (a == TTS_INF || b == TTS_INF || a > TTS_INF - b)
        return TTS_INF;
    return a + b;
}

/* a * b for a, b >= 0, or TTS_INF when it would pass 2^63 - 1: the
 * fairness keys and metrics saturate there rather than wrap (docs/model.md
 * section 11) */
TTS_FN int64_t tts_sat_mul(int64_t a, int64_t b)
{
    /* both below 2^31 (the usual case): the product fits, and the 64-bit
     * division of the test below, which a step and every job's end ask
     * for, is not needed */
    if ((((uint64_t)a | (uint64_t)b) >> 31) == 0)
        return a * b;
    if (a == 0 || b == 0)
        return 0;
    return a > TTS_INF / b ? TTS_INF : a * b;
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

/* 1 when job i (of class k) names a model larger than gpu_mem: a run
 * with the cache rejects it (SPEC 12.1). The trace holds the model sizes
 * (msz) only where the cache is prepared. */
TTS_FN int tts_model_too_large(const tts_trace *tr, const tts_config *cf, int64_t i, int32_t k)
{
    int32_t m = tr->mdl && tr->mdl[i] >= 0 ? tr->mdl[i] : tr->nmid + k;
    return tr->msz[m] > cf->gpu_mem;
}

/* 1 when p is no parent task i may name: not an earlier task of its
 * workflow (its workflow is rejected whole, SPEC 12.1). */
TTS_FN int tts_bad_parent(const tts_trace *tr, int64_t i, int32_t p)
{
    return p < 0 || p >= i || tr->wfi[p] != tr->wfi[i];
}

TTS_FN int64_t tts_slow_eff(int64_t s, int64_t c) { return 1000 + (s - 1000) * 1000 / (1000 - c); }

/* The effective slowdown of job i at level (permille): per class and
 * level worked out once by tts_init. */
TTS_FN int64_t tts_level_slow(const tts_state *S, int64_t i, int32_t level)
{
    return level == 0 ? 1000 : S->slow_tab[2 * tts_cls(S, i) + level - 1];
}

TTS_FN int tts_sensitive(const tts_state *S, int64_t i) { return tts_flags(S, i) & TTS_F_SENS; }

/* submit' = s0 + (submit - s0) * 1000 / load (tts_scale_submit), worked
 * out once per load value: the queue order and the event loop ask for it
 * often. A fresh job queues at its submit', so it is also when it began
 * to wait. */
TTS_FN int64_t tts_submit(const tts_state *S, int64_t i)
{
    if (S->t_ready) { /* a task's ready time stands for it (12.1) */
        int32_t k = S->tr->tsk[i];
        if (k >= 0)
            return S->t_ready[k];
    }
    return S->sub[i];
}

/* The remaining work of waiting job i (ms): a fresh job's whole duration,
 * an evicted one's what it had left. */
TTS_FN int64_t tts_work(const tts_state *S, int64_t i)
{
    return tts_st(S, i) == TTS_WAITV ? S->tend[i] : S->tr->duration[i] * 1000;
}

/* The timers of class c (or of timer group c). */
TTS_FN int64_t tts_w0(const tts_state *S, int32_t c)
{
    return S->cf->class_timers ? S->cf->w0c[c] : S->cf->w0;
}

TTS_FN int64_t tts_w1(const tts_state *S, int32_t c)
{
    return S->cf->class_timers ? S->cf->w1c[c] : S->cf->w1;
}

/* The level the timers allow waiting job i at t. */
TTS_FN int32_t tts_allowed(const tts_state *S, int64_t i, int64_t t)
{
    if (tts_st(S, i) == TTS_WAITV || S->tr->gpus[i] > S->rack_gpus)
        return 2;
    int32_t c = tts_cls(S, i);
    int64_t wait = t - tts_submit(S, i), w0 = tts_w0(S, c), w1 = tts_w1(S, c);
    if (w0 == TTS_INF || wait < w0)
        return 0;
    if (w1 == TTS_INF || wait - w0 < w1)
        return 1;
    return 2;
}

TTS_FN int tts_waited(const tts_state *S, int64_t i, int64_t t)
{
    int64_t w0 = tts_w0(S, tts_cls(S, i));
    return tts_st(S, i) == TTS_WAITV || (w0 != TTS_INF && t - tts_submit(S, i) >= w0);
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

/* submit' of job i of tr under load (permille); at load 1000, its submit. */
TTS_FN int64_t tts_scaled_submit(const tts_trace *tr, int64_t load, int64_t i)
{
    return tr->submit[0] + (tr->submit[i] - tr->submit[0]) * 1000 / load;
}

/* submit' of every job of tr under load into sub: the array every
 * configuration of that load shares. */
TTS_FN void tts_scale_submit(const tts_trace *tr, int64_t load, int64_t *sub)
{
    for (int64_t i = 0; i < tr->n; i++)
        sub[i] = tts_scaled_submit(tr, load, i);
}

#endif
