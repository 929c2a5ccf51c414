/* The ingest driver: picks the format, hands its parser the inputs one at
 * a time, then sorts, counts duplicates and fills in provenance. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/csv.h"
#include "base/shown.h"
#include "ingest/ingest_impl.h"
#include "tt/parse.h"

static const tt_format *const formats[] = {
    &tt_fmt_philly_json, &tt_fmt_philly_csv, &tt_fmt_helios, &tt_fmt_acme,
    &tt_fmt_pai,         &tt_fmt_pai_sim,    &tt_fmt_openb,  &tt_fmt_gavel,
    &tt_fmt_tiresias,    &tt_fmt_swf,        &tt_fmt_csv,    &tt_fmt_alibaba2018};
#define NFORMATS (sizeof formats / sizeof formats[0])

const char *const *tt_ingest_format_list(void)
{
    static const char *names[NFORMATS + 1];
    for (size_t i = 0; i < NFORMATS; i++)
        names[i] = formats[i]->name;
    names[NFORMATS] = NULL;
    return names;
}

static const tt_format *find_format(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

const char *tt_ingest_format_help(const char *name)
{
    const tt_format *f = find_format(name);
    return f ? f->help : NULL;
}

/* ---- inputs ---- */

struct ig_input {
    const char *path;  /* a file or "-"; NULL for a memory input */
    const void *buf;   /* a memory input */
    size_t len;
    const char *label; /* a memory input's name */
    tt_src *src;       /* while open */
    int digested;      /* sha holds the digest of all its raw bytes */
    char sha[65];
};

const char *tt_ig_label(const ig_state *ig, int i)
{
    const ig_input *in = &ig->in[i];
    if (!in->path)
        return in->label;
    return strcmp(in->path, "-") == 0 ? "<stdin>" : in->path;
}

int tt_ig_open(ig_state *ig, int i)
{
    ig_input *in = &ig->in[i];
    if (!in->src) {
        int rc = in->path ? tt_src_open(ig->ctx, in->path, &in->src)
                          : tt_src_open_mem(ig->ctx, in->buf, in->len, in->label, &in->src);
        if (rc)
            return rc;
    }
    ig->src = in->src;
    ig->cur = i;
    return 0;
}

int tt_ig_close(ig_state *ig, int i)
{
    ig_input *in = &ig->in[i];
    if (!in->src)
        return 0;
    int rc = tt_src_finish(in->src, ig->ctx, in->sha);
    in->digested = rc == 0;
    if (ig->src == in->src)
        ig->src = NULL;
    tt_src_close(in->src);
    in->src = NULL;
    return rc;
}

int tt_ig_each_input(ig_state *ig, int (*one)(ig_state *ig))
{
    for (int i = 0; i < ig->n; i++) {
        int rc;
        if ((rc = tt_ig_open(ig, i)) || (rc = one(ig)) || (rc = tt_ig_close(ig, i)))
            return rc;
    }
    return 0;
}

/* ---- helpers for parsers ---- */

void tt_ig_row(ig_state *ig) { ig->trace->prov.rows_read++; }

/* Where a row with parents came from: its parents are looked up when every
 * row is in, after the input is closed. */
struct ig_deprow {
    int64_t row, line;
    int input;
};

static int note_deprow(ig_state *ig)
{
    if (ig->ndeprows == ig->deprows_cap) {
        int64_t cap = ig->deprows_cap ? ig->deprows_cap * 2 : 256;
        struct ig_deprow *p =
            (struct ig_deprow *)realloc(ig->deprows, (size_t)cap * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        ig->deprows = p;
        ig->deprows_cap = cap;
    }
    struct ig_deprow *d = &ig->deprows[ig->ndeprows++];
    d->row = ig->trace->n;
    d->line = ig->src ? tt_src_lineno(ig->src) : 0;
    d->input = ig->cur;
    return 0;
}

int tt_ig_keep(ig_state *ig, const tt_job *j)
{
    /* the engine's bounds, checked here so that a trace tt-ingest writes
     * is one every later tool takes */
    if (j->submit < -TT_SUBMIT_MAX || j->submit > TT_SUBMIT_MAX)
        return tt_ig_fail(ig, "field '%s': submit %lld is out of range (-2^40 .. 2^40 s)",
                          ig->submit_field, (long long)j->submit);
    if (j->duration < 0 || j->duration > TT_DURATION_MAX)
        return tt_ig_fail(ig, "field '%s': duration %lld is out of range (0 .. 2^32)",
                          ig->duration_field, (long long)j->duration);
    if (((j->has & TT_COL_DEPS) && j->deps && *j->deps && note_deprow(ig)) ||
        tt_trace_append(ig->trace, j))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory after %lld jobs",
                      (long long)ig->trace->n);
    ig->trace->prov.rows_kept++;
    return 0;
}

