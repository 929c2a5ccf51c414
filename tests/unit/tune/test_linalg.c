/* The surrogate's linear algebra: each operation on small matrices worked
 * out by hand, the error cases, and the GPU backend against the CPU one on
 * larger random matrices (skipped, visibly, without a GPU). */
#include <math.h>

#include "testutil.h"
#include "tt/gpu.h"
#include "tt/linalg.h"
#include "tune/tune_impl.h"

static tt_la *cpu(void)
{
    tt_la *la = NULL;
    cr_assert_eq(tt_la_create(NULL, TT_DEVICE_CPU, &la), 0);
    cr_assert(strncmp(tt_la_describe(la), "cpu: OpenBLAS", 13) == 0, "%s", tt_la_describe(la));
    cr_assert_eq(tt_la_on_gpu(la), 0);
    return la;
}

Test(linalg, gemm_by_hand)
{
    tt_la *la = cpu();
    /* A = [1 2; 3 4], B = [5 6; 7 8] (column-major below) */
    const double a[] = {1, 3, 2, 4}, b[] = {5, 7, 6, 8};
    double c[4] = {1, 1, 1, 1};
    /* C = 2 A B + C: A B = [19 22; 43 50] */
    cr_assert_eq(tt_la_gemm(NULL, la, 0, 0, 2, 2, 2, 2.0, a, 2, b, 2, 1.0, c, 2), 0);
    cr_expect(c[0] == 39 && c[1] == 87 && c[2] == 45 && c[3] == 101, "%g %g %g %g", c[0], c[1],
              c[2], c[3]);
    /* A^T B = [26 30; 38 44] */
    cr_assert_eq(tt_la_gemm(NULL, la, 1, 0, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2), 0);
    cr_expect(c[0] == 26 && c[1] == 38 && c[2] == 30 && c[3] == 44);
    /* A B^T = [17 23; 39 53], into a 3-row C (leading dimension 3) */
    double c3[6] = {0, 0, -1, 0, 0, -1};
    cr_assert_eq(tt_la_gemm(NULL, la, 0, 1, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c3, 3), 0);
    cr_expect(c3[0] == 17 && c3[1] == 39 && c3[2] == -1 && c3[3] == 23 && c3[4] == 53 &&
              c3[5] == -1);
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_la_gemm(ctx, la, 0, 0, 2, 2, 2, 1.0, a, 1, b, 2, 0.0, c, 2), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "leading dimension") != NULL, "%s", tt_errmsg(ctx));
    cr_expect_eq(tt_la_gemm(ctx, la, 0, 0, -1, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2), TT_EINVAL);
    tt_ctx_free(ctx);
    tt_la_free(la);
}

Test(linalg, syrk_lower_only)
{
    tt_la *la = cpu();
    const double a[] = {1, 2, 3}; /* 3 x 1: A A^T = v v^T */
    double c[9];
    for (int i = 0; i < 9; i++)
        c[i] = 100;
    cr_assert_eq(tt_la_syrk(NULL, la, 3, 1, 1.0, a, 3, 0.0, c, 3), 0);
    const double want[] = {1, 2, 3, 100, 4, 6, 100, 100, 9};
    for (int i = 0; i < 9; i++)
        cr_expect_eq(c[i], want[i], "c[%d] = %g, want %g", i, c[i], want[i]);
    tt_la_free(la);
}

Test(linalg, cholesky_and_solves)
{
    tt_la *la = cpu();
    /* A = [4 2; 2 10] = L L^T with L = [2 0; 1 3]; upper triangle untouched */
    double a[] = {4, 2, -7, 10};
    cr_assert_eq(tt_la_cholesky(NULL, la, 2, a, 2), 0);
    cr_expect(a[0] == 2 && a[1] == 1 && a[2] == -7 && a[3] == 3, "%g %g %g %g", a[0], a[1], a[2],
              a[3]);
    /* L x = [4; 11] gives x = [2; 3]; L^T y = [7; 9] gives y = [2; 3] */
    double x[] = {4, 11}, y[] = {7, 9};
    cr_assert_eq(tt_la_trsm(NULL, la, 0, 0, 2, 1, 1.0, a, 2, x, 2), 0);
    cr_expect(x[0] == 2 && x[1] == 3, "%g %g", x[0], x[1]);
    cr_assert_eq(tt_la_trsm(NULL, la, 0, 1, 2, 1, 1.0, a, 2, y, 2), 0);
    cr_expect(y[0] == 2 && y[1] == 3, "%g %g", y[0], y[1]);
    /* right side: z L^T = [4 11] (1 x 2) gives z = [2 3] */
    double z[] = {4, 11};
    cr_assert_eq(tt_la_trsm(NULL, la, 1, 1, 1, 2, 1.0, a, 2, z, 1), 0);
    cr_expect(z[0] == 2 && z[1] == 3, "%g %g", z[0], z[1]);
    /* [1 2; 2 1] has a negative eigenvalue: the second column fails */
    double bad[] = {1, 2, 2, 1};
    tt_ctx *ctx = tt_ctx_create();
    cr_expect_eq(tt_la_cholesky(ctx, la, 2, bad, 2), TT_ERANGE);
    cr_expect_str_eq(tt_errmsg(ctx), "matrix not positive definite (column 1)");
    tt_ctx_free(ctx);
    tt_la_free(la);
}

