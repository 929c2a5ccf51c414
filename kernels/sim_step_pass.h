/* sim_step_pass.h: the last part of the simulation step (sim_step.h): a
 * job's start and end (and the list that ages running jobs into
 * evictable ones), the scheduling pass (docs/model.md section 6), the
 * timers and the event loop (tts_init, tts_step). A new event goes here.
 * After sim_step_grow.h; sim_step_summary.h comes next. */
#ifndef TT_SIM_STEP_PASS_H
#define TT_SIM_STEP_PASS_H

#include "sim_step_grow.h"

/* ---- starts and ends ---- */

/* Takes slot s (a running job's) out of the aging list. */
TTS_FN void tts_age_unlink(tts_state *S, int32_t s)
{
    tts_list_unlink(S->age_prev, S->age_next, &S->age_head, &S->age_tail, s);
    tts_set_aging(S, S->ent_job[s], 0); /* a slot is its job's first entry */
}

/* Job i (running) becomes evictable: what eviction could free on its
 * nodes grows by its GPUs there. */
TTS_FN void tts_make_evictable(tts_state *S, int32_t i)
{
    tts_set_flags(S, i, tts_flags(S, i) | TTS_F_EVICT);
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e]) {
        int32_t x = S->ent_node[e];
        tts_set_ev(S, x, S->ev[x] + tts_eg(S, e), S->nonev[x] - 1);
    }
}

/* Marks evictable the running jobs that reached min_run by t; under
 * priority preemption, their GPUs join what it may take. */
TTS_FN void tts_age(tts_state *S, int64_t t)
{
    while (S->age_head >= 0 && t - S->t0[S->age_head] >= S->cf->min_run) {
        int32_t s = S->age_head, i = S->ent_job[s]; /* a slot is its job's first entry */
        tts_age_unlink(S, s);
        if (tts_flags(S, i) & TTS_F_ELIG)
            tts_make_evictable(S, i);
        if (tts_pe_counted(S, i))
            tts_pe_add(S, i, 1);
    }
}

/* Starts waiting job i at t with k GPUs on the placement in pl. */
TTS_FN void tts_start(tts_state *S, int32_t i, int64_t t, int32_t k)
{
    int32_t al = S->elastic ? tts_allowed(S, i, t) : 0;
    if (i >= S->arr_lo && i < S->arr_hi) {
        /* arrived at this step: not in the tree */
    } else if (tts_st(S, i) == TTS_WAIT ? tts_fresh_in_tree(S, i) : tts_victims_in_tree(S)) {
        tts_tree_set(S, i, -1, 0);
    } else {
        tts_vict_remove(S, i);
    }
    if (tts_is_mlfq(S))
        tts_mlfq_leave(S, i, t);
    if (S->wv_t && S->wv_t[i] != TTS_NONE) /* in its warm wait since an eviction */
        tts_wv_leave(S, i);
    int64_t w = tts_work(S, i);
    /* elig: SPEC 6 may evict it; pelig: priority preemption may */
    int elig = !tts_sensitive(S, i) && S->evict[i] < S->cf->max_preempt;
    int pelig = tts_prio_on(S) && S->evict[i] < S->cf->max_preempt;
    int now_ev = elig && S->cf->min_run == 0;
    /* on the aging list until min_run: to become evictable, and under
     * priority preemption every running job, since SPEC 11.1 makes its
     * min_run anniversary an event even with no eviction left (a due
     * promotion waits for the next event, docs/model.md 11 item 3) */
    int aging = (elig || pelig || tts_prio_on(S)) && S->cf->min_run > 0;
    tts_set_flags(S, i, (tts_flags(S, i) & TTS_F_SENS) | (elig ? TTS_F_ELIG : 0) |
                            (now_ev ? TTS_F_EVICT : 0));
    tts_set_aging(S, i, aging);
    if (S->elastic)
        tts_pl_sort(S); /* entries in node order (10.3) */
    int32_t head = -1, tail = -1;
    for (int32_t q = 0; q < S->pl_n; q++) {
        int32_t x = S->pl_node[q], e = S->ent_free;
        TTS_CHECK(e >= 0, "ent (free entries)");
        TTS_CHECK(S->nocc[x] < S->G, "occ");
        S->ent_free = S->ent_next[e];
        S->ent_job[e] = i;
        S->ent_node[e] = x;
        S->ent_gpus[e] = S->pl_gpus[q];
        S->ent_next[e] = -1;
        if (tail >= 0)
            S->ent_next[tail] = e;
        else
            head = e;
        tail = e;
        S->occ[x * S->G + S->nocc[x]++] = e;
        tts_set_free(S, x, S->freeg[x] - S->pl_gpus[q]);
        if (!now_ev)
            tts_set_ev(S, x, S->ev[x] - S->pl_gpus[q], S->nonev[x] + 1);
    }
    tts_set_slot(S, i, head);
    S->total_free -= k;
    int32_t lv = tts_classify(S, k);
    tts_set_level(S, i, lv);
    int64_t s = tts_level_slow(S, i, lv), r = S->evict[i] > 0 ? S->cf->restart : 0;
    if (S->elastic) {
        S->el_k[i] = (S->el_k[i] & TTS_E_KEEP) | k | al << TTS_E_AV;
        S->el_rk[i] = (int32_t)r;
        tts_gap_bound(S, S->el_last[i]); /* a gap from before its eviction */
        S->el_gpos[head] = -1;
        tts_gl_update(S, i, 1);
        s = tts_slow_k(S, i, k, lv);
    }
    if (S->ov_l) { /* the load and transfer parts (12.3) */
        int64_t x = tts_xfer_pl(S, i), l = S->cache ? tts_c_start(S, i, head) : 0;
        S->ov_l[i] = (int32_t)l;
        S->ov_x[i] = (int32_t)x;
        r += l + x;
    }
    S->t0[head] = t;
    S->run_w[head] = w;
    if (aging) /* ages in start order: append */
        tts_list_push(S->age_prev, S->age_next, &S->age_head, &S->age_tail, head);
    S->tend[i] = t + r + tts_ceil_div(w * s, 1000000);
    if (S->first) {
        if (S->first[i] == TTS_NONE)
            S->first[i] = t;
        S->starts[3 * (int64_t)i + lv]++;
    }
    S->placed[lv]++;
    tts_set_st(S, i, TTS_RUN);
    tts_heap_push(S, i);
    S->waiting--;
    S->running++;
    S->busy += k;
    S->running_level[lv]++;
    S->l0fail = TTS_BIG;
    if (tts_is_mlfq(S)) {
        tts_mlfq_arm(S, i, t);
        if (tts_pe_counted(S, i))
            tts_pe_add(S, i, 1);
    }
}

