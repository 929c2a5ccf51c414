/* The generic csv format: header names, -m maps, drops, fractional GPUs,
 * time bases, the engine's bounds and tt-cat's TSV. */
#include "testutil.h"

static tt_trace *ingest_map(tt_ctx *ctx, const char *fmt, const char *map, const char *text)
{
    tt_ingest_opts o = {fmt, map, NULL};
    tt_trace *t = NULL;
    tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t);
    return t;
}

/* 2020-04-01 00:00:00+08:00 = 2020-03-31 16:00:00 UTC:
 * (18262 days to 2020-01-01 + 31 + 29 + 30) * 86400 + 16 * 3600. */
#define T0 ((18262LL + 90) * 86400 + 16 * 3600)

static const char jobs_csv[] =
    "job_id,user,vc,submit_time,start_time,end_time,num_gpus,state,model\n"
    "j1,u1,vcA,2020-04-01 00:00:10+08:00,2020-04-01 00:01:00+08:00,2020-04-01 01:01:00+08:00,8,"
    "COMPLETED,bert\n"
    "j2,u2,vcB,2020-04-01 00:00:00+08:00,2020-04-01 00:00:05+08:00,2020-04-01 00:00:35+08:00,"
    "0.5,FAILED,\n"
    "j3,u1,vcA,2020-04-01 00:00:20+08:00,,,2,CANCELLED,gpt\n"
    "j4,u3,vcA,2020-04-01 00:00:30+08:00,2020-04-01 00:00:40+08:00,,1,RUNNING,\n"
    "j5,u3,vcB,2020-04-01 00:00:40+08:00,2020-04-01 00:02:00+08:00,2020-04-01 00:01:00+08:00,1,"
    "COMPLETED,\n"
    "j6,u4,vcC,2020-04-01 00:00:50+08:00,2020-04-01 00:00:50+08:00,2020-04-01 00:00:51+08:00,0,"
    "COMPLETED,\n"
    "\"j,7\",u4,vcC,2020-03-31 16:00:15Z,2020-03-31 16:00:20Z,2020-03-31 16:10:20Z,1.5,COMPLETED,"
    "\"resnet, 50\"\n";

