/* The trace table and its HDF5 file. */
#include <hdf5.h>

#include "testutil.h"
#include "tt/sim.h"
#include "tt/stats.h"
#include "tt/tracefile.h"

static tt_job job(int64_t submit, int64_t dur, int32_t gpus, const char *name)
{
    tt_job j = tt_job_empty();
    j.submit = submit;
    j.duration = dur;
    j.gpus = gpus;
    j.name = name;
    return j;
}

Test(trace, stable_sort_and_duplicates)
{
    tt_trace *t = tt_trace_create();
    tt_job js[] = {job(30, 1, 1, "a"), job(10, 2, 1, "b"), job(30, 3, 2, "c"),
                   job(-5, 4, 1, "d"), job(10, 2, 1, "b"), job(10, 2, 1, "e")};
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(tt_trace_append(t, &js[i]), 0);
    cr_assert_eq(tt_trace_sort(t), 0);
    const char *order[] = {"d", "b", "b", "e", "a", "c"};
    for (int i = 0; i < 6; i++)
        cr_expect_str_eq(tt_strtab_get(t->names, t->name[i]), order[i], "row %d", i);
    cr_expect(tt_trace_is_sorted(t));
    cr_expect_eq(tt_trace_count_duplicates(t), 1);
    cr_expect_eq(t->gpu_milli[0], 1000, "gpu_milli defaults to gpus * 1000");
    cr_expect_eq(t->start[0], TT_TIME_NONE);
    cr_expect_eq(t->user[0], -1);
    tt_trace_free(t);
}

Test(trace, big_sort_is_stable)
{
    tt_trace *t = tt_trace_create();
    uint64_t x = 1;
    for (int i = 0; i < 100000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        tt_job j = job((int64_t)(x >> 50) - 4000, i, 1, NULL);
        tt_trace_append(t, &j);
    }
    tt_trace_sort(t);
    for (int64_t i = 1; i < t->n; i++) {
        cr_assert(t->submit[i - 1] <= t->submit[i]);
        if (t->submit[i - 1] == t->submit[i])
            cr_assert(t->duration[i - 1] < t->duration[i], "ties keep input order");
    }
    tt_trace_free(t);
}

Test(strtab, intern_and_find)
{
    tt_strtab *s = tt_strtab_create();
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(buf, sizeof buf, "s%d", i);
        cr_assert_eq(tt_strtab_intern(s, buf), i);
    }
    cr_expect_eq(tt_strtab_intern(s, "s42"), 42);
    cr_expect_eq(tt_strtab_find(s, "s4999"), 4999);
    cr_expect_eq(tt_strtab_find(s, "nope"), -1);
    cr_expect_str_eq(tt_strtab_get(s, 7), "s7");
    cr_expect_null(tt_strtab_get(s, 5000));
    tt_strtab_free(s);
}

Test(tracefile, round_trip_every_column)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    tt_job a = job(100, 50, 2, "job-1");
    a.start = 110;
    a.end = 160;
    a.nodes = 1;
    a.user = "alice";
    a.vc = "vc1";
    a.model = "resnet50";
    a.status = "Pass";
    a.gpu_milli = 1500;
    tt_job b = job(200, 7, 1, "job-\xc3\xa9");
    tt_trace_append(t, &a);
    tt_trace_append(t, &b);
    tt_prov_set(&t->prov.format, "unit");
    tt_prov_add_line(&t->prov.source_files, "x.csv");
    tt_prov_add_line(&t->prov.source_files, "y.csv");
    t->prov.rows_read = 9;
    t->prov.rows_kept = 2;
    t->prov.dropped[TT_DROP_CPU_ONLY] = 7;
    const char *path = tmpfile_path("rt.h5");
    cr_assert_eq(tt_trace_save(ctx, t, path), 0, "%s", tt_errmsg(ctx));
    tt_trace *r = NULL;
    cr_assert_eq(tt_trace_load(ctx, path, &r), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(r->n, 2);
    cr_expect_eq(r->submit[0], 100);
    cr_expect_eq(r->duration[1], 7);
    cr_expect_eq(r->start[0], 110);
    cr_expect_eq(r->end[0], 160);
    cr_expect_eq(r->start[1], TT_TIME_NONE);
    cr_expect_eq(r->gpu_milli[0], 1500);
    cr_expect_eq(r->nodes[1], -1);
    cr_expect_str_eq(tt_strtab_get(r->names, r->name[1]), "job-\xc3\xa9");
    cr_expect_str_eq(tt_strtab_get(r->users, r->user[0]), "alice");
    cr_expect_eq(r->user[1], -1);
    cr_expect_str_eq(tt_strtab_get(r->models, r->model[0]), "resnet50");
    cr_expect_str_eq(r->prov.format, "unit");
    cr_expect_str_eq(r->prov.source_files, "x.csv\ny.csv");
    cr_expect_eq(r->prov.dropped[TT_DROP_CPU_ONLY], 7);
    cr_expect_eq(r->prov.rows_read, 9);
    unlink(path);
    tt_trace_free(t);
    tt_trace_free(r);
    tt_ctx_free(ctx);
}

