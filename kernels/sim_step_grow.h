/* sim_step_grow.h: the part of the simulation step (sim_step.h) that ends
 * an event time with elastic jobs (SPEC 10, docs/model.md section 12): the grow
 * phase, the touched allocations turned into resizes, the ends of
 * resize_gap as events, and the skip of the phase where nothing changed.
 * After sim_step_elastic.h; sim_step_pass.h comes next. */
#ifndef TT_SIM_STEP_GROW_H
#define TT_SIM_STEP_GROW_H

#include "sim_step_elastic.h"

/* ---- the grow phase (10.4) ---- */

/* Job v's grow placement for as many GPUs as it holds (10.3's order),
 * into pl; the level of the whole allocation it gives, or -1 when the
 * free GPUs are too few. */
TTS_FN int32_t tts_grow_place(tts_state *S, int32_t v)
{
    int32_t need = tts_size(S, v);
    S->pl_n = 0;
    for (int32_t r = 0; r < S->R; r++)
        S->el_rmark[r] = 0;
    for (int32_t e = tts_slot(S, v); e >= 0; e = S->ent_next[e]) {
        int32_t x = S->ent_node[e];
        S->el_rmark[x / S->N] = 1;
        if (S->mark[x])
            continue;
        S->mark[x] = 1;
        int32_t g = S->freeg[x] < need ? S->freeg[x] : need;
        if (g > 0) {
            tts_pl_add(S, x, g);
            need -= g;
        }
    }
    /* the other nodes of its racks, (free desc, node index): for each free
     * count, the racks' nodes with it in index order, off the level bits */
    for (int32_t f = S->G; f > 0 && need > 0; f--)
        for (int32_t r = 0; r < S->R && need > 0; r++) {
            int32_t hi = (r + 1) * S->N;
            if (!S->el_rmark[r] || S->rack_nfree[r * (S->G + 1) + f] == 0)
                continue;
            for (int32_t x = tts_level_next(S, f, r * S->N, hi); x >= 0 && need > 0;
                 x = tts_level_next(S, f, x + 1, hi))
                if (!S->mark[x]) {
                    int32_t g = f < need ? f : need;
                    tts_pl_add(S, x, g);
                    need -= g;
                }
        }
    for (int32_t e = tts_slot(S, v); e >= 0; e = S->ent_next[e])
        S->mark[S->ent_node[e]] = 0;
    while (need > 0) {
        int32_t best = -1;
        for (int32_t r = 0; r < S->R; r++)
            if (!S->el_rmark[r] && S->rack_free[r] > 0 &&
                (best < 0 || S->rack_free[r] > S->rack_free[best]))
                best = r;
        if (best < 0)
            return -1;
        S->el_rmark[best] = 1;
        need = tts_take_most_free(S, best, need);
    }
    return tts_alloc_level(S, v, 1);
}

/* The remaining work of running job v at t, its segment's progress
 * deducted as an eviction would. */
TTS_FN int64_t tts_el_left(const tts_state *S, int32_t v, int64_t t)
{
    int32_t k, lv;
    int64_t st, r, s, w = S->run_w[tts_slot(S, v)];
    tts_seg(S, v, &k, &lv, &st, &r, &s);
    int64_t run = t - st - r > 0 ? t - st - r : 0, done = run * 1000000 / s;
    return done > w ? 0 : w - done;
}

/* 1 when running job v started at t. */
TTS_FN int tts_started_at(const tts_state *S, int32_t v, int64_t t)
{
    return S->t0[tts_slot(S, v)] == t;
}

/* Grows job v on the placement in pl: GPUs added at or above its own size
 * are loaned. With the cache, the GPUs added load its model where they
 * lack it (12.3: its resize at the end of t then pays L). */
TTS_FN void tts_grow(tts_state *S, int32_t v, int64_t t)
{
    tts_touch(S, v, t);
    int32_t k = tts_size(S, v), loan = k >= S->tr->gpus[v];
    int any = 0;
    S->c_clock += S->cache;
    for (int32_t q = 0; q < S->pl_n; q++) {
        int32_t x = S->pl_node[q], g = S->pl_gpus[q], e = tts_ent_add(S, v, x, g, loan);
        if (S->cache)
            any |= tts_c_add(S, v, e, x, g);
    }
    if (any)
        S->el_k[v] |= TTS_E_LOAD;
    tts_el_resize_to(S, v, 2 * k);
}

