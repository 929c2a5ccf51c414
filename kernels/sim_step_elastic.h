/* sim_step_elastic.h: the fourth part of the simulation step (sim_step.h):
 * elastic jobs (SPEC 10, docs/model.md section 12). A job's sizes and its speed at
 * a size, allocation entries that grow and shrink with their loan flags,
 * the reclaim searches on free + loaned GPUs, the event's log of touched
 * allocations, and what a segment adds to the totals (every segment,
 * elastic or not, ends through tts_account). Nothing here runs unless
 * S->elastic: with el_up = el_down = 0 the engine is sections 2 to 7.
 * After sim_step_wf.h; sim_step_grow.h comes next. */
#ifndef TT_SIM_STEP_ELASTIC_H
#define TT_SIM_STEP_ELASTIC_H

#include "sim_step_wf.h"

/* ---- sizes and speed (10.1, 10.2) ---- */

TTS_FN int tts_is_el(const tts_state *S, int64_t i)
{
    return S->elastic && (S->el_k[i] & TTS_E_EL);
}

/* 1 when job i of tr is elastic under cf: the trace's column, or the hash
 * on its own stream where the column is -1 or absent. */
TTS_FN int tts_el_drawn(const tts_trace *tr, const tts_config *cf, int64_t i)
{
    if (tr->elastic && tr->elastic[i] >= 0)
        return tr->elastic[i] == 1;
    return (int64_t)(tts_hash(cf->seed ^ 0xE1A5u, i) % 1000u) < cf->el_frac;
}

/* Job i's doublings above and halvings below its GPUs, in el_k's bits
 * (tts_init): none beyond the cluster or outside [gpus_min, gpus_max]; a
 * size removed ends the chain (a job moves between sizes by doubling). */
TTS_FN int32_t tts_el_chain(const tts_state *S, int64_t i)
{
    int32_t k0 = S->tr->gpus[i], up = 0, down = 0;
    if (!tts_is_el(S, i))
        return 0;
    int32_t gmin = S->tr->gmin ? S->tr->gmin[i] : -1;
    int32_t gmax = S->tr->gmax ? S->tr->gmax[i] : -1;
    for (int32_t u = 1; u <= S->cf->el_up; u++) {
        int64_t k = (int64_t)k0 << u;
        if (k > S->cluster_gpus || (gmax >= 0 && k > gmax) || (gmin >= 0 && k < gmin))
            break;
        up = u;
    }
    for (int32_t d = 1; d <= S->cf->el_down; d++) {
        int32_t k = k0 >> d;
        if ((k0 & ((1 << d) - 1)) != 0 || (gmin >= 0 && k < gmin) || (gmax >= 0 && k > gmax))
            break;
        down = d;
    }
    return up << TTS_E_UP | down << TTS_E_DOWN;
}

/* The smallest and largest sizes of job i. */
TTS_FN void tts_el_range(const tts_state *S, int64_t i, int32_t *kmin, int32_t *kmax)
{
    int32_t k0 = S->tr->gpus[i], b = S->el_k[i];
    *kmin = k0 >> (b >> TTS_E_DOWN & 7);
    *kmax = k0 << (b >> TTS_E_UP & 7);
}

/* Running job i joins or leaves the list of those below their largest
 * size, as its size now says (its first entry is fixed while it runs: a
 * shrink releases loaned entries only). */
TTS_FN void tts_gl_update(tts_state *S, int32_t i, int running)
{
    int32_t h = tts_slot(S, i), kmin, kmax, p = S->el_gpos[h];
    tts_el_range(S, i, &kmin, &kmax);
    int in = running && tts_is_el(S, i) && tts_size(S, i) < kmax;
    if (in && p < 0) {
        TTS_CHECK(S->el_ngl < tts_run_cap(S), "el_gl");
        S->el_gpos[h] = S->el_ngl;
        S->el_gl[S->el_ngl++] = i;
    } else if (!in && p >= 0) {
        int32_t last = S->el_gl[--S->el_ngl];
        S->el_gl[p] = last;
        S->el_gpos[tts_slot(S, last)] = p;
        S->el_gpos[h] = -1;
    }
}

