/* bench/wf-bytes: the engine state that workflows and the model cache add
 * (SPEC 12.9), from kernels/sim_step.h's layout, for bench/workflows.
 *
 *   wf-bytes RxNxG
 *
 * Prints "per_task<TAB>per_wf<TAB>per_gpu_cache at 1, 4 and 8 slots (three
 * columns)<TAB>per_node_cache<TAB>per_job_ovh<TAB>per_model_demand<TAB>
 * per_node_model_lx<TAB>per_job_warm" (per_node_model_lx: affinity's and
 * the warm wait's count of a node's free GPUs holding a model, per node
 * and model id; per_job_warm: the evicted jobs' warm wait): the
 * bytes each added part takes, as differences of tts_state_bytes_tr
 * between layouts with and without it (a large count, so the fixed
 * cursors round away). A GPU's bytes are those of a state sized for
 * cache_slots = 1, 4 (the default) and 8 (a sweep up to the most). */
#include <stdio.h>

#include "sim_step.h"

#define N 1000000 /* jobs, tasks or workflows of the differences */

static long long bytes(const tts_cluster *c, int64_t n, int64_t ntask, int64_t nwf, int32_t nmid,
                       int32_t with)
{
    tts_trace tr = {0};
    tr.n = n;
    tr.ntask = ntask;
    tr.nwf = nwf;
    tr.nmid = nmid;
    return (long long)tts_state_bytes_tr(&tr, c, with);
}

int main(int argc, char **argv)
{
    tts_cluster c;
    if (argc != 2 ||
        sscanf(argv[1], "%dx%dx%d", &c.racks, &c.nodes_per_rack, &c.gpus_per_node) != 3) {
        fprintf(stderr, "usage: wf-bytes RxNxG\n");
        return 2;
    }
    long long gpus = (long long)c.racks * c.nodes_per_rack * c.gpus_per_node;
    long long nodes = (long long)c.racks * c.nodes_per_rack;
    long long base = bytes(&c, N, 0, 0, 0, 0);
    long long task = bytes(&c, N, N, 0, 0, 0) - bytes(&c, N, 1, 0, 0, 0);
    long long wf = bytes(&c, N, 1, N + 1, 0, 0) - bytes(&c, N, 1, 1, 0, 0);
    long long ovh = bytes(&c, N, 0, 0, 0, TTS_WITH_OVH) - base;
    long long warm = bytes(&c, N, 0, 0, 0, TTS_WITH_WARM) - base;
    /* the cache's bytes per GPU (slots, used MiB, an entry's GPU mask) and
     * per node (the free mask): the same nodes with twice the GPUs */
    tts_cluster c2 = c;
    c2.gpus_per_node *= 2;
    static const int32_t slots[3] = {1, 4, 8};
    long long cache = 0;
    double per_gpu = 0;
    printf("%.2f\t%.2f", (double)task / (N - 1), (double)wf / N);
    for (int k = 0; k < 3; k++) {
        int32_t with = TTS_WITH_CACHE | TTS_WITH_SLOTS(slots[k]);
        cache = bytes(&c, N, 0, 0, 0, with) - base;
        long long cache2 = bytes(&c2, N, 0, 0, 0, with) - bytes(&c2, N, 0, 0, 0, 0);
        per_gpu = (double)(cache2 - cache) / (double)gpus;
        printf("\t%.2f", per_gpu);
    }
    long long demand = bytes(&c, N, 0, 0, N, TTS_WITH_CACHE) - bytes(&c, N, 0, 0, 0, TTS_WITH_CACHE);
    long long lx = bytes(&c, N, 0, 0, N, TTS_WITH_CACHE | TTS_WITH_LXCNT) -
                   bytes(&c, N, 0, 0, N, TTS_WITH_CACHE);
    printf("\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n",
           ((double)cache - per_gpu * (double)gpus) / (double)nodes, (double)ovh / N,
           (double)demand / N, (double)lx / ((double)N * (double)nodes), (double)warm / N);
    return 0;
}