Test(csv, header_names_drops_and_fractions)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "auto", NULL, jobs_csv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "csv");
    cr_expect_eq(t->prov.rows_read, 7);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1);
    cr_assert_eq(t->n, 3);
    /* sorted by submit: j2 (+0), j1 (+10), j,7 (+15) */
    const char *name[] = {"j2", "j1", "j,7"};
    int64_t sub[] = {T0, T0 + 10, T0 + 15}, start[] = {T0 + 5, T0 + 60, T0 + 20},
            end[] = {T0 + 35, T0 + 3660, T0 + 620}, dur[] = {30, 3600, 600};
    int32_t gpus[] = {1, 8, 2}, milli[] = {500, 8000, 1500};
    for (int i = 0; i < 3; i++) {
        cr_expect_str_eq(str_at(t->names, t->name, i), name[i]);
        cr_expect_eq(t->submit[i], sub[i], "submit %d", i);
        cr_expect_eq(t->start[i], start[i], "start %d", i);
        cr_expect_eq(t->end[i], end[i], "end %d", i);
        cr_expect_eq(t->duration[i], dur[i], "duration = end - start %d", i);
        cr_expect_eq(t->gpus[i], gpus[i], "gpus %d", i);
        cr_expect_eq(t->gpu_milli[i], milli[i], "gpu_milli %d", i);
        cr_expect_eq(t->nodes[i], -1);
    }
    cr_expect_str_eq(str_at(t->users, t->user, 1), "u1");
    cr_expect_str_eq(str_at(t->vcs, t->vc, 1), "vcA");
    cr_expect_str_eq(str_at(t->statuses, t->status, 0), "FAILED");
    cr_expect_null(str_at(t->models, t->model, 0), "empty = absent");
    cr_expect_str_eq(str_at(t->models, t->model, 2), "resnet, 50");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, time_base_follows_the_times)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL, "submit,duration,gpus\n100,5,1\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.time_base, "relative");
    tt_trace_free(t);
    t = ingest_map(ctx, "csv", NULL, jobs_csv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.time_base, "unix");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, map_overrides_and_tabs)
{
    const char *tsv = "when\tduration\tlen\tk\twho\tqueue\tjob_type\n"
                      "100\t999\t60\t2\talice\tq1\tA3C\n"
                      " 50.4 \t999\t30.5\t1\tbob\tq2\t\n";
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", "submit=when, duration=len,gpus=k,user=who", tsv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 2);
    cr_expect_eq(t->submit[0], 50, "numbers are trimmed, 50.4 rounds to 50");
    cr_expect_eq(t->duration[0], 31, "-m duration=len wins over the duration column");
    cr_expect_eq(t->gpus[0], 1);
    cr_expect_str_eq(str_at(t->users, t->user, 0), "bob");
    cr_expect_eq(t->vc[0], -1, "queue (a queueing time in Helios/Acme) is not a VC name");
    cr_expect_null(str_at(t->models, t->model, 0));
    cr_expect_eq(t->submit[1], 100);
    cr_expect_eq(t->duration[1], 60);
    cr_expect_eq(t->gpus[1], 2);
    cr_expect_str_eq(str_at(t->models, t->model, 1), "A3C", "job_type is a model name");
    tt_trace_free(t);
    /* a column named in -m is not also taken by a header name */
    t = ingest_map(ctx, "csv", "submit=when,duration=len,gpus=k,name=queue", tsv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(str_at(t->names, t->name, 0), "q2");
    cr_expect_eq(t->vc[0], -1);
    tt_trace_free(t);
    /* -m columns match case-insensitively when no exact match exists */
    t = ingest_map(ctx, "csv", "submit=WHEN,duration=Len,gpus=k", tsv);
    cr_expect(t, "%s", tt_errmsg(ctx));
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, header_names_ignore_case_and_priority)
{
    tt_ctx *ctx = tt_ctx_create();
    /* Helios-like: vc and queue (the queueing time, never a VC) */
    tt_trace *t = ingest_map(ctx, "csv", NULL,
                             "Queue,Job_ID,VC,Submit_Time,Duration,GPU_Num,Node_Num\n"
                             "12,7,vcX,3,40,4,2\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(str_at(t->vcs, t->vc, 0), "vcX");
    cr_expect_str_eq(str_at(t->names, t->name, 0), "7");
    cr_expect_eq(t->nodes[0], 2);
    cr_expect_eq(t->gpus[0], 4);
    cr_expect_eq(t->duration[0], 40);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, gpu_milli_column_wins)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL,
                             "submit,duration,gpus,gpu_milli\n0,1,1,250\n1,1,0.75,\n2,1,2.5,\n"
                             "3,1,2.2,\n4,1,0.001,\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 5);
    cr_expect_eq(t->gpus[0], 1);
    cr_expect_eq(t->gpu_milli[0], 250);
    cr_expect_eq(t->gpus[1], 1);
    cr_expect_eq(t->gpu_milli[1], 750);
    cr_expect_eq(t->gpus[2], 3, "2.5 GPUs take 3 whole ones");
    cr_expect_eq(t->gpu_milli[2], 2500);
    cr_expect_eq(t->gpus[3], 3, "2.2 GPUs take 3 whole ones (rounded up, not to nearest)");
    cr_expect_eq(t->gpu_milli[3], 2200);
    cr_expect_eq(t->gpus[4], 1);
    cr_expect_eq(t->gpu_milli[4], 1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, duration_beats_missing_start)
{
    tt_ctx *ctx = tt_ctx_create();
    /* a duration given: start and end are kept as observed, even absent */
    tt_trace *t = ingest_map(ctx, "csv", NULL,
                             "submit,duration,gpus,start,end\n0,10,1,,\n5,,1,6,9\n7,,1,,9\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 2);
    cr_expect_eq(t->duration[0], 10);
    cr_expect_eq(t->start[0], TT_TIME_NONE);
    cr_expect_eq(t->duration[1], 3);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, tt_cat_tsv_reads_back_verbatim)
{
    /* strings as they are: a leading quote, spaces, "NA"; only "" is absent */
    const char *tsv = "submit\tduration\tgpus\tgpu_milli\tstart\tend\tnodes\tname\tuser\tvc\tmodel"
                      "\tstatus\n"
                      "0\t10\t1\t500\t5\t15\t1\t\"quoted\tNA\tvc 1\tm,1\tPass\n"
                      "0\t20\t8\t8000\t\t\t\tjob2\t\t\t\t\n";
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "auto", NULL, tsv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "csv");
    cr_assert_eq(t->n, 2);
    cr_expect_str_eq(str_at(t->names, t->name, 0), "\"quoted");
    cr_expect_str_eq(str_at(t->users, t->user, 0), "NA");
    cr_expect_str_eq(str_at(t->vcs, t->vc, 0), "vc 1");
    cr_expect_str_eq(str_at(t->models, t->model, 0), "m,1");
    cr_expect_eq(t->nodes[0], 1);
    cr_expect_eq(t->gpu_milli[0], 500);
    cr_expect_eq(t->start[1], TT_TIME_NONE);
    cr_expect_eq(t->nodes[1], -1);
    cr_expect_eq(t->user[1], -1);
    cr_expect_eq(t->status[1], -1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, map_errors)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"csv", "submit=a,colour=b", NULL};
    tt_trace *t = NULL;
    const char *text = "a,b,gpus,duration\n1,2,1,5\n";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(ctx), "-m: unknown key 'colour' (keys: submit duration gpus "
                                     "start end name user vc model status nodes gpu_milli elastic gpus_min "
                                     "gpus_max wf deps mid mem_mb out_mb)");
    o.map = "submit";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "-m: expected key=COLUMN, got 'submit'"), "%s",
              tt_errmsg(ctx));
    o.map = "submit=a,submit=b";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "key 'submit' given twice"), "%s", tt_errmsg(ctx));
    o.map = "submit=a,user=nosuch";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), TT_EPARSE);
    cr_expect_str_eq(tt_errmsg(ctx), "mem.csv:1: -m: no column 'nosuch' in the header");
    o.map = "submit=a";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(t->submit[0], 1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

static void expect_error(const char *text, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL, text);
    cr_expect_null(t, "accepted: %s", text);
    cr_expect(strstr(tt_errmsg(ctx), want), "message '%s' lacks '%s'", tt_errmsg(ctx), want);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

#define HDR "submit,duration,gpus\n"

Test(csv, bad_inputs)
{
    expect_error(HDR "0,10,1\n5,20\n", "mem.csv:3: expected 3 fields, got 2");
    expect_error("a\tsubmit\tduration\tgpus\n1\t0\t10\t1\n1\t0\t10\t1\t\n",
                 "mem.csv:3: expected 4 fields, got 5");
    expect_error(HDR "0,10,1\n5,20,two\n", "mem.csv:3: field 'gpus': expected a number, got 'two'");
    expect_error(HDR "0,10,1\n5,-20,1\n", "mem.csv:3: field 'duration': negative value '-20'");
    expect_error(HDR "0,10,-1\n", "mem.csv:2: field 'gpus': negative value '-1'");
    expect_error(HDR "-3,10,1\n", "mem.csv:2: field 'submit': negative time '-3'");
    expect_error(HDR "2020-13-01 00:00:00,20,1\n",
                 "mem.csv:2: field 'submit': cannot parse time '2020-13-01 00:00:00'");
    expect_error("submit,gpus,start,end\n0,1,5,x\n", "mem.csv:2: field 'end': expected a time");
    expect_error("submit,duration,gpus,nodes\n0,1,1,1.5x\n", "mem.csv:2: field 'nodes': expected a number");
    expect_error("submit,duration,gpus,nodes\n0,1,1,3000000000\n",
                 "mem.csv:2: field 'nodes': 3000000000 is out of range");
    expect_error(HDR "0,1,3000000\n", "mem.csv:2: field 'gpus': 3000000.000 GPUs is out of range");
    expect_error("submit,duration,user\n0,10,u1\n",
                 "mem.csv:1: header has no gpus column (looked for gpus, num_gpus");
    expect_error("gpus,duration\n1,10\n", "mem.csv:1: header has no submit column");
    expect_error("submit,gpus,start_time\n0,1,5\n",
                 "mem.csv:1: header has no duration column (looked for duration, run_time, "
                 "runtime, elapsed) and not both start");
    expect_error(HDR, "mem.csv:1: header only: no job rows");
    expect_error("", "mem.csv:1: empty input: no header line");
    expect_error("\n\n", "mem.csv:2: empty input: no header line");
    expect_error(HDR "0,1,\"1\n", "mem.csv:2: unterminated quoted field");
    expect_error(HDR "0,1,0\n", "no job can be simulated (1 rows: 1 cpu_only)");
}

Test(csv, detect_needs_submit_and_gpus)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "auto", NULL, "\xEF\xBB\xBFTimestamp,NGPUs,runtime\n4,2,9\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "csv");
    cr_expect_eq(t->submit[0], 4);
    cr_expect_eq(t->gpus[0], 2);
    cr_expect_eq(t->duration[0], 9);
    tt_trace_free(t);
    /* a header of another layout: what -f csv says of it, and why csv */
    t = ingest_map(ctx, "auto", NULL, "when,gpus,duration\n4,2,9\n");
    cr_expect_null(t);
    cr_expect_str_eq(tt_errmsg(ctx),
                     "mem.csv:1: header has no submit column (looked for submit, submit_time, "
                     "submitted_time, submission_time, timestamp, arrival_time, creation_time; "
                     "name it with -m submit=COL); read as csv: no other format's header "
                     "matched (-f names one)");
    t = ingest_map(ctx, "csv", NULL, "when,gpus,duration\n4,2,9\n");
    cr_expect(strstr(tt_errmsg(ctx), "header has no submit column"), "%s", tt_errmsg(ctx));
    t = ingest_map(ctx, "auto", NULL, "Job\tGPUs\n4\t2\n");
    cr_expect(strstr(tt_errmsg(ctx), "header has no submit column (looked for"), "%s",
              tt_errmsg(ctx));
    /* no header: nothing to go by */
    t = ingest_map(ctx, "auto", NULL, "4,2,9\n5,1,3\n");
    cr_expect_null(t);
    cr_expect(strstr(tt_errmsg(ctx), "cannot tell the trace format"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

Test(csv, binary_garbage)
{
    static const char junk[] = "submit,gpus\x00\x01\x02";
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"csv", NULL, NULL};
    tt_trace *t = NULL;
    cr_expect_neq(tt_ingest_mem(ctx, &o, junk, sizeof junk - 1, "junk.csv", &t), 0);
    cr_expect(strstr(tt_errmsg(ctx), "junk.csv:1: binary data"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

/* Pending jobs in real exports have no submit time, GPU count or run
 * time: dropped and counted, each under what it lacks. */
Test(csv, rows_lacking_a_value_are_dropped_by_reason)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL,
                             "submit,duration,gpus,start,end\n"
                             "0,10,1,,\n"  /* kept */
                             ",10,1,,\n"   /* missing_time */
                             "NaN,10,1,,\n" /* missing_time */
                             "1,10,,,\n"   /* missing_gpus */
                             "2,10,nan,,\n" /* missing_gpus */
                             "3,NaN,1,,\n"  /* not_started: no start */
                             "4,,1,5,\n"    /* not_finished: no end */
                             "5,,0,,\n");   /* cpu_only */
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->n, 1);
    cr_expect_eq(t->prov.rows_read, 8);
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 2);
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_GPUS], 2);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_str_eq(tt_drop_name(TT_DROP_MISSING_GPUS), "missing_gpus");
    tt_trace_free(t);
    /* without start and end columns a missing duration is a missing run
     * time, not a job that never started */
    t = ingest_map(ctx, "csv", NULL, HDR "0,10,1\n1,NaN,1\n2,,1\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->n, 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 2);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 0);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, gpu_count_spellings)
{
    const char *names[] = {"gpu_request", "gpus_requested", "requested_gpus", "gpu_num",
                           "num_gpus", "gpu_count", "GPU_Request"};
    tt_ctx *ctx = tt_ctx_create();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "job_name,submit_time,duration,%s\nj,0,10,4\n", names[i]);
        tt_trace *t = ingest_map(ctx, "auto", NULL, text);
        cr_assert(t, "%s: %s", names[i], tt_errmsg(ctx));
        cr_expect_str_eq(t->prov.format, "csv", "%s", names[i]);
        cr_expect_eq(t->gpus[0], 4, "%s", names[i]);
        tt_trace_free(t);
    }
    tt_ctx_free(ctx);
}