Test(tracefile, clear_errors_for_wrong_files)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *r = NULL;
    cr_expect_eq(tt_trace_load(ctx, "/nonexistent.h5", &r), TT_EIO);
    const char *txt = tmpfile_path("noth5.h5");
    FILE *fp = fopen(txt, "w");
    fputs("submit,duration\n", fp);
    fclose(fp);
    cr_expect_eq(tt_trace_load(ctx, txt, &r), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "not an HDF5 file") != NULL, "%s", tt_errmsg(ctx));
    unlink(txt);
    const char *other = tmpfile_path("other.h5");
    hid_t f = H5Fcreate(other, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "data", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Fclose(f);
    cr_expect_eq(tt_trace_load(ctx, other, &r), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "not a tracetune trace") != NULL, "%s", tt_errmsg(ctx));
    unlink(other);
    cr_expect_null(r);
    tt_ctx_free(ctx);
}

/* A trace of three jobs saved to path, then changed by damage(f): the
 * load fails with TT_EFORMAT and a message holding want. */
static void expect_damaged(const char *name, void (*damage)(hid_t f), const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create(), *r = NULL;
    tt_job js[] = {job(1, 10, 1, "a"), job(2, 20, 2, "b"), job(3, 30, 4, "c")};
    for (int i = 0; i < 3; i++)
        tt_trace_append(t, &js[i]);
    const char *path = tmpfile_path(name);
    cr_assert_eq(tt_trace_save(ctx, t, path), 0, "%s", tt_errmsg(ctx));
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    damage(f);
    H5Fclose(f);
    cr_expect_eq(tt_trace_load(ctx, path, &r), TT_EFORMAT, "%s", name);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "%s: '%s' lacks '%s'", name, tt_errmsg(ctx),
              want);
    cr_expect_null(r);
    unlink(path);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

static void no_gpus(hid_t f) { H5Ldelete(f, "/jobs/gpus", H5P_DEFAULT); }
static void no_tables(hid_t f) { H5Ldelete(f, "/jobs/tables", H5P_DEFAULT); }

/* /jobs/gpus replaced by a dataset of n values of type type */
static void put_gpus(hid_t f, hsize_t n, hid_t type)
{
    double v[4] = {1, 2, 4, 8};
    H5Ldelete(f, "/jobs/gpus", H5P_DEFAULT);
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "/jobs/gpus", type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(d);
    H5Sclose(sp);
}
static void short_gpus(hid_t f) { put_gpus(f, 2, H5T_STD_I32LE); }
static void float_gpus(hid_t f) { put_gpus(f, 3, H5T_IEEE_F64LE); }
static void no_jobs_attr(hid_t f) { H5Adelete_by_name(f, "/jobs", "jobs", H5P_DEFAULT); }

/* A file marked trace/1 whose content is not a trace's was cut short or
 * changed: "damaged", not "not a tracetune trace" (which sends the user
 * looking for another file). */
