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
 * no fault of this library, and none it can mend. So a child process first
 * reads every object, attribute and dataset of the image with HDF5 alone;
 * an image that kills it is skipped, and what crashes after that is ours
 * (or a path of HDF5 the child does not take: read the stack). */
#include "fuzz.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/h5util.h"

#include "tt/sweepmerge.h"
#include "tt/table.h"
#include "tt/tracefile.h"

/* Reads the whole of a dataset or attribute id as its class reads. */
static void read_all(hid_t id, int attr)
{
    hid_t ft = attr ? H5Aget_type(id) : H5Dget_type(id);
    hid_t space = attr ? H5Aget_space(id) : H5Dget_space(id);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    H5T_class_t cls = H5Tget_class(ft);
    int vlen = cls == H5T_STRING && H5Tis_variable_str(ft) > 0;
    hid_t mt = vlen                  ? tt_h5u_vlen_utf8()
               : cls == H5T_STRING  ? H5Tcopy(ft)
               : cls == H5T_FLOAT   ? H5Tcopy(H5T_NATIVE_DOUBLE)
               : cls == H5T_INTEGER ? H5Tcopy(H5T_NATIVE_INT64)
                                    : -1;
    size_t size = mt >= 0 ? H5Tget_size(mt) : 0;
    int small = n > 0 && n < (1 << 20) && size > 0 && size < (1 << 16);
    void *buf = small ? calloc((size_t)n, size) : NULL;
    herr_t rc = !buf ? -1
                : attr ? H5Aread(id, mt, buf)
                       : H5Dread(id, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    if (rc >= 0 && vlen)
        H5Dvlen_reclaim(mt, space, H5P_DEFAULT, buf);
    free(buf);
    if (mt >= 0)
        H5Tclose(mt);
    H5Sclose(space);
    H5Tclose(ft);
}

static herr_t visit_attr(hid_t obj, const char *name, const H5A_info_t *info, void *arg)
{
    (void)info;
    (void)arg;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a >= 0) {
        read_all(a, 1);
        H5Aclose(a);
    }
    return 0;
}

static void visit_obj(hid_t o)
{
    H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, visit_attr, NULL);
    H5Aiterate2(o, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, visit_attr, NULL);
    if (H5Iget_type(o) == H5I_DATASET)
        read_all(o, 0);
}

static herr_t visit_link(hid_t g, const char *name, const H5L_info_t *info, void *arg)
{
    (void)info;
    (void)arg;
    H5Lexists(g, name, H5P_DEFAULT);
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    if (o >= 0) {
        visit_obj(o);
        H5Oclose(o);
    }
    return 0;
}

/* The sanitizers' hook at a report; weak, as a build without them has none. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void die_quietly(void) { _exit(1); }

/* Whether HDF5 reads all of the image without crashing (in a child that
 * dies quietly: libFuzzer's and the sanitizers' handlers would write the
 * image as a finding). */
static int hdf5_survives(const uint8_t *data, size_t size)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGALRM};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        if (__sanitizer_set_death_callback)
            __sanitizer_set_death_callback(die_quietly);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2); /* the sanitizers' report */
        alarm(5);      /* HDF5 in an endless loop */
        tt_h5u_quiet();
        hid_t f = tt_h5u_open_image(data, size);
        if (f >= 0) {
            visit_obj(f);
            H5Lvisit(f, H5_INDEX_NAME, H5_ITER_NATIVE, visit_link, NULL);
            H5Lvisit(f, H5_INDEX_CRT_ORDER, H5_ITER_INC, visit_link, NULL);
            H5Fclose(f);
        }
        _exit(0);
    }
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ; /* libFuzzer's timer */
    if (pid < 0 || got != pid)
        fuzz_fail("cannot run a child");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

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

int fuzz_h5(const uint8_t *data, size_t size)
{
    if (size < 1 || !hdf5_survives(data + 1, size - 1))
        return 0;
    tt_ctx *ctx = tt_ctx_create();
    int pick = data[0] % 7;
    if (pick == 0) {
        trace(ctx, data + 1, size - 1);
    } else if (pick == 6) {
        merge(ctx, data + 1, size - 1);
    } else {
        tt_table *t = NULL;
        int rc = tt_table_read_mem(ctx, "fuzz", data + 1, size - 1, (tt_table_part)(pick - 1),
                                   &t);
        fuzz_check_rc(ctx, rc, "tt_table_read_mem");
        FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the table and the return code disagree");
        if (t)
            fuzz_table_walk(ctx, t);
    }
    tt_ctx_free(ctx);
    return 0;
}
