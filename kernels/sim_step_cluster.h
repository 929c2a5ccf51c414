/* sim_step_cluster.h: the fourth part of the simulation step (sim_step.h):
 * the cluster's nodes and racks (free GPUs, what eviction could free, the
 * largest request each level can take now), the placement searches of
 * levels L0, L1 and L2, and preemption (the cheapest victims that open an
 * L0 placement). A new placement or eviction rule goes here. After
 * sim_step_queue.h; sim_step_mlfq.h comes next. */
#ifndef TT_SIM_STEP_CLUSTER_H
#define TT_SIM_STEP_CLUSTER_H

#include "sim_step_queue.h"

/* ---- nodes and racks ----
 * A rack's summary follows each change of one of its nodes (tts_set_free,
 * tts_set_ev) at once: counts of its nodes by free GPUs and by free +
 * evictable GPUs, and the largest of those below G that some node has
 * (rack_part, rack_cpart). Only a node leaving that largest value can
 * lower it, and then the counts below are searched down. */

/* The largest f < from with cnt[f] > 0, or 0. */
TTS_FN int32_t tts_count_below(const int32_t *cnt, int32_t from)
{
    int32_t f = from - 1;
    while (f > 0 && cnt[f] == 0)
        f--;
    return f > 0 ? f : 0;
}

/* Node x now has g free GPUs: freeg, its level bit, its rack's counts,
 * rack_free and rack_l0 (the whole free nodes, plus the most free of the
 * others). */
TTS_FN void tts_set_free(tts_state *S, int32_t x, int32_t g)
{
    int32_t r = x / S->N, f = S->freeg[x], G = S->G;
    int32_t *nf = S->rack_nfree + r * (G + 1);
    nf[f]--;
    nf[g]++;
    if (f < G && f == S->rack_part[r] && nf[f] == 0)
        S->rack_part[r] = tts_count_below(nf, f);
    if (g < G && g > S->rack_part[r])
        S->rack_part[r] = g;
    S->rack_free[r] += g - f;
    S->rack_l0[r] = nf[G] * G + S->rack_part[r];
    uint64_t bit = (uint64_t)1 << (x & 63);
    S->lvl[(int64_t)f * S->words + (x >> 6)] &= ~bit;
    S->lvl[(int64_t)g * S->words + (x >> 6)] |= bit;
    S->freeg[x] = g;
}

/* Node x now has ev free + evictable GPUs and nonev occupants that are
 * not evictable: its rack's counts and rack_pc (the clearable nodes, plus
 * the most free + evictable of the others). */
