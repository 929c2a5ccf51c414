/* sim_step_queue.h: the third part of the simulation step (sim_step.h):
 * where jobs wait and run, in order. The fresh waiting jobs' tree by
 * static rank, the rank after a waiting job, the array of the other
 * waiting jobs (evicted ones under srtf, las, dlas and gittins, with the
 * ready tasks under the last two; all under ftf) in segments by job class
 * sorted by (GPUs, queue order), and the running jobs' heap on (end,
 * index). The keys themselves are sim_step_order.h's. After it;
 * sim_step_cluster.h comes next. */
#ifndef TT_SIM_STEP_QUEUE_H
#define TT_SIM_STEP_QUEUE_H

#include "sim_step_order.h"

/* ---- the fresh-job tree ---- */

/* A job's rank in the tree: its duration rank under sjf and srtf, its
 * index under every other order. */
TTS_FN int64_t tts_pos(const tts_state *S, int64_t i)
{
    int32_t o = S->cf->order;
    return (o == TTS_ORDER_SJF || o == TTS_ORDER_SRTF) ? S->tr->job_rank[i] : i;
}

TTS_FN int64_t tts_job_at(const tts_state *S, int64_t p)
{
    int32_t o = S->cf->order;
    return (o == TTS_ORDER_SJF || o == TTS_ORDER_SRTF) ? S->tr->rank_job[p] : p;
}

/* The lowest set bit of m (m != 0). */
TTS_FN int32_t tts_ctz32(uint32_t m)
{
#if defined(__CUDA_ARCH__)
    return __ffs((int)m) - 1;
#else
    return __builtin_ctz(m);
#endif
}

TTS_FN int32_t tts_ctz64(uint64_t m)
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)m) - 1;
#else
    return __builtin_ctzll(m);
#endif
}

/* Node x's parent and its place among its siblings. Positions are never
 * negative: as unsigned, dividing them is a shift. */
TTS_FN int64_t tts_tree_up(int64_t x) { return (int64_t)((uint64_t)x / TTS_TREE_B); }

TTS_FN int32_t tts_tree_sib(int64_t x) { return (int32_t)((uint64_t)x % TTS_TREE_B); }

/* The group of TTS_TREE_B siblings node x of level h belongs to; node x's
 * value for class c is at [c * TTS_TREE_B + tts_tree_sib(x)]. */
TTS_FN int32_t *tts_tree_group(const tts_state *S, int32_t h, int64_t x)
{
    return S->tree + S->tree_off[h] + tts_tree_up(x) * TTS_TREE_GROUP;
}

TTS_FN int32_t tts_min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* The least of the TTS_TREE_B (a multiple of 4) values of row, in four
 * independent chains: one chain of TTS_TREE_B dependent steps is what
 * made a rescan slow. */
TTS_FN int32_t tts_min_row(const int32_t *row)
{
    int32_t a = row[0], b = row[1], c = row[2], d = row[3];
    for (int j = 4; j < TTS_TREE_B; j += 4) {
        a = tts_min32(a, row[j]);
        b = tts_min32(b, row[j + 1]);
        c = tts_min32(c, row[j + 2]);
        d = tts_min32(d, row[j + 3]);
    }
    return tts_min32(tts_min32(a, b), tts_min32(c, d));
}

/* The fewest GPUs a fresh job of class c asks for, over the whole tree. */
TTS_FN int32_t tts_tree_root(const tts_state *S, int c)
{
    return S->tree[S->tree_off[S->tree_top] + c * TTS_TREE_B];
}

/* The fewest GPUs a job of class c asks for among the children of node x
 * of level h >= 1, or any value <= low once one is found (low: the old
 * min, below which a removal cannot take it). */
