/* The optional columns of a trace (SPEC 10.6, 12.7): appending, parents
 * by name, sorting, and the HDF5 file. */
#include <hdf5.h>

#include "testutil.h"
#include "tt/tracefile.h"

static tt_job job(int64_t submit, const char *name)
{
    tt_job j = tt_job_empty();
    j.submit = submit;
    j.duration = 10;
    j.gpus = 1;
    j.name = name;
    return j;
}

/* c (submit 30) after a (20) and b (10, parent a), d (5, parents a and c);
 * the sort puts d, b, a, c. */
static tt_trace *dag(void)
{
    tt_trace *t = tt_trace_create();
    tt_job a = job(20, "a"), b = job(10, "b"), c = job(30, "c"), d = job(5, "d");
    b.has = TT_COL_DEPS | TT_COL_ELASTIC;
    b.deps = "a";
    b.elastic = 1;
    c.has = TT_COL_GPUS_MAX | TT_COL_WF;
    c.gpus_max = 8;
    c.wf = 3;
    d.has = TT_COL_DEPS | TT_COL_OUT_MB;
    d.deps = " a ; ;c";
    d.out_mb = 7;
    tt_job js[] = {a, b, c, d};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(tt_trace_append(t, &js[i]), 0);
    return t;
}

Test(optcols, absent_until_a_job_has_them_then_absent_values)
{
    tt_trace *t = dag();
    cr_expect_eq(tt_trace_cols(t),
                 TT_COL_DEPS | TT_COL_ELASTIC | TT_COL_GPUS_MAX | TT_COL_WF | TT_COL_OUT_MB);
    cr_expect_null(t->gpus_min);
    cr_expect_null(t->mid);
    cr_expect_eq(t->elastic[0], -1);
    cr_expect_eq(t->elastic[1], 1);
    cr_expect_eq(t->elastic[2], -1, "a later job without the bit is absent");
    cr_expect_eq(t->gpus_max[2], 8);
    cr_expect_eq(t->gpus_max[3], -1);
    cr_expect_eq(t->wf[0], -1);
    cr_expect_eq(t->out_mb[0], 0);
    cr_expect_eq(t->out_mb[3], 7);
    cr_expect(t->deps_named);
    cr_expect_eq(tt_trace_sort(t), TT_EINVAL, "sorting names, not rows");
    tt_trace *plain = tt_trace_create();
    tt_job p = job(1, "p");
    tt_trace_append(plain, &p);
    cr_expect_eq(tt_trace_cols(plain), 0u);
    tt_trace_free(plain);
    tt_trace_free(t);
}

