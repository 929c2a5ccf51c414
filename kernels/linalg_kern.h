/* linalg_kern.h: the cuBLAS side of libcore's dense linear algebra
 * (tt/linalg.h), with a plain-C interface so libcore needs no CUDA header.
 * Built from linalg.cu with nvcc, or from linalg_none.c without CUDA,
 * where opening reports TT_KERN_NOT_BUILT.
 *
 * cuBLAS is not linked: linalg.cu loads libcublas.so.13 (or libcublas.so)
 * with dlopen when a handle is opened, so a CUDA build still runs where
 * the library is absent (the open fails with a reason, and libcore uses
 * the CPU). Matrices are column-major, on the host; each call copies its
 * operands to the device and the result back. Not thread-safe: one handle
 * per thread. Uses TT_KERN_* codes of kernels.h. */
#ifndef TT_LINALG_KERN_H
#define TT_LINALG_KERN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tt_kla tt_kla;

/* Loads cuBLAS, picks device 0 and creates a handle. TT_KERN_OK,
 * TT_KERN_NOT_BUILT, TT_KERN_NO_DEVICE (no device, or no libcublas) or
 * TT_KERN_FAIL; msg gets the reason or, on success, "cuBLAS V on NAME". */
int tt_kla_open(tt_kla **out, char *msg, size_t msgsize);
/* NULL is accepted. */
void tt_kla_close(tt_kla *h);

/* C = alpha op(A) op(B) + beta C (BLAS dgemm; ta, tb: 0 = as is, 1 =
 * transposed). */
int tt_kla_gemm(tt_kla *h, int ta, int tb, int m, int n, int k, double alpha, const double *a,
                int lda, const double *b, int ldb, double beta, double *c, int ldc, char *msg,
                size_t msgsize);
/* The lower triangle of C (n x n) = alpha A A^T + beta C, A n x k (dsyrk,
 * lower, not transposed). */
int tt_kla_syrk(tt_kla *h, int n, int k, double alpha, const double *a, int lda, double beta,
                double *c, int ldc, char *msg, size_t msgsize);
/* Solves op(L) X = alpha B (trans = 0) or X op(L) = alpha B (right = 1) for X,
 * overwriting B (m x n); L lower triangular, non-unit (dtrsm). */
int tt_kla_trsm(tt_kla *h, int right, int trans, int m, int n, double alpha, const double *l,
                int ldl, double *b, int ldb, char *msg, size_t msgsize);

#ifdef __cplusplus
}
#endif
#endif
