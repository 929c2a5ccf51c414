/* tt/run.h: many configurations of the scheduler over one trace and
 * cluster, simulated side by side, on the CPU cores or on the GPU. Sweeps
 * (tt/sweep.h) and the tuner (tt/tune.h) hand their configurations here.
 *
 * On the CPU, a pool of threads takes the next configuration from an
 * atomic counter (long and short ones balance); each thread binds one
 * engine state and reuses it. On the GPU (kernels/sweep.cu), one thread
 * per configuration, in batches sized to device memory. Both reduce a run
 * to the same summary, and results land in the slot of their
 * configuration, so they are the same, bit for bit, on every device and
 * thread count.
 *
 * Thread safety: the callbacks a run is given are called from its own
 * threads, each as it says.
 */
#ifndef TT_RUN_H
#define TT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Where the simulations run. CPU is the zero value; AUTO takes the GPU
 * when one is present and CUDA is built in, else the CPU. */
typedef enum { TT_DEVICE_CPU = 0, TT_DEVICE_AUTO = 1, TT_DEVICE_GPU = 2 } tt_device;

/* "auto", "cpu" or "gpu" (the tools' -d) into *out: 0, or TT_EINVAL with
 * *out untouched. */
int tt_device_parse(const char *name, tt_device *out);

/* The most CPU threads a run takes. */
#define TT_RUN_MAX_THREADS 4096

/* The CPUs this process may run on: those of its affinity mask (taskset,
 * cpusets, a Slurm allocation), fewer where a cgroup v2 quota (cpu.max)
 * grants less time; at least 1. Thread-safe. */
int tt_run_cpus(void);

typedef struct {
    int threads; /* CPU threads; <= 0: one per usable CPU (tt_run_cpus) */
    tt_device device;
    /* Called after each simulation (CPU) or batch (GPU) with the number
     * of simulations done and to run (fewer than the configurations when
     * some share a canonical form), one call at a time, from the worker
     * threads; may be NULL. */
    void (*progress)(void *arg, int64_t done, int64_t count);
    void *progress_arg;
    /* Asked before each configuration starts (CPU: by every worker thread,
     * possibly at once) or each batch (GPU); when it answers nonzero, no
     * further one starts and the run fails with TT_ESTOPPED. A flag that a
     * signal handler sets, read as a lock-free atomic, is what it is for.
     * May be NULL. */
    int (*stop)(void *arg);
    void *stop_arg;
    /* When not NULL, gets the device that ran: "cpu: 8 threads" or
     * "gpu: NVIDIA H100 ..., batches of 2048". */
    char *used;
    size_t used_size;
    /* GPU: at most this many configurations a launch (0: what device
     * memory holds); smaller batches change the speed, never the results */
    int64_t gpu_batch;
    /* 0 (the default): configurations that share a canonical form
     * (tt/canon.h) are simulated once, and each gets that simulation's
     * metrics, the same bit for bit as its own run would give. 1: every
     * configuration is simulated, for checking that and for timing. */
    int no_dedup;
    /* When not NULL, gets the simulations run: the distinct canonical
     * forms among the configurations (with no_dedup, the count). */
    int64_t *simulations;
} tt_run_opts;

/* Where a run's configurations come from. */
typedef struct {
    /* The parameters of configuration i (0 <= i < count) into *p: 0, or a
     * TT_E* code with the message in ctx. Called from the worker threads,
     * possibly at once, each with its own ctx; a configuration may be
     * asked for more than once. */
    int (*params)(void *arg, tt_ctx *ctx, int64_t i, tt_params *p);
    /* How messages name configuration i ("configuration 7"), into buf;
     * called one call at a time. */
    void (*label)(void *arg, int64_t i, char *buf, size_t size);
    void *arg;
} tt_run_source;

/* Simulates configurations 0 .. count of src on c over j with the model
 * table models; metrics[i] gets those of configuration i. The first
 * configuration of each canonical form is the one simulated (unless
 * opts->no_dedup), and a failure names it. Every
 * configuration is checked before any runs (TT_EINVAL / TT_ERANGE, the
 * message naming it by src's label); the jobs are checked as tt_simulate
 * does. On a failure during the runs, the threads take no further
 * configuration and the message is that of the failing one with the lowest
 * position among those that ran. 0, TT_EINVAL, TT_ERANGE, TT_ENOMEM,
 * TT_ESTOPPED, or src's code; with device GPU also TT_ENOTBUILT,
 * TT_ENODEV, or TT_EIO for a device failure. */
int tt_run(tt_ctx *ctx, const tt_cluster *c, const tt_models *models, const tt_sim_jobs *j,
           const tt_run_source *src, int64_t count, const tt_run_opts *opts,
           tt_metrics *metrics);

/* tt_run over the count parameter sets ps, named "candidate i" in
 * messages: metrics[i] gets those of ps[i]. Same return codes. */
int tt_run_params(tt_ctx *ctx, const tt_cluster *c, const tt_models *models,
                  const tt_sim_jobs *j, const tt_params *ps, int64_t count,
                  const tt_run_opts *opts, tt_metrics *metrics);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
