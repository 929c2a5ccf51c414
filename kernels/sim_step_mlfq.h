/* sim_step_mlfq.h: the fifth part of the simulation step (sim_step.h):
 * what moves jobs between the queues of dlas and gittins (SPEC 11.1).
 * Demotions of running jobs and promotions of waiting ones, as events
 * from the heap of sim_step_order.h; the GPUs priority preemption may
 * take, kept per queue as jobs start, age, change queue and end, so a pass
 * skips a waiter that no eviction could start; and the victims of a
 * priority eviction. After sim_step_cluster.h; sim_step_pass.h comes next
 * and calls these at a job's start and end and at each event. */
#ifndef TT_SIM_STEP_MLFQ_H
#define TT_SIM_STEP_MLFQ_H

#include "sim_step_cluster.h"

/* ---- the GPUs priority preemption may take ---- */

/* Whether running job i's GPUs count in pe[its queue]: it may be evicted by
 * priority (under max_preempt) and has aged min_run. */
TTS_FN int tts_pe_counted(const tts_state *S, int64_t i)
{
    return tts_prio_on(S) && tts_st(S, i) == TTS_RUN && S->evict[i] < S->cf->max_preempt &&
           !tts_aging(S, i);
}

TTS_FN void tts_pe_add(tts_state *S, int64_t i, int64_t sign)
{
    S->pe[S->mq[i]] += sign * tts_size(S, i);
}

/* prio_victims=refill: running job v entered queue q now (demoted now),
 * so it is behind the waiters of q, and may be evicted by priority. */
TTS_FN int tts_refill_same(const tts_state *S, int64_t v, int32_t q)
{
    return S->cf->prio_refill && S->mq[v] == q && S->qent[v] == S->now &&
           S->evict[v] < S->cf->max_preempt && !tts_aging(S, v);
}

/* The most GPUs a waiter of queue q could find free after priority
 * evictions: what is free, and what the running jobs of higher queues
 * that may be evicted hold; under refill also those of q that entered it
 * now (a scan of the running jobs, under that option only). */
TTS_FN int64_t tts_prio_bound(const tts_state *S, int32_t q)
{
    int64_t b = S->total_free;
    for (int32_t x = q + 1; x < S->cf->nq; x++)
        b += S->pe[x];
    for (int64_t h = 0; S->cf->prio_refill && h < S->nheap; h++)
        if (tts_refill_same(S, S->heap[h].job, q))
            b += tts_size(S, S->heap[h].job);
    return b;
}

/* ---- demotions and promotions ---- */

/* Running job i's next demotion, from t (its start, last resize or last
 * queue change): t + ceil((theta_(q+1) - a_q(t)) / gpus), gpus its size
 * from t; none in the last queue. */
TTS_FN void tts_mlfq_arm(tts_state *S, int32_t i, int64_t t)
{
    int32_t q = S->mq[i];
    if (q >= S->cf->nq - 1) {
        tts_mheap_remove(S, i);
        return;
    }
    int64_t left = S->cf->mlfq[q] - tts_mlfq_aq(S, i, t);
    tts_mheap_set(S, i, t + tts_ceil_div(left, tts_size(S, i)));
}

/* Job i leaves the queue at t to start: P stops growing (a fresh job's is
 * 0), and a pending promotion goes. */
TTS_FN void tts_mlfq_leave(tts_state *S, int32_t i, int64_t t)
{
    if (tts_st(S, i) == TTS_WAITV)
        S->pp[i] = t - S->pp[i];
    tts_mheap_remove(S, i);
}

/* The first time evicted job i, waiting, may be promoted: when 1000 P >=
 * promote E, with P = t - pp while it waits; TTS_INF when it may not
 * (promote = 0, queue 0, E = 0, or beyond any time). */
TTS_FN int64_t tts_mlfq_promote_at(const tts_state *S, int32_t i)
{
    int64_t e = tts_mlfq_e(S, i, S->now), pr = S->cf->promote;
    if (pr == 0 || S->mq[i] == 0 || e == 0)
        return TTS_INF;
    int64_t need = tts_sat_mul(pr, e);
    return need == TTS_INF ? TTS_INF : S->pp[i] + tts_ceil_div(need, 1000);
}