Test(optcols, deps_link_then_sort_keeps_them_right)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = dag();
    int64_t bad = 0;
    cr_assert_eq(tt_trace_link_deps(ctx, t, &bad), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(bad, -1);
    cr_expect_eq(t->dep_off[4], 3);
    cr_assert_eq(tt_trace_sort(t), 0);
    /* d, b, a, c */
    const char *order[] = {"d", "b", "a", "c"};
    for (int i = 0; i < 4; i++)
        cr_expect_str_eq(tt_strtab_get(t->names, t->name[i]), order[i]);
    int64_t off[] = {0, 2, 3, 3, 3};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(t->dep_off[i], off[i], "dep_off[%d] = %lld", i, (long long)t->dep_off[i]);
    cr_expect_eq(t->deps[0], 2, "d's parent a is row 2");
    cr_expect_eq(t->deps[1], 3, "d's parent c is row 3");
    cr_expect_eq(t->deps[2], 2, "b's parent a is row 2");
    cr_expect_eq(t->elastic[1], 1, "b's elastic moved with it");
    cr_expect_eq(t->wf[3], 3);
    cr_expect_eq(t->out_mb[0], 7);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(optcols, link_errors_and_workflow_scope)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    /* two rows named x, in workflows 1 and 2; y of workflow 2 names x */
    tt_job x1 = job(0, "x"), x2 = job(0, "x"), y = job(0, "y"), z = job(0, "z");
    x1.has = x2.has = y.has = TT_COL_WF;
    x1.wf = 1;
    x2.wf = 2;
    y.wf = 2;
    y.has |= TT_COL_DEPS;
    y.deps = "x";
    z.has = TT_COL_DEPS;
    z.deps = "x;nosuch";
    tt_job js[] = {x1, x2, y, z};
    for (int i = 0; i < 4; i++)
        tt_trace_append(t, &js[i]);
    int64_t bad = 0;
    cr_expect_eq(tt_trace_link_deps(ctx, t, &bad), TT_EPARSE);
    cr_expect_eq(bad, 3);
    cr_expect_str_eq(tt_errmsg(ctx), "no job is named 'nosuch'");
    tt_trace_free(t);
    t = tt_trace_create();
    z.deps = "x";
    js[3] = z;
    for (int i = 0; i < 4; i++)
        tt_trace_append(t, &js[i]);
    cr_assert_eq(tt_trace_link_deps(ctx, t, &bad), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(t->deps[0], 1, "y's x is the one of its workflow");
    cr_expect_eq(t->deps[1], 0, "z (no workflow) takes the first x");
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(optcols, duplicates_look_at_optional_columns)
{
    tt_trace *t = tt_trace_create();
    tt_job a = job(0, "a"), b = job(0, "a");
    b.has = TT_COL_MID;
    b.mid = 4;
    tt_trace_append(t, &a);
    tt_trace_append(t, &b);
    tt_trace_append(t, &a);
    cr_expect_eq(tt_trace_count_duplicates(t), 1);
    tt_trace_free(t);
}

static int has_dataset(const char *path, const char *name)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int r = H5Lexists(f, name, H5P_DEFAULT) > 0;
    H5Fclose(f);
    return r;
}

Test(optcols, file_round_trip_and_plain_files_unchanged)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = dag(), *r = NULL;
    int64_t bad;
    cr_assert_eq(tt_trace_link_deps(ctx, t, &bad), 0);
    cr_assert_eq(tt_trace_sort(t), 0);
    const char *path = tmpfile_path("opt.h5");
    cr_assert_eq(tt_trace_save(ctx, t, path), 0, "%s", tt_errmsg(ctx));
    cr_expect(has_dataset(path, "/jobs/elastic"));
    cr_expect(has_dataset(path, "/jobs/dep_off"));
    cr_expect(!has_dataset(path, "/jobs/mid"));
    cr_assert_eq(tt_trace_load(ctx, path, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_trace_cols(r), tt_trace_cols(t));
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(r->elastic[i], t->elastic[i]);
        cr_expect_eq(r->gpus_max[i], t->gpus_max[i]);
        cr_expect_eq(r->wf[i], t->wf[i]);
        cr_expect_eq(r->out_mb[i], t->out_mb[i]);
    }
    for (int i = 0; i < 5; i++)
        cr_expect_eq(r->dep_off[i], t->dep_off[i]);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(r->deps[i], t->deps[i]);
    tt_trace_free(r);
    r = NULL;
    cr_assert_eq(tt_trace_load_cols(ctx, path, TT_COL_ELASTIC, &r), 0);
    cr_expect_not_null(r->elastic);
    cr_expect_null(r->dep_off);
    cr_expect_null(r->wf);
    tt_trace_free(r);
    r = NULL;
    tt_trace_free(t);
    t = tt_trace_create();
    tt_job p = job(1, "p");
    tt_trace_append(t, &p);
    cr_assert_eq(tt_trace_save(ctx, t, path), 0);
    const char *opt[] = {"elastic", "gpus_min", "gpus_max", "wf", "dep_off", "deps", "mid",
                         "mem_mb", "out_mb"};
    for (int i = 0; i < 9; i++) {
        char ds[64];
        snprintf(ds, sizeof ds, "/jobs/%s", opt[i]);
        cr_expect(!has_dataset(path, ds), "%s written for a trace without it", ds);
    }
    cr_assert_eq(tt_trace_load(ctx, path, &r), 0);
    cr_expect_eq(tt_trace_cols(r), 0u);
    unlink(path);
    tt_trace_free(r);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Overwrites the first value of the int dataset name of the file at path. */
static void poke(const char *path, const char *name, int64_t v)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t fs = H5Dget_space(d);
    hsize_t off = 0, one = 1;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &one, NULL);
    hid_t ms = H5Screate_simple(1, &one, NULL);
    cr_assert(H5Dwrite(d, H5T_NATIVE_INT64, ms, fs, H5P_DEFAULT, &v) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
    H5Fclose(f);
}

static void expect_bad(const char *name, int64_t v, const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = dag(), *r = NULL;
    int64_t bad;
    tt_trace_link_deps(ctx, t, &bad);
    tt_trace_sort(t);
    const char *path = tmpfile_path("bad.h5");
    cr_assert_eq(tt_trace_save(ctx, t, path), 0);
    poke(path, name, v);
    cr_expect_eq(tt_trace_load(ctx, path, &r), TT_EFORMAT, "%s = %lld taken", name, (long long)v);
    cr_expect(strstr(tt_errmsg(ctx), path) && strstr(tt_errmsg(ctx), want), "message '%s'",
              tt_errmsg(ctx));
    unlink(path);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

Test(optcols, bad_files_name_file_and_dataset)
{
    expect_bad("/jobs/deps", 4, "damaged trace: /jobs/deps[0] = 4 is not a row (0 .. 3)");
    expect_bad("/jobs/deps", -1, "/jobs/deps[0] = -1 is not a row");
    expect_bad("/jobs/dep_off", 1, "/jobs/dep_off[0] = 1 does not follow");
    expect_bad("/jobs/dep_off", 5, "/jobs/dep_off[0] = 5");
    expect_bad("/jobs/elastic", 2, "/jobs/elastic[0] = 2 is out of range");
    expect_bad("/jobs/gpus_max", -2, "/jobs/gpus_max[0] = -2 is out of range");
}
