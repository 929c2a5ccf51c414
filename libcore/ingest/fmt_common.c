/* Pieces shared by the CSV job-table formats: see internal/fmt_common.h. */
#include "ingest/fmt_common.h"

#include <string.h>

#include "tt/parse.h"

int tt_fc_detect_header(const char *line, const char *header)
{
    size_t n = strlen(header);
    if (strncmp(line, header, n) != 0)
        return 0;
    for (line += n; *line == ' ' || *line == '\t'; line++)
        ;
    return *line ? 0 : 10;
}

int tt_fc_header_starts(const char *line, const char *prefix)
{
    return strncmp(line, prefix, strlen(prefix)) == 0;
}

int tt_fc_header(ig_state *ig, fc_csv *c)
{
    char *line;
    int rc = tt_ig_header(ig, &line);
    if (rc < 0)
        return rc;
    int64_t at = tt_src_lineno(ig->src);
    int n = tt_ig_split(ig, line, ',', c->f, FC_MAXF, -1);
    if (n < 0)
        return n;
    if (n > FC_MAXF)
        return tt_ig_fail(ig, "header has %d columns, at most %d expected", n, FC_MAXF);
    c->n = n;
    c->header_line = at;
    c->rows = 0;
    return 0;
}

int tt_fc_row(ig_state *ig, fc_csv *c)
{
    char *line;
    int rc = tt_ig_line(ig, &line);
    if (rc < 0)
        return rc;
    if (rc == 0) {
        if (c->rows == 0)
            return tt_err(ig->ctx, TT_EEMPTY, "%s:%lld: header only: no job rows",
                          tt_src_label(ig->src), (long long)c->header_line);
        return 0;
    }
    if ((rc = tt_ig_split(ig, line, ',', c->f, FC_MAXF, c->n)) < 0)
        return rc;
    tt_ig_row(ig);
    c->rows++;
    return 1;
}

int tt_fc_add(ig_state *ig, const char *field, int64_t a, int64_t b, int64_t *out)
{
    /* a + b <= INT64_MIN is an overflow or the TT_TIME_NONE marker */
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a <= INT64_MIN - b))
        return tt_ig_fail(ig, "field '%s': time out of range (%lld + %lld)", field, (long long)a,
                       (long long)b);
    *out = a + b;
    return 0;
}

int tt_fc_gpus(ig_state *ig, const char *field, int64_t gpus, int32_t *out)
{
    if (gpus > INT32_MAX / 1000) /* gpu_milli = gpus * 1000 is an int32 */
        return tt_ig_fail(ig, "field '%s': %lld GPUs is out of range", field, (long long)gpus);
    *out = (int32_t)gpus;
    return 0;
}

int tt_fc_count32_opt(ig_state *ig, const char *field, const char *text, int32_t *out)
{
    int64_t v;
    int rc = tt_ig_count_opt(ig, field, text, &v);
    if (rc)
        return rc;
    if (v == TT_TIME_NONE) {
        *out = TT_NONE32;
        return 0;
    }
    if (v > INT32_MAX)
        return tt_ig_fail(ig, "field '%s': %lld is out of range", field, (long long)v);
    *out = (int32_t)v;
    return 0;
}

int tt_fc_observed_run(tt_job *j)
{
    if (j->start == TT_TIME_NONE)
        return TT_DROP_NOT_STARTED;
    if (j->end == TT_TIME_NONE)
        return TT_DROP_NOT_FINISHED;
    if (j->end < j->start)
        return TT_DROP_END_BEFORE_START;
    /* No overflow: parsed times lie within +-9.2e18 and end >= start. */
    if (j->duration == TT_TIME_NONE)
        j->duration = j->end - j->start;
    return -1;
}

/* An ISO time without "+HH:MM", "-HH:MM" or "Z" after the date. */
static int naive_iso(const char *text)
{
    return strlen(text) > 10 && text[4] == '-' && !strpbrk(text + 10, "+-Z");
}

static int log_time(ig_state *ig, int need_offset, const char *field, const char *text,
                    int64_t *out)
{
    /* A log whose files differ in zone (Acme: +08:00 and +00:00) gives
     * naive times no safe default: a guess would shift jobs by hours. */
    if (need_offset && naive_iso(text) && !(ig->opts && ig->opts->tz))
        return tt_ig_fail(ig,
                       "field '%s': time '%.40s' has no UTC offset (name its zone with --tz)",
                       field, text);
    return tt_ig_time(ig, field, text, out);
}

int tt_fc_job_log(ig_state *ig, int with_vc, int need_offset)
{
    fc_csv c;
    int rc = tt_fc_header(ig, &c);
    if (rc)
        return rc;
    int cid, cuser, cvc = -1, cgpu, cnode, cstate, csub, cstart, cend;
    if ((rc = tt_ig_need_col(ig, c.f, c.n, "job_id", &cid)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "user", &cuser)) ||
        (with_vc && (rc = tt_ig_need_col(ig, c.f, c.n, "vc", &cvc))) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "gpu_num", &cgpu)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "node_num", &cnode)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "state", &cstate)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "submit_time", &csub)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "start_time", &cstart)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "end_time", &cend)))
        return rc;
    /* The run time is end - start. Helios' and Seren's duration column is
     * exactly that, but Kalos' includes the queueing wait (README rows:
     * duration 18 = 10 s queue + 8 s run), so the column is only checked. */
    int cdur = tt_ig_col(c.f, c.n, "duration");
    while ((rc = tt_fc_row(ig, &c)) == 1) {
        char **f = c.f;
        tt_job j = tt_job_empty();
        int64_t gpus;
        if ((rc = tt_ig_count(ig, "gpu_num", f[cgpu], &gpus)) ||
            (rc = tt_fc_count32_opt(ig, "node_num", f[cnode], &j.nodes)) ||
            (rc = log_time(ig, need_offset, "submit_time", f[csub], &j.submit)) ||
            (rc = log_time(ig, need_offset, "start_time", f[cstart], &j.start)) ||
            (rc = log_time(ig, need_offset, "end_time", f[cend], &j.end)) ||
            (cdur >= 0 && (rc = tt_ig_count_opt(ig, "duration", f[cdur], &j.duration))))
            return rc;
        if (j.submit == TT_TIME_NONE)
            return tt_ig_fail(ig, "field 'submit_time': value missing");
        if (gpus == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        if ((rc = tt_fc_gpus(ig, "gpu_num", gpus, &j.gpus)))
            return rc;
        j.duration = TT_TIME_NONE; /* end - start, set by tt_fc_observed_run */
        int why = tt_fc_observed_run(&j);
        if (why >= 0) {
            tt_ig_drop(ig, why);
            continue;
        }
        j.name = tt_ig_str(f[cid]);
        j.user = tt_ig_str(f[cuser]);
        j.vc = cvc >= 0 ? tt_ig_str(f[cvc]) : NULL;
        j.status = tt_ig_str(f[cstate]);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}
