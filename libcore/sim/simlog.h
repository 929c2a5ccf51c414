/* The engine run with its segment log, for the invariant tests: every
 * stretch of a job holding GPUs, with the GPUs it held on each node. */
#ifndef TT_SIMLOG_H
#define TT_SIMLOG_H

#include "sim_step.h"
#include "tt/sim.h"

/* tt_simulate that also fills log (caller-owned arrays, log->cap segments
 * and log->alloc_cap ints; log->overflow is set when they were too small,
 * and the run's results are still complete). */
int tt_simulate_log(tt_ctx *ctx, const tt_cluster *c, const tt_params *p,
                    const tt_models *models, const tt_sim_jobs *j, tt_job_result *out,
                    tt_metrics *m, tt_timeline *tl, tts_seglog *log);

#endif
