/* The gavel format: the older 7-field Gavel traces, one file per VC. */
#include "testutil.h"

static tt_trace *ingest_label(tt_ctx *ctx, const char *fmt, const char *text, const char *label)
{
    tt_ingest_opts o = {fmt, NULL, NULL};
    tt_trace *t = NULL;
    tt_ingest_mem(ctx, &o, text, strlen(text), label, &t);
    return t;
}

/* Per VC file: rows, sum of scale_factor, of total_steps and of
 * arrival_time, computed with awk -F'\t' over each .trace file. */
static const struct {
    const char *vc;
    int64_t rows, gpus, steps, arrivals;
} seed0[] = {
    {"0e4a51", 1181, 3236, 6815877024LL, 3539589812LL},
    {"103959", 986, 2364, 1916994894LL, 4071092814LL},
    {"11cb48", 2000, 4405, 2876472301LL, 11010189418LL},
    {"23dbec", 9, 58, 4632861LL, 1304270LL},
    {"2869ce", 533, 5425, 1339392653LL, 2103354054LL},
    {"51b7ef", 18, 115, 13170120LL, 14074638LL},
    {"6214e9", 2000, 2214, 17063947829LL, 7842418857LL},
    {"6c71a0", 2000, 3270, 7838777082LL, 4076117281LL},
    {"795a4c", 3, 3, 85353LL, 4873LL},
    {"7f04ca", 972, 4430, 13913721875LL, 5733923106LL},
    {"925e2b", 4, 25, 1432336LL, 32779LL},
    {"b436b2", 2000, 4234, 4380179281LL, 4850748061LL},
    {"e13805", 607, 2875, 2274692625LL, 2848898820LL},
    {"ed69ec", 951, 951, 3232740580LL, 3040385189LL},
    {"ee9e8c", 2000, 8587, 9875481880LL, 5538622562LL},
};
#define NVC (int)(sizeof seed0 / sizeof seed0[0])

Test(gavel, shared_seed0_all_vcs)
{
    if (!have_shared("philly/gavel_msr_seed0/6214e9.trace"))
        cr_skip("no shared Gavel traces (philly/gavel_msr_seed0)");
    char paths[NVC][1024];
    const char *in[NVC];
    for (int v = 0; v < NVC; v++) {
        char rel[128];
        snprintf(rel, sizeof rel, "philly/gavel_msr_seed0/%s.trace", seed0[v].vc);
        snprintf(paths[v], sizeof paths[v], "%s", shared_path(rel));
        in[v] = paths[v];
    }
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"gavel", NULL, NULL};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, NVC, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->n, 15264);
    cr_expect_eq(t->prov.rows_read, 15264);
    cr_expect_str_eq(t->prov.format, "gavel");
    cr_expect_str_eq(t->prov.duration_unit, "steps");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_eq(tt_strtab_count(t->vcs), NVC);
    int64_t rows[NVC] = {0}, gpus[NVC] = {0}, steps[NVC] = {0}, arr[NVC] = {0};
    for (int64_t i = 0; i < t->n; i++) {
        const char *vc = str_at(t->vcs, t->vc, i);
        cr_assert(vc, "job %lld has no VC", (long long)i);
        int v = 0;
        while (v < NVC && strcmp(seed0[v].vc, vc) != 0)
            v++;
        cr_assert(v < NVC, "unexpected VC '%s'", vc);
        rows[v]++;
        gpus[v] += t->gpus[i];
        steps[v] += t->duration[i];
        arr[v] += t->submit[i];
        cr_assert(t->model[i] >= 0 && t->start[i] == TT_TIME_NONE && t->name[i] < 0);
    }
    for (int v = 0; v < NVC; v++) {
        cr_expect_eq(rows[v], seed0[v].rows, "rows of %s", seed0[v].vc);
        cr_expect_eq(gpus[v], seed0[v].gpus, "scale_factor sum of %s", seed0[v].vc);
        cr_expect_eq(steps[v], seed0[v].steps, "total_steps sum of %s", seed0[v].vc);
        cr_expect_eq(arr[v], seed0[v].arrivals, "arrival sum of %s", seed0[v].vc);
    }
    cr_expect(tt_trace_is_sorted(t));
    /* 26 job types (cut -f1 | sort -u | wc -l), whole strings */
    cr_expect_eq(tt_strtab_count(t->models), 26);
    cr_expect_geq(tt_strtab_find(t->models, "Transformer (batch size 128)"), 0);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(gavel, fields_rounding_and_drops)
{
    tt_ctx *ctx = tt_ctx_create();
    const char *text = "ResNet-50 (batch size 64)\tcd %s/x\t--num_steps\t1\t1000\t0.000000\t4\n"
                       "A3C\tcd %s/a3c\t--max-steps\t0\t250\t12.500000\t1\n"
                       "\n"
                       "LM (batch size 20)\tpython3 lm.py\t-n\t1\t77\t3.400000\t0\n"
                       "CycleGAN\tpython3 gan.py \"open quote\t--n_steps\t1\t5\t7.4\t16";
    tt_trace *t = ingest_label(ctx, "gavel", text, "traces/msr/ab12cd.trace");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 3);
    cr_expect_eq(t->prov.rows_read, 4);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    int64_t submit[] = {0, 7, 13}, dur[] = {1000, 5, 250};
    int32_t gpus[] = {4, 16, 1};
    const char *model[] = {"ResNet-50 (batch size 64)", "CycleGAN", "A3C"};
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(t->submit[i], submit[i], "submit %d", i);
        cr_expect_eq(t->duration[i], dur[i], "duration %d", i);
        cr_expect_eq(t->gpus[i], gpus[i], "gpus %d", i);
        cr_expect_str_eq(str_at(t->models, t->model, i), model[i]);
        cr_expect_str_eq(str_at(t->vcs, t->vc, i), "ab12cd");
    }
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(gavel, stdin_has_no_vc_and_auto_detects)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_label(ctx, "auto", "A3C\tcmd\t-n\t1\t100\t5.000000\t2\n", "<stdin>");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "gavel");
    cr_expect_eq(t->vc[0], -1);
    cr_expect_eq(t->submit[0], 5);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