/* sp(k) of class c: the scale column's throughput at k GPUs, permille of
 * one GPU, interpolated between powers of two and extended by the last
 * slope; linear without the column. */
TTS_FN int64_t tts_sp(const tts_trace *tr, int32_t c, int64_t k)
{
    int32_t m = tr->nscale ? tr->nscale[c] : 0;
    if (m <= 1)
        return 1000 * k;
    const int64_t *v = tr->scale + (int64_t)TTS_SCALE_MAX * c;
    int64_t top = (int64_t)1 << (m - 1);
    if (k >= top)
        return v[m - 1] + (v[m - 1] - v[m - 2]) * (k - top) / (top / 2);
    int32_t e = 0;
    while (((int64_t)2 << e) <= k)
        e++;
    int64_t p = (int64_t)1 << e;
    return v[e] + (v[e + 1] - v[e]) * (k - p) / p;
}

/* s_sc(k) of job i: 1000 x sp(k0) / sp(k). */
TTS_FN int64_t tts_ssc(const tts_state *S, int64_t i, int64_t k)
{
    int32_t k0 = S->tr->gpus[i], c = tts_cls(S, i);
    return k == k0 ? 1000 : 1000 * tts_sp(S->tr, c, k0) / tts_sp(S->tr, c, k);
}

/* The slowdown of job i at size k and level lv (at its own size, the
 * level's). */
TTS_FN int64_t tts_slow_k(const tts_state *S, int64_t i, int64_t k, int32_t lv)
{
    int64_t s = tts_level_slow(S, i, lv);
    if (k == S->tr->gpus[i])
        return s;
    s = s * tts_ssc(S, i, k) / 1000;
    return s < 1 ? 1 : s;
}

/* ---- the event's log of touched allocations (10.3, 10.9) ----
 * A record: job (-1: dropped, the job ended), size and level before t,
 * started at t, the offset and count of its (node, GPUs) pairs. */
#define TTS_LJ 6

TTS_FN int64_t tts_log_find(const tts_state *S, int32_t v)
{
    for (int64_t q = 0; q < S->nlj; q++)
        if (S->el_lj[TTS_LJ * q] == v)
            return q;
    return -1;
}

/* Records running job v's allocation before its first shrink or grow at
 * t. */
TTS_FN void tts_touch(tts_state *S, int32_t v, int64_t t)
{
    if (S->el_k[v] & TTS_E_TOUCH)
        return;
    S->el_k[v] |= TTS_E_TOUCH;
    TTS_CHECK(S->nlj < 2 * tts_run_cap(S), "el_lj");
    int32_t head = tts_slot(S, v), *r = S->el_lj + TTS_LJ * S->nlj++;
    r[0] = v;
    r[1] = tts_size(S, v);
    r[2] = tts_level(S, v);
    r[3] = S->t0[head] == t;
    r[4] = (int32_t)S->nlp;
    r[5] = 0;
    for (int32_t e = head; e >= 0; e = S->ent_next[e]) {
        TTS_CHECK(S->nlp < 2 * S->cluster_gpus, "el_lp");
        S->el_lp[2 * S->nlp] = S->ent_node[e];
        S->el_lp[2 * S->nlp + 1] = tts_eg(S, e);
        if (S->cache && S->el_lm)
            S->el_lm[S->nlp] = S->ent_mask[e];
        S->nlp++;
        r[5]++;
    }
}

/* The segment running job i is in: its size and level (before t when a
 * shrink or grow touched it at t), start, overhead and slowdown. */
TTS_FN void tts_seg(const tts_state *S, int32_t i, int32_t *k, int32_t *lv, int64_t *st,
                    int64_t *r, int64_t *s)
{
    int32_t head = tts_slot(S, i);
    int64_t w = S->run_w[head];
    *k = tts_size(S, i);
    *lv = tts_level(S, i);
    *st = tts_seg_start(S, i);
    if (!S->elastic) {
        *r = (S->evict[i] > 0 ? S->cf->restart : 0) + (S->ov_l ? S->ov_l[i] + S->ov_x[i] : 0);
        *s = tts_level_slow(S, i, *lv);
        return;
    }
    if (S->el_k[i] & TTS_E_TOUCH) {
        const int32_t *q = S->el_lj + TTS_LJ * tts_log_find(S, i);
        *k = q[1];
        *lv = q[2];
    }
    *s = tts_slow_k(S, i, *k, *lv);
    *r = S->tend[i] - *st - tts_ceil_div(w * *s, 1000000);
}

