/* The simulation's configuration (clusters, parameters, model tables, jobs
 * from a trace, metric text) and its HDF5 result file. */
#include <hdf5.h>
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/simfile.h"

/* models_default.c: the compiled-in copy of data/models.tsv */
extern const char tt_models_default_tsv[];

/* ---- helpers ---- */

/* Writes text to a new file in a fresh temporary folder; the caller
 * removes it with rm_tmp. */
static const char *tmp_file(const char *name, const char *text)
{
    static char path[8][512];
    static int k;
    char dir[] = "/tmp/tt_simconf_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    FILE *f = fopen(path[k], "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return path[k];
}

static void rm_tmp(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    unlink(path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
}

/* The whole of a file, NUL-terminated; *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Two classes: "fast" (no slowdown) and "slow" (1.5x at L1, 2.5x at L2). */
static tt_models *two_models(void)
{
    const char *names[] = {"fast", "slow"};
    const int64_t l1[] = {1000, 1500}, l2[] = {1000, 2500};
    tt_models *m = NULL;
    cr_assert_eq(tt_models_create(NULL, 2, names, l1, l2, &m), 0);
    return m;
}

/* ---- clusters ---- */

static void expect_cluster(const char *spec, int32_t r, int32_t n, int32_t g)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster c = {0, 0, 0};
    cr_expect_eq(tt_cluster_parse(ctx, spec, &c), 0, "'%s': %s", spec, tt_errmsg(ctx));
    cr_expect(c.racks == r && c.nodes_per_rack == n && c.gpus_per_node == g,
              "'%s' gave %dx%dx%d", spec, c.racks, c.nodes_per_rack, c.gpus_per_node);
    tt_ctx_free(ctx);
}

static void expect_cluster_error(const char *spec, int code, const char *msg)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_cluster c = {7, 7, 7};
    cr_expect_eq(tt_cluster_parse(ctx, spec, &c), code, "'%s' gave %d: %s", spec,
                 tt_errcode(ctx), tt_errmsg(ctx));
    cr_expect(strstr(tt_errmsg(ctx), msg) != NULL, "'%s': message '%s' lacks '%s'", spec,
              tt_errmsg(ctx), msg);
    cr_expect(c.racks == 7 && c.nodes_per_rack == 7 && c.gpus_per_node == 7,
              "'%s': the cluster changed on error", spec);
    tt_ctx_free(ctx);
}

Test(cluster, text)
{
    expect_cluster("4x32x8", 4, 32, 8);
    expect_cluster("1x1x4", 1, 1, 4);
    expect_cluster("65536x1x1", 65536, 1, 1); /* exactly TT_MAX_CLUSTER_GPUS */
    expect_cluster("1x1x65536", 1, 1, 65536);
    char buf[64];
    tt_cluster c = {4, 32, 8};
    tt_cluster_format(&c, buf, sizeof buf);
    cr_expect_str_eq(buf, "4x32x8");

    expect_cluster_error("1x0x8", TT_EINVAL,
                         "cluster '1x0x8': field 'nodes_per_rack': expected an integer 1 .. "
                         "2147483647, got '0'");
    expect_cluster_error("4x32", TT_EINVAL, "cluster '4x32': expected RxNxG");
    expect_cluster_error("4x32x8x1", TT_EINVAL, "expected RxNxG");
    expect_cluster_error("4xx8", TT_EINVAL, "field 'nodes_per_rack'");
    expect_cluster_error("-1x2x2", TT_EINVAL, "field 'racks'");
    expect_cluster_error("0x2x2", TT_EINVAL, "field 'racks'");
    expect_cluster_error("4x32x+", TT_EINVAL, "field 'gpus_per_node'");
    /* overflow of one number, and of the product */
    expect_cluster_error("99999999999x1x1", TT_EINVAL, "field 'racks'");
    expect_cluster_error("1x1x2147483648", TT_EINVAL, "field 'gpus_per_node'");
    expect_cluster_error("65537x1x1", TT_EINVAL, "more than 65536 GPUs in all");
    expect_cluster_error("2147483647x2147483647x2147483647", TT_EINVAL,
                         "more than 65536 GPUs in all");
    expect_cluster_error("300x300x8", TT_EINVAL, "more than 65536 GPUs");
    expect_cluster_error("1x00000000000000000000000000000000000001x1", TT_EINVAL,
                         "field 'nodes_per_rack': expected an integer 1 .. 2147483647, got "
                         "'00000000000000000000...'");
    /* not of the RxNxG shape: a file name */
    expect_cluster_error("no_such_cluster.tsv", TT_EIO, "cannot open 'no_such_cluster.tsv'");
}

