/* philly-json: the raw Philly cluster_job_log, one JSON array of job
 * objects (also a single job object, or JSON Lines). The 38 MB file is read
 * one job at a time. Per job: jobid, user, vc, status, submitted_time (naive
 * US Pacific) and attempts[], each with start_time, end_time and detail[]
 * of {ip, gpus[]}. The run time is the sum of the attempts' run times (the
 * Pollux convention; its CSV row for the README's example job matches);
 * GPUs and nodes come from the first attempt's placement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest_impl.h"
#include "io/json.h"

/* A kept string value of the current job (NULL when absent). */
typedef struct pj_str {
    char *s;
    size_t cap;
    int set;
} pj_str;

typedef struct pj_job {
    pj_str name, user, vc, status;
    int seen; /* bit per known key: duplicates are refused */
    int64_t submit;
    int64_t attempts;
    int64_t first_start, last_end, runtime;
    int last_end_missing; /* of the latest attempt read so far */
    int other_missing;    /* an absent time other than first start / last end */
    int end_before_start;
    int64_t gpus, nodes; /* of attempts[0] */
} pj_job;

typedef struct pj {
    ig_state *ig;
    tt_json js;
    pj_job job;
} pj;

static int str_keep(pj *p, pj_str *dst, const char *src, size_t len)
{
    if (len + 1 > dst->cap) {
        char *nb = (char *)realloc(dst->s, len + 1);
        if (!nb)
            return tt_err(p->ig->ctx, TT_ENOMEM, "out of memory");
        dst->s = nb;
        dst->cap = len + 1;
    }
    memcpy(dst->s, src, len + 1);
    dst->set = 1;
    return 0;
}

static const char *str_get(const pj_str *s) { return s->set ? s->s : NULL; }

/* A string-or-null field; null leaves it absent. */
static int read_str(pj *p, const char *field, pj_str *dst)
{
    int type, rc = tt_json_read(&p->js, &type);
    if (rc)
        return rc;
    if (type == TT_JSON_NULL)
        return 0;
    if (type != TT_JSON_STRING)
        return tt_ig_fail(p->ig, "field '%s': expected a string or null, got %s", field,
                       tt_json_kind(type));
    return str_keep(p, dst, p->js.buf, p->js.len);
}

/* A time: a string, where null, "None" and "" mean absent (TT_TIME_NONE). */
static int read_time(pj *p, const char *field, int64_t *out)
{
    int type, rc = tt_json_read(&p->js, &type);
    if (rc)
        return rc;
    *out = TT_TIME_NONE;
    if (type == TT_JSON_NULL)
        return 0;
    if (type != TT_JSON_STRING)
        return tt_ig_fail(p->ig, "field '%s': expected a time string or null, got %s", field,
                       tt_json_kind(type));
    return tt_ig_time(p->ig, field, p->js.buf, out);
}

/* Expects the next value to be a container of the given kind, reading its
 * opening bracket. */
static int open_container(pj *p, const char *field, int want)
{
    int type, rc = tt_json_read(&p->js, &type);
    if (rc)
        return rc;
    if (type != want)
        return tt_ig_fail(p->ig, "field '%s': expected %s, got %s", field, tt_json_kind(want),
                       tt_json_kind(type));
    return 0;
}

/* Refuses a key seen before in the same object. */
static int once(pj *p, int *seen, int bit, const char *key)
{
    if (*seen & bit)
        return tt_ig_fail(p->ig, "duplicate key '%s'", key);
    *seen |= bit;
    return 0;
}

/* One detail[] entry {ip, gpus[]}; adds its GPU count to *gpus. */
static int read_node(pj *p, const char *where, int64_t *gpus)
{
    char field[96];
    int rc, seen = 0;
    if ((rc = open_container(p, where, TT_JSON_OBJECT)))
        return rc;
    int64_t nk = 0;
    while ((rc = tt_json_next_key(&p->js, &nk)) == 1) {
        if (strcmp(p->js.buf, "gpus") == 0) {
            snprintf(field, sizeof field, "%s.gpus", where);
            if ((rc = once(p, &seen, 1, "gpus")) ||
                (rc = open_container(p, field, TT_JSON_ARRAY)))
                return rc;
            int64_t ng = 0;
            while ((rc = tt_json_next_elem(&p->js, &ng)) == 1)
                if ((rc = tt_json_skip(&p->js)))
                    return rc;
            if (rc)
                return rc;
            *gpus += ng;
        } else if ((rc = tt_json_skip(&p->js))) {
            return rc;
        }
    }
    return rc;
}

