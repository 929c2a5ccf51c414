/* Merging the shard files of a sweep: shards written by tt_sweep_save
 * with made-up metrics (makespan 1000 + configuration, util
 * configuration / 8: exact in binary), so every merged value is known by
 * hand; then each check, by spoiling one shard with the HDF5 library. */
#include <hdf5.h>
#include <sys/stat.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/sweep.h"
#include "tt/sweepfile.h"
#include "tt/sweepmerge.h"
#include "tt/tracefile.h"

#define MAXF 16

/* A 6-configuration sweep (w0 = 0, 300, 600, slowest; order = fifo, sjf)
 * and the files of its shards in a fresh folder. */
typedef struct {
    char dir[64];
    char path[MAXF][128];
    const char *paths[MAXF];
    char out[128];
    tt_models *models;
    tt_sweep *sweep;
    tt_cluster cl;
    tt_ctx *ctx;
} fixture;

static void setup(fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/tt_merge_XXXXXX");
    cr_assert_not_null(mkdtemp(fx->dir));
    snprintf(fx->out, sizeof fx->out, "%s/merged.h5", fx->dir);
    cr_assert_not_null(fx->ctx = tt_ctx_create());
    cr_assert_eq(tt_models_default(fx->ctx, &fx->models), 0);
    cr_assert_eq(tt_sweep_create(fx->ctx, fx->models, &fx->sweep), 0);
    cr_assert_eq(tt_sweep_grid(fx->ctx, fx->sweep, "w0", "0:600:3"), 0);
    cr_assert_eq(tt_sweep_grid(fx->ctx, fx->sweep, "order", "fifo,sjf"), 0);
    cr_assert_eq(tt_cluster_parse(fx->ctx, "1x2x4", &fx->cl), 0);
}

static void teardown(fixture *fx)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    cr_expect_eq(system(cmd), 0);
    tt_sweep_free(fx->sweep);
    tt_models_free(fx->models);
    tt_ctx_free(fx->ctx);
}

/* The configuration whose makespan cannot be computed (-1: none). */
static int64_t no_makespan_at = -1;
/* Each shard's distinct_simulations (0: none written). */
static int64_t shard_sims[8];

/* Shard k of n as DIR/sK.h5 (fx->path[k]), with the given device and time. */
static void write_shard(fixture *fx, int64_t k, int64_t n, const char *device, double elapsed)
{
    int64_t idx[8];
    tt_metrics m[8];
    memset(m, 0, sizeof m);
    int64_t rows = tt_sweep_shard_count(6, k, n);
    for (int64_t r = 0; r < rows; r++) {
        idx[r] = k + r * n;
        m[r].makespan = idx[r] == no_makespan_at ? TT_METRIC_NONE : 1000 + idx[r];
        m[r].util = (double)idx[r] / 8;
    }
    tt_provenance prov;
    memset(&prov, 0, sizeof prov);
    prov.format = (char *)"csv";
    prov.source_sha256 = (char *)"ab12";
    char path[sizeof fx->path[k]];
    snprintf(path, sizeof path, "%s/s%lld.h5", fx->dir, (long long)k);
    memcpy(fx->path[k], path, sizeof path);
    fx->paths[k] = fx->path[k];
    tt_sweep_save_args a = {fx->sweep, &fx->cl, fx->models, "t.h5", &prov, rows, idx, m, k, n,
                            device, elapsed, 0.0, shard_sims[k]};
    cr_assert_eq(tt_sweep_save(fx->ctx, fx->path[k], &a), 0, "%s", tt_errmsg(fx->ctx));
}

static void write_shards(fixture *fx, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        write_shard(fx, k, n, "cpu: 2 threads", 1.0);
}

/* ---- reading and spoiling files with the HDF5 library alone ---- */

static hid_t open_sweep(const char *path, unsigned mode, hid_t *f)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    *f = H5Fopen(path, mode, H5P_DEFAULT);
    cr_assert_geq(*f, 0, "cannot open %s", path);
    hid_t g = H5Gopen2(*f, "sweep", H5P_DEFAULT);
    cr_assert_geq(g, 0);
    return g;
}

