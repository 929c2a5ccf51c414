/* Parameter sets: the names and defaults, what tt_params_set accepts and
 * refuses, the text tt_params_format writes back, and the per-class
 * timers (libcore/sim/params.c). */
#include "confutil.h"
#include "sim/simconf.h"
#include "tt/sim.h"

Test(params, names_and_defaults)
{
    const char *want[] = {"order",   "w0",          "w1",       "theta", "restart", "congestion",
                          "min_run", "max_preempt", "backfill", "load",  "seed",    "mix",
                          "timers",  "mlfq",        "promote",  "prio_preempt",
                          "gittins_delta",          "gittins_dist", "el_up", "el_down",
                          "el_frac", "resize", "resize_cost", "resize_gap", "gpu_mem",
                          "cache_slots", "load_bw", "xfer_bw", "evict", "cache_place", "w_warm",
                          "requeue", "prio_victims"};
    cr_assert_eq(TT_NPARAMS, 33);
    for (int i = 0; i < TT_NPARAMS; i++)
        cr_expect_str_eq(tt_param_names[i], want[i]);
    tt_params p;
    tt_params_default(&p);
    cr_expect_eq(p.order, TT_ORDER_FIFO);
    cr_expect(p.w0 == TT_INF && p.w1 == TT_INF && p.theta == TT_INF);
    cr_expect_eq(p.restart, 30);
    cr_expect_eq(p.congestion, 0);
    cr_expect_eq(p.min_run, 300);
    cr_expect_eq(p.max_preempt, 3);
    cr_expect_eq(p.backfill, 1);
    cr_expect_eq(p.load, 1000);
    cr_expect_eq(p.seed, 1);
    cr_expect_eq(p.mix_set, 0);
    for (int c = 0; c < TT_MAX_CLASSES; c++) {
        cr_expect_eq(p.mix[c], 1);
        cr_expect(p.class_w0[c] == TT_TIMER_GLOBAL && p.class_w1[c] == TT_TIMER_GLOBAL);
    }
    cr_expect_eq(tt_params_class_timers(&p), 0);
    /* SPEC 11.5 */
    cr_expect(p.nmlfq == 2 && p.mlfq[0] == 3250 && p.mlfq[1] == 7200);
    cr_expect_eq(p.promote, 0);
    cr_expect_eq(p.prio_preempt, 1);
    cr_expect_eq(p.gittins_delta, 3250);
    cr_expect_str_eq(p.gittins_dist, "trace");
    /* SPEC 10.6 */
    cr_expect(p.el_up == 0 && p.el_down == 0 && p.el_frac == 1000);
    cr_expect(p.resize == TT_RESIZE_SIDECAR && p.resize_cost == 10 && p.resize_gap == 300);
}

/* name=value must be accepted; the parameter's text then reads want. */
static void expect_set(const tt_models *m, const char *name, const char *value, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_params p;
    tt_params_default(&p);
    cr_expect_eq(tt_params_set(ctx, &p, m, name, value), 0, "%s=%s: %s", name, value,
                 tt_errmsg(ctx));
    int i = 0;
    while (i < TT_NPARAMS && strcmp(tt_param_names[i], name) != 0)
        i++;
    char buf[512];
    cr_assert_eq(tt_params_format(&p, m, i, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, want, "%s=%s reads back as '%s'", name, value, buf);
    tt_ctx_free(ctx);
}

/* name=value must be refused with exactly msg, leaving p as it was. */
static void expect_set_error(const tt_models *m, const char *name, const char *value,
                             const char *msg)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_params p, before;
    tt_params_default(&p);
    p.seed = 77;
    before = p;
    cr_expect_eq(tt_params_set(ctx, &p, m, name, value), TT_EINVAL, "%s=%s accepted", name,
                 value);
    cr_expect_str_eq(tt_errmsg(ctx), msg);
    cr_expect(memcmp(&p, &before, sizeof p) == 0, "%s=%s changed the parameters", name, value);
    tt_ctx_free(ctx);
}

