/* Random small cases for the batch engine: a trace on a small cluster
 * with a random model table, and random parameter sets. Plain C (no test
 * framework), so the GPU benchmark checks parity on the same cases as the
 * unit tests. */
#ifndef TT_RANDCASE_H
#define TT_RANDCASE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tt/sim.h"

static inline uint64_t rc_next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline int64_t rc_pick(uint64_t *s, int64_t lo, int64_t hi) /* [lo, hi] */
{
    return lo + (int64_t)(rc_next(s) % (uint64_t)(hi - lo + 1));
}

typedef struct {
    tt_cluster c;
    tt_models *m;
    tt_sim_jobs j;
} rcase;

/* 0, or -1 when out of memory; free with rcase_free either way. */
static inline int rcase_make(uint64_t seed, int64_t n, rcase *k)
{
    uint64_t s = seed;
    static const int32_t gs[] = {1, 2, 4, 8};
    memset(k, 0, sizeof *k);
    k->c.racks = (int32_t)rc_pick(&s, 1, 3);
    k->c.nodes_per_rack = (int32_t)rc_pick(&s, 1, 4);
    k->c.gpus_per_node = gs[rc_pick(&s, 0, 3)];
    int nm = (int)rc_pick(&s, 1, 4);
    static const char *const names[] = {"m0", "m1", "m2", "m3"};
    int64_t l1[4], l2[4];
    for (int i = 0; i < nm; i++) {
        l1[i] = rc_pick(&s, 0, 2) ? rc_pick(&s, 1000, 1600) : 1000;
        l2[i] = l1[i] + rc_pick(&s, 0, 1500);
    }
    if (tt_models_create(NULL, nm, names, l1, l2, &k->m))
        return -1;
    size_t nn = (size_t)(n ? n : 1);
    k->j.n = n;
    k->j.submit = (int64_t *)calloc(nn, sizeof *k->j.submit);
    k->j.duration = (int64_t *)calloc(nn, sizeof *k->j.duration);
    k->j.gpus = (int32_t *)calloc(nn, sizeof *k->j.gpus);
    k->j.cls = (int32_t *)calloc(nn, sizeof *k->j.cls);
    if (!k->j.submit || !k->j.duration || !k->j.gpus || !k->j.cls)
        return -1;
    int64_t t = 0, cg = (int64_t)k->c.racks * k->c.nodes_per_rack * k->c.gpus_per_node;
    for (int64_t i = 0; i < n; i++) {
        t += rc_pick(&s, 0, 3) ? rc_pick(&s, 0, 400) : 0; /* ties at one instant too */
        k->j.submit[i] = t;
        k->j.duration[i] = rc_pick(&s, 0, 9) ? rc_pick(&s, 1, 3000) : rc_pick(&s, 0, 20000);
        k->j.gpus[i] = (int32_t)(rc_pick(&s, 0, 30) ? rc_pick(&s, 1, cg) : cg + 1); /* rejected */
        k->j.cls[i] = rc_pick(&s, 0, 3) ? (int32_t)rc_pick(&s, 0, nm - 1) : -1;
        k->j.unknown_models += k->j.cls[i] < 0;
    }
    return 0;
}

static inline void rcase_free(rcase *k)
{
    tt_models_free(k->m);
    free(k->j.submit);
    free(k->j.duration);
    free(k->j.gpus);
    free(k->j.cls);
    memset(k, 0, sizeof *k);
}

/* Every order; timers from none to strict, in a third of the cases per
 * class too; preemption, restarts, congestion, backfill, load and the mix
 * seed all drawn. */
static inline void rcase_params(uint64_t *s, tt_params *p)
{
    static const int64_t ws[] = {0, 1, 30, 300, 1200, 3600, TT_INF};
    static const int64_t th[] = {1000, 1200, 1500, 2000, TT_INF};
    tt_params_default(p);
    p->order = (int32_t)rc_pick(s, 0, 3);
    p->w0 = ws[rc_pick(s, 0, 6)];
    p->w1 = p->w0 == TT_INF ? TT_INF : p->w0 + rc_pick(s, 0, 1) * rc_pick(s, 0, 2000);
    p->theta = th[rc_pick(s, 0, 4)];
    p->restart = rc_pick(s, 0, 60);
    p->congestion = rc_pick(s, 0, 3) ? 0 : rc_pick(s, 0, 500);
    p->min_run = rc_pick(s, 0, 600);
    p->max_preempt = rc_pick(s, 0, 3);
    p->backfill = (int32_t)rc_pick(s, 0, 1);
    p->load = rc_pick(s, 0, 2) ? 1000 : rc_pick(s, 300, 3000);
    p->seed = (uint64_t)rc_pick(s, 1, 1000);
    if (rc_pick(s, 0, 2) == 0) /* timers of their own for some classes */
        for (int c = 0; c < 4; c++) {
            p->class_w0[c] = rc_pick(s, 0, 1) ? ws[rc_pick(s, 0, 6)] : TT_TIMER_GLOBAL;
            p->class_w1[c] = rc_pick(s, 0, 1) ? ws[rc_pick(s, 0, 6)] : TT_TIMER_GLOBAL;
        }
}