static void close_sweep(hid_t g, hid_t f)
{
    H5Gclose(g);
    H5Fclose(f);
}

static char *get_str(const char *path, const char *name)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDONLY, &f);
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    cr_assert_geq(a, 0, "no attribute %s", name);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char *v = NULL;
    cr_assert_geq(H5Aread(a, t, &v), 0);
    char *copy = strdup(v);
    H5free_memory(v);
    H5Tclose(t);
    H5Aclose(a);
    close_sweep(g, f);
    return copy;
}

static void get_num(const char *path, const char *name, hid_t type, void *out)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDONLY, &f);
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    cr_assert_geq(a, 0, "no attribute %s", name);
    cr_assert_geq(H5Aread(a, type, out), 0);
    H5Aclose(a);
    close_sweep(g, f);
}

static void set_str(const char *path, const char *name, const char *value)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDWR, &f);
    if (H5Aexists(g, name) > 0)
        cr_assert_geq(H5Adelete(g, name), 0);
    if (value) {
        hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR);
        H5Tset_size(t, H5T_VARIABLE);
        H5Tset_cset(t, H5T_CSET_UTF8);
        hid_t a = H5Acreate2(g, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
        cr_assert_geq(H5Awrite(a, t, &value), 0);
        H5Aclose(a);
        H5Sclose(s);
        H5Tclose(t);
    }
    close_sweep(g, f);
}

static void set_i64(const char *path, const char *name, int64_t v)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDWR, &f);
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    cr_assert_geq(H5Awrite(a, H5T_NATIVE_INT64, &v), 0);
    H5Aclose(a);
    close_sweep(g, f);
}

/* Column dset (under /sweep) as n values of memory type type. */
static void get_col(const char *path, const char *dset, hid_t type, void *out)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDONLY, &f);
    hid_t d = H5Dopen2(g, dset, H5P_DEFAULT);
    cr_assert_geq(d, 0, "no %s in %s", dset, path);
    cr_assert_geq(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out), 0);
    H5Dclose(d);
    close_sweep(g, f);
}

/* A new int32 column dset (under /sweep) of n values with a units attribute. */
static void add_col(const char *path, const char *dset, const int32_t *v, hsize_t n)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDWR, &f);
    hid_t s = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(g, dset, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    cr_assert_geq(d, 0);
    if (n)
        cr_assert_geq(H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
    H5Dclose(d);
    H5Sclose(s);
    close_sweep(g, f);
}

static void del_link(const char *path, const char *link)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDWR, &f);
    cr_assert_geq(H5Ldelete(g, link, H5P_DEFAULT), 0);
    close_sweep(g, f);
}

/* Merging fx->paths in the order of order (n files) must fail with code
 * and exactly msg (paths in msg written %1$s.. as "DIR/"), no output. */
static void expect_refused(fixture *fx, const int *order, int n, int code, const char *msg)
{
    const char *in[MAXF];
    for (int i = 0; i < n; i++)
        in[i] = fx->paths[order[i]];
    cr_expect_eq(tt_sweep_merge(fx->ctx, fx->out, in, n, NULL), code, "accepted or code %d: %s",
                 tt_errcode(fx->ctx), tt_errmsg(fx->ctx));
    char want[1024];
    snprintf(want, sizeof want, msg, fx->dir, fx->dir, fx->dir);
    cr_expect_str_eq(tt_errmsg(fx->ctx), want);
    cr_expect_neq(access(fx->out, F_OK), 0, "an output was left");
}

static const int in_order[] = {0, 1, 2, 3};

/* ---- merging ---- */

