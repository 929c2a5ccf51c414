/* The reference simulator's invariants (refsim.h's ref_check_invariants):
 * everything recomputed from the inputs, the log and the results alone, not
 * from the simulator's state. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"

static int failf(char *why, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failf(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* SPEC 11's results: every job's rho and the fairness metrics recomputed
 * from the jobs' ends; the counts of queue changes only where they can
 * happen. */
static int check_orders(const ref_cluster *c, const ref_params *p, const ref_job *jobs,
                        int64_t n, const ref_job_result *out, const ref_metrics *m, int prio,
                        char *why, size_t whylen)
{
    int64_t *sub = (int64_t *)calloc((size_t)n + 1, sizeof *sub);
    int64_t *end = (int64_t *)calloc((size_t)n + 1, sizeof *end);
    int *acc = (int *)calloc((size_t)n + 1, sizeof *acc);
    int rc = sub && end && acc ? 0 : failf(why, whylen, "no memory");
    int64_t cluster = (int64_t)c->racks * c->nodes_per_rack * c->gpus_per_node;
    int64_t nr = 0, sum = 0, mx = REF_NONE, unfair = 0;
    for (int64_t i = 0; !rc && i < n; i++) {
        sub[i] = rs_ready(p, jobs, i, out);
        end[i] = out[i].end;
        acc[i] = !out[i].rejected;
    }
    for (int64_t i = 0; !rc && i < n; i++) {
        int64_t r = acc[i] ? rs_rho(sub, end, acc, n, i, jobs[i].duration, jobs[i].gpus, cluster)
                           : REF_NONE;
        if (out[i].rho != r)
            rc = failf(why, whylen, "job %lld: rho %lld, recomputed %lld", (long long)i,
                       (long long)out[i].rho, (long long)r);
        if (r != REF_NONE) {
            nr++;
            sum += r;
            mx = mx == REF_NONE || r > mx ? r : mx;
            unfair += r > 1000;
        }
    }
    if (!rc && (m->ftf_max != mx || m->ftf_unfair != unfair ||
                !same_real(m->ftf_mean, nr ? (double)sum / (double)nr : NAN)))
        rc = failf(why, whylen, "fairness metrics disagree with the jobs");
    if (!rc && (m->preempt_prio > m->preemptions || (!prio && m->preempt_prio) ||
                (!rs_is_mlfq(p) && (m->demotions || m->promotions)) ||
                (p->promote == 0 && m->promotions)))
        rc = failf(why, whylen, "demotions %lld, promotions %lld, priority evictions %lld "
                   "where there can be none", (long long)m->demotions,
                   (long long)m->promotions, (long long)m->preempt_prio);
    free(sub);
    free(end);
    free(acc);
    return rc;
}

/* SPEC 13 recomputed from the log: the loads of every NIC and uplink held
 * at time tau by the segments u with t0 <= tau < t1 (the allocations step
 * 7 reads after the last processing of tau), plus, with zero = 1, the
 * completed segments of zero length at tau (held through tau's first
 * step 7, refsim.c reading 17). */
static void link_loads(const ref_log *log, int32_t N, int64_t tau, int zero, int32_t *nic,
                       int32_t *up, int32_t R)
{
    int32_t nodes = log->nodes;
    memset(nic, 0, (size_t)nodes * sizeof *nic);
    memset(up, 0, (size_t)R * sizeof *up);
    for (int64_t u = 0; u < log->nseg; u++) {
        const ref_segment *g = &log->seg[u];
        int in = g->t0 <= tau && tau < g->t1;
        if (zero && g->t0 == tau && g->t1 == tau && g->completed)
            in = 1;
        if (!in || g->level == 0)
            continue;
        int32_t last = -1;
        for (int32_t x = 0; x < nodes; x++) {
            if (!log->alloc[u * nodes + x])
                continue;
            nic[x]++;
            if (g->level == 2 && x / N != last)
                up[last = x / N]++;
        }
    }
}

/* The slowdown SPEC 13.3 gives segment q's allocation under the loads. */
static int64_t link_slow(const ref_params *p, const ref_log *log, int32_t N, int64_t q,
                         int64_t s0, const int32_t *nic, const int32_t *up)
{
    const ref_segment *g = &log->seg[q];
    int64_t f = 1000;
    for (int32_t x = 0; g->level > 0 && x < log->nodes; x++) {
        if (!log->alloc[q * log->nodes + x])
            continue;
        int64_t a = 1000 * (int64_t)nic[x] / p->nic_cap;
        f = a > f ? a : f;
        int64_t b = g->level == 2 ? 1000 * (int64_t)up[x / N] / p->up_cap : 0;
        f = b > f ? b : f;
    }
    return rs_links_slow(s0, f);
}

