/* pai: the Alibaba PAI 2020 job table joined with its task table, both CSV
 * without a header (column lists in pai_job_table.header and
 * pai_task_table.header). Inputs are told apart by their field count, job 6
 * and task 10, in any order. The task tables are read first into a map
 * job_name -> (GPU demand, earliest task start); the job tables are then
 * streamed and joined. Times are float seconds from a shifted origin; 0
 * means missing. The job table's start_time is the submission time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "ingest/ingest_impl.h"
#include "tt/parse.h"

#define JOB_FIELDS 6
#define TASK_FIELDS 10
#define MAXF 16

static const char job_header[] = "job_name,inst_id,user,status,start_time,end_time";
static const char task_header[] =
    "job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type";

/* Bounds that keep plan_gpu * inst_num in int64 (both in thousandths). */
#define MAX_MILLI 1000000000LL

/* ---- job_name -> aggregate, open addressing ---- */

typedef struct pai_agg {
    const char *name; /* in the arena; NULL: empty slot */
    uint64_t hash;
    int64_t gpu_milli; /* sum of round(plan_gpu * inst_num * 10) */
    int64_t start;     /* earliest task start, or TT_TIME_NONE */
} pai_agg;

typedef struct pai_block {
    struct pai_block *next;
    size_t used, size;
    char data[];
} pai_block;

typedef struct pai_map {
    pai_agg *slot;
    size_t cap, n; /* cap a power of two, kept at least twice n */
    pai_block *arena;
} pai_map;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static const char *arena_copy(pai_map *m, const char *s)
{
    size_t n = strlen(s) + 1;
    if (!m->arena || m->arena->size - m->arena->used < n) {
        size_t size = n > (1u << 20) ? n : (1u << 20);
        pai_block *b = (pai_block *)malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->next = m->arena;
        b->used = 0;
        b->size = size;
        m->arena = b;
    }
    char *c = m->arena->data + m->arena->used;
    memcpy(c, s, n);
    m->arena->used += n;
    return c;
}

static void map_free(pai_map *m)
{
    free(m->slot);
    while (m->arena) {
        pai_block *next = m->arena->next;
        free(m->arena);
        m->arena = next;
    }
}

static pai_agg *map_find(const pai_map *m, const char *name)
{
    if (!m->cap)
        return NULL;
    uint64_t h = hash_str(name);
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        pai_agg *a = &m->slot[i];
        if (!a->name)
            return NULL;
        if (a->hash == h && strcmp(a->name, name) == 0)
            return a;
    }
}

static int map_grow(pai_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    pai_agg *s = (pai_agg *)calloc(cap, sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slot[i].name)
            continue;
        size_t k = m->slot[i].hash & (cap - 1);
        while (s[k].name)
            k = (k + 1) & (cap - 1);
        s[k] = m->slot[i];
    }
    free(m->slot);
    m->slot = s;
    m->cap = cap;
    return 0;
}

/* The entry for name, added (demand 0, no start) when new; NULL when out of memory. */
static pai_agg *map_get(pai_map *m, const char *name)
{
    pai_agg *a = map_find(m, name);
    if (a)
        return a;
    if ((m->n + 1) * 2 > m->cap && map_grow(m))
        return NULL;
    uint64_t h = hash_str(name);
    size_t i = h & (m->cap - 1);
    while (m->slot[i].name)
        i = (i + 1) & (m->cap - 1);
    a = &m->slot[i];
    if (!(a->name = arena_copy(m, name)))
        return NULL;
    a->hash = h;
    a->gpu_milli = 0;
    a->start = TT_TIME_NONE;
    m->n++;
    return a;
}

/* ---- detection ---- */

