/* Model tables: files, the copy compiled in, tables from arrays
 * (libcore/sim/models.c). */
#include "confutil.h"
#include "tt/sim.h"

/* models_default.c: the compiled-in copy of data/models.tsv */
extern const char tt_models_default_tsv[];

/* The whole of a file, NUL-terminated; *len gets its size. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void expect_models_error(const char *text, int code, const char *msg)
{
    const char *p = tmp_file("m.tsv", text);
    tt_ctx *ctx = tt_ctx_create();
    tt_models *m = (tt_models *)1;
    cr_expect_eq(tt_models_load(ctx, p, &m), code, "code %d: %s", tt_errcode(ctx),
                 tt_errmsg(ctx));
    cr_expect_null(m);
    cr_expect(strstr(tt_errmsg(ctx), msg) != NULL, "message '%s' lacks '%s'", tt_errmsg(ctx),
              msg);
    tt_ctx_free(ctx);
    rm_tmp(p);
}

Test(models, file_errors)
{
    expect_models_error("name\tslow_l1\tsource\nbert\t1383\tx\n", TT_EPARSE,
                        "m.tsv:1: field 'slow_l2': no such column in the header");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1383\t999\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l2': expected an integer 1000 .. 1000000 "
                        "(permille), got '999'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t0\t1500\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l1': expected an integer 1000 .. 1000000 "
                        "(permille), got '0'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1000\t1000001\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l2': expected an integer 1000 .. 1000000 "
                        "(permille), got '1000001'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1.5\t1500\n", TT_EPARSE,
                        "m.tsv:2: field 'slow_l1': expected an integer 1000 .. 1000000 "
                        "(permille), got '1.5'");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1100\t1500\nncf\t1100\t1500\n"
                        "bert\t1000\t1000\n",
                        TT_EPARSE, "m.tsv:4: field 'name': 'bert' already named on line 2");
    expect_models_error("name\tslow_l1\tslow_l2\nbert\t1100\n", TT_EPARSE,
                        "m.tsv:2: expected 3 fields, got 2");
    expect_models_error("name\tslow_l1\tslow_l2\na:b\t1100\t1200\n", TT_EPARSE,
                        "m.tsv:2: field 'name': 'a:b' contains ','");
    expect_models_error("name\tslow_l1\tslow_l2\n\t1100\t1200\n", TT_EPARSE,
                        "m.tsv:2: field 'name': '' is empty");
    expect_models_error("name\tslow_l1\tslow_l2\n", TT_EPARSE, "m.tsv:1: no model class");
    expect_models_error("", TT_EPARSE, "m.tsv:1: empty: no header line");

    /* 64 classes are fine, 65 are not */
    char big[8192] = "name\tslow_l1\tslow_l2\n";
    for (int i = 0; i < 65; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "m%d\t1000\t1000\n", i);
    expect_models_error(big, TT_EPARSE, "m.tsv:66: more than 64 model classes");
    *strstr(big, "m64\t") = '\0';
    const char *p = tmp_file("m.tsv", big);
    tt_models *m = NULL;
    cr_expect_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_eq(tt_models_count(m), 64);
    tt_models_free(m);
    rm_tmp(p);

    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_models_load(ctx, "/nonexistent/models.tsv", &m), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot open '/nonexistent/models.tsv'"));
    tt_ctx_free(ctx);
}

Test(models, file_good)
{
    /* extra columns ignored, columns in any order; the digest is of the
     * raw bytes (sha256sum over this text) */
    const char *text = "name\tslow_l1\tslow_l2\nfast\t1000\t1000\nslow\t1500\t2500\n";
    const char *p = tmp_file("m.tsv", text);
    tt_models *m = NULL;
    cr_assert_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_eq(tt_models_count(m), 2);
    cr_expect_str_eq(tt_models_name(m, 1), "slow");
    cr_expect_eq(tt_models_slow_l1(m, 1), 1500);
    cr_expect_eq(tt_models_slow_l2(m, 1), 2500);
    cr_expect_eq(tt_models_find(m, "fast"), 0);
    cr_expect_eq(tt_models_find(m, "Fast"), -1);
    cr_expect_null(tt_models_name(m, 2));
    cr_expect_str_eq(tt_models_source(m), p);
    cr_expect_str_eq(tt_models_sha256(m),
                     "5907bb1868504de4400268a25e81dac148ad6f370cfdc92ea3240de6dd27b850");
    tt_models_free(m);
    rm_tmp(p);

    p = tmp_file("m.tsv", "source\tslow_l2\tname\tslow_l1\nsomewhere\t1200\tx\t1100\n");
    cr_assert_eq(tt_models_load(NULL, p, &m), 0);
    cr_expect_str_eq(tt_models_name(m, 0), "x");
    cr_expect_eq(tt_models_slow_l1(m, 0), 1100);
    cr_expect_eq(tt_models_slow_l2(m, 0), 1200);
    tt_models_free(m);
    rm_tmp(p);
}

