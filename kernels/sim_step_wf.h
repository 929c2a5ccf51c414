/* sim_step_wf.h: workflows (SPEC 12.1, docs/model.md section 13) in the simulation
 * step (sim_step.h): tasks that become ready when their last parent ends,
 * whole-workflow rejection, a task's home node, and the workflows' JCTs.
 * Off (no state, no cost but a NULL test) when the trace has no task.
 * Also the input transfers of 12.3 and how a segment's overhead splits
 * into its kinds. After sim_step_cache.h; sim_step_elastic.h comes next
 * (sim_step_pass.h queues the ready tasks and runs their timers). */
#ifndef TT_SIM_STEP_WF_H
#define TT_SIM_STEP_WF_H

#include "sim_step_cache.h"

/* 1 when job i is a task some parent of which has not ended: it is no
 * arrival at its submit' (it becomes ready at its last parent's end). */
TTS_FN int tts_blocked(const tts_state *S, int64_t i)
{
    return tts_is_task(S, i) && S->t_left[S->tr->tsk[i]] > 0;
}

/* Per configuration, after the jobs' own reset: the tasks' parents left
 * and ready times (submit' until a parent ends later), and the
 * workflows rejected whole (12.1: a task larger than the cluster, or a
 * parent that is not an earlier task of its workflow), their tasks marked
 * TTS_REJECTED. */
TTS_FN void tts_wf_init(tts_state *S)
{
    S->nrl = S->rl_lo = S->arr_hint = S->wf_rej = S->wcur = S->wrcur = 0;
    S->wv_head = S->wv_tail = -1;
    for (int64_t i = 0; S->wv_t && i < S->n; i++)
        S->wv_t[i] = TTS_NONE;
    if (!S->t_ready)
        return;
    const tts_trace *tr = S->tr;
    for (int64_t w = 0; w < tr->nwf; w++)
        S->wf_end[w] = TTS_NONE;
    for (int32_t g = 0; g < 2 * TTS_MAX_CLASSES; g++)
        S->rcur[g] = 0;
    for (int64_t i = 0; i < S->n; i++) {
        int32_t k = tr->tsk[i];
        if (k < 0)
            continue;
        int32_t w = tr->wfi[i];
        int bad = tts_st(S, i) == TTS_REJECTED; /* too large, or its model (12.1) */
        for (int64_t d = tr->dep_off[i]; d < tr->dep_off[i + 1] && !bad; d++)
            bad = tts_bad_parent(tr, i, tr->deps[d]);
        if (bad && S->wf_end[w] != TTS_INF) {
            S->wf_end[w] = TTS_INF;
            S->wf_rej++;
        }
        S->t_left[k] = (int32_t)(tr->dep_off[i + 1] - tr->dep_off[i]);
        S->t_home[k] = -1;
        S->t_ready[k] = S->sub[i];
    }
    for (int64_t i = 0; i < S->n; i++)
        if (tr->tsk[i] >= 0 && S->wf_end[tr->wfi[i]] == TTS_INF)
            tts_set_st(S, i, TTS_REJECTED);
}

/* Task i completes at t (its allocation still held): its home is the
 * lowest node it holds, its workflow's last end moves to t, and each
 * child whose last parent this was becomes ready at t. A child the
 * arrival cursor has passed (its submit' is before t) goes on the ready
 * list, to be queued at step 3 of this event; one it has not reached
 * arrives through it, at max(submit', t), so the next arrival event is
 * looked for from it again. */
TTS_FN void tts_wf_complete(tts_state *S, int32_t i, int64_t t)
{
    const tts_trace *tr = S->tr;
    int32_t k = tr->tsk[i], home = S->nodes;
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
        home = S->ent_node[e] < home ? S->ent_node[e] : home;
    S->t_home[k] = home;
    S->wf_end[tr->wfi[i]] = t;
    for (int64_t d = tr->ch_off[i]; d < tr->ch_off[i + 1]; d++) {
        int32_t c = tr->ch[d], kc = tr->tsk[c];
        if (--S->t_left[kc] > 0)
            continue;
        if (c < S->next_arr) {
            S->t_ready[kc] = t;
            TTS_CHECK(S->nrl < S->tr->ntask, "rl");
            S->rl[S->nrl++] = c;
        } else if (c < S->arr_hint) {
            S->arr_hint = c;
        }
    }
}

