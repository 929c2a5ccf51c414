/* Tables from the HDF5 results of the tools (libcore/plot/table_h5.c):
 * a sweep file read back row for row, and files of another layout
 * version refused. */
#include <hdf5.h>
#include <math.h>

#include "io/h5util.h"
#include "testutil.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/table.h"

/* A sweep file written by the library into path (a mkstemp template) over
 * w0 = 0, 600, inf, with metrics set by hand (nothing simulated). */
static void write_sweep(char *path)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    tt_sweep *s = NULL;
    cr_assert_eq(tt_models_default(ctx, &models), 0);
    cr_assert_eq(tt_sweep_create(ctx, models, &s), 0);
    cr_assert_eq(tt_sweep_grid(ctx, s, "w0", "0,600,inf"), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_sweep_fix(ctx, s, "seed", "18446744073709551615"), 0, "%s", tt_errmsg(ctx));
    tt_cluster cl = {1, 2, 8};
    int64_t idx[3] = {0, 1, 2};
    tt_metrics m[3];
    memset(m, 0, sizeof m);
    m[0].makespan = 100;
    m[1].makespan = 90;
    m[2].makespan = 80;
    m[1].jct_mean = 12.25;
    tt_sweep_save_args a = {s, &cl, models, "x.h5", NULL, 3, idx, m, 0, 1, "cpu: 1 thread",
                            0.0, 0.0, 0};
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(tt_sweep_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));
    tt_sweep_free(s);
    tt_models_free(models);
    tt_ctx_free(ctx);
}

/* The sweep file read back row for row. */
Test(table_h5, sweep_file)
{
    char path[] = "/tmp/tt-test-table-XXXXXX";
    write_sweep(path);
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 3);
    const double *w0 = tt_table_values(t, tt_table_find(t, "w0"));
    cr_expect_eq(w0[0], 0);
    cr_expect_eq(w0[1], 600);
    cr_expect(isinf(w0[2]), "INT64_MAX with the infinite attribute");
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "makespan"))[2], 80);
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "jct_mean"))[1], 12.25);
    cr_expect_str_eq(tt_table_units(t, tt_table_find(t, "theta")), "permille");
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "seed"), 0), "18446744073709551615");
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "order"), 2), "fifo");
    tt_table_free(t);
    /* a sweep has no per-job part */
    cr_expect_eq(tt_table_load(ctx, path, TT_TABLE_JOBS, &t), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "it is a sweep file") != NULL, "%s", tt_errmsg(ctx));
    /* columns are read by the datasets of the group: a file from before
     * the timers parameter lacks its column (absent, no error), and one a
     * newer writer adds (w0.bert) is read after the known ones */
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0);
    cr_assert(H5Ldelete(f, "/sweep/params/timers", H5P_DEFAULT) >= 0);
    hsize_t n = 3;
    int64_t v[3] = {-1, 60, 7};
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "/sweep/params/w0.bert", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    cr_assert(d >= 0 && H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(f);
    cr_assert_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_table_find(t, "timers"), -1);
    cr_expect_eq(tt_table_cols(t), TT_NPARAMS - 1 + 1 + TT_NMETRICS);
    int c = tt_table_find(t, "w0.bert");
    cr_assert_eq(c, TT_NPARAMS - 1, "after the 12 known parameters, before the metrics");
    cr_expect_eq(tt_table_values(t, c)[1], 60);
    cr_expect_str_eq(tt_table_name(t, c + 1), "makespan");
    /* the attributes of /sweep, integers in decimal */
    cr_expect_str_eq(tt_table_attr(t, "cluster"), "1x2x8");
    cr_expect_str_eq(tt_table_attr(t, "rows"), "3");
    cr_expect_null(tt_table_attr(t, "trace_sha"));
    tt_table_free(t);
    unlink(path);
    tt_ctx_free(ctx);
}