Test(cluster, file)
{
    const char *p = tmp_file("c.tsv", "racks\tnodes_per_rack\tgpus_per_node\n2\t16\t8\n");
    expect_cluster(p, 2, 16, 8);
    rm_tmp(p);
    /* columns by name, in any order; blank lines and CRLF are fine */
    p = tmp_file("c.tsv", "gpus_per_node\tracks\tnodes_per_rack\r\n\r\n4\t3\t2\r\n\n");
    expect_cluster(p, 3, 2, 4);
    rm_tmp(p);

    struct {
        const char *text, *msg;
    } bad[] = {
        {"racks\tnodes\tgpus_per_node\n1\t2\t3\n",
         "c.tsv:1: field 'nodes_per_rack': no such column in the header"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\tx\t8\n",
         "c.tsv:2: field 'nodes_per_rack': expected an integer >= 1, got 'x'"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\t0\n",
         "c.tsv:2: field 'gpus_per_node': expected an integer >= 1, got '0'"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\n", "c.tsv:2: expected 3 fields, got 2"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1\t2\t8\n1\t2\t8\n",
         "c.tsv:3: a second row: a cluster file has one row"},
        {"racks\tnodes_per_rack\tgpus_per_node\n", "c.tsv:1: no data row"},
        {"", "c.tsv:1: empty: no header line"},
        {"racks\tnodes_per_rack\tgpus_per_node\n1000\t1000\t1\n",
         "c.tsv:2: more than 65536 GPUs in all"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = tmp_file("c.tsv", bad[i].text);
        expect_cluster_error(p, TT_EPARSE, bad[i].msg);
        rm_tmp(p);
    }
}

/* ---- parameters ---- */

Test(params, names_and_defaults)
{
    const char *want[] = {"order",   "w0",          "w1",       "theta", "restart", "congestion",
                          "min_run", "max_preempt", "backfill", "load",  "seed",    "mix",
                          "timers"};
    cr_assert_eq(TT_NPARAMS, 13);
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
                     "parameter 'order': expected fifo, sjf, srtf or las, got 'xyz'");
    expect_set_error(m, "order", "FIFO",
                     "parameter 'order': expected fifo, sjf, srtf or las, got 'FIFO'");
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
    expect_set_error(m, "seed", "0x10",
                     "parameter 'seed': expected an integer 0 .. 18446744073709551615, got '0x10'");
    expect_set_error(m, "nosuch", "1",
                     "unknown parameter 'nosuch' (known: order w0 w1 theta restart congestion "
                     "min_run max_preempt backfill load seed mix timers w0.CLASS w1.CLASS)");
    expect_set_error(m, "W0", "1",
                     "unknown parameter 'W0' (known: order w0 w1 theta restart congestion "
                     "min_run max_preempt backfill load seed mix timers w0.CLASS w1.CLASS)");
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
                             {"mix", "slow:3"}, {"timers", "fast:-:inf,slow:600:0"}};
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
    cr_expect_eq(tt_params_format(&p, m, 13, buf, sizeof buf), TT_EINVAL);
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

/* ---- model tables ---- */

