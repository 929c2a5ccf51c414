/* The swf format: Standard Workload Format, one processor = one GPU.
 * Expected values were worked out by hand from the fixtures and checked
 * with a separate awk script over them. */
#include "testutil.h"

#define FIX "tests/fixtures/"

Test(swf, small_fixture_with_unix_start)
{
    const char *in = FIX "ingest/swf/swf_small.swf";
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "auto", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "swf");
    cr_expect_eq(t->prov.rows_read, 7);
    cr_expect_eq(t->prov.rows_kept, 4);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);  /* job 3: run time -1 */
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);     /* job 4: both processor fields -1 */
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 1); /* job 6: submit -1 */
    cr_assert_eq(t->n, 4);
    static const struct {
        const char *name, *user, *vc, *status;
        int64_t submit, start, end, duration;
        int32_t gpus;
    } want[] = {
        /* UnixStartTime 1500000000 + submit; start = submit + wait; end = start + run */
        {"1", "3", "1", "1", 1500000000, 1500000010, 1500000110, 100, 4},
        {"2", "4", "2", "0", 1500000005, TT_TIME_NONE, TT_TIME_NONE, 50, 8}, /* wait -1; req. 8 */
        {"5", NULL, "3", "1", 1500000040, 1500000043, 1500003643, 3600, 16}, /* "3600.0" */
        {"7", "3", "1", "1", 1500000050, 1500000050, 1500000120, 70, 4}, /* allocated 0: req. */
    };
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(str_at(t->names, t->name, i), want[i].name, "row %d", i);
        cr_expect_eq(t->submit[i], want[i].submit, "row %d", i);
        cr_expect_eq(t->start[i], want[i].start, "row %d", i);
        cr_expect_eq(t->end[i], want[i].end, "row %d", i);
        cr_expect_eq(t->duration[i], want[i].duration, "row %d", i);
        cr_expect_eq(t->gpus[i], want[i].gpus, "row %d", i);
        cr_expect_eq(t->gpu_milli[i], want[i].gpus * 1000, "row %d", i);
        cr_expect_str_eq(str_at(t->statuses, t->status, i), want[i].status, "row %d", i);
        cr_expect_str_eq(str_at(t->vcs, t->vc, i), want[i].vc, "row %d", i);
        if (want[i].user)
            cr_expect_str_eq(str_at(t->users, t->user, i), want[i].user, "row %d", i);
        else
            cr_expect_null(str_at(t->users, t->user, i), "row %d", i);
        cr_expect_eq(t->nodes[i], -1);
    }
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(swf, relative_times_without_header)
{
    const char *in = FIX "ingest/swf/swf_relative.swf";
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "swf", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_assert_eq(t->n, 2);
    /* sorted by submit: job 2 (50) before job 1 (100) */
    cr_expect_str_eq(str_at(t->names, t->name, 0), "2");
    cr_expect_eq(t->submit[0], 50);
    cr_expect_eq(t->start[0], TT_TIME_NONE);
    cr_expect_eq(t->submit[1], 100);
    cr_expect_eq(t->start[1], 120);
    cr_expect_eq(t->end[1], 420);
    cr_expect_eq(t->gpus[1], 8);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(swf, detect)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t =
        ingest_text(ctx, "auto", "; a comment\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "swf");
    tt_trace_free(t);
    t = ingest_text(ctx, "auto", "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n");
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "swf");
    tt_trace_free(t);
    /* 17 fields: not told as swf */
    t = ingest_text(ctx, "auto", "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1\n");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EFORMAT);
    tt_ctx_free(ctx);
}

#define expect_error(text, want) expect_ingest_error("swf", text, TT_EPARSE, want)

Test(swf, malformed_rows)
{
    expect_error("1 0 10 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1\n",
                 "mem.txt:1: expected 18 whitespace-separated fields, got 17");
    expect_error("; x\n1 0 10 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1 7\n",
                 "mem.txt:2: expected 18 whitespace-separated fields, got 19");
    expect_error("1 0 10 100 4 -1 -1 4 2h -1 1 3 1 -1 1 -1 -1 -1\n",
                 "mem.txt:1: field 'requested_time': expected a number, got '2h'");
    expect_error("1 0 10 abc 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "field 'run_time': expected a number, got 'abc'");
    expect_error("1 0 -5 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "field 'wait_time': negative value '-5' (only -1, missing, is allowed)");
    expect_error("1 0 10 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n; UnixStartTime: 5\n",
                 "mem.txt:2: UnixStartTime header after the first job");
    expect_error("; UnixStartTime: soon\n", "field 'UnixStartTime': expected seconds since 1970");
    expect_error("1 0 10 100 99999999 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "field 'allocated_procs': 99999999 processors is out of range");
    expect_error("1 0 10 1e30 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "field 'run_time': number out of range");
    expect_error("1 0 10 5000000000 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "mem.txt:1: field 'run_time': duration 5000000000 is out of range");
    expect_error("; UnixStartTime: 1099511627000\n"
                 "1 777 10 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n",
                 "mem.txt:2: field 'submit_time': submit 1099511627777 is out of range");
}

Test(swf, fixture_errors_and_mixed_bases)
{
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {FIX "ingest/swf/swf_bad_fields.swf", "swf_bad_fields.swf:1: expected 18 whitespace-separated"},
        {FIX "ingest/swf/swf_bad_number.swf", "swf_bad_number.swf:2: field 'requested_time'"},
        {FIX "ingest/swf/swf_negative.swf", "swf_negative.swf:1: field 'wait_time': negative value"},
        {FIX "ingest/swf/swf_late_header.swf", "swf_late_header.swf:2: UnixStartTime header after"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tt_ctx *ctx = tt_ctx_create();
        tt_trace *t = ingest_files(ctx, "swf", &cases[i].file, 1);
        cr_expect_null(t, "%s accepted", cases[i].file);
        cr_expect(strstr(tt_errmsg(ctx), cases[i].msg) != NULL, "message '%s' lacks '%s'",
                  tt_errmsg(ctx), cases[i].msg);
        tt_trace_free(t);
        tt_ctx_free(ctx);
    }
    const char *mixed[] = {FIX "ingest/swf/swf_small.swf", FIX "ingest/swf/swf_relative.swf"};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "swf", mixed, 2);
    cr_expect_null(t);
    cr_expect(strstr(tt_errmsg(ctx), "swf_relative.swf: has no UnixStartTime header, but") !=
                  NULL,
              "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}

Test(swf, several_relative_inputs)
{
    const char *in[] = {FIX "ingest/swf/swf_relative.swf", FIX "ingest/swf/swf_relative.swf"};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "swf", in, 2);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->n, 4);
    cr_expect_eq(t->prov.duplicates, 2);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* A UnixStartTime header makes the times absolute. */
Test(swf, unix_start_time_gives_unix_time_base)
{
    const char *in = FIX "ingest/swf/swf_small.swf";
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_files(ctx, "swf", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.time_base, "unix");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
