/* The GPU entry points of a build without CUDA: they say so. */
#include "kernels.h"

#include <stdio.h>

int tt_kern_built(void) { return 0; }

int tt_kern_device_count(int *n, char *msg, size_t msgsize)
{
    *n = 0;
    snprintf(msg, msgsize, "CUDA support not built in");
    return TT_KERN_NOT_BUILT;
}

int tt_kern_device_describe(int dev, char *buf, size_t size)
{
    (void)dev;
    snprintf(buf, size, "CUDA support not built in");
    return TT_KERN_NOT_BUILT;
}