static void expect_models_error(const char *text, int code, const char *msg)
{
    const char *p = tmp_file("m.tsv", text);
    tt_ctx *ctx = tt_ctx_create();
    tt_models *m = (tt_models *)1;
    cr_expect_eq(tt_models_load(ctx, p, &m), code, "code %d: %s", tt_errcode(ctx),
                 tt_errmsg(ctx));
    cr_expect_null(m);
    cr_expect(strstr(tt_errmsg(ctx), msg) != NULL, "message '%s' lacks '%s'", tt_errmsg(ctx),
              msg);
    tt_ctx_free(ctx);
    rm_tmp(p);
}

Test(models, file_errors)
{
    expect_models_error("name\tslow_l1\tsource\nbert\t1383\tx\n", TT_EPARSE,
                        "m.tsv:1: field 'slow_l2': no such column in the header");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1383\t999\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l2': expected an integer 1000 .. 1000000 "
                        "(permille), got '999'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t0\t1500\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l1': expected an integer 1000 .. 1000000 "
                        "(permille), got '0'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1000\t1000001\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l2': expected an integer 1000 .. 1000000 "
                        "(permille), got '1000001'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1.5\t1500\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l1': expected an integer 1000 .. 1000000 "
                        "(permille), got '1.5'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1100\t1500\nncf\t1100\t1500\n"
                        "bert\t1000\t1000\n",
                        TT_EPARSE, "m.tsv:4: field 'name': 'bert' already named on line 2");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1100\n", TT_EPARSE,
                        "m.tsv:2: expected 3 fields, got 2");
    expect_models_error("name\tslow_l1\tslow_l2\na:b\t1100\t1200\n", TT_EPARSE,
                        "m.tsv:2: field 'name': 'a:b' contains ','");
    expect_models_error("name\tslow_l1\tslow_l2\n\t1100\t1200\n", TT_EPARSE,
                        "m.tsv:2: field 'name': '' is empty");
    expect_models_error("name\tslow_l1\tslow_l2\n", TT_EPARSE, "m.tsv:1: no model class");
    expect_models_error("", TT_EPARSE, "m.tsv:1: empty: no header line");

    /* 64 classes are fine, 65 are not */
    char big[8192] = "name\tslow_l1\tslow_l2\n";
    for (int i = 0; i < 65; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "m%d\t1000\t1000\n", i);
    expect_models_error(big, TT_EPARSE, "m.tsv:66: more than 64 model classes");
    *strstr(big, "m64\t") = '\0';
    const char *p = tmp_file("m.tsv", big);
    tt_models *m = NULL;
    cr_expect_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_eq(tt_models_count(m), 64);
    tt_models_free(m);
    rm_tmp(p);

    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_models_load(ctx, "/nonexistent/models.tsv", &m), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot open '/nonexistent/models.tsv'"));
    tt_ctx_free(ctx);
}

Test(models, file_good)
{
    /* extra columns ignored, columns in any order; the digest is of the
     * raw bytes (sha256sum over this text) */
    const char *text = "name\tslow_l1\tslow_l2\nfast\t1000\t1000\nslow\t1500\t2500\n";
    const char *p = tmp_file("m.tsv", text);
    tt_models *m = NULL;
    cr_assert_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_eq(tt_models_count(m), 2);
    cr_expect_str_eq(tt_models_name(m, 1), "slow");
    cr_expect_eq(tt_models_slow_l1(m, 1), 1500);
    cr_expect_eq(tt_models_slow_l2(m, 1), 2500);
    cr_expect_eq(tt_models_find(m, "fast"), 0);
    cr_expect_eq(tt_models_find(m, "Fast"), -1);
    cr_expect_null(tt_models_name(m, 2));
    cr_expect_str_eq(tt_models_source(m), p);
    cr_expect_str_eq(tt_models_sha256(m),
                     "5907bb1868504de4400268a25e81dac148ad6f370cfdc92ea3240de6dd27b850");
    tt_models_free(m);
    rm_tmp(p);

    p = tmp_file("m.tsv", "source\tslow_l2\tname\tslow_l1\nsomewhere\t1200\tx\t1100\n");
    cr_assert_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_str_eq(tt_models_name(m, 0), "x");
    cr_expect_eq(tt_models_slow_l1(m, 0), 1100);
    cr_expect_eq(tt_models_slow_l2(m, 0), 1200);
    tt_models_free(m);
    rm_tmp(p);
}