/* rho of job i ending at t (SPEC 11.6; permille), or -1 for a job of
 * duration 0: N_bar = (A(end) - A(submit')) x 1000 / JCT, f_bar =
 * max(1000, k0 x N_bar / C), rho = JCT x 10^6 / (duration x f_bar). */
TTS_FN int64_t tts_rho(const tts_state *S, int64_t i, int64_t t)
{
    int64_t jct = t - tts_submit(S, i), d = S->tr->duration[i];
    if (d <= 0 || jct <= 0)
        return -1;
    int64_t nbar = tts_sat_mul(S->area - S->asub[i], 1000) / jct;
    int64_t fbar = tts_sat_mul(S->tr->gpus[i], nbar) / S->cluster_gpus;
    if (fbar < 1000)
        fbar = 1000;
    return tts_sat_mul(jct, 1000000) / tts_sat_mul(d, fbar);
}

/* Ends job i's segment at t: completed, or evicted back to the queue (into
 * the pending list: it waits for the next pass). */
TTS_FN void tts_end(tts_state *S, int32_t i, int64_t t, int completed)
{
    if (completed && tts_is_task(S, i))
        tts_wf_complete(S, i, t);
    int32_t head = tts_slot(S, i), lv = tts_level(S, i), ks, lvs;
    int64_t k = tts_size(S, i), w = S->run_w[head], st, r, slow, done;
    tts_seg(S, i, &ks, &lvs, &st, &r, &slow);
    if (S->elastic && (S->el_k[i] & TTS_E_TOUCH)) { /* shrunk or grown at t: its allocation before */
        int32_t *rec = S->el_lj + TTS_LJ * tts_log_find(S, i);
        done = tts_account(S, i, t, completed, ks, lvs, st, r, S->el_rk[i],
                           S->el_lp + 2 * (int64_t)rec[4], rec[5]);
        rec[0] = -1;
        S->el_k[i] &= ~(TTS_E_TOUCH | TTS_E_LOAD);
    } else {
        done = tts_account(S, i, t, completed, ks, lvs, st, r, S->elastic ? S->el_rk[i] : r,
                           0, 0);
    }
    if (tts_is_mlfq(S)) {
        if (tts_pe_counted(S, i))
            tts_pe_add(S, i, -1);
        tts_mheap_remove(S, i);
    }
    int32_t fl = tts_flags(S, i);
    int was_ev = fl & TTS_F_EVICT;
    if (tts_aging(S, i))
        tts_age_unlink(S, head);
    tts_set_flags(S, i, fl & TTS_F_SENS);
    if (S->elastic)
        tts_gl_update(S, i, 0);
    for (int32_t e = head; e >= 0; e = S->ent_next[e]) {
        int32_t x = S->ent_node[e];
        if (S->cache)
            tts_c_release(S, x, S->ent_mask[e]);
        if (tts_eloan(S, e)) {
            S->loan[x] -= tts_eg(S, e);
            S->total_loan -= tts_eg(S, e);
        }
        tts_set_free(S, x, S->freeg[x] + tts_eg(S, e));
        if (!was_ev)
            tts_set_ev(S, x, S->ev[x] + tts_eg(S, e), S->nonev[x] - 1);
        for (int32_t s = 0; s < S->nocc[x]; s++)
            if (S->occ[x * S->G + s] == e) {
                S->occ[x * S->G + s] = S->occ[x * S->G + --S->nocc[x]];
                break;
            }
    }
    tts_heap_remove(S, i);
    int32_t e = head;
    while (e >= 0) {
        int32_t nx = S->ent_next[e];
        S->ent_next[e] = S->ent_free;
        S->ent_free = e;
        e = nx;
    }
    tts_set_slot(S, i, -1);
    S->total_free += k;
    S->running--;
    S->busy -= k;
    S->running_level[lv]--;
    S->l0fail = TTS_BIG;
    if (completed) {
        tts_set_st(S, i, TTS_DONE);
        S->tend[i] = t;
        S->asub[i] = tts_rho(S, i, t);
    } else {
        tts_set_st(S, i, TTS_WAITV);
        S->tend[i] = w - done; /* what is left, while it waits */
        S->evict[i]++;
        S->preempt++;
        S->waiting++;
        tts_c_wait(S, i, 1);
        if (S->wv_t && S->cf->w_warm > 0) /* waits warm from now (12.4) */
            tts_wv_push(S, i, t);
        TTS_CHECK(S->npend < S->n, "pend");
        S->pend[S->npend++] = i;
        if (tts_is_mlfq(S)) {
            /* requeue=front: its place is "evicted at t", coded
             * TTS_QENT_FRONT - t in qent: ahead of every entry time (each
             * above -2^52, submit' bounds) and of every earlier eviction;
             * a job that entered its queue at t keeps its entry */
            if (S->cf->requeue_front && S->qent[i] != t)
                S->qent[i] = TTS_QENT_FRONT - t;
            tts_mlfq_wait(S, i, t);
        }
    }
}

