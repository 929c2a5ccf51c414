/* gzip and xz decoding for tt_src, over zlib and liblzma. */
#include "io/srcz.h"

#include <lzma.h>
#include <stdlib.h>
#include <zlib.h>

struct tt_srcz {
    int kind;
    z_stream zs;
    lzma_stream xs;
    int z_init, x_init, z_member_done;
};

static int corrupt(tt_ctx *ctx, const char *label, const char *what)
{
    return tt_err(ctx, TT_EPARSE, "%s: %s", label, what);
}

int tt_srcz_open(tt_ctx *ctx, const char *label, int kind, tt_srcz **out)
{
    *out = NULL;
    tt_srcz *z = (tt_srcz *)calloc(1, sizeof *z);
    if (!z)
        return tt_err(ctx, TT_ENOMEM, "%s: out of memory", label);
    z->kind = kind;
    if (kind == TT_SRCZ_GZIP) {
        if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
            free(z);
            return tt_err(ctx, TT_ENOMEM, "%s: cannot start gzip decoder", label);
        }
        z->z_init = 1;
    } else {
        lzma_stream init = LZMA_STREAM_INIT;
        z->xs = init;
        if (lzma_stream_decoder(&z->xs, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            free(z);
            return tt_err(ctx, TT_ENOMEM, "%s: cannot start xz decoder", label);
        }
        z->x_init = 1;
    }
    *out = z;
    return 0;
}

static int gzip_run(tt_srcz *z, tt_ctx *ctx, const char *label, const uint8_t *in, size_t avail,
                    int raw_eof, uint8_t *out, size_t cap, size_t *used, size_t *made, int *eof)
{
    if (avail == 0) {
        if (!z->z_member_done)
            return corrupt(ctx, label, "truncated gzip data");
        *eof = 1;
        return 0;
    }
    if (z->z_member_done) { /* another member follows: concatenated gzip */
        if (inflateReset(&z->zs) != Z_OK)
            return corrupt(ctx, label, "corrupt gzip data");
        z->z_member_done = 0;
    }
    z->zs.next_in = (Bytef *)in;
    z->zs.avail_in = (uInt)avail;
    z->zs.next_out = out;
    z->zs.avail_out = (uInt)cap;
    int zr = inflate(&z->zs, Z_NO_FLUSH);
    *used = avail - z->zs.avail_in;
    *made = cap - z->zs.avail_out;
    if (zr == Z_STREAM_END)
        z->z_member_done = 1;
    else if (zr == Z_BUF_ERROR && raw_eof && *used == avail)
        return corrupt(ctx, label, "truncated gzip data");
    else if (zr != Z_OK && zr != Z_BUF_ERROR)
        return corrupt(ctx, label, "corrupt gzip data");
    return 0;
}

static int xz_run(tt_srcz *z, tt_ctx *ctx, const char *label, const uint8_t *in, size_t avail,
                  int raw_eof, uint8_t *out, size_t cap, size_t *used, size_t *made, int *eof)
{
    z->xs.next_in = in;
    z->xs.avail_in = avail;
    z->xs.next_out = out;
    z->xs.avail_out = cap;
    lzma_ret xr = lzma_code(&z->xs, raw_eof ? LZMA_FINISH : LZMA_RUN);
    *used = avail - z->xs.avail_in;
    *made = cap - z->xs.avail_out;
    if (xr == LZMA_STREAM_END)
        *eof = *made == 0;
    else if (xr == LZMA_BUF_ERROR && raw_eof)
        return corrupt(ctx, label, "truncated xz data");
    else if (xr != LZMA_OK && xr != LZMA_BUF_ERROR)
        return corrupt(ctx, label, "corrupt xz data");
    return 0;
}

int tt_srcz_run(tt_srcz *z, tt_ctx *ctx, const char *label, const uint8_t *in, size_t avail,
                int raw_eof, uint8_t *out, size_t cap, size_t *used, size_t *made, int *eof)
{
    *used = *made = 0;
    return (z->kind == TT_SRCZ_GZIP ? gzip_run : xz_run)(z, ctx, label, in, avail, raw_eof, out,
                                                         cap, used, made, eof);
}

void tt_srcz_free(tt_srcz *z)
{
    if (!z)
        return;
    if (z->z_init)
        inflateEnd(&z->zs);
    if (z->x_init)
        lzma_end(&z->xs);
    free(z);
}
