/* csv: generic delimited text with one header line, tab-separated when the
 * header holds a tab, else comma-separated. Columns are found by common
 * header names (case-insensitive) or named with -m key=COL,...; what tt-cat
 * prints reads back unchanged. Times are seconds (time base "relative") or
 * calendar times ("unix"), one kind in all the inputs. Rows without submit,
 * GPUs or a run time (pending jobs in real exports) are dropped, counted.
 * The optional columns of SPEC 10.6 and 12.7 go by their own names (deps:
 * the parents' names joined by ';'). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/csv.h"
#include "ingest/ingest_impl.h"
#include "trace/optcols.h"
#include "tt/parse.h"

#define MAXF 256

enum { K_SUBMIT, K_DURATION, K_GPUS, K_START, K_END, K_NAME, K_USER, K_VC, K_MODEL, K_STATUS,
       K_NODES, K_GPU_MILLI, K_ELASTIC, K_GPUS_MIN, K_GPUS_MAX, K_WF, K_DEPS, K_MID, K_MEM_MB,
       K_OUT_MB, NKEYS };

static const char *const keys[NKEYS] = {
    "submit", "duration", "gpus",     "start",    "end", "name", "user",
    "vc",     "model",    "status",   "nodes",    "gpu_milli", "elastic", "gpus_min",
    "gpus_max", "wf",     "deps",     "mid",      "mem_mb",    "out_mb"};
#define KEY_LIST "submit duration gpus start end name user vc model status nodes gpu_milli " \
                 "elastic gpus_min gpus_max wf deps mid mem_mb out_mb"

/* The optional integer columns: their bit and the values they take. */
static const struct {
    int key;
    unsigned bit;
    int64_t lo, hi;
    int zero_ok; /* 0 for a GPU bound: -1 is "none", 0 GPUs is no size */
    const char *range;
} optkeys[] = {
    {K_ELASTIC, TT_COL_ELASTIC, -1, 1, 1, "-1, 0 or 1"},
    {K_GPUS_MIN, TT_COL_GPUS_MIN, -1, INT32_MAX, 0, "-1 (no bound) or 1 .. 2^31-1"},
    {K_GPUS_MAX, TT_COL_GPUS_MAX, -1, INT32_MAX, 0, "-1 (no bound) or 1 .. 2^31-1"},
    {K_WF, TT_COL_WF, -1, INT64_MAX, 1, "-1 (not a task) or more"},
    {K_MID, TT_COL_MID, -1, INT32_MAX, 1, "-1 .. 2^31-1"},
    {K_MEM_MB, TT_COL_MEM_MB, -1, INT32_MAX, 1, "-1 .. 2^31-1"},
    {K_OUT_MB, TT_COL_OUT_MB, 0, INT32_MAX, 1, "0 .. 2^31-1"},
};
#define NOPTKEYS (int)(sizeof optkeys / sizeof optkeys[0])

/* Header names recognised per key; when several are in a header, the one
 * listed first wins. "queue" is not a VC name: Helios and Acme use it for
 * the queueing time, so it would turn numbers into VCs. */
#define NALIAS 10
static const char *const aliases[NKEYS][NALIAS] = {
    [K_SUBMIT] = {"submit", "submit_time", "submitted_time", "submission_time", "timestamp",
                  "arrival_time", "creation_time"},
    [K_DURATION] = {"duration", "run_time", "runtime", "elapsed"},
    [K_GPUS] = {"gpus", "num_gpus", "num_gpu", "gpu_num", "ngpus", "gpu_count", "gpu_request",
                "gpus_requested", "requested_gpus", "scale_factor"},
    [K_START] = {"start", "start_time"},
    [K_END] = {"end", "end_time", "finish_time"},
    [K_NAME] = {"name", "job_id", "jobid", "job_name", "id"},
    [K_USER] = {"user", "user_id", "username"},
    [K_VC] = {"vc", "cluster", "virtual_cluster", "partition"},
    [K_MODEL] = {"model", "model_name", "job_type"},
    [K_STATUS] = {"status", "state"},
    [K_NODES] = {"nodes", "node_num", "num_nodes"},
    [K_GPU_MILLI] = {"gpu_milli"},
    [K_ELASTIC] = {"elastic"},
    [K_GPUS_MIN] = {"gpus_min"},
    [K_GPUS_MAX] = {"gpus_max"},
    [K_WF] = {"wf"},
    [K_DEPS] = {"deps"},
    [K_MID] = {"mid"},
    [K_MEM_MB] = {"mem_mb"},
    [K_OUT_MB] = {"out_mb"},
};


