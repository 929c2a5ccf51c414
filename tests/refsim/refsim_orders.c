/* The reference simulator's queue disciplines: SPEC section 11 (2D-LAS,
 * 2D-Gittins, finish-time fairness) literally, by scans over every job at
 * every event. The engine's heap, due list and per-queue counts are
 * checked against this.
 *
 * Readings taken (docs/model.md section 11 says the same):
 *  1. Thresholds are >= 1 GPU-s, so a job that never ran is in queue 0.
 *  2. A running job is demoted at the first event time where a_q >=
 *     theta_(q+1); that time, t1 + ceil((theta_(q+1) - a_q(t1)) / gpus), is
 *     an event. A job that ends at t is not demoted at t (ends come first).
 *  3. The aging event is the min_run birthday of every running job, under
 *     dlas or gittins with prio_preempt = 1 and min_run > 0, as SPEC 11.1
 *     says: also of a job with no eviction left, whose birthday may be
 *     where a due promotion (reading 4) happens.
 *  4. Promotion: at step 2 of an event where a waiting job has q > 0, E > 0
 *     and 1000 P >= promote E. The time that first holds is an event when it
 *     is later than now; a job evicted when it holds already is promoted at
 *     the next event (a promotion at the time of its eviction could undo
 *     the priority eviction that made it a victim).
 *  5. P counts a job's waits after its first start: from each eviction (or
 *     promotion) to the next start. E counts the seconds it held GPUs, a_q
 *     the GPU-seconds, both since its last promotion (or submit').
 *  6. Step 7 for a waiter whose timers allow L2: victims in (q, qent, index)
 *     descending until the free GPUs and theirs reach k0, evicted in index
 *     order; the waiter then takes L0, L1 or L2, the first of them free.
 *  7. Victims of a priority eviction may be sensitive; waiting, they count
 *     as having waited W0, so they may evict by SPEC 6's step 2 later.
 *  8. ftf's N counts the accepted jobs waiting or running once the arrivals
 *     at submit' queued (the jobs ending then are gone). rho has no value
 *     for a job of duration 0. A over [submit', end] is the sum, over the
 *     accepted jobs, of the time each was active (from its submit' to its
 *     end) within that interval.
 *  9. Gittins samples: sorted, and past 1024, the ranks ceil(i n / 1024).
 */
#include <stdlib.h>
#include <string.h>

#include "refsim_impl.h"

#define REF_MAX_GIT 1024
#define REF_MAX_DELTA ((int64_t)1 << 40)
#define REF_MAX_SAMPLE ((int64_t)1 << 50)

int rs_is_mlfq(const ref_params *p) { return p->order == REF_DLAS || p->order == REF_GITTINS; }

int rs_orders_bad(const ref_params *p)
{
    if (p->nmlfq < 1 || p->nmlfq > REF_MAX_MLFQ || p->promote < 0 || p->promote > 1000000 ||
        (p->prio_preempt != 0 && p->prio_preempt != 1) || p->gittins_delta < 1 ||
        (p->requeue_front != 0 && p->requeue_front != 1) ||
        (p->prio_refill != 0 && p->prio_refill != 1) ||
        p->gittins_delta > REF_MAX_DELTA || p->ngit < 0 || (p->git && p->ngit == 0))
        return 1;
    for (int q = 0; q < p->nmlfq; q++)
        if (p->mlfq[q] < 1 || (q > 0 && p->mlfq[q] <= p->mlfq[q - 1]))
            return 1;
    for (int64_t i = 0; p->git && i < p->ngit; i++)
        if (p->git[i] < 0 || p->git[i] > REF_MAX_SAMPLE)
            return 1;
    return 0;
}

int rs_orders_init(sim *S)
{
    int64_t n = 0, cap = S->p.git ? S->p.ngit : S->n;
    int64_t *v = (int64_t *)malloc((size_t)(cap + 1) * sizeof *v);
    if (!v)
        return -1;
    if (S->p.git) {
        memcpy(v, S->p.git, (size_t)cap * sizeof *v);
        n = cap;
    } else {
        for (int64_t i = 0; i < S->n; i++)
            if (S->j[i].state != RS_REJECTED)
                v[n++] = (int64_t)S->jobs[i].gpus * S->jobs[i].duration;
    }
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int64_t m = n < REF_MAX_GIT ? n : REF_MAX_GIT;
    S->git = (int64_t *)malloc((size_t)(m + 1) * sizeof *S->git);
    if (S->git)
        for (int64_t i = 1; i <= m; i++)
            S->git[i - 1] = v[ceil_div(i * n, m) - 1];
    S->ngit = m;
    free(v);
    return S->git ? 0 : -1;
}

/* ---- a job's counts at t ---- */

static int running(const sim *S, int64_t i) { return S->j[i].state == RS_RUN; }

static int64_t aq_at(const sim *S, int64_t i, int64_t t)
{
    return S->j[i].aq + (running(S, i) ? S->jobs[i].gpus * (t - S->j[i].t0) : 0);
}

static int64_t e_at(const sim *S, int64_t i, int64_t t)
{
    return S->j[i].e + (running(S, i) ? t - S->j[i].t0 : 0);
}