/* The grow phase at t: 1, or 0 when backfill=0 kept it from running. */
TTS_FN int tts_grow_phase(tts_state *S, int64_t t)
{
    if (!S->cf->backfill && S->waiting > 0)
        return 0;
    /* a grow takes as many GPUs as the job holds, and the free GPUs only
     * fall during the phase: a job larger than them never grows at t */
    int32_t *cand = S->vic, nc = 0;
    for (int32_t h = 0; h < S->el_ngl && S->total_free > 0; h++) {
        int32_t v = S->el_gl[h], k = tts_size(S, v);
        if (k > S->total_free)
            continue;
        if ((S->el_k[v] & TTS_E_TOUCH) || tts_started_at(S, v, t) || S->el_last[v] == TTS_NONE ||
            t - S->el_last[v] >= S->cf->resize_gap) {
            TTS_CHECK(nc < S->cluster_gpus, "vic (grow candidates)");
            cand[nc++] = v;
        }
    }
    int64_t C = S->cf->resize_term ? S->cf->restart : S->cf->resize_cost;
    for (;;) {
        int32_t best = -1;
        int64_t bscore = 0;
        for (int32_t q = 0; q < nc; q++) {
            int32_t v = cand[q], kmin, kmax, k = tts_size(S, v);
            tts_el_range(S, v, &kmin, &kmax);
            /* what rules a candidate out for the rest of the phase without
             * working out its placement: the free GPUs; on one node, with
             * a_v <= 1, a rack with fewer than k free (the grow spills out
             * of it: L2), with a_v = 0 and 2k <= G, a node with fewer (it
             * spills out of the node: not L0); no gain even at L0, whose
             * slowdown is the least */
            int32_t av = (int32_t)(S->el_k[v] >> TTS_E_AV & 3), h = tts_slot(S, v);
            int32_t x = S->ent_node[h];
            int out = k >= kmax || S->total_free < k ||
                      (av <= 1 && S->ent_next[h] < 0 &&
                       (S->rack_free[x / S->N] < k || (av == 0 && 2 * k <= S->G && S->freeg[x] < k)));
            int64_t s1 = 0, s0 = 0, w = 0;
            int paid = (S->el_k[v] & TTS_E_TOUCH) || tts_started_at(S, v, t);
            if (!out) {
                s1 = tts_slow_k(S, v, k, tts_level(S, v));
                s0 = tts_slow_k(S, v, 2 * k, 0);
                w = s0 < s1 ? tts_el_left(S, v, t) : 0;
                out = w * (s1 - s0) / 1000000 - (paid ? 0 : C) <= 0;
            }
            int32_t lv = out ? -1 : tts_grow_place(S, v);
            if (lv < 0 || lv > av) {
                cand[q--] = cand[--nc]; /* it cannot grow at t */
                continue;
            }
            int64_t s2 = tts_slow_k(S, v, 2 * k, lv);
            if (s2 >= s1)
                continue;
            int64_t g = w * (s1 - s2) / 1000000 - (paid ? 0 : C);
            if (g <= 0)
                continue;
            int64_t score = g * 1000 / k;
            if (best < 0 || score > bscore || (score == bscore && v < best)) {
                best = v;
                bscore = score;
            }
        }
        if (best < 0)
            break;
        tts_grow_place(S, best);
        tts_grow(S, best, t);
    }
    return 1;
}

/* A running job's resize_gap ends at last + resize_gap: el_gaplb stays a
 * lower bound on the next such end after now. */
TTS_FN void tts_gap_bound(tts_state *S, int64_t last)
{
    if (last == TTS_NONE || S->cf->resize_gap <= 0)
        return;
    int64_t x = tts_sat_add(last, S->cf->resize_gap);
    if (x > S->now && x < S->el_gaplb)
        S->el_gaplb = x;
}

/* ---- the end of an event time: touched allocations become resizes ---- */

