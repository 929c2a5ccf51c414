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

#endif
