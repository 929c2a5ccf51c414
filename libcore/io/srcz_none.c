/* The decoders of a build without zlib and liblzma (bench/gpu-check, on a
 * machine with a compiler and CUDA only): a gzip or xz source is refused,
 * saying so; plain text and memory sources never come here. */
#include "io/srcz.h"

int tt_srcz_open(tt_ctx *ctx, const char *label, int kind, tt_srcz **out)
{
    *out = NULL;
    return tt_err(ctx, TT_ENOTBUILT, "%s: %s input: decompression not built in", label,
                  kind == TT_SRCZ_GZIP ? "gzip" : "xz");
}

int tt_srcz_run(tt_srcz *z, tt_ctx *ctx, const char *label, const uint8_t *in, size_t avail,
                int raw_eof, uint8_t *out, size_t cap, size_t *used, size_t *made, int *eof)
{
    (void)z, (void)in, (void)avail, (void)raw_eof, (void)out, (void)cap, (void)eof;
    *used = *made = 0;
    return tt_err(ctx, TT_ENOTBUILT, "%s: decompression not built in", label);
}

void tt_srcz_free(tt_srcz *z) { (void)z; }
