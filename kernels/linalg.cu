/* cuBLAS behind the plain-C interface of linalg_kern.h. libcublas is
 * loaded with dlopen, not linked (only its shared library ships), so a
 * CUDA build runs where it is absent; the CUDA runtime is the static one
 * every kernel links. Operands travel host -> device per call, into
 * buffers that grow and are kept with the handle. */
#include "kernels.h"
#include "linalg_kern.h"

#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*version_fn)(cublasHandle_t, int *);
typedef cublasStatus_t (*gemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const double *, const double *, int, const double *, int,
                                  const double *, double *, int);
typedef cublasStatus_t (*syrk_fn)(cublasHandle_t, cublasFillMode_t, cublasOperation_t, int, int,
                                  const double *, const double *, int, const double *, double *,
                                  int);
typedef cublasStatus_t (*trsm_fn)(cublasHandle_t, cublasSideMode_t, cublasFillMode_t,
                                  cublasOperation_t, cublasDiagType_t, int, int, const double *,
                                  const double *, int, double *, int);

struct tt_kla {
    void *lib;
    cublasHandle_t handle;
    destroy_fn destroy;
    gemm_fn gemm;
    syrk_fn syrk;
    trsm_fn trsm;
    double *buf[3];
    size_t cap[3]; /* doubles */
};

static int fail(char *msg, size_t msgsize, const char *what, const char *why)
{
    std::snprintf(msg, msgsize, "%s: %s", what, why);
    return TT_KERN_FAIL;
}

static int cuda_fail(char *msg, size_t msgsize, const char *what, cudaError_t e)
{
    return fail(msg, msgsize, what, cudaGetErrorString(e));
}

static int blas_fail(char *msg, size_t msgsize, const char *what, cublasStatus_t s)
{
    char why[32];
    std::snprintf(why, sizeof why, "cuBLAS status %d", (int)s);
    return fail(msg, msgsize, what, why);
}

extern "C" void tt_kla_close(tt_kla *h)
{
    if (!h)
        return;
    for (int i = 0; i < 3; i++)
        cudaFree(h->buf[i]);
    if (h->handle && h->destroy)
        h->destroy(h->handle);
    if (h->lib)
        dlclose(h->lib);
    std::free(h);
}

extern "C" int tt_kla_open(tt_kla **out, char *msg, size_t msgsize)
{
    *out = NULL;
    int n = 0;
    if (tt_kern_device_count(&n, msg, msgsize) != TT_KERN_OK)
        return TT_KERN_NO_DEVICE;
    tt_kla *h = (tt_kla *)std::calloc(1, sizeof *h);
    if (!h)
        return fail(msg, msgsize, "cuBLAS", "out of memory");
    h->lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h->lib)
        h->lib = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
    if (!h->lib) {
        std::snprintf(msg, msgsize, "cannot load libcublas.so.13 (%s)", dlerror());
        tt_kla_close(h);
        return TT_KERN_NO_DEVICE;
    }
    create_fn create = (create_fn)dlsym(h->lib, "cublasCreate_v2");
    version_fn version = (version_fn)dlsym(h->lib, "cublasGetVersion_v2");
    h->destroy = (destroy_fn)dlsym(h->lib, "cublasDestroy_v2");
    h->gemm = (gemm_fn)dlsym(h->lib, "cublasDgemm_v2");
    h->syrk = (syrk_fn)dlsym(h->lib, "cublasDsyrk_v2");
    h->trsm = (trsm_fn)dlsym(h->lib, "cublasDtrsm_v2");
    if (!create || !version || !h->destroy || !h->gemm || !h->syrk || !h->trsm) {
        tt_kla_close(h);
        std::snprintf(msg, msgsize, "libcublas lacks a needed function");
        return TT_KERN_NO_DEVICE;
    }
    cudaError_t e = cudaSetDevice(0);
    if (e != cudaSuccess) {
        tt_kla_close(h);
        return cuda_fail(msg, msgsize, "cudaSetDevice", e);
    }
    cublasStatus_t s = create(&h->handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
        h->handle = NULL;
        tt_kla_close(h);
        return blas_fail(msg, msgsize, "cublasCreate", s);
    }
    int v = 0;
    version(h->handle, &v);
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
        std::snprintf(p.name, sizeof p.name, "device 0");
    std::snprintf(msg, msgsize, "cuBLAS %d.%d.%d on %s", v / 10000, v / 100 % 100, v % 100,
                  p.name);
    *out = h;
    return TT_KERN_OK;
}

/* Buffer i of at least rows * cols doubles, filled from the host matrix
 * src (leading dimension ld) when src is not NULL. */
