/* Device discovery. Linked with the static CUDA runtime, so a CUDA build
 * runs on a machine without a GPU and reports that instead of failing. */
#include "kernels.h"

#include <cstdio>
#include <cuda_runtime.h>

extern "C" int tt_kern_built(void) { return 1; }

/* Why no device answers, in the words a user acts on: CUDA's own text for
 * a missing driver is "CUDA driver version is insufficient for CUDA runtime
 * version", which sends one looking for a driver update. */
static void no_device(cudaError_t e, char *msg, size_t msgsize)
{
    int have = 0, need = 0;
    if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&have) == cudaSuccess &&
        have == 0)
        std::snprintf(msg, msgsize, "no GPU driver (no NVIDIA driver is loaded)");
    else if (e == cudaErrorInsufficientDriver && cudaRuntimeGetVersion(&need) == cudaSuccess)
        std::snprintf(msg, msgsize,
                      "GPU driver too old (it runs CUDA %d.%d, this build needs %d.%d)", have / 1000, have % 1000 / 10, need / 1000, need % 1000 / 10);
    else if (e == cudaErrorNoDevice || e == cudaSuccess)
        std::snprintf(msg, msgsize, "no GPU (the NVIDIA driver finds no CUDA device)");
    else
        std::snprintf(msg, msgsize, "no CUDA device (%s)", cudaGetErrorString(e));
}

extern "C" int tt_kern_device_count(int *n, char *msg, size_t msgsize)
{
    *n = 0;
    cudaError_t e = cudaGetDeviceCount(n);
    if (e != cudaSuccess || *n == 0) {
        no_device(e, msg, msgsize);
        *n = 0;
        return TT_KERN_NO_DEVICE;
    }
    std::snprintf(msg, msgsize, "%d CUDA device(s)", *n);
    return TT_KERN_OK;
}

extern "C" int tt_kern_device_describe(int dev, char *buf, size_t size)
{
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess) {
        std::snprintf(buf, size, "device %d: %s", dev, cudaGetErrorString(e));
        return TT_KERN_FAIL;
    }
    std::snprintf(buf, size, "%s, %.1f GiB, compute %d.%d, %d SMs", p.name,
                  (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), p.major, p.minor,
                  p.multiProcessorCount);
    return TT_KERN_OK;
}
