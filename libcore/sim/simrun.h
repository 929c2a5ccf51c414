/* One simulation split in what every configuration of a trace shares and
 * what each configuration does, so that tt_simulate and the sweep's
 * threads run the same code: the checks, the engine's view of the jobs
 * (tts_trace, the duration ranks of sjf and srtf, the class slowdowns),
 * and one run over a state buffer that a thread binds once and reuses. */
#ifndef TT_SIMRUN_H
#define TT_SIMRUN_H

#include "sim_step.h"
#include "tt/sim.h"

/* Read-only once prepared; shared by any number of threads. It points into
 * itself (tr.slow_l1), so it must not be moved after tt_simprep_init. */
typedef struct {
    const tt_sim_jobs *j;
    const tt_models *models;
    int nclasses;
    tts_cluster tc;
    tts_trace tr;
    int64_t slow_l1[TT_MAX_CLASSES], slow_l2[TT_MAX_CLASSES];
    int64_t slow_max;    /* the largest class slowdown, permille */
    int64_t dur_max;     /* the longest duration, s */
    int32_t *rank_job, *job_rank; /* NULL unless prepared with ranks */
    int64_t state_bytes;
} tt_simprep;

/* The cluster's bounds and the job count. 0 or TT_EINVAL / TT_ERANGE. */
int tt_simprep_check_frame(tt_ctx *ctx, const tt_cluster *c, const tt_sim_jobs *j);
/* A parameter set's ranges (those tt_params_set also enforces). */
int tt_simprep_check_params(tt_ctx *ctx, const tt_params *p, int nclasses);
/* Checks the jobs and the model table against the engine's bounds and
 * fills prep; ranks: also the (duration, index) ranks sjf and srtf need.
 * The frame must have been checked. 0, TT_EINVAL, TT_ERANGE, TT_ENOMEM;
 * free with tt_simprep_free either way. */
int tt_simprep_init(tt_ctx *ctx, tt_simprep *prep, const tt_cluster *c, const tt_models *m,
                    const tt_sim_jobs *j, int ranks);
void tt_simprep_free(tt_simprep *prep);
/* The bound that depends on the configuration: no job's work may pass
 * 2^50 at the slowdown congestion gives. TT_ERANGE naming the job. */
int tt_simprep_check_bound(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p);

/* A thread's working memory: the engine state (bound once) and the two
 * scratch arrays of the percentiles. */
typedef struct {
    void *buf;
    tts_state S;
    int64_t *jct, *que;
} tt_simwork;

/* 0 or TT_ENOMEM; free with tt_simwork_free either way. */
int tt_simwork_init(tt_ctx *ctx, tt_simwork *w, const tt_simprep *prep);
void tt_simwork_free(tt_simwork *w);

/* Runs one configuration, checked with tt_simprep_check_params and
 * tt_simprep_check_bound, over w. out, m, tl and log may be NULL.
 * 0, TT_EINVAL (sjf or srtf without ranks; an engine fault), TT_ENOMEM. */
int tt_simrun(tt_ctx *ctx, const tt_simprep *prep, tt_simwork *w, const tt_params *p,
              tt_job_result *out, tt_metrics *m, tt_timeline *tl, tts_seglog *log);

/* The engine's configuration for p (the mix as running sums). */
void tt_simrun_config(const tt_params *p, int nclasses, tts_config *cf);

/* SPEC 7's metrics from a run's summary (percentiles filled): the one
 * conversion every backend's results go through. */
void tt_metrics_from_summary(const tts_summary *sm, tt_metrics *m);

#endif
