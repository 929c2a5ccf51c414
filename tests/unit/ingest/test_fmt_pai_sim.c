/* The pai-sim format: the 133-job head of the PAI 2020 simulator trace
 * (totals computed apart from this code with awk and Python's Decimal),
 * the drop rules and bad input. */
#include "testutil.h"
#include "tt/error.h"

#define HDR "job_id,user,num_gpu,num_cpu,num_pod,duration,job_name,submit_time,group,gpu_type," \
            "wait_time,user_dur,group_dur,group_gpu_dur\n"

/* Index of the job named name, or -1. */
#define expect_fail(text, msg) expect_ingest_fail("pai-sim", text, msg)

Test(fmt_pai_sim, head133_totals_and_spot_checks)
{
    const char *rel = "alibaba_pai_gpu_v2020/simulator_trace_head/"
                      "pai_job_duration_estimate_100K.head133.csv";
    if (!have_shared(rel))
        cr_skip("no shared file %s", shared_path(rel));
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {NULL, NULL, NULL}; /* auto: told from the header */
    const char *in[] = {shared_path(rel)};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 1, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "pai-sim");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_eq(t->prov.rows_read, 133);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 28);
    cr_expect_eq(t->prov.rows_kept, 105);
    cr_assert_eq(t->n, 105);
    int64_t milli = 0, dur = 0, gpus = 0, end = 0;
    for (int64_t i = 0; i < t->n; i++) {
        milli += t->gpu_milli[i];
        dur += t->duration[i];
        gpus += t->gpus[i];
        end += t->end[i];
        cr_expect_eq(t->end[i] - t->start[i], t->duration[i]);
    }
    cr_expect_eq(milli, 117050);
    cr_expect_eq(dur, 606876);
    cr_expect_eq(gpus, 164); /* each job's num_gpu rounded up */
    cr_expect_eq(end, 683356);
    cr_expect_eq(find_job(t, "0"), -1); /* CPU-only */
    static const struct {
        const char *name, *user;
        int64_t submit, start, end, duration;
        int32_t gpus, milli;
    } want[] = {
        {"1", "d4d51aca8806", 3, 5, 15753, 15748, 3, 3000},
        {"96", "58540f191766", 966, 1005, 1076, 71, 1, 100},
        {"74", "edc10645cc3f", 783, 792, 6586, 5794, 3, 2500},
        {"131", "27390ef59c1f", 1003, 1006, 40819, 39813, 13, 12500},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int64_t i = find_job(t, want[k].name);
        cr_assert_geq(i, 0, "job %s kept", want[k].name);
        cr_expect_str_eq(code_str(t->users, t->user[i]), want[k].user);
        cr_expect_eq(t->submit[i], want[k].submit, "job %s submit", want[k].name);
        cr_expect_eq(t->start[i], want[k].start, "job %s start", want[k].name);
        cr_expect_eq(t->end[i], want[k].end, "job %s end", want[k].name);
        cr_expect_eq(t->duration[i], want[k].duration, "job %s duration", want[k].name);
        cr_expect_eq(t->gpus[i], want[k].gpus, "job %s gpus", want[k].name);
        cr_expect_eq(t->gpu_milli[i], want[k].milli, "job %s gpu_milli", want[k].name);
        cr_expect_eq(t->nodes[i], -1);
        cr_expect_eq(t->vc[i], -1);
        cr_expect_eq(t->model[i], -1);
        cr_expect_eq(t->status[i], -1);
    }
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_pai_sim, drops_and_absent_wait)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "pai-sim",
                              HDR "0,u,0.0,2.0,1.0,34,j,0,g,CPU,3,1.0,1.0,1.0\n"
                                  "1,u,0.5,2.0,1.0,,j,1,g,T4,3,1.0,1.0,1.0\n"
                                  "2,u,1.5,2.0,1.0,100,j,2,g,T4,,1.0,1.0,1.0\n"
                                  "3,u,0.001,2.0,1.0,7,j,9,g,T4,1,1.0,1.0,1.0\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 4);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 1);
    cr_assert_eq(t->n, 2);
    cr_expect_eq(t->submit[0], 2);
    cr_expect_eq(t->duration[0], 100);
    cr_expect_eq(t->gpus[0], 2);
    cr_expect_eq(t->gpu_milli[0], 1500);
    cr_expect_eq(t->start[0], INT64_MIN); /* no wait_time: start and end unknown */
    cr_expect_eq(t->end[0], INT64_MIN);
    cr_expect_eq(t->gpus[1], 1);
    cr_expect_eq(t->gpu_milli[1], 1);
    cr_expect_eq(t->start[1], 10);
    cr_expect_eq(t->end[1], 17);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_pai_sim, bad_input)
{
    expect_fail(HDR "1,u,1.0,2.0,1.0,34,j,0,g,T4,3,1.0,1.0\n",
                "mem.txt:2: expected 14 fields, got 13");
    expect_fail(HDR "1,u,one,2.0,1.0,34,j,0,g,T4,3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'num_gpu': expected a number, got 'one'");
    expect_fail(HDR "1,u,-0.5,2.0,1.0,34,j,0,g,T4,3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'num_gpu': negative value '-0.5'");
    expect_fail(HDR "1,u,1.0,2.0,1.0,34,j,0,g,T4,-3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'wait_time': negative value '-3'");
    expect_fail(HDR "1,u,1.0,2.0,1.0,34,j,12:00,g,T4,3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'submit_time': expected a time (seconds or "
                "YYYY-MM-DD HH:MM:SS), got '12:00'");
    expect_fail(HDR "1,u,1.0,2.0,1.0,34,j,,g,T4,3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'submit_time': value missing");
    expect_fail(HDR "1,u,3000000,2.0,1.0,34,j,0,g,T4,3,1.0,1.0,1.0\n",
                "mem.txt:2: field 'num_gpu': '3000000' GPUs is out of range");
    expect_fail(HDR "1,u,1,2.0,1.0,9000000000000000000,j,9000000000000000000,g,T4,3,1.0,1.0,"
                    "1.0\n",
                "mem.txt:2: field 'duration': time out of range "
                "(9000000000000000003 + 9000000000000000000)");
    expect_fail("job_id,user,num_gpu,duration,submit_time\n1,u,1.0,34,0\n",
                "mem.txt:1: header has no column 'wait_time'");
    expect_fail("", "mem.txt:1: empty input: no header line");
    expect_fail(HDR, "mem.txt:1: header only: no job rows");
}
