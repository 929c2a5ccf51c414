/* tt/tracefile.h: a trace in HDF5 (SPEC section 9).
 *
 * Layout: group /jobs with one dataset per column (int64 submit, duration,
 * start, end in seconds; int32 gpus, gpu_milli, nodes; int32 codes name,
 * user, vc, model, status), string tables /jobs/tables/<column> (UTF-8,
 * fixed length and NUL-padded; variable length in files written before,
 * which are read as well) that the codes index, every dataset chunked with
 * shuffle + deflate, units on every dataset, provenance as attributes of
 * /jobs, and the marker attribute tracetune_layout = "trace/1". Absent
 * times are INT64_MIN, absent codes and counts -1 (each dataset's
 * "missing" attribute says so). The optional columns of SPEC 10.6 and
 * 12.7 are datasets only in the files of traces that have them: int8
 * elastic, int32 gpus_min, gpus_max, mid, mem_mb, out_mb, int64 wf, and
 * the parents as int64 dep_off (row i's first entry in /jobs/deps, one per
 * row: row i's parents end where row i + 1's begin, the last row's at the
 * end of deps) and int32 deps (row indices). h5py and h5dump read it without this
 * library; pandas through python/tracetune. Not thread-safe (the HDF5
 * library is serial).
 */
#ifndef TT_TRACEFILE_H
#define TT_TRACEFILE_H

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Writes t to path, whole or not at all (tt/outfile.h: a temporary file
 * beside it, renamed over path at the end, removed on failure).
 * 0 or a negative code. */
int tt_trace_save(tt_ctx *ctx, const tt_trace *t, const char *path);

/* The columns a reader may ask for (tt_trace_load_cols), one bit each. */
#define TT_COL_SUBMIT (1u << 0)
#define TT_COL_DURATION (1u << 1)
#define TT_COL_START (1u << 2)
#define TT_COL_END (1u << 3)
#define TT_COL_GPUS (1u << 4)
#define TT_COL_GPU_MILLI (1u << 5)
#define TT_COL_NODES (1u << 6)
#define TT_COL_NAME (1u << 7)
#define TT_COL_USER (1u << 8)
#define TT_COL_VC (1u << 9)
#define TT_COL_MODEL (1u << 10)
#define TT_COL_STATUS (1u << 11)
/* and the optional ones of tt/trace.h, TT_COL_ELASTIC .. TT_COL_OUT_MB */
#define TT_COL_ALL ((1u << 20) - 1)
/* What the simulator reads (tt_sim_jobs_from_trace): the workflow columns
 * too, or tasks would run as plain jobs. */
#define TT_COL_SIM                                                                  \
    (TT_COL_SUBMIT | TT_COL_DURATION | TT_COL_GPUS | TT_COL_MODEL | TT_COL_ELASTIC | \
     TT_COL_GPUS_MIN | TT_COL_GPUS_MAX | TT_COL_WF | TT_COL_DEPS | TT_COL_MID |      \
     TT_COL_MEM_MB | TT_COL_OUT_MB)
/* What the statistics read (tt/stats.h). */
#define TT_COL_STATS                                                                        \
    (TT_COL_SUBMIT | TT_COL_DURATION | TT_COL_GPUS | TT_COL_GPU_MILLI | TT_COL_USER | TT_COL_VC | \
     TT_COL_ELASTIC | TT_COL_WF)

/* The bit of the column called name ("submit", "gpu_milli", "vc",
 * "elastic", "deps", ...), or 0 for no such column. */
unsigned tt_trace_col(const char *name);

/* Reads a trace written by tt_trace_save. TT_EFORMAT with a clear message
 * for a file that is not HDF5 or not a tracetune trace; TT_EIO when it
 * cannot be opened. *out is owned by the caller. */
int tt_trace_load(tt_ctx *ctx, const char *path, tt_trace **out);
/* The same from the len bytes of an HDF5 file in memory (tests and
 * fuzzing), named name in messages; the bytes are not kept. */
int tt_trace_load_mem(tt_ctx *ctx, const void *data, size_t len, const char *name,
                      tt_trace **out);

/* tt_trace_load reading only the columns in cols (TT_COL_*; submit,
 * duration and gpus always, as the trace contract is checked on every
 * load), and the string tables of those read: a tool that never prints
 * names does not hold 5M of them. The other columns are NULL and their
 * tables empty; the provenance is read whole. */
int tt_trace_load_cols(tt_ctx *ctx, const char *path, unsigned cols, tt_trace **out);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
