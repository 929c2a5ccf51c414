/* SHA-256 against digests from an independent implementation (Python's
 * hashlib) at the lengths where padding changes (55, 56, 63, 64, ...), fed
 * whole and in uneven pieces, on the SHA extensions where the processor
 * has them and on the portable code (TT_SHA256_PORTABLE=1; each test runs
 * in a process of its own, so the choice is made afresh). */
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "testutil.h"

static const struct {
    size_t n;
    const char *hex;
} vec[] = {
    {0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {1, "ca358758f6d27e6cf45272937977a748fd88391db679ceda7dc7bf1f005ee879"},
    {55, "e40272620990d5f772101e014a0fe168d9ab13215739a04bdcb4b9cadc303c75"},
    {56, "5b3154594d65c2a11e797576e2b4ece47f48373d8acfc0ae2cc3b87ca7adaedc"},
    {63, "2caeed71c024d190f2f9633bdac2b8f283b1cb86dfe7709023ab70f11f747a1b"},
    {64, "3483dc12a3fea6618642162f88124ea56e797597a97483d5ba597a42d98aaf6b"},
    {65, "3a513663aae909c328f43e2d74265dc5ec35495c99dfde7b8f9dd37f297dfa40"},
    {119, "c06b1fcfb8d206bb4fe8e8cde10de7af236f619ff29c720de0083f7377491fd9"},
    {120, "f425d2567f5c636c99335e5e8bb04669475b3b8b6f7523bbabbd11115cef8550"},
    {127, "2388ace1b8d638348c6720ec543c3dc1a2db3d73bf5c5f029536827b27b9b45f"},
    {128, "43a42610c7b657d1ce21bf0255e86be7ea01aa9dddf0701f596e99a4c6f61001"},
    {1000, "008549d94fa71e7a0a483d84380d05a923a4b18e79ba1f8a8ddac923956d32ef"},
    {65553, "9558c1cc258dc3da51aaec6883b8ba3c098aace341d9f1b4e84b188aa46f0092"},
};

/* bytes (31 i + 7) mod 251, as the digests above were made */
static uint8_t buf[70000];

static void check_all(void)
{
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)((i * 31 + 7) % 251);
    for (size_t v = 0; v < sizeof vec / sizeof vec[0]; v++) {
        for (size_t piece = 0; piece < 3; piece++) { /* whole, 1-byte start, 37-byte pieces */
            tt_sha256 s;
            char hex[65];
            tt_sha256_init(&s);
            size_t step = piece == 0 ? vec[v].n : piece == 1 ? 1 : 37, at = 0;
            if (piece == 1 && vec[v].n > 0) {
                tt_sha256_update(&s, buf, 1);
                at = 1;
                step = vec[v].n - 1;
            }
            while (at < vec[v].n || (vec[v].n == 0 && at == 0)) {
                size_t take = vec[v].n - at < step ? vec[v].n - at : step;
                tt_sha256_update(&s, buf + at, take);
                at += take;
                if (vec[v].n == 0)
                    break;
            }
            tt_sha256_hex(&s, hex);
            cr_expect_str_eq(hex, vec[v].hex, "%zu bytes, pieces %zu", vec[v].n, piece);
        }
    }
    tt_sha256 s;
    char hex[65];
    tt_sha256_init(&s);
    tt_sha256_update(&s, "abc", 3);
    tt_sha256_hex(&s, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, fastest_available)
{
    unsetenv("TT_SHA256_PORTABLE");
    check_all();
}

Test(sha256, portable)
{
    setenv("TT_SHA256_PORTABLE", "1", 1);
    check_all();
}

/* The extensions' blocks against the portable ones, block by block (a
 * processor without them: the test says so and passes). */
Test(sha256, extensions_match_the_portable_code)
{
    if (!tt_sha256_ni_available()) {
        cr_log_warn("sha256: no SHA extensions on this processor, only the portable code ran");
        return;
    }
    static const uint32_t h0[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)((i * 131 + 3) % 256);
    char a[65], b[65];
    setenv("TT_SHA256_PORTABLE", "1", 1);
    tt_sha256 s;
    tt_sha256_init(&s);
    tt_sha256_update(&s, buf, 64 * 1000);
    tt_sha256_hex(&s, a);
    /* the same 1000 blocks through the extensions, then the same padding */
    uint32_t h[8];
    memcpy(h, h0, sizeof h);
    tt_sha256_ni_blocks(h, buf, 1000, tt_sha256_k);
    uint8_t pad[64] = {0x80};
    uint64_t bits = 64 * 1000 * 8;
    for (int i = 0; i < 8; i++)
        pad[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    tt_sha256_ni_blocks(h, pad, 1, tt_sha256_k);
    for (int i = 0; i < 32; i++)
        snprintf(b + 2 * i, 3, "%02x", (unsigned)(uint8_t)(h[i / 4] >> (24 - 8 * (i % 4))));
    cr_expect_str_eq(b, a);
}
