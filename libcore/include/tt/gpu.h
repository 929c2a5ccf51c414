/* tt/gpu.h: what GPU support this build and this machine have. */
#ifndef TT_GPU_H
#define TT_GPU_H

#include <stddef.h>

#include "tt/error.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* 1 when CUDA was built in. */
int tt_gpu_built(void);
/* Writes one line on the GPU situation ("NVIDIA H100 ..., 79.1 GiB, ...",
 * "no CUDA device (...)", "CUDA support not built in") to buf. Returns the
 * number of usable devices (0 when none), never fails. */
int tt_gpu_describe(char *buf, size_t size);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