/* What job i's segment [st, t) of k GPUs at level lv (overhead r, its
 * restart part rk) adds to the totals and the segment log; returns the
 * work done. pairs (np (node, GPUs) pairs) is its allocation, or NULL for
 * its entries. */
TTS_FN int64_t tts_account(tts_state *S, int32_t i, int64_t t, int completed, int64_t k,
                           int32_t lv, int64_t st, int64_t r, int64_t rk, const int32_t *pairs,
                           int32_t np)
{
    int32_t head = tts_slot(S, i);
    int64_t w = S->run_w[head], held = t - st, run = held - r > 0 ? held - r : 0, done;
    int64_t slow = S->elastic ? tts_slow_k(S, i, k, lv) : tts_level_slow(S, i, lv);
    if (completed) {
        done = w;
    } else {
        done = run * 1000000 / slow;
        if (done > w)
            done = w;
    }
    tts_seglog *L = S->log;
    if (L && !L->overflow) {
        if (L->n == L->cap || L->alloc_n + 2 * (int64_t)S->nodes + 2 * np > L->alloc_cap) {
            L->overflow = 1;
        } else {
            tts_segment *g = &L->seg[L->n++];
            g->job = i;
            g->t0 = st;
            g->t1 = t;
            g->r = r;
            g->s = slow;
            g->w_before = w;
            g->done = done;
            g->level = lv;
            g->completed = completed;
            g->alloc_off = L->alloc_n;
            g->alloc_n = 0;
            for (int32_t q = 0; pairs && q < np; q++) {
                L->alloc[L->alloc_n++] = pairs[2 * q];
                L->alloc[L->alloc_n++] = pairs[2 * q + 1];
                g->alloc_n++;
            }
            for (int32_t e = pairs ? -1 : head; e >= 0; e = S->ent_next[e]) {
                L->alloc[L->alloc_n++] = S->ent_node[e];
                L->alloc[L->alloc_n++] = tts_eg(S, e);
                g->alloc_n++;
            }
        }
    }
    int64_t ovh = r < held ? r : held, pl = 0, px = 0;
    if (S->ov_l) { /* the load and transfer shares, and what is left of them */
        tts_ovh_split(r, S->ov_l[i], S->ov_x[i], ovh, &pl, &px);
        S->ov_l[i] -= (int32_t)pl;
        S->ov_x[i] -= (int32_t)px;
        S->load_gs += k * pl;
        S->xfer_gs += k * px;
        ovh -= pl + px; /* the restart and resize shares */
    }
    S->used += k * held;
    S->restart_gs += k * ovh;
    S->held[i] += held;
    if (S->el_gs && S->elastic)
        S->el_gs[i] += k * held;
    if (!S->elastic) {
        S->comm_milli += k * (run * 1000 - done);
        return done;
    }
    int64_t x = done * tts_ssc(S, i, k);
    S->comm_milli += k * (run * 1000 - x / 1000);
    S->comm_rem += k * (x % 1000);
    S->resize_gs += k * (ovh - rk > 0 ? ovh - rk : 0);
    int64_t k0 = S->tr->gpus[i];
    S->loan_gs += (k > k0 ? k - k0 : 0) * held;
    return done;
}

/* ---- entries that grow and shrink (10.3) ---- */

/* Running job i takes g GPUs on node x with the loan flag: they join its
 * entry of (x, flag), or a new entry at the end of its list (with the
 * cache, holding no GPU yet: the caller picks them). Returns the entry. */
