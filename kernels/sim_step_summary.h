/* sim_step_summary.h: the last part of the simulation step (sim_step.h):
 * what a spent state's metrics are made of (tts_summarize: integers only,
 * so every backend reduces a run to the same numbers) and its percentiles,
 * the nearest ranks selected in place (tts_percentiles), on the host and
 * in the GPU's kernels alike. A new metric goes here. After
 * sim_step_pass.h; nothing comes after it. */
#ifndef TT_SIM_STEP_SUMMARY_H
#define TT_SIM_STEP_SUMMARY_H

#include "sim_step_pass.h"

/* ---- after the run: what the metrics are made of (SPEC 7) ----
 * Integers only, so every backend reduces a run to the same numbers; the
 * host turns them into tt_metrics with one function. The percentiles are
 * selected from the jct and que arrays tts_summarize writes (nearest rank,
 * tts_percentiles), not sorted. */
typedef struct {
    int64_t accepted, rejected;      /* jobs simulated / larger than the cluster */
    int64_t first, last;             /* earliest submit, latest end of accepted jobs */
    int64_t jct_sum, que_sum;
    int64_t jct_p50, jct_p90, jct_p99, que_p99;
    int64_t comm_milli, used, restart_gs, preempt, placed[3], cluster_gpus;
    /* SPEC 11.6: demotions, promotions, priority evictions; rho over the
     * accepted jobs that have one (duration > 0): count, sum, largest,
     * above 1000 */
    int64_t demotions, promotions, preempt_prio;
    int64_t rho_n, rho_sum, rho_max, rho_unfair;
    /* section 10.8; comm_rem: micro GPU-seconds comm_milli overstates */
    int64_t resizes, grows, shrinks, resize_gs, loan_gs, comm_rem;
    /* section 12.8: accepted workflows, the sum and 99th percentile of
     * their JCTs, rejected workflows; starts and those that loaded
     * nothing, GPU loads and model evictions, load and transfer GPU-s */
    int64_t wf_n, wf_sum, wf_p99, wf_rej;
    int64_t starts_all, starts_hit, loads, model_evicts, load_gs, xfer_gs;
    int32_t fault;                   /* 1: jobs left waiting with no event (a bug) */
} tts_summary;

/* Fills everything in m but the percentiles, and writes the accepted jobs'
 * JCTs and queueing delays, in job order, to jct[0..accepted) and
 * que[0..accepted). These may be S->tend and S->held, so that a spent
 * state holds them: job i's values go to positions <= i, after its own are
 * read. */
TTS_FN void tts_summarize(const tts_state *S, tts_summary *m, int64_t *jct, int64_t *que)
{
    int64_t acc = 0, rej = 0, first = 0, last = 0, jsum = 0, qsum = 0;
    m->rho_n = m->rho_sum = m->rho_max = m->rho_unfair = 0;
    for (int64_t i = 0; i < S->n; i++) {
        if (tts_st(S, i) == TTS_REJECTED) {
            rej++;
            continue;
        }
        int64_t rho = S->asub[i];
        if (rho >= 0) {
            m->rho_n++;
            m->rho_sum = tts_sat_add(m->rho_sum, rho);
            m->rho_max = rho > m->rho_max ? rho : m->rho_max;
            m->rho_unfair += rho > 1000;
        }
        /* read before the writes: jct and que may be S->tend and S->held */
        int64_t sub = tts_submit(S, i), end = S->tend[i], held = S->held[i];
        if (acc == 0 || sub < first)
            first = sub;
        if (acc == 0 || end > last)
            last = end;
        /* from submit' to the end a job waits or holds GPUs */
        jct[acc] = end - sub;
        que[acc] = end - sub - held;
        jsum += end - sub;
        qsum += end - sub - held;
        acc++;
    }
    m->accepted = acc;
    m->rejected = rej;
    m->first = first;
    m->last = last;
    m->jct_sum = jsum;
    m->que_sum = qsum;
    m->jct_p50 = m->jct_p90 = m->jct_p99 = m->que_p99 = 0;
    m->comm_milli = S->comm_milli;
    m->used = S->used;
    m->restart_gs = S->restart_gs;
    m->preempt = S->preempt;
    for (int l = 0; l < 3; l++)
        m->placed[l] = S->placed[l];
    m->cluster_gpus = S->cluster_gpus;
    m->demotions = S->demotions;
    m->promotions = S->promotions;
    m->preempt_prio = S->preempt_prio;
    m->resizes = S->resizes;
    m->grows = S->grows;
    m->shrinks = S->shrinks;
    m->resize_gs = S->resize_gs;
    m->loan_gs = S->loan_gs;
    m->comm_rem = S->comm_rem;
    m->wf_n = m->wf_sum = m->wf_p99 = 0;
    m->wf_rej = S->wf_rej;
    m->starts_all = S->starts_all;
    m->starts_hit = S->starts_hit;
    m->loads = S->loads;
    m->model_evicts = S->model_evicts;
    m->load_gs = S->load_gs;
    m->xfer_gs = S->xfer_gs;
    m->fault = S->waiting != 0 || S->running != 0;
}

/* ---- percentiles: the nearest ranks selected, not sorted ---- */

TTS_FN void tts_swap64(int64_t *a, int64_t i, int64_t j)
{
    int64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* a[lo..lo + n) as a max-heap: sifts a[lo + i] down. */
TTS_FN void tts_sift(int64_t *a, int64_t lo, int64_t n, int64_t i)
{
    int64_t v = a[lo + i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && a[lo + c + 1] > a[lo + c])
            c++;
        if (a[lo + c] <= v)
            break;
        a[lo + i] = a[lo + c];
        i = c;
    }
    a[lo + i] = v;
}

