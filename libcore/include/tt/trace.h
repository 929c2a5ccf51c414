/* tt/trace.h: the job table in memory (SPEC section 3) and its provenance.
 *
 * A trace is one array per column, so the simulator and the GPU backend can
 * take the numeric columns as they are. String columns (name, user, vc,
 * model, status) hold int32 codes into a string table of that column; -1 is
 * "absent". Times are int64 seconds; absent times are TT_TIME_NONE.
 *
 * Ownership: a tt_trace owns its columns, tables and provenance strings;
 * tt_trace_free releases all. A trace is not safe to modify from two
 * threads; reading it from many threads is safe.
 */
#ifndef TT_TRACE_H
#define TT_TRACE_H

#include <stdint.h>

#include "tt/error.h"
#include "tt/strtab.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

#define TT_TIME_NONE INT64_MIN /* an absent time or duration */
#define TT_NONE32 (-1)         /* an absent count or string code */

/* The engine's bounds on a job, which keep its products below 2^63:
 * |submit| <= 2^40 s (~34,800 years), 0 <= duration <= 2^32 s (~136
 * years). The simulator refuses a trace beyond them; tt-ingest refuses
 * the row. */
#define TT_SUBMIT_MAX ((int64_t)1 << 40)
#define TT_DURATION_MAX ((int64_t)1 << 32)

/* Why an input row was not kept. Names (tt_drop_name) are the attribute
 * suffixes in the HDF5 file and the words in tt-ingest's report. */
typedef enum {
    TT_DROP_CPU_ONLY,         /* asks for no GPU */
    TT_DROP_NOT_STARTED,      /* never ran: no start time (pending, cancelled in queue) */
    TT_DROP_NOT_FINISHED,     /* no end time: running when the trace was taken */
    TT_DROP_NO_ATTEMPTS,      /* Philly: a job record with no attempts */
    TT_DROP_MISSING_TIME,     /* no submit time, or no run time (nor the times to work it out) */
    TT_DROP_END_BEFORE_START, /* observed end earlier than observed start */
    TT_DROP_NO_TASKS,         /* PAI: a job with no rows in the task table */
    TT_DROP_MISSING_GPUS,     /* the GPU count is blank or NaN */
    TT_DROP_COUNT
} tt_drop_reason;
const char *tt_drop_name(int reason);

/* Where the rows came from; written as attributes of /jobs. */
typedef struct tt_provenance {
    char *format;        /* ingest format name ("philly-csv", "tt-gen", ...) */
    char *source_files;  /* input names, one per line */
    char *source_sha256; /* hex digests of the raw input bytes, one per line */
    char *time_base;     /* "unix" (UTC epoch seconds) or "relative" */
    char *timezone;      /* zone applied to times without an offset, or "" */
    char *duration_unit; /* "s", or "steps" where a trace gives no seconds */
    char *tool_version;  /* tracetune version that wrote the file */
    char *notes;         /* free text, e.g. generator parameters */
    int64_t rows_read;   /* data rows seen (headers and comments excluded) */
    int64_t rows_kept;
    int64_t dropped[TT_DROP_COUNT];
    int64_t duplicates;      /* kept rows equal in every column to an earlier row */
    int64_t ambiguous_times; /* local times in a DST fall-back hour (first taken) */
    int64_t shifted_times;   /* local times in a DST gap (moved forward) */
    /* kept rows whose duration column differs from end - start (the
     * column is kept); like the drop reasons added since trace/1 (see
     * tt_drop_shown), written and listed only when non-zero */
    int64_t duration_mismatches;
    /* the sha256 of the jobs as simulated (tt_sim_jobs_sha256), set by a
     * tool that writes a result file; "" otherwise. Not written to a
     * trace file: a result file's trace_jobs_sha256 */
    char *jobs_sha256;
} tt_provenance;

/* 1 when dropped[reason] is written to a trace file and listed by tt-cat:
 * always for the reasons of trace/1's first version, and for those added
 * since when non-zero, so that files without them stay as they were (a
 * reader takes an absent count as 0). */
int tt_drop_shown(const tt_provenance *p, int reason);

/* The optional columns (SPEC 10.6, 12.7), one bit each: in tt_job.has,
 * tt_trace_cols and tt_trace_load_cols (tt/tracefile.h, after its twelve
 * columns). TT_COL_DEPS is the pair dep_off and deps. */
#define TT_COL_ELASTIC (1u << 12)
#define TT_COL_GPUS_MIN (1u << 13)
#define TT_COL_GPUS_MAX (1u << 14)
#define TT_COL_WF (1u << 15)
#define TT_COL_DEPS (1u << 16)
#define TT_COL_MID (1u << 17)
#define TT_COL_MEM_MB (1u << 18)
#define TT_COL_OUT_MB (1u << 19)
#define TT_COL_OPTIONAL (0xffu << 12)

