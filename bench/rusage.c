/* rusage: runs a command a few times and prints its best wall time and its
 * peak resident memory, for bench/run.
 *
 *   rusage [-n RUNS] [-o FILE] -- CMD [ARG...]
 *
 * Prints "SECONDS<TAB>PEAK_RSS_MB" (best wall time over RUNS runs, default
 * 3; the largest ru_maxrss over them, in 10^6 bytes). The command's stdout
 * goes to FILE (default /dev/null); stderr is kept. ru_maxrss comes from
 * wait4, which on Linux covers the child and the children it waited for,
 * so a "bash -c 'a | b'" pipeline reports its largest process. Exit 0, or
 * 1 when a run fails (non-zero exit or a signal), 2 on a usage error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run: 0 with its wall time and peak RSS (KiB), or -1. */
static int run_once(char **argv, const char *out, double *secs, long *maxrss_kib)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "rusage: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
            fprintf(stderr, "rusage: cannot open '%s': %s\n", out, strerror(errno));
            _exit(127);
        }
        close(fd);
        execvp(argv[0], argv);
        fprintf(stderr, "rusage: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "rusage: wait4: %s\n", strerror(errno));
            return -1;
        }
    }
    *secs = now() - t0;
    *maxrss_kib = ru.ru_maxrss;
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "rusage: '%s' died of signal %d\n", argv[0], WTERMSIG(status));
        return -1;
    }
    if (WEXITSTATUS(status) != 0) {
        fprintf(stderr, "rusage: '%s' exited %d\n", argv[0], WEXITSTATUS(status));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 3, c;
    const char *out = "/dev/null";
    while ((c = getopt(argc, argv, "n:o:")) != -1) {
        switch (c) {
        case 'n': runs = atoi(optarg); break;
        case 'o': out = optarg; break;
        default: runs = 0;
        }
    }
    if (runs < 1 || optind >= argc) {
        fprintf(stderr, "usage: rusage [-n RUNS] [-o FILE] -- CMD [ARG...]\n");
        return 2;
    }
    double best = 0;
    long peak = 0;
    for (int i = 0; i < runs; i++) {
        double secs;
        long rss;
        if (run_once(argv + optind, out, &secs, &rss))
            return 1;
        if (i == 0 || secs < best)
            best = secs;
        if (rss > peak)
            peak = rss;
    }
    printf("%.6f\t%.1f\n", best, (double)peak * 1024.0 / 1e6);
    return fflush(stdout) == 0 ? 0 : 1;
}