Test(params, good_values)
{
    tt_models *m = two_models();
    expect_set(m, "order", "las", "las");
    expect_set(m, "order", "srtf", "srtf");
    expect_set(m, "order", "sjf", "sjf");
    expect_set(m, "order", "fifo", "fifo");
    expect_set(m, "w0", "0", "0");
    expect_set(m, "w0", "600", "600");
    expect_set(m, "w0", "inf", "inf");
    expect_set(m, "w0", "9223372036854775807", "inf"); /* TT_INF itself */
    expect_set(m, "w1", "86400", "86400");
    expect_set(m, "theta", "0", "0");
    expect_set(m, "theta", "1500", "1500");
    expect_set(m, "restart", "0", "0");
    expect_set(m, "restart", "4294967296", "4294967296");
    expect_set(m, "congestion", "0", "0");
    expect_set(m, "congestion", "999", "999");
    expect_set(m, "min_run", "0", "0");
    expect_set(m, "max_preempt", "0", "0");
    expect_set(m, "backfill", "0", "0");
    expect_set(m, "backfill", "1", "1");
    expect_set(m, "load", "1", "1");
    expect_set(m, "load", "1000000", "1000000");
    expect_set(m, "seed", "0", "0");
    expect_set(m, "seed", "18446744073709551615", "18446744073709551615");
    expect_set(m, "mix", "slow:2,fast:1", "fast:1,slow:2"); /* table order */
    expect_set(m, "mix", "slow:1", "slow:1");                 /* fast gets 0 */
    expect_set(m, "mix", "fast:0,slow:2147483647", "slow:2147483647");

    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "mix", "slow:2,fast:0"), 0);
    cr_expect_eq(p.mix_set, 1);
    cr_expect(p.mix[0] == 0 && p.mix[1] == 2 && p.mix[2] == 0, "mix %u %u %u", p.mix[0],
              p.mix[1], p.mix[2]);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w0", "inf"), 0);
    cr_expect_eq(p.w0, TT_INF);
    cr_assert_eq(tt_params_set(NULL, &p, m, "order", "las"), 0);
    cr_expect_eq(p.order, TT_ORDER_LAS);
    /* parameters other than mix need no model table */
    cr_expect_eq(tt_params_set(NULL, &p, NULL, "seed", "5"), 0);
    cr_expect_eq(p.seed, 5);
    tt_models_free(m);
}

