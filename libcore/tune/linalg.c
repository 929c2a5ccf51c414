/* The surrogate's linear algebra (tt/linalg.h): OpenBLAS on the CPU, the
 * cuBLAS calls of kernels/linalg_kern.h on the GPU. */
#include "tt/linalg.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "linalg_kern.h"
#include "tune/tune_impl.h"

/* Columns per block of the GPU Cholesky: big enough that cuBLAS does the
 * work, small enough that the host factors a block quickly. */
#define CHOL_BLOCK 256

/* LAPACK's Cholesky, in libopenblas; no header declares it. */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

struct tt_la {
    tt_kla *gpu; /* NULL: the CPU */
    char desc[256];
    char note[256];
};

int tt_la_create(tt_ctx *ctx, tt_device device, tt_la **out)
{
    *out = NULL;
    tt_la *la = (tt_la *)calloc(1, sizeof *la);
    if (!la)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    if (device != TT_DEVICE_CPU) {
        char msg[200];
        int rc = tt_kla_open(&la->gpu, msg, sizeof msg);
        if (rc == TT_KERN_OK) {
            snprintf(la->desc, sizeof la->desc, "gpu: %s", msg);
            *out = la;
            return 0;
        }
        if (device == TT_DEVICE_GPU) {
            free(la);
            return tt_err(ctx, rc == TT_KERN_NOT_BUILT ? TT_ENOTBUILT
                               : rc == TT_KERN_NO_DEVICE ? TT_ENODEV
                                                         : TT_EIO,
                          "GPU linear algebra: %s", msg);
        }
        snprintf(la->note, sizeof la->note, "%s", msg);
    }
    /* one thread: the same sums in the same order on every run */
    openblas_set_num_threads(1);
    snprintf(la->desc, sizeof la->desc, "cpu: %.200s (1 thread)", openblas_get_config());
    *out = la;
    return 0;
}

void tt_la_free(tt_la *la)
{
    if (!la)
        return;
    tt_kla_close(la->gpu);
    free(la);
}

int tt_la_on_gpu(const tt_la *la) { return la->gpu != NULL; }
const char *tt_la_describe(const tt_la *la) { return la->desc; }
const char *tt_la_note(const tt_la *la) { return la->note; }

static int bad_size(tt_ctx *ctx, const char *fn, int ok)
{
    return ok ? 0 : tt_err(ctx, TT_EINVAL, "%s: a negative size or a leading dimension too small",
                           fn);
}

static int dev_fail(tt_ctx *ctx, const char *msg)
{
    return tt_err(ctx, TT_EIO, "GPU linear algebra: %s", msg);
}

static int max1(int v) { return v > 1 ? v : 1; }

int tt_la_gemm(tt_ctx *ctx, tt_la *la, int ta, int tb, int m, int n, int k, double alpha,
               const double *a, int lda, const double *b, int ldb, double beta, double *c,
               int ldc)
{
    if (bad_size(ctx, "tt_la_gemm",
                 m >= 0 && n >= 0 && k >= 0 && lda >= max1(ta ? k : m) &&
                     ldb >= max1(tb ? n : k) && ldc >= max1(m)))
        return TT_EINVAL;
    if (m == 0 || n == 0)
        return 0;
    if (la->gpu) {
        char msg[256];
        return tt_kla_gemm(la->gpu, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, msg,
                           sizeof msg)
                   ? dev_fail(ctx, msg)
                   : 0;
    }
    cblas_dgemm(CblasColMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m,
                n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return 0;
}

int tt_la_syrk(tt_ctx *ctx, tt_la *la, int n, int k, double alpha, const double *a, int lda,
               double beta, double *c, int ldc)
{
    if (bad_size(ctx, "tt_la_syrk", n >= 0 && k >= 0 && lda >= max1(n) && ldc >= max1(n)))
        return TT_EINVAL;
    if (n == 0)
        return 0;
    if (la->gpu) {
        char msg[256];
        return tt_kla_syrk(la->gpu, n, k, alpha, a, lda, beta, c, ldc, msg, sizeof msg)
                   ? dev_fail(ctx, msg)
                   : 0;
    }
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, k, alpha, a, lda, beta, c, ldc);
    return 0;
}

int tt_la_trsm(tt_ctx *ctx, tt_la *la, int right, int trans, int m, int n, double alpha,
               const double *l, int ldl, double *b, int ldb)
{
    if (bad_size(ctx, "tt_la_trsm",
                 m >= 0 && n >= 0 && ldl >= max1(right ? n : m) && ldb >= max1(m)))
        return TT_EINVAL;
    if (m == 0 || n == 0)
        return 0;
    if (la->gpu) {
        char msg[256];
        return tt_kla_trsm(la->gpu, right, trans, m, n, alpha, l, ldl, b, ldb, msg, sizeof msg)
                   ? dev_fail(ctx, msg)
                   : 0;
    }
    cblas_dtrsm(CblasColMajor, right ? CblasRight : CblasLeft, CblasLower,
                trans ? CblasTrans : CblasNoTrans, CblasNonUnit, m, n, alpha, l, ldl, b, ldb);
    return 0;
}

/* LAPACK on the block of n columns at a; info > 0 names the failing column
 * (from 1). */
static int host_potrf(tt_ctx *ctx, int n, double *a, int lda, int col0)
{
    int info = 0;
    dpotrf_("L", &n, a, &lda, &info);
    if (info > 0)
        return tt_err(ctx, TT_ERANGE, "matrix not positive definite (column %d)",
                      col0 + info - 1);
    return info < 0 ? tt_err(ctx, TT_EINVAL, "dpotrf: argument %d is bad", -info) : 0;
}

int tt_la_cholesky(tt_ctx *ctx, tt_la *la, int n, double *a, int lda)
{
    if (bad_size(ctx, "tt_la_cholesky", n >= 0 && lda >= max1(n)))
        return TT_EINVAL;
    if (n == 0)
        return 0;
    if (!la->gpu || n <= CHOL_BLOCK)
        return host_potrf(ctx, n, a, lda, 0);
    /* right-looking blocks: factor A11 on the host, then on the GPU
     * A21 = A21 L11^-T and A22 -= A21 A21^T */
    for (int j = 0; j < n; j += CHOL_BLOCK) {
        int jb = n - j < CHOL_BLOCK ? n - j : CHOL_BLOCK, rest = n - j - jb;
        double *a11 = a + j + (size_t)j * (size_t)lda;
        int rc = host_potrf(ctx, jb, a11, lda, j);
        if (rc || rest == 0)
            return rc;
        double *a21 = a11 + jb, *a22 = a21 + (size_t)jb * (size_t)lda;
        if ((rc = tt_la_trsm(ctx, la, 1, 1, rest, jb, 1.0, a11, lda, a21, lda)) ||
            (rc = tt_la_syrk(ctx, la, rest, jb, -1.0, a21, lda, 1.0, a22, lda)))
            return rc;
    }
    return 0;
}
