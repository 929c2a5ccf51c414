/* tt/tracefile.h: a trace in HDF5 (SPEC section 9).
 *
 * Layout: group /jobs with one dataset per column (int64 submit, duration,
 * start, end in seconds; int32 gpus, gpu_milli, nodes; int32 codes name,
 * user, vc, model, status), string tables /jobs/tables/<column> (variable-
 * length UTF-8) that the codes index, units on every dataset, provenance
 * as attributes of /jobs, and the marker attribute tracetune_layout =
 * "trace/1". Absent times are INT64_MIN, absent codes and counts -1 (each
 * dataset's "missing" attribute says so). h5py and h5dump read it without
 * this library; pandas through python/tracetune. Not thread-safe (the HDF5 library is serial).
 */
#ifndef TT_TRACEFILE_H
#define TT_TRACEFILE_H

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes t to path, whole or not at all (tt/outfile.h: a temporary file
 * beside it, renamed over path at the end, removed on failure).
 * 0 or a negative code. */
int tt_trace_save(tt_ctx *ctx, const tt_trace *t, const char *path);

/* Reads a trace written by tt_trace_save. TT_EFORMAT with a clear message
 * for a file that is not HDF5 or not a tracetune trace; TT_EIO when it
 * cannot be opened. *out is owned by the caller. */
int tt_trace_load(tt_ctx *ctx, const char *path, tt_trace **out);

#ifdef __cplusplus
}
#endif
#endif