/* ---- transfers and the kinds of an overhead (12.3) ---- */

/* X of task i on the nodes marked in S->mark: the outputs of its parents
 * homed elsewhere, ceil(MiB / xfer_bw), 0 when none. */
TTS_FN int64_t tts_xfer_marked(const tts_state *S, int32_t i)
{
    const tts_trace *tr = S->tr;
    if (!tr->out_mb || !tts_is_task(S, i))
        return 0;
    int64_t sum = 0;
    for (int64_t d = tr->dep_off[i]; d < tr->dep_off[i + 1]; d++) {
        int32_t p = tr->deps[d];
        if (tr->out_mb[p] > 0 && !S->mark[S->t_home[tr->tsk[p]]])
            sum += tr->out_mb[p];
    }
    return sum ? tts_ceil_div(sum, S->cf->xfer_bw) : 0;
}

/* X of task i on the placement in pl (a start). */
TTS_FN int64_t tts_xfer_pl(tts_state *S, int32_t i)
{
    for (int32_t q = 0; q < S->pl_n; q++)
        S->mark[S->pl_node[q]] = 1;
    int64_t x = tts_xfer_marked(S, i);
    for (int32_t q = 0; q < S->pl_n; q++)
        S->mark[S->pl_node[q]] = 0;
    return x;
}

/* X of running task i on the nodes it holds (a start that grew at once
 * pays its final allocation's, 12.5). */
TTS_FN int64_t tts_xfer_held(tts_state *S, int32_t i)
{
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
        S->mark[S->ent_node[e]] = 1;
    int64_t x = tts_xfer_marked(S, i);
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
        S->mark[S->ent_node[e]] = 0;
    return x;
}

/* The load and transfer shares (*pl, *px) of ovh, the part of overhead r
 * a segment paid, when r holds lp of load and xp of transfer: it is
 * consumed restart, resize, load, transfer (12.3), so they come last. */
TTS_FN void tts_ovh_split(int64_t r, int64_t lp, int64_t xp, int64_t ovh, int64_t *pl,
                          int64_t *px)
{
    int64_t rest = ovh - (r - lp - xp);
    rest = rest > 0 ? rest : 0;
    *pl = rest < lp ? rest : lp;
    *px = rest - *pl;
}

/* ---- placement by L + X (12.4) ---- */

/* With add, puts the outputs of task i's parents into mark by their home
 * node (MiB, within an int32: wf.c bounds their sum) and returns their
 * sum; without, clears those nodes' marks again. Only the parents'
 * nodes are touched: X on node x is then the sum less mark[x]. */
TTS_FN int64_t tts_xfer_homes(tts_state *S, int32_t i, int add)
{
    const tts_trace *tr = S->tr;
    int64_t sum = 0;
    if (!tr->out_mb || !tts_is_task(S, i))
        return 0;
    for (int64_t d = tr->dep_off[i]; d < tr->dep_off[i + 1]; d++) {
        int32_t p = tr->deps[d], h = S->t_home[tr->tsk[p]];
        if (tr->out_mb[p] > 0) {
            sum += tr->out_mb[p];
            S->mark[h] = add ? S->mark[h] + tr->out_mb[p] : 0;
        }
    }
    return sum;
}

/* One node for job i of k <= G GPUs into pl: with warm, the best fit among
 * the nodes where L + X = 0 (fewest free GPUs, then index: the warm wait);
 * else the least (L + X, free GPUs, index) (cache_place=affinity). 1 if
 * some node has k free GPUs (and, with warm, L + X = 0 there). One walk
 * over the parents and one look per node (12.9): L on x is 0 exactly when
 * x has k free GPUs holding the model (the count c_wfree keeps, or a scan
 * of x's GPUs where it is not kept), X is what the parents homed elsewhere
 * send. */
