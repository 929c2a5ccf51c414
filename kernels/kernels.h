/* kernels.h: the C interface of the CUDA code, called only by libcore.
 * Built from gpu.cu (and later kernel files) with nvcc, or from
 * gpu_none.c when CUDA is not built in, where every entry point reports
 * TT_KERN_NOT_BUILT. Plain C types only, so libcore needs no CUDA header. */
#ifndef TT_KERNELS_H
#define TT_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TT_KERN_OK = 0, TT_KERN_NOT_BUILT = -1, TT_KERN_NO_DEVICE = -2, TT_KERN_FAIL = -3 };

/* 1 when this build contains CUDA code. */
int tt_kern_built(void);
/* Number of usable CUDA devices in *n; TT_KERN_OK, TT_KERN_NOT_BUILT, or
 * TT_KERN_NO_DEVICE when the driver is absent. msg gets a reason. */
int tt_kern_device_count(int *n, char *msg, size_t msgsize);
/* Name, memory and compute capability of device dev, as one line. */
int tt_kern_device_describe(int dev, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
