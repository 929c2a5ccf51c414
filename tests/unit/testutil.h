/* Shared helpers for the Criterion unit tests. */
#ifndef TT_TESTUTIL_H
#define TT_TESTUTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt/ingest.h"
#include "tt/trace.h"

/* Path of a file under shared/traces (TT_SHARED, set by make, else
 * ../shared next to the repository). */
static inline const char *shared_path(const char *rel)
{
    static char buf[8][1024];
    static int k;
    const char *root = getenv("TT_SHARED");
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/traces/%s", root && *root ? root : "../shared", rel);
    return buf[k];
}

/* A path under /tmp for a test's file, unique to this process. */
static inline char *tmpfile_path(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "/tmp/tt-unit-%d-%s", (int)getpid(), name);
    return p;
}

/* 1 when the shared file exists; tests of real traces skip visibly otherwise. */
static inline int have_shared(const char *rel) { return access(shared_path(rel), R_OK) == 0; }

/* Ingests an in-memory text with format fmt; returns the trace or NULL with
 * the context holding the message. */
static inline tt_trace *ingest_text(tt_ctx *ctx, const char *fmt, const char *text)
{
    tt_ingest_opts o = {fmt, NULL, NULL};
    tt_trace *t = NULL;
    tt_ingest_mem(ctx, &o, text, strlen(text), "mem.txt", &t);
    return t;
}

/* Ingests n files with format fmt; the trace, or NULL with the message in
 * ctx. */
static inline tt_trace *ingest_files(tt_ctx *ctx, const char *fmt, const char *const *in, int n)
{
    tt_ingest_opts o = {fmt, NULL, NULL};
    tt_trace *t = NULL;
    tt_ingest(ctx, &o, in, n, &t);
    return t;
}

/* Ingesting text as fmt must fail with a message containing want, and with
 * code unless code is 0. */
static inline void expect_ingest_error(const char *fmt, const char *text, int code,
                                       const char *want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, fmt, text);
    cr_expect_null(t, "accepted: %s", text);
    if (code)
        cr_expect_eq(tt_errcode(ctx), code, "code %d for: %s", tt_errcode(ctx), text);
    cr_expect(strstr(tt_errmsg(ctx), want) != NULL, "message '%s' lacks '%s'", tt_errmsg(ctx),
              want);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

/* The string of row i of a string column, NULL when absent. */
static inline const char *str_at(const tt_strtab *tab, const int32_t *codes, int64_t i)
{
    return codes[i] < 0 ? NULL : tt_strtab_get(tab, codes[i]);
}

/* The string of a code, "(none)" when absent (for messages and str_eq). */
static inline const char *code_str(const tt_strtab *tab, int32_t code)
{
    return code < 0 ? "(none)" : tt_strtab_get(tab, code);
}

/* The row of the job named name, or -1. */
static inline int64_t find_job(const tt_trace *t, const char *name)
{
    int32_t code = tt_strtab_find(t->names, name);
    for (int64_t i = 0; code >= 0 && i < t->n; i++)
        if (t->name[i] == code)
            return i;
    return -1;
}

/* Ingesting text as fmt must fail with exactly msg and give no trace. */
static inline void expect_ingest_fail(const char *fmt, const char *text, const char *msg)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, fmt, text);
    cr_expect_null(t);
    cr_expect_str_eq(tt_errmsg(ctx), msg);
    tt_trace_free(t);
    tt_ctx_free(ctx);
}

#endif
