/* The storage description of parameters and metrics (internal/simdesc.h). */
#include "internal/simdesc.h"

#define PAR(kind, f, units, inf) {kind, offsetof(tt_params, f), units, inf}
const sd_param sd_params[TT_NPARAMS] = {
    PAR(SD_TEXT, order, NULL, 0),       PAR(SD_I64, w0, "s", 1),
    PAR(SD_I64, w1, "s", 1),            PAR(SD_I64, theta, "permille", 1),
    PAR(SD_I64, restart, "s", 0),       PAR(SD_I64, congestion, "permille", 0),
    PAR(SD_I64, min_run, "s", 0),       PAR(SD_I64, max_preempt, "evictions", 0),
    PAR(SD_I32, backfill, "0 or 1", 0), PAR(SD_I64, load, "permille", 0),
    PAR(SD_U64, seed, NULL, 0),         PAR(SD_TEXT, mix, NULL, 0),
};

#define MET(f, real, units) {offsetof(tt_metrics, f), real, units}
const sd_metric sd_metrics[TT_NMETRICS] = {
    MET(makespan, 0, "s"),
    MET(jct_mean, 1, "s"),
    MET(jct_p50, 0, "s"),
    MET(jct_p90, 0, "s"),
    MET(jct_p99, 0, "s"),
    MET(queue_mean, 1, "s"),
    MET(queue_p99, 0, "s"),
    MET(comm_gpu_s, 1, "GPU-s"),
    MET(comm_share, 1, "fraction of used GPU-s"),
    MET(restart_gpu_s, 0, "GPU-s"),
    MET(preemptions, 0, "evictions"),
    MET(placed_l0, 0, "starts"),
    MET(placed_l1, 0, "starts"),
    MET(placed_l2, 0, "starts"),
    MET(util, 1, "fraction of cluster GPU-s"),
    MET(rejected, 0, "jobs"),
};
