/* The reference simulator's SPEC 13: a NIC per node and an uplink per rack,
 * each carrying nic_cap or up_cap spread jobs at full speed, read literally
 * from the text: after the passes at t (step 7) every link's load is
 * counted afresh from the allocations held, every running job's factor f
 * and slowdown s' formed, segments opened at t take their s', and the
 * others whose s' differs from their segment's are re-rated.
 *
 * Readings taken where SPEC 13 is silent or reads two ways (docs/model.md
 * section 14 says each):
 *  1. A job at L1 loads the NIC of every node where it holds GPUs; at L2
 *     also the uplink of every rack where it holds GPUs: once per link,
 *     whatever its GPUs there. A job at L0 loads none, k > G included.
 *  2. link_peak is the largest floor(1000 n_l / cap_l) over the links that
 *     carry a job at some step 7 (0 when none ever does), read after the
 *     loads of that step 7 are counted.
 *  3. A segment opened at t (a start) takes the slowdown of the last step 7
 *     at t: when t is processed again (refsim.c reading 17), it takes that
 *     step's; it is not re-rated after zero seconds.
 *  4. A re-rating pays the unpaid overhead in the order an eviction counts
 *     it (restart, then load, then transfer: refsim.c's close_segment), so
 *     restart_gpu_s, load_gpu_s and xfer_gpu_s split over the segments and
 *     sum to what one segment would have counted.
 *  5. min_run counts from the last start (rjob.tstart), not from a
 *     re-rating; the GPU-seconds held (LAS, dlas, gittins) add up over the
 *     segments, so a demotion falls at the same time. */
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"

int rs_links_bad(const ref_params *p)
{
    return (p->net != REF_NET_OFF && p->net != REF_NET_LINKS) || p->nic_cap < 1 ||
           p->nic_cap > INT32_MAX || p->up_cap < 1 || p->up_cap > INT32_MAX;
}

int64_t rs_links_fmax(const ref_cluster *c, const ref_params *p)
{
    if (p->net != REF_NET_LINKS)
        return 1000;
    int64_t g = c->gpus_per_node, ng = (int64_t)c->nodes_per_rack * g;
    int64_t a = 1000 * g / p->nic_cap, b = 1000 * ng / p->up_cap;
    int64_t f = a > b ? a : b;
    return f > 1000 ? f : 1000;
}

int rs_links_init(sim *S)
{
    if (S->p.net != REF_NET_LINKS)
        return 0;
    S->nic = (int32_t *)calloc((size_t)S->nodes, sizeof *S->nic);
    S->up = (int32_t *)calloc((size_t)S->R, sizeof *S->up);
    return S->nic && S->up ? 0 : -1;
}

void rs_links_free(sim *S)
{
    free(S->nic);
    free(S->up);
    S->nic = S->up = NULL;
}

/* max(1000, 1000 n / cap) */
static int64_t factor(int64_t n, int64_t cap)
{
    int64_t f = 1000 * n / cap;
    return f > 1000 ? f : 1000;
}

/* f of running job i from the loads (13.3): 1000 at L0 */
static int64_t job_factor(const sim *S, int64_t i)
{
    const rjob *j = &S->j[i];
    int64_t f = 1000;
    if (j->level == 0)
        return f;
    for (int32_t x = 0; x < S->nodes; x++) {
        if (!S->on[i * S->nodes + x])
            continue;
        int64_t a = factor(S->nic[x], S->p.nic_cap);
        f = a > f ? a : f;
        if (j->level == 2) {
            int64_t b = factor(S->up[x / S->N], S->p.up_cap);
            f = b > f ? b : f;
        }
    }
    return f;
}

int rs_links_step7(sim *S, int64_t t)
{
    if (S->p.net != REF_NET_LINKS)
        return 0;
    memset(S->nic, 0, (size_t)S->nodes * sizeof *S->nic);
    memset(S->up, 0, (size_t)S->R * sizeof *S->up);
    for (int64_t i = 0; i < S->n; i++) {
        const rjob *j = &S->j[i];
        if (j->state != RS_RUN || j->level == 0)
            continue;
        int32_t last_rack = -1;
        for (int32_t x = 0; x < S->nodes; x++) {
            if (!S->on[i * S->nodes + x])
                continue;
            S->nic[x]++;
            if (j->level == 2 && x / S->N != last_rack) { /* nodes in rack order */
                last_rack = x / S->N;
                S->up[last_rack]++;
            }
        }
    }
    for (int32_t x = 0; x < S->nodes; x++)
        if (S->nic[x] && 1000 * (int64_t)S->nic[x] / S->p.nic_cap > S->link_peak)
            S->link_peak = 1000 * (int64_t)S->nic[x] / S->p.nic_cap;
    for (int32_t r = 0; r < S->R; r++)
        if (S->up[r] && 1000 * (int64_t)S->up[r] / S->p.up_cap > S->link_peak)
            S->link_peak = 1000 * (int64_t)S->up[r] / S->p.up_cap;
    for (int64_t i = 0; i < S->n; i++) {
        rjob *j = &S->j[i];
        if (j->state != RS_RUN)
            continue;
        int64_t s0 = level_slow(&S->p, &S->models[S->jobs[i].model], j->level);
        int64_t s = rs_links_slow(s0, job_factor(S, i));
        if (j->t0 == t) { /* opened at t: it did no work yet */
            j->s = s;
            j->end = t + j->r + ceil_div(j->w * s, 1000000);
        } else if (s != j->s && rs_rerate(S, i, t, s)) {
            return -1;
        }
    }
    return 0;
}
