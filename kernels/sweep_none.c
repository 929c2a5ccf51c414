/* The sweep kernels in a build without CUDA: they say so. */
#include <stdio.h>

#include "kernels.h"

int tt_kern_sweep(const tts_trace *tr, const tts_cluster *c, int64_t count,
                  const tt_kern_sweep_opts *o, tts_summary *out, char *used, size_t used_size,
                  char *msg, size_t msgsize)
{
    (void)tr, (void)c, (void)count, (void)o, (void)out;
    if (used_size)
        used[0] = '\0';
    snprintf(msg, msgsize, "CUDA support not built in");
    return TT_KERN_NOT_BUILT;
}
