/* alibaba2018: the batch_task table of Alibaba's cluster-trace-v2018
 * (batch_task.csv, no header: task_name,instance_num,job_name,task_type,
 * status,start_time,end_time,plan_cpu,plan_mem, from the trace's
 * schema.md, section 1.5). Its jobs are DAGs of CPU tasks: a task_name
 * such as M2_1 is task 2 depending on task 1, M5_3_4 task 5 on tasks 3
 * and 4; names of another shape (task_xyz, MergeTask) are tasks without
 * parents. No public GPU trace has DAGs (SPEC 12.7), so this table gives
 * workflow shapes: each job_name is a workflow (wf numbers the job names
 * in order of first appearance), each task one job of 1 GPU, submitted at
 * start_time and running end_time - start_time; instance_num, task_type,
 * plan_cpu and plan_mem are not used, and the provenance notes say so.
 * Times are seconds from the trace's start, 0 where the task never
 * started or ended. A parent task that the trace lacks or that was
 * dropped (it never ran) is left out of its child's parents, counted in
 * the notes: cut samples of the table lose parents often. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "ingest/fmt_common.h"
#include "trace/rowkey.h"
#include "tt/parse.h"

enum { F_TASK, F_INST, F_JOB, F_TYPE, F_STATUS, F_START, F_END, F_CPU, F_MEM, NF };

static const char header[] =
    "task_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem";

/* The table has no header, so a data row tells it: nine fields, a job
 * name j_N and a status of the table's. A header line as in schema.md is
 * taken too. */
static int detect(char *line)
{
    if (tt_fc_detect_header(line, header))
        return 10;
    char *f[NF + 1];
    if (tt_csv_split(line, ',', f, NF + 1) != NF || strncmp(f[F_JOB], "j_", 2) != 0)
        return 0;
    static const char *const status[] = {"Terminated", "Failed",  "Running", "Waiting",
                                         "Ready",      "Cancelled", "Interrupted"};
    for (size_t i = 0; i < sizeof status / sizeof status[0]; i++)
        if (strcmp(f[F_STATUS], status[i]) == 0)
            return 10;
    return 0;
}

/* Each kept task: its number in its job (-1: a name without one) and its
 * parents' numbers, kept until every row is in. */
typedef struct {
    int64_t wf, num, first, count; /* parents at nums[first .. first + count) */
} task;

typedef struct {
    tt_strtab *jobs; /* job_name -> wf */
    task *t;
    int64_t nt, tcap;
    int64_t *nums, nn, ncap;
    int64_t lost; /* parents not kept */
} dag;

static int push_num(dag *d, int64_t v)
{
    if (d->nn == d->ncap) {
        int64_t cap = d->ncap ? d->ncap * 2 : 1024;
        int64_t *p = (int64_t *)realloc(d->nums, (size_t)cap * sizeof *p);
        if (!p)
            return TT_ENOMEM;
        d->nums = p;
        d->ncap = cap;
    }
    d->nums[d->nn++] = v;
    return 0;
}

/* The numbers of a name such as M5_3_4 (letters, then numbers joined by
 * '_'): the task's into *num, its parents' pushed; *num = -1 and none
 * pushed for a name of another shape. */
static int task_numbers(dag *d, const char *name, int64_t *num)
{
    *num = -1;
    const char *p = name;
    while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
        p++;
    if (p == name || *p < '0' || *p > '9')
        return 0;
    int64_t v[64];
    int k = 0;
    for (;;) {
        int64_t x = 0;
        const char *s = p;
        while (*p >= '0' && *p <= '9' && p - s < 18)
            x = x * 10 + (*p++ - '0');
        if (p == s || (*p >= '0' && *p <= '9') || k == 64)
            return 0;
        v[k++] = x;
        if (!*p)
            break;
        if (*p++ != '_')
            return 0;
    }
    *num = v[0];
    for (int i = 1; i < k; i++)
        if (push_num(d, v[i]))
            return TT_ENOMEM;
    return 0;
}

/* A time field: 0 and blank are "none" (the table's way). */
static int get_time(ig_state *ig, const char *field, char *text, int64_t *out)
{
    int rc = tt_ig_time(ig, field, tt_trim(text), out);
    if (!rc && *out == 0)
        *out = TT_TIME_NONE;
    return rc;
}

