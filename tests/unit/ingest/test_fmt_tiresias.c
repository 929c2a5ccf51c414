/* The tiresias format: the Tiresias simulator's job list (CRLF CSV). */
#include "testutil.h"

Test(tiresias, shared_60_jobs)
{
    const char *rel = "philly/simulator_shipped/tiresias/60_job.csv";
    if (!have_shared(rel))
        cr_skip("no shared %s", rel);
    const char *in[] = {shared_path(rel)};
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"auto", NULL, NULL};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 1, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "tiresias");
    cr_expect_str_eq(t->prov.time_base, "relative");
    cr_expect_str_eq(t->prov.duration_unit, "s");
    cr_assert_eq(t->n, 60);
    cr_expect_eq(t->prov.rows_read, 60);
    /* tr -d '\r' < 60_job.csv | awk -F, 'NR>1{g+=$2; s+=$3; d+=$6; gd+=$2*$6}':
     * 170 GPUs, submit sum 52710, duration sum 10705, GPU-seconds 26624,
     * 10 distinct model_name values */
    int64_t g = 0, s = 0, d = 0, gd = 0;
    for (int64_t i = 0; i < t->n; i++) {
        g += t->gpus[i];
        s += t->submit[i];
        d += t->duration[i];
        gd += (int64_t)t->gpus[i] * t->duration[i];
        cr_expect_eq(t->vc[i], -1);
        cr_expect_eq(t->gpu_milli[i], t->gpus[i] * 1000);
    }
    cr_expect_eq(g, 170);
    cr_expect_eq(s, 52710);
    cr_expect_eq(d, 10705);
    cr_expect_eq(gd, 26624);
    cr_expect_eq(tt_strtab_count(t->models), 10);
    /* first and last rows: 0,1,0,606,vgg19,164,30 and 59,1,1779,525,inception3,122,33 */
    cr_expect_str_eq(str_at(t->names, t->name, 0), "0");
    cr_expect_str_eq(str_at(t->models, t->model, 0), "vgg19");
    cr_expect_eq(t->submit[0], 0);
    cr_expect_eq(t->duration[0], 164);
    cr_expect_eq(t->gpus[0], 1);
    cr_expect_str_eq(str_at(t->names, t->name, 59), "59");
    cr_expect_str_eq(str_at(t->models, t->model, 59), "inception3");
    cr_expect_eq(t->submit[59], 1779);
    cr_expect_eq(t->duration[59], 122);
    cr_expect_eq(t->gpus[59], 1);
    /* row 2: 1,8,30,133,vgg11,147,23 */
    cr_expect_str_eq(str_at(t->models, t->model, 1), "vgg11");
    cr_expect_eq(t->gpus[1], 8);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(tiresias, crlf_without_final_newline)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "tiresias",
                              "job_id,num_gpu,submit_time,iterations,model_name,duration,"
                              "interval\r\n"
                              "0,1,0,606,vgg19,164,30\r\n"
                              "\r\n"
                              "1,0,10,1,vgg11,5,1\r\n"
                              "2,2,53,157,inception4,127.5,26\r\n"
                              "3,4,79,513,resnet50,121,20");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 3);
    cr_expect_eq(t->prov.rows_read, 4);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1);
    cr_expect_eq(t->duration[1], 128, "127.5 rounds half away from zero");
    cr_expect_str_eq(str_at(t->names, t->name, 2), "3");
    cr_expect_str_eq(str_at(t->models, t->model, 2), "resnet50", "no CR left on the last field");
    cr_expect_eq(t->duration[2], 121);
    cr_expect_eq(t->gpus[2], 4);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(tiresias, columns_by_name)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "auto",
                              "duration,model_name,submit_time,num_gpu,job_id,extra\n"
                              "100,bert,7,2,a,x\n");
    cr_assert(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "tiresias");
    cr_expect_eq(t->submit[0], 7);
    cr_expect_eq(t->duration[0], 100);
    cr_expect_eq(t->gpus[0], 2);
    cr_expect_str_eq(str_at(t->names, t->name, 0), "a");
    cr_expect_str_eq(str_at(t->models, t->model, 0), "bert");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

#define expect_error(text, want) expect_ingest_error("tiresias", text, 0, want)

#define HDR "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\r\n"
#define ROW "0,1,0,606,vgg19,164,30\r\n"

Test(tiresias, bad_inputs)
{
    expect_error(HDR ROW "1,8,30,133,vgg11,147\r\n", "mem.txt:3: expected 7 fields, got 6");
    expect_error(HDR ROW "1,8,30,133,vgg11,147,23,9\r\n", "mem.txt:3: expected 7 fields, got 8");
    expect_error(HDR ROW "1,x8,30,133,vgg11,147,23\r\n",
                 "mem.txt:3: field 'num_gpu': expected a number, got 'x8'");
    expect_error(HDR ROW "1,8,30,133,vgg11,-147,23\r\n",
                 "mem.txt:3: field 'duration': negative value '-147'");
    expect_error(HDR ROW "1,8,-30,133,vgg11,147,23\r\n",
                 "mem.txt:3: field 'submit_time': negative value '-30'");
    expect_error(HDR ROW "1,8,2017-10-03 00:00,133,vgg11,147,23\r\n",
                 "mem.txt:3: field 'submit_time': expected a number, got '2017-10-03 00:00'");
    expect_error(HDR ROW "1,8,,133,vgg11,147,23\r\n", "mem.txt:3: field 'submit_time': value missing");
    expect_error("job_id,num_gpu,submit_time,iterations,duration,interval\r\n0,1,0,606,164,30\r\n",
                 "mem.txt:1: header has no column 'model_name'");
    expect_error(HDR ROW "1,8,9223372036854775807,133,vgg11,147,23\r\n",
                 "mem.txt:3: field 'submit_time': submit 9223372036854775807 is out of range");
    expect_error(HDR ROW "1,8,30,133,vgg11,9223372036854775807,23\r\n",
                 "mem.txt:3: field 'duration': duration 9223372036854775807 is out of range");
    expect_error(HDR, "mem.txt:1: header only: no job rows");
    expect_error("", "mem.txt:1: empty input: no header line");
    expect_error(HDR ROW "1,8,30,133,\"vgg11,147,23\r\n", "mem.txt:3: unterminated quoted field");
}

Test(tiresias, binary_garbage)
{
    static const char junk[] = "PK\x03\x04\x14\x00\x00\x00\x08\x00garbage";
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"tiresias", NULL, NULL};
    tt_trace *t = NULL;
    cr_expect_neq(tt_ingest_mem(ctx, &o, junk, sizeof junk - 1, "junk.csv", &t), 0);
    cr_expect(strstr(tt_errmsg(ctx), "junk.csv:1: binary data"), "%s", tt_errmsg(ctx));
    tt_ctx_free(ctx);
}