/* The compiled-in table is data/models.tsv, byte for byte. */
Test(models, built_in_equals_data_file)
{
    size_t len;
    char *file = slurp("data/models.tsv", &len);
    cr_expect_eq(strlen(tt_models_default_tsv), len, "built in: %zu bytes, data/models.tsv %zu",
                 strlen(tt_models_default_tsv), len);
    cr_expect(memcmp(tt_models_default_tsv, file, len) == 0,
              "libcore/models_default.c differs from data/models.tsv");
    free(file);

    tt_models *d = NULL, *f = NULL;
    cr_assert_eq(tt_models_default(NULL, &d), 0);
    cr_assert_eq(tt_models_load(NULL, "data/models.tsv", &f), 0);
    cr_expect_str_eq(tt_models_source(d), "(built in)");
    cr_expect_str_eq(tt_models_sha256(d), tt_models_sha256(f));
    cr_assert_eq(tt_models_count(d), tt_models_count(f));
    for (int c = 0; c < tt_models_count(d); c++) {
        cr_expect_str_eq(tt_models_name(d, c), tt_models_name(f, c));
        cr_expect_eq(tt_models_slow_l1(d, c), tt_models_slow_l1(f, c));
        cr_expect_eq(tt_models_slow_l2(d, c), tt_models_slow_l2(f, c));
    }
    /* the first and last rows of data/models.tsv, as written there */
    cr_expect_str_eq(tt_models_name(d, 0), "bert");
    cr_expect_eq(tt_models_slow_l1(d, 0), 1383);
    cr_expect_eq(tt_models_slow_l2(d, 0), 1766);
    cr_expect_str_eq(tt_models_name(d, 5), "resnet50");
    cr_expect_eq(tt_models_slow_l2(d, 5), 1034);
    tt_models_free(d);
    tt_models_free(f);
}

Test(models, create)
{
    tt_models *m = two_models();
    cr_expect_str_eq(tt_models_source(m), "(in memory)");
    /* sha256sum of "name\tslow_l1\tslow_l2\nfast\t1000\t1000\nslow\t1500\t2500\n" */
    cr_expect_str_eq(tt_models_sha256(m),
                     "5907bb1868504de4400268a25e81dac148ad6f370cfdc92ea3240de6dd27b850");
    tt_models_free(m);

    tt_ctx *ctx = tt_ctx_create();
    const char *names[] = {"a", "a"};
    const int64_t ok[] = {1000, 1000}, low[] = {1000, 999};
    cr_expect_eq(tt_models_create(ctx, 2, names, ok, ok, &m), TT_EINVAL);
    cr_expect_null(m);
    cr_expect(strstr(tt_errmsg(ctx), "model 1: name 'a' given twice"), "%s", tt_errmsg(ctx));
    const char *names2[] = {"a", "b"};
    cr_expect_eq(tt_models_create(ctx, 2, names2, ok, low, &m), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "model 1 ('b')"), "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_models_create(ctx, 0, names2, ok, ok, &m), TT_EINVAL);
    cr_expect_eq(tt_models_create(ctx, TT_MAX_CLASSES + 1, names2, ok, ok, &m), TT_EINVAL);
    tt_ctx_free(ctx);
    tt_models_free(NULL);
}

/* ---- jobs from a trace ---- */

static void add_job(tt_trace *t, int64_t submit, int64_t dur, int32_t gpus, const char *model)
{
    tt_job j = tt_job_empty();
    j.submit = submit;
    j.duration = dur;
    j.gpus = gpus;
    j.model = model;
    cr_assert_eq(tt_trace_append(t, &j), 0);
}

