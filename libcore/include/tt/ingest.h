/* tt/ingest.h: reading job traces of the public formats into a tt_trace.
 *
 * Formats (tt_ingest_format_list): philly-json, philly-csv, helios, acme,
 * pai, pai-sim, openb, gavel, tiresias, swf, csv, and auto, which tells the
 * format from the first bytes and header line. Inputs may be "-" (stdin)
 * and may be gzip- or xz-compressed. Rows that are well-formed but cannot
 * be simulated (CPU-only, never started, unfinished, ...) are dropped and
 * counted by reason in the trace's provenance; malformed rows are errors
 * naming file, line and field. Thread-safe for distinct contexts.
 */
#ifndef TT_INGEST_H
#define TT_INGEST_H

#include <stddef.h>

#include "tt/error.h"
#include "tt/trace.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

typedef struct tt_ingest_opts {
    const char *format; /* a format name, or "auto" (also when NULL) */
    const char *map;    /* csv: "submit=COL,duration=COL,gpus=COL[,...]", or NULL */
    const char *tz;     /* zone for times without an offset; NULL: the format's default */
} tt_ingest_opts;

/* Reads n inputs (paths, "-" = stdin) of one format into a new trace,
 * sorted by submit time (stable), with provenance filled in: format,
 * sources and their SHA-256, rows read/kept/dropped by reason, duplicates.
 * Returns 0 with *out owned by the caller (tt_trace_free), or a negative
 * code with the reason in ctx and *out NULL. A trace that keeps no job is
 * an error (TT_EEMPTY). */
int tt_ingest(tt_ctx *ctx, const tt_ingest_opts *opts, const char *const *inputs, int n,
              tt_trace **out);

/* The same for one input held in memory (tests and fuzzing). */
int tt_ingest_mem(tt_ctx *ctx, const tt_ingest_opts *opts, const void *buf, size_t len,
                  const char *label, tt_trace **out);

/* The format names, NULL-terminated, "auto" excluded. */
const char *const *tt_ingest_format_list(void);
/* A one-line description of a format, or NULL for an unknown name. */
const char *tt_ingest_format_help(const char *name);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
