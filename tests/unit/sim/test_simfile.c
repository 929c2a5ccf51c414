/* One simulation's HDF5 result file: its layout, read back with the HDF5
 * library, and its failures (libcore/sim/simfile.c). */
#include <hdf5.h>
#include <math.h>

#include "confutil.h"
#include "tt/sim.h"
#include "tt/simfile.h"

static int64_t read_i64(hid_t f, const char *path)
{
    int64_t v = -7;
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    cr_assert(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0);
    H5Dclose(d);
    return v;
}

static char *read_str(hid_t f, const char *path)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char *s = NULL;
    cr_assert(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &s) >= 0);
    char *copy = strdup(s);
    H5free_memory(s);
    H5Tclose(t);
    H5Dclose(d);
    return copy;
}

static void read_col(hid_t f, const char *path, hid_t memtype, void *buf, int64_t n)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    cr_assert(d >= 0, "no dataset %s", path);
    hid_t s = H5Dget_space(d);
    cr_assert_eq(H5Sget_simple_extent_npoints(s), n, "%s", path);
    cr_assert(H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Sclose(s);
    H5Dclose(d);
}

static int64_t attr_i64(hid_t f, const char *obj, const char *name)
{
    int64_t v = -7;
    hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert(a >= 0, "no attribute %s of %s", name, obj);
    H5Aread(a, H5T_NATIVE_INT64, &v);
    H5Aclose(a);
    return v;
}