/* ---- the pass ---- */

/* The best free placement at size k the timers' level al allows (SPEC 6
 * steps 1 and 3). */
TTS_FN int tts_find_free(tts_state *S, int32_t k, int32_t al)
{
    return (k <= S->rack_gpus && tts_find_l0(S, k)) || (al >= 1 && tts_find_l1(S, k)) ||
           (al >= 2 && tts_find_l2(S, k));
}

/* Steps 2 and 5 of SPEC 10.4 (reclaim for L0, then for L1 or
 * L2), and step 6 (start smaller): 1 if job i started. */
TTS_FN int tts_try_elastic(tts_state *S, int32_t i, int64_t t, int32_t al, int step)
{
    int32_t k = S->tr->gpus[i];
    if (step == 2) {
        if (S->total_loan == 0 || k > S->rack_gpus || !tts_rfind(S, k, 0))
            return 0;
        tts_reclaim(S, t);
        tts_start(S, i, t, k);
        return 1;
    }
    if (step == 5) {
        if (S->total_loan == 0 || al < 1 || !(tts_rfind(S, k, 1) || (al >= 2 && tts_rfind(S, k, 2))))
            return 0;
        tts_reclaim(S, t);
        if (!tts_find_free(S, k, al))
            return 0; /* cannot happen: the shrinks freed the placement found */
        tts_start(S, i, t, k);
        return 1;
    }
    int32_t kmin, kmax;
    tts_el_range(S, i, &kmin, &kmax);
    for (int32_t kk = k / 2; kk >= kmin && kk > 0; kk /= 2)
        if (tts_find_free(S, kk, al)) {
            tts_start(S, i, t, kk);
            return 1;
        }
    return 0;
}

/* Tries job i at t by the steps of docs/model.md section 6 (section 10.4
 * with elasticity). 1 if it started, 0 if not. */