void tt_ig_drop(ig_state *ig, int reason) { ig->trace->prov.dropped[reason]++; }

int tt_ig_fail(ig_state *ig, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!ig->src)
        return tt_err(ig->ctx, TT_EPARSE, "%s", msg);
    return tt_err(ig->ctx, TT_EPARSE, "%s:%lld: %s", tt_src_label(ig->src),
                  (long long)tt_src_lineno(ig->src), msg);
}

int tt_ig_line(ig_state *ig, char **line)
{
    for (;;) {
        int rc = tt_src_getline(ig->src, ig->ctx, line, NULL);
        if (rc <= 0)
            return rc;
        const char *p = *line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            return 1;
    }
}

int tt_ig_header(ig_state *ig, char **line)
{
    int rc = tt_ig_line(ig, line);
    if (rc != 0)
        return rc;
    int64_t at = tt_src_lineno(ig->src); /* 0 for no bytes: the header is line 1 */
    return tt_err(ig->ctx, TT_EEMPTY, "%s:%lld: empty input: no header line",
                  tt_src_label(ig->src), (long long)(at ? at : 1));
}

int tt_ig_split(ig_state *ig, char *line, char delim, char **f, int max, int want)
{
    int n = tt_csv_split(line, delim, f, max);
    if (n < 0)
        return tt_ig_fail(ig, "unterminated quoted field");
    if (want >= 0 && n != want)
        return tt_ig_fail(ig, "expected %d fields, got %d", want, n);
    if (want < 0 && n < -want)
        return tt_ig_fail(ig, "expected at least %d fields, got %d", -want, n);
    return n;
}

static int bad_number(ig_state *ig, const char *field, const char *text, int rc,
                      const char *what)
{
    char buf[64];
    if (rc == TT_ERANGE)
        return tt_ig_fail(ig, "field '%s': number out of range: '%s'", field,
                       tt_shown(text, buf, sizeof buf));
    return tt_ig_fail(ig, "field '%s': expected %s, got '%s'", field, what,
                   tt_shown(text, buf, sizeof buf));
}

int tt_ig_count(ig_state *ig, const char *field, const char *text, int64_t *out)
{
    if (tt_is_missing(text))
        return tt_ig_fail(ig, "field '%s': value missing", field);
    int rc = tt_parse_round(text, out);
    if (rc)
        return bad_number(ig, field, text, rc, "a number");
    if (*out < 0)
        return tt_ig_fail(ig, "field '%s': negative value '%s'", field, text);
    return 0;
}

int tt_ig_count_opt(ig_state *ig, const char *field, const char *text, int64_t *out)
{
    if (tt_is_missing(text)) {
        *out = TT_TIME_NONE;
        return 0;
    }
    return tt_ig_count(ig, field, text, out);
}

int tt_ig_milli(ig_state *ig, const char *field, const char *text, int64_t *out)
{
    if (tt_is_missing(text))
        return tt_ig_fail(ig, "field '%s': value missing", field);
    int rc = tt_parse_milli(text, out);
    if (rc)
        return bad_number(ig, field, text, rc, "a number");
    if (*out < 0)
        return tt_ig_fail(ig, "field '%s': negative value '%s'", field, text);
    return 0;
}

int tt_ig_time(ig_state *ig, const char *field, const char *text, int64_t *out)
{
    if (tt_is_missing(text)) {
        *out = TT_TIME_NONE;
        return 0;
    }
    if (strlen(text) >= 10 && text[4] == '-') {
        int flags = 0;
        if (tt_time_parse(text, ig->tz, out, &flags)) {
            char buf[64];
            return tt_ig_fail(ig, "field '%s': cannot parse time '%s'", field,
                           tt_shown(text, buf, sizeof buf));
        }
        /* as a negative number of seconds is refused */
        if (*out < 0) {
            char buf[64];
            return tt_ig_fail(ig, "field '%s': time '%s' is before 1970-01-01 00:00 UTC", field,
                              tt_shown(text, buf, sizeof buf));
        }
        if (flags & TT_TIME_AMBIGUOUS)
            ig->trace->prov.ambiguous_times++;
        if (flags & TT_TIME_GAP)
            ig->trace->prov.shifted_times++;
        return 0;
    }
    int rc = tt_parse_round(text, out);
    if (rc)
        return bad_number(ig, field, text, rc, "a time (seconds or YYYY-MM-DD HH:MM:SS)");
    if (*out < 0)
        return tt_ig_fail(ig, "field '%s': negative time '%s'", field, text);
    return 0;
}

const char *tt_ig_str(const char *text) { return tt_is_missing(text) ? NULL : text; }

int tt_ig_col(char **hdr, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(tt_trim(hdr[i]), name) == 0)
            return i;
    return -1;
}