static int parse_row(ig_state *ig, dag *d, char **f)
{
    tt_job j = tt_job_empty();
    int rc;
    if ((rc = get_time(ig, "start_time", f[F_START], &j.start)) ||
        (rc = get_time(ig, "end_time", f[F_END], &j.end)))
        return rc;
    const char *job = tt_trim(f[F_JOB]), *name = tt_trim(f[F_TASK]);
    if (!*job)
        return tt_ig_fail(ig, "field 'job_name': value missing");
    if (!*name)
        return tt_ig_fail(ig, "field 'task_name': value missing");
    int why = tt_fc_observed_run(&j);
    if (why >= 0) {
        tt_ig_drop(ig, why);
        return 0;
    }
    int32_t wf = tt_strtab_intern(d->jobs, job);
    if (wf < 0)
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    if (d->nt == d->tcap) {
        int64_t cap = d->tcap ? d->tcap * 2 : 1024;
        task *p = (task *)realloc(d->t, (size_t)cap * sizeof *p);
        if (!p)
            return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
        d->t = p;
        d->tcap = cap;
    }
    task *t = &d->t[d->nt];
    t->wf = wf;
    t->first = d->nn;
    if (task_numbers(d, name, &t->num))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    t->count = d->nn - t->first;
    char full[512];
    snprintf(full, sizeof full, "%s/%s", job, name);
    j.submit = j.start;
    j.gpus = 1;
    j.name = full;
    j.status = tt_ig_str(tt_trim(f[F_STATUS]));
    j.has = TT_COL_WF;
    j.wf = wf;
    if ((rc = tt_ig_keep(ig, &j)))
        return rc;
    d->nt++;
    return 0;
}

static int parse_one(ig_state *ig, dag *d)
{
    char *line, *f[NF + 1];
    int rc, rows = 0;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        if (rows == 0 && tt_fc_detect_header(line, header))
            continue;
        if ((rc = tt_ig_split(ig, line, ',', f, NF + 1, NF)) < 0)
            return rc;
        rows++;
        tt_ig_row(ig);
        if ((rc = parse_row(ig, d, f)))
            return rc;
    }
    return rc;
}

/* The parents as the trace's CSR of rows (the rows are in input order
 * still: the driver sorts them after). */
static int link(ig_state *ig, dag *d)
{
    tt_trace *tr = ig->trace;
    if (d->nn == 0)
        return 0;
    tt_rowkey *k = (tt_rowkey *)malloc((size_t)(d->nt ? d->nt : 1) * sizeof *k);
    tr->dep_off = (int64_t *)calloc((size_t)tr->cap + 1, sizeof *tr->dep_off);
    tr->deps = (int32_t *)malloc((size_t)d->nn * sizeof *tr->deps);
    if (!k || !tr->dep_off || !tr->deps) {
        free(k);
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    }
    tr->dep_cap = d->nn;
    int64_t n = 0, m = 0;
    for (int64_t i = 0; i < d->nt; i++)
        if (d->t[i].num >= 0)
            k[n++] = (tt_rowkey){d->t[i].wf, d->t[i].num, i};
    tt_rowkeys_sort(k, n);
    for (int64_t i = 0; i < d->nt; i++) {
        const task *t = &d->t[i];
        for (int64_t p = t->first; p < t->first + t->count; p++) {
            int64_t row = tt_rowkeys_find(k, n, t->wf, d->nums[p]); /* the first if repeated */
            if (row < 0)
                d->lost++;
            else
                tr->deps[m++] = (int32_t)row;
        }
        tr->dep_off[i + 1] = m;
    }
    free(k);
    return 0;
}

static int parse(ig_state *ig)
{
    dag d;
    memset(&d, 0, sizeof d);
    int rc = (d.jobs = tt_strtab_create()) ? 0 : tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    for (int i = 0; i < ig->n && !rc; i++)
        if (!(rc = tt_ig_open(ig, i)) && !(rc = parse_one(ig, &d)))
            rc = tt_ig_close(ig, i);
    if (!rc && ig->trace->n > 0)
        rc = link(ig, &d);
    if (!rc) {
        char notes[512];
        snprintf(notes, sizeof notes,
                 "alibaba2018 batch_task: CPU tasks read as jobs of 1 GPU (instance_num, "
                 "task_type, plan_cpu, plan_mem not used), submit start_time, duration "
                 "end_time - start_time; wf numbers the job_names, parents from task_name; "
                 "%lld parents not in the trace left out",
                 (long long)d.lost);
        if (tt_prov_set(&ig->trace->prov.notes, notes))
            rc = tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    }
    tt_strtab_free(d.jobs);
    free(d.t);
    free(d.nums);
    return rc;
}

const tt_format tt_fmt_alibaba2018 = {
    "alibaba2018",
    "Alibaba cluster-trace-v2018 batch_task.csv: CPU task DAGs (task_name M2_1) as 1-GPU "
    "workflow tasks",
    NULL,
    "relative",
    detect,
    parse,
    "start_time",
    "end_time - start_time",
};