TTS_FN int tts_try(tts_state *S, int32_t i, int64_t t, int32_t m0, int32_t m1, int32_t m2)
{
    int32_t k = S->tr->gpus[i], al = tts_allowed(S, i, t);
    if (tts_warm(S, i, t)) { /* the warm wait: step 1 on a warm node only (12.4) */
        if (k > S->G || !tts_find_lx(S, i, k, 1))
            return 0;
        tts_start(S, i, t, k);
        return 1;
    }
    /* 1. a free L0 placement (by L + X under cache_place=affinity) */
    if (k <= m0 && k <= S->rack_gpus &&
        (S->cf->cache_place && k <= S->G ? tts_find_lx(S, i, k, 0) : tts_find_l0(S, k))) {
        tts_start(S, i, t, k);
        return 1;
    }
    if (S->elastic && tts_try_elastic(S, i, t, al, 2))
        return 1;
    /* 2. sensitive and waited W0: evict to open L0 */
    if (k <= S->rack_gpus && tts_sensitive(S, i) && tts_waited(S, i, t) &&
        tts_preempt_max(S) >= k && tts_find_preempt(S, k)) {
        for (int32_t v = 0; v < S->nvic; v++)
            tts_end(S, S->vic[v], t, 0);
        tts_start(S, i, t, k);
        return 1;
    }
    /* 3. the best level the timers allow */
    if (al >= 1 && k <= m1 && tts_find_l1(S, k)) {
        tts_start(S, i, t, k);
        return 1;
    }
    if (al >= 2 && k <= m2 && tts_find_l2(S, k)) {
        tts_start(S, i, t, k);
        return 1;
    }
    /* 5 and 6 of 10.4: reclaim for L1 or L2, start smaller */
    if (S->elastic && (tts_try_elastic(S, i, t, al, 5) ||
                       (tts_is_el(S, i) && tts_try_elastic(S, i, t, al, 6))))
        return 1;
    /* 7. priority preemption (dlas, gittins): victims in higher queues */
    if (!tts_prio_on(S) || k > tts_prio_bound(S, S->mq[i]))
        return 0;
    int found;
    if (al == 2) {
        found = tts_prio_victims(S, i);
    } else {
        /* SPEC 6's L0 victim rule: when it fails for k, it fails for every
         * larger request of the same queue until a job starts or ends (a
         * larger L0 shape needs what a smaller one needs) */
        int q0 = S->mq[i] == 0;
        found = (!q0 || k < S->l0fail || S->cf->literal) && tts_prio_victims_l0(S, i);
        if (!found && q0 && k < S->l0fail)
            S->l0fail = k;
    }
    if (!found)
        return 0;
    for (int32_t v = 0; v < S->nvic; v++)
        tts_end(S, S->vic[v], t, 0);
    S->preempt_prio += S->nvic;
    /* L0 (and L1): the placement the victim rule picked; L2: the best
     * level free now, which exists (the free GPUs reach k) */
    if (al == 2 && !tts_find_l0(S, k) && !tts_find_l1(S, k))
        tts_find_l2(S, k);
    tts_start(S, i, t, k);
    return 1;
}

/* The first of the jobs that arrived at t and wait outside the tree, at
 * rank >= p, that passes thr for its class, or -1. Under fifo they come
 * after every rank in the tree, so the pass asks here once the tree has
 * nothing left: what starts at once costs no tree update. With no timer
 * at 0, none of them is sensitive and allowed L1 or L2 yet (C1S, C2S),
 * so the preemption threshold's test of the root still sees every such
 * job. */
TTS_FN int64_t tts_arrival_first(const tts_state *S, int64_t p, const int32_t *thr, int64_t t)
{
    for (int64_t q = p > S->arr_lo ? p : S->arr_lo; q < S->arr_hi; q++)
        if (tts_st(S, q) == TTS_WAIT && tts_need(S, q) <= thr[tts_class_of(S, q, t)])
            return q;
    return -1;
}

/* One pass at t over the jobs waiting when it began. 1 if it started a
 * job. */
