/* sim_step_cache.h: GPU memory as a model cache (docs/model.md section
 * 13, SPEC 12.2) in the simulation step (sim_step.h): which GPUs of a node
 * a job takes (a free mask per node, a GPU mask per allocation entry),
 * the models each GPU holds, their loads and evictions (lru or demand),
 * and the load time L of a start. Off, with no state, when gpu_mem is 0:
 * GPU identity then changes no number, so it is not kept. After
 * sim_step_mlfq.h; sim_step_wf.h comes next. */
#ifndef TT_SIM_STEP_CACHE_H
#define TT_SIM_STEP_CACHE_H

#include "sim_step_mlfq.h"

#define TTS_NO_MODEL (-1)

/* The dense model id of job i (its trace's mid, or its class after them)
 * and its size in MiB (-1: unknown, never cached). */
TTS_FN int32_t tts_model(const tts_state *S, int64_t i)
{
    int32_t d = S->tr->mdl ? S->tr->mdl[i] : -1;
    return d >= 0 ? d : S->tr->nmid + tts_cls(S, i);
}

TTS_FN int32_t tts_model_mb(const tts_state *S, int32_t m) { return S->tr->msz[m]; }

/* Where GPU g's slots begin in c_id and c_use: a configuration's GPUs lie
 * cache_slots apart (docs/model.md 13, item 9). */
TTS_FN int64_t tts_c_at(const tts_state *S, int64_t g) { return g * S->cf->cache_slots; }

/* The slot of GPU g (node x, GPU u) holding model m, or -1. */
TTS_FN int32_t tts_c_find(const tts_state *S, int64_t g, int32_t m)
{
    const int32_t *id = S->c_id + tts_c_at(S, g);
    for (int32_t s = 0; s < S->cf->cache_slots; s++)
        if (id[s] == m)
            return s;
    return -1;
}

/* Job i leaves (d = -1) or joins (d = 1) the waiting jobs: demand's count
 * of the waiting jobs that need each model. */
TTS_FN void tts_c_wait(tts_state *S, int64_t i, int32_t d)
{
    if (S->cache && S->cf->evict)
        S->c_need[tts_model(S, i)] += d;
}

/* The slot of GPU g to evict: lru the least (last_use, id); demand first
 * the models no waiting job needs. A GPU's stamps are distinct (one start
 * stamps one model on it), so the id never decides. */
TTS_FN int32_t tts_c_victim(const tts_state *S, int64_t g)
{
    int32_t best = -1;
    int64_t bk = 0, at = tts_c_at(S, g);
    for (int32_t s = 0; s < S->cf->cache_slots; s++) {
        int32_t m = S->c_id[at + s];
        if (m == TTS_NO_MODEL)
            continue;
        int64_t k = S->c_use[at + s];
        if (S->cf->evict && S->c_need[m] > 0)
            k += (int64_t)1 << 32; /* needed: after every model not needed */
        if (best < 0 || k < bk) {
            best = s;
            bk = k;
        }
    }
    return best;
}

/* GPU g of node x leaves (d = -1) or rejoins (d = 1) the free GPUs: the
 * counts of the free GPUs holding each of its models, where kept. */
TTS_FN void tts_c_count(tts_state *S, int32_t x, int64_t g, int32_t d)
{
    if (!S->c_lx)
        return;
    const int32_t *id = S->c_id + tts_c_at(S, g);
    uint8_t *w = S->c_wfree + (int64_t)x * S->c_nm;
    for (int32_t s = 0; s < S->cf->cache_slots; s++)
        if (id[s] != TTS_NO_MODEL)
            w[id[s]] = (uint8_t)(w[id[s]] + d);
}

/* Node x's free GPUs holding model m: the count where kept, else a scan
 * of its GPUs' slots (when a count per node and model id would outweigh a
 * byte a job, libcore/sim/sim.c). */
TTS_FN int32_t tts_c_warm_free(const tts_state *S, int32_t x, int32_t m)
{
    if (S->c_lx)
        return S->c_wfree[(int64_t)x * S->c_nm + m];
    int32_t n = 0;
    for (int32_t u = 0; u < S->G; u++)
        n += (S->c_free[x] >> u & 1) && tts_c_find(S, (int64_t)x * S->G + u, m) >= 0;
    return n;
}

/* The GPUs of mask on node x are free again (their job ended). */
TTS_FN void tts_c_release(tts_state *S, int32_t x, uint64_t mask)
{
    S->c_free[x] |= mask;
    for (int32_t u = 0; S->c_lx && u < S->G; u++)
        if (mask >> u & 1)
            tts_c_count(S, x, (int64_t)x * S->G + u, 1);
}

/* GPU g (free, being allocated) gets model m (mb MiB) stamped now: 1 if
 * it had to load it. Evicts until a slot and the MiB are free. */
TTS_FN int tts_c_take(tts_state *S, int64_t g, int32_t m, int32_t mb)
{
    if (mb < 0)
        return 0; /* unknown size: never cached, loads in 0 */
    int32_t *id = S->c_id + tts_c_at(S, g), *use = S->c_use + tts_c_at(S, g);
    int32_t s = tts_c_find(S, g, m), loaded = 0;
    if (s < 0) {
        for (;;) {
            int32_t e = -1;
            for (int32_t q = 0; q < S->cf->cache_slots && e < 0; q++)
                e = id[q] == TTS_NO_MODEL ? q : -1;
            if (e >= 0 && S->c_mb[g] + mb <= S->cf->gpu_mem) {
                s = e;
                break;
            }
            int32_t v = tts_c_victim(S, g);
            S->c_mb[g] -= tts_model_mb(S, id[v]);
            id[v] = TTS_NO_MODEL;
            S->model_evicts++;
        }
        id[s] = m;
        S->c_mb[g] += mb;
        S->loads++;
        loaded = 1;
    }
    use[s] = (int32_t)S->c_clock;
    return loaded;
}

