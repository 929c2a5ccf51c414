/* Output files whole or not at all (tt/outfile.h): the temporary name
 * beside the output, the bytes written there, and the rename over it. */
#include "tt/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tt_outfile_open(tt_ctx *ctx, tt_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    int n = snprintf(o->target, sizeof o->target, "%s", path);
    int m = snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.tmp-%ld", dirlen, path,
                     slash ? slash + 1 : path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof o->target || m < 0 || (size_t)m >= sizeof o->tmp) {
        memset(o, 0, sizeof *o); /* no truncated name for a caller to unlink */
        return tt_err(ctx, TT_EINVAL, "output name too long: '%s'", path);
    }
    return 0;
}

/* len bytes into a new file path; 0, or -1 with errno. */
static int write_new(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    const char *p = (const char *)data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            errno = e;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return close(fd);
}

int tt_outfile_write(tt_ctx *ctx, const tt_outfile *o, const void *data, size_t len)
{
    if (write_new(o->tmp, data, len) != 0) {
        int e = errno;
        unlink(o->tmp);
        return tt_err(ctx, TT_EIO, "cannot write '%s': %s", o->target, strerror(e));
    }
    return tt_outfile_commit(ctx, o);
}

int tt_outfile_commit(tt_ctx *ctx, const tt_outfile *o)
{
    if (rename(o->tmp, o->target) != 0) {
        int e = errno;
        unlink(o->tmp);
        return tt_err(ctx, TT_EIO, "cannot write '%s': %s", o->target, strerror(e));
    }
    return 0;
}

int tt_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
