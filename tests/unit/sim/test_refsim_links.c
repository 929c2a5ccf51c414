/* The reference simulator's SPEC 13 (shared links): the scenarios of SPEC
 * 13.9 and more worked by hand, each also held to the invariants the log
 * recomputes; then random traces with links on, against the invariants
 * and against net=off where no link can saturate. The engine does not
 * model links yet: these hold the reference to SPEC's text. */
#include "simcase.h"

/* SPEC 13.9's classes (slow_l1, slow_l2) */
static const ref_model MD[] = {
    {1000, 1000, -1}, {1500, 2000, -1}, {1200, 1500, -1}, {1250, 1250, -1}, {1000, 3000, -1}};
enum { Z, A, B, C, P, NMD };

enum { LMAX = 16 };

typedef struct {
    ref_cluster c;
    ref_params p;
    int64_t n;
    ref_job jobs[LMAX];
    ref_job_result out[LMAX];
    ref_metrics m;
    ref_log log;
} lcase;

/* SPEC 13.9's setting: net=links w0=0 w1=0 nic_cap=1 up_cap=2 restart=30 */
static void lc_init(lcase *k, int32_t r, int32_t n, int32_t g)
{
    memset(k, 0, sizeof *k);
    k->c = (ref_cluster){r, n, g};
    ref_params_default(&k->p);
    k->p.net = REF_NET_LINKS;
    k->p.w0 = k->p.w1 = 0;
}

static void lc_job(lcase *k, int64_t submit, int64_t dur, int32_t gpus, int32_t cls)
{
    cr_assert(k->n < LMAX);
    k->jobs[k->n++] = (ref_job){submit, dur, gpus, cls};
}

static void lc_run(lcase *k)
{
    char why[256] = "";
    ref_log_free(&k->log);
    cr_assert_eq(ref_simulate_log(&k->c, &k->p, MD, NMD, k->jobs, k->n, k->out, &k->m, &k->log),
                 0);
    cr_assert_eq(ref_check_invariants(&k->c, &k->p, MD, NMD, k->jobs, k->n, k->out, &k->m,
                                      &k->log, why, sizeof why),
                 0, "%s", why);
}

static void expect_ends(const lcase *k, const int64_t *end)
{
    for (int64_t i = 0; i < k->n; i++)
        cr_expect_eq(k->out[i].end, end[i], "J%lld ends at %lld, expected %lld", (long long)i,
                     (long long)k->out[i].end, (long long)end[i]);
}

/* A's trace: two fillers leave one GPU on each node of 1x2x4; J2 and J3
 * spread over both NICs. */
static void trace_a(lcase *k)
{
    lc_init(k, 1, 2, 4);
    lc_job(k, 0, 100, 3, Z);
    lc_job(k, 0, 100, 3, Z);
    lc_job(k, 0, 400, 2, A);
    lc_job(k, 0, 300, 4, A);
}

/* SPEC 13.9 A: J2 alone on both NICs (s 1500) until J3 joins at 100 (f
 * 2000, s 2000 for both); J2 re-rated at 100 (done 66,666) and at 700
 * (done 300,000, w 33,334): end 751. */
Test(refsim_links, spec_a_two_jobs_on_the_same_nics)
{
    lcase k;
    trace_a(&k);
    lc_run(&k);
    static const int64_t end[] = {100, 100, 751, 700};
    expect_ends(&k, end);
    cr_expect_eq(k.m.comm_gpu_s, 1902.0);
    cr_expect_eq(k.m.link_gpu_s, 900.0);
    cr_expect_eq(k.m.link_peak, 2000);
    cr_expect_eq(k.m.placed_l1, 2);
    cr_expect_eq(k.m.jct_mean, 412.75);
    /* J2's three segments: two re-ratings, neither a start nor an eviction */
    cr_expect_eq(k.out[2].starts_l1, 1);
    cr_expect_eq(k.out[2].preemptions, 0);
    cr_expect_eq(k.m.preemptions, 0);
    int64_t segs = 0, rerated = 0;
    for (int64_t q = 0; q < k.log.nseg; q++)
        if (k.log.seg[q].job == 2) {
            segs++;
            rerated += k.log.seg[q].rerated;
        }
    cr_expect_eq(segs, 3);
    cr_expect_eq(rerated, 2);
    ref_log_free(&k.log);
}

/* SPEC 13.9 F: the same trace with net=off (whatever the caps) and with
 * caps no NIC exceeds: J2 at 1500 throughout, 600; J3 550. */
