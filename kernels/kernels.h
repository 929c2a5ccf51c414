/* kernels.h: the C interface of the CUDA code, called only by libcore.
 * Built from gpu.cu (and later kernel files) with nvcc, or from
 * gpu_none.c when CUDA is not built in, where every entry point reports
 * TT_KERN_NOT_BUILT. Plain C types only, so libcore needs no CUDA header. */
#ifndef TT_KERNELS_H
#define TT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "sim_step.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TT_KERN_OK = 0,
    TT_KERN_NOT_BUILT = -1,
    TT_KERN_NO_DEVICE = -2,
    TT_KERN_FAIL = -3,    /* a CUDA call failed; msg says which */
    TT_KERN_NOMEM = -4,   /* not even one configuration fits in device memory */
    TT_KERN_STOPPED = -5, /* stop() said so between batches */
    TT_KERN_CONFIG = -6   /* config() failed for a configuration */
};

/* 1 when this build contains CUDA code. */
int tt_kern_built(void);
/* Number of usable CUDA devices in *n; TT_KERN_OK, TT_KERN_NOT_BUILT, or
 * TT_KERN_NO_DEVICE when the driver is absent. msg gets a reason. */
int tt_kern_device_count(int *n, char *msg, size_t msgsize);
/* Name, memory and compute capability of device dev, as one line. */
int tt_kern_device_describe(int dev, char *buf, size_t size);

/* ---- the sweep (kernels/sweep.cu) ---- */

typedef struct {
    /* Writes configuration i (0 <= i < count) to *cf; nonzero stops the
     * sweep with TT_KERN_CONFIG. Called on the host, in order; the first
     * configuration of a batch may have been asked for already, by the
     * batch before (whose submit' arrays it found taken). */
    int (*config)(void *arg, int64_t i, tts_config *cf);
    /* Nonzero: start no further batch (TT_KERN_STOPPED). May be NULL. */
    int (*stop)(void *arg);
    /* After each batch, with the number of configurations done. May be NULL. */
    void (*progress)(void *arg, int64_t done, int64_t count);
    void *arg;
    int64_t max_batch; /* 0: as many as device memory holds */
    int32_t with;      /* the state's optional parts every configuration needs (TTS_WITH_*) */
} tt_kern_sweep_opts;

/* Simulates count configurations of the trace tr (host arrays, its
 * Gittins distributions too) on c, one GPU thread per configuration, in
 * batches sized to device memory; the trace is copied to the device once. out[i] gets configuration i's
 * summary with its percentiles (selected in the kernel, as on the CPU). used gets
 * "NAME, batches of B". msg gets the reason of a failure. */
int tt_kern_sweep(const tts_trace *tr, const tts_cluster *c, int64_t count,
                  const tt_kern_sweep_opts *o, tts_summary *out, char *used, size_t used_size,
                  char *msg, size_t msgsize);

#ifdef __cplusplus
}
#endif
#endif