/* The compiled-in table is data/models.tsv, byte for byte. */
Test(models, built_in_equals_data_file)
{
    size_t len;
    char *file = slurp("data/models.tsv", &len);
    cr_expect_eq(strlen(tt_models_default_tsv), len, "built in: %zu bytes, data/models.tsv %zu",
                 strlen(tt_models_default_tsv), len);
    cr_expect(memcmp(tt_models_default_tsv, file, len) == 0,
              "libcore/models_default.c differs from data/models.tsv");
    free(file);

    tt_models *d = NULL, *f = NULL;
    cr_assert_eq(tt_models_default(NULL, &d), 0);
    cr_assert_eq(tt_models_load(NULL, "data/models.tsv", &f), 0);
    cr_expect_str_eq(tt_models_source(d), "(built in)");
    cr_expect_str_eq(tt_models_sha256(d), tt_models_sha256(f));
    cr_assert_eq(tt_models_count(d), tt_models_count(f));
    for (int c = 0; c < tt_models_count(d); c++) {
        cr_expect_str_eq(tt_models_name(d, c), tt_models_name(f, c));
        cr_expect_eq(tt_models_slow_l1(d, c), tt_models_slow_l1(f, c));
        cr_expect_eq(tt_models_slow_l2(d, c), tt_models_slow_l2(f, c));
        int64_t a[TT_SCALE_VALUES], b[TT_SCALE_VALUES];
        int na = tt_models_scale(d, c, a);
        cr_expect_eq(na, 7);
        cr_expect_eq(na, tt_models_scale(f, c, b));
        cr_expect(memcmp(a, b, sizeof a[0] * (size_t)na) == 0);
    }
    /* the first and last rows of data/models.tsv, as written there */
    cr_expect_str_eq(tt_models_name(d, 0), "bert");
    cr_expect_eq(tt_models_slow_l1(d, 0), 1383);
    cr_expect_eq(tt_models_slow_l2(d, 0), 1766);
    cr_expect_str_eq(tt_models_name(d, 5), "resnet50");
    cr_expect_eq(tt_models_slow_l2(d, 5), 1034);
    tt_models_free(d);
    tt_models_free(f);
}

Test(models, create)
{
    tt_models *m = two_models();
    cr_expect_str_eq(tt_models_source(m), "(in memory)");
    /* sha256sum of "name\tslow_l1\tslow_l2\nfast\t1000\t1000\nslow\t1500\t2500\n" */
    cr_expect_str_eq(tt_models_sha256(m),
                     "5907bb1868504de4400268a25e81dac148ad6f370cfdc92ea3240de6dd27b850");
    tt_models_free(m);

    tt_ctx *ctx = tt_ctx_create();
    const char *names[] = {"a", "a"};
    const int64_t ok[] = {1000, 1000}, low[] = {1000, 999};
    cr_expect_eq(tt_models_create(ctx, 2, names, ok, ok, &m), TT_EINVAL);
    cr_expect_null(m);
    cr_expect(strstr(tt_errmsg(ctx), "model 1: name 'a' given twice"), "%s", tt_errmsg(ctx));
    const char *names2[] = {"a", "b"};
    cr_expect_eq(tt_models_create(ctx, 2, names2, ok, low, &m), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "model 1 ('b')"), "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_models_create(ctx, 0, names2, ok, ok, &m), TT_EINVAL);
    cr_expect_eq(tt_models_create(ctx, TT_MAX_CLASSES + 1, names2, ok, ok, &m), TT_EINVAL);
    tt_ctx_free(ctx);
    tt_models_free(NULL);
}

/* The scale column (docs/model.md 10.2): optional, 1000 first, never
 * decreasing, at most TT_SCALE_VALUES values. */
Test(models, scale_column)
{
    static const char *const bad[] = {"900,2000", "1000,900", "1000,,2000", "1000,x",
                                      "1000,2000,3000,4000,5000,6000,7000,8000,9000"};
    char path[] = "/tmp/tt_models_scale_XXXXXX";
    for (size_t q = 0; q < sizeof bad / sizeof bad[0] + 1; q++) {
        int fd = mkstemp(path);
        cr_assert(fd >= 0);
        FILE *f = fdopen(fd, "w");
        fprintf(f, "name\tslow_l1\tslow_l2\tscale\na\t1000\t1200\t%s\n",
                q < sizeof bad / sizeof bad[0] ? bad[q] : "1000,1500,2500");
        fclose(f);
        tt_models *m = NULL;
        tt_ctx *ctx = tt_ctx_create();
        int rc = tt_models_load(ctx, path, &m);
        if (q < sizeof bad / sizeof bad[0]) {
            cr_expect_eq(rc, TT_EPARSE, "'%s' accepted", bad[q]);
            cr_expect(strstr(tt_errmsg(ctx), "field 'scale'") != NULL, "%s", tt_errmsg(ctx));
        } else {
            int64_t sp[TT_SCALE_VALUES];
            cr_assert_eq(rc, 0, "%s", tt_errmsg(ctx));
            cr_expect_eq(tt_models_scale(m, 0, sp), 3);
            cr_expect_eq(sp[2], 2500);
        }
        tt_models_free(m);
        tt_ctx_free(ctx);
        unlink(path);
        strcpy(path, "/tmp/tt_models_scale_XXXXXX");
    }
}