Test(sweepmerge, joins_in_configuration_order)
{
    fixture fx;
    setup(&fx);
    /* 4 shards of 6: rows 2, 2, 1, 1 */
    write_shard(&fx, 0, 4, "cpu: 2 threads", 1.0);
    write_shard(&fx, 1, 4, "cpu: 4 threads", 0.5);
    write_shard(&fx, 2, 4, "cpu: 2 threads", 0.25);
    write_shard(&fx, 3, 4, "gpu: X", 0.125);
    const char *in[] = {fx.paths[3], fx.paths[1], fx.paths[0], fx.paths[2]};
    tt_sweep_merge_info info;
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, in, 4, &info), 0, "%s", tt_errmsg(fx.ctx));
    cr_expect_eq(info.shards, 4);
    cr_expect_eq(info.configurations, 6);

    int64_t idx[6], makespan[6], w0[6], theta[6], want_w0[] = {0, 0, 300, 300, 600, 600};
    double util[6];
    char *order[6];
    get_col(fx.out, "index", H5T_NATIVE_INT64, idx);
    get_col(fx.out, "metrics/makespan", H5T_NATIVE_INT64, makespan);
    get_col(fx.out, "metrics/util", H5T_NATIVE_DOUBLE, util);
    get_col(fx.out, "params/w0", H5T_NATIVE_INT64, w0);
    get_col(fx.out, "params/theta", H5T_NATIVE_INT64, theta);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    get_col(fx.out, "params/order", st, order);
    for (int c = 0; c < 6; c++) {
        cr_expect_eq(idx[c], c);
        cr_expect_eq(makespan[c], 1000 + c, "makespan[%d] = %lld", c, (long long)makespan[c]);
        cr_expect_eq(util[c], c / 8.0, "util[%d] = %g", c, util[c]);
        cr_expect_eq(w0[c], want_w0[c], "w0[%d] = %lld", c, (long long)w0[c]);
        cr_expect_eq(theta[c], INT64_MAX, "theta: the default, infinite");
        cr_expect_str_eq(order[c], c % 2 ? "sjf" : "fifo");
        H5free_memory(order[c]);
    }
    H5Tclose(st);

    char *s;
    cr_expect_str_eq(s = get_str(fx.out, "shard"), "0/1");
    free(s);
    cr_expect_str_eq(s = get_str(fx.out, "device"), "cpu: 2 threads; cpu: 4 threads; gpu: X");
    free(s);
    cr_expect_str_eq(s = get_str(fx.out, "cluster"), "1x2x4");
    free(s);
    char from[1024];
    snprintf(from, sizeof from, "%s/s0.h5\n%s/s1.h5\n%s/s2.h5\n%s/s3.h5", fx.dir, fx.dir, fx.dir,
             fx.dir);
    cr_expect_str_eq(s = get_str(fx.out, "merged_from"), from);
    free(s);
    int64_t rows, total;
    double elapsed, rate;
    get_num(fx.out, "rows", H5T_NATIVE_INT64, &rows);
    get_num(fx.out, "configurations", H5T_NATIVE_INT64, &total);
    get_num(fx.out, "elapsed_s", H5T_NATIVE_DOUBLE, &elapsed);
    get_num(fx.out, "sims_per_s", H5T_NATIVE_DOUBLE, &rate);
    cr_expect_eq(rows, 6);
    cr_expect_eq(total, 6);
    cr_expect_eq(elapsed, 1.875, "elapsed_s %g", elapsed); /* 1 + 0.5 + 0.25 + 0.125 */
    cr_expect_eq(rate, 3.2, "sims_per_s %g", rate);       /* 6 / 1.875 */
    teardown(&fx);
}

/* A makespan that cannot be computed in configuration 5 only: the shard
 * holding it marks its column "missing", the others do not, and the
 * merged column keeps the mark whatever the shard order. */
Test(sweepmerge, keeps_the_mark_of_a_metric_without_value)
{
    fixture fx;
    setup(&fx);
    no_makespan_at = 5;
    write_shards(&fx, 2);
    no_makespan_at = -1;
    for (int k = 0; k < 2; k++) {
        hid_t f, g = open_sweep(fx.paths[k], H5F_ACC_RDONLY, &f);
        cr_expect_eq(H5Aexists_by_name(g, "metrics/makespan", "missing", H5P_DEFAULT), k,
                     "shard %d", k);
        close_sweep(g, f);
    }
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 2, NULL), 0, "%s", tt_errmsg(fx.ctx));
    int64_t makespan[6], missing = 0;
    get_col(fx.out, "metrics/makespan", H5T_NATIVE_INT64, makespan);
    cr_expect_eq(makespan[5], INT64_MIN);
    cr_expect_eq(makespan[4], 1004);
    hid_t f, g = open_sweep(fx.out, H5F_ACC_RDONLY, &f);
    hid_t d = H5Dopen2(g, "metrics/makespan", H5P_DEFAULT);
    hid_t a = H5Aopen(d, "missing", H5P_DEFAULT);
    cr_expect_geq(a, 0, "the merged makespan lost its mark");
    if (a >= 0) {
        H5Aread(a, H5T_NATIVE_INT64, &missing);
        H5Aclose(a);
    }
    cr_expect_eq(missing, INT64_MIN);
    cr_expect_eq(H5Aexists_by_name(g, "metrics/jct_p99", "missing", H5P_DEFAULT), 0);
    H5Dclose(d);
    close_sweep(g, f);
    teardown(&fx);
}