static double *upload(tt_kla *h, int i, const double *src, int rows, int cols, int ld,
                      char *msg, size_t msgsize, int *rc)
{
    size_t need = (size_t)rows * (size_t)cols;
    if (need == 0)
        need = 1;
    if (h->cap[i] < need) {
        cudaFree(h->buf[i]);
        h->buf[i] = NULL;
        h->cap[i] = 0;
        cudaError_t e = cudaMalloc((void **)&h->buf[i], need * sizeof(double));
        if (e != cudaSuccess) {
            *rc = cuda_fail(msg, msgsize, "cudaMalloc", e);
            return NULL;
        }
        h->cap[i] = need;
    }
    if (src && rows > 0 && cols > 0) {
        cudaError_t e = cudaMemcpy2D(h->buf[i], (size_t)rows * sizeof(double), src,
                                     (size_t)ld * sizeof(double), (size_t)rows * sizeof(double),
                                     (size_t)cols, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            *rc = cuda_fail(msg, msgsize, "cudaMemcpy2D", e);
            return NULL;
        }
    }
    return h->buf[i];
}

static int download(double *dst, int ld, const double *src, int rows, int cols, char *msg,
                    size_t msgsize)
{
    if (rows <= 0 || cols <= 0)
        return TT_KERN_OK;
    cudaError_t e = cudaMemcpy2D(dst, (size_t)ld * sizeof(double), src,
                                 (size_t)rows * sizeof(double), (size_t)rows * sizeof(double),
                                 (size_t)cols, cudaMemcpyDeviceToHost);
    return e != cudaSuccess ? cuda_fail(msg, msgsize, "cudaMemcpy2D", e) : TT_KERN_OK;
}

static cublasOperation_t op(int t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }

extern "C" int tt_kla_gemm(tt_kla *h, int ta, int tb, int m, int n, int k, double alpha,
                           const double *a, int lda, const double *b, int ldb, double beta,
                           double *c, int ldc, char *msg, size_t msgsize)
{
    int rc = TT_KERN_OK;
    int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    double *da = upload(h, 0, a, ar, ac, lda, msg, msgsize, &rc);
    double *db = da ? upload(h, 1, b, br, bc, ldb, msg, msgsize, &rc) : NULL;
    double *dc = db ? upload(h, 2, beta != 0.0 ? c : NULL, m, n, ldc, msg, msgsize, &rc) : NULL;
    if (!dc)
        return rc;
    cublasStatus_t s = h->gemm(h->handle, op(ta), op(tb), m, n, k, &alpha, da, ar > 0 ? ar : 1,
                               db, br > 0 ? br : 1, &beta, dc, m > 0 ? m : 1);
    if (s != CUBLAS_STATUS_SUCCESS)
        return blas_fail(msg, msgsize, "cublasDgemm", s);
    return download(c, ldc, dc, m, n, msg, msgsize);
}

extern "C" int tt_kla_syrk(tt_kla *h, int n, int k, double alpha, const double *a, int lda,
                           double beta, double *c, int ldc, char *msg, size_t msgsize)
{
    int rc = TT_KERN_OK;
    double *da = upload(h, 0, a, n, k, lda, msg, msgsize, &rc);
    double *dc = da ? upload(h, 2, c, n, n, ldc, msg, msgsize, &rc) : NULL;
    if (!dc)
        return rc;
    cublasStatus_t s = h->syrk(h->handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &alpha, da,
                               n > 0 ? n : 1, &beta, dc, n > 0 ? n : 1);
    if (s != CUBLAS_STATUS_SUCCESS)
        return blas_fail(msg, msgsize, "cublasDsyrk", s);
    return download(c, ldc, dc, n, n, msg, msgsize);
}

extern "C" int tt_kla_trsm(tt_kla *h, int right, int trans, int m, int n, double alpha,
                           const double *l, int ldl, double *b, int ldb, char *msg,
                           size_t msgsize)
{
    int rc = TT_KERN_OK;
    int nl = right ? n : m;
    double *dl = upload(h, 0, l, nl, nl, ldl, msg, msgsize, &rc);
    double *db = dl ? upload(h, 1, b, m, n, ldb, msg, msgsize, &rc) : NULL;
    if (!db)
        return rc;
    cublasStatus_t s = h->trsm(h->handle, right ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
                               CUBLAS_FILL_MODE_LOWER, op(trans), CUBLAS_DIAG_NON_UNIT, m, n,
                               &alpha, dl, nl > 0 ? nl : 1, db, m > 0 ? m : 1);
    if (s != CUBLAS_STATUS_SUCCESS)
        return blas_fail(msg, msgsize, "cublasDtrsm", s);
    return download(b, ldb, db, m, n, msg, msgsize);
}
