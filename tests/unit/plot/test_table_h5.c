/* Tables from the HDF5 results of the tools (libcore/plot/table_h5.c):
 * a sweep file read back row for row, and files of another layout
 * version refused. */
#include <hdf5.h>
#include <math.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/table.h"

/* A sweep file written by the library with metrics set by hand (nothing
 * simulated), read back row for row. */
Test(table_h5, sweep_file)
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
                            0.0, 0.0};
    char path[] = "/tmp/tt-test-table-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(tt_sweep_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));
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
    tt_sweep_free(s);
    tt_models_free(models);
    tt_ctx_free(ctx);
}
