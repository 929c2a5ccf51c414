/* sim_step_layout.h: the engine state's one buffer (sim_step.h): the
 * fresh-job tree's shape, and where each array of a configuration's state
 * lies and how many bytes it takes, the optional parts (TTS_WITH_*) only
 * when asked for. One buffer a configuration, so the CPU gives each thread
 * one and the GPU one per batch slot. After sim_step_base.h;
 * sim_step_order.h comes next. */
#ifndef TT_SIM_STEP_LAYOUT_H
#define TT_SIM_STEP_LAYOUT_H

#include "sim_step_base.h"

/* The fresh-job tree has TTS_TREE_B children a node (16: a node's
 * children hold one 64-byte line per class). Each level above the leaves
 * is stored in groups of TTS_TREE_B siblings, class-major
 * ([class][sibling]), so a node's value is a min over a short contiguous
 * array. A leaf is one byte (the class; the GPUs are the trace's): 20
 * bytes a job for leaves like the nodes would be most of a
 * configuration's memory. */
#ifndef TTS_TREE_B
#define TTS_TREE_B 16
#endif
#define TTS_TREE_GROUP (TTS_TREE_B * TTS_NCLASS) /* int32 per group */
#define TTS_TREE_MAXLV 12                       /* levels: n < 2^31, B >= 8 */

#define TTS_LEAF_NONE 0xFF

/* The tree's shape for n jobs above the leaves: off[h] (h = 1 .. top + 1)
 * is where level h starts (int32 elements; off[top + 1] is the whole),
 * when off is given. Returns top, the root's level (a level of one node,
 * 1 at least). */
TTS_FN int32_t tts_tree_shape(int64_t n, int64_t *off, int64_t *total)
{
    int64_t m = n > TTS_TREE_B ? (n + TTS_TREE_B - 1) / TTS_TREE_B : 1, at = 0;
    int32_t h = 1;
    for (;;) {
        int64_t groups = (m + TTS_TREE_B - 1) / TTS_TREE_B;
        if (off)
            off[h] = at;
        at += groups * TTS_TREE_GROUP;
        if (m == 1)
            break;
        m = groups;
        h++;
    }
    if (off)
        off[h + 1] = at;
    *total = at;
    return h;
}

/* Points S->field at buf + b and moves b past count values (8-aligned):
 * tts_layout's and tts_wf_layout's one step. */
#define TTS_CARVE(field, count, type)                                                       \
    do {                                                                                   \
        if (S)                                                                             \
            S->field = (type *)(void *)(buf + b);                                          \
        b += ((int64_t)(count) * (int64_t)sizeof(type) + 7) / 8 * 8;                       \
    } while (0)

/* Lays out the buffer of one simulation of n jobs on c with the optional
 * parts in with (TTS_WITH_*): with S, points S's arrays into buf; returns
 * the bytes either way (8-aligned pieces). One function, so the size and
 * the layout cannot disagree. */
/*
 * The bounds the arrays are sized by, each checked where it is written
 * (TTS_CHECK, in a debug build). Every running job holds at least one GPU
 * and every allocation entry at least one, so:
 *  - run = min(n, slots) bounds the running jobs (heap, el_gl, el_lj's
 *    records of one kind, below);
 *  - slots bounds the allocation entries (ent_*), the victims of one
 *    search (vic: distinct running jobs, or before their dedup one per
 *    entry on the chosen nodes), the grow phase's candidates (vic too:
 *    running jobs), the evictable occupants of a node (tmp: <= G);
 *  - nodes bounds a placement (pl_*: one entry a node);
 *  - pend: a job is queued there at most once per pass (an evicted job
 *    waits there, untried, until the pass ends and empties it), and the
 *    jobs evicted in a pass include jobs started in it (priority
 *    preemption may evict an insensitive evictor, a sensitive waiter may
 *    evict a job started earlier in the pass), so n, not run;
 *  - tmp in a shrink: two ints per loaned entry of one job (its entries,
 *    first included, are <= slots), so 2 slots;
 *  - el_lj, el_lp: the event's log of touched jobs. A record of a job
 *    running before t holds its allocation at t's start (it is taken
 *    before the first change at t) and such jobs are distinct (one
 *    evicted at t and restarted is a job started at t): <= run records,
 *    <= slots pairs, as allocations at one instant. A record of a job
 *    started at t comes from the grow phase (a job started at t holds no
 *    loan a pass could shrink), where nothing is evicted: distinct
 *    running jobs whose pre-grow allocations are disjoint, <= run and
 *    <= slots again. So 2 run records and 2 slots pairs.
 */