Test(sweepmerge, copies_columns_it_does_not_know)
{
    /* a new int32 metric with its units: carried with its type and values */
    fixture fx;
    setup(&fx);
    write_shards(&fx, 2);
    const int32_t a[] = {-10, -12, -14}, b[] = {-11, -13, -15};
    add_col(fx.paths[0], "metrics/newer", a, 3);
    add_col(fx.paths[1], "metrics/newer", b, 3);
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 2, NULL), 0, "%s", tt_errmsg(fx.ctx));
    int32_t v[6];
    get_col(fx.out, "metrics/newer", H5T_NATIVE_INT32, v);
    for (int c = 0; c < 6; c++)
        cr_expect_eq(v[c], -10 - c, "newer[%d] = %d", c, v[c]);
    hid_t f, g = open_sweep(fx.out, H5F_ACC_RDONLY, &f);
    hid_t d = H5Dopen2(g, "metrics/newer", H5P_DEFAULT), t = H5Dget_type(d);
    cr_expect_gt(H5Tequal(t, H5T_STD_I32LE), 0, "the type is not int32");
    H5Tclose(t);
    H5Dclose(d);
    d = H5Dopen2(g, "metrics/makespan", H5P_DEFAULT);
    cr_expect_gt(H5Aexists(d, "units"), 0, "units not copied");
    H5Dclose(d);
    d = H5Dopen2(g, "params/theta", H5P_DEFAULT);
    int64_t inf = 0;
    hid_t at = H5Aopen(d, "infinite", H5P_DEFAULT);
    cr_expect_geq(H5Aread(at, H5T_NATIVE_INT64, &inf), 0);
    cr_expect_eq(inf, INT64_MAX);
    H5Aclose(at);
    H5Dclose(d);
    close_sweep(g, f);
    teardown(&fx);
}

Test(sweepmerge, empty_shards_and_a_single_whole_one)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 8); /* 6 of one row, 2 of none */
    int64_t rows;
    get_num(fx.paths[7], "rows", H5T_NATIVE_INT64, &rows);
    cr_expect_eq(rows, 0);
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 8, NULL), 0, "%s", tt_errmsg(fx.ctx));
    int64_t makespan[6];
    get_col(fx.out, "metrics/makespan", H5T_NATIVE_INT64, makespan);
    for (int c = 0; c < 6; c++)
        cr_expect_eq(makespan[c], 1000 + c);
    /* the merged file is a whole sweep (0/1): it merges alone, to a copy */
    char again[160];
    snprintf(again, sizeof again, "%s/again.h5", fx.dir);
    const char *one[] = {fx.out};
    cr_assert_eq(tt_sweep_merge(fx.ctx, again, one, 1, NULL), 0, "%s", tt_errmsg(fx.ctx));
    get_col(again, "metrics/makespan", H5T_NATIVE_INT64, makespan);
    for (int c = 0; c < 6; c++)
        cr_expect_eq(makespan[c], 1000 + c);
    char *s = get_str(again, "merged_from");
    cr_expect_str_eq(s, fx.out);
    free(s);
    teardown(&fx);
}

static int has_attr(const char *path, const char *name)
{
    hid_t f, g = open_sweep(path, H5F_ACC_RDONLY, &f);
    int yes = H5Aexists(g, name) > 0;
    close_sweep(g, f);
    return yes;
}

