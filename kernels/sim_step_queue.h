/* sim_step_queue.h: the second part of the simulation step (sim_step.h):
 * where jobs wait and run, in order. The fresh waiting jobs' segment tree
 * by static rank, the queue order (each order's key, the rank after a
 * key), the evicted jobs of srtf and las in an array sorted by (GPUs, key,
 * index), and the running jobs' heap on (end, index). A new queue order
 * goes here. After sim_step_base.h; sim_step_cluster.h comes next. */
#ifndef TT_SIM_STEP_QUEUE_H
#define TT_SIM_STEP_QUEUE_H

#include "sim_step_base.h"

/* ---- the fresh-job tree ---- */

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

TTS_FN void tts_tree_pull(tts_state *S, int64_t v)
{
    int32_t *d = S->tree + v * TTS_NCLASS, *l = S->tree + 2 * v * TTS_NCLASS,
            *r = l + TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        d[c] = l[c] < r[c] ? l[c] : r[c];
}

/* Leaf of job i: class cl with k GPUs, or empty when cl < 0. */
TTS_FN void tts_tree_set(tts_state *S, int64_t i, int32_t cl, int32_t k)
{
    int64_t v = S->size + tts_pos(S, i);
    int32_t *d = S->tree + v * TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        d[c] = c == cl ? k : TTS_BIG;
    for (v >>= 1; v >= 1; v >>= 1)
        tts_tree_pull(S, v);
}

TTS_FN int tts_tree_ok(const tts_state *S, int64_t v, const int32_t *thr)
{
    const int32_t *d = S->tree + v * TTS_NCLASS;
    for (int c = 0; c < TTS_NCLASS; c++)
        if (d[c] <= thr[c])
            return 1;
    return 0;
}

/* The first rank >= p whose job passes thr for its class, or -1. */
TTS_FN int64_t tts_tree_first(const tts_state *S, int64_t p, const int32_t *thr)
{
    /* the root first: most passes end with a call that finds nothing */
    if (p >= S->n || !tts_tree_ok(S, 1, thr))
        return -1;
    int64_t v = 1; /* from rank 0: the leftmost passing leaf, straight down */
    if (p > 0) {   /* else up from leaf p to the first passing right sibling */
        v = S->size + p;
        while (!tts_tree_ok(S, v, thr)) {
            while (v & 1) {
                if (v == 1)
                    return -1;
                v >>= 1;
            }
            v++;
        }
    }
    while (v < S->size) {
        v *= 2;
        if (!tts_tree_ok(S, v, thr))
            v++;
    }
    return v - S->size;
}

/* ---- queue order ---- */

/* The order key of job i now (ties: lower index). */
TTS_FN int64_t tts_key(const tts_state *S, int64_t i)
{
    switch (S->cf->order) {
    case TTS_ORDER_SJF:
        return S->tr->duration[i];
    case TTS_ORDER_SRTF:
        return S->w[i];
    case TTS_ORDER_LAS:
        return S->gpu_s[i];
    default:
        return tts_submit(S, i);
    }
}

TTS_FN int tts_after(int64_t k1, int64_t i1, int64_t k2, int64_t i2)
{
    return k1 > k2 || (k1 == k2 && i1 > i2);
}