/* The GPUs job i takes on node x (g of them, free): first the free GPUs
 * holding its model, lowest first, then the lowest free; their mask.
 * With load, they get the model (stamped with the clock) and *any is set
 * when one loaded it. */
TTS_FN uint64_t tts_c_pick(tts_state *S, int64_t i, int32_t x, int32_t g, int load, int *any)
{
    int32_t m = tts_model(S, i), mb = tts_model_mb(S, m);
    uint64_t fm = S->c_free[x], got = 0;
    for (int32_t u = 0; u < S->G && g > 0; u++)
        if ((fm >> u & 1) && mb >= 0 && tts_c_find(S, (int64_t)x * S->G + u, m) >= 0) {
            got |= (uint64_t)1 << u;
            g--;
        }
    for (int32_t u = 0; u < S->G && g > 0; u++)
        if ((fm >> u & 1) && !(got >> u & 1)) {
            got |= (uint64_t)1 << u;
            g--;
        }
    for (int32_t u = 0; load && u < S->G; u++)
        if (got >> u & 1) {
            tts_c_count(S, x, (int64_t)x * S->G + u, -1); /* taken before it loads */
            *any |= tts_c_take(S, (int64_t)x * S->G + u, m, mb);
        }
    return got;
}

/* L of job i (s) when some GPU loaded its model. */
TTS_FN int64_t tts_c_load_time(const tts_state *S, int64_t i)
{
    int32_t mb = tts_model_mb(S, tts_model(S, i));
    return mb > 0 ? tts_ceil_div(mb, S->cf->load_bw) : 0;
}

/* Running job i's entry e (on node x) takes g more of x's free GPUs,
 * picked and loaded as tts_c_pick says (the caller advanced the clock:
 * only these GPUs are stamped). 1 if one of them loaded. A start's
 * entries take all their GPUs this way, a grow's the GPUs it adds. */
TTS_FN int tts_c_add(tts_state *S, int32_t i, int32_t e, int32_t x, int32_t g)
{
    int any = 0;
    uint64_t m = tts_c_pick(S, i, x, g, 1, &any);
    S->ent_mask[e] |= m;
    S->c_free[x] &= ~m;
    return any;
}

/* Running job i's start loads its model (its entries from head, each
 * holding its GPU count): the GPUs each entry takes (their masks), the
 * loads, the start's count. Returns L (SPEC 12.2). */
TTS_FN int64_t tts_c_start(tts_state *S, int32_t i, int32_t head)
{
    int any = 0;
    tts_c_wait(S, i, -1); /* it no longer waits: its own need does not count */
    S->c_clock++;
    for (int32_t e = head; e >= 0; e = S->ent_next[e]) {
        S->ent_mask[e] = 0; /* a fresh entry */
        any |= tts_c_add(S, i, e, S->ent_node[e], tts_eg(S, e));
    }
    int64_t l = any ? tts_c_load_time(S, i) : 0;
    S->starts_all++;
    S->starts_hit += l == 0;
    return l;
}

/* Entry e gives back g of its GPUs, its highest-numbered (a shrink, SPEC
 * 10.3): they turn free with the models they hold. */
TTS_FN void tts_c_give(tts_state *S, int32_t e, int32_t g)
{
    uint64_t freed = 0;
    for (int32_t u = S->G - 1; u >= 0 && g > 0; u--)
        if (S->ent_mask[e] >> u & 1) {
            freed |= (uint64_t)1 << u;
            g--;
        }
    S->ent_mask[e] &= ~freed;
    tts_c_release(S, S->ent_node[e], freed);
}

/* 1 when running job i's GPUs on some node differ from those of the np
 * (node, GPUs) pairs it held before t, their masks in lm (10.3: with the
 * cache, equal allocations hold the same GPUs). The GPU counts per node
 * are known equal, so the nodes are the same. */
TTS_FN int tts_c_moved(const tts_state *S, int32_t i, const int32_t *pairs, const uint64_t *lm,
                       int32_t np)
{
    for (int32_t p = 0; p < np; p++) {
        uint64_t was = 0, now = 0;
        for (int32_t q = 0; q < np; q++)
            was |= pairs[2 * q] == pairs[2 * p] ? lm[q] : 0;
        for (int32_t e = tts_slot(S, i); e >= 0; e = S->ent_next[e])
            now |= S->ent_node[e] == pairs[2 * p] ? S->ent_mask[e] : 0;
        if (was != now)
            return 1;
    }
    return 0;
}

/* Resets the cache for a run: every GPU free and empty. The counts of
 * free GPUs by model are kept where a run places by L (docs/model.md 13,
 * item 12). */
TTS_FN void tts_c_init(tts_state *S)
{
    S->c_clock = 0;
    S->c_nm = S->tr->nmid + S->tr->nclasses;
    S->c_lx = S->cache && S->c_wfree && (S->cf->cache_place || S->cf->w_warm > 0);
    if (!S->c_free)
        return;
    uint64_t all = S->G >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << S->G) - 1;
    for (int32_t x = 0; x < S->nodes; x++)
        S->c_free[x] = all;
    for (int64_t g = 0; g < S->cluster_gpus; g++)
        S->c_mb[g] = 0;
    for (int64_t s = 0; s < tts_c_at(S, S->cluster_gpus); s++)
        S->c_id[s] = TTS_NO_MODEL;
    for (int32_t m = 0; S->c_need && m < S->c_nm; m++)
        S->c_need[m] = 0;
    for (int64_t v = 0; S->c_lx && v < (int64_t)S->nodes * S->c_nm; v++)
        S->c_wfree[v] = 0;
}

#endif