/* The simulations the shards ran add up (an empty shard ran none, with or
 * without the attribute); a shard with rows that does not say how many it
 * ran (every row simulated) leaves the merged file without a count. */
Test(sweepmerge, sums_distinct_simulations)
{
    fixture fx;
    setup(&fx);
    int64_t sims[] = {1, 1, 1, 1, 1, 1, 0, 0};
    memcpy(shard_sims, sims, sizeof sims);
    write_shards(&fx, 8); /* 6 of one row, 2 of none (without the attribute) */
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 8, NULL), 0, "%s", tt_errmsg(fx.ctx));
    int64_t total = 0;
    get_num(fx.out, "distinct_simulations", H5T_NATIVE_INT64, &total);
    cr_expect_eq(total, 6);
    shard_sims[1] = 0;
    write_shard(&fx, 1, 8, "cpu: 2 threads", 1.0);
    cr_expect(has_attr(fx.paths[0], "distinct_simulations"));
    cr_expect(!has_attr(fx.paths[1], "distinct_simulations"));
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 8, NULL), 0, "%s", tt_errmsg(fx.ctx));
    cr_expect(!has_attr(fx.out, "distinct_simulations"), "a count without shard 1's");
    memset(shard_sims, 0, sizeof shard_sims);
    teardown(&fx);
}

Test(sweepmerge, replaces_an_existing_output_never_an_input)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 2);
    FILE *f = fopen(fx.out, "w");
    fputs("old", f);
    fclose(f);
    cr_assert_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 2, NULL), 0, "%s", tt_errmsg(fx.ctx));
    int64_t rows;
    get_num(fx.out, "rows", H5T_NATIVE_INT64, &rows);
    cr_expect_eq(rows, 6);
    struct stat before, after;
    stat(fx.paths[1], &before);
    cr_expect_eq(tt_sweep_merge(fx.ctx, fx.paths[1], fx.paths, 2, NULL), TT_EINVAL);
    char want[512];
    snprintf(want, sizeof want, "output '%s' is also the input '%s': refusing to overwrite it",
             fx.paths[1], fx.paths[1]);
    cr_expect_str_eq(tt_errmsg(fx.ctx), want);
    stat(fx.paths[1], &after);
    cr_expect(before.st_ino == after.st_ino && before.st_size == after.st_size &&
              before.st_mtime == after.st_mtime, "the input was touched");
    teardown(&fx);
}

/* ---- refusals ---- */

Test(sweepmerge, shards_missing_or_twice)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 4);
    expect_refused(&fx, (const int[]){0, 1, 3}, 3, TT_EFORMAT, "shard 2/4 missing");
    expect_refused(&fx, (const int[]){3, 1}, 2, TT_EFORMAT, "shards 0/4, 2/4 missing");
    expect_refused(&fx, (const int[]){0, 1, 2, 2, 3}, 5, TT_EFORMAT, "%s/s2.h5: given twice");
    char copy[160];
    snprintf(copy, sizeof copy, "cp '%s' '%s/t.h5'", fx.paths[1], fx.dir);
    cr_assert_eq(system(copy), 0);
    snprintf(fx.path[4], sizeof fx.path[4], "%s/t.h5", fx.dir);
    fx.paths[4] = fx.path[4];
    expect_refused(&fx, (const int[]){4, 0, 1, 2, 3}, 5, TT_EFORMAT,
                   "%s/s1.h5: shard 1/4 again (also %s/t.h5)");
    teardown(&fx);

    /* many missing: the first 8 named */
    fixture big;
    setup(&big);
    write_shard(&big, 3, 12, "cpu", 1.0);
    big.paths[0] = big.paths[3];
    expect_refused(&big, in_order, 1, TT_EFORMAT,
                   "shards 0/12, 1/12, 2/12, 4/12, 5/12, 6/12, 7/12, 8/12 and 3 more missing");
    teardown(&big);
}