Test(linalg, device_choice)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_la *la = NULL;
    char gpu[512];
    int have = tt_gpu_describe(gpu, sizeof gpu) > 0;
    int rc = tt_la_create(ctx, TT_DEVICE_GPU, &la);
    if (!tt_gpu_built()) {
        cr_expect_eq(rc, TT_ENOTBUILT);
        cr_expect(strstr(tt_errmsg(ctx), "not built in") != NULL, "%s", tt_errmsg(ctx));
    } else if (!have) {
        cr_expect_eq(rc, TT_ENODEV, "%s", tt_errmsg(ctx));
    }
    tt_la_free(la);
    /* AUTO always gives a backend; on the CPU it says why */
    cr_assert_eq(tt_la_create(ctx, TT_DEVICE_AUTO, &la), 0);
    if (!tt_la_on_gpu(la))
        cr_expect(*tt_la_note(la), "AUTO on the CPU with no reason");
    tt_la_free(la);
    tt_ctx_free(ctx);
}

static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rel_diff(const double *x, const double *y, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        num = fmax(num, fabs(x[i] - y[i]));
        den = fmax(den, fabs(y[i]));
    }
    return den > 0 ? num / den : num;
}

/* The GPU backend agrees with the CPU one within a relative 1e-9 (max
 * difference over max magnitude) on gemm, trsm and a Cholesky of 700
 * columns (three blocks of the GPU's blocked factorisation). */
Test(linalg, gpu_parity)
{
    tt_la *g = NULL;
    if (tt_la_create(NULL, TT_DEVICE_GPU, &g) != 0)
        cr_skip_test("no GPU linear algebra here: parity with the CPU not tested");
    tt_la *c = cpu();
    enum { N = 700, K = 40 };
    uint64_t s = 42;
    double *x = malloc(sizeof(double) * N * K), *a1 = malloc(sizeof(double) * N * N),
           *a2 = malloc(sizeof(double) * N * N);
    cr_assert(x && a1 && a2);
    for (int i = 0; i < N * K; i++)
        x[i] = (double)(mix64(&s) >> 11) / 9007199254740992.0 - 0.5;
    /* A = X X^T + N I: symmetric positive definite */
    cr_assert_eq(tt_la_gemm(NULL, c, 0, 1, N, N, K, 1.0, x, N, x, N, 0.0, a1, N), 0);
    cr_assert_eq(tt_la_gemm(NULL, g, 0, 1, N, N, K, 1.0, x, N, x, N, 0.0, a2, N), 0);
    cr_expect_leq(rel_diff(a2, a1, (size_t)N * N), 1e-9, "gemm");
    for (int i = 0; i < N; i++)
        a1[i + i * N] += N, a2[i + i * N] += N;
    cr_assert_eq(tt_la_cholesky(NULL, c, N, a1, N), 0);
    cr_assert_eq(tt_la_cholesky(NULL, g, N, a2, N), 0);
    for (int j = 0; j < N; j++) /* compare the lower triangles */
        for (int i = 0; i < j; i++)
            a1[i + j * N] = a2[i + j * N] = 0;
    cr_expect_leq(rel_diff(a2, a1, (size_t)N * N), 1e-9, "cholesky");
    double *b1 = malloc(sizeof(double) * N * K), *b2 = malloc(sizeof(double) * N * K);
    memcpy(b1, x, sizeof(double) * N * K);
    memcpy(b2, x, sizeof(double) * N * K);
    cr_assert_eq(tt_la_trsm(NULL, c, 0, 0, N, K, 1.0, a1, N, b1, N), 0);
    cr_assert_eq(tt_la_trsm(NULL, g, 0, 0, N, K, 1.0, a1, N, b2, N), 0);
    cr_expect_leq(rel_diff(b2, b1, (size_t)N * K), 1e-9, "trsm");
    free(b1), free(b2), free(x), free(a1), free(a2);
    tt_la_free(c);
    tt_la_free(g);
}