static int split(ig_state *ig, char *line, char delim, char **f, int want)
{
    if (delim == ',')
        return tt_ig_split(ig, line, ',', f, MAXF, want);
    int n = tt_tab_split(line, f, MAXF);
    if (n != want)
        return tt_ig_fail(ig, "expected %d fields, got %d", want, n);
    return n;
}

/* Column of header names hdr[0..n) matching an alias of key k, skipping
 * columns taken by -m (used[i]), or -1. */
static int find_alias(char **hdr, int n, const char *used, int k)
{
    for (int a = 0; a < NALIAS && aliases[k][a]; a++)
        for (int i = 0; i < n; i++)
            if (!used[i] && strcasecmp(hdr[i], aliases[k][a]) == 0)
                return i;
    return -1;
}

/* 1 for a header with submit and gpus columns: the fallback, below the
 * named formats' 10. */
static int detect(char *line)
{
    char *f[MAXF], used[MAXF] = {0};
    int n = strchr(line, '\t') ? tt_tab_split(line, f, MAXF) : tt_csv_split(line, ',', f, MAXF);
    if (n < 2 || n > MAXF)
        return 0;
    for (int i = 0; i < n; i++)
        f[i] = tt_trim(f[i]);
    return find_alias(f, n, used, K_SUBMIT) >= 0 && find_alias(f, n, used, K_GPUS) >= 0;
}

/* The -m map: a column name per key, or NULL. */
typedef struct {
    char *copy; /* the -m string, split in place */
    const char *col[NKEYS];
} usermap;

