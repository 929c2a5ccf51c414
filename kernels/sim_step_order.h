/* sim_step_order.h: the second part of the simulation step (sim_step.h):
 * the keys of the queue disciplines of SPEC 11, which every later part
 * compares by. dlas and gittins: a job's queue from the GPU-seconds it
 * held since its last promotion, the Gittins index of a distribution,
 * the order of waiting jobs (queue, then Gittins index, time in the queue,
 * index), and the heap of demotion and promotion times; ftf: the key F.
 * After sim_step_layout.h; sim_step_queue.h comes next. */
#ifndef TT_SIM_STEP_ORDER_H
#define TT_SIM_STEP_ORDER_H

#include "sim_step_layout.h"

/* dlas or gittins: queues, demotions, promotions, priority preemption. */
TTS_FN int tts_is_mlfq(const tts_state *S)
{
    return S->cf->order == TTS_ORDER_DLAS || S->cf->order == TTS_ORDER_GITTINS;
}

/* Priority preemption (SPEC 11.1, step 7) and its aging event. */
TTS_FN int tts_prio_on(const tts_state *S) { return tts_is_mlfq(S) && S->cf->prio_preempt; }

/* The start of running job i's segment: its start, or with elasticity
 * its last resize when that is later (a resize opens a segment, 10.3). */
TTS_FN int64_t tts_seg_start(const tts_state *S, int64_t i)
{
    int64_t st = S->t0[tts_slot(S, i)];
    if (S->elastic && S->el_last[i] != TTS_NONE && S->el_last[i] > st)
        st = S->el_last[i];
    return st;
}

/* Seconds job i held up to t, the running segment included. */
TTS_FN int64_t tts_held_s(const tts_state *S, int64_t i, int64_t t)
{
    return S->held[i] + (tts_st(S, i) == TTS_RUN ? t - tts_seg_start(S, i) : 0);
}

/* GPU-seconds job i held up to t, the running segment included; with
 * elasticity at the sizes it held (SPEC 10.5, as las counts them), the
 * running segment at its size. Not for a job shrunk or grown at t before
 * its resize is applied (tts_resizes): nothing asks for one then. */
TTS_FN int64_t tts_held_gpu_s(const tts_state *S, int64_t i, int64_t t)
{
    if (S->elastic) {
        int64_t h = S->el_gs[i];
        if (tts_st(S, i) == TTS_RUN)
            h += tts_size(S, i) * (t - tts_seg_start(S, i));
        return h;
    }
    return (int64_t)S->tr->gpus[i] * tts_held_s(S, i, t);
}

/* a_q at t: GPU-seconds held since the last promotion (or submit'). */
TTS_FN int64_t tts_mlfq_aq(const tts_state *S, int64_t i, int64_t t)
{
    return tts_held_gpu_s(S, i, t) - S->aq0[i];
}

/* E: seconds held since the last promotion. A job of one size has a_q /
 * gpus; an elastic one keeps its seconds held at the promotion apart. */
TTS_FN int64_t tts_mlfq_e(const tts_state *S, int64_t i, int64_t t)
{
    if (S->elastic)
        return tts_held_s(S, i, t) - S->mh0[i];
    return tts_mlfq_aq(S, i, t) / S->tr->gpus[i];
}

/* The queue of a job that held a GPU-seconds: #{theta_x <= a}. */
TTS_FN int32_t tts_mlfq_queue_of(const tts_config *cf, int64_t a)
{
    int32_t q = 0;
    while (q < cf->nq - 1 && cf->mlfq[q] <= a)
        q++;
    return q;
}

/* ---- the Gittins index (SPEC 11.2) ---- */

