/* The openb format: the real pod list openb_pod_list_default.csv (counts
 * and totals computed apart from this code with awk and Python's csv),
 * the drop rules, gpu_milli and bad input. */
#include "testutil.h"
#include "tt/error.h"

#define HDR "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time," \
            "deletion_time,scheduled_time\n"

#define expect_fail(text, msg) expect_ingest_fail("openb", text, msg)

Test(fmt_openb, default_pod_list)
{
    const char *rel = "alibaba_gpu_v2023_openb/csv/openb_pod_list_default.csv";
    if (!have_shared(rel))
        cr_skip("no shared file %s", shared_path(rel));
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {NULL, NULL, NULL};
    const char *in[] = {shared_path(rel)};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 1, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "openb");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_eq(t->prov.rows_read, 8152);
    /* num_gpu 0: 1,088; 897 blank scheduled_time, 36 of them CPU-only */
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1088);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 861);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 0);
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 0);
    cr_expect_eq(t->prov.rows_kept, 6203);
    cr_assert_eq(t->n, 6203);
    int64_t milli = 0, dur = 0, gpus = 0;
    for (int64_t i = 0; i < t->n; i++) {
        milli += t->gpu_milli[i];
        dur += t->duration[i];
        gpus += t->gpus[i];
    }
    cr_expect_eq(milli, 5484930);
    cr_expect_eq(dur, 191369677);
    cr_expect_eq(gpus, 6571);
    static const struct {
        const char *name, *status;
        int64_t submit, start, end, duration;
        int32_t gpus, milli;
    } want[] = {
        {"openb-pod-0001", "Running", 427061, 427061, 12902960, 12475899, 1, 460},
        {"openb-pod-0017", "Succeeded", 9437497, 9437497, 10769854, 1332357, 8, 8000},
        {"openb-pod-0422", "Running", 10195438, 10195438, 10197145, 1707, 2, 2000},
        {"openb-pod-8151", "Failed", 12901761, 12901762, 12901792, 30, 1, 590},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int64_t i = find_job(t, want[k].name);
        cr_assert_geq(i, 0, "%s kept", want[k].name);
        cr_expect_str_eq(code_str(t->statuses, t->status[i]), want[k].status);
        cr_expect_eq(t->submit[i], want[k].submit, "%s submit", want[k].name);
        cr_expect_eq(t->start[i], want[k].start, "%s start", want[k].name);
        cr_expect_eq(t->end[i], want[k].end, "%s end", want[k].name);
        cr_expect_eq(t->duration[i], want[k].duration, "%s duration", want[k].name);
        cr_expect_eq(t->gpus[i], want[k].gpus, "%s gpus", want[k].name);
        cr_expect_eq(t->gpu_milli[i], want[k].milli, "%s gpu_milli", want[k].name);
        cr_expect_eq(t->user[i], -1);
        cr_expect_eq(t->model[i], -1);
    }
    cr_expect_eq(find_job(t, "openb-pod-0100"), -1); /* Pending, no scheduled_time */
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_openb, drops_float_times_and_gpu_milli)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "openb",
                              HDR "p0,1000,1024,0,0,,BE,Running,0,100,0\n"
                                  "p1,1000,1024,1,500,,BE,Pending,5,20,\n"
                                  "p2,1000,1024,1,500,,BE,Running,5,,6\n"
                                  "p3,1000,1024,1,500,,BE,Failed,5,7,8\n"
                                  "p4,1000,1024,1,250,,LS,Running,10,110,12.6\n"
                                  "p5,1000,1024,4,1000,V100|A10,LS,Failed,3,50,4\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 6);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1);
    cr_assert_eq(t->n, 2);
    /* sorted by creation: p5 (3) before p4 (10) */
    cr_expect_str_eq(code_str(t->names, t->name[0]), "p5");
    cr_expect_eq(t->gpus[0], 4);
    cr_expect_eq(t->gpu_milli[0], 4000);
    cr_expect_eq(t->duration[0], 46);
    cr_expect_str_eq(code_str(t->names, t->name[1]), "p4");
    cr_expect_eq(t->start[1], 13); /* 12.6 rounded */
    cr_expect_eq(t->duration[1], 97);
    cr_expect_eq(t->gpus[1], 1);
    cr_expect_eq(t->gpu_milli[1], 250);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_openb, bad_input)
{
    expect_fail(HDR "p,1000,1024,1,500,,BE,Running,5,7\n", "mem.txt:2: expected 11 fields, got 10");
    expect_fail(HDR "p,1000,1024,1,500,,BE,Running,5,7,6,\n",
                "mem.txt:2: expected 11 fields, got 12");
    expect_fail(HDR "p,1000,1024,1.x,500,,BE,Running,5,7,6\n",
                "mem.txt:2: field 'num_gpu': expected a number, got '1.x'");
    expect_fail(HDR "p,1000,1024,1,-500,,BE,Running,5,7,6\n",
                "mem.txt:2: field 'gpu_milli': negative value '-500'");
    expect_fail(HDR "p,1000,1024,1,1500,,BE,Running,5,7,6\n",
                "mem.txt:2: field 'gpu_milli': a one-GPU pod takes 1..1000 thousandths of it, "
                "got '1500'");
    expect_fail(HDR "p,1000,1024,1,500,,BE,Running,5,-7,6\n",
                "mem.txt:2: field 'deletion_time': negative time '-7'");
    expect_fail(HDR "p,1000,1024,1,500,,BE,Running,5,7,six\n",
                "mem.txt:2: field 'scheduled_time': expected a time (seconds or "
                "YYYY-MM-DD HH:MM:SS), got 'six'");
    expect_fail(HDR "p,1000,1024,1,500,,BE,Running,,7,6\n",
                "mem.txt:2: field 'creation_time': value missing");
    expect_fail("name,cpu_milli,memory_mib,gpu_milli,creation_time,deletion_time,scheduled_time\n"
                "p,1,1,500,5,7,6\n",
                "mem.txt:1: header has no column 'num_gpu'");
    expect_fail("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1,1,1,500\n",
                "mem.txt:1: header has no column 'creation_time': a pod list without times "
                "(like the multigpu re-samplings) cannot be replayed");
    expect_fail("", "mem.txt:1: empty input: no header line");
    expect_fail(HDR, "mem.txt:1: header only: no job rows");
}

Test(fmt_openb, auto_detects_the_untimed_lists_as_openb)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "auto", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
                                           "p,1,1,1,500\n");
    cr_expect_null(t);
    cr_expect(strstr(tt_errmsg(ctx), "header has no column 'creation_time'"), "%s",
              tt_errmsg(ctx));
    tt_ctx_free(ctx);
}