TTS_FN int32_t tts_tree_kids_min(const tts_state *S, int32_t h, int64_t x, int c, int32_t low)
{
    int32_t v = TTS_BIG;
    if (h > 1)
        return tts_min_row(tts_tree_group(S, h - 1, x * TTS_TREE_B) + c * TTS_TREE_B);
    int64_t hi = (x + 1) * TTS_TREE_B < S->n ? (x + 1) * TTS_TREE_B : S->n;
    for (int64_t r = x * TTS_TREE_B; r < hi && v > low; r++)
        if (S->leaf[r] == c) {
            int32_t k = tts_need(S, tts_job_at(S, r));
            v = k < v ? k : v;
        }
    return v;
}

/* Leaf of job i: class cl (its k GPUs), or empty when cl < 0. Up the
 * levels, only the classes whose value changed are looked at: a parent's
 * min becomes the new value when that is lower, stays when the child was
 * not the min, and is searched again among the siblings only when the min
 * itself went up. The walk stops at the first level where nothing changes. */
TTS_FN void tts_tree_set(tts_state *S, int64_t i, int32_t cl, int32_t k)
{
    int64_t x = tts_pos(S, i);
    int32_t was[TTS_NCLASS], now[TTS_NCLASS], old = S->leaf[x];
    uint32_t changed = 0;
    int32_t k_was = tts_need(S, i); /* the GPUs of the job there, if any */
    for (int c = 0; c < TTS_NCLASS; c++) {
        was[c] = c == old ? k_was : TTS_BIG;
        now[c] = c == cl ? k : TTS_BIG;
        if (was[c] != now[c])
            changed |= 1u << c;
    }
    S->leaf[x] = cl < 0 ? TTS_LEAF_NONE : (uint8_t)cl;
    for (int32_t h = 1; changed && h <= S->tree_top; h++) {
        uint32_t next = 0;
        x = tts_tree_up(x);
        int32_t *g = tts_tree_group(S, h, x);
        for (int c = 0; c < TTS_NCLASS; c++) {
            if (!(changed >> c & 1)) /* the changed classes only */
                continue;
            int32_t *d = g + c * TTS_TREE_B + tts_tree_sib(x), cur = *d, v = cur;
            if (now[c] <= cur)
                v = now[c];
            else if (was[c] == cur)
                v = tts_tree_kids_min(S, h, x, c, cur);
            if (v != cur) {
                *d = v;
                was[c] = cur;
                now[c] = v;
                next |= 1u << c;
            }
        }
        changed = next;
    }
}

/* The first of the children from .. TTS_TREE_B - 1 of node x of level
 * h >= 1 that has a job passing thr for its class, or TTS_TREE_B if none.
 * x's values say for which classes any child passes. */
TTS_FN int32_t tts_tree_scan(const tts_state *S, int32_t h, int64_t x, const int32_t *thr,
                             int32_t from)
{
    if (h == 1) {
        int64_t base = x * TTS_TREE_B;
        int32_t end = S->n - base < TTS_TREE_B ? (int32_t)(S->n - base) : TTS_TREE_B;
        const uint8_t *lf = S->leaf + base;
        for (int32_t j = from; j < end; j++)
            if (lf[j] != TTS_LEAF_NONE && tts_need(S, tts_job_at(S, base + j)) <= thr[lf[j]])
                return j;
        return TTS_TREE_B;
    }
    const int32_t *par = tts_tree_group(S, h, x) + tts_tree_sib(x);
    const int32_t *g = tts_tree_group(S, h - 1, x * TTS_TREE_B);
    int32_t best = TTS_TREE_B;
    for (int c = 0; c < TTS_NCLASS; c++) {
        if (par[c * TTS_TREE_B] > thr[c])
            continue;
        const int32_t *row = g + c * TTS_TREE_B;
        for (int32_t j = from; j < best; j++)
            if (row[j] <= thr[c]) {
                best = j;
                break;
            }
    }
    return best;
}

/* The first rank >= p whose job passes thr for its class, or -1: up from
 * leaf p to the first passing node at or right of it (among the siblings
 * at each level), then down to its leftmost passing leaf. */