/* A result file from made-up results: every part where the layout says. */
Test(simfile, layout)
{
    tt_models *m = two_models();
    tt_cluster c = {1, 2, 4};
    tt_params p;
    tt_params_default(&p);
    cr_assert_eq(tt_params_set(NULL, &p, m, "mix", "slow:2"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "w1", "60"), 0);
    cr_assert_eq(tt_params_set(NULL, &p, m, "seed", "18446744073709551615"), 0);
    int64_t submit[3] = {0, 10, 20}, dur[3] = {100, 50, 5};
    int32_t gpus[3] = {2, 16, 1}, cls[3] = {0, -1, 1};
    tt_sim_jobs j = {.n = 3, .submit = submit, .duration = dur, .gpus = gpus, .cls = cls, .unknown_models = 1};
    tt_job_result r[3];
    memset(r, 0, sizeof r);
    r[0] = (tt_job_result){0, 0, 100, 0, 200, 0, 0, 1000, 0, {1, 0, 0}, 0, 1000};
    r[1] = (tt_job_result){10, TT_TIME_NONE, TT_TIME_NONE, 0, 0, 1, -1, 0, 0, {0, 0, 0}, 1,
                           TT_METRIC_NONE};
    r[2] = (tt_job_result){20, 20, 33, 0, 13, 1, 1, 2500, 1, {0, 1, 1}, 0, 1300};
    tt_metrics met = {.makespan = 100, .jct_mean = 56.5, .comm_gpu_s = 7.25, .rejected = 1,
                      .jct_p99 = 9007199254740993};
    tt_timeline_row rows[2] = {{0, 0, 1, 2, {1, 0, 0}}, {20, 0, 2, 3, {1, 0, 1}}};
    tt_timeline tl = {2, 2, rows};
    tt_trace *t = tt_trace_create();
    tt_prov_set(&t->prov.source_sha256, "abc123");
    tt_prov_set(&t->prov.format, "csv");
    tt_sim_save_args a = {&c, &p, m, "trace.h5", &t->prov, &j, r, &met, &tl};

    char dir[] = "/tmp/tt_simfile_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/r.h5", dir);
    tt_ctx *ctx = tt_ctx_create();
    cr_assert_eq(tt_sim_save(ctx, path, &a), 0, "%s", tt_errmsg(ctx));

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_assert(f >= 0);
    hid_t g = H5Gopen2(f, "sim", H5P_DEFAULT);
    hid_t at = H5Aopen(g, "tracetune_layout", H5P_DEFAULT);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    char *layout = NULL;
    H5Aread(at, st, &layout);
    cr_expect_str_eq(layout, "sim/1");
    H5free_memory(layout);
    H5Tclose(st);
    H5Aclose(at);
    H5Gclose(g);
    cr_expect_eq(attr_i64(f, "sim", "racks"), 1);
    cr_expect_eq(attr_i64(f, "sim", "gpus_per_node"), 4);
    cr_expect_eq(attr_i64(f, "sim", "jobs"), 3);
    cr_expect_eq(attr_i64(f, "sim", "unknown_models"), 1);

    cr_expect_eq(read_i64(f, "sim/summary/w0"), INT64_MAX);
    cr_expect_eq(attr_i64(f, "sim/summary/w0", "infinite"), INT64_MAX);
    cr_expect_eq(read_i64(f, "sim/summary/w1"), 60);
    cr_expect_eq(read_i64(f, "sim/summary/restart"), 30);
    cr_expect_eq(read_i64(f, "sim/summary/backfill"), 1);
    uint64_t seed = 0;
    read_col(f, "sim/summary/seed", H5T_NATIVE_UINT64, &seed, 1);
    cr_expect_eq(seed, UINT64_MAX);
    char *s = read_str(f, "sim/summary/order");
    cr_expect_str_eq(s, "fifo");
    free(s);
    s = read_str(f, "sim/summary/mix");
    cr_expect_str_eq(s, "slow:2");
    free(s);
    cr_expect_eq(read_i64(f, "sim/summary/makespan"), 100);
    cr_expect_eq(H5Aexists_by_name(f, "sim/summary/makespan", "missing", H5P_DEFAULT), 0,
                 "a makespan with a value is not marked missing");
    cr_expect_eq(read_i64(f, "sim/summary/jct_p99"), 9007199254740993);
    cr_expect_eq(read_i64(f, "sim/summary/rejected"), 1);
    double d = 0;
    read_col(f, "sim/summary/comm_gpu_s", H5T_NATIVE_DOUBLE, &d, 1);
    cr_expect_eq(d, 7.25);

    int64_t v64[3];
    int32_t v32[3];
    read_col(f, "sim/jobs/job", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 0 && v64[1] == 1 && v64[2] == 2);
    read_col(f, "sim/jobs/start", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 0 && v64[1] == INT64_MIN && v64[2] == 20);
    cr_expect_eq(attr_i64(f, "sim/jobs/start", "missing"), INT64_MIN);
    read_col(f, "sim/jobs/end", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 100 && v64[1] == INT64_MIN && v64[2] == 33);
    read_col(f, "sim/jobs/duration", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 100 && v64[1] == 50 && v64[2] == 5);
    read_col(f, "sim/jobs/gpu_s", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 200 && v64[1] == 0 && v64[2] == 13);
    read_col(f, "sim/jobs/rho", H5T_NATIVE_INT64, v64, 3);
    cr_expect(v64[0] == 1000 && v64[1] == INT64_MIN && v64[2] == 1300);
    cr_expect_eq(attr_i64(f, "sim/jobs/rho", "missing"), INT64_MIN);
    read_col(f, "sim/jobs/level", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == -1 && v32[2] == 1);
    cr_expect_eq(attr_i64(f, "sim/jobs/level", "missing"), -1);
    read_col(f, "sim/jobs/slow", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 1000 && v32[2] == 2500);
    read_col(f, "sim/jobs/starts_l2", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == 0 && v32[2] == 1);
    read_col(f, "sim/jobs/rejected", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[0] == 0 && v32[1] == 1 && v32[2] == 0);
    read_col(f, "sim/jobs/gpus", H5T_NATIVE_INT32, v32, 3);
    cr_expect(v32[1] == 16);
    read_col(f, "sim/models/slow_l2", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 1000 && v64[1] == 2500);
    read_col(f, "sim/timeline/busy_gpus", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 2 && v64[1] == 3);
    read_col(f, "sim/timeline/running_l2", H5T_NATIVE_INT64, v64, 2);
    cr_expect(v64[0] == 0 && v64[1] == 1);
    H5Fclose(f);

    /* without a timeline: no /sim/timeline; a bad directory: an error, and
     * the old file stays as it was. Metrics that cannot be computed: NAN,
     * or an integer marked by its "missing" attribute */
    a.timeline = NULL;
    met.makespan = TT_METRIC_NONE;
    met.jct_mean = NAN;
    cr_assert_eq(tt_sim_save(ctx, path, &a), 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cr_expect_eq(H5Lexists(f, "sim/timeline", H5P_DEFAULT), 0);
    cr_expect_eq(read_i64(f, "sim/summary/makespan"), INT64_MIN);
    cr_expect_eq(attr_i64(f, "sim/summary/makespan", "missing"), INT64_MIN);
    cr_expect_eq(H5Aexists_by_name(f, "sim/summary/jct_p99", "missing", H5P_DEFAULT), 0);
    read_col(f, "sim/summary/jct_mean", H5T_NATIVE_DOUBLE, &d, 1);
    cr_expect(isnan(d), "jct_mean %g", d);
    H5Fclose(f);
    cr_expect_eq(tt_sim_save(ctx, "/nonexistent/dir/r.h5", &a), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot write '/nonexistent/dir/r.h5'"), "%s",
              tt_errmsg(ctx));
    a.metrics = NULL;
    cr_expect_eq(tt_sim_save(ctx, path, &a), TT_EINVAL);

    unlink(path);
    rmdir(dir);
    tt_ctx_free(ctx);
    tt_trace_free(t);
    tt_models_free(m);
}