Test(refsim_links, spec_f_off_and_caps_not_exceeded)
{
    static const int64_t end[] = {100, 100, 600, 550};
    lcase k;
    trace_a(&k);
    k.p.net = REF_NET_OFF;
    k.p.nic_cap = 1;
    k.p.up_cap = 1;
    lc_run(&k);
    expect_ends(&k, end);
    cr_expect_eq(k.m.comm_gpu_s, 1000.0);
    cr_expect_eq(k.m.link_gpu_s, 0.0);
    cr_expect_eq(k.m.link_peak, 0);
    ref_metrics off = k.m;
    trace_a(&k);
    k.p.nic_cap = 2;
    lc_run(&k);
    expect_ends(&k, end);
    cr_expect_eq(k.m.link_peak, 1000);
    k.m.link_peak = 0;
    cr_expect(memcmp(&k.m, &off, sizeof off) == 0, "nic_cap=2: a metric differs from net=off");
    ref_log_free(&k.log);
}

/* SPEC 13.9 B: 2x2x4, J4 and J5 at L2 share both uplinks from 100. At
 * up_cap 2 nothing slows (net=off's numbers); at up_cap 1 f = 2000: J4
 * re-rated at 100 (w 233,334) and 500 (w 33,334): end 551; J5 500. */
static void trace_b(lcase *k, int64_t up_cap)
{
    lc_init(k, 2, 2, 4);
    k->p.up_cap = up_cap;
    lc_job(k, 0, 600, 3, Z);
    lc_job(k, 0, 100, 4, Z);
    lc_job(k, 0, 600, 3, Z);
    lc_job(k, 0, 100, 4, Z);
    lc_job(k, 0, 300, 2, B);
    lc_job(k, 0, 200, 5, B);
}

Test(refsim_links, spec_b_uplinks)
{
    lcase k;
    trace_b(&k, 2);
    lc_run(&k);
    static const int64_t end2[] = {600, 100, 600, 100, 450, 400};
    expect_ends(&k, end2);
    cr_expect_eq(k.m.link_peak, 1000);
    cr_expect_eq(k.m.link_gpu_s, 0.0);
    cr_expect_eq(k.m.placed_l2, 2);
    trace_b(&k, 1);
    lc_run(&k);
    static const int64_t end1[] = {600, 100, 600, 100, 551, 500};
    expect_ends(&k, end1);
    cr_expect_eq(k.m.link_gpu_s, 700.0);
    cr_expect_eq(k.m.comm_gpu_s, 1502.0);
    cr_expect_eq(k.m.link_peak, 2000);
    ref_log_free(&k.log);
}

/* SPEC 13.9 C: 3x1x4, w0 = inf (SPEC 6's defaults), two 6-GPU jobs larger
 * than a rack take L2 at once and share NIC 1 (and uplink 1) from 100:
 * s 3000; J0 850, J1 re-rated to 2000 at 850, 950. With nic_cap 2 every
 * factor is 1000 (600, 700); with nic_cap 2 and up_cap 1, uplink 1 slows
 * them as NIC 1 did. */
static void trace_c(lcase *k, int64_t nic, int64_t up)
{
    lc_init(k, 3, 1, 4);
    k->p.w0 = k->p.w1 = REF_INF;
    k->p.nic_cap = nic;
    k->p.up_cap = up;
    lc_job(k, 0, 300, 6, A);
    lc_job(k, 100, 300, 6, A);
}

Test(refsim_links, spec_c_larger_than_a_rack)
{
    lcase k;
    trace_c(&k, 1, 2);
    lc_run(&k);
    static const int64_t e1[] = {850, 950}, e2[] = {600, 700};
    expect_ends(&k, e1);
    cr_expect_eq(k.m.link_gpu_s, 3000.0);
    cr_expect_eq(k.m.comm_gpu_s, 6600.0);
    cr_expect_eq(k.m.placed_l2, 2);
    cr_expect_eq(k.m.link_peak, 2000);
    trace_c(&k, 2, 2);
    lc_run(&k);
    expect_ends(&k, e2);
    cr_expect_eq(k.m.link_peak, 1000);
    cr_expect_eq(k.m.link_gpu_s, 0.0);
    trace_c(&k, 2, 1);
    lc_run(&k);
    expect_ends(&k, e1);
    ref_log_free(&k.log);
}