/* #{x_k <= v} over the sorted samples. */
TTS_FN int32_t tts_git_rank(const tts_gittins *g, int64_t v)
{
    int32_t lo = 0, hi = g->m;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (g->x[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* G(a) = c / s with c = #{a < x <= a + D} and s = the sum over x > a of
 * min(x - a, D); (0, 1) when s = 0, so that G = 0 compares as a fraction. */
TTS_FN void tts_git_index(const tts_state *S, int64_t a, int64_t *c, int64_t *s)
{
    const tts_gittins *g = &S->tr->git[S->cf->git];
    int64_t D = S->cf->gittins_delta;
    int32_t i1 = tts_git_rank(g, a), i2 = tts_git_rank(g, tts_sat_add(a, D));
    /* the samples in (a, a + D] each give x - a, those above give D */
    *c = i2 - i1;
    *s = (g->pre[i2] - g->pre[i1]) - a * (int64_t)(i2 - i1) + D * (int64_t)(g->m - i2);
    if (*s == 0) {
        *c = 0;
        *s = 1;
    }
}

/* ---- the order of waiting jobs under dlas and gittins ---- */

/* A waiting job's place: (q, Gittins index descending, qent, index). */
typedef struct {
    int32_t q;
    int64_t gc, gs; /* gittins: the index as gc / gs; dlas: 0 / 1 */
    int64_t qent, idx;
} tts_mkey;

TTS_FN void tts_mkey_make(const tts_state *S, int32_t q, int64_t a, int64_t qent, int64_t idx,
                          tts_mkey *k)
{
    k->q = q;
    k->gc = 0;
    k->gs = 1;
    if (S->cf->order == TTS_ORDER_GITTINS)
        tts_git_index(S, a, &k->gc, &k->gs);
    k->qent = qent;
    k->idx = idx;
}

/* Job i's key from its state (a waiting job, or one that started now). */
TTS_FN void tts_mkey_of(const tts_state *S, int64_t i, tts_mkey *k)
{
    tts_mkey_make(S, S->mq[i], tts_mlfq_aq(S, i, S->now), S->qent[i], i, k);
}

/* The key job i has before its first start: queue 0, nothing held, in the
 * queue since submit' (thresholds are >= 1 GPU-s, so a fresh job is in
 * queue 0). Monotone in i, so fresh jobs wait in the tree by index; a
 * task's qent is its ready time instead, so tasks wait elsewhere (12.5). */
TTS_FN void tts_mkey_fresh(const tts_state *S, int64_t i, tts_mkey *k)
{
    tts_mkey_make(S, 0, 0, S->sub[i], i, k);
}

/* 1 when a comes after b. Indexes compare exactly as c1 / s1 against
 * c2 / s2 by c1 s2 against c2 s1: c <= 1024 and s <= 1024 D <= 2^50. */
TTS_FN int tts_mkey_after(const tts_mkey *a, const tts_mkey *b)
{
    if (a->q != b->q)
        return a->q > b->q;
    int64_t l = a->gc * b->gs, r = b->gc * a->gs;
    if (l != r)
        return l < r; /* the higher index comes first */
    if (a->qent != b->qent)
        return a->qent > b->qent;
    return a->idx > b->idx;
}

/* ---- ftf (SPEC 11.3) ---- */

/* F for job i arriving at submit' when n_active accepted jobs are waiting
 * or running just after that instant's arrivals queued: submit' +
 * ceil(duration x f / 1000), f = max(1000, ceil(1000 k0 N / C)). */
TTS_FN int64_t tts_ftf_key(const tts_state *S, int64_t i, int64_t n_active)
{
    int64_t kn = tts_sat_mul(tts_sat_mul(1000, S->tr->gpus[i]), n_active);
    int64_t f = kn == TTS_INF ? TTS_INF : tts_ceil_div(kn, S->cluster_gpus);
    if (f < 1000)
        f = 1000;
    int64_t d = tts_sat_mul(S->tr->duration[i], f);
    return tts_sat_add(tts_submit(S, i), d == TTS_INF ? TTS_INF : tts_ceil_div(d, 1000));
}

/* ---- the order of waiting jobs, every order ---- */

/* The key of fifo, sjf, srtf and las for job i now (ties: lower index);
 * static while the job waits, and the same for a job that started at the
 * current time (the pass's cursor): srtf's work then is what the job
 * started with. */
TTS_FN int64_t tts_key(const tts_state *S, int64_t i)
{
    switch (S->cf->order) {
    case TTS_ORDER_SJF:
        return S->tr->duration[i];
    case TTS_ORDER_SRTF:
        return tts_st(S, i) == TTS_RUN ? S->run_w[tts_slot(S, i)] : tts_work(S, i);
    case TTS_ORDER_LAS:
        /* GPU-seconds attained, at the sizes held (SPEC 10.5) */
        return S->el_gs && S->elastic ? S->el_gs[i] : S->tr->gpus[i] * S->held[i];
    default: /* fifo: trace submit', so a task keeps its static rank (12.1) */
        return S->sub[i];
    }
}

TTS_FN int tts_after(int64_t k1, int64_t i1, int64_t k2, int64_t i2)
{
    return k1 > k2 || (k1 == k2 && i1 > i2);
}

/* 1 when waiting job a comes after waiting job b (either may have started
 * at the current time: its key is still the one it waited with). */
TTS_FN int tts_job_after(const tts_state *S, int64_t a, int64_t b)
{
    if (tts_is_mlfq(S)) {
        tts_mkey ka, kb;
        tts_mkey_of(S, a, &ka);
        tts_mkey_of(S, b, &kb);
        return tts_mkey_after(&ka, &kb);
    }
    if (S->cf->order == TTS_ORDER_FTF)
        return tts_after(S->fkey[a], a, S->fkey[b], b);
    return tts_after(tts_key(S, a), a, tts_key(S, b), b);
}

/* ---- the heap of demotion and promotion times, on (nxt, index) ---- */

TTS_FN int tts_mheap_less(const tts_state *S, int32_t a, int32_t b)
{
    return S->nxt[a] < S->nxt[b] || (S->nxt[a] == S->nxt[b] && a < b);
}

TTS_FN void tts_mheap_sift(tts_state *S, int64_t p)
{
    int32_t j = S->mheap[p];
    while (p > 0 && tts_mheap_less(S, j, S->mheap[(p - 1) / 2])) {
        S->mheap[p] = S->mheap[(p - 1) / 2];
        S->mheap_pos[S->mheap[p]] = (int32_t)p;
        p = (p - 1) / 2;
    }
    for (int64_t c = 2 * p + 1; c < S->nmheap; c = 2 * p + 1) {
        if (c + 1 < S->nmheap && tts_mheap_less(S, S->mheap[c + 1], S->mheap[c]))
            c++;
        if (!tts_mheap_less(S, S->mheap[c], j))
            break;
        S->mheap[p] = S->mheap[c];
        S->mheap_pos[S->mheap[p]] = (int32_t)p;
        p = c;
    }
    S->mheap[p] = j;
    S->mheap_pos[j] = (int32_t)p;
}

/* Job i's next demotion or promotion is at t (it holds at most one). */
TTS_FN void tts_mheap_set(tts_state *S, int32_t i, int64_t t)
{
    S->nxt[i] = t;
    if (S->mheap_pos[i] < 0) {
        TTS_CHECK(S->nmheap < S->n, "mheap");
        S->mheap[S->nmheap] = i;
        S->mheap_pos[i] = (int32_t)S->nmheap++;
    }
    tts_mheap_sift(S, S->mheap_pos[i]);
}

TTS_FN void tts_mheap_remove(tts_state *S, int32_t i)
{
    int64_t p = S->mheap_pos[i];
    if (p < 0)
        return;
    S->mheap_pos[i] = -1;
    S->nxt[i] = TTS_INF;
    if (p != --S->nmheap) {
        S->mheap[p] = S->mheap[S->nmheap];
        S->mheap_pos[S->mheap[p]] = (int32_t)p;
        tts_mheap_sift(S, p);
    }
}

#endif