static int parse_map(ig_state *ig, usermap *m)
{
    memset(m, 0, sizeof *m);
    const char *s = ig->opts ? ig->opts->map : NULL;
    if (!s)
        return 0;
    if (!(m->copy = strdup(s)))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    char *save = NULL;
    for (char *e = strtok_r(m->copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(e, '=');
        if (!eq)
            return tt_err(ig->ctx, TT_EINVAL, "-m: expected key=COLUMN, got '%.60s'", e);
        *eq = '\0';
        char *key = tt_trim(e), *col = tt_trim(eq + 1);
        int k = 0;
        while (k < NKEYS && strcmp(keys[k], key) != 0)
            k++;
        if (k == NKEYS)
            return tt_err(ig->ctx, TT_EINVAL, "-m: unknown key '%.60s' (keys: " KEY_LIST ")",
                          key);
        if (m->col[k])
            return tt_err(ig->ctx, TT_EINVAL, "-m: key '%s' given twice", keys[k]);
        if (!*col)
            return tt_err(ig->ctx, TT_EINVAL, "-m: no column named for key '%s'", keys[k]);
        m->col[k] = col;
    }
    return 0;
}

/* One input's columns: index per key (or -1) and the header name, kept for
 * messages since the line buffer is reused. */
typedef struct {
    char delim;
    int ncol;
    int col[NKEYS];
    char label[NKEYS][64];
    char run_label[132]; /* "END - START", a duration worked out */
} colmap;

static void alias_list(int k, char *buf, size_t size)
{
    size_t w = 0;
    buf[0] = '\0';
    for (int a = 0; a < NALIAS && aliases[k][a] && w < size; a++)
        w += (size_t)snprintf(buf + w, size - w, "%s%s", a ? ", " : "", aliases[k][a]);
}

static int missing_column(ig_state *ig, int k)
{
    char names[256];
    alias_list(k, names, sizeof names);
    return tt_ig_fail(ig, "header has no %s column (looked for %s; name it with -m %s=COL)", keys[k],
                   names, keys[k]);
}

static int read_header(ig_state *ig, const usermap *m, colmap *c)
{
    char *line, *f[MAXF];
    memset(c, 0, sizeof *c);
    int rc = tt_ig_header(ig, &line);
    if (rc < 0)
        return rc;
    c->delim = strchr(line, '\t') ? '\t' : ',';
    int n = c->delim == ',' ? tt_ig_split(ig, line, ',', f, MAXF, -1) : tt_tab_split(line, f, MAXF);
    if (n < 0)
        return n;
    if (n > MAXF)
        return tt_ig_fail(ig, "header has %d columns, at most %d expected", n, MAXF);
    c->ncol = n;
    char used[MAXF] = {0};
    for (int i = 0; i < n; i++)
        f[i] = tt_trim(f[i]);
    for (int k = 0; k < NKEYS; k++) {
        c->col[k] = -1;
        if (!m->col[k])
            continue;
        int i = tt_ig_col(f, n, m->col[k]);
        for (int j = 0; j < n && i < 0; j++)
            if (strcasecmp(f[j], m->col[k]) == 0)
                i = j;
        if (i < 0)
            return tt_ig_fail(ig, "-m: no column '%.60s' in the header", m->col[k]);
        c->col[k] = i;
        used[i] = 1;
    }
    for (int k = 0; k < NKEYS; k++)
        if (c->col[k] < 0)
            c->col[k] = find_alias(f, n, used, k);
    for (int k = 0; k < NKEYS; k++) {
        if (c->col[k] < 0)
            continue;
        /* names match ignoring case: a second column of that name would
         * be a guess between two */
        for (int j = 0; j < n; j++)
            if (j != c->col[k] && strcasecmp(f[j], f[c->col[k]]) == 0)
                return tt_ig_fail(ig, "header names column '%.60s' twice (columns %d and %d)",
                                  f[c->col[k]], (j < c->col[k] ? j : c->col[k]) + 1,
                                  (j < c->col[k] ? c->col[k] : j) + 1);
        snprintf(c->label[k], sizeof c->label[k], "%s", f[c->col[k]]);
    }
    snprintf(c->run_label, sizeof c->run_label, "%s - %s", c->label[K_END], c->label[K_START]);
    if (c->col[K_SUBMIT] < 0)
        return missing_column(ig, K_SUBMIT);
    if (c->col[K_GPUS] < 0)
        return missing_column(ig, K_GPUS);
    if (c->col[K_DURATION] < 0 && (c->col[K_START] < 0 || c->col[K_END] < 0)) {
        char d[128], s[64], e[64];
        alias_list(K_DURATION, d, sizeof d);
        alias_list(K_START, s, sizeof s);
        alias_list(K_END, e, sizeof e);
        return tt_ig_fail(ig,
                       "header has no duration column (looked for %s) and not both start (%s) "
                       "and end (%s); name them with -m duration=COL or -m start=COL,end=COL",
                       d, s, e);
    }
    return 0;
}

/* The time base of what has been read: the kind of the first time seen,
 * where it was, and the input being read. */
enum { T_NONE, T_SECONDS, T_CALENDAR };
typedef struct {
    int kind;
    int input;
    int64_t line;
    int cur;
} timebase;

/* tt_ig_time's own test for a calendar time, so the time base can follow. */
static int is_calendar(const char *s) { return strlen(s) >= 10 && s[4] == '-'; }

/* Relative seconds and calendar times in one trace would put jobs decades
 * apart (a span of 17,522 days from 0 to 2018), so the first time read
 * sets the kind for all the inputs. */
static int same_base(ig_state *ig, timebase *tb, const char *field, int kind)
{
    static const char *const what[] = {"", "relative seconds", "a calendar time"};
    static const char *const base[] = {"", "relative", "unix"};
    if (tb->kind == T_NONE) {
        tb->kind = kind;
        tb->input = tb->cur;
        tb->line = tt_src_lineno(ig->src);
    }
    if (kind == tb->kind)
        return 0;
    return tt_ig_fail(ig,
                      "field '%s': %s (time base %s), but %s:%lld has %s (time base %s): one "
                      "trace cannot mix time bases",
                      field, what[kind], base[kind], tt_ig_label(ig, tb->input),
                      (long long)tb->line, what[tb->kind], base[tb->kind]);
}

/* A time column of the row (TT_TIME_NONE when the key has no column). */
static int get_time(ig_state *ig, const colmap *c, char **f, int k, timebase *tb, int64_t *out)
{
    *out = TT_TIME_NONE;
    if (c->col[k] < 0)
        return 0;
    const char *v = tt_trim(f[c->col[k]]);
    int rc = tt_ig_time(ig, c->label[k], v, out);
    if (rc || *out == TT_TIME_NONE)
        return rc;
    return same_base(ig, tb, c->label[k], is_calendar(v) ? T_CALENDAR : T_SECONDS);
}

/* A count column of the row (TT_TIME_NONE when absent), at most max. */
static int get_count(ig_state *ig, const colmap *c, char **f, int k, int64_t max, int64_t *out)
{
    *out = TT_TIME_NONE;
    if (c->col[k] < 0)
        return 0;
    int rc = tt_ig_count_opt(ig, c->label[k], tt_trim(f[c->col[k]]), out);
    if (rc)
        return rc;
    if (*out != TT_TIME_NONE && *out > max)
        return tt_ig_fail(ig, "field '%s': %lld is out of range", c->label[k], (long long)*out);
    return 0;
}

/* The GPU demand in thousandths (TT_TIME_NONE when missing). */
static int get_gpus(ig_state *ig, const colmap *c, char **f, int64_t *out)
{
    const char *v = tt_trim(f[c->col[K_GPUS]]);
    *out = TT_TIME_NONE;
    if (tt_is_missing(v))
        return 0;
    int rc = tt_ig_milli(ig, c->label[K_GPUS], v, out);
    if (!rc && *out > INT32_MAX)
        return tt_ig_fail(ig, "field '%s': %lld.%03lld GPUs is out of range", c->label[K_GPUS],
                          (long long)(*out / 1000), (long long)(*out % 1000));
    return rc;
}

/* Strings are kept as they are (no trimming, only "" is absent), so that
 * tt-cat's output reads back unchanged. */
static const char *get_str(const colmap *c, char **f, int k)
{
    if (c->col[k] < 0 || !*f[c->col[k]])
        return NULL;
    return f[c->col[k]];
}

/* Why a row with these times and demand cannot be simulated, or -1, with
 * j->duration worked out from start and end when the row gives none. */
static int drop_reason(ig_state *ig, const colmap *c, tt_job *j, int64_t milli)
{
    int have_run = j->start != TT_TIME_NONE && j->end != TT_TIME_NONE;
    if (milli == TT_TIME_NONE)
        return TT_DROP_MISSING_GPUS;
    if (milli == 0)
        return TT_DROP_CPU_ONLY;
    if (j->submit == TT_TIME_NONE)
        return TT_DROP_MISSING_TIME;
    if (have_run && j->end < j->start)
        return TT_DROP_END_BEFORE_START;
    if (j->duration != TT_TIME_NONE) {
        /* the duration column wins; tt-ingest says how often they differ */
        if (have_run && j->duration != j->end - j->start)
            ig->trace->prov.duration_mismatches++;
        ig->duration_field = c->label[K_DURATION];
        return -1;
    }
    /* no duration: from start and end when the input has both columns */
    if (c->col[K_START] < 0 || c->col[K_END] < 0)
        return TT_DROP_MISSING_TIME;
    if (j->start == TT_TIME_NONE)
        return TT_DROP_NOT_STARTED;
    if (j->end == TT_TIME_NONE)
        return TT_DROP_NOT_FINISHED;
    j->duration = j->end - j->start;
    ig->duration_field = c->run_label;
    return -1;
}

/* The optional columns the input has into j (a missing value is the
 * column's absent one). */
static int get_optional(ig_state *ig, const colmap *c, char **f, tt_job *j)
{
    for (int o = 0; o < NOPTKEYS; o++) {
        int k = optkeys[o].key;
        if (c->col[k] < 0)
            continue;
        const tt_optcol *oc = NULL;
        for (int i = 0; i < TT_NOPTCOLS && !oc; i++)
            if (tt_optcols[i].bit == optkeys[o].bit)
                oc = &tt_optcols[i];
        const char *text = tt_trim(f[c->col[k]]);
        int64_t v = oc->absent;
        int rc = tt_is_missing(text) ? 0 : tt_parse_round(text, &v);
        if (rc == TT_ERANGE || (!rc && (v < optkeys[o].lo || v > optkeys[o].hi ||
                                        (v == 0 && !optkeys[o].zero_ok))))
            return tt_ig_fail(ig, "field '%s': '%.40s' is out of range (%s)", c->label[k], text,
                              optkeys[o].range);
        if (rc)
            return tt_ig_fail(ig, "field '%s': expected an integer, got '%.40s'", c->label[k],
                              text);
        tt_optcol_set(oc, (char *)j + oc->job_off, 0, v);
        j->has |= oc->bit;
    }
    if (c->col[K_DEPS] >= 0) {
        j->deps = f[c->col[K_DEPS]];
        j->has |= TT_COL_DEPS;
        snprintf(ig->deps_field, sizeof ig->deps_field, "%s", c->label[K_DEPS]);
    }
    return 0;
}

static int parse_row(ig_state *ig, const colmap *c, char **f, timebase *tb)
{
    tt_job j = tt_job_empty();
    int64_t milli, explicit_milli, nodes;
    int rc;
    if ((rc = get_time(ig, c, f, K_SUBMIT, tb, &j.submit)) ||
        (rc = get_count(ig, c, f, K_DURATION, INT64_MAX, &j.duration)) ||
        (rc = get_time(ig, c, f, K_START, tb, &j.start)) ||
        (rc = get_time(ig, c, f, K_END, tb, &j.end)) || (rc = get_gpus(ig, c, f, &milli)) ||
        (rc = get_count(ig, c, f, K_GPU_MILLI, INT32_MAX, &explicit_milli)) ||
        (rc = get_count(ig, c, f, K_NODES, INT32_MAX, &nodes)) ||
        (rc = get_optional(ig, c, f, &j)))
        return rc;
    int why = drop_reason(ig, c, &j, milli);
    if (why >= 0) {
        tt_ig_drop(ig, why);
        return 0;
    }
    /* A fractional demand ("0.5") takes a whole GPU and keeps its share. */
    j.gpus = (int32_t)((milli + 999) / 1000);
    j.gpu_milli = (int32_t)(explicit_milli != TT_TIME_NONE ? explicit_milli : milli);
    if (nodes != TT_TIME_NONE)
        j.nodes = (int32_t)nodes;
    j.name = get_str(c, f, K_NAME);
    j.user = get_str(c, f, K_USER);
    j.vc = get_str(c, f, K_VC);
    j.model = get_str(c, f, K_MODEL);
    j.status = get_str(c, f, K_STATUS);
    return tt_ig_keep(ig, &j);
}

static int parse_one(ig_state *ig, const usermap *m, colmap *c, timebase *tb)
{
    int rc = read_header(ig, m, c);
    if (rc)
        return rc;
    ig->submit_field = c->label[K_SUBMIT];
    char *line, *f[MAXF];
    int rows = 0;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        if ((rc = split(ig, line, c->delim, f, c->ncol)) < 0)
            return rc;
        rows++;
        tt_ig_row(ig);
        if ((rc = parse_row(ig, c, f, tb)))
            return rc;
    }
    if (rc == 0 && rows == 0)
        return tt_ig_fail(ig, "header only: no job rows");
    return rc;
}

static int parse(ig_state *ig)
{
    usermap m;
    colmap c; /* the names in ig->submit_field and duration_field live here */
    timebase tb = {T_NONE, 0, 0, 0};
    int rc = parse_map(ig, &m);
    for (int i = 0; i < ig->n && !rc; i++) {
        tb.cur = i;
        if (!(rc = tt_ig_open(ig, i)) && !(rc = parse_one(ig, &m, &c, &tb)))
            rc = tt_ig_close(ig, i);
    }
    free(m.copy);
    ig->submit_field = tt_fmt_csv.submit_field;
    ig->duration_field = tt_fmt_csv.duration_field;
    if (!rc && tt_prov_set(&ig->trace->prov.time_base, tb.kind == T_CALENDAR ? "unix" : "relative"))
        rc = tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    return rc;
}

const tt_format tt_fmt_csv = {
    "csv",
    "generic CSV/TSV with a header; columns by common names or -m (reads tt-cat output)",
    NULL,
    NULL, /* parse sets prov.time_base from the times it read */
    detect,
    parse,
    "submit",
    "duration",
};
