/* LSD radix sort of int64 keys with an optional payload. */
#include "base/radix.h"

#include <stdlib.h>

#include "tt/error.h"

int tt_radix_sort_i64(int64_t *key, int64_t *val, int64_t n)
{
    if (n < 2)
        return 0;
    /* Flipping the sign bit makes unsigned order equal signed order. */
    const uint64_t bias = 0x8000000000000000ull;
    uint64_t k0 = (uint64_t)key[0], diff = 0;
    for (int64_t i = 1; i < n; i++)
        diff |= (uint64_t)key[i] ^ k0;
    if (!diff)
        return 0; /* all keys equal: already sorted, and stable */
    uint64_t *a = (uint64_t *)malloc((size_t)n * sizeof *a);
    uint64_t *b = (uint64_t *)malloc((size_t)n * sizeof *b);
    int64_t *spare = val ? (int64_t *)malloc((size_t)n * sizeof *spare) : NULL;
    if (!a || !b || (val && !spare)) {
        free(a);
        free(b);
        free(spare);
        return TT_ENOMEM;
    }
    int64_t *va = val, *vb = spare; /* payload ping-pongs like the keys */
    for (int64_t i = 0; i < n; i++)
        a[i] = (uint64_t)key[i] ^ bias;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((diff >> shift) & 0xff))
            continue;
        int64_t count[257] = {0};
        for (int64_t i = 0; i < n; i++)
            count[((a[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (int64_t i = 0; i < n; i++) {
            int64_t at = count[(a[i] >> shift) & 0xff]++;
            b[at] = a[i];
            if (val)
                vb[at] = va[i];
        }
        uint64_t *s = a;
        a = b;
        b = s;
        int64_t *vs = va;
        va = vb;
        vb = vs;
    }
    for (int64_t i = 0; i < n; i++)
        key[i] = (int64_t)(a[i] ^ bias);
    if (val && va != val) /* an odd number of passes left it in the spare */
        for (int64_t i = 0; i < n; i++)
            val[i] = va[i];
    free(a);
    free(b);
    free(spare);
    return 0;
}