TTS_FN int64_t tts_layout(tts_state *S, char *buf, int64_t n, const tts_cluster *c, int32_t with)
{
    int64_t nodes = (int64_t)c->racks * c->nodes_per_rack, slots = nodes * c->gpus_per_node;
    int64_t run = n < slots ? n : slots, words = (nodes + 63) / 64, tree, b = 0;
    tts_tree_shape(n, NULL, &tree);
    TTS_CARVE(info, n, uint32_t);
    TTS_CARVE(evict, n, int32_t);
    TTS_CARVE(tend, n, int64_t);
    TTS_CARVE(held, n, int64_t);
    TTS_CARVE(first, with & TTS_WITH_JOBS ? n : 0, int64_t);
    TTS_CARVE(starts, with & TTS_WITH_JOBS ? 3 * n : 0, int32_t);
    TTS_CARVE(vict, with & TTS_WITH_VICT ? n : 0, int32_t);
    TTS_CARVE(leaf, n, uint8_t);
    TTS_CARVE(tree, tree, int32_t);
    TTS_CARVE(tree_off, TTS_TREE_MAXLV + 1, int64_t);
    TTS_CARVE(heap, run, tts_hent);
    TTS_CARVE(pend, n, int32_t);
    TTS_CARVE(heap_pos, slots, int32_t);
    TTS_CARVE(age_prev, slots, int32_t);
    TTS_CARVE(age_next, slots, int32_t);
    TTS_CARVE(t0, slots, int64_t);
    TTS_CARVE(run_w, slots, int64_t);
    TTS_CARVE(slow_tab, 2 * TTS_MAX_CLASSES, int64_t);
    TTS_CARVE(freeg, nodes, int32_t);
    TTS_CARVE(nocc, nodes, int32_t);
    TTS_CARVE(ev, nodes, int32_t);
    TTS_CARVE(nonev, nodes, int32_t);
    TTS_CARVE(occ, slots, int32_t);
    TTS_CARVE(rack_free, c->racks, int32_t);
    TTS_CARVE(rack_l0, c->racks, int32_t);
    TTS_CARVE(rack_pc, c->racks, int32_t);
    TTS_CARVE(rack_clear, c->racks, int32_t);
    TTS_CARVE(rack_part, c->racks, int32_t);
    TTS_CARVE(rack_cpart, c->racks, int32_t);
    TTS_CARVE(rack_nfree, c->racks * (c->gpus_per_node + 1), int32_t);
    TTS_CARVE(rack_nev, c->racks * (c->gpus_per_node + 1), int32_t);
    TTS_CARVE(ent_job, slots, int32_t);
    TTS_CARVE(ent_node, slots, int32_t);
    TTS_CARVE(ent_gpus, slots, int32_t);
    TTS_CARVE(ent_next, slots, int32_t);
    TTS_CARVE(pl_node, nodes, int32_t);
    TTS_CARVE(pl_gpus, nodes, int32_t);
    TTS_CARVE(mark, nodes, int32_t);
    TTS_CARVE(vic, slots, int32_t);
    TTS_CARVE(tmp, 2 * slots, int32_t);
    TTS_CARVE(cur, 2 * TTS_MAX_CLASSES, int64_t);
    TTS_CARVE(lvl, (c->gpus_per_node + 1) * words, uint64_t);
    TTS_CARVE(evl, (c->gpus_per_node + 1) * words, uint64_t);
    TTS_CARVE(asub, n, int64_t);
    int64_t nm = with & TTS_WITH_MLFQ ? n : 0;
    TTS_CARVE(mq, nm, int32_t);
    TTS_CARVE(mlink, nm, int32_t);
    TTS_CARVE(mheap, nm, int32_t);
    TTS_CARVE(mheap_pos, nm, int32_t);
    TTS_CARVE(qent, nm, int64_t);
    TTS_CARVE(aq0, nm, int64_t);
    TTS_CARVE(pp, nm, int64_t);
    TTS_CARVE(nxt, nm, int64_t);
    TTS_CARVE(mh0, with & TTS_WITH_ELASTIC ? nm : 0, int64_t);
    TTS_CARVE(fkey, with & TTS_WITH_FTF ? n : 0, int64_t);
    int64_t el = with & TTS_WITH_ELASTIC ? 1 : 0;
    TTS_CARVE(el_k, el * n, int32_t);
    TTS_CARVE(el_rk, el * n, int32_t);
    TTS_CARVE(el_last, el * n, int64_t);
    TTS_CARVE(loan, el * nodes, int32_t);
    TTS_CARVE(el_lj, el * 6 * 2 * run, int32_t);
    TTS_CARVE(el_lp, el * 2 * 2 * slots, int32_t);
    TTS_CARVE(el_key, el * c->gpus_per_node, int32_t);
    TTS_CARVE(el_rmark, el * c->racks, int32_t);
    TTS_CARVE(el_gl, el * run, int32_t);
    TTS_CARVE(el_gpos, el * slots, int32_t);
    int64_t gs = el && (with & (TTS_WITH_VICT | TTS_WITH_JOBS)) ? 1 : 0;
    TTS_CARVE(el_gs, gs * n, int64_t);
    int64_t ov = with & TTS_WITH_OVH ? n : 0;
    TTS_CARVE(ov_l, ov, int32_t);
    TTS_CARVE(ov_x, ov, int32_t);
    int64_t ca = with & TTS_WITH_CACHE ? 1 : 0, cs = ca * TTS_WITH_SLOTS_OF(with);
    TTS_CARVE(c_free, ca * nodes, uint64_t);
    TTS_CARVE(ent_mask, ca * slots, uint64_t);
    TTS_CARVE(c_id, slots * cs, int32_t);
    TTS_CARVE(c_use, slots * cs, int32_t);
    TTS_CARVE(c_mb, ca * slots, int32_t);
    int64_t wv = with & TTS_WITH_WARM ? n : 0;
    TTS_CARVE(wv_t, wv, int64_t);
    TTS_CARVE(wv_prev, wv, int32_t);
    TTS_CARVE(wv_next, wv, int32_t);
    TTS_CARVE(el_lm, ca * el * 2 * slots, uint64_t);
    if (S) {
        S->words = (int32_t)words;
        S->with = with;
        if (!(with & TTS_WITH_JOBS)) {
            S->first = NULL;
            S->starts = NULL;
        }
        if (!(with & TTS_WITH_VICT))
            S->vict = NULL;
        if (!(with & TTS_WITH_MLFQ)) {
            S->mq = S->mlink = S->mheap = S->mheap_pos = NULL;
            S->qent = S->aq0 = S->pp = S->nxt = NULL;
        }
        if (!(with & TTS_WITH_MLFQ) || !(with & TTS_WITH_ELASTIC))
            S->mh0 = NULL;
        if (!(with & TTS_WITH_FTF))
            S->fkey = NULL;
        if (!el) {
            S->el_k = S->el_rk = S->loan = S->el_lj = S->el_lp = S->el_key = S->el_rmark = NULL;
            S->el_gl = S->el_gpos = NULL;
            S->el_last = NULL;
        }
        if (!gs)
            S->el_gs = NULL;
        if (!ov)
            S->ov_l = S->ov_x = NULL;
        if (!ca || !el)
            S->el_lm = NULL;
        if (!ca) {
            S->c_free = S->ent_mask = NULL;
            S->c_id = S->c_use = S->c_mb = NULL;
        }
        if (!wv) {
            S->wv_t = NULL;
            S->wv_prev = S->wv_next = NULL;
        }
        S->c_need = NULL;
        S->c_wfree = NULL;
        S->t_left = S->t_home = S->rl = NULL;
        S->t_ready = S->wf_end = S->rcur = NULL;
    }
    return b;
}