Test(sweepmerge, attributes_of_another_sweep)
{
    static const char *const names[] = {"trace_source_sha256", "trace_format", "cluster",
                                        "models_sha256", "configs_sha256"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fixture fx;
        setup(&fx);
        write_shards(&fx, 3);
        char *was = get_str(fx.paths[0], names[i]);
        set_str(fx.paths[2], names[i], "other");
        char msg[512], *src = get_str(fx.paths[0], i ? "models_source" : "trace_file");
        /* an input is named by its file, a grid by what to compare */
        if (i == 0 || i == 3)
            snprintf(msg, sizeof msg, "%%s/s2.h5: shard 2/3 was run on another %s: '%s' (sha256 "
                     "other...) vs '%s' (sha256 %.12s...) in %%s/s0.h5",
                     i ? "model table" : "trace", src, src, was);
        else if (i == 4)
            snprintf(msg, sizeof msg, "%%s/s2.h5: shard 2/3 was run on another grid than "
                     "%%s/s0.h5 (configs_sha256 differs): compare their -p, -g and --configs "
                     "options");
        else
            snprintf(msg, sizeof msg, "%%s/s2.h5: %s 'other' differs from '%s' in %%s/s0.h5",
                     names[i], was);
        free(src);
        expect_refused(&fx, (const int[]){2, 1, 0}, 3, TT_EFORMAT, msg);
        free(was);
        teardown(&fx);
    }
    fixture fx;
    setup(&fx);
    write_shards(&fx, 3);
    set_i64(fx.paths[1], "configurations", 7);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: configurations 7 differs from 6 in %s/s0.h5");
    set_i64(fx.paths[1], "configurations", 6);
    set_str(fx.paths[1], "cluster", NULL);
    expect_refused(&fx, in_order, 3, TT_EFORMAT, "%s/s1.h5: no attribute 'cluster'");
    teardown(&fx);
}

/* n shards of one sweep but shard 1, run with load=2000: refused with msg. */
static void expect_load_refused(int64_t n, const char *msg)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, n);
    cr_assert_eq(tt_sweep_fix(fx.ctx, fx.sweep, "load", "2000"), 0);
    write_shard(&fx, 1, n, "cpu: 2 threads", 1.0);
    expect_refused(&fx, in_order, (int)n, TT_EFORMAT, msg);
    teardown(&fx);
}

/* A shard run with another -p names the parameter, not two sha256 values;
 * the grid's order, one value per shard of two, is not taken for it. */
Test(sweepmerge, another_fixed_parameter_is_named)
{
    expect_load_refused(3, "%s/s1.h5: shard 1/3 has load=2000, the other shards load=1000: not "
                           "one sweep");
    /* two shards of 6 configurations: order may hold one value per shard */
    expect_load_refused(2, "%s/s1.h5: shard 1/2 was run on another grid than %s/s0.h5 "
                           "(configs_sha256 differs): compare their -p, -g and --configs "
                           "options");
}

Test(sweepmerge, no_configs_sha256)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 3);
    set_str(fx.paths[1], "configs_sha256", NULL);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: no configs_sha256: written by an older tt-sweep; cannot check it "
                   "is the same grid");
    set_str(fx.paths[0], "configs_sha256", NULL); /* a file alone too */
    expect_refused(&fx, in_order, 1, TT_EFORMAT,
                   "%s/s0.h5: no configs_sha256: written by an older tt-sweep; cannot check it "
                   "is the same grid");
    teardown(&fx);
}

Test(sweepmerge, shard_attributes)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 3);
    set_str(fx.paths[1], "shard", "1/4");
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: shard 1/4 is one of 4 shards, but %s/s0.h5 (shard 0/3) is one of 3");
    for (int i = 0; i < 5; i++) {
        const char *bad[] = {"3/3", "1", "-1/3", "1/x", "1/3 "};
        set_str(fx.paths[1], "shard", bad[i]);
        char msg[256];
        snprintf(msg, sizeof msg,
                 "%%s/s1.h5: attribute shard '%s': expected K/N with 0 <= K < N", bad[i]);
        expect_refused(&fx, in_order, 3, TT_EFORMAT, msg);
    }
    set_str(fx.paths[1], "shard", "1/3");
    set_i64(fx.paths[1], "rows", 3);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: rows 3, but shard 1/3 of 6 configurations has 2");
    teardown(&fx);
}