TTS_FN int32_t tts_ent_add(tts_state *S, int32_t i, int32_t x, int32_t g, int loan)
{
    int evf = tts_flags(S, i) & TTS_F_EVICT;
    int32_t e = tts_slot(S, i), last = -1;
    for (; e >= 0; e = S->ent_next[e]) {
        if (S->ent_node[e] == x && tts_eloan(S, e) == loan)
            break;
        last = e;
    }
    if (e >= 0) {
        S->ent_gpus[e] += g;
        if (!evf)
            tts_set_ev(S, x, S->ev[x] - g, S->nonev[x]);
    } else {
        e = S->ent_free;
        TTS_CHECK(e >= 0, "ent (free entries)");
        TTS_CHECK(S->nocc[x] < S->G, "occ");
        S->ent_free = S->ent_next[e];
        S->ent_job[e] = i;
        S->ent_node[e] = x;
        S->ent_gpus[e] = g | (loan ? TTS_LOAN_BIT : 0);
        S->ent_next[e] = -1;
        S->ent_next[last] = e; /* a running job has its first entry */
        if (S->cache)
            S->ent_mask[e] = 0;
        S->occ[x * S->G + S->nocc[x]++] = e;
        if (!evf)
            tts_set_ev(S, x, S->ev[x] - g, S->nonev[x] + 1);
    }
    tts_set_free(S, x, S->freeg[x] - g);
    if (loan) {
        S->loan[x] += g;
        S->total_loan += g;
    }
    S->total_free -= g;
    S->busy += g;
    return e;
}

/* Entry e (after prev in its job's list) gives back g GPUs; an entry left
 * empty leaves the list, its node and the pool. */
TTS_FN void tts_ent_release(tts_state *S, int32_t prev, int32_t e, int32_t g)
{
    int32_t i = S->ent_job[e], x = S->ent_node[e];
    int evf = tts_flags(S, i) & TTS_F_EVICT;
    if (tts_eloan(S, e)) {
        S->loan[x] -= g;
        S->total_loan -= g;
    }
    S->ent_gpus[e] -= g;
    if (S->cache)
        tts_c_give(S, e, g);
    int gone = tts_eg(S, e) == 0;
    tts_set_free(S, x, S->freeg[x] + g);
    if (!evf)
        tts_set_ev(S, x, S->ev[x] + g, S->nonev[x] - gone);
    S->total_free += g;
    S->busy -= g;
    if (!gone)
        return;
    S->ent_next[prev] = S->ent_next[e];
    for (int32_t s = 0; s < S->nocc[x]; s++)
        if (S->occ[x * S->G + s] == e) {
            S->occ[x * S->G + s] = S->occ[x * S->G + --S->nocc[x]];
            break;
        }
    S->ent_next[e] = S->ent_free;
    S->ent_free = e;
}

/* The level of running job i's allocation, with the nodes of pl added when
 * with_pl (SPEC 4 on the whole). Uses and clears mark. */
TTS_FN int32_t tts_alloc_level(tts_state *S, int32_t i, int with_pl)
{
    int32_t nodes = 0, rack = -1, one = 1;
    int64_t k = 0;
    for (int32_t q = -1, e = tts_slot(S, i);;) {
        int32_t x;
        if (e >= 0) {
            x = S->ent_node[e];
            k += tts_eg(S, e);
            e = S->ent_next[e];
        } else if (with_pl && ++q < S->pl_n) {
            x = S->pl_node[q];
            k += S->pl_gpus[q];
        } else {
            break;
        }
        if (!S->mark[x]) {
            S->mark[x] = 1;
            nodes++;
        }
        if (rack < 0)
            rack = x / S->N;
        else if (x / S->N != rack)
            one = 0;
    }
    for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
        S->mark[S->ent_node[e]] = 0;
    for (int32_t q = 0; with_pl && q < S->pl_n; q++)
        S->mark[S->pl_node[q]] = 0;
    if (!one)
        return 2;
    return nodes == (k + S->G - 1) / S->G ? 0 : 1;
}

