/* The pai format: PAI 2020 job table joined with the task table. Expected
 * values were computed by a separate Python script (csv module, Decimal
 * arithmetic, ROUND_HALF_UP) over the same files. */
#include "testutil.h"

#define FIX "tests/fixtures/"
#define JOB_EXAMPLE "alibaba_pai_gpu_v2020/readme_examples/pai_job_table.example.csv"
#define TASK_EXAMPLE "alibaba_pai_gpu_v2020/readme_examples/pai_task_table.example.csv"

/* Index of the job named name, or -1. */
static void check_fixture_trace(const tt_trace *t)
{
    cr_expect_str_eq(t->prov.format, "pai");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_eq(t->prov.rows_read, 9);
    cr_expect_eq(t->prov.rows_kept, 3);
    cr_expect_eq(t->prov.dropped[TT_DROP_NO_TASKS], 1);         /* f6f6... */
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);         /* b2b2...: plan_gpu 0.0 */
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);      /* c3c3...: starts 0.0 and "" */
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1); /* d4d4...: 899 < 900 */
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);     /* e5e5...: Running, no end */
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 1);     /* a7a7...: start_time 0.0 */
    cr_assert_eq(t->n, 3);
    /* sorted by submit: 9f9f (5), a1a1 (500), 4f05 (1739100) */
    cr_expect_str_eq(str_at(t->names, t->name, 0), "9f9f9f9f9f9f9f9f9f9f9f9f");
    cr_expect_eq(t->submit[0], 5);
    cr_expect_eq(t->start[0], 8); /* the earlier of the two tasks */
    cr_expect_eq(t->end[0], 3610);
    cr_expect_eq(t->duration[0], 3602);
    cr_expect_eq(t->gpu_milli[0], 16006); /* 800 % x 2 = 16000, 0.55 % x 1 = 5.5 -> 6 */
    cr_expect_eq(t->gpus[0], 17);         /* ceil(16.006) */
    cr_expect_str_eq(str_at(t->users, t->user, 0), "u5");
    cr_expect_str_eq(str_at(t->statuses, t->status, 0), "Terminated");

    cr_expect_str_eq(str_at(t->names, t->name, 1), "a1a1a1a1a1a1a1a1a1a1a1a1");
    cr_expect_eq(t->submit[1], 500);
    cr_expect_eq(t->start[1], 521); /* 520.5 rounded; the 0.0 start is missing */
    cr_expect_eq(t->end[1], 1000);
    cr_expect_eq(t->duration[1], 479);
    cr_expect_eq(t->gpu_milli[1], 875); /* 25 % x 3 + 12.5 % x 1 */
    cr_expect_eq(t->gpus[1], 1);
    cr_expect_str_eq(str_at(t->statuses, t->status, 1), "Failed");

    /* the README's example task row, joined to a job row written for it */
    cr_expect_str_eq(str_at(t->names, t->name, 2), "4f057009a5d481acec67b088");
    cr_expect_eq(t->submit[2], 1739100);
    cr_expect_eq(t->start[2], 1739162);
    cr_expect_eq(t->end[2], 1739200);
    cr_expect_eq(t->duration[2], 38);
    cr_expect_eq(t->gpu_milli[2], 500); /* plan_gpu 50 = half a GPU */
    cr_expect_eq(t->gpus[2], 1);
    cr_expect_str_eq(str_at(t->users, t->user, 2), "58540f191766");
    for (int64_t i = 0; i < t->n; i++) {
        cr_expect_eq(t->vc[i], -1);
        cr_expect_eq(t->nodes[i], -1);
        cr_expect_eq(t->model[i], -1);
    }
}

Test(pai, fixture_join_either_order)
{
    const char *orders[2][2] = {{FIX "ingest/pai/pai_jobs.csv", FIX "ingest/pai/pai_tasks.csv"},
                                {FIX "ingest/pai/pai_tasks.csv", FIX "ingest/pai/pai_jobs.csv"}};
    for (int k = 0; k < 2; k++) {
        tt_ctx *ctx = tt_ctx_create();
        tt_trace *t = ingest_files(ctx, k ? "auto" : "pai", orders[k], 2);
        cr_assert_not_null(t, "%s", tt_errmsg(ctx));
        check_fixture_trace(t);
        tt_trace_free(t);
        tt_ctx_free(ctx);
    }
}