Test(sweepmerge, index_of_other_configurations)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 3);
    /* shard 1 of 3 holds 1 and 4: the second made 5 */
    hid_t f, g = open_sweep(fx.paths[1], H5F_ACC_RDWR, &f);
    hid_t d = H5Dopen2(g, "index", H5P_DEFAULT);
    int64_t v[2] = {1, 5};
    cr_assert_geq(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
    H5Dclose(d);
    close_sweep(g, f);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: /sweep/index[1] = 5, expected 4 (shard 1/3 holds configurations "
                   "1, 4, ...)");
    teardown(&fx);
}

Test(sweepmerge, columns_that_differ)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 3);
    del_link(fx.paths[2], "metrics/util");
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s2.h5: no /sweep/metrics/util (%s/s0.h5 has it)");
    /* the same name, another type */
    add_col(fx.paths[2], "metrics/util", (const int32_t[]){1, 2}, 2);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s2.h5: /sweep/metrics/util: HDF5 type differs from that in %s/s0.h5");
    del_link(fx.paths[2], "metrics/util");
    del_link(fx.paths[0], "metrics/util");
    add_col(fx.paths[0], "metrics/util", (const int32_t[]){1, 2}, 2);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s1.h5: /sweep/metrics/util: HDF5 type differs from that in %s/s0.h5");
    teardown(&fx);

    setup(&fx);
    write_shards(&fx, 3);
    add_col(fx.paths[1], "params/zz", (const int32_t[]){1, 2}, 2);
    expect_refused(&fx, in_order, 3, TT_EFORMAT, "%s/s1.h5: /sweep/params/zz is not in %s/s0.h5");
    add_col(fx.paths[0], "params/zz", (const int32_t[]){1, 2}, 2);
    add_col(fx.paths[2], "params/zz", (const int32_t[]){1, 2, 3}, 3);
    expect_refused(&fx, in_order, 3, TT_EFORMAT,
                   "%s/s2.h5: /sweep/params/zz: 3 entries in 1 dimension(s), expected 2 in 1 "
                   "(rows)");
    teardown(&fx);
}

Test(sweepmerge, files_that_are_not_sweeps)
{
    fixture fx;
    setup(&fx);
    write_shards(&fx, 2);
    snprintf(fx.path[2], sizeof fx.path[2], "%s/nosuch.h5", fx.dir);
    fx.paths[2] = fx.path[2];
    expect_refused(&fx, (const int[]){0, 1, 2}, 3, TT_EIO,
                   "%s/nosuch.h5: cannot read: No such file or directory");
    FILE *f = fopen(fx.path[2], "w");
    fputs("submit\tduration\n", f);
    fclose(f);
    expect_refused(&fx, (const int[]){0, 2, 1}, 3, TT_EFORMAT, "%s/nosuch.h5: not an HDF5 file");
    /* a trace: HDF5 without /sweep */
    tt_trace *t = ingest_text(fx.ctx, "csv", "submit\tduration\tgpus\n0\t10\t1\n");
    cr_assert_not_null(t);
    cr_assert_eq(tt_trace_save(fx.ctx, t, fx.path[2]), 0);
    tt_trace_free(t);
    expect_refused(&fx, (const int[]){2, 0, 1}, 3, TT_EFORMAT,
                   "%s/nosuch.h5: not a sweep file (no /sweep group)");
    set_str(fx.paths[1], "tracetune_layout", "sweep/2");
    expect_refused(&fx, in_order, 2, TT_EFORMAT,
                   "%s/s1.h5: tracetune_layout 'sweep/2', expected 'sweep/1'");
    set_str(fx.paths[1], "tracetune_layout", NULL);
    expect_refused(&fx, in_order, 2, TT_EFORMAT,
                   "%s/s1.h5: not a sweep file (no tracetune_layout on /sweep)");
    cr_expect_eq(tt_sweep_merge(fx.ctx, fx.out, fx.paths, 0, NULL), TT_EINVAL);
    cr_expect_str_eq(tt_errmsg(fx.ctx), "no shard files to merge");
    teardown(&fx);
}
