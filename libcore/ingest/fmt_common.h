/* What the CSV job-table formats (helios, acme, pai-sim, openb) share:
 * header detection, reading a header and its rows, checked time
 * arithmetic, the drop rules for jobs with observed start and end times,
 * and the Slurm-style job log that Helios and Acme both are. */
#ifndef TT_FMT_COMMON_H
#define TT_FMT_COMMON_H

#include <stdint.h>

#include "ingest/ingest_impl.h"

#define FC_MAXF 32 /* the widest header accepted */

/* One CSV input being read: the header's column count, then the fields
 * of the current line (header names right after tt_fc_header, the row's
 * fields after each tt_fc_row; both point into the line buffer). */
typedef struct fc_csv {
    char *f[FC_MAXF];
    int n;
    int64_t header_line; /* line number of the header, for messages */
    int64_t rows;        /* data rows read from this input */
} fc_csv;

/* 10 when line is exactly header (ignoring a UTF-8 byte-order mark and
 * trailing blanks), else 0. For tt_format.detect. */
int tt_fc_detect_header(const char *line, const char *header);
/* 1 when line starts with prefix (after a byte-order mark), else 0. */
int tt_fc_header_starts(const char *line, const char *prefix);

/* Reads the header line of ig->src into c. Fails on an empty input
 * (TT_EEMPTY) and on more than FC_MAXF columns; a missing column is left
 * to tt_ig_need_col, which names it. 0 or a negative code. */
int tt_fc_header(ig_state *ig, fc_csv *c);
/* Reads the next row into c->f, which must have exactly c->n fields, and
 * counts it (tt_ig_row). 1 with a row, 0 at the end, a negative code on
 * error; an input with a header and no row is an error (TT_EEMPTY). */
int tt_fc_row(ig_state *ig, fc_csv *c);

/* *out = a + b for two times or durations, failing (naming field) when the
 * sum does not fit. */
int tt_fc_add(ig_state *ig, const char *field, int64_t a, int64_t b, int64_t *out);
/* A whole GPU count as the trace's int32 (gpus * 1000 must fit too). */
int tt_fc_gpus(ig_state *ig, const char *field, int64_t gpus, int32_t *out);
/* An optional count (node_num): -1 when missing. */
int tt_fc_count32_opt(ig_state *ig, const char *field, const char *text, int32_t *out);

/* For a GPU job with observed start and end times (either may be
 * absent): the tt_drop_reason that keeps it out of the simulation, or -1
 * when it can be kept, with j->duration set to end - start when the trace
 * gave none. */
int tt_fc_observed_run(tt_job *j);

/* A Slurm-style job log (Helios cluster_log.csv, Acme trace_*.csv):
 * columns job_id,user,gpu_num,node_num,state,submit_time,start_time,
 * end_time, and vc when with_vc; the run time is end - start.
 * With need_offset, times must carry a UTC offset unless a zone was
 * named in the options. Parses ig->src. */
int tt_fc_job_log(ig_state *ig, int with_vc, int need_offset);

#endif
