/* bench/state-bytes: the bytes one configuration's engine state takes
 * (tts_state_bytes of kernels/sim_step.h) for a job count and cluster, for
 * bench/memory. It needs only the engine's header, so bench/memory also
 * builds it against the kernels/ of an earlier release, whose
 * tts_state_bytes had no optional parts.
 *
 *   state-bytes JOBS RxNxG
 *
 * Prints "BYTES<TAB>BYTES_SRTF_LAS<TAB>BYTES_ELASTIC<TAB>BYTES_ELASTIC_LAS":
 * the state of a sweep's configuration, without and with the evicted jobs'
 * array of srtf and las (equal for a release that always kept it), then
 * both with elastic jobs (SPEC 10.9; 0 for a release without them). */
#include <stdio.h>
#include <stdlib.h>

#include "sim_step.h"

int main(int argc, char **argv)
{
    tts_cluster c;
    char *end;
    long long n = argc == 3 ? strtoll(argv[1], &end, 10) : -1;
    if (n < 0 || *end ||
        sscanf(argv[2], "%dx%dx%d", &c.racks, &c.nodes_per_rack, &c.gpus_per_node) != 3) {
        fprintf(stderr, "usage: state-bytes JOBS RxNxG\n");
        return 2;
    }
#if defined TTS_WITH_ELASTIC
    printf("%lld\t%lld\t%lld\t%lld\n", (long long)tts_state_bytes(n, &c, 0),
           (long long)tts_state_bytes(n, &c, TTS_WITH_VICT),
           (long long)tts_state_bytes(n, &c, TTS_WITH_ELASTIC),
           (long long)tts_state_bytes(n, &c, TTS_WITH_ELASTIC | TTS_WITH_VICT));
#elif defined TTS_WITH_VICT
    printf("%lld\t%lld\t0\t0\n", (long long)tts_state_bytes(n, &c, 0),
           (long long)tts_state_bytes(n, &c, TTS_WITH_VICT));
#else
    printf("%lld\t%lld\t0\t0\n", (long long)tts_state_bytes(n, &c), (long long)tts_state_bytes(n, &c));
#endif
    return 0;
}