/* Sets the tracetune_layout of group where of the file path to value, or
 * removes it (NULL); creates the file with that group alone when asked. */
static void set_layout(const char *path, int create, const char *where, const char *value)
{
    hid_t f = create ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
                     : H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    cr_assert(f >= 0, "%s", path);
    hid_t g = create ? H5Gcreate2(f, where, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                     : H5Gopen2(f, where, H5P_DEFAULT);
    cr_assert(g >= 0, "%s", where);
    if (H5Aexists(g, "tracetune_layout") > 0)
        cr_assert(H5Adelete(g, "tracetune_layout") >= 0);
    if (value)
        cr_assert_eq(tt_h5u_attr_str(g, "tracetune_layout", value), 0);
    H5Gclose(g);
    H5Fclose(f);
}

/* The code and message of reading part of path (through memory when mem,
 * named "stdin" then, as tt-plot reads standard input). */
static void expect_refused(const char *path, int mem, tt_table_part part, const char *fmt)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    int rc;
    if (mem) {
        FILE *fp = fopen(path, "rb");
        cr_assert_not_null(fp);
        static char buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        rc = tt_table_read_mem(ctx, "stdin", buf, len, part, &t);
    } else {
        rc = tt_table_load(ctx, path, part, &t);
    }
    char want[512];
    snprintf(want, sizeof want, fmt, mem ? "stdin" : path);
    cr_expect_eq(rc, TT_EFORMAT, "code %d: %s", rc, tt_errmsg(ctx));
    cr_expect_str_eq(tt_errmsg(ctx), want);
    cr_expect_null(t);
    tt_table_free(t);
    tt_ctx_free(ctx);
}

/* A file of another layout version is refused whole, whichever part is
 * asked and however it is read; so is one without a layout. */
Test(table_h5, layout_version)
{
    char path[] = "/tmp/tt-test-layout-XXXXXX";
    write_sweep(path);
    set_layout(path, 0, "/sweep", "sweep/2");
    for (int mem = 0; mem < 2; mem++) {
        expect_refused(path, mem, TT_TABLE_CONFIGS,
                       "'%s': sweep file layout 'sweep/2', this version reads 'sweep/1'");
        expect_refused(path, mem, TT_TABLE_JOBS,
                       "'%s': sweep file layout 'sweep/2', this version reads 'sweep/1'");
    }
    set_layout(path, 0, "/sweep", NULL);
    expect_refused(path, 0, TT_TABLE_CONFIGS,
                   "'%s': not a tracetune sweep file (/sweep has no tracetune_layout)");
    /* its own layout again: read */
    set_layout(path, 0, "/sweep", "sweep/1");
    tt_ctx *ctx = tt_ctx_create();
    tt_table *t = NULL;
    cr_expect_eq(tt_table_load(ctx, path, TT_TABLE_CONFIGS, &t), 0, "%s", tt_errmsg(ctx));
    tt_table_free(t);
    tt_ctx_free(ctx);
    /* a simulation result and a tune file: their group alone, marked */
    set_layout(path, 1, "sim", "sim/2");
    expect_refused(path, 0, TT_TABLE_CONFIGS,
                   "'%s': simulation result layout 'sim/2', this version reads 'sim/1'");
    expect_refused(path, 1, TT_TABLE_TIMELINE,
                   "'%s': simulation result layout 'sim/2', this version reads 'sim/1'");
    set_layout(path, 1, "tune", "tune/0");
    expect_refused(path, 0, TT_TABLE_TUNE,
                   "'%s': tune file layout 'tune/0', this version reads 'tune/1'");
    expect_refused(path, 1, TT_TABLE_TUNE_SPACE,
                   "'%s': tune file layout 'tune/0', this version reads 'tune/1'");
    set_layout(path, 1, "tune", NULL);
    expect_refused(path, 0, TT_TABLE_TUNE,
                   "'%s': not a tracetune tune file (/tune has no tracetune_layout)");
    unlink(path);
}