/* SPEC 13.9 D: A with congestion 250: s_eff 1666 is floored before the
 * factor: s' = 1000 + 666 x 2 = 2332. J2: 667 alone; re-rated at 100
 * (done 60,024) and at 800 (done 300,171): 867. J3: 800. */
Test(refsim_links, spec_d_congestion_floored_first)
{
    lcase k;
    trace_a(&k);
    k.p.congestion = 250;
    lc_run(&k);
    static const int64_t end[] = {100, 100, 867, 800};
    expect_ends(&k, end);
    trace_a(&k);
    k.p.congestion = 250;
    k.p.net = REF_NET_OFF;
    lc_run(&k);
    static const int64_t off[] = {100, 100, 667, 600};
    expect_ends(&k, off);
    ref_log_free(&k.log);
}

/* SPEC 13.9 E: sjf, theta 3000, min_run 100. J4 (sensitive) evicts J2 at
 * 200 (done 50,000); J3 alone is re-rated to 1500 (end 262); at 250 J2
 * restarts beside J3 (f 2000: end 847, J3 266); at 266 J2, 16 s into its
 * restart, is re-rated to 1500 with 14 s of restart unpaid: 706. */
Test(refsim_links, spec_e_eviction_and_restart)
{
    lcase k;
    lc_init(&k, 1, 2, 4);
    k.p.order = REF_SJF;
    k.p.theta = 3000;
    k.p.min_run = 100;
    lc_job(&k, 0, 100, 3, P);
    lc_job(&k, 0, 100, 3, P);
    lc_job(&k, 0, 400, 2, A);
    lc_job(&k, 100, 91, 4, A);
    lc_job(&k, 200, 50, 3, P);
    lc_job(&k, 200, 60, 2, Z);
    lc_run(&k);
    static const int64_t end[] = {100, 100, 706, 266, 250, 310};
    expect_ends(&k, end);
    cr_expect_eq(k.m.preemptions, 1);
    cr_expect_eq(k.m.restart_gpu_s, 60);
    cr_expect_eq(k.m.placed_l0, 4);
    cr_expect_eq(k.m.placed_l1, 3);
    cr_expect_eq(k.m.link_gpu_s, 167.998);
    cr_expect_eq(k.m.comm_gpu_s, 752.0);
    ref_log_free(&k.log);
}

/* E again with min_run 150, worked here: J2, started at 0 and re-rated at
 * 100, is evictable at 200 (200 - 0 >= 150): min_run counts from its last
 * start, not from the re-rating (100 < 150 would keep J4 waiting). J3,
 * started at 100, is not (100 < 150), and node 1 needs J2 alone: every
 * number is E's. */
Test(refsim_links, rerating_is_no_start_for_min_run)
{
    lcase k;
    lc_init(&k, 1, 2, 4);
    k.p.order = REF_SJF;
    k.p.theta = 3000;
    k.p.min_run = 150;
    lc_job(&k, 0, 100, 3, P);
    lc_job(&k, 0, 100, 3, P);
    lc_job(&k, 0, 400, 2, A);
    lc_job(&k, 100, 91, 4, A);
    lc_job(&k, 200, 50, 3, P);
    lc_job(&k, 200, 60, 2, Z);
    lc_run(&k);
    static const int64_t end[] = {100, 100, 706, 266, 250, 310};
    expect_ends(&k, end);
    cr_expect_eq(k.out[2].preemptions, 1);
    cr_expect_eq(k.out[4].first_start, 200);
    ref_log_free(&k.log);
}

/* ---- random traces ---- */

/* 1,500 random small traces with links on, random caps and every order
 * the reference has: every run holds the invariants (each segment's
 * slowdown is the one its links give at its start and at every later
 * change, the re-ratings continue their segments, link_peak and
 * link_gpu_s recomputed) and repeats. With caps no link can exceed, every
 * number equals net=off's but link_peak. */
