/* tt/simfile.h: one simulation's results in HDF5 (SPEC section 9), and
 * simulation rows as TSV.
 *
 * Layout, all under the group /sim (marker attribute tracetune_layout =
 * "sim/1"; provenance attributes: trace_file, trace_format,
 * trace_source_files, trace_source_sha256, cluster "RxNxG", racks,
 * nodes_per_rack, gpus_per_node, models_source, models_sha256,
 * tool_version, jobs, unknown_models):
 *   /sim/summary/<param>   the 13 parameters of tt_param_names: int64
 *                          scalars (w0, w1, theta: INT64_MAX = infinite,
 *                          said by their "infinite" attribute; seed uint64),
 *                          order, mix and timers as strings
 *   /sim/summary/<metric>  the 16 metrics of tt_metric_names, int64 or
 *                          float64 scalars as in tt_metrics
 *   /sim/jobs/<column>     per job, in trace order: job (index), submit,
 *                          duration, start, end, queue, gpu_s (int64); gpus,
 *                          cls, level, slow, preemptions, starts_l0,
 *                          starts_l1, starts_l2, rejected (int32). Absent
 *                          times are INT64_MIN and an absent level -1, as
 *                          each column's "missing" attribute says
 *   /sim/models/name, slow_l1, slow_l2   the model table (cls indexes it)
 *   /sim/timeline/<column> t, waiting, running, busy_gpus, running_l0,
 *                          running_l1, running_l2 (int64), when given
 * Every dataset has a "units" attribute where it has units. h5py and
 * h5dump read it without this library; pandas through python/tracetune. Not thread-safe (the HDF5
 * library is serial).
 */
#ifndef TT_SIMFILE_H
#define TT_SIMFILE_H

#include <stdint.h>
#include <stdio.h>

#include "tt/error.h"
#include "tt/sim.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Everything one result file holds; the caller keeps ownership. */
typedef struct tt_sim_save_args {
    const tt_cluster *cluster;
    const tt_params *params;
    const tt_models *models;
    const char *trace_path;          /* the trace file as named by the user */
    const tt_provenance *trace_prov; /* the trace's provenance, or NULL */
    const tt_sim_jobs *input;        /* the simulated jobs (duration, gpus) */
    const tt_job_result *results;    /* input->n entries */
    const tt_metrics *metrics;
    const tt_timeline *timeline;     /* NULL: no /sim/timeline */
} tt_sim_save_args;

/* Writes the results to path, whole or not at all: into a temporary file
 * beside it (tt/outfile.h), renamed over path at the end and removed on
 * failure. 0, TT_EINVAL (a missing argument, a path too long) or TT_EIO. */
int tt_sim_save(tt_ctx *ctx, const char *path, const tt_sim_save_args *a);

/* The TSV of tt-sim and tt-sweep (read back by tt_table_load): a header
 * of the parameter names (tt_param_names) then the metric names
 * (tt_metric_names), and a row per configuration with the parameters as
 * tt_params_format writes them and the metrics as tt_metric_format does,
 * written to f. 0, or TT_EIO when f has an error set. */
int tt_sim_tsv_header(FILE *f);
int tt_sim_tsv_row(FILE *f, const tt_params *p, const tt_models *models, const tt_metrics *m);

/* A choice of output columns for people (tt-sim, tt-sweep: -m and
 * --human): parameters and metrics by name, and "preset", the named
 * baseline a row was made from ("-" when none). */
#define TT_VIEW_MAX 128
typedef struct {
    int n;
    int16_t col[TT_VIEW_MAX];
} tt_view;
/* The last of SPEC 7's metrics (tt_metric_names' index of "rejected"). */
#define TT_METRIC_LAST_SPEC7 15
/* Parses a comma-separated list of column names into v; NULL or "": every
 * parameter and metric, as tt_sim_tsv_header. 0, or TT_EINVAL naming the
 * unknown name and the nearest known one ("did you mean"). */
int tt_view_parse(tt_ctx *ctx, const char *list, tt_view *v);
/* The header and one row of v's columns as TSV to f. preset: the row's
 * preset name, or NULL. 0 or TT_EIO. */
int tt_view_tsv_header(FILE *f, const tt_view *v);
int tt_view_tsv_row(FILE *f, const tt_view *v, const tt_params *p, const tt_models *models,
                    const tt_metrics *m, const char *preset);
/* One row as aligned "name  value  (value in days, hours, GPU-hours, %)"
 * lines to f. 0 or TT_EIO. */
int tt_view_human(FILE *f, const tt_view *v, const tt_params *p, const tt_models *models,
                  const tt_metrics *m, const char *preset);
/* The columns --human shows without -m: the preset, the order and every
 * parameter not at its default, SPEC 7's metrics and the other metrics
 * that are not 0. */
void tt_view_human_default(const tt_params *p, const tt_models *models, const tt_metrics *m,
                           const char *preset, tt_view *v);
/* The name of names[0 .. n) nearest to name (at most two edits, or name a
 * prefix of it), or NULL: for "did you mean" messages. */
const char *tt_view_suggest(const char *name, const char *const *names, int n);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