Test(sim_jobs, from_trace)
{
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(NULL, &m), 0);
    tt_trace *t = tt_trace_create();
    add_job(t, 0, 100, 2, "bert");
    add_job(t, 5, 50, 4, "resnet50");
    add_job(t, 5, 30, 1, "foo");  /* unknown to the table */
    add_job(t, 9, 0, 8, NULL);    /* absent */
    add_job(t, 12, 7, 1, "BERT"); /* names match exactly */
    add_job(t, 20, 1, 1, "ncf");
    tt_sim_jobs j;
    cr_assert_eq(tt_sim_jobs_from_trace(NULL, t, m, &j), 0);
    cr_assert_eq(j.n, 6);
    const int32_t cls[] = {0, 5, -1, -1, -1, 1};
    const int64_t submit[] = {0, 5, 5, 9, 12, 20}, dur[] = {100, 50, 30, 0, 7, 1};
    const int32_t gpus[] = {2, 4, 1, 8, 1, 1};
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(j.cls[i], cls[i], "job %d: class %d", i, j.cls[i]);
        cr_expect_eq(j.submit[i], submit[i]);
        cr_expect_eq(j.duration[i], dur[i]);
        cr_expect_eq(j.gpus[i], gpus[i]);
    }
    cr_expect_eq(j.unknown_models, 3);
    tt_sim_jobs_free(&j);
    cr_expect_null(j.cls);
    tt_sim_jobs_free(&j); /* twice is harmless */

    /* no model table: every job unknown */
    cr_assert_eq(tt_sim_jobs_from_trace(NULL, t, NULL, &j), 0);
    cr_expect_eq(j.unknown_models, 6);
    tt_sim_jobs_free(&j);

    /* an absent or negative duration, an unsorted trace */
    tt_ctx *ctx = tt_ctx_create();
    t->duration[3] = TT_TIME_NONE;
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "job 3 (submit 9) has no duration");
    cr_expect_null(j.submit);
    t->duration[3] = -1;
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "job 3 (submit 9) has a negative duration");
    t->duration[3] = 0;
    t->submit[4] = 3;
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "the trace is not sorted by submit time");
    t->submit[4] = 12;
    /* durations in training steps (gavel) are not seconds */
    cr_assert_eq(tt_prov_set(&t->prov.duration_unit, "steps"), 0);
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "durations are in steps") != NULL, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_prov_set(&t->prov.duration_unit, "s"), 0);
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), 0);
    tt_sim_jobs_free(&j);
    tt_ctx_free(ctx);

    tt_trace_free(t);
    tt_models_free(m);
}

/* ---- metrics ---- */

Test(metrics, names_and_text)
{
    const char *want[] = {"makespan",      "jct_mean",    "jct_p50",   "jct_p90",
                          "jct_p99",       "queue_mean",  "queue_p99", "comm_gpu_s",
                          "comm_share",    "restart_gpu_s", "preemptions", "placed_l0",
                          "placed_l1",     "placed_l2",   "util",      "rejected"};
    cr_assert_eq(TT_NMETRICS, 16);
    for (int i = 0; i < TT_NMETRICS; i++)
        cr_expect_str_eq(tt_metric_names[i], want[i]);

    tt_metrics m = {
        .makespan = 150,      .jct_mean = 72.5,         .jct_p50 = 30,
        .jct_p90 = 140,       .jct_p99 = 9007199254740993, /* 2^53 + 1: no double */
        .queue_mean = 1.0 / 3, .queue_p99 = 90,          .comm_gpu_s = 1234.5675,
        .comm_share = 0.25,   .restart_gpu_s = 60,      .preemptions = 2,
        .placed_l0 = 4,       .placed_l1 = 1,           .placed_l2 = 0,
        .util = 470.0 / 600,  .rejected = 1};
    const char *text[] = {"150", "72.500000", "30",  "140", "9007199254740993", "0.333333",
                          "90",  "1234.568",  "0.250000", "60", "2", "4", "1", "0", "0.783333",
                          "1"};
    char buf[64];
    for (int i = 0; i < TT_NMETRICS; i++) {
        tt_metric_format(&m, i, buf, sizeof buf);
        cr_expect_str_eq(buf, text[i], "%s", want[i]);
    }
    cr_expect_eq(tt_metric_value(&m, 0), 150.0);
    cr_expect_eq(tt_metric_value(&m, 1), 72.5);
    cr_expect_eq(tt_metric_value(&m, 15), 1.0);
    cr_expect(isnan(tt_metric_value(&m, 16)));
    /* undefined reals print as empty fields, never "nan" or "-0.000000" */
    m.jct_mean = NAN;
    m.util = -0.0;
    tt_metric_format(&m, 1, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    tt_metric_format(&m, 14, buf, sizeof buf);
    cr_expect_str_eq(buf, "0.000000");
    tt_metric_format(&m, 16, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    tt_timeline tl = {0, 0, NULL};
    tt_timeline_free(&tl);
    tt_timeline_free(NULL);
}

/* ---- the result file ---- */

static int64_t read_i64(hid_t f, const char *path)
{
    int64_t v = -7;
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    cr_assert(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0);
    H5Dclose(d);
    return v;
}

static char *read_str(hid_t f, const char *path)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char *s = NULL;
    cr_assert(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &s) >= 0);
    char *copy = strdup(s);
    H5free_memory(s);
    H5Tclose(t);
    H5Dclose(d);
    return copy;
}

