/* One sort for int64 keys, used by the trace (jobs by submit time, which
 * must be stable) and by tt-stats (values for quantiles). */
#ifndef TT_RADIX_H
#define TT_RADIX_H

#include <stdint.h>

/* Sorts key[0..n) ascending as signed integers with an LSD radix sort
 * (O(n), stable), moving val[i] along with key[i] when val is not NULL.
 * Byte positions where all keys agree cost no pass. 0 or TT_ENOMEM (the
 * arrays are unchanged then). */
int tt_radix_sort_i64(int64_t *key, int64_t *val, int64_t n);

#endif