Test(pai, header_lines_are_skipped)
{
    const char *in[] = {FIX "ingest/pai/pai_jobs_header.csv", FIX "ingest/pai/pai_tasks_header.csv"};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "auto", in, 2);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "pai");
    cr_expect_eq(t->prov.rows_read, 1);
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->gpu_milli[0], 875);
    cr_expect_eq(t->duration[0], 479);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(pai, several_tables_of_each_kind)
{
    /* tasks of a1a1 come twice (both task files): their demand adds up */
    const char *in[] = {FIX "ingest/pai/pai_jobs_header.csv", FIX "ingest/pai/pai_tasks.csv", FIX "ingest/pai/pai_jobs.csv",
                        FIX "ingest/pai/pai_tasks_header.csv"};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "pai", in, 4);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 10);
    cr_expect_eq(t->n, 4);
    cr_expect_eq(t->prov.duplicates, 1);
    int64_t i = find_job(t, "a1a1a1a1a1a1a1a1a1a1a1a1");
    cr_assert_geq(i, 0);
    cr_expect_eq(t->gpu_milli[i], 1750);
    cr_expect_eq(t->gpus[i], 2);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(pai, readme_examples)
{
    if (!have_shared(JOB_EXAMPLE) || !have_shared(TASK_EXAMPLE))
        cr_skip("no shared PAI README examples");
    /* the example job alone has no task rows: dropped, so nothing is kept */
    tt_ctx *ctx = tt_ctx_create();
    const char *job = shared_path(JOB_EXAMPLE);
    tt_trace *t = ingest_files(ctx, "auto", &job, 1);
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "no job can be simulated (1 rows: 1 no_tasks)") != NULL,
              "%s", tt_errmsg(ctx));
    /* the example job with the example task: different jobs, still no tasks */
    const char *both[] = {shared_path(JOB_EXAMPLE), shared_path(TASK_EXAMPLE)};
    t = ingest_files(ctx, "pai", both, 2);
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    /* the example job joined with task rows written for it (worker 2 x 100 %, ps CPU-only) */
    const char *joined[] = {shared_path(JOB_EXAMPLE), FIX "ingest/pai/pai_tasks.csv"};
    t = ingest_files(ctx, "pai", joined, 2);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 1);
    cr_expect_str_eq(str_at(t->names, t->name, 0), "4b3f04b66a525d2df903eb16");
    cr_expect_str_eq(str_at(t->users, t->user, 0), "58540f191766");
    cr_expect_str_eq(str_at(t->statuses, t->status, 0), "Terminated");
    cr_expect_eq(t->submit[0], 4550879);
    cr_expect_eq(t->start[0], 4550890);
    cr_expect_eq(t->end[0], 4551416);
    cr_expect_eq(t->duration[0], 526);
    cr_expect_eq(t->gpu_milli[0], 2000);
    cr_expect_eq(t->gpus[0], 2);
    tt_trace_free(t);
    /* the example task with a job row written for it */
    const char *task_side[] = {FIX "ingest/pai/pai_jobs.csv", shared_path(TASK_EXAMPLE)};
    t = ingest_files(ctx, "pai", task_side, 2);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NO_TASKS], 8);
    cr_expect_eq(t->duration[0], 38);
    cr_expect_eq(t->gpu_milli[0], 500);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(pai, detect)
{
    tt_ctx *ctx = tt_ctx_create();
    /* a job row alone, told by -f auto: 6 fields and a hex id */
    tt_trace *t = ingest_text(ctx, "auto", "abcdef0123456789,x,u,Terminated,10.0,20.0\n");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "no_tasks") != NULL, "%s", tt_errmsg(ctx));
    /* not a hex id: not pai */
    t = ingest_text(ctx, "auto", "job-1,x,u,Terminated,10.0,20.0\n");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EFORMAT, "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

static void expect_fail(const char *bad, int code, const char *msg)
{
    const char *in[] = {FIX "ingest/pai/pai_jobs.csv", bad};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "pai", in, 2);
    cr_expect_null(t, "%s accepted", bad);
    cr_expect_eq(tt_errcode(ctx), code, "%s: code %d", bad, tt_errcode(ctx));
    cr_expect(strstr(tt_errmsg(ctx), msg) != NULL, "message '%s' lacks '%s'", tt_errmsg(ctx),
              msg);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(pai, malformed_inputs)
{
    expect_fail(FIX "ingest/pai/pai_bad_fields.csv", TT_EPARSE,
                "pai_bad_fields.csv:1: expected 6 fields (PAI job table) or 10 (task table), got "
                "11");
    expect_fail(FIX "ingest/pai/pai_short_row.csv", TT_EPARSE,
                "pai_short_row.csv:2: expected 6 fields, got 5");
    expect_fail(FIX "ingest/pai/pai_bad_time.csv", TT_EPARSE,
                "pai_bad_time.csv:2: field 'start_time': expected a time");
    expect_fail(FIX "ingest/pai/pai_bad_plan.csv", TT_EPARSE,
                "pai_bad_plan.csv:2: field 'plan_gpu': expected a number, got 'half'");
    expect_fail(FIX "ingest/pai/pai_negative.csv", TT_EPARSE,
                "pai_negative.csv:1: field 'inst_num': negative value '-2.0'");

    tt_ctx *ctx = tt_ctx_create();
    const char *tasks = FIX "ingest/pai/pai_tasks.csv";
    tt_trace *t = ingest_files(ctx, "pai", &tasks, 1);
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "no job table among the inputs") != NULL, "%s",
              tt_errmsg(ctx));
    t = ingest_text(ctx, "pai", "");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "mem.txt:1: empty input") != NULL, "%s", tt_errmsg(ctx));
    t = ingest_text(ctx, "pai", ",x,u,Terminated,10.0,20.0\n");
    cr_expect_null(t);
    cr_expect(strstr(tt_errmsg(ctx), "mem.txt:1: field 'job_name': value missing") != NULL, "%s",
              tt_errmsg(ctx));
    tt_ctx_free(ctx);
}