/* waiting after its first start: it is a victim */
static int64_t p_at(const sim *S, int64_t i, int64_t t)
{
    const rjob *j = &S->j[i];
    return j->pw + (j->state == RS_WAIT && j->started ? t - j->pfrom : 0);
}

/* ---- the order ---- */

/* G(a) = c / s: c samples in (a, a + D], s the sum over samples above a of
 * min(x - a, D); 0 / 1 when s = 0. */
static void git_index(const sim *S, int64_t a, int64_t *c, int64_t *s)
{
    int64_t D = S->p.gittins_delta;
    *c = *s = 0;
    for (int64_t k = 0; k < S->ngit; k++) {
        int64_t x = S->git[k];
        if (x > a) {
            *c += x - a <= D;
            *s += x - a < D ? x - a : D;
        }
    }
    if (*s == 0) {
        *c = 0;
        *s = 1;
    }
}

/* 1 when job a's place in its queue comes before b's (same queue, equal
 * index): evicted ones (requeue=front) first, the later eviction first;
 * then by entry time; then by index. */
static int place_before(const rjob *ja, const rjob *jb, int64_t a, int64_t b)
{
    if (ja->qfront != jb->qfront)
        return ja->qfront;
    if (ja->qfront && ja->qev != jb->qev)
        return ja->qev > jb->qev;
    if (!ja->qfront && ja->qent != jb->qent)
        return ja->qent < jb->qent;
    return a < b;
}

int rs_before(const sim *S, int64_t a, int64_t b)
{
    const rjob *ja = &S->j[a], *jb = &S->j[b];
    if (S->p.order == REF_FTF)
        return ja->fkey < jb->fkey || (ja->fkey == jb->fkey && a < b);
    if (ja->q != jb->q)
        return ja->q < jb->q;
    if (S->p.order == REF_GITTINS) {
        int64_t ca, sa, cb, sb;
        git_index(S, aq_at(S, a, 0), &ca, &sa);
        git_index(S, aq_at(S, b, 0), &cb, &sb);
        if (ca * sb != cb * sa)
            return ca * sb > cb * sa; /* the higher index first */
    }
    return place_before(ja, jb, a, b);
}

/* ---- demotions, promotions, aging ---- */

static int queue_of(const ref_params *p, int64_t a)
{
    int q = 0;
    while (q < p->nmlfq && p->mlfq[q] <= a)
        q++;
    return q;
}

void rs_step2(sim *S, int64_t t)
{
    if (!rs_is_mlfq(&S->p))
        return;
    for (int64_t i = 0; i < S->n; i++) {
        rjob *j = &S->j[i];
        if (running(S, i) && j->q < S->p.nmlfq && aq_at(S, i, t) >= S->p.mlfq[j->q]) {
            j->q = queue_of(&S->p, aq_at(S, i, t));
            j->qent = t;
            j->qfront = 0;
            S->demotions++;
        }
    }
    for (int64_t i = 0; S->p.promote > 0 && i < S->n; i++) {
        rjob *j = &S->j[i];
        int64_t e = e_at(S, i, t);
        if (j->state == RS_WAIT && j->q > 0 && e > 0 && 1000 * p_at(S, i, t) >= S->p.promote * e) {
            j->q = 0;
            j->qent = t;
            j->qfront = 0;
            j->aq = j->e = j->pw = 0;
            j->pfrom = t;
            S->promotions++;
        }
    }
}

void rs_ftf_keys(sim *S, int64_t t)
{
    if (S->p.order != REF_FTF)
        return;
    int64_t nact = 0, C = (int64_t)S->nodes * S->G;
    for (int64_t i = 0; i < S->n; i++)
        nact += S->j[i].state == RS_WAIT || S->j[i].state == RS_RUN;
    for (int64_t i = 0; i < S->n; i++) {
        rjob *j = &S->j[i];
        if (j->state != RS_WAIT || j->started || j->enq != t || j->fkey != REF_NONE)
            continue;
        int64_t f = ceil_div(1000 * S->jobs[i].gpus * nact, C);
        f = f < 1000 ? 1000 : f;
        j->fkey = j->submit + ceil_div(S->jobs[i].duration * f, 1000);
    }
}

void rs_order_events(const sim *S, int64_t now, int have_now, int64_t *best, int *any)
{
    if (!rs_is_mlfq(&S->p))
        return;
    for (int64_t i = 0; i < S->n; i++) {
        const rjob *j = &S->j[i];
        int64_t at[3] = {REF_INF, REF_INF, REF_INF};
        if (running(S, i) && j->q < S->p.nmlfq) /* demotion */
            at[0] = j->t0 + ceil_div(S->p.mlfq[j->q] - j->aq, S->jobs[i].gpus);
        if (j->state == RS_WAIT && j->started && j->q > 0 && j->e > 0 && S->p.promote > 0)
            at[1] = j->pfrom - j->pw + ceil_div(S->p.promote * j->e, 1000); /* promotion */
        if (running(S, i) && S->p.prio_preempt && S->p.min_run > 0) /* aging */
            at[2] = sat_add(j->tstart, S->p.min_run);
        for (int k = 0; k < 3; k++)
            if (at[k] != REF_INF && (!have_now || at[k] > now) && (!*any || at[k] < *best)) {
                *best = at[k];
                *any = 1;
            }
    }
}