TTS_FN int tts_find_lx(tts_state *S, int32_t i, int32_t k, int warm)
{
    int64_t sum = tts_xfer_homes(S, i, 1), bw = S->cf->xfer_bw;
    int64_t xall = sum ? tts_ceil_div(sum, bw) : 0, load = 0;
    int32_t m = S->cache ? tts_model(S, i) : TTS_NO_MODEL;
    if (S->cache && tts_model_mb(S, m) >= 0)
        load = tts_c_load_time(S, i);
    else
        m = TTS_NO_MODEL; /* L is 0 on every node */
    int32_t best = -1;
    int64_t bc = 0;
    for (int32_t x = 0; x < S->nodes; x++) {
        if (S->freeg[x] < k)
            continue;
        int64_t rest = sum - S->mark[x];
        int64_t c = rest == sum ? xall : rest > 0 ? tts_ceil_div(rest, bw) : 0;
        if (m != TTS_NO_MODEL && tts_c_warm_free(S, x, m) < k)
            c += load;
        if (warm && c > 0)
            continue;
        if (best < 0 || c < bc || (c == bc && S->freeg[x] < S->freeg[best])) {
            best = x;
            bc = c;
        }
    }
    tts_xfer_homes(S, i, 0);
    if (best < 0)
        return 0;
    S->pl_n = 1;
    S->pl_node[0] = best;
    S->pl_gpus[0] = k;
    return 1;
}

/* Evicted job i waits warm from t (12.4: its wait counts from its last
 * queue entry): it joins the end of the list, where the evictions are in
 * time order, so their crossings are too. */
TTS_FN void tts_wv_push(tts_state *S, int32_t i, int64_t t)
{
    S->wv_t[i] = t;
    tts_list_push(S->wv_prev, S->wv_next, &S->wv_head, &S->wv_tail, i);
}

/* Job i's warm wait since its eviction ends: it crossed w_warm, or starts. */
TTS_FN void tts_wv_leave(tts_state *S, int32_t i)
{
    tts_list_unlink(S->wv_prev, S->wv_next, &S->wv_head, &S->wv_tail, i);
    S->wv_t[i] = TTS_NONE;
}

/* 1 while job i is in its warm wait at t: fresh, from submit' or its
 * ready time; evicted, from its eviction. */
TTS_FN int tts_warm(const tts_state *S, int32_t i, int64_t t)
{
    if (S->cf->w_warm == 0)
        return 0;
    int32_t st = tts_st(S, i);
    if (st == TTS_WAIT)
        return t - tts_submit(S, i) < S->cf->w_warm;
    return st == TTS_WAITV && S->wv_t && S->wv_t[i] != TTS_NONE && t - S->wv_t[i] < S->cf->w_warm;
}

/* The next warm-wait crossing after the cursors (plain jobs cross in
 * index order, tasks in ready-list order, evicted jobs in eviction
 * order), TTS_INF if none; with past, moves the cursors past the
 * crossings at or before t instead. */
TTS_FN int64_t tts_warm_next(tts_state *S, int64_t t, int past)
{
    int64_t w = S->cf->w_warm, best = TTS_INF;
    for (;;) {
        while (S->wcur < S->next_arr &&
               (tts_st(S, S->wcur) != TTS_WAIT || tts_is_task(S, S->wcur)))
            S->wcur++;
        if (S->wcur >= S->next_arr)
            break;
        int64_t x = tts_sat_add(S->sub[S->wcur], w);
        if (!past || x > t) {
            best = x;
            break;
        }
        S->wcur++;
    }
    for (; S->t_ready;) {
        while (S->wrcur < S->nrl && tts_st(S, S->rl[S->wrcur]) != TTS_WAIT)
            S->wrcur++;
        if (S->wrcur >= S->nrl)
            break;
        int64_t x = tts_sat_add(tts_submit(S, S->rl[S->wrcur]), w);
        if (!past || x > t) {
            best = x < best ? x : best;
            break;
        }
        S->wrcur++;
    }
    while (S->wv_t && S->wv_head >= 0) {
        int64_t x = tts_sat_add(S->wv_t[S->wv_head], w);
        if (!past || x > t) {
            best = x < best ? x : best;
            break;
        }
        tts_wv_leave(S, S->wv_head);
    }
    return best;
}

/* Sorts rl[lo .. nrl) by job index: the tasks ready at one event queue in
 * index order (the event order's step 3). Insertion sort: the tasks one
 * event readies are few. */
TTS_FN void tts_rl_sort(tts_state *S, int64_t lo)
{
    for (int64_t a = lo + 1; a < S->nrl; a++) {
        int32_t v = S->rl[a];
        int64_t b = a;
        while (b > lo && S->rl[b - 1] > v) {
            S->rl[b] = S->rl[b - 1];
            b--;
        }
        S->rl[b] = v;
    }
}

#endif