static int is_hex_id(const char *s)
{
    size_t n = 0;
    for (; (s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'); n++)
        ;
    return s[n] == '\0' && n >= 8;
}

static int detect(char *line)
{
    if (strcmp(line, job_header) == 0 || strcmp(line, task_header) == 0)
        return 10;
    char *f[MAXF];
    int n = tt_csv_split(line, ',', f, MAXF);
    return (n == JOB_FIELDS || n == TASK_FIELDS) && is_hex_id(f[0]) ? 5 : 0;
}

/* ---- parsing ---- */

/* A time where 0 also means missing. */
static int pai_time(ig_state *ig, const char *field, const char *text, int64_t *out)
{
    int rc = tt_ig_time(ig, field, text, out);
    if (!rc && *out == 0)
        *out = TT_TIME_NONE;
    return rc;
}

/* The field count of an input's first line (6, 10, or another count), 0
 * for an input with no line. The line is put back. */
static int first_line_fields(ig_state *ig, int *count)
{
    char *line, *f[MAXF];
    int rc = tt_ig_line(ig, &line);
    if (rc <= 0) {
        *count = 0;
        return rc;
    }
    size_t len = strlen(line);
    char *copy = (char *)malloc(len + 1);
    if (!copy)
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    memcpy(copy, line, len + 1);
    *count = tt_csv_split(copy, ',', f, MAXF);
    free(copy);
    tt_src_ungetline(ig->src);
    if (*count < 0)
        return tt_ig_fail(ig, "unterminated quoted field");
    return 0;
}

/* The next data line split into want fields; a header line (first field
 * "job_name") at the top of the input is skipped. 1, 0 at the end, or a
 * negative code. */
static int next_row(ig_state *ig, char **f, int want, int *first)
{
    char *line;
    int rc;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        if ((rc = tt_ig_split(ig, line, ',', f, MAXF, want)) < 0)
            return rc;
        int header = *first && strcmp(f[0], "job_name") == 0;
        *first = 0;
        if (!header)
            return 1;
    }
    return rc;
}

static int read_tasks(ig_state *ig, pai_map *m)
{
    char *f[MAXF];
    int rc, first = 1;
    while ((rc = next_row(ig, f, TASK_FIELDS, &first)) == 1) {
        int64_t inst, plan, start;
        if (!*f[0])
            return tt_ig_fail(ig, "field 'job_name': value missing");
        if ((rc = tt_ig_milli(ig, "inst_num", f[2], &inst)) ||
            (rc = pai_time(ig, "start_time", f[4], &start)))
            return rc;
        if (tt_is_missing(f[8]))
            plan = 0; /* CPU-only task */
        else if ((rc = tt_ig_milli(ig, "plan_gpu", f[8], &plan)))
            return rc;
        if (inst > MAX_MILLI)
            return tt_ig_fail(ig, "field 'inst_num': %s instances is out of range", f[2]);
        if (plan > MAX_MILLI)
            return tt_ig_fail(ig, "field 'plan_gpu': %s%% of a GPU is out of range", f[8]);
        pai_agg *a = map_get(m, f[0]);
        if (!a)
            return tt_err(ig->ctx, TT_ENOMEM, "out of memory after %zu jobs' tasks", m->n);
        /* plan_gpu is in % of a GPU: thousandths = plan * inst * 10, and with
         * both read in thousandths that is plan_m * inst_m / 100000, rounded */
        a->gpu_milli += (plan * inst + 50000) / 100000;
        if (a->gpu_milli > INT32_MAX)
            return tt_ig_fail(ig, "job '%s': GPU demand over %d thousandths is out of range", f[0],
                           INT32_MAX);
        if (start != TT_TIME_NONE && (a->start == TT_TIME_NONE || start < a->start))
            a->start = start;
    }
    return rc;
}

static int drop_reason(const pai_agg *a, const char *status, int64_t submit, int64_t end)
{
    if (!a)
        return TT_DROP_NO_TASKS;
    if (a->gpu_milli == 0)
        return TT_DROP_CPU_ONLY;
    if (end == TT_TIME_NONE || strcmp(status, "Running") == 0 || strcmp(status, "Waiting") == 0)
        return TT_DROP_NOT_FINISHED;
    if (a->start == TT_TIME_NONE)
        return TT_DROP_NOT_STARTED;
    if (submit == TT_TIME_NONE)
        return TT_DROP_MISSING_TIME;
    if (end < a->start)
        return TT_DROP_END_BEFORE_START;
    return -1;
}

static int read_jobs(ig_state *ig, const pai_map *m)
{
    char *f[MAXF];
    int rc, first = 1;
    while ((rc = next_row(ig, f, JOB_FIELDS, &first)) == 1) {
        tt_ig_row(ig);
        int64_t submit, end;
        if (!*f[0])
            return tt_ig_fail(ig, "field 'job_name': value missing");
        if ((rc = pai_time(ig, "start_time", f[4], &submit)) ||
            (rc = pai_time(ig, "end_time", f[5], &end)))
            return rc;
        const pai_agg *a = map_find(m, f[0]);
        int why = drop_reason(a, f[3], submit, end);
        if (why >= 0) {
            tt_ig_drop(ig, why);
            continue;
        }
        tt_job j = tt_job_empty();
        j.name = f[0];
        j.user = tt_ig_str(f[2]);
        j.status = tt_ig_str(f[3]);
        j.submit = submit;
        j.start = a->start;
        j.end = end;
        j.duration = end - a->start;
        j.gpu_milli = (int32_t)a->gpu_milli;
        j.gpus = (int32_t)((a->gpu_milli + 999) / 1000);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}

/* Task tables are read in a first pass, as each input's width tells them;
 * job tables (few: one per trace) stay open for the second. */
static int parse(ig_state *ig)
{
    int n = ig->n;
    int *kind = (int *)malloc((size_t)n * sizeof *kind);
    if (!kind)
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    pai_map m;
    memset(&m, 0, sizeof m);
    int rc = 0, njobs = 0;
    for (int i = 0; i < n && !rc; i++) {
        if ((rc = tt_ig_open(ig, i)) || (rc = first_line_fields(ig, &kind[i])))
            break;
        if (kind[i] == 0) {
            int64_t at = tt_src_lineno(ig->src); /* 0 for no bytes: say line 1 */
            rc = tt_err(ig->ctx, TT_EEMPTY,
                        "%s:%lld: empty input: expected a PAI job table (%d fields) or task "
                        "table (%d fields)",
                        tt_ig_label(ig, i), (long long)(at ? at : 1), JOB_FIELDS, TASK_FIELDS);
        }
        else if (kind[i] != JOB_FIELDS && kind[i] != TASK_FIELDS)
            rc = tt_ig_fail(ig, "expected %d fields (PAI job table) or %d (task table), got %d",
                         JOB_FIELDS, TASK_FIELDS, kind[i]);
        else if (kind[i] == TASK_FIELDS && !(rc = read_tasks(ig, &m)))
            rc = tt_ig_close(ig, i);
        njobs += kind[i] == JOB_FIELDS;
    }
    if (!rc && njobs == 0)
        rc = tt_err(ig->ctx, TT_EINVAL,
                    "pai: no job table among the inputs (give the job table, %d fields, "
                    "and the task table, %d fields)", JOB_FIELDS, TASK_FIELDS);
    for (int i = 0; i < n && !rc; i++)
        if (kind[i] == JOB_FIELDS && !(rc = tt_ig_open(ig, i)) && !(rc = read_jobs(ig, &m)))
            rc = tt_ig_close(ig, i);
    map_free(&m);
    free(kind);
    return rc;
}

const tt_format tt_fmt_pai = {
    "pai",
    "Alibaba PAI 2020 job table + task table (no header; give both files, any order)",
    NULL,
    "relative",
    detect,
    parse,
    "start_time",
    "end_time - task start_time",
};
