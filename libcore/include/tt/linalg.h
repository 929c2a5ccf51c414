/* tt/linalg.h: the dense linear algebra of the tuner's surrogate model,
 * one interface over two backends: a CPU BLAS (OpenBLAS: cblas and
 * LAPACK's dpotrf) and cuBLAS on the GPU.
 *
 * Matrices are column-major arrays of double on the host (element (i, j)
 * of a matrix with leading dimension ld is a[i + j * ld]); the GPU backend
 * copies operands to the device and results back on every call. Sizes are
 * int, as BLAS takes them.
 *
 * Reproducibility: the CPU backend pins OpenBLAS to one thread (a process
 * setting) so every result is the same run after run on one machine; the
 * GPU backend uses cuBLAS's default, deterministic algorithms. The two
 * backends agree to rounding (the parity test allows a relative 1e-9).
 *
 * cuBLAS is loaded at run time (dlopen of libcublas.so.13), so a CUDA
 * build runs where it is absent; TT_DEVICE_AUTO then falls back to the CPU
 * and tt_la_note says why.
 *
 * Thread safety: a tt_la is used by one thread at a time.
 */
#ifndef TT_LINALG_H
#define TT_LINALG_H

#include "tt/error.h"
#include "tt/run.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

typedef struct tt_la tt_la;

/* A backend for device: CPU always works; AUTO takes cuBLAS when this
 * build has CUDA, a device is present and libcublas loads, else the CPU;
 * GPU fails when it cannot (TT_ENOTBUILT, TT_ENODEV, TT_EIO, with the
 * reason). 0 or one of those, or TT_ENOMEM; free with tt_la_free. */
int tt_la_create(tt_ctx *ctx, tt_device device, tt_la **out);
/* NULL is accepted. */
void tt_la_free(tt_la *la);
/* "cpu: OpenBLAS 0.3.21 ... (1 thread)" (its build string) or "gpu: cuBLAS 13.0.0 on NVIDIA H100 ...". */
const char *tt_la_describe(const tt_la *la);
/* Why AUTO took the CPU ("no CUDA device (...)"), or "" when it did not. */
const char *tt_la_note(const tt_la *la);

/* C = alpha op(A) op(B) + beta C, C m x n, k the inner size; ta, tb: 0 as
 * is, 1 transposed. 0, TT_EINVAL (a negative size or a leading dimension
 * too small), TT_EIO on a device failure. */
int tt_la_gemm(tt_ctx *ctx, tt_la *la, int ta, int tb, int m, int n, int k, double alpha,
               const double *a, int lda, const double *b, int ldb, double beta, double *c,
               int ldc);
/* B (m x n) = alpha op(L)^-1 B (right = 0) or alpha B op(L)^-1 (right =
 * 1), L lower triangular with a non-zero diagonal; trans: op(L) = L^T.
 * Codes as tt_la_gemm. */
int tt_la_trsm(tt_ctx *ctx, tt_la *la, int right, int trans, int m, int n, double alpha,
               const double *l, int ldl, double *b, int ldb);
/* The Cholesky factor L (A = L L^T) over the lower triangle of A (n x n),
 * in place; the strict upper triangle is left alone. TT_ERANGE "matrix not
 * positive definite (column j)" when it is not, else as tt_la_gemm. On the
 * GPU, blocks of 256 columns: the diagonal blocks on the host, the panels
 * and the trailing updates with cuBLAS. */
int tt_la_cholesky(tt_ctx *ctx, tt_la *la, int n, double *a, int lda);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