/* Job i, evicted at t, waits: P grows from its count, and a job that may be
 * promoted is at that time. When that time has come already, the first
 * event after t promotes it (the due list): step 2 of t is past, and a
 * promotion at t could undo the priority eviction that made it a victim. */
TTS_FN void tts_mlfq_wait(tts_state *S, int32_t i, int64_t t)
{
    S->pp[i] = t - S->pp[i];
    int64_t at = tts_mlfq_promote_at(S, i);
    if (at == TTS_INF)
        return;
    if (at > t) {
        tts_mheap_set(S, i, at);
    } else if (S->mlink[i] == -1) {
        S->mlink[i] = S->due_head >= 0 ? S->due_head : -2;
        S->due_head = i;
    }
}

/* Running job i is demoted at t: to the queue of its a_q now (it may cross
 * several thresholds), entered at t. */
TTS_FN void tts_mlfq_demote(tts_state *S, int32_t i, int64_t t)
{
    int counted = tts_pe_counted(S, i);
    if (counted)
        tts_pe_add(S, i, -1);
    S->mq[i] = tts_mlfq_queue_of(S->cf, tts_mlfq_aq(S, i, t));
    S->qent[i] = t;
    if (counted)
        tts_pe_add(S, i, 1);
    S->demotions++;
    tts_mlfq_arm(S, i, t);
}

/* Waiting job i is promoted at t: queue 0 from t, a_q = E = P = 0; it
 * moves in the sorted array to its new key. */
TTS_FN void tts_mlfq_promote(tts_state *S, int32_t i, int64_t t)
{
    tts_vict_remove(S, i);
    tts_mheap_remove(S, i);
    S->mq[i] = 0;
    S->qent[i] = t;
    S->aq0[i] = tts_held_gpu_s(S, i, t);
    if (S->elastic)
        S->mh0[i] = tts_held_s(S, i, t);
    S->pp[i] = t;
    S->promotions++;
    tts_vict_insert(S, tts_class_of(S, i, t), i);
}

/* Step 2 of event time t: the demotions and promotions due at t, then the
 * promotions due at the first event after a job's eviction. */
TTS_FN void tts_mlfq_events(tts_state *S, int64_t t)
{
    while (S->nmheap > 0 && S->nxt[S->mheap[0]] <= t) {
        int32_t j = S->mheap[0];
        if (tts_st(S, j) == TTS_RUN)
            tts_mlfq_demote(S, j, t);
        else
            tts_mlfq_promote(S, j, t);
    }
    for (int32_t j = S->due_head; j >= 0;) {
        int32_t nx = S->mlink[j];
        S->mlink[j] = -1;
        /* it may have started, or started and been evicted, since */
        if (tts_st(S, j) == TTS_WAITV && tts_mlfq_promote_at(S, j) <= t)
            tts_mlfq_promote(S, j, t);
        j = nx;
    }
    S->due_head = -1;
}

/* ---- the victims of a priority eviction ---- */

/* 1 when running job a comes before b in the order victims are taken:
 * higher queue first, then later in it, then the higher index. */
TTS_FN int tts_victim_first(const tts_state *S, int32_t a, int32_t b)
{
    if (S->mq[a] != S->mq[b])
        return S->mq[a] > S->mq[b];
    if (S->qent[a] != S->qent[b])
        return S->qent[a] > S->qent[b];
    return a > b;
}

/* Whether running job v is a candidate of the refill for waiter i: in a
 * higher queue, or in i's queue having entered it now, behind i's place. */
TTS_FN int tts_refill_cand(const tts_state *S, int32_t v, int32_t i)
{
    int32_t q = S->mq[i];
    return tts_prio_evictable(S, v, q) ||
           (tts_refill_same(S, v, q) && (S->qent[i] < S->now || v > i));
}

/* 1 when running job a comes before b in the refill's order: lower queue,
 * then earlier into the running jobs of its queue (the later of its last
 * start and its queue entry: Tiresias's lists keep running jobs in the
 * order they joined them), then place, then index. A front-coded place
 * (requeue=front, below TTS_QENT_FRONT + 2^62) is an eviction before the
 * last start. */