/* SPEC 11's orders and their parameters, drawn after rcase_params (so the
 * draws of the cases that do not call it stay as they were): thresholds
 * the cases' jobs cross, the knob from off to Tiresias's range, priority
 * preemption mostly on, the trace's distribution. */
static inline void rcase_orders(uint64_t *s, tt_params *p)
{
    p->order = (int32_t)rc_pick(s, TT_ORDER_DLAS, TT_ORDER_FTF);
    p->nmlfq = (int32_t)rc_pick(s, 1, 3);
    int64_t th = 0;
    for (int q = 0; q < p->nmlfq; q++)
        p->mlfq[q] = th += rc_pick(s, 1, 20000);
    p->promote = rc_pick(s, 0, 2) ? 0 : rc_pick(s, 1, 8000);
    p->prio_preempt = rc_pick(s, 0, 4) > 0;
    p->gittins_delta = rc_pick(s, 1, 20000);
}

/* ---- workflows and the model cache (SPEC 12) ---- */

enum { RC_WF_MAX = 120 };

/* A random case's workflow columns, kept by the caller until rcase_free. */
typedef struct {
    int64_t wf[RC_WF_MAX], dep_off[RC_WF_MAX + 1];
    int32_t deps[2 * RC_WF_MAX], mid[RC_WF_MAX], mem_mb[RC_WF_MAX], out_mb[RC_WF_MAX];
} wfcols;

/* rcase_make with workflow columns (n <= RC_WF_MAX): half the jobs tasks
 * of one of 4 workflows, each with up to 2 earlier tasks of its workflow
 * as parents, model ids 0 .. 5 or the class, sizes up to 600 MiB or the
 * table's, outputs up to 400 MiB. 0, or -1 (out of memory, n too large). */
static inline int rcase_make_wf(uint64_t seed, int64_t n, rcase *k, wfcols *w)
{
    if (n > RC_WF_MAX || rcase_make(seed, n, k))
        return -1;
    uint64_t s = seed * 7919;
    int64_t nd = 0;
    for (int64_t i = 0; i < n; i++) {
        w->wf[i] = rc_pick(&s, 0, 1) ? rc_pick(&s, 0, 3) : -1;
        w->dep_off[i] = nd;
        for (int64_t p = i - 1, got = 0; w->wf[i] >= 0 && p >= 0 && got < 2; p--)
            if (w->wf[p] == w->wf[i] && rc_pick(&s, 0, 2)) {
                w->deps[nd++] = (int32_t)p;
                got++;
            }
        w->mid[i] = (int32_t)rc_pick(&s, -1, 5);
        w->mem_mb[i] = (int32_t)rc_pick(&s, -1, 600);
        w->out_mb[i] = (int32_t)(rc_pick(&s, 0, 1) ? rc_pick(&s, 1, 400) : 0);
    }
    w->dep_off[n] = nd;
    k->j.wf = w->wf;
    k->j.dep_off = w->dep_off;
    k->j.deps = w->deps;
    k->j.mid = w->mid;
    k->j.mem_mb = w->mem_mb;
    k->j.out_mb = w->out_mb;
    return 0;
}

/* The cache on, its parameters drawn: memory from tight to ample, slow
 * bandwidths (loads and transfers of seconds to minutes), either eviction
 * and placement, the warm wait in half the cases. */
static inline void rcase_cache(uint64_t *s, tt_params *p)
{
    p->gpu_mem = rc_pick(s, 300, 1500);
    p->load_bw = rc_pick(s, 1, 100);
    p->xfer_bw = rc_pick(s, 1, 100);
    p->evict = (int32_t)rc_pick(s, 0, 1);
    p->cache_place = (int32_t)rc_pick(s, 0, 1);
    p->w_warm = rc_pick(s, 0, 1) ? rc_pick(s, 1, 600) : 0;
}

#endif
