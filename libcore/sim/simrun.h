/* One simulation split in what every configuration of a trace shares and
 * what each configuration does, so that tt_simulate and the sweep's
 * threads run the same code: the checks, the engine's view of the jobs
 * (tts_trace, the duration ranks of sjf and srtf, the class slowdowns),
 * and one run over a state buffer that a thread binds once and reuses. */
#ifndef TT_SIMRUN_H
#define TT_SIMRUN_H

#include "sim_step.h"
#include "tt/sim.h"

/* What a preparation is made for (tt_simprep_needs): the duration ranks
 * of sjf and srtf, the sorted array of waiting jobs (evicted ones under
 * srtf, las, dlas and gittins, all under ftf), per-job results, the state
 * of dlas and gittins, ftf's keys, a Gittins distribution, the elastic
 * jobs' state. */
enum {
    TT_NEED_RANKS = 1, TT_NEED_VICT = 2, TT_NEED_JOBS = 4, TT_NEED_MLFQ = 8, TT_NEED_FTF = 16,
    TT_NEED_GITTINS = 32, /* a distribution to load (tt_simprep_gittins) */
    TT_NEED_ELASTIC = 64,
    TT_NEED_CACHE = 128, /* gpu_mem > 0: GPU identity, the model cache */
    /* with the cache, cache_slots k sets the k bits from here up: the
     * union over configurations holds the largest, and a run's bits are
     * a subset of a preparation's exactly when it has room for its slots */
    TT_NEED_SLOT1 = 256,
    /* with the cache, placement by L (cache_place=affinity, w_warm > 0):
     * per node and model the free GPUs holding it */
    TT_NEED_LXCNT = 65536,
    TT_NEED_WARM = 131072 /* w_warm > 0: the evicted jobs' warm wait */
};
#define TT_NEED_SLOTS(k) ((((1 << (k)) - 1)) * TT_NEED_SLOT1)

/* The submit' arrays of the loads in flight (sim.c). */
typedef struct tt_subcache tt_subcache;

/* Which jobs a run of gittins_dist=trace accepts beyond those that fit the
 * cluster, so which samples its distribution takes: all zero unless some
 * model is larger than gpu_mem (then gpu_mem, and the seed and the mix
 * when some job's class, so its model, is drawn). */
typedef struct {
    int64_t gpu_mem;
    uint64_t seed, mix_cum[TTS_MAX_CLASSES];
} tt_gitkey;

/* Read-only once prepared; shared by any number of threads (the submit'
 * arrays behind subs are shared through their own lock). It points into
 * itself (tr.slow_l1), so it must not be moved after tt_simprep_init. */
typedef struct {
    const tt_sim_jobs *j;
    const tt_models *models;
    int nclasses;
    tts_cluster tc;
    tts_trace tr;
    int64_t slow_l1[TT_MAX_CLASSES], slow_l2[TT_MAX_CLASSES];
    int32_t nscale[TT_MAX_CLASSES];
    int64_t scale[TT_MAX_CLASSES * TTS_SCALE_MAX];
    int64_t slow_max;    /* the largest class slowdown, permille */
    int64_t dur_max;     /* the longest duration, s */
    int32_t *rank_job, *job_rank; /* NULL unless prepared with TT_NEED_RANKS */
    int needs;                    /* TT_NEED_* */
    int32_t with;                 /* the engine state's optional parts (TTS_WITH_*) */
    int64_t state_bytes;
    tt_subcache *subs;
    /* the Gittins distributions loaded (tt_simprep_gittins), by name and
     * key (gittins.c: trace's samples depend on what a run rejects) */
    tts_gittins *git;
    char (*git_name)[TT_GITTINS_DIST_MAX];
    tt_gitkey *git_key;
    int32_t ngit;
    int git_drawn; /* 0 not yet known, 1 no job's class is drawn from the mix, 2 some is */
    /* workflows (wf.c), NULL when the trace has no task: per job its task
     * and dense workflow index, per workflow its lowest job, the children */
    int32_t *wf_tsk, *wf_wfi, *wf_first, *wf_ch;
    int64_t *wf_choff;
    /* the model cache's ids and sizes (wf.c), NULL unless prepared with
     * TT_NEED_CACHE */
    int32_t *c_mdl, *c_msz;
} tt_simprep;

/* What a run of p needs prepared; jobs: per-job results are asked for. */
int tt_simprep_needs(const tt_params *p, int jobs);

