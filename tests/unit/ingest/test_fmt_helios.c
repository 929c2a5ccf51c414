/* The helios format: the README's example jobs, the drop rules and bad
 * input. Expected epoch seconds were computed apart from this code
 * (Python datetime with a +08:00 zone). */
#include "testutil.h"
#include "tt/error.h"

#define HDR "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time," \
            "duration,queue\n"

#define expect_fail(text, msg) expect_ingest_fail("helios", text, msg)

Test(fmt_helios, readme_example_every_value)
{
    const char *rel = "helios/readme_examples/cluster_log.example.csv";
    if (!have_shared(rel))
        cr_skip("no shared file %s", shared_path(rel));
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"helios", NULL, NULL};
    const char *in[] = {shared_path(rel)};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 1, &t), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 3);
    cr_expect_eq(t->prov.rows_read, 3);
    cr_expect_eq(t->prov.rows_kept, 3);
    cr_expect_str_eq(t->prov.format, "helios");
    cr_expect_str_eq(t->prov.time_base, "unix");
    cr_expect_str_eq(t->prov.timezone, "Asia/Shanghai");
    static const struct {
        int64_t submit, start, end, duration;
        int32_t gpus, nodes;
        const char *name, *user, *vc, *status;
    } want[3] = {
        {1591699261, 1591699261, 1591736109, 36848, 1, 1, "1425511", "uXBbc", "vcJkd",
         "COMPLETED"},
        {1591699287, 1591699287, 1591699536, 249, 4, 1, "1425512", "uVMrF", "vchbv", "FAILED"},
        {1591699288, 1591699288, 1592374521, 675233, 1, 1, "1425513", "uzqls", "vcpDC",
         "CANCELLED"},
    };
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(t->submit[i], want[i].submit, "job %d submit", i);
        cr_expect_eq(t->start[i], want[i].start, "job %d start", i);
        cr_expect_eq(t->end[i], want[i].end, "job %d end", i);
        cr_expect_eq(t->duration[i], want[i].duration, "job %d duration", i);
        cr_expect_eq(t->gpus[i], want[i].gpus, "job %d gpus", i);
        cr_expect_eq(t->gpu_milli[i], want[i].gpus * 1000, "job %d gpu_milli", i);
        cr_expect_eq(t->nodes[i], want[i].nodes, "job %d nodes", i);
        cr_expect_str_eq(code_str(t->names, t->name[i]), want[i].name);
        cr_expect_str_eq(code_str(t->users, t->user[i]), want[i].user);
        cr_expect_str_eq(code_str(t->vcs, t->vc[i]), want[i].vc);
        cr_expect_str_eq(code_str(t->statuses, t->status[i]), want[i].status);
        cr_expect_eq(t->model[i], -1, "job %d model", i);
    }
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_helios, drops_and_derived_duration)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "helios",
                              HDR "1,u1,vc1,0,4,1,COMPLETED,2020-06-01 00:00:00,"
                                  "2020-06-01 00:00:05,2020-06-01 00:01:00,55,5\n"
                                  "2,u1,vc1,2,4,1,CANCELLED,2020-06-01 00:00:01,,,,\n"
                                  "3,u1,vc1,2,4,1,RUNNING,2020-06-01 00:00:02,"
                                  "2020-06-01 00:00:03,,,1\n"
                                  "4,u1,vc1,2,4,1,FAILED,2020-06-01 00:00:03,"
                                  "2020-06-01 00:10:00,2020-06-01 00:09:00,0,597\n"
                                  "5,u2,,16,64,2,COMPLETED,2020-06-01 00:00:04,"
                                  "2020-06-01 00:00:10,2020-06-01 01:00:10,,6\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 5);
    cr_expect_eq(t->prov.rows_kept, 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1);
    cr_assert_eq(t->n, 1);
    /* 2020-06-01 00:00:04 +08:00 = 1590940804; empty duration: end - start */
    cr_expect_eq(t->submit[0], 1590940804);
    cr_expect_eq(t->duration[0], 3600);
    cr_expect_eq(t->gpus[0], 16);
    cr_expect_eq(t->nodes[0], 2);
    cr_expect_eq(t->vc[0], -1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_helios, columns_by_name_and_no_duration_column)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "helios",
                              "end_time,start_time,submit_time,state,node_num,gpu_num,vc,user,"
                              "job_id\n"
                              "2020-06-01 00:02:00,2020-06-01 00:01:00,2020-06-01 00:00:00,"
                              "COMPLETED,,8,vcA,uA,77\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->submit[0], 1590940800);
    cr_expect_eq(t->start[0], 1590940860);
    cr_expect_eq(t->duration[0], 60);
    cr_expect_eq(t->nodes[0], -1);
    cr_expect_str_eq(code_str(t->names, t->name[0]), "77");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_helios, zone_option_and_auto_detection)
{
    tt_ctx *ctx = tt_ctx_create();
    const char *text = HDR "1,u,v,1,1,1,COMPLETED,2020-06-01 08:00:00,2020-06-01 08:00:00,"
                           "2020-06-01 08:00:10,10,0\n";
    tt_ingest_opts o = {NULL, NULL, "UTC"};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.txt", &t), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "helios");
    cr_expect_eq(t->submit[0], 1590998400); /* 08:00 UTC; 1590969600 in Shanghai */
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(fmt_helios, bad_input)
{
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,10\n",
                "mem.txt:2: expected 12 fields, got 11");
    expect_fail(HDR "1,u,v,x,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'gpu_num': expected a number, got 'x'");
    expect_fail(HDR "1,u,v,1,1,-2,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'node_num': negative value '-2'");
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,-10,0\n",
                "mem.txt:2: field 'duration': negative value '-10'");
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-31 00:00:00,"
                    "2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'start_time': cannot parse time '2020-06-31 00:00:00'");
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,,2020-06-01 00:00:00,2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'submit_time': value missing");
    /* the engine's bounds: 2^32 s is 136 years */
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2200-06-01 00:00:00,10,0\n",
                "mem.txt:2: field 'end_time - start_time': duration 5680195200 is out of range "
                "(0 .. 2^32)");
    /* calendar times before 1970 are negative seconds, refused as such */
    expect_fail(HDR "1,u,v,1,1,1,COMPLETED,1970-01-01 07:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'submit_time': time '1970-01-01 07:00:00' is before "
                "1970-01-01 00:00 UTC");
    expect_fail("job_id,user,vc,cpu_num,node_num,state,submit_time,start_time,end_time\n"
                "1,u,v,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                "2020-06-01 00:00:10\n",
                "mem.txt:1: header has no column 'gpu_num'");
    expect_fail(HDR "1,u,v,3000000,1,1,COMPLETED,2020-06-01 00:00:00,2020-06-01 00:00:00,"
                    "2020-06-01 00:00:10,10,0\n",
                "mem.txt:2: field 'gpu_num': 3000000 GPUs is out of range");
    expect_fail("", "mem.txt:1: empty input: no header line");
    expect_fail(HDR, "mem.txt:1: header only: no job rows");
    expect_fail(HDR "\n\n", "mem.txt:1: header only: no job rows");
}