/* One attempt {start_time, end_time, detail[]}, the idx-th (0-based). */
static int read_attempt(pj *p, int64_t idx)
{
    pj_job *jb = &p->job;
    char field[64];
    int rc, seen = 0;
    snprintf(field, sizeof field, "attempts[%lld]", (long long)idx);
    if ((rc = open_container(p, field, TT_JSON_OBJECT)))
        return rc;
    int64_t start = TT_TIME_NONE, end = TT_TIME_NONE, gpus = 0, nodes = 0, nk = 0;
    while ((rc = tt_json_next_key(&p->js, &nk)) == 1) {
        const char *k = p->js.buf;
        if (strcmp(k, "start_time") == 0) {
            snprintf(field, sizeof field, "attempts[%lld].start_time", (long long)idx);
            if ((rc = once(p, &seen, 1, "start_time")) || (rc = read_time(p, field, &start)))
                return rc;
        } else if (strcmp(k, "end_time") == 0) {
            snprintf(field, sizeof field, "attempts[%lld].end_time", (long long)idx);
            if ((rc = once(p, &seen, 2, "end_time")) || (rc = read_time(p, field, &end)))
                return rc;
        } else if (strcmp(k, "detail") == 0) {
            snprintf(field, sizeof field, "attempts[%lld].detail", (long long)idx);
            if ((rc = once(p, &seen, 4, "detail")) ||
                (rc = open_container(p, field, TT_JSON_ARRAY)))
                return rc;
            while ((rc = tt_json_next_elem(&p->js, &nodes)) == 1) {
                char where[64];
                snprintf(where, sizeof where, "attempts[%lld].detail[%lld]", (long long)idx,
                         (long long)nodes - 1);
                if ((rc = read_node(p, where, &gpus)))
                    return rc;
            }
            if (rc)
                return rc;
        } else if ((rc = tt_json_skip(&p->js))) {
            return rc;
        }
    }
    if (rc)
        return rc;
    /* The previous attempt was not the last: an absent end there is a gap. */
    if (idx > 0 && jb->last_end_missing)
        jb->other_missing = 1;
    if (idx == 0) {
        jb->first_start = start;
        jb->gpus = gpus;
        jb->nodes = nodes;
    } else if (start == TT_TIME_NONE) {
        jb->other_missing = 1;
    }
    jb->last_end = end;
    jb->last_end_missing = end == TT_TIME_NONE;
    if (start != TT_TIME_NONE && end != TT_TIME_NONE) {
        if (end < start)
            jb->end_before_start = 1;
        else
            jb->runtime += end - start;
    }
    jb->attempts = idx + 1;
    return 0;
}

static void job_reset(pj_job *jb)
{
    jb->name.set = jb->user.set = jb->vc.set = jb->status.set = 0;
    jb->seen = 0;
    jb->submit = TT_TIME_NONE;
    jb->attempts = 0;
    jb->first_start = jb->last_end = TT_TIME_NONE;
    jb->runtime = 0;
    jb->last_end_missing = jb->other_missing = jb->end_before_start = 0;
    jb->gpus = jb->nodes = 0;
}

enum { K_JOBID = 1, K_USER = 2, K_VC = 4, K_STATUS = 8, K_SUBMIT = 16, K_ATTEMPTS = 32 };

/* Why a complete job cannot be simulated, or -1 when it can. */
static int drop_reason(const pj_job *jb)
{
    if (jb->attempts == 0)
        return TT_DROP_NO_ATTEMPTS;
    if (jb->last_end_missing)
        return TT_DROP_NOT_FINISHED;
    if (jb->first_start == TT_TIME_NONE)
        return TT_DROP_NOT_STARTED;
    if (jb->other_missing)
        return TT_DROP_MISSING_TIME;
    if (jb->end_before_start)
        return TT_DROP_END_BEFORE_START;
    if (jb->gpus == 0)
        return TT_DROP_CPU_ONLY;
    return -1;
}

/* One job object, its '{' next. */
static int read_job(pj *p)
{
    pj_job *jb = &p->job;
    ig_state *ig = p->ig;
    int rc;
    job_reset(jb);
    if ((rc = open_container(p, "job", TT_JSON_OBJECT)))
        return rc;
    int64_t nk = 0;
    while ((rc = tt_json_next_key(&p->js, &nk)) == 1) {
        const char *k = p->js.buf;
        if (strcmp(k, "jobid") == 0) {
            if ((rc = once(p, &jb->seen, K_JOBID, k)) || (rc = read_str(p, "jobid", &jb->name)))
                return rc;
        } else if (strcmp(k, "user") == 0) {
            if ((rc = once(p, &jb->seen, K_USER, k)) || (rc = read_str(p, "user", &jb->user)))
                return rc;
        } else if (strcmp(k, "vc") == 0) {
            if ((rc = once(p, &jb->seen, K_VC, k)) || (rc = read_str(p, "vc", &jb->vc)))
                return rc;
        } else if (strcmp(k, "status") == 0) {
            if ((rc = once(p, &jb->seen, K_STATUS, k)) ||
                (rc = read_str(p, "status", &jb->status)))
                return rc;
        } else if (strcmp(k, "submitted_time") == 0) {
            if ((rc = once(p, &jb->seen, K_SUBMIT, k)) ||
                (rc = read_time(p, "submitted_time", &jb->submit)))
                return rc;
            if (jb->submit == TT_TIME_NONE)
                return tt_ig_fail(ig, "field 'submitted_time': value missing");
        } else if (strcmp(k, "attempts") == 0) {
            if ((rc = once(p, &jb->seen, K_ATTEMPTS, k)) ||
                (rc = open_container(p, "attempts", TT_JSON_ARRAY)))
                return rc;
            int64_t na = 0;
            while ((rc = tt_json_next_elem(&p->js, &na)) == 1)
                if ((rc = read_attempt(p, na - 1)))
                    return rc;
            if (rc)
                return rc;
        } else if ((rc = tt_json_skip(&p->js))) {
            return rc;
        }
    }
    if (rc)
        return rc;
    const char *id = jb->name.set ? jb->name.s : "?";
    if (!(jb->seen & K_SUBMIT))
        return tt_ig_fail(ig, "field 'submitted_time': missing in job '%s' (ending here)", id);
    if (!(jb->seen & K_ATTEMPTS))
        return tt_ig_fail(ig, "field 'attempts': missing in job '%s' (ending here)", id);
    if (jb->gpus > INT32_MAX / 1000)
        return tt_ig_fail(ig, "field 'attempts[0].detail': %lld GPUs is out of range in job '%s'",
                       (long long)jb->gpus, id);
    tt_ig_row(ig);
    int why = drop_reason(jb);
    if (why >= 0) {
        tt_ig_drop(ig, why);
        return 0;
    }
    tt_job j = tt_job_empty();
    j.submit = jb->submit;
    j.start = jb->first_start;
    j.end = jb->last_end;
    j.duration = jb->runtime;
    j.gpus = (int32_t)jb->gpus;
    j.nodes = jb->nodes > INT32_MAX ? INT32_MAX : (int32_t)jb->nodes;
    j.name = str_get(&jb->name);
    j.user = str_get(&jb->user);
    j.vc = str_get(&jb->vc);
    j.status = str_get(&jb->status);
    return tt_ig_keep(ig, &j);
}