int tt_ig_need_col(ig_state *ig, char **hdr, int n, const char *name, int *idx)
{
    *idx = tt_ig_col(hdr, n, name);
    if (*idx < 0)
        return tt_ig_fail(ig, "header has no column '%s'", name);
    return 0;
}

void tt_ig_stem(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(buf, size, "%s", base);
    static const char *const ext[] = {".gz", ".xz", ".trace", ".csv", ".tsv", ".json", ".swf"};
    for (int again = 1; again;) {
        again = 0;
        size_t n = strlen(buf);
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
            size_t e = strlen(ext[i]);
            if (n > e && strcmp(buf + n - e, ext[i]) == 0) {
                buf[n - e] = '\0';
                again = 1;
                break;
            }
        }
    }
}

/* ---- the driver ---- */

/* 1 when line reads as a header of delimited columns (commas or tabs, two
 * fields at least, a letter in each): a CSV export of another layout, which
 * -f csv's header check explains better than "cannot tell". line is split
 * in place. */
static int header_like(char *line)
{
    char *f[64];
    int n = strchr(line, '\t') ? tt_tab_split(line, f, 64) : tt_csv_split(line, ',', f, 64);
    if (n < 2 || n > 64)
        return 0;
    for (int i = 0; i < n; i++) {
        const char *c = f[i];
        while (*c && !((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            c++;
        if (!*c)
            return 0;
    }
    return 1;
}

/* Picks the format for -f auto from the first input's first bytes; *guess
 * is 1 when no format's header matched but the line is a header, read as
 * csv. */
static int detect_format(tt_ctx *ctx, tt_src *s, const tt_format **out, int *guess)
{
    int c;
    while ((c = tt_src_peekc(s, ctx)) == '\n' || c == '\r' || c == ' ' || c == '\t')
        tt_src_getc(s, ctx);
    if (c < -1)
        return tt_errcode(ctx);
    if (c == -1)
        return tt_err(ctx, TT_EEMPTY, "%s:1: empty input", tt_src_label(s));
    if (c == '[' || c == '{') {
        *out = &tt_fmt_philly_json;
        return 0;
    }
    char *line;
    int rc = tt_src_getline(s, ctx, &line, NULL);
    if (rc < 0)
        return rc;
    size_t len = strlen(line);
    char *copy = (char *)malloc(len + 1);
    if (!copy)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    int best = 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!formats[i]->detect)
            continue;
        memcpy(copy, line, len + 1);
        int score = formats[i]->detect(copy);
        if (score > best) {
            best = score;
            *out = formats[i];
        }
    }
    if (!best) {
        memcpy(copy, line, len + 1);
        if ((*guess = header_like(copy)) != 0)
            *out = &tt_fmt_csv;
    }
    free(copy);
    tt_src_ungetline(s);
    if (!best && !*guess)
        return tt_err(ctx, TT_EFORMAT,
                      "%s:%lld: cannot tell the trace format from this line; name it with -f",
                      tt_src_label(s), (long long)tt_src_lineno(s));
    return 0;
}

static int finish(ig_state *ig, const tt_format *fmt)
{
    tt_trace *t = ig->trace;
    tt_provenance *p = &t->prov;
    for (int i = 0; i < ig->n; i++) {
        int rc;
        /* an input the format left open, or never read */
        if (!ig->in[i].digested && ((rc = tt_ig_open(ig, i)) || (rc = tt_ig_close(ig, i))))
            return rc;
        if (tt_prov_add_line(&p->source_files, tt_ig_label(ig, i)) ||
            tt_prov_add_line(&p->source_sha256, ig->in[i].sha))
            return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    }
    if (tt_prov_set(&p->format, fmt->name) ||
        (fmt->time_base && tt_prov_set(&p->time_base, fmt->time_base)) ||
        tt_prov_set(&p->timezone, tt_tz_name(ig->tz)))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    if (p->rows_read == 0)
        return tt_err(ig->ctx, TT_EEMPTY, "%s: no job rows", tt_ig_label(ig, 0));
    if (t->n == 0) {
        char why[512] = "";
        size_t w = 0;
        for (int r = 0; r < TT_DROP_COUNT; r++)
            if (p->dropped[r] && w < sizeof why)
                w += (size_t)snprintf(why + w, sizeof why - w, "%s%lld %s", w ? ", " : "",
                                      (long long)p->dropped[r], tt_drop_name(r));
        return tt_err(ig->ctx, TT_EEMPTY, "%s: no job can be simulated (%lld rows: %s)",
                      tt_ig_label(ig, 0), (long long)p->rows_read, why);
    }
    int64_t bad;
    int rc = tt_trace_link_deps(ig->ctx, t, &bad);
    if (rc == TT_EPARSE) {
        /* the row that names no job, as its input and line */
        int64_t lo = 0, hi = ig->ndeprows - 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (ig->deprows[mid].row < bad)
                lo = mid + 1;
            else
                hi = mid;
        }
        char msg[512];
        snprintf(msg, sizeof msg, "%s", tt_errmsg(ig->ctx));
        const struct ig_deprow *d = &ig->deprows[lo];
        return tt_err(ig->ctx, TT_EPARSE, "%s:%lld: field '%s': %s",
                      tt_ig_label(ig, d->input), (long long)d->line,
                      ig->deps_field[0] ? ig->deps_field : "deps", msg);
    }
    if (rc)
        return rc;
    if (tt_trace_sort(t))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory sorting %lld jobs", (long long)t->n);
    int64_t d = tt_trace_count_duplicates(t);
    if (d < 0)
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory counting duplicates");
    p->duplicates = d;
    return 0;
}

