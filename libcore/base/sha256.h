/* SHA-256 (FIPS 180-4), for the provenance digest of input files. */
#ifndef TT_SHA256_H
#define TT_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes hashed so far */
    uint8_t buf[64];
    size_t nbuf;
} tt_sha256;

void tt_sha256_init(tt_sha256 *s);
void tt_sha256_update(tt_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL to hex. */
void tt_sha256_hex(tt_sha256 *s, char hex[65]);

/* sha256_ni.c: 1 where the processor has the SHA extensions; the n
 * 64-byte blocks at p compressed into h with them (the round constants
 * k). tt_sha256_update uses them when available; TT_SHA256_PORTABLE=1 in
 * the environment keeps the portable code (for tests and comparisons). */
extern const uint32_t tt_sha256_k[64];
int tt_sha256_ni_available(void);
void tt_sha256_ni_blocks(uint32_t h[8], const uint8_t *p, size_t n, const uint32_t k[64]);

#endif
