/* GPU discovery for the tools, over the kernels' C interface. */
#include "tt/gpu.h"

#include <stdio.h>

#include "kernels.h"

int tt_gpu_built(void) { return tt_kern_built(); }

int tt_gpu_describe(char *buf, size_t size)
{
    int n = 0;
    char msg[256];
    if (tt_kern_device_count(&n, msg, sizeof msg) != TT_KERN_OK || n == 0) {
        snprintf(buf, size, "%s", msg);
        return 0;
    }
    char dev[256];
    tt_kern_device_describe(0, dev, sizeof dev);
    snprintf(buf, size, "%d device(s); device 0: %s", n, dev);
    return n;
}