Test(refsim_links, randomized_invariants)
{
    enum { RUNS = 1500, MAXJ = 30 };
    static const int64_t ws[] = {0, 5, 30, 100, REF_INF};
    static const int64_t thetas[] = {REF_INF, 1200, 1500, 2000};
    static const int64_t gs[] = {1, 2, 4, 8};
    ref_job jobs[MAXJ];
    ref_job_result o[MAXJ], o2[MAXJ];
    ref_model md[4];
    ref_metrics m, m2;
    ref_log log = {0};
    char why[256];
    int64_t rerated = 0, slowed = 0, same = 0;
    for (uint64_t seed = 1; seed <= RUNS; seed++) {
        uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 13;
        ref_cluster c = {(int32_t)pick(&s, 1, 3), (int32_t)pick(&s, 1, 3),
                         (int32_t)pick_of(&s, gs, 4)};
        int32_t total = c.racks * c.nodes_per_rack * c.gpus_per_node;
        int nm = (int)pick(&s, 1, 4);
        for (int i = 0; i < nm; i++) {
            md[i].slow_l1 = pick(&s, 0, 3) ? pick(&s, 1000, 1600) : 1000;
            md[i].slow_l2 = md[i].slow_l1 + pick(&s, 0, 1500);
            md[i].mem_mb = -1;
        }
        ref_params p;
        ref_params_default(&p);
        p.net = REF_NET_LINKS;
        p.nic_cap = pick(&s, 1, 3);
        p.up_cap = pick(&s, 1, 4);
        p.order = (int)pick(&s, REF_FIFO, REF_FTF);
        p.w0 = pick_of(&s, ws, 5);
        p.w1 = pick_of(&s, ws, 5);
        p.theta = pick_of(&s, thetas, 4);
        p.restart = pick(&s, 0, 60);
        p.congestion = pick(&s, 0, 3) ? 0 : pick(&s, 0, 900);
        p.min_run = pick(&s, 0, 3) ? pick(&s, 0, 120) : 300;
        p.max_preempt = pick(&s, 0, 4);
        p.backfill = (int)pick(&s, 0, 1);
        if (p.order == REF_DLAS || p.order == REF_GITTINS) {
            p.nmlfq = 2;
            p.mlfq[0] = pick(&s, 50, 500);
            p.mlfq[1] = p.mlfq[0] + pick(&s, 1, 2000);
        }
        int64_t n = pick(&s, 1, MAXJ), t = pick(&s, 0, 100);
        for (int64_t i = 0; i < n; i++) {
            t += pick(&s, 0, 2) ? pick(&s, 0, 90) : 0;
            jobs[i].submit = t;
            jobs[i].duration = pick(&s, 0, 9) ? pick(&s, 1, 500) : pick(&s, 0, 3);
            int64_t k = pick(&s, 0, 9) < 5 ? pick(&s, 1, c.gpus_per_node) : pick(&s, 1, total);
            jobs[i].gpus = (int32_t)k;
            jobs[i].model = (int32_t)pick(&s, 0, nm - 1);
        }
        int rc = ref_simulate_log(&c, &p, md, nm, jobs, n, o, &m, &log);
        cr_assert_eq(rc, 0, "seed %llu: ref_simulate returned %d", (unsigned long long)seed, rc);
        rc = ref_check_invariants(&c, &p, md, nm, jobs, n, o, &m, &log, why, sizeof why);
        cr_assert_eq(rc, 0, "seed %llu: %s", (unsigned long long)seed, why);
        for (int64_t q = 0; q < log.nseg; q++)
            rerated += log.seg[q].rerated;
        slowed += m.link_gpu_s > 0;
        cr_assert_eq(ref_simulate(&c, &p, md, nm, jobs, n, o2, &m2), 0);
        cr_assert(memcmp(o, o2, (size_t)n * sizeof *o) == 0 && memcmp(&m, &m2, sizeof m) == 0,
                  "seed %llu: a second run differs", (unsigned long long)seed);
        /* caps no link can pass (13.7): net=off's numbers */
        p.nic_cap = c.gpus_per_node;
        p.up_cap = (int64_t)c.nodes_per_rack * c.gpus_per_node;
        cr_assert_eq(ref_simulate(&c, &p, md, nm, jobs, n, o, &m), 0);
        p.net = REF_NET_OFF;
        cr_assert_eq(ref_simulate(&c, &p, md, nm, jobs, n, o2, &m2), 0);
        cr_assert_leq(m.link_peak, 1000, "seed %llu", (unsigned long long)seed);
        m.link_peak = 0;
        cr_assert(memcmp(o, o2, (size_t)n * sizeof *o) == 0 && memcmp(&m, &m2, sizeof m) == 0,
                  "seed %llu: unsaturated links change a number", (unsigned long long)seed);
        same++;
    }
    /* the generator reaches what the invariants police */
    cr_expect_gt(rerated, 200);
    cr_expect_gt(slowed, 100);
    cr_expect_eq(same, RUNS);
    ref_log_free(&log);
}