Test(tracefile, damaged_traces_are_called_damaged)
{
    expect_damaged("nogpus.h5", no_gpus, "damaged trace: no dataset /jobs/gpus");
    expect_damaged("notables.h5", no_tables, "damaged trace: no group /jobs/tables");
    expect_damaged("shortgpus.h5", short_gpus, "damaged trace: /jobs/gpus has 2 values for 3 jobs");
    expect_damaged("floatgpus.h5", float_gpus,
                   "damaged trace: /jobs/gpus is not an integer dataset");
    expect_damaged("nojobs.h5", no_jobs_attr, "damaged trace: /jobs has no valid 'jobs' attribute");
}

/* A trace cut short: the HDF5 signature is there, the rest is not. */
Test(tracefile, truncated_trace_is_called_damaged)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create(), *r = NULL;
    tt_job a = job(1, 10, 1, "a");
    tt_trace_append(t, &a);
    const char *path = tmpfile_path("cut.h5");
    cr_assert_eq(tt_trace_save(ctx, t, path), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(truncate(path, 3000), 0);
    cr_expect_eq(tt_trace_load(ctx, path, &r), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "damaged HDF5 file") != NULL, "%s", tt_errmsg(ctx));
    unlink(path);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Another tracetune file where a trace is expected says what it is. */
Test(tracefile, sweep_file_is_named)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *r = NULL;
    const char *path = tmpfile_path("sweep.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(f, "sweep", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Fclose(f);
    cr_expect_eq(tt_trace_load(ctx, path, &r), TT_EFORMAT);
    cr_expect(strstr(tt_errmsg(ctx), "not a tracetune trace (it is a sweep file)") != NULL, "%s",
              tt_errmsg(ctx));
    unlink(path);
    tt_ctx_free(ctx);
}

Test(tracefile, failed_save_leaves_nothing)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    tt_job a = job(1, 1, 1, NULL);
    tt_trace_append(t, &a);
    cr_expect_eq(tt_trace_save(ctx, t, "/nonexistent-dir/out.h5"), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot write '/nonexistent-dir/out.h5'") != NULL, "%s",
              tt_errmsg(ctx));
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* Only the columns asked for (and the contract's) are read; the others
 * stay NULL with empty tables, and what needs them says so. */
Test(tracefile, load_cols_reads_only_those_asked)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = tt_trace_create();
    tt_job a = job(100, 50, 2, "a");
    a.model = "resnet50";
    a.user = "alice";
    tt_trace_append(t, &a);
    const char *path = tmpfile_path("cols.h5");
    cr_assert_eq(tt_trace_save(ctx, t, path), 0, "%s", tt_errmsg(ctx));
    tt_trace *r = NULL;
    cr_assert_eq(tt_trace_load_cols(ctx, path, TT_COL_SIM, &r), 0, "%s", tt_errmsg(ctx));
    cr_expect_eq(r->n, 1);
    cr_expect_eq(r->submit[0], 100);
    cr_expect_eq(r->gpus[0], 2);
    cr_expect_str_eq(tt_strtab_get(r->models, r->model[0]), "resnet50");
    cr_expect_null(r->name);
    cr_expect_null(r->user);
    cr_expect_null(r->start);
    cr_expect_eq(tt_strtab_count(r->names), 0);
    cr_expect_eq(tt_strtab_count(r->users), 0);
    tt_stats_summary s;
    cr_expect_eq(tt_stats_summary_get(ctx, r, &s), TT_EINVAL);
    tt_trace_free(r);
    r = NULL;
    cr_assert_eq(tt_trace_load_cols(ctx, path, tt_trace_col("user"), &r), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_str_eq(tt_strtab_get(r->users, r->user[0]), "alice");
    cr_expect_null(r->model);
    tt_sim_jobs j;
    cr_expect_eq(tt_sim_jobs_from_trace(ctx, r, NULL, &j), TT_EINVAL);
    cr_expect_eq(tt_trace_col("gpu_milli"), TT_COL_GPU_MILLI);
    cr_expect_eq(tt_trace_col("names"), 0u);
    unlink(path);
    tt_trace_free(r);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
