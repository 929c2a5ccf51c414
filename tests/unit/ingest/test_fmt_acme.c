/* The acme format: both README example files (Seren +08:00, Kalos
 * +00:00), alone and together, the drop rules and bad input. Expected
 * epoch seconds were computed apart from this code (Python
 * datetime.fromisoformat). */
#include "testutil.h"
#include "tt/error.h"

#define SEREN "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time," \
              "end_time,duration,queue,gpu_time\n"

#define expect_fail(text, msg) expect_ingest_fail("acme", text, msg)

typedef struct {
    int64_t submit, start, end, duration;
    int32_t gpus, nodes;
    const char *name, *user, *status;
} want_job;

static const want_job seren[2] = {
    {1677601102, 1677601134, 1677601251, 117, 8, 1, "5778432", "u5907", "FAILED"},
    {1677601438, 1677601451, 1677604144, 2693, 8, 1, "5778469", "u5907", "COMPLETED"},
};
/* The run time is end - start: Kalos' duration column includes the queue
 * wait (README rows: 18 = 8 run + 10 queue; 82 = 70 + 12), so it is not
 * taken. */
static const want_job kalos[2] = {
    {1684321258, 1684321268, 1684321276, 8, 64, 8, "dlctk696s0jbvitv", "uf794", "FAILED"},
    {1684322922, 1684322934, 1684323004, 70, 64, 8, "dlc1t2ypl09b8qtp", "uf794", "CANCELLED"},
};

static void check_job(const tt_trace *t, int64_t i, const want_job *w)
{
    cr_expect_eq(t->submit[i], w->submit, "%s submit", w->name);
    cr_expect_eq(t->start[i], w->start, "%s start", w->name);
    cr_expect_eq(t->end[i], w->end, "%s end", w->name);
    cr_expect_eq(t->duration[i], w->duration, "%s duration", w->name);
    cr_expect_eq(t->gpus[i], w->gpus, "%s gpus", w->name);
    cr_expect_eq(t->gpu_milli[i], w->gpus * 1000, "%s gpu_milli", w->name);
    cr_expect_eq(t->nodes[i], w->nodes, "%s nodes", w->name);
    cr_expect_str_eq(code_str(t->names, t->name[i]), w->name);
    cr_expect_str_eq(code_str(t->users, t->user[i]), w->user);
    cr_expect_str_eq(code_str(t->statuses, t->status[i]), w->status);
    cr_expect_eq(t->vc[i], -1, "%s vc", w->name);
    cr_expect_eq(t->model[i], -1, "%s model (type is a job category)", w->name);
}

static tt_trace *ingest_shared(tt_ctx *ctx, const char *fmt, const char **rel, int n)
{
    const char *in[2];
    for (int i = 0; i < n; i++)
        in[i] = shared_path(rel[i]);
    return ingest_files(ctx, fmt, in, n);
}

static const char *seren_rel = "acme/readme_examples/trace_seren.example.csv";
static const char *kalos_rel = "acme/readme_examples/trace_kalos.example.csv";