Test(csv, map_implies_csv)
{
    /* a header auto cannot tell: -m makes it csv */
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "auto", "submit=when,duration=len,gpus=k", "when,len,k\n3,9,2\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "csv");
    cr_expect_eq(t->duration[0], 9);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, duplicated_header_name)
{
    expect_error("submit,duration,gpus,Duration\n0,10,1,20\n",
                 "mem.csv:1: header names column 'duration' twice (columns 2 and 4)");
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"csv", "submit=a,duration=b,gpus=c", NULL};
    tt_trace *t = NULL;
    const char *text = "a,b,c,a\n1,2,1,5\n";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), TT_EPARSE);
    cr_expect_str_eq(tt_errmsg(ctx), "mem.csv:1: header names column 'a' twice (columns 1 and 4)");
    /* a repeated column no key uses is no guess */
    o.map = NULL;
    text = "submit,duration,gpus,x,x\n1,2,1,5,6\n";
    cr_expect_eq(tt_ingest_mem(ctx, &o, text, strlen(text), "mem.csv", &t), 0, "%s",
                 tt_errmsg(ctx));
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, duration_column_wins_and_is_counted)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL,
                             "submit,duration,gpus,start,end\n0,10,1,5,15\n1,60,1,5,30\n"
                             "2,70,1,5,\n3,,1,5,9\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 4);
    cr_expect_eq(t->duration[1], 60, "the duration column, not end - start = 25");
    cr_expect_eq(t->duration[3], 4);
    cr_expect_eq(t->prov.duration_mismatches, 1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv, one_input_keeps_one_time_base)
{
    expect_error(HDR "2020-01-01 00:00:00,10,1\n100,10,1\n",
                 "mem.csv:3: field 'submit': relative seconds (time base relative), but "
                 "mem.csv:2 has a calendar time (time base unix): one trace cannot mix time bases");
    expect_error("submit,gpus,start,end\n5,1,2020-01-01 00:00:00,2020-01-01 00:00:10\n",
                 "mem.csv:2: field 'start': a calendar time (time base unix), but mem.csv:2 has "
                 "relative seconds");
}

