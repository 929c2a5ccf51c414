/* The philly-json format: the raw Philly cluster_job_log. Expected times
 * are UTC epoch seconds computed with Python's zoneinfo
 * (America/Los_Angeles, fold=0 for the DST fall-back hour). */
#include "testutil.h"

#define expect_error(text, want) expect_ingest_error("philly-json", text, TT_EPARSE, want)

Test(philly_json, readme_example)
{
    const char *rel = "philly/readme_examples/cluster_job_log.example.json";
    if (!have_shared(rel))
        cr_skip("no shared Philly README example (%s)", rel);
    tt_ctx *ctx = tt_ctx_create();
    const char *in = shared_path(rel);
    tt_trace *t = ingest_files(ctx, "auto", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "philly-json");
    cr_expect_str_eq(t->prov.time_base, "unix");
    cr_expect_str_eq(t->prov.timezone, "America/Los_Angeles");
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->prov.rows_read, 1);
    /* 2017-10-07 01:11:39 PDT */
    cr_expect_eq(t->submit[0], 1507363899);
    /* attempts: 01:12:09 -> 01:13:23 (74 s), 01:13:30 -> 10-09 06:53:12 (193,182 s); the
     * Pollux CSV row for this job says 193256.0 */
    cr_expect_eq(t->duration[0], 193256);
    cr_expect_eq(t->start[0], 1507363929);
    cr_expect_eq(t->end[0], 1507557192);
    cr_expect_eq(t->gpus[0], 8);
    cr_expect_eq(t->gpu_milli[0], 8000);
    cr_expect_eq(t->nodes[0], 1);
    cr_expect_str_eq(str_at(t->names, t->name, 0), "application_1506638472019_14199");
    cr_expect_str_eq(str_at(t->users, t->user, 0), "ce2f4c");
    cr_expect_str_eq(str_at(t->vcs, t->vc, 0), "ee9e8c");
    cr_expect_str_eq(str_at(t->statuses, t->status, 0), "Pass");
    cr_expect_eq(t->model[0], -1);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(philly_json, quirks_fixture)
{
    tt_ctx *ctx = tt_ctx_create();
    const char *in = "tests/fixtures/ingest/philly_json/philly_json_quirks.json";
    tt_trace *t = ingest_files(ctx, "philly-json", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 8);
    cr_expect_eq(t->prov.rows_kept, 2);
    cr_expect_eq(t->prov.dropped[TT_DROP_NO_ATTEMPTS], 1);  /* ..._15647, attempts [] */
    cr_expect_eq(t->prov.dropped[TT_DROP_MISSING_TIME], 1); /* ..._16565, like the real one */
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_FINISHED], 1); /* last end "None" */
    cr_expect_eq(t->prov.dropped[TT_DROP_NOT_STARTED], 1);  /* first start null */
    cr_expect_eq(t->prov.dropped[TT_DROP_END_BEFORE_START], 1);
    cr_expect_eq(t->prov.dropped[TT_DROP_CPU_ONLY], 1); /* gpus [] */
    cr_expect_eq(t->prov.ambiguous_times, 1);           /* 2017-11-05 01:30:00 */
    cr_assert_eq(t->n, 2);
    /* job_multinode: submitted 2017-11-05 01:30:00 (PDT, first of the two), attempt 1
     * 03:00-04:00 PST (3,600 s) on m10+m11 with 8+8 GPUs, attempt 2 11-05 05:00:00 ->
     * 11-06 05:00:01 PST (86,401 s) on one node with 4 GPUs */
    cr_expect_eq(t->submit[0], 1509870600);
    cr_expect_eq(t->start[0], 1509879600);
    cr_expect_eq(t->end[0], 1509973201);
    cr_expect_eq(t->duration[0], 90001);
    cr_expect_eq(t->gpus[0], 16);
    cr_expect_eq(t->nodes[0], 2);
    cr_expect_str_eq(str_at(t->names, t->name, 0), "job_multinode");
    cr_expect_str_eq(str_at(t->vcs, t->vc, 0), "103959");
    /* the compact one-line job: escapes, keys in another order, unknown keys */
    cr_expect_eq(t->submit[1], 1512115199);
    cr_expect_eq(t->start[1], 1512115200);
    cr_expect_eq(t->end[1], 1512115800);
    cr_expect_eq(t->duration[1], 600);
    cr_expect_eq(t->gpus[1], 2);
    cr_expect_eq(t->nodes[1], 1);
    cr_expect_str_eq(str_at(t->names, t->name, 1), "job_\xc3\xa9sc/aped \xf0\x9f\x98\x80");
    cr_expect_str_eq(str_at(t->users, t->user, 1), "e5\"e5\\e5");
    cr_expect_null(str_at(t->vcs, t->vc, 1)); /* "vc": null */
    cr_expect_str_eq(str_at(t->statuses, t->status, 1), "Pass");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(philly_json, json_lines_and_single_object)
{
    tt_ctx *ctx = tt_ctx_create();
    const char *in = "tests/fixtures/ingest/philly_json/philly_json_lines.jsonl";
    tt_trace *t = ingest_files(ctx, "auto", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_expect_str_eq(t->prov.format, "philly-json");
    cr_expect_eq(t->prov.rows_read, 3);
    cr_expect_eq(t->prov.dropped[TT_DROP_NO_ATTEMPTS], 1);
    cr_assert_eq(t->n, 2);
    cr_expect_eq(t->submit[0], 1504249200); /* 2017-09-01 00:00:00 PDT */
    cr_expect_eq(t->duration[0], 3600);
    cr_expect_eq(t->gpus[0], 1);
    cr_expect_eq(t->submit[1], 1504465200); /* 2017-09-03 12:00:00 PDT */
    cr_expect_eq(t->duration[1], 30);
    cr_expect_eq(t->gpus[1], 4);
    cr_expect_null(str_at(t->vcs, t->vc, 1));
    cr_expect_null(str_at(t->statuses, t->status, 1));
    tt_trace_free(t);

    in = "tests/fixtures/ingest/philly_json/philly_json_single.json";
    t = ingest_files(ctx, "auto", &in, 1);
    cr_assert_not_null(t, "%s", tt_errmsg(ctx));
    cr_assert_eq(t->n, 1);
    cr_expect_eq(t->submit[0], 1507363899);
    cr_expect_eq(t->duration[0], 74);
    cr_expect_eq(t->gpus[0], 2);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(philly_json, several_inputs_and_time_zone_option)
{
    const char *in[] = {"tests/fixtures/ingest/philly_json/philly_json_single.json",
                        "tests/fixtures/ingest/philly_json/philly_json_lines.jsonl"};
    tt_ctx *ctx = tt_ctx_create();
    tt_ingest_opts o = {"philly-json", NULL, "UTC"};
    tt_trace *t = NULL;
    cr_assert_eq(tt_ingest(ctx, &o, in, 2, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->prov.rows_read, 4);
    cr_assert_eq(t->n, 3);
    /* sorted by submit: 2017-09-01 00:00:00 UTC first */
    cr_expect_eq(t->submit[0], 1504224000);
    cr_expect_eq(t->submit[2], 1507338699); /* 2017-10-07 01:11:39 UTC */
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(philly_json, drop_rules)
{
    static const struct {
        const char *attempts;
        int reason;
    } cases[] = {
        {"[]", TT_DROP_NO_ATTEMPTS},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": null}]", TT_DROP_NOT_FINISHED},
        {"[{\"start_time\": null, \"end_time\": null}]", TT_DROP_NOT_FINISHED},
        {"[{\"start_time\": \"\", \"end_time\": \"2017-01-01 00:00:00\"}]", TT_DROP_NOT_STARTED},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"\"},"
         " {\"start_time\": \"2017-01-01 01:00:00\", \"end_time\": \"2017-01-01 02:00:00\"}]",
         TT_DROP_MISSING_TIME},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:10:00\"},"
         " {\"end_time\": \"2017-01-01 02:00:00\"}]",
         TT_DROP_MISSING_TIME},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:10:00\"},"
         " {\"start_time\": \"2017-01-01 01:00:00\", \"end_time\": \"2017-01-01 00:59:59\"}]",
         TT_DROP_END_BEFORE_START},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:10:00\","
         " \"detail\": []}]",
         TT_DROP_CPU_ONLY},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:10:00\"}]",
         TT_DROP_CPU_ONLY},
        {"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:10:00\","
         " \"detail\": [{\"ip\": \"m1\", \"gpus\": []}]},"
         " {\"start_time\": \"2017-01-01 01:00:00\", \"end_time\": \"2017-01-01 02:00:00\","
         " \"detail\": [{\"ip\": \"m1\", \"gpus\": [\"gpu0\"]}]}]",
         TT_DROP_CPU_ONLY}, /* GPUs come from the first attempt */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[{\"jobid\": \"j\", \"submitted_time\": \"2017-01-01 00:00:00\", "
                 "\"attempts\": %s},\n"
                 " {\"jobid\": \"k\", \"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": "
                 "[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 "
                 "00:00:01\", \"detail\": [{\"ip\": \"m1\", \"gpus\": [\"gpu0\"]}]}]}]",
                 cases[i].attempts);
        tt_ctx *ctx = tt_ctx_create();
        tt_trace *t = ingest_text(ctx, "philly-json", text);
        cr_assert_not_null(t, "case %zu: %s", i, tt_errmsg(ctx));
        cr_expect_eq(t->prov.rows_read, 2, "case %zu", i);
        cr_expect_eq(t->n, 1, "case %zu", i);
        for (int r = 0; r < TT_DROP_COUNT; r++)
            cr_expect_eq(t->prov.dropped[r], r == cases[i].reason, "case %zu reason %s", i,
                         tt_drop_name(r));
        tt_trace_free(t);
        tt_ctx_free(ctx);
    }
}

