/* The reference simulator's victim search: SPEC 6's "Choosing victims,
 * exactly", literally (readings 9 to 13 of refsim.c), with the predicate
 * SPEC 11's priority eviction swaps in (refsim_orders.c). */
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"

/* ---- preemption (section 6, "Choosing victims, exactly") ---- */

/* SPEC 6's rule, or under a priority eviction (victim_q >= 0) SPEC 11's. */
static int evictable(const sim *S, int64_t i, int64_t t)
{
    const rjob *j = &S->j[i];
    if (S->victim_q >= 0)
        return rs_prio_evictable(S, i, t, S->victim_q);
    return j->state == RS_RUN && !is_sensitive(&S->p, &S->models[S->jobs[i].model]) &&
           t - j->tstart >= S->p.min_run && j->evictions < S->p.max_preempt;
}

/* The k <= G rule on node x for need GPUs: evictable occupants, most GPUs on
 * the node first (then lower index), until need are free. Marks the victims
 * in vic (when not NULL) and returns 1 with the cost, or 0 if it cannot. */
static int node_cost(const sim *S, int32_t x, int32_t need, int64_t t, int64_t *cg,
                     int64_t *cn, char *vic)
{
    int32_t freed = S->freeg[x];
    *cg = *cn = 0;
    char *taken = (char *)calloc((size_t)S->n + 1, 1);
    if (!taken)
        return -1;
    while (freed < need) {
        int64_t y = -1;
        for (int64_t i = 0; i < S->n; i++) {
            int32_t h = S->on[i * S->nodes + x];
            if (h > 0 && !taken[i] && evictable(S, i, t) &&
                (y < 0 || h > S->on[y * S->nodes + x]))
                y = i;
        }
        if (y < 0)
            break;
        taken[y] = 1;
        freed += S->on[y * S->nodes + x];
        *cg += S->jobs[y].gpus;
        *cn += 1;
    }
    if (freed >= need && vic)
        for (int64_t i = 0; i < S->n; i++)
            if (taken[i])
                vic[i] = 1;
    free(taken);
    return freed >= need;
}

/* Clearing node x: every occupant evictable. Marks them in vic when given. */
static int clear_cost(const sim *S, int32_t x, int64_t t, int64_t *cg, int64_t *cn, char *vic)
{
    *cg = *cn = 0;
    for (int64_t i = 0; i < S->n; i++)
        if (S->on[i * S->nodes + x] > 0) {
            if (!evictable(S, i, t))
                return 0;
            *cg += S->jobs[i].gpus;
            *cn += 1;
        }
    if (vic)
        for (int64_t i = 0; i < S->n; i++)
            if (S->on[i * S->nodes + x] > 0)
                vic[i] = 1;
    return 1;
}

static int cost_less(int64_t g1, int64_t n1, int64_t g2, int64_t n2)
{
    return g1 < g2 || (g1 == g2 && n1 < n2);
}

/* For rack r and k > G: picks the a cheapest clearable nodes (chosen[]) and
 * the b node (*bnode, -1 when b = 0). Returns 1 with the rack's cost. */
static int rack_pick(const sim *S, int32_t r, int32_t k, int64_t t, char *chosen,
                     int32_t *bnode, int64_t *cg, int64_t *cn)
{
    int32_t a = k / S->G, b = k % S->G, lo = r * S->N, hi = lo + S->N;
    *cg = *cn = 0;
    *bnode = -1;
    memset(chosen, 0, (size_t)S->nodes);
    for (int32_t got = 0; got < a; got++) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (!chosen[x] && clear_cost(S, x, t, &g, &c, NULL) &&
                (y < 0 || cost_less(g, c, yg, yn))) {
                y = x;
                yg = g;
                yn = c;
            }
        }
        if (y < 0)
            return 0;
        chosen[y] = 1;
        *cg += yg;
        *cn += yn;
    }
    if (b > 0) {
        int32_t y = -1;
        int64_t yg = 0, yn = 0;
        for (int32_t x = lo; x < hi; x++) {
            int64_t g, c;
            if (chosen[x])
                continue;
            int rc = node_cost(S, x, b, t, &g, &c, NULL);
            if (rc < 0)
                return -1;
            if (rc && (y < 0 || cost_less(g, c, yg, yn))) {
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

/* The cheapest L0 placement that evicting evictable jobs would open for a
 * job of k GPUs: fills pl and vic (jobs to evict). 1 found, 0 none, -1 no
 * memory. */
int rs_find_preempt(const sim *S, int32_t k, int64_t t, int32_t *pl, char *vic)
{
    memset(pl, 0, (size_t)S->nodes * sizeof *pl);
    memset(vic, 0, (size_t)S->n + 1);
    if (k <= S->G) {
        int32_t best = -1;
        int64_t bg = 0, bn = 0;
        for (int32_t x = 0; x < S->nodes; x++) {
            int64_t g, c;
            int rc = node_cost(S, x, k, t, &g, &c, NULL);
            if (rc < 0)
                return -1;
            if (rc && (best < 0 || cost_less(g, c, bg, bn))) {
                best = x;
                bg = g;
                bn = c;
            }
        }
        if (best < 0)
            return 0;
        int64_t g, c;
        if (node_cost(S, best, k, t, &g, &c, vic) < 0)
            return -1;
        pl[best] = k;
        return 1;
    }
    char *chosen = (char *)malloc((size_t)S->nodes);
    if (!chosen)
        return -1;
    int32_t best = -1, bnode = -1;
    int64_t bg = 0, bn = 0;
    for (int32_t r = 0; r < S->R; r++) {
        int64_t g, c;
        int32_t bx;
        int rc = rack_pick(S, r, k, t, chosen, &bx, &g, &c);
        if (rc < 0) {
            free(chosen);
            return -1;
        }
        if (rc && (best < 0 || cost_less(g, c, bg, bn))) {
            best = r;
            bg = g;
            bn = c;
        }
    }
    int found = best >= 0;
    if (found) {
        int64_t g, c;
        rack_pick(S, best, k, t, chosen, &bnode, &g, &c);
        for (int32_t x = best * S->N; x < (best + 1) * S->N; x++)
            if (chosen[x]) {
                clear_cost(S, x, t, &g, &c, vic);
                pl[x] = S->G;
            }
        if (bnode >= 0) {
            if (node_cost(S, bnode, k % S->G, t, &g, &c, vic) < 0)
                found = -1;
            pl[bnode] = k % S->G;
        }
    }
    free(chosen);
    return found;
}