/* The format named in opts: -m (a column map) implies csv; auto tells it
 * from the first input, which is left open with its first line unread. */
static int pick_format(ig_state *ig, const tt_format **out, int *guess)
{
    const tt_ingest_opts *opts = ig->opts;
    const char *fname = opts && opts->format ? opts->format : "auto";
    int rc;
    if (strcmp(fname, "auto") == 0) {
        if (opts && opts->map)
            *out = &tt_fmt_csv;
        else if ((rc = tt_ig_open(ig, 0)) || (rc = detect_format(ig->ctx, ig->src, out, guess)))
            return rc;
    } else if (!(*out = find_format(fname))) {
        return tt_err(ig->ctx, TT_EINVAL, "unknown format '%s'", fname);
    }
    if (opts && opts->map && *out != &tt_fmt_csv)
        return tt_err(ig->ctx, TT_EINVAL, "-m (column map) applies to -f csv only, not %s",
                      (*out)->name);
    return 0;
}

static int parse_all(ig_state *ig, tt_trace **out)
{
    const tt_format *fmt = NULL;
    int guess = 0;
    int rc = pick_format(ig, &fmt, &guess);
    if (rc)
        return rc;
    const tt_ingest_opts *opts = ig->opts;
    const char *zone = opts && opts->tz ? opts->tz : fmt->default_tz ? fmt->default_tz : "UTC";
    if ((rc = tt_tz_open(ig->ctx, zone, &ig->tz)))
        return rc;
    if (!(ig->trace = tt_trace_create()))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    ig->submit_field = fmt->submit_field;
    ig->duration_field = fmt->duration_field;
    if ((rc = fmt->parse(ig)) || (rc = finish(ig, fmt))) {
        if (guess && rc != TT_ENOMEM) { /* said as -f csv says it, and why csv */
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", tt_errmsg(ig->ctx));
            tt_err(ig->ctx, rc, "%s; read as csv: no other format's header matched (-f names "
                   "one)", msg);
        }
        return rc;
    }
    *out = ig->trace;
    ig->trace = NULL;
    return 0;
}

static int run(tt_ctx *ctx, const tt_ingest_opts *opts, ig_input *in, int n, tt_trace **out)
{
    ig_state ig;
    memset(&ig, 0, sizeof ig);
    ig.ctx = ctx;
    ig.opts = opts;
    ig.n = n;
    ig.in = in;
    int rc = parse_all(&ig, out);
    for (int i = 0; i < n; i++)
        tt_src_close(in[i].src);
    tt_trace_free(ig.trace);
    tt_tz_free(ig.tz);
    free(ig.deprows);
    return rc;
}

int tt_ingest(tt_ctx *ctx, const tt_ingest_opts *opts, const char *const *inputs, int n,
              tt_trace **out)
{
    *out = NULL;
    if (n < 1)
        return tt_err(ctx, TT_EINVAL, "no input");
    int nstdin = 0;
    for (int i = 0; i < n; i++)
        nstdin += strcmp(inputs[i], "-") == 0;
    if (nstdin > 1)
        return tt_err(ctx, TT_EINVAL, "'-' (stdin) given more than once");
    /* Inputs are opened one at a time while parsing; a missing one is
     * still found before the first is read. */
    for (int i = 0; i < n; i++)
        if (strcmp(inputs[i], "-") != 0 && access(inputs[i], R_OK) != 0)
            return tt_err(ctx, TT_EIO, "cannot open '%s': %s", inputs[i], strerror(errno));
    ig_input *in = (ig_input *)calloc((size_t)n, sizeof *in);
    if (!in)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        in[i].path = inputs[i];
    int rc = run(ctx, opts, in, n, out);
    free(in);
    return rc;
}

int tt_ingest_mem(tt_ctx *ctx, const tt_ingest_opts *opts, const void *buf, size_t len,
                  const char *label, tt_trace **out)
{
    *out = NULL;
    ig_input in;
    memset(&in, 0, sizeof in);
    in.buf = buf;
    in.len = len;
    in.label = label;
    return run(ctx, opts, &in, 1, out);
}
