/* The jobs of a trace as the engine reads them, and the metrics' names
 * and text (libcore/sim/jobs.c). */
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"

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
    cr_expect_str_eq(tt_errmsg(ctx), "durations are in steps, not seconds (duration_unit): the "
                                     "trace cannot be simulated as it is");
    cr_assert_eq(tt_prov_set(&t->prov.duration_unit, "s"), 0);
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, t, m, &j), 0);
    tt_sim_jobs_free(&j);
    tt_ctx_free(ctx);

    tt_trace_free(t);
    tt_models_free(m);
}

/* Taking the columns gives the jobs a copy gives, and leaves the trace
 * without them; a failed take leaves the trace whole. */
Test(sim_jobs, take)
{
    tt_models *m = NULL;
    cr_assert_eq(tt_models_default(NULL, &m), 0);
    tt_trace *t = tt_trace_create();
    add_job(t, 0, 100, 2, "bert");
    add_job(t, 5, 50, 4, "foo");
    add_job(t, 9, 0, 8, NULL);
    add_job(t, 20, 1, 1, "ncf");
    tt_sim_jobs want, got;
    cr_assert_eq(tt_sim_jobs_from_trace(NULL, t, m, &want), 0);
    tt_ctx *ctx = tt_ctx_create();
    int32_t codes[4];
    memcpy(codes, t->model, sizeof codes);
    t->duration[1] = -1;
    cr_expect_eq(tt_sim_jobs_take(ctx, t, m, &got), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "job 1 (submit 5) has a negative duration");
    cr_expect_not_null(t->submit);
    cr_expect_arr_eq(t->model, codes, sizeof codes); /* still the string codes */
    t->duration[1] = 50;
    int64_t *submit = t->submit;
    cr_assert_eq(tt_sim_jobs_take(ctx, t, m, &got), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(got.submit, submit);
    cr_expect_null(t->submit);
    cr_expect_null(t->duration);
    cr_expect_null(t->gpus);
    cr_expect_null(t->model);
    cr_expect_eq(got.n, want.n);
    cr_expect_eq(got.unknown_models, want.unknown_models);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(got.cls[i], want.cls[i], "job %d", i);
        cr_expect_eq(got.submit[i], want.submit[i]);
        cr_expect_eq(got.duration[i], want.duration[i]);
        cr_expect_eq(got.gpus[i], want.gpus[i]);
    }
    tt_trace_free(t); /* the columns are the jobs' now */
    tt_sim_jobs_free(&got);
    tt_sim_jobs_free(&want);
    tt_ctx_free(ctx);
    tt_models_free(m);
}

/* ---- metrics ---- */

