/* A damaged HDF5 file is an error, not a hang or a crash (io/h5util.h):
 * the seal a file tracetune writes carries, and the rehearsal of a read
 * of any other file.
 *
 * HDF5 1.10 trusts what it reads: one flipped bit in a trace made it clear
 * gigabytes for a string, loop for ever closing the file, follow a pointer
 * out of its buffer or abort, in about one bit in 300 of a file's
 * metadata. Checking the structure ourselves would mean parsing every
 * kind of object, heap and tree HDF5 follows, as HDF5 does. Instead:
 *  - a file tracetune writes starts with a 512-byte user block (HDF5
 *    skips it) holding the sha256 of the rest: a file whose digest
 *    matches is the file tracetune wrote, which HDF5 reads in bounded
 *    time (hashing costs 0.15 s on a 26 MB trace of 5M jobs);
 *  - any other file (written before the seal, by another program, or
 *    changed since: h5py's edits keep the user block but not the digest)
 *    is read first in a child process (fork) by the very calls the reader
 *    then makes, with a time limit. A child that crashes or runs out of
 *    time means a damaged file, said as such; one that ends, whatever
 *    HDF5 said, lets the reader make the same calls on the same bytes
 *    from the same state, where HDF5 does what it did in the child. (A
 *    walk over every object in another order is not enough: HDF5's
 *    behaviour on a damaged file depends on what it read before.) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/sha256.h"
#include "io/h5util.h"

static const char seal_tag[] = "tracetune sha256 of bytes 512 to the end: ";

void tt_h5u_seal(void *image, size_t len)
{
    if (len < H5U_USERBLOCK)
        return;
    tt_sha256 h;
    char hex[65];
    tt_sha256_init(&h);
    tt_sha256_update(&h, (const char *)image + H5U_USERBLOCK, len - H5U_USERBLOCK);
    tt_sha256_hex(&h, hex);
    memset(image, 0, H5U_USERBLOCK);
    snprintf((char *)image, H5U_USERBLOCK, "%s%s\n", seal_tag, hex);
}

/* 1 when the first bytes (at least H5U_USERBLOCK of them, head) are a seal
 * and the sha256 of the rest, read by next(arg, buf, size) until it gives
 * 0, is the one it holds; 0 otherwise. */
static int seal_holds(const char *head, size_t (*next)(void *arg, char *buf, size_t size),
                      void *arg)
{
    size_t nt = sizeof seal_tag - 1;
    if (memcmp(head, seal_tag, nt) != 0 || head[nt + 64] != '\n')
        return 0;
    tt_sha256 h;
    char hex[65], buf[1 << 16];
    tt_sha256_init(&h);
    for (size_t got; (got = next(arg, buf, sizeof buf)) > 0;)
        tt_sha256_update(&h, buf, got);
    tt_sha256_hex(&h, hex);
    return memcmp(hex, head + nt, 64) == 0;
}

typedef struct {
    int fd;
    const char *mem;
    size_t len, at;
} reader;

static size_t next_bytes(void *arg, char *buf, size_t size)
{
    reader *r = (reader *)arg;
    if (r->mem) {
        size_t n = r->len - r->at < size ? r->len - r->at : size;
        memcpy(buf, r->mem + r->at, n);
        r->at += n;
        return n;
    }
    for (;;) {
        ssize_t n = read(r->fd, buf, size);
        if (n < 0 && errno == EINTR)
            continue;
        return n > 0 ? (size_t)n : 0;
    }
}

/* ---- the rehearsal ---- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The time a child may take over size bytes: 5 s, and 1 s a MiB more
 * (a trace of 5M jobs, 26 MB, loads in about 1 s). */
static int limit_for(size_t size)
{
    const char *e = getenv("TT_H5_CHECK_S"); /* tests */
    int base = e && atoi(e) > 0 ? atoi(e) : 5;
    size_t s = size >> 20;
    return s > 100000 ? base + 100000 : base + (int)s;
}

int tt_h5u_rehearse(tt_ctx *ctx, const char *what, size_t size, void (*fn)(void *arg), void *arg)
{
    int limit = limit_for(size);
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0)
        return tt_err(ctx, TT_EIO, "%s: cannot check the file: %s", what, strerror(errno));
    if (pid == 0) {
        alarm((unsigned)limit + 5); /* ends it should the parent be gone */
        int null = open("/dev/null", O_WRONLY); /* nor HDF5 nor libc speak for it */
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        fn(arg);
        _exit(0);
    }
    double end = now_s() + limit;
    int st = 0;
    long nap = 1000000; /* ns, doubling to 50 ms */
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return tt_err(ctx, TT_EIO, "%s: cannot check the file: %s", what, strerror(errno));
        if (now_s() >= end) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
            }
            return tt_err(ctx, TT_EFORMAT, "%s: damaged HDF5 file (HDF5 did not finish "
                          "reading it in %d s)", what, limit);
        }
        struct timespec ts = {0, nap};
        nanosleep(&ts, NULL);
        nap = nap < 50000000 ? nap * 2 : nap;
    }
    /* the child ends with 0 once fn returns: a signal, or a sanitizer's
     * exit status, is a crash inside the reads */
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return tt_err(ctx, TT_EFORMAT, "%s: damaged HDF5 file (HDF5 crashed reading it)", what);
    return 0;
}

int tt_h5u_sealed(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char head[H5U_USERBLOCK];
    reader r = {fd, NULL, 0, 0};
    size_t got = 0;
    while (got < sizeof head) {
        size_t n = next_bytes(&r, head + got, sizeof head - got);
        if (n == 0)
            break;
        got += n;
    }
    int sealed = got == sizeof head && seal_holds(head, next_bytes, &r);
    close(fd);
    return sealed;
}

size_t tt_h5u_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 0;
}

int tt_h5u_check_file(tt_ctx *ctx, const char *what, const char *path,
                      void (*fn)(void *arg), void *arg)
{
    if (access(path, R_OK) != 0 || tt_h5u_sealed(path))
        return 0; /* unreadable: the reader's own open says why */
    return tt_h5u_rehearse(ctx, what, tt_h5u_file_size(path), fn, arg);
}

int tt_h5u_check_image(tt_ctx *ctx, const char *what, const void *image, size_t len,
                       void (*fn)(void *arg), void *arg)
{
    reader r = {-1, (const char *)image, len, H5U_USERBLOCK};
    if (len >= H5U_USERBLOCK && seal_holds((const char *)image, next_bytes, &r))
        return 0;
    return tt_h5u_rehearse(ctx, what, len, fn, arg);
}
