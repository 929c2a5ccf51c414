/* Inputs named on a command line (tt/infile.h): "-" spooled to a private
 * temporary file, because HDF5 seeks and a pipe cannot. */
#include "tt/infile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tmp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

int tt_infile_init(tt_ctx *ctx, tt_infile *in, const char *name)
{
    memset(in, 0, sizeof *in);
    int n = strcmp(name, "-") != 0
                ? snprintf(in->path, sizeof in->path, "%s", name)
                : snprintf(in->spool, sizeof in->spool, "%s/tt-stdin.XXXXXX", tmp_dir());
    if (n < 0 || (size_t)n >= sizeof in->path) {
        memset(in, 0, sizeof *in);
        return tt_err(ctx, TT_EINVAL, "input name too long: '%.64s...'", name);
    }
    return 0;
}

/* Standard input to fd to its end: 0, or -1 with errno and *reading set
 * when the read failed (else the write). */
static int copy_stdin(int fd, int *reading)
{
    static char buf[1 << 16];
    for (;;) {
        ssize_t got = read(STDIN_FILENO, buf, sizeof buf);
        if (got == 0)
            return 0;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            *reading = 1;
            return -1;
        }
        for (ssize_t done = 0; done < got;) {
            ssize_t put = write(fd, buf + done, (size_t)(got - done));
            if (put < 0 && errno != EINTR)
                return -1;
            done += put > 0 ? put : 0;
        }
    }
}

int tt_infile_open(tt_ctx *ctx, tt_infile *in)
{
    if (!in->spool[0])
        return 0;
    /* in place: a signal handler that unlinks spool while mkstemp fills
     * it in finds no file by a half-made name, and ours by the whole one */
    int fd = mkstemp(in->spool);
    if (fd < 0) {
        int rc = tt_err(ctx, TT_EIO, "cannot keep standard input in a temporary file in '%s': %s",
                        tmp_dir(), strerror(errno));
        in->spool[0] = '\0';
        return rc;
    }
    int reading = 0, bad = copy_stdin(fd, &reading);
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        int rc = reading ? tt_err(ctx, TT_EIO, "cannot read standard input: %s", strerror(e))
                         : tt_err(ctx, TT_EIO, "cannot keep standard input in '%s': %s",
                                  in->spool, strerror(e));
        tt_infile_close(in);
        return rc;
    }
    memcpy(in->path, in->spool, sizeof in->path);
    return 0;
}

void tt_infile_close(tt_infile *in)
{
    if (in->spool[0])
        unlink(in->spool);
    in->spool[0] = '\0';
}