TTS_FN int64_t tts_tree_first(const tts_state *S, int64_t p, const int32_t *thr)
{
    /* the root first: most passes end with a call that finds nothing */
    const int32_t *root = S->tree + S->tree_off[S->tree_top];
    int c = 0;
    while (c < TTS_NCLASS && root[c * TTS_TREE_B] > thr[c])
        c++;
    if (p >= S->n || c == TTS_NCLASS)
        return -1;
    int32_t h = S->tree_top;
    int64_t x = 0;
    if (p > 0) { /* from rank 0: straight down from the root */
        int32_t from = tts_tree_sib(p);
        for (h = 0, x = p;; h++) {
            if (h == S->tree_top)
                return -1;
            int32_t j = tts_tree_scan(S, h + 1, tts_tree_up(x), thr, from);
            if (j < TTS_TREE_B) {
                x = x - tts_tree_sib(x) + j;
                break;
            }
            x /= TTS_TREE_B;
            from = tts_tree_sib(x) + 1;
        }
    }
    for (; h > 0; h--) /* node x of level h passes: down to its first passing child */
        x = x * TTS_TREE_B + tts_tree_scan(S, h, x, thr, 0);
    return x;
}

/* ---- queue order ---- */

/* The first tree rank whose fresh job comes after waiting job c (or c,
 * started at the current time). The tree holds fresh jobs in rank order,
 * so this compares each rank's key before its first start with c's key
 * now. ftf keeps no job in the tree. */