Test(fmt_acme, seren_example_every_value)
{
    if (!have_shared(seren_rel))
        cr_skip("no shared file %s", shared_path(seren_rel));
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_shared(ctx, "auto", &seren_rel, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "acme");
    cr_expect_str_eq(t->prov.time_base, "unix");
    cr_expect_eq(t->prov.rows_read, 2);
    cr_assert_eq(t->n, 2);
    check_job(t, 0, &seren[0]);
    check_job(t, 1, &seren[1]);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_acme, kalos_example_every_value)
{
    if (!have_shared(kalos_rel))
        cr_skip("no shared file %s", shared_path(kalos_rel));
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_shared(ctx, "auto", &kalos_rel, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "acme");
    cr_expect_eq(t->prov.rows_read, 2);
    cr_assert_eq(t->n, 2);
    check_job(t, 0, &kalos[0]);
    check_job(t, 1, &kalos[1]);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_acme, both_files_in_one_call)
{
    if (!have_shared(seren_rel) || !have_shared(kalos_rel))
        cr_skip("no shared Acme example files");
    tt_ctx *ctx = tt_ctx_create();
    const char *rel[2] = {kalos_rel, seren_rel}; /* Kalos first: sorting puts Seren ahead */
    tt_trace *t = ingest_shared(ctx, "acme", rel, 2);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 4);
    cr_expect_eq(t->prov.rows_kept, 4);
    char files[2048];
    snprintf(files, sizeof files, "%s\n%s", shared_path(kalos_rel), shared_path(seren_rel));
    cr_expect_str_eq(t->prov.source_files, files);
    cr_assert_eq(t->n, 4);
    check_job(t, 0, &seren[0]);
    check_job(t, 1, &seren[1]);
    check_job(t, 2, &kalos[0]);
    check_job(t, 3, &kalos[1]);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_acme, drops)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "acme",
                              SEREN "1,u,1,0,8,Debug,COMPLETED,2023-03-01 00:00:00+08:00,"
                                    "2023-03-01 00:00:01+08:00,2023-03-01 00:00:09+08:00,8,1,0\n"
                                    "2,u,1,8,8,SFT,CANCELLED,2023-03-01 00:00:00+08:00,,,,,\n"
                                    "3,u,1,8,8,SFT,RUNNING,2023-03-01 00:00:00+08:00,"
                                    "2023-03-01 00:00:01+08:00,,,1,\n"
                                    "4,u,1,8,8,Eval,FAILED,2023-03-01 00:00:00+08:00,"
                                    "2023-03-01 00:00:05+08:00,2023-03-01 00:00:04+08:00,0,5,0\n"
                                    "5,u,2,16,8,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,"
                                    "2023-03-01 00:00:01+08:00,2023-03-01 00:00:31+08:00,,1,\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 5);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1);
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->submit[0], 1677600000); /* 2023-03-01 00:00:00+08:00 */
    cr_expect_eq(t->duration[0], 30);       /* end - start */
    cr_expect_eq(t->gpus[0], 16);
    cr_expect_eq(t->nodes[0], 2);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_acme, naive_times_need_a_zone)
{
    const char *text = SEREN "1,u,1,8,8,SFT,COMPLETED,2023-03-01 00:00:00,2023-03-01 00:00:01,"
                             "2023-03-01 00:00:09,8,1,64\n";
    expect_fail(text, "mem.txt:2: field 'submit_time': time '2023-03-01 00:00:00' has no UTC "
                      "offset (name its zone with --tz)");
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"acme", NULL, "+08:00"};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.txt", &t), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(t->submit[0], 1677600000);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_acme, bad_input)
{
    const char *ok = ",2023-03-01 00:00:00+08:00,2023-03-01 00:00:01+08:00,"
                     "2023-03-01 00:00:09+08:00,8,1,64\n";
    char buf[512];
    snprintf(buf, sizeof buf, SEREN "1,u,1,8,8,SFT%s", ok); /* no state column */
    expect_fail(buf, "mem.txt:2: expected 13 fields, got 12");
    snprintf(buf, sizeof buf, SEREN "1,u,1,eight,8,SFT,COMPLETED%s", ok);
    expect_fail(buf, "mem.txt:2: field 'gpu_num': expected a number, got 'eight'");
    snprintf(buf, sizeof buf, SEREN "1,u,-1,8,8,SFT,COMPLETED%s", ok);
    expect_fail(buf, "mem.txt:2: field 'node_num': negative value '-1'");
    expect_fail(SEREN "1,u,1,8,8,SFT,COMPLETED,2023-03-01 00:00:00+08:00,"
                      "2023-03-01 00:00:01+08:00,2023-03-01 25:00:09+08:00,8,1,64\n",
                "mem.txt:2: field 'end_time': cannot parse time '2023-03-01 25:00:09+08:00'");
    expect_fail(SEREN "1,u,1,8,8,SFT,COMPLETED,2023-03-01 00:00:00+08:00,"
                      "2023-03-01 00:00:01+08:00,2023-03-01 00:00:09+08:00,8.5x,1,64\n",
                "mem.txt:2: field 'duration': expected a number, got '8.5x'");
    expect_fail("job_id,user,node_num,gpu_num,cpu_num,type,submit_time,start_time,end_time\n"
                "1,u,1,8,8,SFT,2023-03-01 00:00:00+08:00,2023-03-01 00:00:01+08:00,"
                "2023-03-01 00:00:09+08:00\n",
                "mem.txt:1: header has no column 'state'");
    expect_fail("\n", "mem.txt:1: empty input: no header line");
    expect_fail(SEREN, "mem.txt:1: header only: no job rows");
}