Test(metrics, names_and_text)
{
    const char *want[] = {"makespan",      "jct_mean",    "jct_p50",   "jct_p90",
                          "jct_p99",       "queue_mean",  "queue_p99", "comm_gpu_s",
                          "comm_share",    "restart_gpu_s", "preemptions", "placed_l0",
                          "placed_l1",     "placed_l2",   "util",      "rejected",
                          "resizes",       "grows",       "shrinks",   "resize_gpu_s",
                          "loan_gpu_s",
                          "demotions",     "promotions",  "preempt_prio", "ftf_mean",
                          "ftf_max",       "ftf_unfair",  "wf_jct_mean", "wf_jct_p99",
                          "wf_rejected",   "cache_hit",   "loads",     "model_evicts",
                          "load_gpu_s",    "xfer_gpu_s"};
    cr_assert_eq(TT_NMETRICS, 35);
    for (int i = 0; i < TT_NMETRICS; i++)
        cr_expect_str_eq(tt_metric_names[i], want[i]);

    tt_metrics m = {
        .makespan = 150,      .jct_mean = 72.5,         .jct_p50 = 30,
        .jct_p90 = 140,       .jct_p99 = 9007199254740993, /* 2^53 + 1: no double */
        .queue_mean = 1.0 / 3, .queue_p99 = 90,          .comm_gpu_s = 1234.5675,
        .comm_share = 0.25,   .restart_gpu_s = 60,      .preemptions = 2,
        .placed_l0 = 4,       .placed_l1 = 1,           .placed_l2 = 0,
        .util = 470.0 / 600,  .rejected = 1,            .resizes = 5,
        .grows = 3,           .shrinks = 1,             .resize_gpu_s = 40,
        .loan_gpu_s = 1390,   .demotions = 5,
        .promotions = 3,      .preempt_prio = 2,        .ftf_mean = 1156.0 + 2.0 / 3,
        .ftf_max = 1566,      .ftf_unfair = 2,          .wf_jct_mean = 155.5,
        .wf_jct_p99 = 162,    .wf_rejected = 1,         .cache_hit = 333,
        .loads = 3,           .model_evicts = 0,        .load_gpu_s = 14,
        .xfer_gpu_s = 2};
    const char *text[] = {"150", "72.500000", "30",  "140", "9007199254740993", "0.333333",
                          "90",  "1234.568",  "0.250000", "60", "2", "4", "1", "0", "0.783333",
                          "1",   "5", "3", "1", "40", "1390",
                          "5",         "3",   "2",   "1156.666667",      "1566", "2",
                          "155.500000", "162", "1", "333", "3", "0", "14", "2"};
    char buf[64];
    for (int i = 0; i < TT_NMETRICS; i++) {
        tt_metric_format(&m, i, buf, sizeof buf);
        cr_expect_str_eq(buf, text[i], "%s", want[i]);
    }
    cr_expect_eq(tt_metric_value(&m, 0), 150.0);
    cr_expect_eq(tt_metric_value(&m, 1), 72.5);
    cr_expect_eq(tt_metric_value(&m, 15), 1.0);
    cr_expect_eq(tt_metric_value(&m, 20), 1390.0);
    cr_expect(isnan(tt_metric_value(&m, TT_NMETRICS)));
    /* undefined reals print as empty fields, never "nan" or "-0.000000" */
    m.jct_mean = NAN;
    m.util = -0.0;
    tt_metric_format(&m, 1, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    tt_metric_format(&m, 14, buf, sizeof buf);
    cr_expect_str_eq(buf, "0.000000");
    tt_metric_format(&m, TT_NMETRICS, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    /* integers that cannot be computed too: an empty field, NAN, never
     * INT64_MIN printed as a number */
    cr_expect(!tt_metric_defined(&m, 1) && tt_metric_defined(&m, 0) &&
              !tt_metric_defined(&m, TT_NMETRICS));
    m.jct_p99 = TT_METRIC_NONE;
    tt_metric_format(&m, 4, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    cr_expect(isnan(tt_metric_value(&m, 4)));
    cr_expect(!tt_metric_defined(&m, 4));
    tt_timeline tl = {0, 0, NULL};
    tt_timeline_free(&tl);
    tt_timeline_free(NULL);
}

/* One reason for every caller's message: no job ran (makespan has no
 * value), or some metric is a share of nothing. */
Test(jobs, why_metrics_undefined)
{
    tt_metrics m;
    memset(&m, 0, sizeof m);
    cr_expect_null(tt_metrics_why_undefined(&m));
    m.ftf_mean = NAN;
    m.ftf_max = TT_METRIC_NONE;
    cr_expect_str_eq(tt_metrics_why_undefined(&m), "no job has a duration above 0");
    m.comm_share = NAN;
    cr_expect_str_eq(tt_metrics_why_undefined(&m), "no GPU time was used");
    m.makespan = TT_METRIC_NONE;
    cr_expect_str_eq(tt_metrics_why_undefined(&m), "every job is rejected");
}

/* SPEC 10.10's scenario B from an ingested trace: J2 is elastic by its
 * elastic column, or, without the column, by the el_frac hash. The column
 * wins over the hash both ways (10.1): J2 ends at 560 when elastic, 700
 * when it waits at its fixed size. */
static int64_t scen_b_end(const char *cols, const char *others, const char *j2,
                          int32_t el_frac, int take)
{
    char text[256];
    snprintf(text, sizeof text,
             "name,submit,duration,gpus,model%s\nj0,0,600,4,lin%s\nj1,0,300,2,lin%s\n"
             "j2,0,400,4,lin%s\n",
             cols, others, others, j2);
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "csv", text);
    cr_assert(t, "%s", tt_errmsg(ctx));
    static const char *const names[] = {"lin"};
    static const int64_t lin[] = {1000, 2000, 4000, 8000}, slow = 1000;
    tt_models *md = NULL;
    cr_assert_eq(tt_models_create(NULL, 1, names, &slow, &slow, &md), 0);
    cr_assert_eq(tt_models_set_scale(NULL, md, 0, 4, lin), 0);
    tt_cluster c = {1, 2, 4};
    tt_params p;
    tt_params_default(&p);
    p.el_down = 1;
    p.el_frac = el_frac;
    p.resize_cost = 10;
    p.restart = 30;
    p.resize_gap = 0;
    tt_sim_jobs j;
    int rc = take ? tt_sim_jobs_take(ctx, t, md, &j) : tt_sim_jobs_from_trace(ctx, t, md, &j);
    cr_assert_eq(rc, 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(j.elastic != NULL, *cols != 0);
    tt_job_result out[3];
    tt_metrics m;
    cr_assert_eq(tt_simulate(ctx, &c, &p, md, &j, out, &m, NULL), 0, "%s", tt_errmsg(ctx));
    tt_sim_jobs_free(&j);
    tt_models_free(md);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return out[2].end;
}

Test(sim_jobs, elastic_column_or_hash)
{
    for (int take = 0; take < 2; take++) {
        cr_expect_eq(scen_b_end("", "", "", 1000, take), 560, "no column: all hashed elastic");
        cr_expect_eq(scen_b_end("", "", "", 0, take), 700, "no column: none hashed elastic");
        cr_expect_eq(scen_b_end(",elastic", ",0", ",1", 0, take), 560, "the column says 1");
        cr_expect_eq(scen_b_end(",elastic", ",0", ",0", 1000, take), 700, "the column says 0");
        cr_expect_eq(scen_b_end(",elastic", ",0", ",-1", 1000, take), 560, "-1: the hash");
        cr_expect_eq(scen_b_end(",elastic", ",0", ",-1", 0, take), 700, "-1: the hash");
        cr_expect_eq(scen_b_end(",elastic,gpus_min", ",0,-1", ",1,4", 0, take), 700,
                     "gpus_min 4 leaves no smaller size");
        cr_expect_eq(scen_b_end(",elastic,gpus_max", ",0,-1", ",1,2", 0, take), 560,
                     "gpus_max never removes k0");
    }
}