/* Sets running job i's size and level, keeping the running counts. */
TTS_FN void tts_el_resize_to(tts_state *S, int32_t i, int32_t k)
{
    int32_t old = tts_level(S, i), lv = tts_alloc_level(S, i, 0);
    if (tts_pe_counted(S, i)) /* priority preemption takes current sizes */
        S->pe[S->mq[i]] += k - tts_size(S, i);
    S->l0fail = TTS_BIG; /* what step 7's L0 search may free has changed */
    S->el_k[i] = (S->el_k[i] & ~TTS_E_SIZE) | k;
    tts_gl_update(S, i, 1);
    S->running_level[old]--;
    S->running_level[lv]++;
    tts_set_level(S, i, lv);
}

/* Job v halves: it gives back half its size from its last loaned entry
 * backwards. */
TTS_FN void tts_shrink(tts_state *S, int32_t v, int64_t t)
{
    tts_touch(S, v, t);
    int32_t k = tts_size(S, v), need = k / 2, m = 0, *lst = S->tmp;
    for (int32_t prev = -1, e = tts_slot(S, v); e >= 0; prev = e, e = S->ent_next[e])
        if (tts_eloan(S, e)) {
            TTS_CHECK(2 * m + 1 < 2 * S->cluster_gpus, "tmp (a shrink's loaned entries)");
            lst[2 * m] = prev;
            lst[2 * m + 1] = e;
            m++;
        }
    while (need > 0 && m > 0) {
        m--;
        int32_t e = lst[2 * m + 1], g = tts_eg(S, e) < need ? tts_eg(S, e) : need;
        tts_ent_release(S, lst[2 * m], e, g);
        need -= g;
    }
    tts_el_resize_to(S, v, k / 2);
}

/* ---- reclaim (10.4 steps 2 and 5): SPEC 6's searches on free + loaned
 * GPUs per node, then the loan holders on the placement's nodes halve ---- */

TTS_FN int32_t tts_rc(const tts_state *S, int32_t x) { return S->freeg[x] + S->loan[x]; }

/* Nodes of rack r by most free + loaned first (lower index on ties),
 * taking up to k; returns what is still needed. */
TTS_FN int32_t tts_rtake(tts_state *S, int32_t r, int32_t k)
{
    for (int32_t f = S->G; f > 0 && k > 0; f--)
        for (int32_t x = r * S->N; x < (r + 1) * S->N && k > 0; x++)
            if (tts_rc(S, x) == f) {
                int32_t g = f < k ? f : k;
                tts_pl_add(S, x, g);
                k -= g;
            }
    return k;
}

TTS_FN int64_t tts_rrack(const tts_state *S, int32_t r)
{
    int64_t sum = 0;
    for (int32_t x = r * S->N; x < (r + 1) * S->N; x++)
        sum += tts_rc(S, x);
    return sum;
}

/* The placement of level lv (0, 1, 2) for k GPUs on free + loaned counts,
 * into pl; 0 when none. */
TTS_FN int tts_rfind(tts_state *S, int32_t k, int32_t lv)
{
    S->pl_n = 0;
    if (lv == 0 && k <= S->G) {
        int32_t best = -1;
        for (int32_t x = 0; x < S->nodes; x++)
            if (tts_rc(S, x) >= k && (best < 0 || tts_rc(S, x) < tts_rc(S, best)))
                best = x;
        if (best < 0)
            return 0;
        tts_pl_add(S, best, k);
        return 1;
    }
    if (lv == 2) {
        int64_t all = 0;
        for (int32_t r = 0; r < S->R; r++) {
            S->el_rmark[r] = 0;
            all += tts_rrack(S, r);
        }
        if (all < k)
            return 0;
        while (k > 0) {
            int32_t best = -1;
            for (int32_t r = 0; r < S->R; r++)
                if (!S->el_rmark[r] && (best < 0 || tts_rrack(S, r) > tts_rrack(S, best)))
                    best = r;
            S->el_rmark[best] = 1;
            k = tts_rtake(S, best, k);
        }
        return 1;
    }
    int32_t a = k / S->G, b = k % S->G, best = -1;
    int64_t bsum = 0;
    for (int32_t r = 0; r < S->R; r++) {
        int64_t sum = tts_rrack(S, r), fit = sum;
        if (lv == 0) {
            int32_t whole = 0, part = 0;
            for (int32_t x = r * S->N; x < (r + 1) * S->N; x++) {
                int32_t c = tts_rc(S, x);
                if (c == S->G)
                    whole++;
                else if (c > part)
                    part = c;
            }
            fit = (int64_t)whole * S->G + part;
        }
        if (fit >= k && (best < 0 || sum < bsum)) {
            best = r;
            bsum = sum;
        }
    }
    if (best < 0)
        return 0;
    if (lv == 1) {
        tts_rtake(S, best, k);
        return 1;
    }
    int32_t lo = best * S->N, hi = lo + S->N, got = 0, bx = -1;
    for (int32_t x = lo; x < hi && got < a; x++)
        if (tts_rc(S, x) == S->G) {
            tts_pl_add(S, x, S->G);
            S->mark[x] = 1;
            got++;
        }
    for (int32_t x = lo; b > 0 && x < hi; x++)
        if (!S->mark[x] && tts_rc(S, x) >= b && (bx < 0 || tts_rc(S, x) < tts_rc(S, bx)))
            bx = x;
    if (b > 0)
        tts_pl_add(S, bx, b);
    for (int32_t q = 0; q < S->pl_n; q++)
        S->mark[S->pl_node[q]] = 0;
    return 1;
}

