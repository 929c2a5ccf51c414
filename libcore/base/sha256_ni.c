/* SHA-256's compression function on the x86 SHA extensions (SHA-NI):
 * about ten times fewer instructions a block than the portable code of
 * sha256.c, which it replaces where the processor has them. The same
 * FIPS 180-4 rounds, four at a time: sha256msg1/msg2 extend the message
 * schedule, sha256rnds2 does two rounds on the state kept as (ABEF, CDGH)
 * words. tests/unit/base checks both against the FIPS vectors and each
 * other. */
#include "base/sha256.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

int tt_sha256_ni_available(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b >> 29) & 1; /* CPUID.7.0:EBX.SHA */
}

__attribute__((target("sha,ssse3,sse4.1"))) void
tt_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t n, const uint32_t k[64])
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0xB1);  /* CDAB */
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 0x1B); /* EFGH */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);   /* ABEF */
    s1 = _mm_blend_epi16(s1, t, 0xF0);        /* CDGH */
    for (; n > 0; n--, p += 64) {
        __m128i abef = s0, cdgh = s1, m[4];
        for (int g = 0; g < 16; g++) {
            __m128i w;
            if (g < 4) {
                w = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
            } else { /* W[t-16] + s0(W[t-15]) + W[t-7] + s1(W[t-2]), four at once */
                w = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
                w = _mm_add_epi32(w, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
                w = _mm_sha256msg2_epu32(w, m[(g + 3) & 3]);
            }
            m[g & 3] = w;
            __m128i x = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)(k + 4 * g)));
            s1 = _mm_sha256rnds2_epu32(s1, s0, x);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(x, 0x0E));
        }
        s0 = _mm_add_epi32(s0, abef);
        s1 = _mm_add_epi32(s1, cdgh);
    }
    t = _mm_shuffle_epi32(s0, 0x1B);           /* FEBA */
    s1 = _mm_shuffle_epi32(s1, 0xB1);          /* DCHG */
    s0 = _mm_blend_epi16(t, s1, 0xF0);         /* DCBA */
    s1 = _mm_alignr_epi8(s1, t, 8);            /* HGFE */
    _mm_storeu_si128((__m128i *)h, s0);
    _mm_storeu_si128((__m128i *)(h + 4), s1);
}
#else
int tt_sha256_ni_available(void) { return 0; }

void tt_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t n, const uint32_t k[64])
{
    (void)h, (void)p, (void)n, (void)k;
}
#endif
