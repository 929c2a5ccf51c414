/* The job table: growable column arrays, stable sort, duplicate count. */
#include "tt/trace.h"

#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "trace/optcols.h"
#include "tt/version.h"

#define OPT(bit, f, size, absent, units) \
    {bit, #f, offsetof(tt_trace, f), offsetof(tt_job, f), size, absent, units}
const tt_optcol tt_optcols[TT_NOPTCOLS] = {
    OPT(TT_COL_ELASTIC, elastic, 1, -1, "1 elastic, 0 not, -1 unknown"),
    OPT(TT_COL_GPUS_MIN, gpus_min, 4, -1, "GPUs, -1 no bound"),
    OPT(TT_COL_GPUS_MAX, gpus_max, 4, -1, "GPUs, -1 no bound"),
    OPT(TT_COL_WF, wf, 8, -1, "workflow id, -1 not a task"),
    OPT(TT_COL_MID, mid, 4, -1, "model id, -1 the model class"),
    OPT(TT_COL_MEM_MB, mem_mb, 4, -1, "MiB, -1 from the model table"),
    OPT(TT_COL_OUT_MB, out_mb, 4, 0, "MiB"),
};

const char *tt_drop_name(int reason)
{
    static const char *const names[TT_DROP_COUNT] = {
        "cpu_only",     "not_started",      "not_finished", "no_attempts",
        "missing_time", "end_before_start", "no_tasks",     "missing_gpus"};
    return (reason >= 0 && reason < TT_DROP_COUNT) ? names[reason] : "unknown";
}

int tt_drop_shown(const tt_provenance *p, int reason)
{
    return reason < TT_DROP_MISSING_GPUS || p->dropped[reason] != 0;
}

tt_job tt_job_empty(void)
{
    tt_job j;
    memset(&j, 0, sizeof j);
    j.submit = TT_TIME_NONE;
    j.duration = TT_TIME_NONE;
    j.start = TT_TIME_NONE;
    j.end = TT_TIME_NONE;
    j.nodes = TT_NONE32;
    j.elastic = -1;
    j.gpus_min = j.gpus_max = j.mid = j.mem_mb = -1;
    j.wf = -1;
    return j;
}

int tt_prov_set(char **field, const char *value)
{
    size_t len = strlen(value);
    char *c = (char *)malloc(len + 1);
    if (!c)
        return TT_ENOMEM;
    memcpy(c, value, len + 1);
    free(*field);
    *field = c;
    return 0;
}

int tt_prov_add_line(char **field, const char *line)
{
    size_t old = *field ? strlen(*field) : 0, add = strlen(line);
    char *c = (char *)realloc(*field, old + add + 2);
    if (!c)
        return TT_ENOMEM;
    if (old)
        c[old++] = '\n';
    memcpy(c + old, line, add + 1);
    *field = c;
    return 0;
}

/* The provenance string fields, for create and free. */
#define PROV_NSTR 9
static char **prov_str(tt_provenance *p, int i)
{
    char **f[PROV_NSTR] = {&p->format,   &p->source_files,  &p->source_sha256,
                           &p->time_base, &p->timezone,     &p->duration_unit,
                           &p->tool_version, &p->notes,     &p->jobs_sha256};
    return f[i];
}

tt_trace *tt_trace_create(void)
{
    tt_trace *t = (tt_trace *)calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->names = tt_strtab_create();
    t->users = tt_strtab_create();
    t->vcs = tt_strtab_create();
    t->models = tt_strtab_create();
    t->statuses = tt_strtab_create();
    int ok = t->names && t->users && t->vcs && t->models && t->statuses;
    for (int i = 0; ok && i < PROV_NSTR; i++)
        ok = tt_prov_set(prov_str(&t->prov, i), "") == 0;
    ok = ok && tt_prov_set(&t->prov.tool_version, TT_VERSION) == 0 &&
         tt_prov_set(&t->prov.duration_unit, "s") == 0 &&
         tt_prov_set(&t->prov.time_base, "relative") == 0;
    if (!ok) {
        tt_trace_free(t);
        return NULL;
    }
    return t;
}

/* Every column array, so grow/permute/free treat them alike. */
#define NCOL64 4
#define NCOL32 8
static int64_t **col64(tt_trace *t, int i)
{
    int64_t **c[NCOL64] = {&t->submit, &t->duration, &t->start, &t->end};
    return c[i];
}
static int32_t **col32(tt_trace *t, int i)
{
    int32_t **c[NCOL32] = {&t->gpus, &t->gpu_milli, &t->nodes, &t->name,
                           &t->user, &t->vc,        &t->model, &t->status};
    return c[i];
}

void tt_trace_free(tt_trace *t)
{
    if (!t)
        return;
    for (int i = 0; i < NCOL64; i++)
        free(*col64(t, i));
    for (int i = 0; i < NCOL32; i++)
        free(*col32(t, i));
    free(t->elastic);
    free(t->gpus_min);
    free(t->gpus_max);
    free(t->wf);
    free(t->dep_off);
    free(t->deps);
    free(t->mid);
    free(t->mem_mb);
    free(t->out_mb);
    tt_strtab_free(t->names);
    tt_strtab_free(t->users);
    tt_strtab_free(t->vcs);
    tt_strtab_free(t->models);
    tt_strtab_free(t->statuses);
    for (int i = 0; i < PROV_NSTR; i++)
        free(*prov_str(&t->prov, i));
    free(t);
}

int tt_trace_reserve(tt_trace *t, int64_t n)
{
    if (n <= t->cap)
        return 0;
    if ((uint64_t)n > SIZE_MAX / sizeof(int64_t))
        return TT_ENOMEM;
    for (int i = 0; i < NCOL64; i++) {
        int64_t *p = (int64_t *)realloc(*col64(t, i), (size_t)n * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        *col64(t, i) = p;
    }
    for (int i = 0; i < NCOL32; i++) {
        int32_t *p = (int32_t *)realloc(*col32(t, i), (size_t)n * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        *col32(t, i) = p;
    }
    for (int i = 0; i < TT_NOPTCOLS; i++) {
        void **a = tt_optcol_arr(t, &tt_optcols[i]);
        void *p = *a ? realloc(*a, (size_t)n * (size_t)tt_optcols[i].size) : NULL;
        if (*a && !p)
            return TT_ENOMEM;
        if (p)
            *a = p;
    }
    if (t->dep_off) {
        int64_t *p = (int64_t *)realloc(t->dep_off, (size_t)(n + 1) * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        t->dep_off = p;
    }
    t->cap = n;
    return 0;
}

unsigned tt_trace_cols(const tt_trace *t)
{
    unsigned has = t->dep_off ? TT_COL_DEPS : 0;
    for (int i = 0; i < TT_NOPTCOLS; i++)
        if (*tt_optcol_arr(t, &tt_optcols[i]))
            has |= tt_optcols[i].bit;
    return has;
}

/* Gives t the optional columns j has and t lacks, its rows so far
 * absent there. 0 or TT_ENOMEM. */
static int opt_add(tt_trace *t, const tt_job *j)
{
    for (int i = 0; i < TT_NOPTCOLS; i++) {
        const tt_optcol *c = &tt_optcols[i];
        void **a = tt_optcol_arr(t, c);
        if (!(j->has & c->bit) || *a)
            continue;
        if (!(*a = malloc((size_t)t->cap * (size_t)c->size)))
            return TT_ENOMEM;
        for (int64_t r = 0; r < t->n; r++)
            tt_optcol_set(c, *a, r, c->absent);
    }
    if ((j->has & TT_COL_DEPS) && !t->dep_off &&
        !(t->dep_off = (int64_t *)calloc((size_t)t->cap + 1, sizeof *t->dep_off)))
        return TT_ENOMEM;
    return 0;
}

/* Row i's parents: the names in text, as codes into t->names after the
 * parents kept so far. 0 or TT_ENOMEM. */
static int deps_add(tt_trace *t, int64_t i, const char *text)
{
    int64_t m = t->dep_off[i];
    while (text && *text) {
        const char *end = strchr(text, ';');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        const char *a = text, *b = text + len;
        text = end ? end + 1 : b;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (a == b)
            continue;
        if (m == t->dep_cap) {
            int64_t cap = t->dep_cap ? t->dep_cap * 2 : 1024;
            int32_t *p = (int32_t *)realloc(t->deps, (size_t)cap * sizeof *p);
            if (!p)
                return TT_ENOMEM;
            t->deps = p;
            t->dep_cap = cap;
        }
        char *name = (char *)malloc((size_t)(b - a) + 1);
        if (!name)
            return TT_ENOMEM;
        memcpy(name, a, (size_t)(b - a));
        name[b - a] = '\0';
        int32_t code = tt_strtab_intern(t->names, name);
        free(name);
        if (code < 0)
            return TT_ENOMEM;
        t->deps[m++] = code;
        t->deps_named = 1;
    }
    t->dep_off[i + 1] = m;
    return 0;
}

static int32_t intern_opt(tt_strtab *tab, const char *s)
{
    return s ? tt_strtab_intern(tab, s) : TT_NONE32;
}

int tt_trace_append(tt_trace *t, const tt_job *j)
{
    if (t->n == t->cap && tt_trace_reserve(t, t->cap ? t->cap * 2 : 1024))
        return TT_ENOMEM;
    int32_t name = intern_opt(t->names, j->name), user = intern_opt(t->users, j->user),
            vc = intern_opt(t->vcs, j->vc), model = intern_opt(t->models, j->model),
            status = intern_opt(t->statuses, j->status);
    if ((j->name && name < 0) || (j->user && user < 0) || (j->vc && vc < 0) ||
        (j->model && model < 0) || (j->status && status < 0) || opt_add(t, j))
        return TT_ENOMEM;
    int64_t i = t->n;
    if (t->dep_off && deps_add(t, i, (j->has & TT_COL_DEPS) ? j->deps : NULL))
        return TT_ENOMEM;
    t->n++;
    for (int c = 0; c < TT_NOPTCOLS; c++) {
        const tt_optcol *oc = &tt_optcols[c];
        void *a = *tt_optcol_arr(t, oc);
        if (a)
            tt_optcol_set(oc, a, i, (j->has & oc->bit) ? tt_optcol_job(oc, j) : oc->absent);
    }
    t->submit[i] = j->submit;
    t->duration[i] = j->duration;
    t->start[i] = j->start;
    t->end[i] = j->end;
    t->gpus[i] = j->gpus;
    t->gpu_milli[i] = j->gpu_milli ? j->gpu_milli : j->gpus * 1000;
    t->nodes[i] = j->nodes;
    t->name[i] = name;
    t->user[i] = user;
    t->vc[i] = vc;
    t->model[i] = model;
    t->status[i] = status;
    return 0;
}

int tt_trace_is_sorted(const tt_trace *t)
{
    for (int64_t i = 1; i < t->n; i++)
        if (t->submit[i] < t->submit[i - 1])
            return 0;
    return 1;
}

int tt_trace_in_seconds(const tt_trace *t)
{
    const char *u = t->prov.duration_unit;
    return !u || !*u || strcmp(u, "s") == 0;
}

int tt_trace_need_seconds(tt_ctx *ctx, const tt_trace *t, int code, const char *doing)
{
    /* a run time in training steps (gavel) has no meaning as seconds */
    if (tt_trace_in_seconds(t))
        return 0;
    return tt_err(ctx, code, "durations are in %s, not seconds (duration_unit): the trace cannot "
                  "be %s as it is", t->prov.duration_unit, doing);
}

/* The deps CSR in the new row order: row order[i] becomes row i, parent
 * p becomes row inv[p]. inv has room for n values. 0 or TT_ENOMEM. */
static int deps_permute(tt_trace *t, const int64_t *order, int64_t *inv)
{
    int64_t n = t->n, m = t->dep_off[n];
    int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof *off);
    int32_t *deps = (int32_t *)malloc((size_t)(m ? m : 1) * sizeof *deps);
    if (!off || !deps) {
        free(off);
        free(deps);
        return TT_ENOMEM;
    }
    for (int64_t i = 0; i < n; i++)
        inv[order[i]] = i;
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = t->dep_off[order[i]], b = t->dep_off[order[i] + 1], k = off[i];
        for (int64_t d = a; d < b; d++)
            deps[k++] = (int32_t)inv[t->deps[d]];
        off[i + 1] = k;
    }
    memcpy(t->dep_off, off, (size_t)(n + 1) * sizeof *off);
    free(off);
    free(t->deps);
    t->deps = deps;
    t->dep_cap = m ? m : 1;
    return 0;
}

int tt_trace_sort(tt_trace *t)
{
    if (t->deps_named)
        return TT_EINVAL;
    if (t->n < 2 || tt_trace_is_sorted(t))
        return 0;
    int64_t n = t->n;
    int64_t *order = (int64_t *)malloc((size_t)n * sizeof *order);
    int64_t *buf = (int64_t *)malloc((size_t)n * sizeof *buf); /* keys, then gather space */
    if (order && buf) {
        for (int64_t i = 0; i < n; i++) {
            order[i] = i;
            buf[i] = t->submit[i];
        }
    }
    if (!order || !buf || tt_radix_sort_i64(buf, order, n)) {
        free(order);
        free(buf);
        return TT_ENOMEM;
    }
    for (int c = 0; c < NCOL64; c++) {
        int64_t *col = *col64(t, c), *out = buf;
        for (int64_t i = 0; i < n; i++)
            out[i] = col[order[i]];
        memcpy(col, out, (size_t)n * sizeof *col);
    }
    for (int c = 0; c < NCOL32; c++) {
        int32_t *col = *col32(t, c), *out = (int32_t *)buf;
        for (int64_t i = 0; i < n; i++)
            out[i] = col[order[i]];
        memcpy(col, out, (size_t)n * sizeof *col);
    }
    for (int c = 0; c < TT_NOPTCOLS; c++) {
        const tt_optcol *oc = &tt_optcols[c];
        void *col = *tt_optcol_arr(t, oc);
        if (!col)
            continue;
        for (int64_t i = 0; i < n; i++)
            tt_optcol_set(oc, buf, i, tt_optcol_get(oc, col, order[i]));
        memcpy(col, buf, (size_t)n * (size_t)oc->size);
    }
    int rc = t->dep_off ? deps_permute(t, order, buf) : 0;
    free(order);
    free(buf);
    return rc;
}

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xbf58476d1ce4e5b9ull;
}

static uint64_t row_hash(tt_trace *t, int64_t i)
{
    uint64_t h = 0;
    for (int c = 0; c < NCOL64; c++)
        h = mix64(h, (uint64_t)(*col64(t, c))[i]);
    for (int c = 0; c < NCOL32; c++)
        h = mix64(h, (uint64_t)(uint32_t)(*col32(t, c))[i]);
    for (int c = 0; c < TT_NOPTCOLS; c++) {
        const void *col = *tt_optcol_arr(t, &tt_optcols[c]);
        if (col)
            h = mix64(h, (uint64_t)tt_optcol_get(&tt_optcols[c], col, i));
    }
    for (int64_t d = t->dep_off ? t->dep_off[i] : 0; t->dep_off && d < t->dep_off[i + 1]; d++)
        h = mix64(h, (uint64_t)(uint32_t)t->deps[d]);
    return h ? h : 1;
}

static int row_equal(tt_trace *t, int64_t a, int64_t b)
{
    for (int c = 0; c < NCOL64; c++)
        if ((*col64(t, c))[a] != (*col64(t, c))[b])
            return 0;
    for (int c = 0; c < NCOL32; c++)
        if ((*col32(t, c))[a] != (*col32(t, c))[b])
            return 0;
    for (int c = 0; c < TT_NOPTCOLS; c++) {
        const void *col = *tt_optcol_arr(t, &tt_optcols[c]);
        if (col && tt_optcol_get(&tt_optcols[c], col, a) != tt_optcol_get(&tt_optcols[c], col, b))
            return 0;
    }
    if (!t->dep_off)
        return 1;
    int64_t na = t->dep_off[a + 1] - t->dep_off[a];
    return na == t->dep_off[b + 1] - t->dep_off[b] &&
           memcmp(t->deps + t->dep_off[a], t->deps + t->dep_off[b], (size_t)na * sizeof *t->deps) == 0;
}

/* Duplicates among rows [a, b) with equal submit: pairwise for the short
 * runs that real traces have, hashed for long ones (a trace whose jobs all
 * arrive at t = 0). Returns the count or TT_ENOMEM. */
static int64_t dups_in_run(tt_trace *t, int64_t a, int64_t b)
{
    int64_t dups = 0, m = b - a;
    if (m <= 32) {
        for (int64_t i = a + 1; i < b; i++)
            for (int64_t j = a; j < i; j++)
                if (row_equal(t, i, j)) {
                    dups++;
                    break;
                }
        return dups;
    }
    uint64_t nslot = 1;
    while (nslot < (uint64_t)m * 2u)
        nslot <<= 1;
    uint64_t *hash = (uint64_t *)calloc(nslot, sizeof *hash);
    int64_t *row = (int64_t *)malloc(nslot * sizeof *row);
    if (!hash || !row) {
        free(hash);
        free(row);
        return TT_ENOMEM;
    }
    for (int64_t i = a; i < b; i++) {
        uint64_t h = row_hash(t, i), s = h & (nslot - 1);
        int dup = 0;
        while (hash[s]) {
            if (hash[s] == h && row_equal(t, row[s], i)) {
                dup = 1;
                break;
            }
            s = (s + 1) & (nslot - 1);
        }
        if (dup) {
            dups++;
        } else {
            hash[s] = h;
            row[s] = i;
        }
    }
    free(hash);
    free(row);
    return dups;
}

int64_t tt_trace_count_duplicates(const tt_trace *ct)
{
    tt_trace *t = (tt_trace *)ct; /* column accessors only read */
    if (!tt_trace_is_sorted(t))
        return dups_in_run(t, 0, t->n);
    /* Equal rows have equal submit times, and a sorted trace keeps those
     * together: compare only within each run, in one sequential pass. */
    int64_t dups = 0;
    for (int64_t a = 0; a < t->n;) {
        int64_t b = a + 1;
        while (b < t->n && t->submit[b] == t->submit[a])
            b++;
        if (b - a > 1) {
            int64_t d = dups_in_run(t, a, b);
            if (d < 0)
                return d;
            dups += d;
        }
        a = b;
    }
    return dups;
}
