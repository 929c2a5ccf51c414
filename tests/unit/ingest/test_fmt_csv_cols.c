/* The generic csv format's optional columns (SPEC 10.6, 12.7): elastic,
 * gpus_min, gpus_max, wf, deps, mid, mem_mb, out_mb. */
#include "testutil.h"

static const char dag_csv[] =
    "name,submit,duration,gpus,elastic,gpus_min,gpus_max,wf,deps,mid,mem_mb,out_mb\n"
    "t2,20,5,1,,,,7,t0;t1,3,,\n"
    "t0,0,10,2,1,1,8,7,,3,500,200\n"
    "t1,0,10,1,0,-1,-1,7,t0,,,\n"
    "x,5,10,4,-1,2,,-1,,-1,-1,0\n"
    "late,1,10,1,,,,8,t2,,,\n";

Test(csv_cols, every_optional_column_by_name)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "csv", dag_csv);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_trace_cols(t), TT_COL_OPTIONAL);
    int64_t t0 = find_job(t, "t0"), t1 = find_job(t, "t1"), t2 = find_job(t, "t2"),
            x = find_job(t, "x"), late = find_job(t, "late");
    cr_assert(t0 == 0 && t1 == 1 && late == 2 && x == 3 && t2 == 4, "sorted by submit");
    cr_expect_eq(t->elastic[t0], 1);
    cr_expect_eq(t->elastic[t1], 0);
    cr_expect_eq(t->elastic[t2], -1, "a blank is the absent value");
    cr_expect_eq(t->gpus_min[t0], 1);
    cr_expect_eq(t->gpus_max[t0], 8);
    cr_expect_eq(t->gpus_min[x], 2);
    cr_expect_eq(t->gpus_max[x], -1);
    cr_expect_eq(t->wf[t2], 7);
    cr_expect_eq(t->wf[x], -1);
    cr_expect_eq(t->mid[t0], 3);
    cr_expect_eq(t->mid[t1], -1);
    cr_expect_eq(t->mem_mb[t0], 500);
    cr_expect_eq(t->mem_mb[t2], -1);
    cr_expect_eq(t->out_mb[t0], 200);
    cr_expect_eq(t->out_mb[t1], 0);
    cr_expect_eq(t->dep_off[t2 + 1] - t->dep_off[t2], 2);
    cr_expect_eq(t->deps[t->dep_off[t2]], t0);
    cr_expect_eq(t->deps[t->dep_off[t2] + 1], t1);
    cr_expect_eq(t->dep_off[t1 + 1] - t->dep_off[t1], 1);
    cr_expect_eq(t->deps[t->dep_off[t1]], t0);
    cr_expect_eq(t->dep_off[t0 + 1], t->dep_off[t0], "no parents");
    /* a parent later and in another workflow is kept (the simulator
     * rejects the workflow, SPEC 12.1) */
    cr_expect_eq(t->deps[t->dep_off[late]], t2);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv_cols, traces_without_them_have_none)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "csv", "submit,duration,gpus\n0,10,1\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_trace_cols(t), 0u);
    tt_trace_free(t);
    t = ingest_text(ctx, "csv", "submit,duration,gpus,elastic\n0,10,1,\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_trace_cols(t), TT_COL_ELASTIC, "a column of blanks is still the column");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(csv_cols, bad_values_name_line_and_field)
{
    const char *h = "submit,duration,gpus,elastic,gpus_min,gpus_max,wf,mid,mem_mb,out_mb\n";
    struct {
        const char *row, *want;
    } bad[] = {
        {"0,1,1,2,,,,,,", "mem.txt:2: field 'elastic': '2' is out of range (-1, 0 or 1)"},
        {"0,1,1,yes,,,,,,", "mem.txt:2: field 'elastic': expected an integer, got 'yes'"},
        {"0,1,1,,0,,,,,", "field 'gpus_min': '0' is out of range (-1 (no bound) or 1"},
        {"0,1,1,,,-2,,,,", "field 'gpus_max': '-2' is out of range"},
        {"0,1,1,,,,-3,,,", "field 'wf': '-3' is out of range"},
        {"0,1,1,,,,,3000000000,,", "field 'mid': '3000000000' is out of range"},
        {"0,1,1,,,,,,-5,", "field 'mem_mb': '-5' is out of range"},
        {"0,1,1,,,,,,,-1", "field 'out_mb': '-1' is out of range (0 .. 2^31-1)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s\n", h, bad[i].row);
        expect_ingest_error("csv", text, TT_EPARSE, bad[i].want);
    }
}

Test(csv_cols, a_parent_no_row_has_is_an_error_at_its_line)
{
    expect_ingest_error("csv",
                        "name,submit,duration,gpus,deps\n"
                        "a,0,1,1,\n"
                        "b,5,1,1,a\n"
                        "c,1,1,1,a; zz\n",
                        TT_EPARSE, "mem.txt:4: field 'deps': no job is named 'zz'");
    /* a dropped row is no parent */
    expect_ingest_error("csv",
                        "name,submit,duration,gpus,deps\n"
                        "a,0,1,0,\n"
                        "b,5,1,1,a\n",
                        TT_EPARSE, "mem.txt:3: field 'deps': no job is named 'a'");
}