/* The cluster's bounds and the job count. 0 or TT_EINVAL / TT_ERANGE. */
int tt_simprep_check_frame(tt_ctx *ctx, const tt_cluster *c, const tt_sim_jobs *j);
/* A parameter set's ranges (those tt_params_set also enforces). */
int tt_simprep_check_params(tt_ctx *ctx, const tt_params *p, int nclasses);
/* Checks the jobs and the model table against the engine's bounds and
 * fills prep for the runs needs says (TT_NEED_*, the union of
 * tt_simprep_needs over them). The frame must have been checked. 0,
 * TT_EINVAL, TT_ERANGE, TT_ENOMEM; free with tt_simprep_free either way. */
int tt_simprep_init(tt_ctx *ctx, tt_simprep *prep, const tt_cluster *c, const tt_models *m,
                    const tt_sim_jobs *j, int needs);
/* Loads the distribution p's gittins_dist names ("trace", the jobs p's
 * runs accept, or a file) unless prep holds it already (gittins.c). 0, or
 * TT_EIO / TT_EPARSE / TT_ENOMEM naming the file and line. */
int tt_simprep_gittins(tt_ctx *ctx, tt_simprep *prep, const tt_params *p);
/* The index in prep->git of p's distribution, or -1 when not loaded. */
int32_t tt_simprep_gittins_find(const tt_simprep *prep, const tt_params *p);
void tt_simprep_free(tt_simprep *prep);
/* The bound that depends on the configuration: no job's work may pass
 * 2^50 at the slowdown congestion gives. TT_ERANGE naming the job. */
int tt_simprep_check_bound(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p);

/* A thread's working memory: the engine state, bound once (its spent
 * arrays hold the JCTs and queueing delays the percentiles are taken
 * from). */
typedef struct {
    void *buf;
    tts_state S;
} tt_simwork;

/* 0 or TT_ENOMEM; free with tt_simwork_free either way. */
int tt_simwork_init(tt_ctx *ctx, tt_simwork *w, const tt_simprep *prep);
void tt_simwork_free(tt_simwork *w);

/* Runs one configuration, checked with tt_simprep_check_params and
 * tt_simprep_check_bound, over w. out, m, tl and log may be NULL.
 * 0, TT_EINVAL (prep lacks what the run needs; an engine fault),
 * TT_ENOMEM. Thread-safe over one prep, each thread with its own w. */
int tt_simrun(tt_ctx *ctx, const tt_simprep *prep, tt_simwork *w, const tt_params *p,
              tt_job_result *out, tt_metrics *m, tt_timeline *tl, tts_seglog *log);

/* The engine's configuration for p (the mix as running sums; no Gittins
 * distribution: git = -1). */
void tt_simrun_config(const tt_params *p, int nclasses, tts_config *cf);
/* tt_simrun_config, with p's Gittins distribution found in prep (loaded by
 * tt_simprep_gittins). 0, or TT_EINVAL when it was not loaded. */
int tt_simprep_config(tt_ctx *ctx, const tt_simprep *prep, const tt_params *p, tts_config *cf);

/* ---- workflows (wf.c) ---- */

/* prep->tr's workflow arrays from prep->j's columns (none without a task).
 * 0, TT_EINVAL (tasks without deps), TT_ENOMEM. */
int tt_simprep_wf(tt_ctx *ctx, tt_simprep *prep);
void tt_simprep_wf_free(tt_simprep *prep);
/* prep->tr's model ids and sizes for the cache (TT_NEED_CACHE). 0 or
 * TT_ENOMEM. */
int tt_simprep_models(tt_ctx *ctx, tt_simprep *prep);

/* ---- the Gittins distributions (gittins.c) ---- */

/* gpus x duration of the jobs a run of cf accepts (SPEC 11.2): those that
 * fit cluster_gpus, whose model fits gpu_mem, in no workflow rejected whole
 * (the rules of tts_init and tts_wf_init). 0 or TT_ENOMEM. */
int tt_gittins_from_trace(tt_ctx *ctx, const tts_trace *tr, const tts_config *cf,
                          int64_t cluster_gpus, tts_gittins *g);
/* A file of integers (GPU-s, one a line, an optional header line). 0, or
 * TT_EIO / TT_EPARSE naming the file and line, TT_ENOMEM. */
int tt_gittins_load(tt_ctx *ctx, const char *path, tts_gittins *g);
/* The distribution bundled under name (tt_gittins_bundled). 0, or
 * TT_EINVAL for a name that is not bundled. */
int tt_gittins_builtin(tt_ctx *ctx, const char *name, tts_gittins *g);

/* SPEC 7's metrics from a run's summary (percentiles filled): the one
 * conversion every backend's results go through. */
void tt_metrics_from_summary(const tts_summary *sm, tt_metrics *m);

#endif
