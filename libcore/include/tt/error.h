/* tt/error.h: error codes and the context that carries their detail.
 *
 * Every fallible libcore function returns 0 or a negative TT_E* code and
 * leaves a one-line message ("pollux.csv:17: field 'num_gpus': expected an
 * integer, got 'x'") in the tt_ctx it was given, readable until the next
 * failing call on that context. The library never prints and never exits.
 * A context is not shared between threads; create one per thread.
 */
#ifndef TT_ERROR_H
#define TT_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

enum {
    TT_OK = 0,
    TT_ENOMEM = -1,    /* allocation failed */
    TT_EIO = -2,       /* read, write, open or rename failed */
    TT_EPARSE = -3,    /* malformed input: the message names file, line, field */
    TT_EFORMAT = -4,   /* a file of the wrong kind (not HDF5, not a trace) */
    TT_EINVAL = -5,    /* a bad argument or option value */
    TT_ENOTBUILT = -6, /* a feature compiled out of this build */
    TT_ENODEV = -7,    /* no usable GPU */
    TT_EEMPTY = -8,    /* input had nothing to work on */
    TT_ERANGE = -9,    /* a number out of its allowed range */
    TT_ESTOPPED = -10  /* stopped on request (Ctrl-C) before the end */
};

typedef struct tt_ctx tt_ctx;

/* A new context, or NULL when out of memory. */
tt_ctx *tt_ctx_create(void);
/* Frees ctx; NULL is accepted. */
void tt_ctx_free(tt_ctx *ctx);

/* The message of the last error set on ctx ("" if none). Owned by ctx,
 * valid until the next call that sets an error. NULL ctx gives "". */
const char *tt_errmsg(const tt_ctx *ctx);
/* The code of the last error set on ctx (TT_OK if none). */
int tt_errcode(const tt_ctx *ctx);
/* A fixed description of a code ("out of memory", ...). */
const char *tt_strerror(int code);

/* Sets the error and returns code, so a caller can `return tt_err(...)`.
 * NULL ctx is accepted (the message is dropped). */
int tt_err(tt_ctx *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Clears the error state. */
void tt_err_clear(tt_ctx *ctx);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