typedef struct tt_trace {
    int64_t n; /* jobs */
    int64_t cap;
    int64_t *submit;   /* s; sorted ascending after tt_trace_sort */
    int64_t *duration; /* s (or steps, see provenance) on an ideal placement */
    int64_t *start;    /* observed first start, s, or TT_TIME_NONE */
    int64_t *end;      /* observed last end, s, or TT_TIME_NONE */
    int32_t *gpus;     /* whole GPUs, >= 1 */
    int32_t *gpu_milli; /* GPU demand in thousandths of a GPU (fractional sharing) */
    int32_t *nodes;    /* observed node count, or -1 */
    int32_t *name, *user, *vc, *model, *status; /* string codes, or -1 */
    tt_strtab *names, *users, *vcs, *models, *statuses;
    /* Optional columns, each NULL when the trace lacks it (files without
     * them stay as they were). Elasticity (SPEC 10.6): elastic 1, 0 or -1
     * (unknown); gpus_min, gpus_max, -1 = no bound. Workflows (SPEC 12.7):
     * wf, the workflow of a task (-1: not a task); its parents are
     * deps[dep_off[i] .. dep_off[i + 1]), row indices (n + 1 offsets in
     * memory); mid, the model id (-1: the class); mem_mb, the model's size
     * in MiB (-1: from the model table); out_mb, the output's size (0). */
    int8_t *elastic;
    int32_t *gpus_min, *gpus_max;
    int64_t *wf, *dep_off;
    int32_t *deps;
    int32_t *mid, *mem_mb, *out_mb;
    int64_t dep_cap; /* room in deps */
    /* 1 while deps holds codes into names (tt_trace_append) rather than
     * row indices: until tt_trace_link_deps */
    int deps_named;
    tt_provenance prov;
} tt_trace;

/* One job as a parser hands it over; strings may be NULL (absent) and are
 * copied by tt_trace_append. The optional columns count only where has
 * holds their TT_COL_* bit: the first job that has one gives the trace
 * that column (earlier rows get its absent value), and a job without the
 * bit gets the absent value too. deps is the parents' names joined by
 * ';' (blank entries ignored), each the name of another row. */
typedef struct tt_job {
    int64_t submit, duration, start, end;
    int32_t gpus, gpu_milli, nodes;
    const char *name, *user, *vc, *model, *status;
    unsigned has;
    int8_t elastic;
    int32_t gpus_min, gpus_max;
    int64_t wf;
    const char *deps;
    int32_t mid, mem_mb, out_mb;
} tt_job;

/* A job with every optional field absent (has = 0, the optional values
 * their absent ones: -1, out_mb 0) and gpu_milli = 0 (meaning
 * "gpus * 1000", filled in by tt_trace_append). */
tt_job tt_job_empty(void);

/* An empty trace (all provenance strings ""), or NULL when out of memory. */
tt_trace *tt_trace_create(void);
void tt_trace_free(tt_trace *t);
/* Makes room for n jobs in total. 0 or TT_ENOMEM. */
int tt_trace_reserve(tt_trace *t, int64_t n);
/* Appends a job. 0 or TT_ENOMEM (the trace is unchanged then). A job with
 * deps leaves the trace waiting for tt_trace_link_deps (deps_named). */
int tt_trace_append(tt_trace *t, const tt_job *j);
/* Turns the parents' names that tt_trace_append kept into row indices,
 * before any other use of the trace: a name is the row of that name in
 * the same workflow (wf), else any row of that name, the first in row
 * order. 0; TT_ENOMEM; or TT_EPARSE "no job is named 'x'" with
 * *bad_row the row that names it. */
int tt_trace_link_deps(tt_ctx *ctx, tt_trace *t, int64_t *bad_row);
/* Sorts jobs by submit time, stably (ties keep input order), the deps
 * following their rows. 0, TT_ENOMEM, or TT_EINVAL while deps_named. */
int tt_trace_sort(tt_trace *t);
/* The optional columns t has (TT_COL_* bits of TT_COL_OPTIONAL). */
unsigned tt_trace_cols(const tt_trace *t);
/* Counts rows equal in every column to an earlier row (kept, not removed).
 * Returns the count, or TT_ENOMEM. One sequential pass on a sorted trace. */
int64_t tt_trace_count_duplicates(const tt_trace *t);
/* Replaces a provenance string (copied). 0 or TT_ENOMEM. */
int tt_prov_set(char **field, const char *value);
/* Appends a line to a provenance list field such as source_files. */
int tt_prov_add_line(char **field, const char *line);

/* 1 when t[i] is sorted by submit. */
int tt_trace_is_sorted(const tt_trace *t);

/* 1 when the durations of t are seconds (provenance duration_unit "s", or
 * unset), 0 when they are another unit (gavel's training steps), in which
 * no run time, GPU-time or offered load can be told. */
int tt_trace_in_seconds(const tt_trace *t);
/* 0 when the durations of t are seconds; else code, with the message every
 * tool that needs seconds gives: "durations are in steps, not seconds
 * (duration_unit): the trace cannot be DOING as it is". */
int tt_trace_need_seconds(tt_ctx *ctx, const tt_trace *t, int code, const char *doing);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