Test(csv, times_before_1970_are_refused_like_negative_seconds)
{
    expect_error(HDR "1969-12-31 23:58:20,10,1\n",
                 "mem.csv:2: field 'submit': time '1969-12-31 23:58:20' is before 1970-01-01 "
                 "00:00 UTC");
    expect_error(HDR "1970-01-01 07:59:59+08:00,10,1\n", "is before 1970-01-01");
    expect_error(HDR "-100,10,1\n", "mem.csv:2: field 'submit': negative time '-100'");
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL, HDR "1970-01-01 08:00:00+08:00,10,1\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->submit[0], 0);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* The engine's bounds (what tt-sim, tt-sweep and tt-tune refuse). */
Test(csv, submit_and_duration_within_the_engines_bounds)
{
    expect_error(HDR "0,10,1\n9223372036854775807,10,1\n",
                 "mem.csv:3: field 'submit': submit 9223372036854775807 is out of range "
                 "(-2^40 .. 2^40 s)");
    expect_error(HDR "1099511627777,10,1\n", "field 'submit': submit 1099511627777 is out");
    expect_error("submit_time,run_time,gpus\n0,9223372036854775807,1\n",
                 "mem.csv:2: field 'run_time': duration 9223372036854775807 is out of range "
                 "(0 .. 2^32)");
    expect_error(HDR "0,4294967297,1\n", "field 'duration': duration 4294967297 is out");
    expect_error("submit,gpus,start,end\n0,1,5,4294967302\n",
                 "mem.csv:2: field 'end - start': duration 4294967297 is out of range");
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_map(ctx, "csv", NULL, HDR "1099511627776,4294967296,1\n");
    cr_assert(t, "the bounds themselves are in range: %s", tt_errmsg(ctx));
    cr_expect_eq(t->submit[0], TT_SUBMIT_MAX);
    cr_expect_eq(t->duration[0], TT_DURATION_MAX);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