TTS_FN int tts_pass(tts_state *S, int64_t t)
{
    int changed = 0;
    int64_t cur = -1, p = 0; /* the job tried last; the tree's next rank */
    int need_mp = S->cf->theta != TTS_INF;
    for (;;) {
        int32_t m0, m1, m2, thr[TTS_NCLASS];
        tts_fit_max(S, &m0, &m1, &m2);
        if (!S->cf->backfill || S->cf->literal) { /* strict order, or literal: try each */
            for (int c = 0; c < TTS_NCLASS; c++)
                thr[c] = TTS_BIG - 1;
        } else {
            int32_t mp = 0;
            if (need_mp && (tts_tree_root(S, TTS_C1S) < TTS_BIG ||
                            tts_tree_root(S, TTS_C2S) < TTS_BIG || S->vcnt[TTS_C1S] > 0 ||
                            S->vcnt[TTS_C2S] > 0))
                mp = tts_preempt_max(S);
            thr[TTS_C0] = m0;
            thr[TTS_C1I] = m1;
            thr[TTS_C1S] = m1 > mp ? m1 : mp;
            thr[TTS_C2I] = m2;
            thr[TTS_C2S] = m2 > mp ? m2 : mp;
            /* with elasticity jobs wait under their smallest size, which
             * a smaller start needs free at an allowed level (the
             * thresholds above); a reclaim needs k0 placed on free +
             * loaned counts at a level the class allows */
            if (S->elastic && S->total_loan > 0) {
                int64_t r[3];
                tts_reclaim_max(S, &r[0], &r[1], &r[2]);
                for (int c = 0; c < TTS_NCLASS; c++) {
                    int64_t b = r[c == TTS_C0 ? 0 : c == TTS_C1I || c == TTS_C1S ? 1 : 2];
                    thr[c] = thr[c] > b ? thr[c] : (int32_t)(b < TTS_BIG - 1 ? b : TTS_BIG - 1);
                }
            }
        }
        /* with priority preemption, what step 7 could free for a waiter of
         * each queue: fresh jobs (the tree) are in queue 0 */
        int64_t bq[TTS_MAX_QUEUES];
        int32_t tthr[TTS_NCLASS];
        int prio = S->cf->backfill && tts_prio_on(S) && !S->cf->literal;
        for (int32_t q = 0; prio && q < S->cf->nq; q++)
            bq[q] = tts_prio_bound(S, q);
        for (int c = 0; c < TTS_NCLASS; c++) {
            /* below L2 step 7 takes the L0 victim rule: not past its failure */
            int64_t b = !prio ? 0 : c == TTS_C2I || c == TTS_C2S || bq[0] < S->l0fail ? bq[0]
                                                                                     : S->l0fail - 1;
            tthr[c] = b > thr[c] ? (b < TTS_BIG - 1 ? (int32_t)b : TTS_BIG - 1) : thr[c];
        }
        /* the next fresh candidate, and the next in the sorted array */
        int64_t fr = -1, arrived = S->arr_hi > S->arr_lo;
        if (!arrived || p < S->arr_lo) /* past arr_lo the tree has no rank */
            fr = tts_tree_first(S, p, tthr);
        if (fr < 0 && arrived)
            fr = tts_arrival_first(S, p, tthr, t);
        int64_t fj = fr < 0 ? -1 : tts_job_at(S, fr);
        int64_t vj = tts_vict_next(S, thr, prio ? bq : NULL, cur);
        int64_t j = fj >= 0 && (vj < 0 || tts_job_after(S, vj, fj)) ? fj : vj;
        if (j < 0)
            break;
        cur = j;
        int started = tts_try(S, (int32_t)j, t, m0, m1, m2);
        if (started)
            changed = 1;
        else if (!S->cf->backfill)
            break;
        p = j == fj ? fr + 1 : tts_rank_after(S, cur);
    }
    /* jobs evicted in this pass join the queue for the next one */
    for (int64_t q = 0; q < S->npend; q++) {
        int32_t j = S->pend[q];
        if (tts_victims_in_tree(S))
            tts_tree_set(S, j, TTS_C2I, tts_need(S, j));
        else
            tts_vict_insert(S, tts_class_of(S, j, t), j);
    }
    S->npend = 0;
    /* the step's arrivals still waiting join the tree for the next pass */
    for (int64_t q = S->arr_lo; q < S->arr_hi; q++)
        if (tts_st(S, q) == TTS_WAIT)
            tts_tree_set(S, q, tts_class_of(S, q, t), tts_need(S, q));
    S->arr_lo = S->arr_hi = 0;
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
    while (*c < S->next_arr && (tts_st(S, *c) != TTS_WAIT || (by_class && tts_cls(S, *c) != g) ||
                                tts_is_task(S, *c)))
        (*c)++;
    if (*c >= S->next_arr)
        return TTS_INF;
    return tts_sat_add(tts_submit(S, *c), off);
}

/* The same over the tasks, whose ready times are not in index order:
 * cursor *c walks the ready list (rl), where they are in time order. */
TTS_FN int64_t tts_rtimer_next(tts_state *S, int64_t *c, int32_t g, int64_t off)
{
    int by_class = S->cf->class_timers;
    while (*c < S->nrl && (tts_st(S, S->rl[*c]) != TTS_WAIT ||
                           (by_class && tts_cls(S, S->rl[*c]) != g)))
        (*c)++;
    if (*c >= S->nrl)
        return TTS_INF;
    return tts_sat_add(tts_submit(S, S->rl[*c]), off);
}