TTS_FN void tts_heapsort(int64_t *a, int64_t lo, int64_t hi)
{
    int64_t n = hi - lo;
    for (int64_t i = n / 2; i-- > 0;)
        tts_sift(a, lo, n, i);
    for (int64_t m = n - 1; m > 0; m--) {
        tts_swap64(a, lo, lo + m);
        tts_sift(a, lo, m, 0);
    }
}

/* Puts in a[rk[0]], .., a[rk[nr - 1]] (ascending, distinct, within
 * [0, n)) the values sorting a[0..n) would put there. Quickselect on the
 * median of the first, middle and last, with a three-way partition (JCTs
 * and queueing delays repeat: most delays are 0); one partition serves
 * every rank, and the ranks on either side go on there (a small stack:
 * each split of the ranks leaves one side waiting). A range that has used
 * up `rounds` partitions is heapsorted, so no input makes it quadratic.
 * Deterministic and in place; on the host and the device alike. */
#define TTS_SELECT_MAX 4 /* ranks one call selects */
TTS_FN void tts_select_in(int64_t *a, int64_t n, const int64_t *rk, int32_t nr, int32_t rounds)
{
    int64_t slo[TTS_SELECT_MAX], shi[TTS_SELECT_MAX];
    int32_t sr0[TTS_SELECT_MAX], sr1[TTS_SELECT_MAX], sro[TTS_SELECT_MAX], top = 0;
    int64_t lo = 0, hi = n;
    int32_t r0 = 0, r1 = nr;
    for (;;) {
        while (r0 < r1 && hi - lo > 1) {
            if (rounds-- <= 0) {
                tts_heapsort(a, lo, hi);
                break;
            }
            int64_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1], t;
            if (x > y) {
                t = x, x = y, y = t;
            }
            if (y > z)
                y = z;
            int64_t p = x > y ? x : y; /* the median of the three */
            int64_t lt = lo, i = lo, gt = hi;
            while (i < gt) { /* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
                if (a[i] < p)
                    tts_swap64(a, lt++, i++);
                else if (a[i] > p)
                    tts_swap64(a, i, --gt);
                else
                    i++;
            }
            int32_t m0 = r0, m1;
            while (m0 < r1 && rk[m0] < lt)
                m0++;
            for (m1 = m0; m1 < r1 && rk[m1] < gt; m1++)
                ; /* ranks in [lt, gt) hold p: done */
            if (m1 < r1) { /* the ranks above wait, the ones below go on */
                slo[top] = gt;
                shi[top] = hi;
                sr0[top] = m1;
                sr1[top] = r1;
                sro[top++] = rounds;
            }
            hi = lt;
            r1 = m0;
        }
        if (top == 0)
            return;
        top--;
        lo = slo[top];
        hi = shi[top];
        r0 = sr0[top];
        r1 = sr1[top];
        rounds = sro[top];
    }
}

/* tts_select_in with 2 log2(n) + 8 rounds: expected linear time, n log n
 * at worst. nr <= TTS_SELECT_MAX. */
TTS_FN void tts_select(int64_t *a, int64_t n, const int64_t *rk, int32_t nr)
{
    int32_t rounds = 8;
    for (int64_t m = n; m > 1; m >>= 1)
        rounds += 2;
    tts_select_in(a, n, rk, nr, rounds);
}

/* The index of the pct-th percentile of n values by nearest rank (n > 0). */
TTS_FN int64_t tts_rank_index(int64_t n, int64_t pct)
{
    int64_t rank = (pct * n + 99) / 100;
    return (rank < 1 ? 1 : rank) - 1;
}

/* The four percentiles of m by nearest rank from the arrays tts_summarize
 * wrote (reordered; 0 when no job was accepted). */
TTS_FN void tts_percentiles(tts_summary *m, int64_t *jct, int64_t *que)
{
    int64_t n = m->accepted;
    m->jct_p50 = m->jct_p90 = m->jct_p99 = m->que_p99 = 0;
    if (n == 0)
        return;
    int64_t rk[3] = {tts_rank_index(n, 50), tts_rank_index(n, 90), tts_rank_index(n, 99)};
    int32_t nr = 1; /* distinct ranks: few jobs make some equal */
    for (int32_t q = 1; q < 3; q++)
        if (rk[q] != rk[nr - 1])
            rk[nr++] = rk[q];
    tts_select(jct, n, rk, nr);
    m->jct_p50 = jct[tts_rank_index(n, 50)];
    m->jct_p90 = jct[tts_rank_index(n, 90)];
    m->jct_p99 = jct[tts_rank_index(n, 99)];
    int64_t r99 = tts_rank_index(n, 99);
    tts_select(que, n, &r99, 1);
    m->que_p99 = que[r99];
}

/* Section 12.8's workflow JCTs into m (after tts_summarize): per accepted
 * workflow, its last end minus its earliest task's submit' (its lowest
 * index's: submit' is monotone), their sum and 99th percentile by nearest
 * rank (0 without workflows). Writes the JCTs over S->wf_end. */
TTS_FN void tts_wf_summarize(tts_state *S, tts_summary *m)
{
    int64_t n = 0, sum = 0;
    for (int64_t w = 0; S->wf_end && w < S->tr->nwf; w++) {
        if (S->wf_end[w] == TTS_INF)
            continue;
        int64_t jct = S->wf_end[w] - S->sub[S->tr->wf_first[w]];
        S->wf_end[n++] = jct;
        sum += jct;
    }
    m->wf_n = n;
    m->wf_sum = sum;
    m->wf_p99 = 0;
    if (n == 0)
        return;
    int64_t r99 = tts_rank_index(n, 99);
    tts_select(S->wf_end, n, &r99, 1);
    m->wf_p99 = S->wf_end[r99];
}

#endif
