/* Option values the tools pass to the library as text: the first byte
 * picks the parser, the rest is its text (lines where it takes several).
 *   0  -p NAME=VALUE lines (tt_params_set), each parameter then written
 *      and read back (tt_params_format must give text tt_params_set takes)
 *   1  -c RxNxG (tt_cluster_parse of a cluster text, never a file here)
 *   2  --tz ZONE (a fixed offset or a zone of the system's zoneinfo)
 *   3  calendar times in UTC, a fixed offset or America/Los_Angeles
 *   4  a TZif file of its own, read as the zone --tz names
 *   5  -m MAP, --tz ZONE and a csv body: lines MAP, ZONE, then the csv
 *   6  tt-gen -g, -d and -w mixes (lines), written by tt_gen_describe and
 *      read back, then a small trace
 *   7  the strict numbers of tt/parse.h
 * Seeds: tests/fuzz/corpus/params. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/timeparse.h"
#include "tt/gen.h"
#include "tt/ingest.h"
#include "tt/parse.h"

static void params(tt_ctx *ctx, char *text)
{
    const tt_models *m = fuzz_models();
    tt_params p, q;
    tt_params_default(&p);
    tt_params_default(&q);
    char *line;
    while ((line = fuzz_line(&text))) {
        char *eq = strchr(line, '=');
        if (eq)
            *eq = '\0';
        fuzz_check_rc(ctx, tt_params_set(ctx, &p, m, line, eq ? eq + 1 : ""), "tt_params_set");
    }
    static char a[TT_PARAM_TEXT_MAX], b[TT_PARAM_TEXT_MAX];
    for (int i = 0; i < TT_NPARAMS; i++) {
        FUZZ_CHECK(tt_params_format(&p, m, i, a, sizeof a) == 0, "%s: not written",
                   tt_param_names[i]);
        int rc = tt_params_set(ctx, &q, m, tt_param_names[i], a);
        FUZZ_CHECK(rc == 0, "%s: '%s' as written is not read back: %s", tt_param_names[i], a,
                   tt_errmsg(ctx));
        tt_params_format(&q, m, i, b, sizeof b);
        FUZZ_CHECK(strcmp(a, b) == 0, "%s: '%s' read back as '%s'", tt_param_names[i], a, b);
    }
    static char opts[TT_NPARAMS * (TT_PARAM_TEXT_MAX + 16)];
    FUZZ_CHECK(tt_params_format_options(&p, m, opts, sizeof opts) == 0, "options do not fit");
    int rc = tt_params_format_options(&p, m, a, 24);
    FUZZ_CHECK(rc == 0 || (rc == TT_ERANGE && strlen(a) < 24), "a short buffer overflows");
}

static void cluster(tt_ctx *ctx, const char *text)
{
    /* anything else names a file, which fuzz_tables reads */
    if (!*text || strspn(text, "0123456789+-x") != strlen(text) || !strchr(text, 'x'))
        return;
    tt_cluster c;
    int rc = tt_cluster_parse(ctx, text, &c);
    fuzz_check_rc(ctx, rc, "tt_cluster_parse");
    if (rc)
        return;
    int64_t gpus = (int64_t)c.racks * c.nodes_per_rack * c.gpus_per_node;
    FUZZ_CHECK(c.racks >= 1 && c.nodes_per_rack >= 1 && c.gpus_per_node >= 1 &&
                   gpus <= TT_MAX_CLUSTER_GPUS, "cluster '%s' out of range", text);
    char buf[64];
    tt_cluster d;
    tt_cluster_format(&c, buf, sizeof buf);
    FUZZ_CHECK(tt_cluster_parse(ctx, buf, &d) == 0 && memcmp(&c, &d, sizeof c) == 0,
               "cluster '%s' written as '%s' reads back otherwise", text, buf);
}

/* Times around the transitions of the zones that have them, and the ends of
 * the calendar. */
static void zone_times(const tt_tz *tz)
{
    static const char *const times[] = {
        "1970-01-01 00:00",    "2021-03-14 02:30:00", "2021-11-07 01:30:00",
        "1883-11-18 12:00:00", "0000-01-01T00:00",    "9999-12-31T23:59:60.999",
        "2038-01-19 03:14:08", "1901-12-13 20:45:52"};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        int64_t t;
        int flags = 0;
        FUZZ_CHECK(tt_time_parse(times[i], tz, &t, &flags) == 0, "'%s' not read", times[i]);
    }
}

static void zone(tt_ctx *ctx, const char *name)
{
    tt_tz *tz = NULL;
    int rc = tt_tz_open(ctx, name, &tz);
    fuzz_check_rc(ctx, rc, "tt_tz_open");
    if (!rc) {
        FUZZ_CHECK(strncmp(tt_tz_name(tz), name, 100) == 0, "zone '%s' named '%s'", name,
                   tt_tz_name(tz));
        zone_times(tz);
    }
    tt_tz_free(tz);
}

static void times(tt_ctx *ctx, int pick, const char *text)
{
    static const char *const zones[] = {"UTC", "+05:45", "America/Los_Angeles"};
    static tt_tz *tz[3];
    pick %= 3;
    if (!tz[pick] && tt_tz_open(ctx, zones[pick], &tz[pick]))
        fuzz_fail("zone %s: %s", zones[pick], tt_errmsg(ctx));
    int64_t t;
    int flags = 0;
    if (tt_time_parse(text, tz[pick], &t, &flags) == 0)
        FUZZ_CHECK((flags & ~(TT_TIME_AMBIGUOUS | TT_TIME_GAP)) == 0, "flags %d", flags);
}