Test(philly_json, fixture_errors)
{
    static const struct {
        const char *file, *msg;
        int code;
    } cases[] = {
        {"philly_json_truncated.json",
         "philly_json_truncated.json:23: malformed JSON: unexpected end of input", TT_EPARSE},
        {"philly_json_trailing.json",
         "philly_json_trailing.json:50: malformed JSON: data after the end of the top-level "
         "array: ','",
         TT_EPARSE},
        {"philly_json_wrongtype.json",
         "philly_json_wrongtype.json:5: field 'attempts[0].detail[0].gpus': expected an array, "
         "got a string",
         TT_EPARSE},
        {"philly_json_empty_array.json", "philly_json_empty_array.json: no job rows", TT_EEMPTY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fixtures/ingest/philly_json/%s", cases[i].file);
        tt_ctx *ctx = tt_ctx_create();
        const char *in = path;
        tt_trace *t = ingest_files(ctx, "auto", &in, 1);
        cr_expect_null(t, "%s accepted", path);
        cr_expect_eq(tt_errcode(ctx), cases[i].code, "%s: code %d", path, tt_errcode(ctx));
        cr_expect(strstr(tt_errmsg(ctx), cases[i].msg) != NULL, "message '%s' lacks '%s'",
                  tt_errmsg(ctx), cases[i].msg);
        tt_trace_free(t);
        tt_ctx_free(ctx);
    }
}

Test(philly_json, malformed_records)
{
    expect_error("[{\"jobid\": \"x\", \"attempts\": []}]",
                 "mem.txt:1: field 'submitted_time': missing in job 'x'");
    expect_error("[{\"jobid\": \"x\", \"submitted_time\": \"2017-01-01 00:00:00\"}]",
                 "field 'attempts': missing in job 'x'");
    expect_error("[{\"submitted_time\": null, \"attempts\": []}]",
                 "field 'submitted_time': value missing");
    expect_error("[{\"submitted_time\": \"None\", \"attempts\": []}]",
                 "field 'submitted_time': value missing");
    expect_error("[{\"submitted_time\": 1507363899, \"attempts\": []}]",
                 "field 'submitted_time': expected a time string or null, got a number");
    expect_error("[{\"submitted_time\": \"2017-13-01 00:00:00\", \"attempts\": []}]",
                 "field 'submitted_time': cannot parse time '2017-13-01 00:00:00'");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": {}}]",
                 "field 'attempts': expected an array, got an object");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": null}]",
                 "field 'attempts': expected an array, got null");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": [1]}]",
                 "field 'attempts[0]': expected an object, got a number");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": "
                 "[{}, {\"start_time\": true}]}]",
                 "field 'attempts[1].start_time': expected a time string or null, got a boolean");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": "
                 "[{\"detail\": {\"ip\": \"m1\"}}]}]",
                 "field 'attempts[0].detail': expected an array, got an object");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": "
                 "[{\"detail\": [\"m1\"]}]}]",
                 "field 'attempts[0].detail[0]': expected an object, got a string");
    expect_error("[{\"user\": 7, \"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": []}]",
                 "field 'user': expected a string or null, got a number");
    expect_error("[{\"jobid\": \"a\", \"jobid\": \"b\"}]", "duplicate key 'jobid'");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": []}, 5]",
                 "element 2 of the top-level array is a number, not a job object");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": []}]\n]",
                 "mem.txt:2: malformed JSON: data after the end of the top-level array: ']'");
    expect_error("{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": []} {}",
                 "expected a new line after the job object, got '{'");
    expect_error("{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": []}\n[]",
                 "mem.txt:2: malformed JSON: expected a job object '{' on a new line, got '['");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\" \"attempts\": []}]",
                 "expected ',' or '}' after an object member, got '\"'");
    expect_error("[{\"submitted_time\": \"2017-01-01 00:00:00\", \"attempts\": [],}]",
                 "expected a string key, got '}'");
    expect_error("[{\"jobid\": \"a\\qb\"}]", "invalid escape");
    expect_error("[{\"jobid\": \"a\\ud800\"}]", "not followed by a low one");
}

Test(philly_json, wrong_top_level)
{
    /* -f philly-json on something that is not JSON at all */
    expect_error("jobid,submit\n", "mem.txt:1: malformed JSON: expected '[' (an array of jobs) "
                                   "or '{' (a job object), got 'j'");
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "philly-json", " \n\t\n");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    cr_expect(strstr(tt_errmsg(ctx), "no job rows") != NULL, "%s", tt_errmsg(ctx));
    tt_trace_free(t);
    t = ingest_text(ctx, "philly-json", "[]");
    cr_expect_null(t);
    cr_expect_eq(tt_errcode(ctx), TT_EEMPTY);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
