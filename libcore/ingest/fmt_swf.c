/* swf: the Standard Workload Format of the Parallel Workloads Archive: 18
 * whitespace-separated numeric fields per job, -1 for a missing value,
 * header comments on lines starting with ';'. Times are seconds from the
 * log's start; a "; UnixStartTime: N" header gives that start as a Unix
 * time, and the times are then made absolute. One processor is taken as
 * one GPU (the archive's logs are of CPU clusters; the format is used for
 * GPU traces too). */
#include <string.h>

#include "base/csv.h"
#include "ingest/ingest_impl.h"
#include "tt/parse.h"

#define NF 18

/* The archive's field names, for messages. */
static const char *const field_name[NF] = {
    "job_number",      "submit_time",   "wait_time",        "run_time",
    "allocated_procs", "avg_cpu_time",  "used_memory",      "requested_procs",
    "requested_time",  "requested_memory", "status",        "user_id",
    "group_id",        "executable",    "queue",            "partition",
    "preceding_job",   "think_time"};

enum { F_JOB, F_SUBMIT, F_WAIT, F_RUN, F_ALLOC, F_REQ = 7, F_STATUS = 10, F_USER, F_QUEUE = 14 };

#define MISSING (-1)

static int all_numeric(char *line)
{
    char *f[NF + 1];
    double d;
    int n = tt_ws_split(line, f, NF + 1);
    if (n != NF)
        return 0;
    for (int i = 0; i < NF; i++)
        if (tt_parse_f64(f[i], &d))
            return 0;
    return 1;
}

static int detect(char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return *line == ';' || all_numeric(line) ? 5 : 0;
}

/* A field used as an integer: -1 (missing) or >= 0; integers written as
 * floats ("3600.0") are rounded. */
static int swf_int(ig_state *ig, int k, const char *text, int64_t *out)
{
    int rc = tt_parse_round(text, out);
    if (rc == TT_ERANGE)
        return tt_ig_fail(ig, "field '%s': number out of range: '%s'", field_name[k], text);
    if (rc)
        return tt_ig_fail(ig, "field '%s': expected a number, got '%s'", field_name[k], text);
    if (*out < MISSING)
        return tt_ig_fail(ig, "field '%s': negative value '%s' (only -1, missing, is allowed)",
                       field_name[k], text);
    return 0;
}

/* A header comment; only UnixStartTime matters. */
static int comment(ig_state *ig, char *text, int seen_job, int64_t *base)
{
    static const char key[] = "UnixStartTime:";
    while (*text == ' ' || *text == '\t')
        text++;
    if (strncmp(text, key, sizeof key - 1) != 0)
        return 0;
    char *v = tt_trim(text + sizeof key - 1);
    if (seen_job)
        return tt_ig_fail(ig, "UnixStartTime header after the first job");
    int rc = tt_parse_i64(v, base);
    if (rc || *base < 0)
        return tt_ig_fail(ig, "field 'UnixStartTime': expected seconds since 1970, got '%s'", v);
    return 0;
}

/* Why a row cannot be simulated, or -1. */
static int drop_reason(int64_t submit, int64_t run, int64_t procs)
{
    if (run == MISSING)
        return TT_DROP_NOT_STARTED;
    if (submit == MISSING)
        return TT_DROP_MISSING_TIME;
    if (procs <= 0)
        return TT_DROP_CPU_ONLY;
    return -1;
}

/* One input; *base is its UnixStartTime, or TT_TIME_NONE. */
static int parse_one(ig_state *ig, int64_t *base)
{
    char *line, *f[NF + 1];
    int rc, seen_job = 0;
    *base = TT_TIME_NONE;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == ';') {
            if ((rc = comment(ig, p + 1, seen_job, base)))
                return rc;
            continue;
        }
        seen_job = 1;
        int n = tt_ws_split(p, f, NF + 1);
        if (n != NF)
            return tt_ig_fail(ig, "expected %d whitespace-separated fields, got %d", NF, n);
        for (int k = 0; k < NF; k++) {
            double d;
            if (tt_parse_f64(f[k], &d))
                return tt_ig_fail(ig, "field '%s': expected a number, got '%s'", field_name[k],
                               f[k]);
        }
        tt_ig_row(ig);
        int64_t v[NF];
        static const int used[] = {F_JOB,  F_SUBMIT, F_WAIT, F_RUN, F_ALLOC,
                                   F_REQ, F_STATUS, F_USER, F_QUEUE};
        for (size_t u = 0; u < sizeof used / sizeof used[0]; u++)
            if ((rc = swf_int(ig, used[u], f[used[u]], &v[used[u]])))
                return rc;
        /* allocated processors; the request when the log has no allocation */
        int64_t procs = v[F_ALLOC] > 0 ? v[F_ALLOC] : v[F_REQ];
        int why = drop_reason(v[F_SUBMIT], v[F_RUN], procs);
        if (why >= 0) {
            tt_ig_drop(ig, why);
            continue;
        }
        if (procs > INT32_MAX / 1000)
            return tt_ig_fail(ig, "field '%s': %lld processors is out of range",
                           field_name[v[F_ALLOC] > 0 ? F_ALLOC : F_REQ], (long long)procs);
        int64_t off = *base == TT_TIME_NONE ? 0 : *base;
        tt_job j = tt_job_empty();
        j.submit = v[F_SUBMIT] + off;
        j.duration = v[F_RUN];
        if (v[F_WAIT] != MISSING) {
            j.start = j.submit + v[F_WAIT];
            j.end = j.start + v[F_RUN];
        }
        j.gpus = (int32_t)procs;
        j.name = v[F_JOB] == MISSING ? NULL : f[F_JOB];
        j.status = v[F_STATUS] == MISSING ? NULL : f[F_STATUS];
        j.user = v[F_USER] == MISSING ? NULL : f[F_USER];
        j.vc = v[F_QUEUE] == MISSING ? NULL : f[F_QUEUE];
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}

static int parse(ig_state *ig)
{
    int64_t first_base = TT_TIME_NONE;
    for (int i = 0; i < ig->n; i++) {
        int64_t base;
        int rc;
        if ((rc = tt_ig_open(ig, i)) || (rc = parse_one(ig, &base)) || (rc = tt_ig_close(ig, i)))
            return rc;
        if (i == 0)
            first_base = base;
        else if ((base == TT_TIME_NONE) != (first_base == TT_TIME_NONE))
            return tt_err(ig->ctx, TT_EPARSE,
                          "%s: %s UnixStartTime header, but %s has %s: cannot mix absolute "
                          "and relative times", tt_ig_label(ig, i),
                          base == TT_TIME_NONE ? "has no" : "has a", tt_ig_label(ig, 0),
                          base == TT_TIME_NONE ? "one" : "none");
    }
    /* absolute times when the logs give their start */
    if (first_base != TT_TIME_NONE && tt_prov_set(&ig->trace->prov.time_base, "unix"))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    return 0;
}

const tt_format tt_fmt_swf = {
    "swf",
    "Standard Workload Format (Parallel Workloads Archive), one processor = one GPU",
    NULL,
    NULL, /* relative, unless parse finds "; UnixStartTime" and sets unix */
    detect,
    parse,
    "submit_time",
    "run_time",
};