Test(params, bad_values)
{
    tt_models *m = two_models();
    expect_set_error(m, "w0", "-5", "parameter 'w0': expected seconds >= 0 or inf, got '-5'");
    expect_set_error(m, "w0", "1.5", "parameter 'w0': expected seconds >= 0 or inf, got '1.5'");
    expect_set_error(m, "w0", " 5", "parameter 'w0': expected seconds >= 0 or inf, got ' 5'");
    expect_set_error(m, "w0", "", "parameter 'w0': expected seconds >= 0 or inf, got ''");
    expect_set_error(m, "w1", "Inf", "parameter 'w1': expected seconds >= 0 or inf, got 'Inf'");
    expect_set_error(m, "w1", "9223372036854775808",
                     "parameter 'w1': expected seconds >= 0 or inf, got '9223372036854775808'");
    expect_set_error(m, "theta", "abc",
                     "parameter 'theta': expected permille >= 0 or inf, got 'abc'");
    expect_set_error(m, "order", "xyz",
                     "parameter 'order': expected fifo, sjf, srtf, las, dlas, gittins or ftf, got 'xyz'");
    expect_set_error(m, "order", "FIFO",
                     "parameter 'order': expected fifo, sjf, srtf, las, dlas, gittins or ftf, got 'FIFO'");
    expect_set_error(m, "congestion", "1000",
                     "parameter 'congestion': expected permille 0 .. 999, got '1000'");
    expect_set_error(m, "congestion", "-1",
                     "parameter 'congestion': expected permille 0 .. 999, got '-1'");
    expect_set_error(m, "load", "0", "parameter 'load': expected permille 1 .. 1000000, got '0'");
    expect_set_error(m, "load", "1000001",
                     "parameter 'load': expected permille 1 .. 1000000, got '1000001'");
    expect_set_error(m, "backfill", "2", "parameter 'backfill': expected 0 or 1, got '2'");
    expect_set_error(m, "backfill", "01", "parameter 'backfill': expected 0 or 1, got '01'");
    expect_set_error(m, "restart", "-1",
                     "parameter 'restart': expected seconds 0 .. 4294967296, got '-1'");
    expect_set_error(m, "restart", "4294967297",
                     "parameter 'restart': expected seconds 0 .. 4294967296, got '4294967297'");
    expect_set_error(m, "restart", "inf",
                     "parameter 'restart': expected seconds 0 .. 4294967296, got 'inf'");
    expect_set_error(m, "min_run", "-1", "parameter 'min_run': expected seconds >= 0, got '-1'");
    expect_set_error(m, "max_preempt", "-1",
                     "parameter 'max_preempt': expected a count >= 0, got '-1'");
    expect_set_error(m, "seed", "-1",
                     "parameter 'seed': expected an integer 0 .. 18446744073709551615, got '-1'");
    expect_set_error(m, "seed", "18446744073709551616",
                     "parameter 'seed': expected an integer 0 .. 18446744073709551615, got "
                     "'18446744073709551616'");
    expect_set_error(m, "requeue", "back",
                     "parameter 'requeue': expected keep or front, got 'back'");
    expect_set_error(m, "prio_victims", "all",
                     "parameter 'prio_victims': expected lowest or refill, got 'all'");
    expect_set_error(m, "seed", "0x10",
                     "parameter 'seed': expected an integer 0 .. 18446744073709551615, got '0x10'");
    expect_set_error(m, "nosuch", "1",
                     "unknown parameter 'nosuch' (known: order w0 w1 theta restart congestion "
                     "min_run max_preempt backfill load seed mix timers mlfq promote "
                     "prio_preempt gittins_delta gittins_dist el_up el_down el_frac resize "
                     "resize_cost resize_gap gpu_mem cache_slots load_bw xfer_bw evict "
                     "cache_place w_warm requeue prio_victims w0.CLASS w1.CLASS preset)");
    expect_set_error(m, "W0", "1",
                     "unknown parameter 'W0', did you mean 'w0'? (known: order w0 w1 theta restart congestion "
                     "min_run max_preempt backfill load seed mix timers mlfq promote "
                     "prio_preempt gittins_delta gittins_dist el_up el_down el_frac resize "
                     "resize_cost resize_gap gpu_mem cache_slots load_bw xfer_bw evict "
                     "cache_place w_warm requeue prio_victims w0.CLASS w1.CLASS preset)");
    tt_models_free(m);
}

Test(params, bad_mix)
{
    tt_models *m = two_models();
    expect_set_error(m, "mix", "bert:1",
                     "parameter 'mix': unknown class 'bert' (classes: fast slow)");
    expect_set_error(m, "mix", "fast:1,Slow:1",
                     "parameter 'mix': unknown class 'Slow' (classes: fast slow)");
    expect_set_error(m, "mix", "fast:x",
                     "parameter 'mix': weight of 'fast': expected an integer 0 .. 2147483647, "
                     "got 'x'");
    expect_set_error(m, "mix", "fast:-1",
                     "parameter 'mix': weight of 'fast': expected an integer 0 .. 2147483647, "
                     "got '-1'");
    expect_set_error(m, "mix", "fast:2147483648",
                     "parameter 'mix': weight of 'fast': expected an integer 0 .. 2147483647, "
                     "got '2147483648'");
    expect_set_error(m, "mix", "fast:1.5",
                     "parameter 'mix': weight of 'fast': expected an integer 0 .. 2147483647, "
                     "got '1.5'");
    expect_set_error(m, "mix", "fast:0,slow:0",
                     "parameter 'mix': expected at least one weight > 0, got 'fast:0,slow:0'");
    expect_set_error(m, "mix", "fast:1,fast:2", "parameter 'mix': class 'fast' given twice");
    expect_set_error(m, "mix", "",
                     "parameter 'mix': expected NAME:WEIGHT pairs separated by commas, got ''");
    expect_set_error(m, "mix", "fast",
                     "parameter 'mix': expected NAME:WEIGHT pairs separated by commas, got "
                     "'fast'");
    expect_set_error(m, "mix", "fast:1,",
                     "parameter 'mix': expected NAME:WEIGHT pairs separated by commas, got ''");
    expect_set_error(m, "mix", ":1",
                     "parameter 'mix': expected NAME:WEIGHT pairs separated by commas, got ':1'");
    expect_set_error(m, "mix", "fast:",
                     "parameter 'mix': expected NAME:WEIGHT pairs separated by commas, got "
                     "'fast:'");
    expect_set_error(NULL, "mix", "fast:1",
                     "parameter 'mix': no model table to name classes from");
    tt_models_free(m);
}

