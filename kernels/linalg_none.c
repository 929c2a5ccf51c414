/* The cuBLAS entry points of a build without CUDA: they say so. */
#include "linalg_kern.h"

#include <stdio.h>

#include "kernels.h"

static int not_built(char *msg, size_t msgsize)
{
    snprintf(msg, msgsize, "CUDA support not built in");
    return TT_KERN_NOT_BUILT;
}

int tt_kla_open(tt_kla **out, char *msg, size_t msgsize)
{
    *out = NULL;
    return not_built(msg, msgsize);
}

void tt_kla_close(tt_kla *h) { (void)h; }

int tt_kla_gemm(tt_kla *h, int ta, int tb, int m, int n, int k, double alpha, const double *a,
                int lda, const double *b, int ldb, double beta, double *c, int ldc, char *msg,
                size_t msgsize)
{
    (void)h, (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda;
    (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
    return not_built(msg, msgsize);
}

int tt_kla_syrk(tt_kla *h, int n, int k, double alpha, const double *a, int lda, double beta,
                double *c, int ldc, char *msg, size_t msgsize)
{
    (void)h, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)beta, (void)c, (void)ldc;
    return not_built(msg, msgsize);
}

int tt_kla_trsm(tt_kla *h, int right, int trans, int m, int n, double alpha, const double *l,
                int ldl, double *b, int ldb, char *msg, size_t msgsize)
{
    (void)h, (void)right, (void)trans, (void)m, (void)n, (void)alpha, (void)l, (void)ldl;
    (void)b, (void)ldb;
    return not_built(msg, msgsize);
}
