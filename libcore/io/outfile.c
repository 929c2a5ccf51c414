/* Output files whole or not at all (tt/outfile.h): what a path replaces
 * (its links followed, only a regular file), the checks before the work,
 * the bytes written beside it and the rename over it. */
#include "tt/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40 /* as the kernel's own limit, ELOOP past it */

/* path with its symbolic links followed, into out (size bytes), so that
 * the rename replaces the link's target and not the link. A link's
 * relative target is read from the link's folder; a dangling link gives
 * the file it would create. 0, or an errno value. */
static int follow(const char *path, char *out, size_t size)
{
    if ((size_t)snprintf(out, size, "%s", path) >= size)
        return ENAMETOOLONG;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return 0; /* absent, unreadable or not a link: the open or write says */
        if (hops == MAX_LINKS)
            return ELOOP;
        char link[4096], next[4096];
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0)
            return errno;
        link[n] = '\0';
        const char *slash = strrchr(out, '/');
        int dirlen = link[0] == '/' || !slash ? 0 : (int)(slash - out + 1);
        int m = snprintf(next, sizeof next, "%.*s%s", dirlen, out, link);
        if (m < 0 || (size_t)m >= sizeof next || (size_t)m >= size)
            return ENAMETOOLONG;
        memcpy(out, next, (size_t)m + 1);
    }
}

/* "'path'", or "'path' ('target')" when a link led elsewhere, for messages. */
static const char *quoted_path(const tt_outfile *o, char *buf, size_t size)
{
    if (strcmp(o->path, o->target) == 0)
        snprintf(buf, size, "'%s'", o->path);
    else
        snprintf(buf, size, "'%s' ('%s')", o->path, o->target);
    return buf;
}

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a folder"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "something";
}

/* Clears o (no name for a caller to unlink) and returns code. */
static int fail(tt_outfile *o, int code)
{
    memset(o, 0, sizeof *o);
    o->mode = -1;
    return code;
}

/* "-": standard output, written from memory in one piece. */
static int is_stdout(const tt_outfile *o) { return strcmp(o->path, "-") == 0; }

int tt_outfile_open(tt_ctx *ctx, tt_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->mode = -1;
    if (strcmp(path, "-") == 0) {
        memcpy(o->path, "-", 2);
        memcpy(o->target, "-", 2);
        return 0;
    }
    int e = (size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path
                ? ENAMETOOLONG
                : follow(path, o->target, sizeof o->target);
    const char *slash = strrchr(o->target, '/');
    int dirlen = slash ? (int)(slash - o->target + 1) : 0;
    int m = snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.tmp-%ld", dirlen, o->target,
                     slash ? slash + 1 : o->target, (long)getpid());
    if (e == ENAMETOOLONG || m < 0 || (size_t)m >= sizeof o->tmp)
        return fail(o, tt_err(ctx, TT_EINVAL, "output name too long: '%s'", path));
    if (e)
        return fail(o, tt_err(ctx, TT_EIO, "cannot write '%s': %s", path, strerror(e)));
    struct stat st;
    if (stat(o->target, &st) == 0) {
        char buf[8300];
        if (!S_ISREG(st.st_mode))
            return fail(o, tt_err(ctx, TT_EIO,
                                  "cannot write %s: %s, not a regular file: refusing to "
                                  "replace it",
                                  quoted_path(o, buf, sizeof buf), kind_of(st.st_mode)));
        o->mode = (int)(st.st_mode & 07777);
    }
    return 0;
}

/* A new, empty o->tmp, open for writing, with o->mode: any file left
 * under that name by a process that had this pid before is removed first,
 * and a link planted there is not followed. The descriptor, or -1 with
 * errno. */
static int create_tmp(const tt_outfile *o)
{
    unlink(o->tmp);
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 && o->mode >= 0 && fchmod(fd, (mode_t)o->mode) != 0) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    return fd;
}

/* inputs[i] is the file o replaces: for "-", the file standard output
 * goes to (standard input, a pipe apart, is another stream). */
static int is_input(const tt_outfile *o, const char *in)
{
    struct stat si, so;
    if (is_stdout(o))
        return strcmp(in, "-") != 0 && fstat(STDOUT_FILENO, &so) == 0 && S_ISREG(so.st_mode) &&
               stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
    if (strcmp(in, "-") != 0)
        return tt_same_file(in, o->target);
    return fstat(STDIN_FILENO, &si) == 0 && stat(o->target, &so) == 0 &&
           si.st_dev == so.st_dev && si.st_ino == so.st_ino;
}