TTS_FN int64_t tts_rank_after(const tts_state *S, int64_t c)
{
    int32_t o = S->cf->order;
    if (o == TTS_ORDER_FTF)
        return S->n;
    int mlfq = tts_is_mlfq(S);
    tts_mkey kc, kj;
    int64_t key = 0;
    if (mlfq)
        tts_mkey_of(S, c, &kc);
    else
        key = tts_key(S, c);
    int64_t lo = 0, hi = S->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, j = tts_job_at(S, mid);
        int after;
        if (mlfq) {
            tts_mkey_fresh(S, j, &kj);
            after = tts_mkey_after(&kj, &kc);
        } else {
            int64_t kf = o == TTS_ORDER_LAS    ? 0
                         : o == TTS_ORDER_SRTF ? S->tr->duration[j] * 1000
                                               : tts_key(S, j);
            after = tts_after(kf, j, key, c);
        }
        if (after)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Victims keep a static key under fifo and sjf: they wait in the tree. */
TTS_FN int tts_victims_in_tree(const tts_state *S)
{
    return S->cf->order == TTS_ORDER_FIFO || S->cf->order == TTS_ORDER_SJF;
}

/* 1 when job i is a task (and the state keeps workflows). */
TTS_FN int tts_is_task(const tts_state *S, int64_t i) { return S->t_ready && S->tr->tsk[i] >= 0; }

/* Fresh job i waits in the tree but under ftf, whose keys are known only
 * at arrival, and but a task under dlas and gittins, whose qent is its
 * ready time (SPEC 12.5), not monotone in index as the tree's ranks are:
 * those wait in the sorted array below. */
TTS_FN int tts_fresh_in_tree(const tts_state *S, int64_t i)
{
    return S->cf->order != TTS_ORDER_FTF && !(tts_is_mlfq(S) && tts_is_task(S, i));
}

/* ---- the sorted array: evicted jobs under srtf, las, dlas and gittins,
 * fresh tasks under dlas and gittins, and every waiting job under ftf ----
 * One segment per job class (TTS_C0 .. TTS_C2S, what the job may do now),
 * each sorted by (GPUs, queue order), so a pass skips the jobs whose class
 * cannot start one of their size. Evicted jobs are TTS_C2I or, sensitive
 * (evicted by priority), TTS_C2S; a fresh job here (ftf, or a task under
 * dlas and gittins) moves to its next class when a timer crosses. */

TTS_FN int64_t tts_vict_begin(const tts_state *S, int c)
{
    int64_t b = 0;
    for (int k = 0; k < c; k++)
        b += S->vcnt[k];
    return b;
}

TTS_FN int tts_vict_less(const tts_state *S, int32_t a, int32_t b)
{
    int32_t ga = tts_need(S, a), gb = tts_need(S, b);
    if (ga != gb)
        return ga < gb;
    return tts_job_after(S, b, a);
}

/* The first position of segment c whose job is not less than j. */
TTS_FN int64_t tts_vict_lower(const tts_state *S, int c, int32_t j)
{
    int64_t lo = tts_vict_begin(S, c), hi = lo + S->vcnt[c];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (tts_vict_less(S, S->vict[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Job j joins segment c. */
TTS_FN void tts_vict_insert(tts_state *S, int c, int32_t j)
{
    int64_t p = tts_vict_lower(S, c, j);
    TTS_CHECK(S->nvict < S->n, "vict");
    for (int64_t q = S->nvict; q > p; q--)
        S->vict[q] = S->vict[q - 1];
    S->vict[p] = j;
    S->nvict++;
    S->vcnt[c]++;
}

/* Job j leaves the array, from whichever segment holds it (its key is
 * still the one it was inserted with). */
TTS_FN void tts_vict_remove(tts_state *S, int32_t j)
{
    for (int c = 0; c < TTS_NCLASS; c++) {
        int64_t p = tts_vict_lower(S, c, j);
        if (p < tts_vict_begin(S, c) + S->vcnt[c] && S->vict[p] == j) {
            S->nvict--;
            S->vcnt[c]--;
            for (int64_t q = p; q < S->nvict; q++)
                S->vict[q] = S->vict[q + 1];
            return;
        }
    }
}

/* The job of the array first in queue order after job cur (anywhere when
 * cur < 0) among those of at most thr[c] GPUs in segment c, or -1: per
 * segment and GPU count, a binary search for the first after the cursor.
 * With bq (priority preemption; NULL otherwise), a job of queue q passes
 * too when its GPUs are at most bq[q], what step 7 could free for it:
 * bq falls as q grows, and a GPU count's run is in queue order, so past
 * thr[c] a run's jobs pass up to the last queue whose bound holds them. */
TTS_FN int64_t tts_vict_next(const tts_state *S, const int32_t *thr, const int64_t *bq,
                             int64_t cur)
{
    int64_t best = -1, base = 0;
    /* segments one after another: each begins where the one before ends */
    for (int c = 0; c < TTS_NCLASS && base < S->nvict; base += S->vcnt[c], c++) {
        int64_t pos = base, stop = base + S->vcnt[c];
        while (pos < stop) {
            int32_t g = tts_need(S, S->vict[pos]), qmax = TTS_MAX_QUEUES;
            if (g > thr[c]) {
                qmax = -1;
                while (bq && qmax + 1 < S->cf->nq && bq[qmax + 1] >= g)
                    qmax++;
                if (qmax < 0)
                    break; /* the runs after hold more GPUs */
            }
            int64_t lo = pos, hi = stop, end;
            while (lo < hi) { /* end of this GPU count's run */
                int64_t mid = lo + (hi - lo) / 2;
                if (tts_need(S, S->vict[mid]) <= g)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            end = lo;
            lo = pos;
            hi = end;
            while (cur >= 0 && lo < hi) { /* first after the cursor */
                int64_t mid = lo + (hi - lo) / 2;
                if (tts_job_after(S, S->vict[mid], cur))
                    hi = mid;
                else
                    lo = mid + 1;
            }
            if (lo < end && (qmax == TTS_MAX_QUEUES || S->mq[S->vict[lo]] <= qmax)) {
                int64_t j = S->vict[lo];
                if (best < 0 || tts_job_after(S, best, j))
                    best = j;
            }
            pos = end;
        }
    }
    return best;
}

/* ---- lists in the order things joined them (the running jobs' aging,
 * the evicted jobs' warm wait): links prev and next, -1 at the ends ---- */

/* x joins the end of the list. */
TTS_FN void tts_list_push(int32_t *prev, int32_t *next, int32_t *head, int32_t *tail, int32_t x)
{
    prev[x] = *tail;
    next[x] = -1;
    if (*tail >= 0)
        next[*tail] = x;
    else
        *head = x;
    *tail = x;
}

/* x leaves the list. */
TTS_FN void tts_list_unlink(int32_t *prev, int32_t *next, int32_t *head, int32_t *tail,
                            int32_t x)
{
    int32_t a = prev[x], b = next[x];
    if (a >= 0)
        next[a] = b;
    else
        *head = b;
    if (b >= 0)
        prev[b] = a;
    else
        *tail = a;
}

/* ---- the running-job heap, on (end, index) ----
 * TTS_HEAP_D children a node: a shallower heap, a node's children side by
 * side. Keys are distinct, so the order of pops is the same whatever the
 * arity. */

#ifndef TTS_HEAP_D
#define TTS_HEAP_D 4
#endif

TTS_FN int tts_hent_less(tts_hent a, tts_hent b)
{
    return a.end < b.end || (a.end == b.end && a.job < b.job);
}

TTS_FN void tts_heap_place(tts_state *S, int64_t p, tts_hent h)
{
    S->heap[p] = h;
    S->heap_pos[h.slot] = (int32_t)p;
}

/* The least of node p's children, or -1 when p is a leaf. */
TTS_FN int64_t tts_heap_least_child(const tts_state *S, int64_t p)
{
    int64_t c = TTS_HEAP_D * p + 1, e = c + TTS_HEAP_D, m = c;
    if (c >= S->nheap)
        return -1;
    if (e > S->nheap)
        e = S->nheap;
    for (int64_t q = c + 1; q < e; q++)
        if (tts_hent_less(S->heap[q], S->heap[m]))
            m = q;
    return m;
}

/* Moves the parents of place p that come after h down a level each, and
 * returns the place h belongs in. */
TTS_FN int64_t tts_heap_climb(tts_state *S, int64_t p, tts_hent h)
{
    while (p > 0 && tts_hent_less(h, S->heap[(p - 1) / TTS_HEAP_D])) {
        tts_heap_place(S, p, S->heap[(p - 1) / TTS_HEAP_D]);
        p = (p - 1) / TTS_HEAP_D;
    }
    return p;
}

TTS_FN void tts_heap_fix(tts_state *S, int64_t p)
{
    tts_hent h = S->heap[p];
    p = tts_heap_climb(S, p, h);
    for (int64_t m; (m = tts_heap_least_child(S, p)) >= 0 && tts_hent_less(S->heap[m], h); p = m)
        tts_heap_place(S, p, S->heap[m]);
    tts_heap_place(S, p, h);
}

/* Running job i (its end and slot set) joins the heap. */
TTS_FN void tts_heap_push(tts_state *S, int32_t i)
{
    TTS_CHECK(S->nheap < tts_run_cap(S), "heap");
    S->heap[S->nheap].end = S->tend[i];
    S->heap[S->nheap].job = i;
    S->heap[S->nheap].slot = tts_slot(S, i);
    S->nheap++;
    tts_heap_fix(S, S->nheap - 1);
}

/* Job i leaves the heap. Its place becomes a hole that goes down to a
 * leaf by the least children, and the last entry fills it from there,
 * climbing as far as it must (rarely far: it is one of the latest ends):
 * no comparison with the moved entry on the way down. */
TTS_FN void tts_heap_remove(tts_state *S, int32_t i)
{
    int64_t p = S->heap_pos[tts_slot(S, i)];
    tts_hent last = S->heap[--S->nheap];
    if (p == S->nheap)
        return;
    for (int64_t m; (m = tts_heap_least_child(S, p)) >= 0; p = m)
        tts_heap_place(S, p, S->heap[m]);
    tts_heap_place(S, tts_heap_climb(S, p, last), last);
}

#endif