/* With links on: each segment's slowdown is the one its allocation has at
 * its t0, and stays so at every later change of loads before its t1 (or
 * it would have been re-rated); link_peak is the largest load over cap of
 * any step 7, within the bounds the log gives. */
static int check_links(const ref_cluster *c, const ref_params *p, const ref_model *models,
                       const ref_job *jobs, const ref_metrics *m, const ref_log *log,
                       char *why, size_t whylen)
{
    int32_t N = c->nodes_per_rack, nodes = log->nodes, R = c->racks;
    int64_t nt = 2 * log->nseg, peak = 0, peak_hi = 0;
    int64_t *ts = (int64_t *)malloc((size_t)(nt + 1) * sizeof *ts);
    int32_t *nic = (int32_t *)malloc((size_t)nodes * sizeof *nic);
    int32_t *up = (int32_t *)malloc((size_t)R * sizeof *up);
    int rc = ts && nic && up ? 0 : failf(why, whylen, "no memory");
    for (int64_t q = 0; !rc && q < log->nseg; q++) {
        ts[2 * q] = log->seg[q].t0;
        ts[2 * q + 1] = log->seg[q].t1;
    }
    if (!rc)
        qsort(ts, (size_t)nt, sizeof *ts, cmp_i64);
    for (int64_t a = 0; !rc && a < nt; a++) {
        if (a > 0 && ts[a] == ts[a - 1])
            continue;
        /* the last step 7 at ts[a] (zero = 0) bounds link_peak from below;
         * with the zero-length completed segments, held through the first
         * (which the log cannot tell apart from a later pass's starts at
         * ts[a]), from above */
        for (int zero = 1; zero >= 0; zero--) {
            link_loads(log, N, ts[a], zero, nic, up, R);
            int64_t *pk = zero ? &peak_hi : &peak;
            for (int32_t x = 0; x < nodes; x++)
                if (nic[x] && 1000 * (int64_t)nic[x] / p->nic_cap > *pk)
                    *pk = 1000 * (int64_t)nic[x] / p->nic_cap;
            for (int32_t r = 0; r < R; r++)
                if (up[r] && 1000 * (int64_t)up[r] / p->up_cap > *pk)
                    *pk = 1000 * (int64_t)up[r] / p->up_cap;
        }
        /* nic, up: the loads of the last step 7 at ts[a] */
        for (int64_t q = 0; !rc && q < log->nseg; q++) {
            const ref_segment *g = &log->seg[q];
            if (g->t0 > ts[a] || ts[a] >= g->t1)
                continue;
            int64_t s0 = level_slow(p, &models[jobs[g->job].model], g->level);
            int64_t s = link_slow(p, log, N, q, s0, nic, up);
            if (s != g->s)
                rc = failf(why, whylen, "job %lld: slowdown %lld from %lld, the links give %lld at "
                           "%lld", (long long)g->job, (long long)g->s, (long long)g->t0,
                           (long long)s, (long long)ts[a]);
        }
    }
    if (!rc && (m->link_peak < peak || m->link_peak > peak_hi))
        rc = failf(why, whylen, "link_peak %lld, recomputed %lld .. %lld", (long long)m->link_peak,
                   (long long)peak, (long long)peak_hi);
    free(ts);
    free(nic);
    free(up);
    return rc;
}