/* ---- priority preemption (step 7) ---- */

int rs_prio_evictable(const sim *S, int64_t i, int64_t t, int q)
{
    const rjob *j = &S->j[i];
    return running(S, i) && j->q > q && t - j->tstart >= S->p.min_run &&
           j->evictions < S->p.max_preempt;
}

/* 1 when running job a is taken before b: higher queue, later in it (its
 * place, as the waiting order reads it), higher index. */
static int victim_first(const sim *S, int64_t a, int64_t b)
{
    const rjob *ja = &S->j[a], *jb = &S->j[b];
    if (ja->q != jb->q)
        return ja->q > jb->q;
    return place_before(jb, ja, b, a);
}

/* The refill's candidates for waiter i: what step 7 may evict, and the
 * running jobs of i's own queue that entered it at t (demoted then), whose
 * place is behind i's, aged and under max_preempt as the others. */
static int refill_candidate(const sim *S, int64_t v, int64_t i, int64_t t)
{
    const rjob *jv = &S->j[v];
    if (rs_prio_evictable(S, v, t, S->j[i].q))
        return 1;
    return running(S, v) && jv->q == S->j[i].q && !jv->qfront && jv->qent == t &&
           t - jv->t0 >= S->p.min_run && jv->evictions < S->p.max_preempt &&
           place_before(&S->j[i], jv, i, v);
}

/* The refill's order of running jobs: by queue, then by when the job joined
 * its queue's running jobs (the later of its last start and its entry into
 * the queue), then by place, then by index. */
static int refill_before(const sim *S, int64_t a, int64_t b)
{
    const rjob *ja = &S->j[a], *jb = &S->j[b];
    if (ja->q != jb->q)
        return ja->q < jb->q;
    int64_t xa = ja->t0 > ja->qent ? ja->t0 : ja->qent;
    int64_t xb = jb->t0 > jb->qent ? jb->t0 : jb->qent;
    if (xa != xb)
        return xa < xb;
    return place_before(ja, jb, a, b);
}

int rs_prio_step(sim *S, int64_t i, int64_t t, int32_t *pl, char *vic)
{
    if (!rs_is_mlfq(&S->p) || !S->p.prio_preempt)
        return 0;
    int32_t k = S->jobs[i].gpus;
    int q = S->j[i].q;
    if (rs_allowed_level(S, i, t) <= 1) { /* SPEC 6's victim rule, this predicate */
        S->victim_q = q;
        int rc = rs_find_preempt(S, k, t, pl, vic);
        S->victim_q = -1;
        if (rc <= 0)
            return rc;
    } else if (S->p.prio_refill) {
        /* the refill: the waiter is placed first among the jobs it may
         * evict and everything free; those jobs, highest priority first,
         * stay where what is left holds them */
        int64_t room = -k;
        for (int32_t x = 0; x < S->nodes; x++)
            room += S->freeg[x];
        for (int64_t v = 0; v < S->n; v++)
            if (refill_candidate(S, v, i, t))
                room += S->jobs[v].gpus;
        if (room < 0)
            return 0;
        /* vic: 0 not yet looked at, 1 evicted, 2 kept (cleared below) */
        memset(vic, 0, (size_t)S->n + 1);
        for (;;) {
            int64_t best = -1;
            for (int64_t v = 0; v < S->n; v++)
                if (!vic[v] && refill_candidate(S, v, i, t) &&
                    (best < 0 || refill_before(S, v, best)))
                    best = v;
            if (best < 0)
                break;
            if (S->jobs[best].gpus <= room) {
                room -= S->jobs[best].gpus;
                vic[best] = 2;
            } else {
                vic[best] = 1;
            }
        }
        for (int64_t v = 0; v < S->n; v++)
            vic[v] = vic[v] == 1;
    } else {
        int64_t need = k;
        for (int32_t x = 0; x < S->nodes; x++)
            need -= S->freeg[x];
        memset(vic, 0, (size_t)S->n + 1);
        while (need > 0) {
            int64_t best = -1;
            for (int64_t v = 0; v < S->n; v++)
                if (!vic[v] && rs_prio_evictable(S, v, t, q) &&
                    (best < 0 || victim_first(S, v, best)))
                    best = v;
            if (best < 0)
                return 0;
            vic[best] = 1;
            need -= S->jobs[best].gpus;
        }
    }
    for (int64_t v = 0; v < S->n; v++)
        if (vic[v]) {
            if (rs_end_segment(S, v, t, 0))
                return -1;
            S->preempt_prio++;
        }
    if (rs_allowed_level(S, i, t) == 2) {
        int rc = rs_find_l0(S, k, pl);
        if (rc == 0)
            rc = rs_find_l1(S, k, pl);
        if (rc == 0)
            rc = rs_find_l2(S, k, pl);
        if (rc <= 0)
            return -1; /* the free GPUs reach k: cannot happen */
    }
    rs_start_job(S, i, t, pl);
    return 1;
}