/* The first tree rank whose fresh job comes after (key, idx) in order. */
TTS_FN int64_t tts_rank_after(const tts_state *S, int64_t key, int64_t idx)
{
    int64_t lo = 0, hi = S->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2, j = tts_job_at(S, mid);
        int64_t kj = S->cf->order == TTS_ORDER_LAS    ? 0
                     : S->cf->order == TTS_ORDER_SRTF ? S->tr->duration[j] * 1000
                                                     : tts_key(S, j);
        if (tts_after(kj, j, key, idx))
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

/* ---- evicted jobs under srtf and las: sorted by (GPUs, key, index) ---- */

TTS_FN int tts_vict_less(const tts_state *S, int32_t a, int32_t b)
{
    int32_t ga = S->tr->gpus[a], gb = S->tr->gpus[b];
    if (ga != gb)
        return ga < gb;
    return tts_after(S->vkey[b], b, S->vkey[a], a);
}

/* The first position whose job is not less than j. */
TTS_FN int64_t tts_vict_lower(const tts_state *S, int32_t j)
{
    int64_t lo = 0, hi = S->nvict;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (tts_vict_less(S, S->vict[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

TTS_FN void tts_vict_insert(tts_state *S, int32_t j)
{
    int64_t p = tts_vict_lower(S, j);
    for (int64_t q = S->nvict; q > p; q--)
        S->vict[q] = S->vict[q - 1];
    S->vict[p] = j;
    S->nvict++;
}

TTS_FN void tts_vict_remove(tts_state *S, int32_t j)
{
    int64_t p = tts_vict_lower(S, j);
    S->nvict--;
    for (int64_t q = p; q < S->nvict; q++)
        S->vict[q] = S->vict[q + 1];
}

/* The evicted job first in queue order after (ckey, cidx) (anywhere when
 * !have_cur) among those of at most thr GPUs, or -1: per GPU count, a
 * binary search for the first after the cursor. */
TTS_FN int64_t tts_vict_next(const tts_state *S, int32_t thr, int have_cur, int64_t ckey,
                             int64_t cidx)
{
    int64_t pos = 0, best = -1;
    while (pos < S->nvict) {
        int32_t g = S->tr->gpus[S->vict[pos]];
        if (g > thr)
            break;
        int64_t lo = pos, hi = S->nvict, end;
        while (lo < hi) { /* end of this GPU count's run */
            int64_t mid = lo + (hi - lo) / 2;
            if (S->tr->gpus[S->vict[mid]] <= g)
                lo = mid + 1;
            else
                hi = mid;
        }
        end = lo;
        lo = pos;
        hi = end;
        while (have_cur && lo < hi) { /* first after the cursor */
            int64_t mid = lo + (hi - lo) / 2, j = S->vict[mid];
            if (tts_after(S->vkey[j], j, ckey, cidx))
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo < end) {
            int64_t j = S->vict[lo];
            if (best < 0 || tts_after(S->vkey[best], best, S->vkey[j], j))
                best = j;
        }
        pos = end;
    }
    return best;
}

/* ---- the running-job heap, on (end, index) ---- */

TTS_FN int tts_heap_less(const tts_state *S, int32_t a, int32_t b)
{
    return S->end[a] < S->end[b] || (S->end[a] == S->end[b] && a < b);
}

TTS_FN void tts_heap_place(tts_state *S, int64_t p, int32_t j)
{
    S->heap[p] = j;
    S->heap_pos[j] = (int32_t)p;
}

TTS_FN void tts_heap_fix(tts_state *S, int64_t p)
{
    int32_t j = S->heap[p];
    while (p > 0 && tts_heap_less(S, j, S->heap[(p - 1) / 2])) {
        tts_heap_place(S, p, S->heap[(p - 1) / 2]);
        p = (p - 1) / 2;
    }
    for (;;) {
        int64_t c = 2 * p + 1;
        if (c >= S->nheap)
            break;
        if (c + 1 < S->nheap && tts_heap_less(S, S->heap[c + 1], S->heap[c]))
            c++;
        if (!tts_heap_less(S, S->heap[c], j))
            break;
        tts_heap_place(S, p, S->heap[c]);
        p = c;
    }
    tts_heap_place(S, p, j);
}

TTS_FN void tts_heap_push(tts_state *S, int32_t j)
{
    tts_heap_place(S, S->nheap++, j);
    tts_heap_fix(S, S->nheap - 1);
}

TTS_FN void tts_heap_remove(tts_state *S, int32_t j)
{
    int64_t p = S->heap_pos[j];
    S->nheap--;
    if (p != S->nheap) {
        tts_heap_place(S, p, S->heap[S->nheap]);
        tts_heap_fix(S, p);
    }
    S->heap_pos[j] = -1;
}

#endif