/* The parts of the buffer sized by the trace's tasks and models, after
 * the rest (docs/model.md section 13): with tasks, per task its parents
 * left, home and ready time (16 bytes) and its place in the ready list
 * (4), per workflow its last end (8), two cursors per timer group; with
 * the cache, the waiting jobs per model id (4 an id), and with
 * TTS_WITH_LXCNT a byte per node and model id. With S, points S's arrays
 * into buf; returns the bytes. */
TTS_FN int64_t tts_wf_layout(tts_state *S, char *buf, const tts_trace *tr, const tts_cluster *c,
                             int32_t with)
{
    int64_t b = 0, nt = tr->ntask;
    TTS_CARVE(t_left, nt, int32_t);
    TTS_CARVE(t_home, nt, int32_t);
    TTS_CARVE(t_ready, nt, int64_t);
    TTS_CARVE(rl, nt, int32_t);
    TTS_CARVE(wf_end, tr->nwf, int64_t);
    TTS_CARVE(rcur, nt > 0 ? 2 * TTS_MAX_CLASSES : 0, int64_t);
    TTS_CARVE(c_need, with & TTS_WITH_CACHE ? tr->nmid + tr->nclasses : 0, int32_t);
    int64_t lx = with & TTS_WITH_CACHE && with & TTS_WITH_LXCNT ? 1 : 0;
    TTS_CARVE(c_wfree, lx * c->racks * c->nodes_per_rack * (tr->nmid + tr->nclasses), uint8_t);
    if (S && !lx)
        S->c_wfree = NULL;
    if (S && nt == 0) {
        S->t_left = S->t_home = S->rl = NULL;
        S->t_ready = S->wf_end = S->rcur = NULL;
    }
    if (S && !(with & TTS_WITH_CACHE))
        S->c_need = NULL;
    return b;
}

