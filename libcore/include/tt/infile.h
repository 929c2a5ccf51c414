/* tt/infile.h: an input named on a command line as a file a reader can
 * open, "-" included.
 *
 * HDF5 reads a file by seeking in it, so standard input from a pipe cannot
 * be read in place: "-" is copied whole ("spooled") into a private
 * temporary file (mkstemp in $TMPDIR, /tmp when it is unset or empty;
 * mode 0600), and readers open that copy. Any other name is opened as it
 * is. The two steps are apart so that a caller can arrange for the copy's
 * removal on a signal (a tool's handler unlinking in->spool) before it
 * exists: in->spool names the template until the copy is made, then the
 * copy, so unlinking it at any moment removes the copy or nothing.
 *
 * Not thread-safe: standard input is one per process.
 */
#ifndef TT_INFILE_H
#define TT_INFILE_H

#include "tt/error.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

typedef struct {
    char path[4096];  /* what to open: the name given, or the copy of standard input */
    char spool[4096]; /* the copy (or its template before tt_infile_open); "" when none */
} tt_infile;

/* Fills in for name: path = name, spool = "" for a file; for "-", spool
 * = the template "DIR/tt-stdin.XXXXXX" and path = "" until it is made.
 * Creates nothing. 0, or TT_EINVAL (a name or $TMPDIR too long; in is
 * then all ""). */
int tt_infile_init(tt_ctx *ctx, tt_infile *in, const char *name);

/* For "-": creates the copy and reads standard input into it to its end;
 * path and spool then name the copy. A file name: nothing to do. 0, or
 * TT_EIO (the copy cannot be created or written, standard input cannot be
 * read; nothing is left behind and spool is ""). */
int tt_infile_open(tt_ctx *ctx, tt_infile *in);

/* Removes the copy, if any, and sets spool to "". Only unlink: safe to
 * call at exit. */
void tt_infile_close(tt_infile *in);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