static void expect_error(const char *fmt, const char *text, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_label(ctx, fmt, text, "vc.trace");
    cr_expect_null(t, "accepted: %s", text);
    cr_expect(strstr(tt_errmsg(ctx), want), "message '%s' lacks '%s'", tt_errmsg(ctx), want);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

#define OK_LINE "A3C\tcmd\t-n\t1\t100\t0.000000\t1\n"

Test(gavel, newer_format_is_named)
{
    const char *newer =
        OK_LINE "ResNet-18 (batch size 32)\tcmd\t/work\t-n\t1\t200\t1\t1\t-1\t10.000000\n";
    expect_error("gavel", newer, "vc.trace:2: 10 tab-separated fields: this is the newer "
                                 "10-field Gavel trace; -f gavel reads the older 7-field one");
    /* auto picks gavel for it too, so the message is the same */
    expect_error("auto", newer + strlen(OK_LINE), "vc.trace:1: 10 tab-separated fields");
}

Test(gavel, bad_inputs)
{
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t0.0\n",
                 "vc.trace:2: expected 7 tab-separated fields (job_type, command, num_steps_arg, "
                 "needs_data_dir, total_steps, arrival_time, scale_factor), got 6");
    expect_error("gavel", OK_LINE OK_LINE "A3C\tcmd\t-n\t1\tmany\t0.0\t1\n",
                 "vc.trace:3: field 'total_steps': expected a number, got 'many'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t-5.000000\t1\n",
                 "vc.trace:2: field 'arrival_time': negative value '-5.000000'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t5\t-2\n",
                 "vc.trace:2: field 'scale_factor': negative value '-2'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t2019-10-03 00:00:00\t1\n",
                 "vc.trace:2: field 'arrival_time': expected a number, got '2019-10-03 00:00:00'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t\t1\n",
                 "vc.trace:2: field 'arrival_time': value missing");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\tyes\t100\t1\t1\n",
                 "vc.trace:2: field 'needs_data_dir': expected 0 or 1, got 'yes'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t1\t99999999999\n",
                 "vc.trace:2: field 'scale_factor': 99999999999 GPUs is out of range");
    expect_error("gavel",
                 "job_type\tcommand\tnum_steps_arg\tneeds_data_dir\ttotal_steps\tarrival_time"
                 "\tscale_factor\n" OK_LINE,
                 "vc.trace:1: field 'needs_data_dir': expected 0 or 1, got 'needs_data_dir'");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t4294967297\t1\t1\n",
                 "vc.trace:2: field 'total_steps': duration 4294967297 is out of range "
                 "(0 .. 2^32)");
    expect_error("gavel", OK_LINE "A3C\tcmd\t-n\t1\t100\t1099511627777\t1\n",
                 "vc.trace:2: field 'arrival_time': submit 1099511627777 is out of range");
    expect_error("gavel", "", "vc.trace:1: empty input: no job line");
    expect_error("gavel", "A3C\tcmd\t-n\t1\t100\t0\t0\n", "no job can be simulated (1 rows: 1 cpu_only)");
}

Test(gavel, binary_garbage)
{
    static const char junk[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00garbage";
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"gavel", NULL, NULL};
    tt_trace *t = NULL;
    cr_expect_neq(tt_ingest_mem(ctx, &o, junk, sizeof junk - 1, "junk.trace", &t), 0);
    cr_expect(strstr(tt_errmsg(ctx), "junk.trace:1: binary data"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}