#undef TTS_CARVE

/* Bytes of the buffer one simulation of n jobs on c needs. */
TTS_FN int64_t tts_state_bytes(int64_t n, const tts_cluster *c, int32_t with)
{
    return tts_layout(NULL, NULL, n, c, with);
}

/* Points S's arrays into buf (tts_state_bytes(n, c, with) bytes,
 * 8-aligned). */
TTS_FN void tts_state_bind(tts_state *S, void *buf, int64_t n, const tts_cluster *c, int32_t with)
{
    tts_layout(S, (char *)buf, n, c, with);
}

/* Bytes of the buffer one simulation of tr on c needs, workflows
 * included (the same as tts_state_bytes for a trace without tasks). */
TTS_FN int64_t tts_state_bytes_tr(const tts_trace *tr, const tts_cluster *c, int32_t with)
{
    return tts_layout(NULL, NULL, tr->n, c, with) + tts_wf_layout(NULL, NULL, tr, c, with);
}

/* tts_state_bind for tr's jobs and tasks (tts_state_bytes_tr bytes). */
TTS_FN void tts_state_bind_tr(tts_state *S, void *buf, const tts_trace *tr, const tts_cluster *c,
                              int32_t with)
{
    int64_t b = tts_layout(S, (char *)buf, tr->n, c, with);
    tts_wf_layout(S, (char *)buf + b, tr, c, with);
}

#endif
