/* Error context: a code and a message, set by the failing call. */
#include "tt/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct tt_ctx {
    int code;
    char msg[1024];
};

tt_ctx *tt_ctx_create(void)
{
    tt_ctx *c = (tt_ctx *)calloc(1, sizeof *c);
    return c;
}

void tt_ctx_free(tt_ctx *ctx) { free(ctx); }

const char *tt_errmsg(const tt_ctx *ctx) { return ctx ? ctx->msg : ""; }

int tt_errcode(const tt_ctx *ctx) { return ctx ? ctx->code : TT_OK; }

const char *tt_strerror(int code)
{
    switch (code) {
    case TT_OK: return "success";
    case TT_ENOMEM: return "out of memory";
    case TT_EIO: return "input/output error";
    case TT_EPARSE: return "malformed input";
    case TT_EFORMAT: return "wrong kind of file";
    case TT_EINVAL: return "invalid argument";
    case TT_ENOTBUILT: return "not built in";
    case TT_ENODEV: return "no GPU";
    case TT_EEMPTY: return "empty input";
    case TT_ERANGE: return "value out of range";
    case TT_ESTOPPED: return "stopped";
    default: return "unknown error";
    }
}

int tt_err(tt_ctx *ctx, int code, const char *fmt, ...)
{
    if (!ctx)
        return code;
    ctx->code = code;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        snprintf(ctx->msg, sizeof ctx->msg, "%s", tt_strerror(code));
    return code;
}

void tt_err_clear(tt_ctx *ctx)
{
    if (ctx) {
        ctx->code = TT_OK;
        ctx->msg[0] = '\0';
    }
}