TTS_FN int tts_refill_first(const tts_state *S, int32_t a, int32_t b)
{
    if (S->mq[a] != S->mq[b])
        return S->mq[a] < S->mq[b];
    int64_t sa = S->t0[tts_slot(S, a)], sb = S->t0[tts_slot(S, b)];
    int64_t ja = S->qent[a] > sa ? S->qent[a] : sa, jb = S->qent[b] > sb ? S->qent[b] : sb;
    if (ja != jb)
        return ja < jb;
    if (S->qent[a] != S->qent[b])
        return S->qent[a] < S->qent[b];
    return a < b;
}

/* prio_victims=refill: Tiresias's greedy refill of the cluster. Waiter i
 * takes k GPUs off cap = (free GPUs + those of its candidates) - k; the
 * candidates, from the highest priority down (tts_refill_first), keep
 * running while their GPUs fit in what cap has left and are
 * evicted otherwise. Their GPUs and the free ones then reach k. Fills
 * vic[0..nvic) in index order; 1 found, 0 when cap < 0. */
TTS_FN int tts_prio_refill(tts_state *S, int32_t i)
{
    int64_t cap = S->total_free - S->tr->gpus[i];
    int32_t last = -1;
    S->nvic = 0;
    for (int64_t h = 0; h < S->nheap; h++)
        if (tts_refill_cand(S, S->heap[h].job, i))
            cap += tts_size(S, S->heap[h].job);
    if (cap < 0)
        return 0;
    for (;;) {
        int32_t best = -1;
        for (int64_t h = 0; h < S->nheap; h++) {
            int32_t v = S->heap[h].job;
            if (tts_refill_cand(S, v, i) && (last < 0 || tts_refill_first(S, last, v)) &&
                (best < 0 || tts_refill_first(S, v, best)))
                best = v;
        }
        if (best < 0)
            break;
        if (tts_size(S, best) <= cap) { /* current sizes (SPEC 10.5) */
            cap -= tts_size(S, best);
        } else {
            TTS_CHECK(S->nvic < S->cluster_gpus, "vic");
            S->vic[S->nvic++] = best;
        }
        last = best;
    }
    tts_vic_sort(S);
    return 1;
}

/* Waiter i, whose timers allow L2, needs k GPUs: victims from the running
 * jobs priority preemption may take for its queue, in victim order, until
 * the free GPUs and theirs reach k (or by the refill). Fills vic[0..nvic)
 * in index order; 1 found, 0 not enough. */
TTS_FN int tts_prio_victims(tts_state *S, int32_t i)
{
    if (S->cf->prio_refill)
        return tts_prio_refill(S, i);
    int64_t need = S->tr->gpus[i] - S->total_free;
    int32_t last = -1;
    S->nvic = 0;
    while (need > 0) {
        int32_t best = -1;
        for (int64_t h = 0; h < S->nheap; h++) {
            int32_t v = S->heap[h].job;
            if (tts_prio_evictable(S, v, S->mq[i]) && (last < 0 || tts_victim_first(S, last, v)) &&
                (best < 0 || tts_victim_first(S, v, best)))
                best = v;
        }
        if (best < 0)
            return 0;
        TTS_CHECK(S->nvic < S->cluster_gpus, "vic");
        S->vic[S->nvic++] = best;
        need -= tts_size(S, best); /* current sizes (SPEC 10.5) */
        last = best;
    }
    tts_vic_sort(S);
    return 1;
}

/* Waiter i, whose timers allow only L0 or L1, needs k GPUs: SPEC 6's L0
 * victim rule with the priority predicate. Fills pl and vic; 1 found. */
TTS_FN int tts_prio_victims_l0(tts_state *S, int32_t i)
{
    int32_t k = S->tr->gpus[i];
    if (k > S->rack_gpus)
        return 0;
    S->victim_q = S->mq[i];
    int ok = tts_find_preempt(S, k);
    S->victim_q = -1;
    return ok;
}

#endif