TTS_FN void tts_set_ev(tts_state *S, int32_t x, int32_t ev, int32_t nonev)
{
    int32_t r = x / S->N, G = S->G;
    int32_t *ne = S->rack_nev + r * (G + 1);
    if (S->nonev[x] == 0) {
        S->rack_clear[r]--;
    } else {
        int32_t e = S->ev[x];
        ne[e]--;
        if (e == S->rack_cpart[r] && ne[e] == 0)
            S->rack_cpart[r] = tts_count_below(ne, e);
    }
    if (nonev == 0) {
        S->rack_clear[r]++;
    } else {
        ne[ev]++;
        if (ev > S->rack_cpart[r])
            S->rack_cpart[r] = ev;
    }
    uint64_t bit = (uint64_t)1 << (x & 63);
    S->evl[(int64_t)S->ev[x] * S->words + (x >> 6)] &= ~bit;
    S->evl[(int64_t)ev * S->words + (x >> 6)] |= bit;
    S->ev[x] = ev;
    S->nonev[x] = nonev;
    S->rack_pc[r] = S->rack_clear[r] * G + S->rack_cpart[r];
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

/* Priority preemption's victims for a waiter of queue q (SPEC 11.1):
 * running in a higher queue, evicted fewer than max_preempt times, started
 * at least min_run ago (off the aging list), sensitive or not. */
TTS_FN int tts_prio_evictable(const tts_state *S, int64_t i, int32_t q)
{
    return S->mq[i] > q && S->evict[i] < S->cf->max_preempt && !tts_aging(S, i);
}

/* Under SPEC 6's rule (victim_q < 0): running, insensitive, evicted fewer
 * than max_preempt times, and started at least min_run ago (the aging list
 * keeps the flag up to date for the time being processed). Under priority
 * preemption, its rule for a waiter of queue victim_q. */
TTS_FN int tts_evictable(const tts_state *S, int64_t i)
{
    if (S->victim_q >= 0)
        return tts_prio_evictable(S, i, S->victim_q);
    return tts_flags(S, i) & TTS_F_EVICT;
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
    TTS_CHECK(S->pl_n < S->nodes, "pl");
    S->pl_node[S->pl_n] = x;
    S->pl_gpus[S->pl_n] = g;
    S->pl_n++;
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
    /* free + evictable: what eviction could free here (SPEC 6's rule) */
    if (S->victim_q < 0 && S->ev[x] < need)
        return 0;
    /* with elasticity a job may hold two entries here (loaned and not):
     * one candidate a job, with its GPUs on the node in key */
    int32_t *key = S->elastic ? S->el_key : 0;
    for (int32_t s = 0; s < S->nocc[x]; s++) {
        int32_t e = S->occ[x * S->G + s], dup = -1;
        if (!tts_evictable(S, S->ent_job[e]))
            continue;
        for (int32_t a = 0; key && a < m && dup < 0; a++)
            if (S->ent_job[cand[a]] == S->ent_job[e])
                dup = a;
        if (dup >= 0) {
            key[dup] += tts_eg(S, e);
            continue;
        }
        TTS_CHECK(m < S->G, "tmp (a node's evictable occupants)");
        if (key)
            key[m] = tts_eg(S, e);
        cand[m++] = e;
    }
    /* insertion sort: most GPUs on the node first, then lower job index */
    for (int32_t a = 1; a < m; a++) {
        int32_t e = cand[a], b = a, ge = key ? key[a] : tts_eg(S, e);
        while (b > 0) {
            int32_t gb = key ? key[b - 1] : tts_eg(S, cand[b - 1]);
            if (!(gb < ge || (gb == ge && S->ent_job[cand[b - 1]] > S->ent_job[e])))
                break;
            cand[b] = cand[b - 1];
            if (key)
                key[b] = key[b - 1];
            b--;
        }
        cand[b] = e;
        if (key)
            key[b] = ge;
    }
    int32_t used = 0;
    while (freed < need && used < m) {
        int32_t e = cand[used];
        freed += key ? key[used] : tts_eg(S, e);
        used++;
        *cg += tts_size(S, S->ent_job[e]);
        *cn += 1;
    }
    if (freed < need)
        return 0;
    if (out)
        for (int32_t q = 0; q < used; q++) {
            TTS_CHECK(*nout < S->cluster_gpus, "vic");
            out[(*nout)++] = S->ent_job[cand[q]];
        }
    return 1;
}

/* Clearing node x: every occupant must be evictable. */
TTS_FN int tts_clear_cost(const tts_state *S, int32_t x, int64_t *cg, int64_t *cn)
{
    *cg = *cn = 0;
    if (S->victim_q < 0 && S->nonev[x] > 0) /* SPEC 6's rule: kept per node */
        return 0;
    for (int32_t s = 0; s < S->nocc[x]; s++) {
        int32_t j = S->ent_job[S->occ[x * S->G + s]], seen = 0;
        if (!tts_evictable(S, j))
            return 0;
        /* a job with two entries here (elasticity) counts once */
        for (int32_t q = 0; S->elastic && q < s && !seen; q++)
            seen = S->ent_job[S->occ[x * S->G + q]] == j;
        if (seen)
            continue;
        *cg += tts_size(S, j);
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

/* vic[0..nvic) into index order: an insertion sort, as victims are few. */
TTS_FN void tts_vic_sort(tts_state *S)
{
    for (int32_t a = 1; a < S->nvic; a++) {
        int32_t v = S->vic[a], b = a;
        while (b > 0 && S->vic[b - 1] > v) {
            S->vic[b] = S->vic[b - 1];
            b--;
        }
        S->vic[b] = v;
    }
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
        /* the nodes in index order, 64 at a time; under SPEC 6's rule (ev
         * counts its evictable GPUs) only those where eviction could free
         * k (ev >= k: most cannot), from the ev bitsets */
        for (int32_t w = 0; w < S->words; w++) {
            uint64_t can = 0;
            if (S->victim_q >= 0)
                can = S->nodes - 64 * w >= 64 ? ~(uint64_t)0
                                               : ((uint64_t)1 << (S->nodes - 64 * w)) - 1;
            else
                for (int32_t e = k; e <= S->G; e++)
                    can |= S->evl[(int64_t)e * S->words + w];
            for (; can; can &= can - 1) {
                int32_t x = w * 64 + tts_ctz64(can);
                int64_t g, c;
                /* the victims hold at least the missing GPUs, and there is
                 * one: a node whose cost cannot go below (k - free, 1)
                 * cannot win */
                if (best >= 0 && !tts_cost_less(k - S->freeg[x], 1, bg, bn))
                    continue;
                if (tts_node_cost(S, x, k, &g, &c, 0, 0) &&
                    (best < 0 || tts_cost_less(g, c, bg, bn))) {
                    best = x;
                    bg = g;
                    bn = c;
                }
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
                for (int32_t s = 0; s < S->nocc[x]; s++) {
                    TTS_CHECK(S->nvic < S->cluster_gpus, "vic");
                    S->vic[S->nvic++] = S->ent_job[S->occ[x * S->G + s]];
                }
                tts_pl_add(S, x, S->G);
            }
        tts_unmark_rack(S, best);
        if (bnode >= 0) {
            tts_node_cost(S, bnode, k % S->G, &g, &c, S->vic, &S->nvic);
            tts_pl_add(S, bnode, k % S->G);
        }
    }
    /* distinct victims in index order (a job may sit on several nodes) */
    tts_vic_sort(S);
    int32_t m = 0;
    for (int32_t a = 0; a < S->nvic; a++)
        if (m == 0 || S->vic[m - 1] != S->vic[a])
            S->vic[m++] = S->vic[a];
    S->nvic = m;
    return 1;
}

#endif