/* Every parameter's text, read back by tt_params_set, gives the same
 * parameters, and the same text again. */
Test(params, format_round_trips)
{
    tt_models *m = two_models();
    const char *sets[][2] = {{"order", "srtf"}, {"w0", "120"},       {"w1", "inf"},
                             {"theta", "2000"}, {"restart", "45"},   {"congestion", "250"},
                             {"min_run", "0"},  {"max_preempt", "7"}, {"backfill", "0"},
                             {"load", "1500"},  {"seed", "12345678901234567890"},
                             {"mix", "slow:3"}, {"timers", "fast:-:inf,slow:600:0"},
                             {"mlfq", "100,2000,57600"}, {"promote", "2500"},
                             {"prio_preempt", "0"}, {"gittins_delta", "1099511627776"},
                             {"gittins_dist", "dir,x/yarn:1.csv"}, {"el_up", "3"},
                             {"el_down", "2"}, {"el_frac", "250"}, {"resize", "term"},
                             {"resize_cost", "2147483647"}, {"resize_gap", "0"},
                             {"gpu_mem", "24576"}, {"cache_slots", "8"}, {"load_bw", "1"},
                             {"xfer_bw", "2147483647"}, {"evict", "demand"},
                             {"cache_place", "affinity"}, {"w_warm", "600"},
                             {"requeue", "front"}, {"prio_victims", "refill"}};
    tt_params p, q;
    tt_params_default(&p);
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
        cr_assert_eq(tt_params_set(NULL, &p, m, sets[k][0], sets[k][1]), 0, "%s", sets[k][0]);
    tt_params_default(&q);
    char buf[512], again[512];
    for (int i = 0; i < TT_NPARAMS; i++) {
        cr_assert_eq(tt_params_format(&p, m, i, buf, sizeof buf), 0);
        cr_expect_str_eq(buf, sets[i][1], "%s", tt_param_names[i]);
        cr_assert_eq(tt_params_set(NULL, &q, m, tt_param_names[i], buf), 0, "%s=%s",
                     tt_param_names[i], buf);
    }
    cr_expect(memcmp(&p, &q, sizeof p) == 0, "round trip changed the parameters");

    /* the default (equal) mix reads back as every class at weight 1 */
    tt_params_default(&p);
    tt_params_default(&q);
    for (int i = 0; i < TT_NPARAMS; i++) {
        cr_assert_eq(tt_params_format(&p, m, i, buf, sizeof buf), 0);
        cr_assert_eq(tt_params_set(NULL, &q, m, tt_param_names[i], buf), 0);
        cr_assert_eq(tt_params_format(&q, m, i, again, sizeof again), 0);
        cr_expect_str_eq(buf, again);
    }
    cr_assert_eq(tt_params_format(&p, m, 11, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "fast:1,slow:1");
    cr_expect(q.mix[0] == 1 && q.mix[1] == 1);

    cr_assert_eq(tt_params_format(&p, m, 12, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "-"); /* no class has timers of its own */
    cr_expect_eq(tt_params_format(&p, NULL, 12, buf, sizeof buf), 0);

    /* bad index, no table for mix, a buffer too small */
    cr_expect_eq(tt_params_format(&p, m, TT_NPARAMS_ALL, buf, sizeof buf), TT_EINVAL);
    cr_expect_eq(tt_params_format(&p, m, -1, buf, sizeof buf), TT_EINVAL);
    cr_expect_eq(tt_params_format(&p, NULL, 11, buf, sizeof buf), TT_EINVAL);
    cr_expect_eq(tt_params_format(&p, m, 11, buf, 8), TT_EINVAL);
    cr_expect_str_eq(buf, "");
    cr_expect_eq(tt_params_format(&p, m, 0, buf, 4), TT_EINVAL); /* "fifo" needs 5 */
    cr_expect_eq(tt_params_format(&p, m, 0, buf, 5), 0);
    tt_models_free(m);
}

/* The -p options of the parameters that differ from the defaults, in
 * parameter order; a text that does not fit is cut where the buffer ends. */
Test(params, format_options)
{
    tt_models *m = two_models();
    tt_params p;
    tt_params_default(&p);
    char buf[256];
    strcpy(buf, "x");
    cr_expect_eq(tt_params_format_options(&p, m, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "");
    /* set out of order, printed in tt_param_names order; the default
     * w1 given again is no change */
    cr_assert_eq(tt_params_set(NULL, &p, m, "load", "3000"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w0", "600"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w1", "inf"), 0);
    cr_expect_eq(tt_params_format_options(&p, m, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "-p w0=600 -p load=3000");
    /* 22 characters: a buffer of 23 holds them, one of 22 the first 21 */
    cr_expect_eq(tt_params_format_options(&p, m, buf, 23), 0);
    cr_expect_str_eq(buf, "-p w0=600 -p load=3000");
    cr_expect_eq(tt_params_format_options(&p, m, buf, 22), TT_ERANGE);
    cr_expect_str_eq(buf, "-p w0=600 -p load=300");
    cr_expect_eq(tt_params_format_options(&p, m, buf, 12), TT_ERANGE);
    cr_expect_str_eq(buf, "-p w0=600 -");
    cr_expect_eq(tt_params_format_options(&p, m, buf, 0), TT_EINVAL);
    /* the named parameters: order, a mix, class timers */
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "timers", "slow:30:-"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "mix", "slow:3"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "order", "sjf"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "theta", "0"), 0);
    cr_expect_eq(tt_params_format_options(&p, m, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "-p order=sjf -p theta=0 -p mix=slow:3 -p timers=slow:30:-");
    /* an equal mix given by name is the default's */
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "mix", "fast:1,slow:1"), 0);
    cr_expect_eq(tt_params_format_options(&p, m, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "");
    tt_models_free(m);
}

/* Per-class timers: w0.CLASS / w1.CLASS set one, timers sets them all, and
 * the text reads back in class order with "-" for the global timer. */
Test(params, class_timers)
{
    tt_models *m = two_models(); /* fast, slow */
    expect_set(m, "timers", "slow:600:3600", "slow:600:3600");
    expect_set(m, "timers", "slow:inf:-,fast:0:0", "fast:0:0,slow:inf:-");
    expect_set(m, "timers", "", "-");
    expect_set(m, "timers", "-", "-");
    expect_set(m, "timers", "fast:-:-", "-"); /* only global ones: none of its own */

    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w0.slow", "120"), 0);
    cr_expect(p.class_w0[1] == 120 && p.class_w1[1] == TT_TIMER_GLOBAL);
    cr_expect(p.class_w0[0] == TT_TIMER_GLOBAL);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w1.slow", "inf"), 0);
    cr_expect_eq(p.class_w1[1], TT_INF);
    cr_expect_eq(tt_params_class_timers(&p), 1);
    char buf[256];
    cr_assert_eq(tt_params_format(&p, m, 12, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "slow:120:inf");
    cr_assert_eq(tt_params_set(NULL, &p, m, "w0.slow", "-"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w1.slow", "-"), 0);
    cr_expect_eq(tt_params_class_timers(&p), 0);
    /* without a model table the text of no timers needs no names */
    cr_expect_eq(tt_params_format(&p, NULL, 12, buf, sizeof buf), 0);

    int which = -1, cls = -1;
    cr_expect_eq(tt_params_class_timer_name(m, "w1.fast", &which, &cls), 1);
    cr_expect(which == 1 && cls == 0);
    cr_expect_eq(tt_params_class_timer_name(m, "w0.medium", &which, &cls), -1);
    cr_expect_eq(tt_params_class_timer_name(m, "w0", &which, &cls), 0);
    cr_expect_eq(tt_params_class_timer_name(m, "w0.", &which, &cls), 0);
    cr_expect_eq(tt_params_class_timer_name(m, "theta.fast", &which, &cls), 0);

    static const char want[] = "CLASS:W0:W1 triples separated by commas (W0, W1: seconds, "
                               "inf, or - for the global timer)";
    char msg[512];
    snprintf(msg, sizeof msg, "parameter 'timers': expected %s, got 'slow:600'", want);
    expect_set_error(m, "timers", "slow:600", msg);
    snprintf(msg, sizeof msg, "parameter 'timers': expected %s, got 'slow:-5:0'", want);
    expect_set_error(m, "timers", "slow:-5:0", msg);
    snprintf(msg, sizeof msg, "parameter 'timers': expected %s, got ':1:2'", want);
    expect_set_error(m, "timers", "slow:1:2,:1:2", msg);
    snprintf(msg, sizeof msg, "parameter 'timers': expected %s, got 'slow:1:x'", want);
    expect_set_error(m, "timers", "slow:1:x", msg);
    expect_set_error(m, "timers", "medium:1:2",
                     "parameter 'timers': unknown class 'medium' (classes: fast slow)");
    expect_set_error(m, "timers", "slow:1:2,slow:3:4",
                     "parameter 'timers': class 'slow' given twice");
    expect_set_error(NULL, "timers", "slow:1:2",
                     "parameter 'timers': no model table to name classes from");
    expect_set_error(m, "w0.medium", "5",
                     "parameter 'w0.medium': unknown class 'medium' (classes: fast slow)");
    expect_set_error(m, "w1.slow", "-1",
                     "parameter 'w1.slow': expected seconds >= 0, inf or -, got '-1'");
    expect_set_error(NULL, "w1.slow", "5",
                     "parameter 'w1.slow': no model table to name classes from");
    tt_models_free(m);
}

/* Presets (SPEC 11.9, 10.11): each is exactly its settings applied in
 * order to whatever p held, and the elastic baselines are the points SPEC
 * 10.11 gives: the Kubernetes default fixed, the others on its order,
 * timers and backfill, term paying restart (30 s), sidecar leaving
 * resize_cost as it was. */
Test(params, presets)
{
    static const char *const want[] = {"yarn-cs", "tiresias-dlas", "tiresias-gittins",
                                       "pollux-tiresias", "themis", "k8s-fixed",
                                       "elastic-term", "elastic-sidecar", "start-smaller",
                                       "wf-deps",       "cache-lru",       "heft-like",
                                       "compass-like",  "tiresias-sim-dlas",
                                       "tiresias-sim-gittins"};
    int n = 0;
    while (tt_preset_name(n))
        n++;
    cr_assert_eq(n, 15);
    for (int i = 0; i < n; i++) {
        cr_expect_str_eq(tt_preset_name(i), want[i]);
        tt_params p, q;
        tt_params_default(&p);
        cr_assert_eq(tt_params_set(NULL, &p, NULL, "resize_cost", "77"), 0);
        q = p;
        cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", want[i]), 0, "%s", want[i]);
        char item[128];
        const char *at = tt_preset_settings(i);
        while (*at) { /* the settings one by one */
            size_t len = strcspn(at, " ");
            snprintf(item, sizeof item, "%.*s", (int)len, at);
            char *eq = strchr(item, '=');
            cr_assert(eq);
            *eq = '\0';
            cr_assert_eq(tt_params_set(NULL, &q, NULL, item, eq + 1), 0);
            at += len + strspn(at + len, " ");
        }
        cr_expect(memcmp(&p, &q, sizeof p) == 0, "%s is not its settings", want[i]);
        if (i < 5 || i > 8)
            continue;
        cr_expect(p.order == TT_ORDER_FIFO && p.w0 == 0 && p.w1 == 0 && p.backfill == 1,
                  "%s", want[i]);
        cr_expect_eq(p.resize_cost, 77, "%s set resize_cost", want[i]);
    }
    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "el_up", "3"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", "k8s-fixed"), 0);
    cr_expect(p.el_up == 0 && p.el_down == 0);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "restart", "5"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", "elastic-term"), 0);
    cr_expect(p.el_up == 2 && p.el_down == 1 && p.resize == TT_RESIZE_TERM && p.restart == 30);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", "elastic-sidecar"), 0);
    cr_expect(p.el_up == 2 && p.el_down == 1 && p.resize == TT_RESIZE_SIDECAR);
    cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", "start-smaller"), 0);
    cr_expect(p.el_up == 0 && p.el_down == 1);
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_params_set(ctx, &p, NULL, "preset", "elastic"), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "k8s-fixed, elastic-term, elastic-sidecar, start-smaller, "
                                     "wf-deps, cache-lru, heft-like, compass-like, "
                                     "tiresias-sim-dlas, tiresias-sim-gittins, got 'elastic'"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

/* SPEC 12.11's baselines: each is its row of the table from any starting
 * point (a point set far from it first), the cache on Philly's 24 GB GPUs
 * but for wf-deps, and the hardware's cache_slots, load_bw and xfer_bw
 * untouched. */
Test(params, workflow_presets)
{
    static const struct {
        const char *name;
        int64_t gpu_mem, w_warm;
        int32_t evict, cache_place;
    } want[] = {
        {"wf-deps", 0, 0, TT_EVICT_LRU, TT_CACHE_PLACE_OFF},
        {"cache-lru", 24576, 0, TT_EVICT_LRU, TT_CACHE_PLACE_OFF},
        {"heft-like", 24576, 0, TT_EVICT_LRU, TT_CACHE_PLACE_AFFINITY},
        {"compass-like", 24576, 5, TT_EVICT_DEMAND, TT_CACHE_PLACE_AFFINITY},
    };
    static const char *const away[][2] = {{"gpu_mem", "1000"},  {"evict", "demand"},
                                          {"cache_place", "affinity"}, {"w_warm", "77"},
                                          {"cache_slots", "2"}, {"load_bw", "3"},
                                          {"xfer_bw", "4"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        tt_params p;
        tt_params_default(&p);
        for (size_t k = 0; k < sizeof away / sizeof away[0]; k++)
            cr_assert_eq(tt_params_set(NULL, &p, NULL, away[k][0], away[k][1]), 0);
        cr_assert_eq(tt_params_set(NULL, &p, NULL, "preset", want[i].name), 0);
        cr_expect(p.gpu_mem == want[i].gpu_mem && p.w_warm == want[i].w_warm &&
                      p.evict == want[i].evict && p.cache_place == want[i].cache_place,
                  "%s", want[i].name);
        cr_expect(p.cache_slots == 2 && p.load_bw == 3 && p.xfer_bw == 4, "%s", want[i].name);
        cr_expect(p.el_up == 0 && p.el_down == 0, "%s", want[i].name);
    }
}

/* params.c's table of integer parameters against the parser: each one set
 * by text to a value of its own is what tt_param_int reads back, and
 * tt_param_set_int writes what the formatter prints; the ones without a
 * row are exactly the four that are not integers. Searchable: the
 * scheduler's integers, not seed, el_frac or the hardware's. */
Test(params, integer_fields_agree_with_the_parser)
{
    static const struct {
        int i;
        const char *text;
        int64_t v;
    } set[] = {
        {TT_P_ORDER, "sjf", TT_ORDER_SJF}, {TT_P_W0, "17", 17}, {TT_P_W1, "18", 18},
        {TT_P_THETA, "1234", 1234}, {TT_P_RESTART, "19", 19}, {TT_P_CONGESTION, "21", 21},
        {TT_P_MIN_RUN, "22", 22}, {TT_P_MAX_PREEMPT, "5", 5}, {TT_P_BACKFILL, "0", 0},
        {TT_P_LOAD, "1500", 1500}, {TT_P_SEED, "77", 77}, {TT_P_PROMOTE, "1100", 1100},
        {TT_P_PRIO_PREEMPT, "0", 0}, {TT_P_GITTINS_DELTA, "999", 999}, {TT_P_EL_UP, "2", 2},
        {TT_P_EL_DOWN, "1", 1}, {TT_P_EL_FRAC, "400", 400}, {TT_P_RESIZE, "term", TT_RESIZE_TERM},
        {TT_P_RESIZE_COST, "23", 23}, {TT_P_RESIZE_GAP, "24", 24}, {TT_P_GPU_MEM, "2048", 2048},
        {TT_P_CACHE_SLOTS, "3", 3}, {TT_P_LOAD_BW, "25", 25}, {TT_P_XFER_BW, "26", 26},
        {TT_P_EVICT, "demand", TT_EVICT_DEMAND},
        {TT_P_CACHE_PLACE, "affinity", TT_CACHE_PLACE_AFFINITY}, {TT_P_W_WARM, "27", 27},
        {TT_P_REQUEUE, "front", TT_REQUEUE_FRONT},
        {TT_P_PRIO_VICTIMS, "refill", TT_PRIO_VICTIMS_REFILL},
    };
    int seen[TT_NPARAMS] = {0};
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        tt_params p, q;
        tt_params_default(&p);
        tt_params_default(&q);
        int64_t v = -1, d = -1;
        cr_assert_eq(tt_params_set(NULL, &p, NULL, tt_param_names[set[k].i], set[k].text), 0,
                     "%s", tt_param_names[set[k].i]);
        cr_assert(tt_param_int(&p, set[k].i, &v), "%s has no row", tt_param_names[set[k].i]);
        cr_expect_eq(v, set[k].v, "%s: read %lld", tt_param_names[set[k].i], (long long)v);
        cr_assert(tt_param_int(&q, set[k].i, &d));
        cr_expect_neq(d, v, "%s: the test's value is the default", tt_param_names[set[k].i]);
        tt_param_set_int(&q, set[k].i, set[k].v);
        cr_expect(memcmp(&p, &q, sizeof p) == 0, "%s: set by number differs from by text",
                  tt_param_names[set[k].i]);
        seen[set[k].i] = 1;
    }
    for (int i = 0; i < TT_NPARAMS; i++) {
        int64_t v;
        int non_int = i == TT_P_MIX || i == TT_P_TIMERS || i == TT_P_MLFQ || i == TT_P_GITTINS_DIST;
        cr_expect_eq(tt_param_int(NULL, -1, &v), 0);
        if (non_int) {
            tt_params p;
            tt_params_default(&p);
            cr_expect_eq(tt_param_int(&p, i, &v), 0, "%s has a row", tt_param_names[i]);
        } else {
            cr_expect(seen[i], "%s: an integer parameter this test does not set",
                      tt_param_names[i]);
        }
        int search = !non_int && i != TT_P_ORDER && i != TT_P_SEED && i != TT_P_EL_FRAC &&
                     i != TT_P_RESIZE && i != TT_P_GPU_MEM && i != TT_P_LOAD_BW &&
                     i != TT_P_XFER_BW && i != TT_P_EVICT && i != TT_P_CACHE_PLACE;
        cr_expect_eq(tt_param_searchable(i), search, "%s searchable", tt_param_names[i]);
    }
}