/* Fresh waiting job i joins the queue at t (arriving), or moves to its
 * class at t (a timer crossed). */
TTS_FN void tts_fresh_set(tts_state *S, int64_t i, int64_t t, int arriving)
{
    if (tts_fresh_in_tree(S, i)) {
        tts_tree_set(S, i, tts_class_of(S, i, t), tts_need(S, i));
        return;
    }
    if (!arriving)
        tts_vict_remove(S, (int32_t)i);
    tts_vict_insert(S, tts_class_of(S, i, t), (int32_t)i);
}

/* Re-classes the waiting fresh jobs of group g whose timer crossed at or
 * before t. */
TTS_FN void tts_timers(tts_state *S, int64_t *c, int32_t g, int64_t off, int64_t t)
{
    for (;;) {
        int64_t x = tts_timer_next(S, c, g, off);
        if (x == TTS_INF || x > t)
            return;
        tts_fresh_set(S, *c, t, 0);
        (*c)++;
    }
}

/* tts_timers over the ready tasks (tts_rtimer_next). */
TTS_FN void tts_rtimers(tts_state *S, int64_t *c, int32_t g, int64_t off, int64_t t)
{
    for (;;) {
        int64_t x = tts_rtimer_next(S, c, g, off);
        if (x == TTS_INF || x > t)
            return;
        tts_fresh_set(S, S->rl[*c], t, 0);
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
    while (S->next_arr < S->n && tts_st(S, S->next_arr) == TTS_REJECTED)
        S->next_arr++;
    int64_t h = S->next_arr;
    if (S->t_ready) { /* a task waiting for a parent is no arrival */
        h = S->arr_hint > h ? S->arr_hint : h;
        while (h < S->n && (tts_st(S, h) == TTS_REJECTED || tts_blocked(S, h)))
            h++;
        S->arr_hint = h;
    }
    if (h < S->n) {
        best = S->sub[h];
        any = 1;
    }
    if (S->nheap > 0 && (!any || S->heap[0].end < best)) {
        best = S->heap[0].end;
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
        if (!S->t_ready)
            continue;
        a = tts_rtimer_next(S, &S->rcur[2 * g], g, w0);
        b = tts_rtimer_next(S, &S->rcur[2 * g + 1], g, tts_off2(S, g));
        a = a < b ? a : b;
        if (a != TTS_INF && (!any || a < best)) {
            best = a;
            any = 1;
        }
    }
    /* dlas and gittins: demotions and promotions, and with priority
     * preemption, a running job reaching min_run (SPEC 11.1) */
    if (tts_is_mlfq(S)) {
        int64_t m = S->nmheap > 0 ? S->nxt[S->mheap[0]] : TTS_INF;
        if (tts_prio_on(S) && S->age_head >= 0) {
            int64_t a = tts_sat_add(S->t0[S->age_head], S->cf->min_run);
            m = a < m ? a : m;
        }
        if (m != TTS_INF && (!any || m < best)) {
            best = m;
            any = 1;
        }
    }
    if (S->cf->w_warm > 0) { /* a warm wait's end (12.4) */
        int64_t w = tts_warm_next(S, 0, 0);
        if (w != TTS_INF && (!any || w < best)) {
            best = w;
            any = 1;
        }
    }
    int64_t gap = tts_gap_next(S, any ? best : TTS_INF); /* the end of a resize_gap (10.4) */
    if (gap != TTS_INF && (!any || gap < best)) {
        best = gap;
        any = 1;
    }
    S->el_gapnow = gap != TTS_INF && gap == best;
    *t = best;
    return any;
}

/* Resets S for a run of tr on c under cf (S bound to a buffer of
 * tts_state_bytes), with the submit' of cf's load in sub
 * (tts_scale_submit). log may be NULL. */
TTS_FN void tts_init(tts_state *S, const tts_trace *tr, const tts_cluster *c,
                     const tts_config *cf, const int64_t *sub, tts_seglog *log)
{
    S->tr = tr;
    S->cf = cf;
    S->sub = sub;
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
    S->elastic = S->el_k && (cf->el_up > 0 || cf->el_down > 0);
    S->total_loan = S->nlj = S->nlp = 0;
    S->resizes = S->grows = S->shrinks = S->resize_gs = S->loan_gs = S->comm_rem = 0;
    S->el_gfree = -1;
    S->el_gstarts = S->el_gapnow = 0;
    S->el_gaplb = TTS_INF;
    S->el_ngl = 0;
    for (int l = 0; l < 3; l++)
        S->placed[l] = S->running_level[l] = 0;
    /* the fixed-size parts: classes (slow_tab, cur, a class in 6 bits of
     * info), queues (pe), the tree's levels (tree_off) */
    TTS_CHECK(tr->nclasses <= TTS_MAX_CLASSES, "slow_tab, cur (classes)");
    TTS_CHECK(!tts_is_mlfq(S) || cf->nq <= TTS_MAX_QUEUES, "pe (queues)");
    for (int32_t k = 0; k < tr->nclasses; k++) {
        S->slow_tab[2 * k] = tts_slow_eff(tr->slow_l1[k], cf->congestion);
        S->slow_tab[2 * k + 1] = tts_slow_eff(tr->slow_l2[k], cf->congestion);
    }
    S->cache = S->c_free && cf->gpu_mem > 0;
    for (int64_t i = 0; i < S->n; i++) {
        int32_t st = tr->gpus[i] > S->cluster_gpus ? TTS_REJECTED : TTS_FUTURE;
        int32_t k = tts_job_class(tr, cf, i);
        if (S->cache && tts_model_too_large(tr, cf, i, k))
            st = TTS_REJECTED; /* a model larger than a GPU's memory (12.1) */
        int32_t fl = cf->theta != TTS_INF && tr->slow_l2[k] >= cf->theta ? TTS_F_SENS : 0;
        /* level -1 is 0 in the word */
        S->info[i] = (uint32_t)st << TTS_I_STATE | (uint32_t)fl << TTS_I_FLAGS |
                     (uint32_t)k << TTS_I_CLASS | (uint32_t)TTS_NO_SLOT << TTS_I_SLOT;
        S->evict[i] = 0;
        S->leaf[i] = TTS_LEAF_NONE; /* a rank: every leaf */
        S->tend[i] = TTS_NONE;
        S->held[i] = 0;
        if (S->elastic) {
            S->el_k[i] = tr->gpus[i] | (tts_el_drawn(tr, cf, i) ? TTS_E_EL : 0);
            S->el_k[i] |= tts_el_chain(S, i);
            S->el_rk[i] = 0;
            S->el_last[i] = TTS_NONE;
            if (S->el_gs)
                S->el_gs[i] = 0;
        }
        if (S->first) {
            S->first[i] = TTS_NONE;
            S->starts[3 * i] = S->starts[3 * i + 1] = S->starts[3 * i + 2] = 0;
        }
        S->asub[i] = -1;
        if (S->mq) {
            S->mq[i] = 0;
            S->mlink[i] = S->mheap_pos[i] = -1;
            S->qent[i] = sub[i];
            S->aq0[i] = S->pp[i] = 0;
            if (S->mh0)
                S->mh0[i] = 0;
            S->nxt[i] = TTS_INF;
        }
    }
    S->age_head = S->age_tail = -1;
    S->nmheap = 0;
    S->due_head = S->victim_q = -1;
    S->l0fail = TTS_BIG;
    for (int q = 0; q < TTS_MAX_QUEUES; q++)
        S->pe[q] = 0;
    for (int k = 0; k < TTS_NCLASS; k++)
        S->vcnt[k] = 0;
    S->area = S->area_t = 0;
    S->demotions = S->promotions = S->preempt_prio = 0;
    int64_t tree;
    S->tree_top = tts_tree_shape(S->n, S->tree_off, &tree);
    TTS_CHECK(S->tree_top + 1 <= TTS_TREE_MAXLV, "tree_off");
    for (int64_t v = 0; v < tree; v++)
        S->tree[v] = TTS_BIG;
    S->nvict = S->npend = S->nheap = 0;
    for (int64_t w = 0; w < (int64_t)(S->G + 1) * S->words; w++)
        S->lvl[w] = S->evl[w] = 0;
    for (int32_t x = 0; x < S->nodes; x++) {
        S->freeg[x] = S->G;
        S->lvl[(int64_t)S->G * S->words + (x >> 6)] |= (uint64_t)1 << (x & 63);
        S->evl[(int64_t)S->G * S->words + (x >> 6)] |= (uint64_t)1 << (x & 63);
        S->ev[x] = S->G;
        S->nonev[x] = 0;
        S->nocc[x] = 0;
        S->mark[x] = 0;
        if (S->elastic)
            S->loan[x] = 0;
    }
    for (int32_t v = 0; v < S->R * (S->G + 1); v++)
        S->rack_nfree[v] = S->rack_nev[v] = 0;
    for (int32_t r = 0; r < S->R; r++) {
        S->rack_nfree[r * (S->G + 1) + S->G] = S->N;
        S->rack_free[r] = S->rack_l0[r] = S->rack_pc[r] = S->rack_gpus;
        S->rack_clear[r] = S->N;
        S->rack_part[r] = S->rack_cpart[r] = 0;
    }
    S->total_free = S->cluster_gpus;
    int32_t slots = S->nodes * S->G;
    for (int32_t e = 0; e < slots; e++)
        S->ent_next[e] = e + 1 < slots ? e + 1 : -1;
    S->ent_free = 0;
    S->pl_n = S->nvic = 0;
    S->now = 0;
    S->next_arr = 0;
    S->groups = cf->class_timers ? tr->nclasses : 1;
    S->arr_direct = cf->order == TTS_ORDER_FIFO;
    for (int32_t g = 0; g < S->groups; g++)
        S->arr_direct &= tts_w0(S, g) > 0;
    S->arr_lo = S->arr_hi = 0;
    for (int32_t g = 0; g < 2 * S->groups; g++)
        S->cur[g] = 0;
    S->starts_all = S->starts_hit = S->loads = S->model_evicts = S->load_gs = S->xfer_gs = 0;
    tts_c_init(S);
    tts_wf_init(S);
}

/* Fresh job i arrives at t (its submit', or a task's ready time): it
 * waits from now; nact is what ftf's key counts. */
TTS_FN void tts_arrive(tts_state *S, int64_t i, int64_t t, int64_t nact)
{
    tts_set_st(S, i, TTS_WAIT); /* at t = its submit' (t is the least event) */
    S->waiting++;
    tts_c_wait(S, i, 1);
    S->asub[i] = S->area;
    if (S->cf->order == TTS_ORDER_FTF)
        S->fkey[i] = tts_ftf_key(S, i, nact);
    if (S->mq)
        S->qent[i] = t;
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
    S->l0fail = TTS_BIG; /* aging and demotions may add victims */
    /* A, the integral of the active jobs' count, up to t (SPEC 11.6) */
    S->area = tts_sat_add(S->area, tts_sat_mul(S->waiting + S->running, t - S->area_t));
    S->area_t = t;
    while (S->nheap > 0 && S->heap[0].end <= t)
        tts_end(S, S->heap[0].job, t, 1);
    tts_age(S, t);
    if (tts_is_mlfq(S))
        tts_mlfq_events(S, t);
    /* ftf's keys count the active jobs once this instant's arrivals (and
     * the tasks the ends at t readied, rl[rl_lo .. rn)) queue */
    int64_t rn = S->nrl;
    int64_t nact = S->waiting + S->running + (rn - S->rl_lo);
    for (int64_t e = S->next_arr; S->cf->order == TTS_ORDER_FTF && e < S->n && S->sub[e] <= t;
         e++)
        nact += tts_st(S, e) != TTS_REJECTED && !tts_blocked(S, e);
    int64_t a0 = S->next_arr;
    while (S->next_arr < S->n && S->sub[S->next_arr] <= t) {
        int64_t i = S->next_arr++;
        if (tts_st(S, i) == TTS_REJECTED || tts_blocked(S, i))
            continue;
        if (tts_is_task(S, i)) { /* ready now: its submit', or its last parent's end */
            S->t_ready[S->tr->tsk[i]] = t;
            TTS_CHECK(S->nrl < S->tr->ntask, "rl");
            S->rl[S->nrl++] = (int32_t)i;
        }
        tts_arrive(S, i, t, nact);
        if (!S->arr_direct)
            tts_fresh_set(S, i, t, 1);
    }
    /* the tasks the ends at t readied, which the cursor had passed */
    for (int64_t q = S->rl_lo; q < rn; q++) {
        tts_arrive(S, S->rl[q], t, nact);
        tts_fresh_set(S, S->rl[q], t, 1);
    }
    tts_rl_sort(S, S->rl_lo);
    S->rl_lo = S->nrl;
    if (S->arr_direct) {
        S->arr_lo = a0;
        S->arr_hi = S->next_arr;
    }
    for (int32_t g = 0; g < S->groups; g++) {
        int64_t w0 = tts_w0(S, g);
        if (w0 == TTS_INF)
            continue;
        tts_timers(S, &S->cur[2 * g], g, w0, t);
        tts_timers(S, &S->cur[2 * g + 1], g, tts_off2(S, g), t);
        if (S->t_ready) {
            tts_rtimers(S, &S->rcur[2 * g], g, w0, t);
            tts_rtimers(S, &S->rcur[2 * g + 1], g, tts_off2(S, g), t);
        }
    }
    if (S->cf->w_warm > 0)
        tts_warm_next(S, t, 1); /* the crossings at t are no event again */
    while (tts_pass(S, t))
        ;
    if (S->elastic)
        tts_el_event(S, t);
    return 1;
}

#endif
