/* The HDF5 readers, over mutated files: the first byte picks
 *   0  a trace (tt_trace_load_mem), then its tt-stats views
 *   1..5  a sweep, simulation or tune file as each table part
 *   6  a sweep file joined alone by tt_sweep_merge (it reads paths, so the
 *      image goes through a file), the result read back
 * the rest is the file, opened in memory through HDF5's file-image API.
 * Seeds (tests/fuzz/corpus/h5) are small files written by the tools.
 *
 * HDF5 1.10 itself crashes on about one corrupt file in a hundred (a NULL
 * in H5A__attr_release_table, a global heap length trusted by H5HG_read):
 * no fault of this library, and none it can mend. So each input runs in a
 * child process first; one that crashes there inside HDF5 (by the stack)
 * is skipped, and what crashes after that is ours. */
#define _GNU_SOURCE /* dladdr */
#include "fuzz.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tt/sweepmerge.h"
#include "tt/table.h"
#include "tt/tracefile.h"

static void trace(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    tt_trace *t = NULL;
    int rc = tt_trace_load_mem(ctx, data, size, "fuzz", &t);
    fuzz_check_rc(ctx, rc, "tt_trace_load_mem");
    FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the trace and the return code disagree");
    if (!t)
        return;
    FUZZ_CHECK(tt_trace_is_sorted(t), "a trace that loaded is not sorted");
    for (int v = TT_TABLE_TRACE_GPUS; v <= TT_TABLE_TRACE_LOAD; v++) {
        tt_table *tab = NULL;
        rc = tt_table_from_trace(ctx, t, (tt_table_trace_view)v, 0, &tab);
        fuzz_check_rc(ctx, rc, "tt_table_from_trace");
        if (tab)
            fuzz_table_walk(ctx, tab);
    }
    tt_trace_free(t);
}

static void merge(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    const char *in = fuzz_file("shard.h5", data, size);
    char out[512];
    snprintf(out, sizeof out, "%s/merged.h5", fuzz_dir());
    tt_sweep_merge_info info;
    int rc = tt_sweep_merge(ctx, out, &in, 1, &info);
    fuzz_check_rc(ctx, rc, "tt_sweep_merge");
    if (rc) {
        FUZZ_CHECK(access(out, F_OK) != 0, "a failed merge left its output");
        return;
    }
    tt_table *t = NULL;
    rc = tt_table_load(ctx, out, TT_TABLE_CONFIGS, &t);
    FUZZ_CHECK(rc == 0, "the merged file does not read back: %s", tt_errmsg(ctx));
    FUZZ_CHECK(tt_table_rows(t) == info.configurations, "%lld rows, %lld configurations",
               (long long)tt_table_rows(t), (long long)info.configurations);
    fuzz_table_walk(ctx, t);
    unlink(out);
}

static void run(const uint8_t *data, size_t size)
{
    tt_ctx *ctx = tt_ctx_create();
    int pick = data[0] % 7;
    if (pick == 0) {
        trace(ctx, data + 1, size - 1);
    } else if (pick == 6) {
        merge(ctx, data + 1, size - 1);
    } else {
        fuzz_table_read(ctx, data + 1, size - 1, pick - 1);
    }
    tt_ctx_free(ctx);
}

/* ---- crashes of HDF5's own ---- */

/* Whether the crash under way stopped in HDF5: walking out from here, the
 * first frame in a library of HDF5's or in a function of ours (tt_, fuzz_,
 * named where the fuzzers are linked with -rdynamic) decides; the
 * sanitizers' and the C library's frames are passed over. */
static int crashed_in_hdf5(void)
{
    void *pc[128];
    int n = backtrace(pc, 128);
    for (int i = 0; i < n; i++) {
        Dl_info info;
        if (!dladdr(pc[i], &info) || !info.dli_fname)
            continue;
        if (strstr(info.dli_fname, "libhdf5"))
            return 1;
        if (info.dli_sname &&
            (strncmp(info.dli_sname, "tt_", 3) == 0 || strncmp(info.dli_sname, "fuzz_", 5) == 0))
            return 0;
    }
    return 0;
}

static void child_died(void) { _exit(crashed_in_hdf5() ? 1 : 2); }
static void child_signal(int sig) { (void)sig; child_died(); }

/* The sanitizers' hook at a report; weak, as a build without them has none. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

/* Runs the input in a child first: 0 when it crashed there inside HDF5
 * (the input is skipped), 1 when it is to run here (it ran through, or what
 * failed was ours, and fails here again for libFuzzer to keep). The child
 * dies by its own handlers: libFuzzer's would write the input as a finding. */
static int not_hdf5s_crash(const uint8_t *data, size_t size)
{
    void *warm[1];
    backtrace(warm, 1); /* loads what backtrace needs before a crash */
    fuzz_dir();         /* made here, not in the child (which leaves no atexit) */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGALRM};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], child_signal);
        alarm(5); /* an endless loop: HDF5's is skipped, ours runs into libFuzzer's -timeout */
        if (__sanitizer_set_death_callback)
            __sanitizer_set_death_callback(child_died);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2); /* the sanitizers' report */
        run(data, size);
        _exit(0);
    }
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ; /* libFuzzer's timer */
    if (pid < 0 || got != pid)
        fuzz_fail("cannot run a child");
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 1);
}

int fuzz_h5(const uint8_t *data, size_t size)
{
    if (size >= 1 && not_hdf5s_crash(data, size))
        run(data, size);
    return 0;
}
