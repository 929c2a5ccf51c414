/* tt/table.h: the results of the other tools as named columns, for
 * figures (tt-plot) and anything else that reads them back.
 *
 * A table comes from
 *   - TSV as tt-sim and tt-sweep print it (one header line of unique
 *     names, tab-separated rows; `inf` is infinite, an empty field absent),
 *   - a sweep file (/sweep/params, /sweep/metrics: one row per
 *     configuration),
 *   - a simulation result (/sim/summary: one row; /sim/jobs: one row per
 *     job, with jct = end - submit added; /sim/timeline),
 *   - a tune file (tt/tune.h: /tune/history, one row per evaluated
 *     configuration, /tune/space, and a rolling tune's /tune/rolling),
 *   - a trace (tt/tracefile.h) summarised as tt-stats does (tt/stats.h).
 * A column is numeric (double: INT64_MAX stored as infinite reads as
 * +INFINITY, an absent value as NAN) or text. Numbers are only carried and
 * compared, never computed with, so double holds every value the tools
 * print exactly (integers up to 2^53; seeds, which may be larger, are kept
 * as text). The columns of an HDF5 group are read by the datasets it
 * holds: a column an older file lacks (timers) is absent, not an error,
 * and one a newer writer adds (w0.bert) is read too. The group's text and
 * integer attributes (trace_source_sha256, cluster, ...) come along; the
 * jobs and the timeline of a simulation result also carry the run's
 * parameters (its /sim/summary row) as attributes named after them (w0,
 * theta, order, ...), written as the tools print them (600, inf, fifo).
 *
 * Ownership: a table owns its columns; tt_table_free releases them.
 * Reading a table from many threads is safe; loading is not (HDF5 is
 * serial).
 */
#ifndef TT_TABLE_H
#define TT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

typedef struct tt_table tt_table;

/* Which part of an HDF5 result file to read (TSV has one part: itself). */
typedef enum {
    TT_TABLE_CONFIGS,   /* /sweep rows, or the one row of /sim/summary */
    TT_TABLE_JOBS,      /* /sim/jobs (+ jct) */
    TT_TABLE_TIMELINE,  /* /sim/timeline */
    TT_TABLE_TUNE,      /* /tune/history, train rows then test: part, phase, round,
                           objective, feasible, predicted, the parameters, the
                           metrics, and role: the roles of /tune/result whose
                           train_row or test_row is the row, comma-separated
                           ("recommended,hindsight"; "" for none) */
    TT_TABLE_TUNE_SPACE, /* /tune/space: a row per value of each searched dimension:
                           dim, scale (linear, log, list), units (text), value;
                           dimensions in the order the file created them where
                           it keeps that order, else in parameter order
                           (w0, w0.bert, w1, theta, ...) */
    TT_TABLE_TUNE_ROLLING /* /tune/rolling of a tt-tune --rolling -o file: a row per
                             window (tt/tune.h); TSV: tt-tune --rolling's rows, the
                             total row included (its window column is then text) */
} tt_table_part;

/* Reads the file path (HDF5 or TSV, told apart by the HDF5 signature).
 * 0, or TT_EIO (cannot read), TT_EFORMAT (HDF5 without the part asked,
 * a trace; a tune part of anything but a tune file; a group whose
 * tracetune_layout is absent or not the one this version reads: sweep/1,
 * sim/1, tune/1), TT_EPARSE
 * ("FILE:LINE: field 'x': ..."), TT_EEMPTY (no header or no row),
 * TT_ENOMEM. *out is the caller's, NULL on error. */
int tt_table_load(tt_ctx *ctx, const char *path, tt_table_part part, tt_table **out);
/* The same from len bytes in memory (e.g. standard input); name is used in
 * messages. The bytes are not kept. */
int tt_table_read_mem(tt_ctx *ctx, const char *name, const void *data, size_t len,
                      tt_table_part part, tt_table **out);

/* The tt-stats views of a trace the `trace` figure draws. */
typedef enum {
    TT_TABLE_TRACE_GPUS,     /* gpus, jobs, gpu_s: one row per distinct GPU count */
    TT_TABLE_TRACE_DURATION, /* duration (s), ascending: one row per job */
    TT_TABLE_TRACE_LOAD      /* t (s from the first submit, bin start), submitted,
                                gpus (GPUs demanded on average over the bin) */
} tt_table_trace_view;
/* A view of the trace t (the contract of tt/stats.h); bin is the load bin
 * in seconds (view LOAD only; 0: the span / 300 rounded up to whole hours).
 * Attributes: trace_format and trace_source_files (the provenance) and
 * jobs. 0 or the codes of tt/stats.h; TT_EFORMAT when the durations of t
 * are not seconds (tt_trace_need_seconds: "the trace cannot be drawn as it
 * is"). */
int tt_table_from_trace(tt_ctx *ctx, const tt_trace *t, tt_table_trace_view view, int64_t bin,
                        tt_table **out);

/* Keeps only the rows whose column name equals value (read as the TSV
 * reads a cell: a number, `inf`, or text for a text column). 0, TT_EINVAL
 * (no such column, value not a number for a numeric column), or TT_EEMPTY
 * when no row is left. */
int tt_table_where(tt_ctx *ctx, tt_table *t, const char *name, const char *value);

/* NULL is accepted. */
void tt_table_free(tt_table *t);

int64_t tt_table_rows(const tt_table *t);
int tt_table_cols(const tt_table *t);
/* Where the table came from, as named to tt_table_load / read_mem. */
const char *tt_table_source(const tt_table *t);
/* The attribute name of the HDF5 file's group (/sweep, /sim or /tune) as
 * text, integers in decimal (and those above: run parameters, trace
 * views); NULL when absent (always for TSV). */
const char *tt_table_attr(const tt_table *t, const char *name);
/* The index of the column name, or -1. */
int tt_table_find(const tt_table *t, const char *name);
const char *tt_table_name(const tt_table *t, int col);
/* The column's units ("s", "permille", ...): the HDF5 "units" attribute,
 * or for TSV those of the parameter or metric of that name; "" if none. */
const char *tt_table_units(const tt_table *t, int col);
/* The values of a numeric column (rows entries), NULL for a text column. */
const double *tt_table_values(const tt_table *t, int col);
/* The text of a text column's cell, NULL for a numeric column. */
const char *tt_table_text(const tt_table *t, int col, int64_t row);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
