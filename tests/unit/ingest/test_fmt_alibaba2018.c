/* alibaba2018: Alibaba cluster-trace-v2018 batch_task rows as workflow
 * tasks (SPEC 12.7). The fixture is made up from the table's published
 * columns (alibaba/clusterdata cluster-trace-v2018/schema.md, 1.5). */
#include "testutil.h"

#define FIX "tests/fixtures/ingest/alibaba2018/"

static int64_t row(const tt_trace *t, const char *name)
{
    int64_t r = find_job(t, name);
    cr_assert(r >= 0, "no row %s", name);
    return r;
}

/* The parents of row r, as rows, in order. */
static void expect_parents(const tt_trace *t, int64_t r, int n, const int64_t *want)
{
    cr_assert_eq(t->dep_off[r + 1] - t->dep_off[r], n, "row %lld: %lld parents", (long long)r,
                 (long long)(t->dep_off[r + 1] - t->dep_off[r]));
    for (int i = 0; i < n; i++)
        cr_expect_eq(t->deps[t->dep_off[r] + i], want[i], "row %lld parent %d", (long long)r, i);
}

Test(alibaba2018, dags_from_task_names)
{
    tt_ctx *ctx = tt_ctx_create();
    const char *in[] = {FIX "batch_task.csv"};
    tt_trace *t = ingest_files(ctx, "auto", in, 1);
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "alibaba2018");
    cr_expect_eq(t->prov.rows_read, 10);
    cr_expect_eq(t->n, 9);
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1);
    cr_expect(strstr(t->prov.notes, "CPU tasks read as jobs of 1 GPU") != NULL, "%s",
              t->prov.notes);
    cr_expect(strstr(t->prov.notes, "2 parents not in the trace left out") != NULL, "%s",
              t->prov.notes);
    cr_expect_eq(tt_trace_cols(t), TT_COL_WF | TT_COL_DEPS);
    int64_t m1 = row(t, "j_1/M1"), m21 = row(t, "j_1/M2_1"), r32 = row(t, "j_1/R3_2"),
            b1 = row(t, "j_2/M1"), b2 = row(t, "j_2/M2"), j312 = row(t, "j_2/J3_1_2"),
            m49 = row(t, "j_3/M4_9"), r21 = row(t, "j_4/R2_1");
    cr_expect_eq(t->submit[m21], 170);
    cr_expect_eq(t->duration[m21], 30);
    cr_expect_eq(t->gpus[m21], 1);
    cr_expect_str_eq(tt_strtab_get(t->statuses, t->status[b2]), "Failed");
    cr_expect_eq(t->wf[m1], 0);
    cr_expect_eq(t->wf[b1], 1);
    cr_expect_eq(t->wf[m49], 2);
    cr_expect_eq(t->wf[r21], 3);
    expect_parents(t, m1, 0, NULL);
    expect_parents(t, m21, 1, (int64_t[]){m1});
    expect_parents(t, r32, 1, (int64_t[]){m21});
    expect_parents(t, j312, 2, (int64_t[]){b1, b2});
    expect_parents(t, m49, 0, NULL);
    expect_parents(t, r21, 0, NULL);
    expect_parents(t, row(t, "j_3/task_Nzg3ODAwNDgwMTMzNDkwMzg5Mg=="), 0, NULL);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(alibaba2018, header_line_and_bad_rows)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "alibaba2018",
                              "task_name,instance_num,job_name,task_type,status,start_time,"
                              "end_time,plan_cpu,plan_mem\nM1,1,j_9,1,Terminated,5,9,100,1\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->n, 1);
    cr_expect_null(t->dep_off, "no parents: no deps column");
    tt_trace_free(t);
    tt_ctx_free(ctx);
    expect_ingest_error("alibaba2018", "M1,1,j_9,1,Terminated,5,9,100,1\nM2_1,1,j_9,1\n",
                        TT_EPARSE, "mem.txt:2: expected 9 fields, got 4");
    expect_ingest_error("alibaba2018", "M1,1,j_9,1,Terminated,5s,9,100,1\n", TT_EPARSE,
                        "mem.txt:1: field 'start_time'");
    expect_ingest_error("alibaba2018", "M1,1,,1,Terminated,5,9,100,1\n", TT_EPARSE,
                        "mem.txt:1: field 'job_name': value missing");
}