TTS_FN void tts_resizes(tts_state *S, int64_t t)
{
    for (int64_t q = 0; q < S->nlj; q++) {
        const int32_t *rec = S->el_lj + TTS_LJ * q;
        int32_t v = rec[0];
        if (v < 0)
            continue;
        int32_t k, lv, head = tts_slot(S, v), knew = tts_size(S, v), lvnew = tts_level(S, v);
        int64_t st, r, s, w = S->run_w[head];
        tts_seg(S, v, &k, &lv, &st, &r, &s);
        /* L of the GPUs its grows at t added (12.3) */
        int64_t l = S->el_k[v] & TTS_E_LOAD ? tts_c_load_time(S, v) : 0;
        S->el_k[v] &= ~(TTS_E_TOUCH | TTS_E_LOAD);
        if (rec[3]) { /* started at t: one start, at its final allocation */
            S->placed[lv]--;
            S->placed[lvnew]++;
            if (S->first) {
                S->starts[3 * (int64_t)v + lv]--;
                S->starts[3 * (int64_t)v + lvnew]++;
            }
            if (S->ov_l) { /* the load and transfer of its final allocation (12.5) */
                int64_t x = tts_xfer_held(S, v);
                r += x - S->ov_x[v];
                S->ov_x[v] = (int32_t)x;
                if (l > 0 && S->ov_l[v] == 0) { /* its start was a hit; it is not */
                    r += l;
                    S->ov_l[v] = (int32_t)l;
                    S->starts_hit--;
                }
            }
            S->tend[v] = t + r + tts_ceil_div(w * tts_slow_k(S, v, knew, lvnew), 1000000);
        } else {
            const int32_t *pairs = S->el_lp + 2 * (int64_t)rec[4];
            int32_t np = rec[5], diff = 0;
            for (int32_t p = 0; p < np; p++)
                S->mark[pairs[2 * p]] += pairs[2 * p + 1];
            for (int32_t e = head; e >= 0; e = S->ent_next[e])
                S->mark[S->ent_node[e]] -= tts_eg(S, e);
            for (int32_t p = 0; p < np; p++) {
                diff |= S->mark[pairs[2 * p]] != 0;
                S->mark[pairs[2 * p]] = 0;
            }
            for (int32_t e = head; e >= 0; e = S->ent_next[e]) {
                diff |= S->mark[S->ent_node[e]] != 0;
                S->mark[S->ent_node[e]] = 0;
            }
            if (!diff && S->cache)
                diff = tts_c_moved(S, v, pairs, S->el_lm + rec[4], np);
            if (!diff)
                continue;
            int64_t rk = S->el_rk[v];
            int64_t done = tts_account(S, v, t, 0, k, lv, st, r, rk, pairs, np);
            int64_t held = t - st, C = S->cf->resize_term ? S->cf->restart : S->cf->resize_cost;
            int64_t u = r - held > 0 ? r - held : 0;
            S->el_rk[v] = (int32_t)(rk - held > 0 ? rk - held : 0);
            S->el_last[v] = t;
            tts_gap_bound(S, t);
            S->run_w[head] = w - done;
            if (S->ov_l) { /* after what u carries of the load kind; past 2^31 - 1 s
                            * (resizes inside loads of decades) the rest counts as resize */
                int64_t lp = S->ov_l[v] + l;
                S->ov_l[v] = (int32_t)(lp < INT32_MAX ? lp : INT32_MAX);
            }
            S->tend[v] = t + C + u + l +
                         tts_ceil_div((w - done) * tts_slow_k(S, v, knew, lvnew), 1000000);
            S->resizes++;
            S->grows += knew > k;
            S->shrinks += knew < k;
            if (S->cf->resize_term) {
                S->placed[lvnew]++;
                if (S->first)
                    S->starts[3 * (int64_t)v + lvnew]++;
            }
        }
        tts_heap_remove(S, v);
        tts_heap_push(S, v);
        if (tts_is_mlfq(S) && knew != k) /* a_q grows at the new size from t */
            tts_mlfq_arm(S, v, t);
    }
    S->nlj = S->nlp = 0;
}

/* The next end of a resize_gap after now, when it is at or before best: a
 * running elastic job below its largest size may grow then. TTS_INF if
 * none. The running jobs are scanned only when the bound says one may
 * end by best; the scan makes the bound exact. */
TTS_FN int64_t tts_gap_next(tts_state *S, int64_t best)
{
    if (!S->elastic || S->cf->resize_gap <= 0 || (S->el_gaplb > S->now && S->el_gaplb > best))
        return TTS_INF;
    int64_t lb = TTS_INF;
    for (int32_t h = 0; h < S->el_ngl; h++) {
        int32_t v = S->el_gl[h];
        int64_t x = tts_sat_add(S->el_last[v], S->cf->resize_gap);
        if (S->el_last[v] != TTS_NONE && x > S->now && x < lb)
            lb = x;
    }
    S->el_gaplb = lb;
    return lb <= best ? lb : TTS_INF;
}

/* Step 6 of an event (10.4): the grow phase, then the resizes. The phase
 * is skipped where 10.4's rule allows: no GPU freed, no job started or
 * resized (the free GPUs and the starts as when it last ran whole) and no
 * resize_gap ending at t. */
TTS_FN void tts_el_event(tts_state *S, int64_t t)
{
    int64_t starts = S->placed[0] + S->placed[1] + S->placed[2];
    int whole = 0;
    if (S->el_gfree != S->total_free || S->el_gstarts != starts || S->el_gapnow ||
        S->cf->literal)
        whole = tts_grow_phase(S, t);
    else
        whole = 1; /* skipped: it would have grown nothing, as last time */
    tts_resizes(S, t);
    S->el_gfree = whole ? S->total_free : -1;
    S->el_gstarts = S->placed[0] + S->placed[1] + S->placed[2];
}

#endif