static void tzif(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    fuzz_file("zone", data, size);
    setenv("TZDIR", fuzz_dir(), 1);
    zone(ctx, "zone");
    unsetenv("TZDIR");
}

static void csv_map(tt_ctx *ctx, char *text, size_t size)
{
    char *body = text;
    const char *map = fuzz_line(&body), *tz = fuzz_line(&body);
    tt_ingest_opts o = {"csv", map, tz && *tz ? tz : NULL};
    size_t left = body ? size - (size_t)(body - text) : 0;
    tt_trace *t = NULL;
    int rc = tt_ingest_mem(ctx, &o, body ? body : "", left, "fuzz", &t);
    fuzz_check_rc(ctx, rc, "tt_ingest_mem");
    FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the trace and the return code disagree");
    tt_trace_free(t);
}

/* The mixes of p and q agree exactly. */
static int same_mixes(const tt_gen_params *p, const tt_gen_params *q)
{
    int same = p->ngpu == q->ngpu && p->ndur == q->ndur && p->ngpu_dur == q->ngpu_dur;
    for (int i = 0; same && i < p->ngpu; i++)
        same = p->gpu_k[i] == q->gpu_k[i] && p->gpu_w[i] == q->gpu_w[i];
    for (int i = 0; same && i < p->ndur; i++)
        same = p->dur_w[i] == q->dur_w[i] && p->dur_median[i] == q->dur_median[i] &&
               p->dur_sigma[i] == q->dur_sigma[i];
    for (int i = 0; same && i < p->ngpu_dur; i++) {
        same = p->gpu_dur_k[i] == q->gpu_dur_k[i];
        for (int k = 0; same && k < p->ndur; k++)
            same = p->gpu_dur_w[i][k] == q->gpu_dur_w[i][k];
    }
    return same;
}

/* tt-gen -g, -d and -w (lines), then the mixes of the command line
 * tt_gen_describe writes, which must read back exactly, and a small trace. */
static void gen(tt_ctx *ctx, char *text)
{
    tt_gen_params p, q;
    tt_gen_defaults(&p);
    int (*const parse[3])(tt_ctx *, const char *, tt_gen_params *) = {
        tt_gen_parse_gpus, tt_gen_parse_durations, tt_gen_parse_gpu_durations};
    const char *line;
    for (int k = 0; k < 3 && (line = fuzz_line(&text)); k++)
        fuzz_check_rc(ctx, parse[k](ctx, line, &p), "tt_gen_parse");
    p.jobs = 50;
    int rc = tt_gen_check(ctx, &p);
    fuzz_check_rc(ctx, rc, "tt_gen_check");
    if (rc)
        return;
    char *cmd = tt_gen_describe(&p), *tok, *save = NULL;
    FUZZ_CHECK(cmd, "no description");
    tt_gen_defaults(&q);
    for (tok = strtok_r(cmd, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        int k = strcmp(tok, "-g") == 0   ? 0
                : strcmp(tok, "-d") == 0 ? 1
                : strcmp(tok, "-w") == 0 ? 2
                                         : -1;
        if (k >= 0 && (tok = strtok_r(NULL, " ", &save)))
            FUZZ_CHECK(parse[k](ctx, tok, &q) == 0, "'%s' does not read back: %s", tok,
                       tt_errmsg(ctx));
    }
    free(cmd);
    FUZZ_CHECK(same_mixes(&p, &q), "the mixes tt_gen_describe writes read back otherwise");
    tt_trace *t = NULL;
    rc = tt_gen_run(ctx, &p, &t);
    fuzz_check_rc(ctx, rc, "tt_gen_run");
    FUZZ_CHECK(rc || (t && tt_trace_is_sorted(t)), "an unsorted trace");
    tt_trace_free(t);
}

static void numbers(const char *text)
{
    int64_t v, a, b;
    int32_t v32;
    double d;
    char buf[32];
    if (tt_parse_i64(text, &v) == 0) {
        snprintf(buf, sizeof buf, "%lld", (long long)v);
        int64_t w;
        FUZZ_CHECK(tt_parse_i64(buf, &w) == 0 && w == v, "i64 '%s' -> %s", text, buf);
    }
    if (tt_parse_i32(text, &v32) == 0)
        FUZZ_CHECK(tt_parse_i64(text, &v) == 0 && v == v32, "i32 '%s'", text);
    if (tt_parse_f64(text, &d) == 0)
        FUZZ_CHECK(d - d == 0, "f64 '%s' is not finite", text);
    tt_parse_round(text, &v);
    tt_parse_milli(text, &v);
    if (tt_parse_range(text, &a, &b) == 0)
        FUZZ_CHECK(a >= 0 && b > a, "range '%s' = %lld:%lld", text, (long long)a, (long long)b);
    tt_is_missing(text);
}

int fuzz_params(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tt_ctx *ctx = tt_ctx_create();
    char *text = fuzz_text(data + 1, size - 1);
    switch (data[0] % 8) {
    case 0: params(ctx, text); break;
    case 1: cluster(ctx, text); break;
    case 2: zone(ctx, text); break;
    case 3: times(ctx, size > 1 ? data[1] : 0, size > 1 ? text + 1 : text); break;
    case 4: tzif(ctx, data + 1, size - 1); break;
    case 5: csv_map(ctx, text, strlen(text)); break;
    case 6: gen(ctx, text); break;
    default: numbers(text); break;
    }
    free(text);
    tt_ctx_free(ctx);
    return 0;
}
