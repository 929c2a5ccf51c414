/* tt/outfile.h: replacing an output file whole or not at all.
 *
 * Every file the library writes (traces, simulation, sweep and tune files,
 * merged shards, figures, gnuplot scripts) is first written under a
 * temporary name beside the file it replaces, "DIR/.BASE.tmp-PID", and
 * renamed over it at the end, so a reader sees the old file or the new
 * one, never a part; on failure the temporary file is removed. What is
 * replaced:
 *  - a symbolic link is followed: its target is replaced, in the target's
 *    own folder, and the link stays;
 *  - an existing output must be a regular file: a device, FIFO, socket or
 *    folder is refused, before anything is written;
 *  - the new file keeps the old one's permission bits (a new file gets
 *    0666 less the umask); its owner is the writer.
 * Tools call tt_outfile_check before any long work: it also refuses an
 * output that is one of the inputs and one that cannot be created.
 * A writer killed where no handler runs (SIGKILL, a crash) leaves its
 * temporary file; the next write of the same output removes every
 * ".BASE.tmp-PID" beside it whose PID no process on this machine has,
 * of this user, and nothing else.
 *
 * The name "-" is standard output: tt_outfile_write writes the bytes
 * there in one piece, from memory (a writer builds its whole file before
 * it writes, so a failure leaves nothing there either); no temporary file
 * and no rename. Whether standard output may take them (a terminal should
 * not get an HDF5 file) is the caller's to decide.
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
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* One output being replaced: plain names, so that a caller's signal
 * handler can remove tmp (unlink) without calling the library. */
typedef struct tt_outfile {
    char path[4096];   /* the output as named */
    char target[4096]; /* the file replaced: path, its symbolic links followed */
    char tmp[4096];    /* the temporary name beside target, written first; "" for "-" */
    int mode;          /* the permission bits of the file replaced; -1: new */
} tt_outfile;

/* Fills o for path: follows its symbolic links, and refuses an existing
 * target that is not a regular file. 0; TT_EINVAL when a name does not
 * fit; TT_EIO ("cannot write 'fifo': a FIFO, not a regular file: refusing
 * to replace it", "cannot write 'link' ('target'): ...", a loop of links).
 * On failure every name is "". For "-" (standard output): path and target
 * "-", tmp "", 0; nothing is checked. */
int tt_outfile_open(tt_ctx *ctx, tt_outfile *o, const char *path);

/* tt_outfile_open, then the checks a tool makes before any long work:
 * the output is none of the n inputs (the same file: device and inode, so
 * through symbolic and hard links; "-" is standard input; NULL entries are
 * skipped), and its temporary file can be created in its folder (it is
 * created and removed at once). For "-", the file standard output goes to
 * is none of the inputs. 0; TT_EINVAL ("output 'x' is also the input 'y':
 * refusing to overwrite it", "standard output is also the input 'y': ...",
 * or a name too long); TT_EIO ("cannot write 'x': No such file or
 * directory", and as tt_outfile_open). */
int tt_outfile_check(tt_ctx *ctx, tt_outfile *o, const char *path, const char *const *inputs,
                     int n);

/* Writes len bytes to o->tmp (created afresh, with o->mode), then renames
 * it over o->target (tt_outfile_commit). 0, or TT_EIO ("cannot write
 * 'path': reason"); nothing is left on failure. For "-", writes them to
 * standard output (its descriptor, not stdio's buffer); TT_EIO ("cannot
 * write standard output: Broken pipe"). */
int tt_outfile_write(tt_ctx *ctx, const tt_outfile *o, const void *data, size_t len);

/* Gives o->tmp, written by the caller (or a program it ran), o->mode and
 * renames it over o->target, then removes the temporary files of
 * o->target that dead writers left (above). 0, or TT_EIO ("cannot write
 * 'path': reason"), o->tmp then removed. TT_EINVAL for "-", which has no
 * o->tmp. */
int tt_outfile_commit(tt_ctx *ctx, const tt_outfile *o);

/* 1 when a and b name the same existing file (device and inode, so
 * through symbolic and hard links), else 0. */
int tt_same_file(const char *a, const char *b);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