static void read_col(hid_t f, const char *path, hid_t memtype, void *buf, int64_t n)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    hid_t s = H5Dget_space(d);
    cr_assert_eq(H5Sget_simple_extent_npoints(s), n, "%s", path);
    cr_assert(H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Sclose(s);
    H5Dclose(d);
}

static int64_t attr_i64(hid_t f, const char *obj, const char *name)
{
    int64_t v = -7;
    hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert(a >= 0, "no attribute %s of %s", name, obj);
    H5Aread(a, H5T_NATIVE_INT64, &v);
    H5Aclose(a);
    return v;
}

/* A result file from made-up results: every part where the layout says. */
Test(simfile, layout)
{
    tt_models *m = two_models();
    tt_cluster c = {1, 2, 4};
    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "mix", "slow:2"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w1", "60"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "seed", "18446744073709551615"), 0);
    int64_t submit[3] = {0, 10, 20}, dur[3] = {100, 50, 5};
    int32_t gpus[3] = {2, 16, 1}, cls[3] = {0, -1, 1};
    tt_sim_jobs j = {3, submit, dur, gpus, cls, 1};
    tt_job_result r[3];
    memset(r, 0, sizeof r);
    r[0] = (tt_job_result){0, 0, 100, 0, 200, 0, 0, 1000, 0, {1, 0, 0}, 0};
    r[1] = (tt_job_result){10, TT_TIME_NONE, TT_TIME_NONE, 0, 0, 1, -1, 0, 0, {0, 0, 0}, 1};
    r[2] = (tt_job_result){20, 20, 33, 0, 13, 1, 1, 2500, 1, {0, 1, 1}, 0};
    tt_metrics met = {.makespan = 100, .jct_mean = 56.5, .comm_gpu_s = 7.25, .rejected = 1,
                      .jct_p99 = 9007199254740993};
    tt_timeline_row rows[2] = {{0, 0, 1, 2, {1, 0, 0}}, {20, 0, 2, 3, {1, 0, 1}}};
    tt_timeline tl = {2, 2, rows};
    tt_trace *t = tt_trace_create();
    tt_prov_set(&t->prov.source_sha256, "abc123");
    tt_prov_set(&t->prov.format, "csv");
    tt_sim_save_args a = {&c, &p, m, "trace.h5", &t->prov, &j, r, &met, &tl};

    char dir[] = "/tmp/tt_simfile_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/r.h5", dir);
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sim_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert(f >= 0);
    hid_t g = H5Gopen2(f, "sim", H5P_DEFAULT);
    hid_t at = H5Aopen(g, "tracetune_layout", H5P_DEFAULT);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    char *layout = NULL;
    H5Aread(at, st, &layout);
    cr_expect_str_eq(layout, "sim/1");
    H5free_memory(layout);
    H5Tclose(st);
    H5Aclose(at);
    H5Gclose(g);
    cr_expect_eq(attr_i64(f, "sim", "racks"), 1);
    cr_expect_eq(attr_i64(f, "sim", "gpus_per_node"), 4);
    cr_expect_eq(attr_i64(f, "sim", "jobs"), 3);
    cr_expect_eq(attr_i64(f, "sim", "unknown_models"), 1);

    cr_expect_eq(read_i64(f, "sim/summary/w0"), INT64_MAX);
    cr_expect_eq(attr_i64(f, "sim/summary/w0", "infinite"), INT64_MAX);
    cr_expect_eq(read_i64(f, "sim/summary/w1"), 60);
    cr_expect_eq(read_i64(f, "sim/summary/restart"), 30);
    cr_expect_eq(read_i64(f, "sim/summary/backfill"), 1);
    uint64_t seed = 0;
    read_col(f, "sim/summary/seed", H5T_NATIVE_UINT64, &seed, 1);
    cr_expect_eq(seed, UINT64_MAX);
    char *s = read_str(f, "sim/summary/order");
    cr_expect_str_eq(s, "fifo");
    free(s);
    s = read_str(f, "sim/summary/mix");
    cr_expect_str_eq(s, "slow:2");
    free(s);
    cr_expect_eq(read_i64(f, "sim/summary/makespan"), 100);
    cr_expect_eq(read_i64(f, "sim/summary/jct_p99"), 9007199254740993);
    cr_expect_eq(read_i64(f, "sim/summary/rejected"), 1);
    double d = 0;
    read_col(f, "sim/summary/comm_gpu_s", H5T_NATIVE_DOUBLE, &d, 1);
    cr_expect_eq(d, 7.25);

    int64_t v64[3];
    int32_t v32[3];
    read_col(f, "sim/jobs/job", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 0 && v64[1] == 1 && v64[2] == 2);
    read_col(f, "sim/jobs/start", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 0 && v64[1] == INT64_MIN && v64[2] == 20);
    cr_expect_eq(attr_i64(f, "sim/jobs/start", "missing"), INT64_MIN);
    read_col(f, "sim/jobs/end", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 100 && v64[1] == INT64_MIN && v64[2] == 33);
    read_col(f, "sim/jobs/duration", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 100 && v64[1] == 50 && v64[2] == 5);
    read_col(f, "sim/jobs/gpu_s", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 200 && v64[1] == 0 && v64[2] == 13);
    read_col(f, "sim/jobs/level", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == -1 && v32[2] == 1);
    cr_expect_eq(attr_i64(f, "sim/jobs/level", "missing"), -1);
    read_col(f, "sim/jobs/slow", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 1000 && v32[2] == 2500);
    read_col(f, "sim/jobs/starts_l2", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == 0 && v32[2] == 1);
    read_col(f, "sim/jobs/rejected", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == 1 && v32[2] == 0);
    read_col(f, "sim/jobs/gpus", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[1] == 16);
    read_col(f, "sim/models/slow_l2", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 1000 && v64[1] == 2500);
    read_col(f, "sim/timeline/busy_gpus", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 2 && v64[1] == 3);
    read_col(f, "sim/timeline/running_l2", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 0 && v64[1] == 1);
    H5Fclose(f);

    /* without a timeline: no /sim/timeline; a bad directory: an error, and
     * the old file stays as it was */
    a.timeline = NULL;
    cr_assert_eq(tt_sim_save(ctx, path, &a), 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_expect_eq(H5Lexists(f, "sim/timeline", H5P_DEFAULT), 0);
    H5Fclose(f);
    cr_expect_eq(tt_sim_save(ctx, "/nonexistent/dir/r.h5", &a), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot write '/nonexistent/dir/r.h5'"), "%s",
              tt_errmsg(ctx));
    a.metrics = NULL;
    cr_expect_eq(tt_sim_save(ctx, path, &a), TT_EINVAL);

    unlink(path);
    rmdir(dir);
    tt_ctx_free(ctx);
    tt_trace_free(t);
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