int ref_check_invariants(const ref_cluster *c, const ref_params *p, const ref_model *models,
                         int nmodels, const ref_job *jobs, int64_t n,
                         const ref_job_result *out, const ref_metrics *m, const ref_log *log,
                         char *why, size_t whylen)
{
    if (rs_bad_input(c, p, models, nmodels, jobs, n, out) || !m || !log)
        return failf(why, whylen, "bad input to the check");
    int32_t N = c->nodes_per_rack, G = c->gpus_per_node, nodes = c->racks * N;
    int64_t cluster = (int64_t)nodes * G;
    int prio = rs_is_mlfq(p) && p->prio_preempt;
    if (log->nodes != nodes)
        return failf(why, whylen, "log has %d nodes, cluster %d", log->nodes, nodes);
    const ref_segment *sg = log->seg;
    /* per-segment shape, slowdown and work arithmetic */
    for (int64_t q = 0; q < log->nseg; q++) {
        const ref_segment *g = &sg[q];
        const int32_t *al = log->alloc + q * nodes;
        if (g->job < 0 || g->job >= n || out[g->job].rejected)
            return failf(why, whylen, "segment %lld: bad job", (long long)q);
        const ref_job *jb = &jobs[g->job];
        int64_t sum = 0;
        for (int32_t x = 0; x < nodes; x++) {
            if (al[x] < 0 || al[x] > G)
                return failf(why, whylen, "segment %lld: %d GPUs on node %d", (long long)q,
                             al[x], x);
            sum += al[x];
        }
        if (sum != jb->gpus)
            return failf(why, whylen, "job %lld: holds %lld GPUs, wants %d",
                         (long long)g->job, (long long)sum, jb->gpus);
        int lv = classify(N, G, nodes, al, jb->gpus);
        int64_t s0 = level_slow(p, &models[jb->model], lv);
        /* links (13.3) only raise it: check_links says by how much */
        if (lv != g->level || (p->net == REF_NET_LINKS ? g->s < s0 : g->s != s0))
            return failf(why, whylen, "job %lld: level %d / slowdown %lld wrong at %lld",
                         (long long)g->job, g->level, (long long)g->s, (long long)g->t0);
        int64_t held = g->t1 - g->t0, run = held - g->r > 0 ? held - g->r : 0;
        if (held < 0)
            return failf(why, whylen, "job %lld: segment ends before it starts",
                         (long long)g->job);
        if (g->completed) {
            if (g->done != g->w_before ||
                g->t1 != g->t0 + g->r + ceil_div(g->w_before * g->s, 1000000))
                return failf(why, whylen, "job %lld: end %lld is not t0 + r + ceil(w s / 1e6)",
                             (long long)g->job, (long long)g->t1);
        } else {
            int64_t d = run * 1000000 / g->s;
            if (g->done != (d < g->w_before ? d : g->w_before))
                return failf(why, whylen, "job %lld: eviction or re-rating progress wrong",
                             (long long)g->job);
            /* ends at t are freed before the passes at t, so only a
             * zero-length segment (reading 17) can be evicted at its end */
            int64_t end = g->t0 + g->r + ceil_div(g->w_before * g->s, 1000000);
            if (end <= g->t1 && !(end == g->t1 && held == 0))
                return failf(why, whylen, "job %lld: evicted after its end", (long long)g->job);
        }
    }
    /* no GPU given twice: at every segment start, per node, the GPUs of the
     * segments holding [t0, t1) there are at most G */
    for (int64_t q = 0; q < log->nseg; q++)
        for (int32_t x = 0; x < nodes; x++) {
            int64_t tau = sg[q].t0, h = 0;
            for (int64_t u = 0; u < log->nseg; u++)
                if (sg[u].t0 <= tau && tau < sg[u].t1)
                    h += log->alloc[u * nodes + x];
            if (h > G)
                return failf(why, whylen, "node %d holds %lld GPUs at %lld", x, (long long)h,
                             (long long)tau);
        }
    /* SPEC 12: the rejected rows, and each task's home from its last
     * segment */
    char *rejrow = (char *)calloc((size_t)n + 1, 1);
    int32_t *home = (int32_t *)malloc(((size_t)n + 1) * sizeof *home);
    int rc = 0;
    /* per job: segments in time order, one completion, the last */
    int64_t acc = 0, first = 0, last = 0, jsum = 0, qsum = 0, used_all = 0, comm = 0, rst = 0;
    int64_t pre = 0, placed[3] = {0, 0, 0}, rej = 0;
    int64_t *jct = (int64_t *)malloc((size_t)(n + 1) * sizeof *jct);
    int64_t *que = (int64_t *)malloc((size_t)(n + 1) * sizeof *que);
    int64_t lds = 0, xfs = 0, hits = 0, wf_rej = 0, link = 0, starts = 0, rerates = 0;
    if (!jct || !que || !rejrow || !home) {
        rc = failf(why, whylen, "no memory");
        goto out;
    }
    wf_rej = rs_wf_rejects(c, p, models, jobs, n, rejrow);
    for (int64_t i = 0; i < n; i++)
        home[i] = -1;
    for (int64_t q = 0; q < log->nseg; q++)
        if (sg[q].completed)
            home[sg[q].job] = rs_home(log->alloc + q * nodes, nodes);
    for (int64_t i = 0; i < n && rc == 0; i++) {
        const ref_job *jb = &jobs[i];
        const ref_job_result *o = &out[i];
        int64_t sub = rs_ready(p, jobs, i, out); /* a task's ready time */
        if (rejrow[i]) {
            if (!o->rejected || o->end != REF_NONE || o->used_gpu_s || o->preemptions)
                rc = failf(why, whylen, "job %lld: rejected by SPEC 3 or 12.1, yet ran",
                           (long long)i);
            rej++;
            continue;
        }
        if (o->rejected) {
            rc = failf(why, whylen, "job %lld: rejected though it fits", (long long)i);
            break;
        }
        int64_t entry = sub, prev_end = INT64_MIN, w = jb->duration * 1000, ends = 0;
        int64_t used = 0, queue = 0, evic = 0, nseg = 0, lv[3] = {0, 0, 0}, first_t0 = 0, s1 = 0;
        int64_t r1 = 0, mb = rs_model_mb(p, models, jobs, n, rs_model_id(p, jobs, i));
        int victim = 0, last_level = -1;
        /* after a re-rating (SPEC 13.4): the segment it ended, and the
         * last start, from which min_run counts */
        const ref_segment *prev = NULL;
        int64_t tstart = 0;
        int sens = is_sensitive(p, &models[jb->model]);
        /* a job's segments do not overlap, so the log (in end order) holds
         * them in start order too */
        int64_t cnt = 0;
        for (int64_t q = 0; q < log->nseg; q++)
            cnt += sg[q].job == i;
        for (int64_t s = 0; s < cnt && rc == 0; s++) {
            int64_t q = -1, seen = 0;
            for (int64_t u = 0; u < log->nseg; u++)
                if (sg[u].job == i && seen++ == s) {
                    q = u;
                    break;
                }
            const ref_segment *g = &sg[q];
            if (g->t0 < entry || (prev_end != INT64_MIN && g->t0 < prev_end))
                rc = failf(why, whylen, "job %lld: starts at %lld before it is queued",
                           (long long)i, (long long)g->t0);
            if (g->w_before != w)
                rc = failf(why, whylen, "job %lld: work %lld at start, expected %lld",
                           (long long)i, (long long)g->w_before, (long long)w);
            /* r = R (restarts only) + L (0, or the model's whole load) + X
             * (recomputed from the parents' homes); after a re-rating, the
             * same GPUs and what the segment before left unpaid of each */
            int64_t lfull = p->gpu_mem > 0 && mb >= 0 ? ceil_div(mb, p->load_bw) : 0;
            const int32_t *al = log->alloc + q * nodes;
            int cont = prev != NULL;
            if (cont) {
                int64_t ph = prev->t1 - prev->t0;
                int64_t prs = prev->rr < ph ? prev->rr : ph;
                int64_t pls = prev->ld < ph - prs ? prev->ld : ph - prs;
                int64_t pxs = prev->xf < ph - prs - pls ? prev->xf : ph - prs - pls;
                const int32_t *pa = log->alloc + (prev - sg) * nodes;
                if (g->t0 != prev->t1 || g->level != prev->level ||
                    memcmp(al, pa, (size_t)nodes * sizeof *al) || g->rr != prev->rr - prs ||
                    g->ld != prev->ld - pls || g->xf != prev->xf - pxs ||
                    g->r != g->rr + g->ld + g->xf)
                    rc = failf(why, whylen, "job %lld: the segment after its re-rating at %lld "
                               "is not its continuation", (long long)i, (long long)prev->t1);
            } else if (g->r != g->rr + g->ld + g->xf || g->rr != (nseg == 0 ? 0 : p->restart) ||
                (g->ld != 0 && g->ld != lfull) || g->xf != rs_xfer(p, i, home, al))
                rc = failf(why, whylen, "job %lld: overhead %lld = %lld + %lld + %lld on start %lld",
                           (long long)i, (long long)g->r, (long long)g->rr, (long long)g->ld,
                           (long long)g->xf, (long long)nseg);
            /* the warm wait: one warm node, or nothing */
            if (!cont && g->t0 - entry < p->w_warm &&
                (g->ld + g->xf != 0 || classify(N, G, nodes, al, jb->gpus) != 0 ||
                 jb->gpus > G))
                rc = failf(why, whylen, "job %lld: starts cold at %lld in its warm wait",
                           (long long)i, (long long)g->t0);
            /* the level the timers allowed (L0 always) */
            if (!cont && !victim && g->level > 0 && jb->gpus <= N * G) {
                int64_t wait = g->t0 - entry, w0 = timer_w0(p, jb->model);
                int64_t w1 = timer_w1(p, jb->model);
                int ok = w0 != REF_INF && wait >= w0;
                if (g->level == 2)
                    ok = ok && w1 != REF_INF && wait - w0 >= w1;
                if (!ok)
                    rc = failf(why, whylen, "job %lld: level %d at wait %lld", (long long)i,
                               g->level, (long long)wait);
            }
            if (nseg == 0) {
                first_t0 = g->t0;
                s1 = g->s;
                r1 = g->r;
            }
            queue += g->t0 - entry;
            used += (int64_t)jb->gpus * (g->t1 - g->t0);
            int64_t held = g->t1 - g->t0, run = held - g->r > 0 ? held - g->r : 0;
            comm += jb->gpus * (run * 1000 - g->done);
            int64_t rs = g->rr < held ? g->rr : held, ls = g->ld < held - rs ? g->ld : held - rs;
            rst += jb->gpus * rs;
            lds += jb->gpus * ls;
            xfs += jb->gpus * (g->xf < held - rs - ls ? g->xf : held - rs - ls);
            int64_t s0 = level_slow(p, &models[jb->model], g->level);
            if (g->s > s0) /* SPEC 13.6 */
                link += jb->gpus * (run * 1000000 - g->done * s0);
            if (!cont) {
                hits += g->ld == 0;
                lv[g->level]++;
                starts++;
                tstart = g->t0;
            } else {
                rerates++;
            }
            prev = g->rerated ? g : NULL;
            last_level = g->level;
            w -= g->done;
            nseg++;
            if (g->rerated) {
                if (g->completed)
                    rc = failf(why, whylen, "job %lld: a segment both completed and re-rated",
                               (long long)i);
                entry = g->t1; /* its continuation waits for nothing */
            } else if (g->completed) {
                ends++;
                if (s != cnt - 1)
                    rc = failf(why, whylen, "job %lld: runs again after its end", (long long)i);
            } else {
                /* a legal eviction: aged, under the cap, and either SPEC 6's
                 * (not sensitive, for a sensitive job starting at L0 on one
                 * of its nodes) or, under dlas and gittins, a priority
                 * eviction (for some job starting then) */
                int cause = 0, prio_cause = 0;
                for (int64_t u = 0; u < log->nseg && !cause; u++) {
                    if (sg[u].t0 != g->t1 || sg[u].job == i)
                        continue;
                    prio_cause = prio;
                    if (sg[u].level != 0 || !is_sensitive(p, &models[jobs[sg[u].job].model]))
                        continue;
                    for (int32_t x = 0; x < nodes; x++)
                        if (log->alloc[u * nodes + x] && log->alloc[q * nodes + x])
                            cause = !sens;
                }
                if (g->t1 - tstart < p->min_run || evic >= p->max_preempt || (sens && !prio))
                    rc = failf(why, whylen, "job %lld: illegal eviction at %lld", (long long)i,
                               (long long)g->t1);
                if (!cause && !prio_cause)
                    rc = failf(why, whylen, "job %lld: evicted at %lld for no job that starts",
                               (long long)i, (long long)g->t1);
                evic++;
                victim = 1;
                entry = g->t1;
            }
            prev_end = g->t1;
        }
        if (rc)
            break;
        if (prev)
            rc = failf(why, whylen, "job %lld: re-rated at its last segment's end", (long long)i);
        else if (ends != 1 || w != 0)
            rc = failf(why, whylen, "job %lld: %lld ends, %lld work left", (long long)i,
                       (long long)ends, (long long)w);
        else if (o->end != prev_end || o->first_start != first_t0 || o->queue_total != queue ||
                 o->used_gpu_s != used || o->preemptions != evic || o->starts_l0 != lv[0] ||
                 o->starts_l1 != lv[1] || o->starts_l2 != lv[2] || o->last_level != last_level)
            rc = failf(why, whylen, "job %lld: per-job results disagree with the log",
                       (long long)i);
        else if (o->end - sub < jb->duration)
            rc = failf(why, whylen, "job %lld: JCT %lld < duration %lld", (long long)i,
                       (long long)(o->end - sub), (long long)jb->duration);
        else if (nseg == 1 && s1 == 1000 && used != (int64_t)jb->gpus * (jb->duration + r1))
            rc = failf(why, whylen, "job %lld: one run at 1000 of %lld s, duration %lld",
                       (long long)i, (long long)(used / jb->gpus), (long long)jb->duration);
        if (rc)
            break;
        if (acc == 0 || sub < first)
            first = sub;
        if (acc == 0 || o->end > last)
            last = o->end;
        jct[acc] = o->end - sub;
        que[acc] = queue;
        jsum += jct[acc];
        qsum += queue;
        used_all += used;
        pre += evic;
        for (int l = 0; l < 3; l++)
            placed[l] += lv[l];
        acc++;
    }
    if (rc)
        goto out;
    {
        int64_t nseg_all = 0;
        for (int l = 0; l < 3; l++)
            nseg_all += placed[l];
        if (nseg_all != starts || starts + rerates != log->nseg) {
            rc = failf(why, whylen, "log has %lld segments, jobs account for %lld",
                       (long long)log->nseg, (long long)nseg_all);
            goto out;
        }
        /* with nothing accepted there is nothing to measure (REF_NONE,
         * NAN), nor a share of zero GPU-seconds */
        int64_t mk = acc ? last - first : REF_NONE;
        qsort(jct, (size_t)acc, sizeof *jct, cmp_i64);
        qsort(que, (size_t)acc, sizeof *que, cmp_i64);
        double cap = acc ? (double)(cluster * mk) : 0.0;
        if (m->makespan != mk || m->rejected != rej || m->preemptions != pre ||
            m->placed_l0 != placed[0] || m->placed_l1 != placed[1] ||
            m->placed_l2 != placed[2] || m->restart_gpu_s != rst ||
            m->jct_p50 != (acc ? nearest_rank(jct, acc, 50) : REF_NONE) ||
            m->jct_p90 != (acc ? nearest_rank(jct, acc, 90) : REF_NONE) ||
            m->jct_p99 != (acc ? nearest_rank(jct, acc, 99) : REF_NONE) ||
            m->queue_p99 != (acc ? nearest_rank(que, acc, 99) : REF_NONE) ||
            !same_real(m->jct_mean, acc ? (double)jsum / (double)acc : NAN) ||
            !same_real(m->queue_mean, acc ? (double)qsum / (double)acc : NAN) ||
            m->comm_gpu_s != (double)comm / 1000.0 ||
            !same_real(m->comm_share, used_all ? (double)comm / 1000.0 / (double)used_all : NAN) ||
            !same_real(m->util, cap > 0 ? (double)used_all / cap : NAN))
            rc = failf(why, whylen, "metrics disagree with the log");
        else if (m->load_gpu_s != lds || m->xfer_gpu_s != xfs || m->wf_rejected != wf_rej ||
                 m->cache_hit != (p->gpu_mem > 0 && starts ? 1000 * hits / starts : 0) ||
                 (p->gpu_mem == 0 && (m->loads || m->model_evicts)) ||
                 m->model_evicts > m->loads)
            rc = failf(why, whylen, "SPEC 12.8's metrics disagree with the log");
        else if (comm < 0)
            rc = failf(why, whylen, "negative comm_gpu_s");
        else if (m->link_gpu_s != (double)link / 1e6 || link < 0 || link > 1000 * comm ||
                 (p->net != REF_NET_LINKS && (link || m->link_peak || rerates)))
            rc = failf(why, whylen, "link_gpu_s %.6f (recomputed %.6f), link_peak %lld, %lld "
                       "re-ratings with links %s", m->link_gpu_s, (double)link / 1e6,
                       (long long)m->link_peak, (long long)rerates,
                       p->net == REF_NET_LINKS ? "on" : "off");
        else if (p->net == REF_NET_LINKS &&
                 (rc = check_links(c, p, models, jobs, m, log, why, whylen)))
            ;
        else
            rc = check_orders(c, p, jobs, n, out, m, prio, why, whylen);
    }
out:
    free(jct);
    free(que);
    free(rejrow);
    free(home);
    return rc;
}