/* The largest k0 a reclaim could place now, per level, on free + loaned
 * counts: L0, a rack's whole nodes plus its best other node (r0); L1, a
 * rack's sum (r1); L2, the cluster's (r2). Bounds for the pass's
 * thresholds: a reclaim needs k0 <= these. */
TTS_FN void tts_reclaim_max(const tts_state *S, int64_t *r0, int64_t *r1, int64_t *r2)
{
    *r0 = *r1 = 0;
    *r2 = S->total_free + S->total_loan;
    for (int32_t r = 0; r < S->R; r++) {
        int64_t whole = 0, part = 0, sum = 0;
        for (int32_t x = r * S->N; x < (r + 1) * S->N; x++) {
            int32_t c = tts_rc(S, x);
            sum += c;
            if (c == S->G)
                whole++;
            else if (c > part)
                part = c;
        }
        whole = whole * S->G + part;
        *r0 = whole > *r0 ? whole : *r0;
        *r1 = sum > *r1 ? sum : *r1;
    }
}

/* pl in node index order (a start takes its nodes so, 10.3). */
TTS_FN void tts_pl_sort(tts_state *S)
{
    for (int32_t a = 1; a < S->pl_n; a++) {
        int32_t x = S->pl_node[a], g = S->pl_gpus[a], b = a;
        while (b > 0 && S->pl_node[b - 1] > x) {
            S->pl_node[b] = S->pl_node[b - 1];
            S->pl_gpus[b] = S->pl_gpus[b - 1];
            b--;
        }
        S->pl_node[b] = x;
        S->pl_gpus[b] = g;
    }
}

/* The placement in pl frees up: on each of its nodes in index order, the
 * jobs holding loaned GPUs there halve in index order until the node has
 * the GPUs pl takes there. */
TTS_FN void tts_reclaim(tts_state *S, int64_t t)
{
    tts_pl_sort(S);
    for (int32_t q = 0; q < S->pl_n; q++) {
        int32_t x = S->pl_node[q], need = S->pl_gpus[q];
        while (S->freeg[x] < need) {
            int32_t v = -1;
            for (int32_t s = 0; s < S->nocc[x]; s++) {
                int32_t e = S->occ[x * S->G + s];
                if (tts_eloan(S, e) && (v < 0 || S->ent_job[e] < v))
                    v = S->ent_job[e];
            }
            if (v < 0)
                break; /* cannot happen: the search counted these loans */
            for (;;) {
                int has = 0;
                for (int32_t e = tts_slot(S, v); e >= 0 && !has; e = S->ent_next[e])
                    has = S->ent_node[e] == x && tts_eloan(S, e);
                if (!has || S->freeg[x] >= need)
                    break;
                tts_shrink(S, v, t);
            }
        }
    }
}

#endif