int tt_outfile_check(tt_ctx *ctx, tt_outfile *o, const char *path, const char *const *inputs,
                     int n)
{
    int rc = tt_outfile_open(ctx, o, path);
    for (int i = 0; !rc && i < n; i++)
        if (inputs[i] && is_input(o, inputs[i]))
            rc = fail(o, is_stdout(o) ? tt_err(ctx, TT_EINVAL,
                                               "standard output is also the input '%s': "
                                               "refusing to overwrite it", inputs[i])
                                      : tt_err(ctx, TT_EINVAL,
                                               "output '%s' is also the input '%s': refusing "
                                               "to overwrite it", path, inputs[i]));
    if (rc || is_stdout(o))
        return rc;
    /* the folder exists and takes a new file: said now, not after the work */
    int fd = create_tmp(o);
    if (fd < 0) {
        char buf[8300];
        return fail(o, tt_err(ctx, TT_EIO, "cannot write %s: %s", quoted_path(o, buf, sizeof buf),
                              strerror(errno)));
    }
    close(fd);
    unlink(o->tmp);
    return 0;
}

/* len bytes to fd; 0, or -1 with errno. */
static int write_all(int fd, const void *data, size_t len)
{
    const char *p = (const char *)data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* len bytes into o->tmp; 0, or -1 with errno. */
static int write_tmp(const tt_outfile *o, const void *data, size_t len)
{
    int fd = create_tmp(o);
    if (fd < 0)
        return -1;
    if (write_all(fd, data, len) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return close(fd);
}

int tt_outfile_write(tt_ctx *ctx, const tt_outfile *o, const void *data, size_t len)
{
    if (is_stdout(o))
        return write_all(STDOUT_FILENO, data, len) == 0
                   ? 0
                   : tt_err(ctx, TT_EIO, "cannot write standard output: %s", strerror(errno));
    if (write_tmp(o, data, len) != 0) {
        int e = errno;
        char buf[8300];
        unlink(o->tmp);
        return tt_err(ctx, TT_EIO, "cannot write %s: %s", quoted_path(o, buf, sizeof buf),
                      strerror(e));
    }
    return tt_outfile_commit(ctx, o);
}

/* The temporary files of o's target that writers killed by a signal no
 * handler sees (SIGKILL, a crash, a power cut) left: ".BASE.tmp-PID" in its
 * folder, PID digits only, not this process, a regular file of this user,
 * and no process PID on this machine (a PID in use again keeps its file:
 * the next write after it ends removes it). Nothing else is touched, and
 * a failure is no error: the new file is in place. */
static void remove_stale(const tt_outfile *o)
{
    const char *slash = strrchr(o->target, '/');
    char dir[4096], prefix[4200], path[8400];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->target + 1) : 1,
             slash ? o->target : ".");
    int np = snprintf(prefix, sizeof prefix, ".%s.tmp-", slash ? slash + 1 : o->target);
    DIR *d = opendir(dir);
    if (!d || np < 0 || (size_t)np >= sizeof prefix) {
        if (d)
            closedir(d);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        const char *pid = e->d_name + np;
        if (strncmp(e->d_name, prefix, (size_t)np) != 0 || !*pid || strlen(pid) > 9 ||
            strspn(pid, "0123456789") != strlen(pid))
            continue;
        long p = strtol(pid, NULL, 10);
        struct stat st;
        snprintf(path, sizeof path, "%s%s%s", dir, slash ? "" : "/", e->d_name);
        if (p > 0 && p != (long)getpid() && kill((pid_t)p, 0) != 0 && errno == ESRCH &&
            lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlink(path);
    }
    closedir(d);
}

int tt_outfile_commit(tt_ctx *ctx, const tt_outfile *o)
{
    if (is_stdout(o))
        return tt_err(ctx, TT_EINVAL, "standard output ('-') takes bytes from memory only");
    if ((o->mode >= 0 && chmod(o->tmp, (mode_t)o->mode) != 0) ||
        rename(o->tmp, o->target) != 0) {
        int e = errno;
        char buf[8300];
        unlink(o->tmp);
        return tt_err(ctx, TT_EIO, "cannot write %s: %s", quoted_path(o, buf, sizeof buf),
                      strerror(e));
    }
    remove_stale(o);
    return 0;
}

int tt_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
