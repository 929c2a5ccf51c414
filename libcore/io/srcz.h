/* The decoders behind tt_src: gzip (zlib) and xz (liblzma). Apart from
 * src.c so that plain and memory sources need neither library's headers:
 * a build without them links srcz_none.c instead (bench/gpu-check, where
 * the simulator is built on a machine that has only a compiler and CUDA). */
#ifndef TT_IO_SRCZ_H
#define TT_IO_SRCZ_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"

enum { TT_SRCZ_GZIP = 1, TT_SRCZ_XZ = 2 };

typedef struct tt_srcz tt_srcz;

/* A decoder of kind for the source named label. 0, TT_ENOMEM, or
 * TT_ENOTBUILT (srcz_none.c). */
int tt_srcz_open(tt_ctx *ctx, const char *label, int kind, tt_srcz **out);
/* Decodes in[0..avail) into out[0..cap): *used input bytes taken, *made
 * bytes written, *eof set at the end of the data; raw_eof: nothing follows
 * in. *used and *made are set even on failure. 0, or TT_EPARSE (corrupt
 * or truncated data). */
int tt_srcz_run(tt_srcz *z, tt_ctx *ctx, const char *label, const uint8_t *in, size_t avail,
                int raw_eof, uint8_t *out, size_t cap, size_t *used, size_t *made, int *eof);
void tt_srcz_free(tt_srcz *z);

#endif