/* The byte after a JSON Lines object must end its line. */
static int line_end(pj *p)
{
    tt_src *s = p->ig->src;
    for (;;) {
        int c = tt_src_peekc(s, p->ig->ctx);
        if (c < -1)
            return c + 1;
        if (c == -1 || c == '\n')
            return 0;
        tt_src_getc(s, p->ig->ctx);
        if (c != ' ' && c != '\t' && c != '\r') {
            char b[24];
            return tt_json_fail(&p->js, "expected a new line after the job object, got %s",
                                tt_json_shown(c, b));
        }
    }
}

static int parse_one(pj *p)
{
    int c, rc = tt_json_peek(&p->js, &c);
    if (rc || c == -1)
        return rc; /* an empty input has no job rows: the driver says so */
    if (c == '{') {
        /* one job object, or JSON Lines: one object per line */
        for (;;) {
            if ((rc = read_job(p)) || (rc = line_end(p)) || (rc = tt_json_peek(&p->js, &c)))
                return rc;
            if (c == -1)
                return 0;
            if (c != '{') {
                char b[24];
                tt_src_getc(p->ig->src, p->ig->ctx);
                return tt_json_fail(&p->js, "expected a job object '{' on a new line, got %s",
                                    tt_json_shown(c, b));
            }
        }
    }
    char b[24];
    if (c != '[') {
        tt_src_getc(p->ig->src, p->ig->ctx);
        return tt_json_fail(&p->js,
                            "expected '[' (an array of jobs) or '{' (a job object), got %s",
                            tt_json_shown(c, b));
    }
    if ((rc = open_container(p, "top level", TT_JSON_ARRAY)))
        return rc;
    int64_t n = 0;
    while ((rc = tt_json_next_elem(&p->js, &n)) == 1) {
        if ((rc = tt_json_peek(&p->js, &c)))
            return rc;
        if (c != '{') {
            int type;
            if ((rc = tt_json_read(&p->js, &type)))
                return rc;
            return tt_ig_fail(p->ig, "element %lld of the top-level array is %s, not a job object",
                           (long long)n, tt_json_kind(type));
        }
        if ((rc = read_job(p)))
            return rc;
    }
    if (rc || (rc = tt_json_peek(&p->js, &c)))
        return rc;
    if (c != -1) {
        tt_src_getc(p->ig->src, p->ig->ctx);
        return tt_json_fail(&p->js, "data after the end of the top-level array: %s",
                            tt_json_shown(c, b));
    }
    return 0;
}

static int parse(ig_state *ig)
{
    pj p;
    memset(&p, 0, sizeof p);
    p.ig = ig;
    int rc = 0;
    for (int i = 0; i < ig->n && !rc; i++) {
        if ((rc = tt_ig_open(ig, i)))
            break;
        tt_json_init(&p.js, ig->src, ig->ctx);
        rc = parse_one(&p);
        tt_json_free(&p.js);
        if (!rc)
            rc = tt_ig_close(ig, i);
    }
    free(p.job.name.s);
    free(p.job.user.s);
    free(p.job.vc.s);
    free(p.job.status.s);
    return rc;
}

const tt_format tt_fmt_philly_json = {
    "philly-json",
    "raw Philly cluster_job_log: a JSON array of jobs (or one job, or JSON Lines)",
    "America/Los_Angeles",
    "unix",
    NULL, /* the driver tells JSON from its leading '[' or '{' */
    parse,
    "submitted_time",
    "attempts",
};
