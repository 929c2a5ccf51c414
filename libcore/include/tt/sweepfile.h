/* tt/sweepfile.h: a sweep's results in HDF5 (SPEC section 9).
 *
 * Layout, all under the group /sweep (marker attribute tracetune_layout =
 * "sweep/1"; provenance attributes: trace_file, trace_format,
 * trace_source_sha256, cluster "RxNxG", models_source, models_sha256,
 * device ("cpu: N threads"), elapsed_s, sims_per_s, shard "K/N",
 * configurations (the full sweep's count), rows (this file's), tool_version,
 * configs_sha256 (tt_sweep_digest: equal in every shard of one sweep),
 * distinct_simulations (the simulations run for the rows, one per canonical
 * form among them, tt/canon.h; absent when every row was simulated, and
 * when there is no row)):
 *   /sweep/index            int64, one entry per row: the configuration's
 *                           position in the full sweep (from 0)
 *   /sweep/params/<param>   the 13 parameters of tt_param_names, one entry
 *                           per row: int64 (w0, w1, theta: INT64_MAX =
 *                           infinite, said by their "infinite" attribute),
 *                           seed uint64, order, mix and timers strings
 *   /sweep/metrics/<metric> the 16 metrics of tt_metric_names, int64 or
 *                           float64 as in tt_metrics
 * Rows are in configuration order. Every dataset has a "units" attribute
 * where it has units. Not thread-safe (the HDF5 library is serial).
 */
#ifndef TT_SWEEPFILE_H
#define TT_SWEEPFILE_H

#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Everything one sweep file holds; the caller keeps ownership. */
typedef struct {
    const tt_sweep *sweep;
    const tt_cluster *cluster;
    const tt_models *models;
    const char *trace_path;          /* as named by the user */
    const tt_provenance *trace_prov; /* or NULL */
    int64_t rows;
    const int64_t *index;            /* rows entries: positions in the sweep */
    const tt_metrics *metrics;       /* rows entries */
    int64_t shard_k, shard_n;        /* 0 and 1 for a whole sweep */
    const char *device;              /* "cpu: 8 threads" */
    double elapsed_s, sims_per_s;
    int64_t simulations;             /* > 0: distinct_simulations; 0: not
                                      * written (every row simulated, or
                                      * no row) */
} tt_sweep_save_args;

/* Writes path whole or not at all (a temporary file beside it, renamed at
 * the end, removed on failure). 0, TT_EINVAL or TT_EIO. */
int tt_sweep_save(tt_ctx *ctx, const char *path, const tt_sweep_save_args *a);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
