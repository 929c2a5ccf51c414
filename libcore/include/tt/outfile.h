/* tt/outfile.h: replacing an output file whole or not at all.
 *
 * Every file the library writes (traces, simulation, sweep and tune files,
 * merged shards, figures, gnuplot scripts) is first written under a
 * temporary name beside the file it replaces, "DIR/.BASE.tmp-PID", and
 * renamed over it at the end, so a reader sees the old file or the new
 * one, never a part; on failure the temporary file is removed.
 *
 * Not thread-safe where two threads write one output; otherwise reentrant.
 */
#ifndef TT_OUTFILE_H
#define TT_OUTFILE_H

#include <stddef.h>

#include "tt/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One output being replaced: plain names, so that a caller's signal
 * handler can remove tmp (unlink) without calling the library. */
typedef struct tt_outfile {
    char target[4096]; /* the file replaced: the output as named */
    char tmp[4096];    /* the temporary name beside target, written first */
} tt_outfile;

/* Fills o for path. 0, or TT_EINVAL when a name does not fit (the
 * message names path). */
int tt_outfile_open(tt_ctx *ctx, tt_outfile *o, const char *path);

/* Writes len bytes to o->tmp, then renames it over o->target
 * (tt_outfile_commit). 0, or TT_EIO ("cannot write 'target': reason");
 * nothing is left on failure. */
int tt_outfile_write(tt_ctx *ctx, const tt_outfile *o, const void *data, size_t len);

/* Renames o->tmp, written by the caller (or a program it ran), over
 * o->target. 0, or TT_EIO ("cannot write 'target': reason"), o->tmp then
 * removed. */
int tt_outfile_commit(tt_ctx *ctx, const tt_outfile *o);

/* 1 when a and b name the same existing file (device and inode, so
 * through symbolic and hard links), else 0. */
int tt_same_file(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
