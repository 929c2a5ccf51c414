/* What a format parser sees: the ingest state and helpers that turn field
 * text into values with "FILE:LINE: field 'x': reason" errors. */
#ifndef TT_INGEST_IMPL_H
#define TT_INGEST_IMPL_H

#include <stdint.h>

#include "io/src.h"
#include "io/timeparse.h"
#include "tt/ingest.h"

typedef struct ig_input ig_input; /* one input, the driver's (ingest.c) */

typedef struct ig_state {
    tt_ctx *ctx;
    const tt_ingest_opts *opts;
    tt_trace *trace;
    tt_tz *tz;      /* zone for naive times (never NULL) */
    tt_src *src;    /* the current input (tt_ig_open), for messages; NULL when none */
    int n;          /* inputs */
    ig_input *in;
    /* The input's names for a job's submit and duration, for range errors
     * in tt_ig_keep: the format's, which a parser may replace (csv takes
     * the header's). */
    const char *submit_field, *duration_field;
    /* The input's name for the parents (a parser sets it), for the error
     * on a name no row has, and where each row with parents came from. */
    char deps_field[64];
    int cur; /* the current input (tt_ig_open) */
    int64_t ndeprows, deprows_cap;
    struct ig_deprow *deprows;
} ig_state;

typedef struct tt_format {
    const char *name;
    const char *help;
    const char *default_tz; /* zone for naive times, e.g. "America/Los_Angeles" */
    const char *time_base;  /* "unix" when times are absolute, else "relative";
                             * NULL: the parser sets prov.time_base itself */
    /* Score (0 = not this format, higher = surer) for the first non-empty
     * line of an input, for -f auto; NULL when the format cannot be told
     * from its header. The line may be modified. */
    int (*detect)(char *first_line);
    /* Parses all ig->n inputs, each opened with tt_ig_open and closed with
     * tt_ig_close (the first may be open already, its first line unread). */
    int (*parse)(ig_state *ig);
    /* The input fields a job's submit and duration come from, named in
     * range errors ("end_time - start_time" where derived). */
    const char *submit_field, *duration_field;
} tt_format;

/* Formats, each in its own fmt_*.c. */
extern const tt_format tt_fmt_philly_json, tt_fmt_philly_csv, tt_fmt_helios, tt_fmt_acme,
    tt_fmt_pai, tt_fmt_pai_sim, tt_fmt_openb, tt_fmt_gavel, tt_fmt_tiresias, tt_fmt_swf,
    tt_fmt_alibaba2018, tt_fmt_csv;

/* Inputs, one open at a time so that thousands of files need few
 * descriptors. tt_ig_open makes input i (0 .. ig->n - 1) the current one
 * (ig->src), opening it unless it is open already (then it goes on where
 * it was); inputs opened before stay open until closed. tt_ig_close reads
 * the rest of input i's raw bytes for its digest and closes it; ig->src
 * is NULL after closing the current input. 0 or a negative code. */
int tt_ig_open(ig_state *ig, int i);
int tt_ig_close(ig_state *ig, int i);
/* Input i's name in messages: its path, "<stdin>", or the memory label. */
const char *tt_ig_label(const ig_state *ig, int i);

/* Counting and keeping rows. */
void tt_ig_row(ig_state *ig); /* one data row read */
/* Appends a job after checking its submit and duration against the
 * engine's bounds (TT_SUBMIT_MAX, TT_DURATION_MAX; an error naming
 * ig->submit_field or ig->duration_field). 0, TT_EPARSE or TT_ENOMEM. */
int tt_ig_keep(ig_state *ig, const tt_job *j);
void tt_ig_drop(ig_state *ig, int reason); /* a well-formed row not kept */

/* Sets a TT_EPARSE error prefixed with "LABEL:LINE: " of the current
 * input and returns TT_EPARSE. */
int tt_ig_fail(ig_state *ig, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Opens each input in turn, runs one(ig) on it and closes it; stops at
 * the first error. The parse of a format whose inputs are independent. */
int tt_ig_each_input(ig_state *ig, int (*one)(ig_state *ig));

/* The next non-empty line of the current input (ig->src): 1, 0 at the end,
 * or a negative code. Whitespace-only lines are skipped. */
int tt_ig_line(ig_state *ig, char **line);

/* The header: the first non-empty line of the current input. 1 with the
 * line, or TT_EEMPTY "LABEL:N: empty input: no header line" when there is
 * none, or another negative code. */
int tt_ig_header(ig_state *ig, char **line);

/* Splits a CSV line (delim ',' or '\t'); fails (field count, quotes) when
 * the count is not exactly want, or less than want when want < 0 (= at
 * least -want). Returns the count or TT_EPARSE. */
int tt_ig_split(ig_state *ig, char *line, char delim, char **f, int max, int want);

/* Field converters. Each names the field in its error. "missing" means
 * tt_is_missing(text). */
/* Integer >= 0 (float-encoded integers like "66.0" accepted and rounded). */
int tt_ig_count(ig_state *ig, const char *field, const char *text, int64_t *out);
/* As tt_ig_count, but a missing value gives *out = TT_TIME_NONE. */
int tt_ig_count_opt(ig_state *ig, const char *field, const char *text, int64_t *out);
/* Number >= 0 in thousandths: "0.25" -> 250. */
int tt_ig_milli(ig_state *ig, const char *field, const char *text, int64_t *out);
/* A time: "YYYY-MM-DD HH:MM:SS[+off]" (naive ones in ig->tz), not before
 * 1970, or seconds (integer or float, >= 0, rounded): both are >= 0.
 * Missing gives TT_TIME_NONE. */
int tt_ig_time(ig_state *ig, const char *field, const char *text, int64_t *out);
/* Copies a string field, mapping missing tokens to NULL. */
const char *tt_ig_str(const char *text);

/* Index of name in a header (exact match), or -1. */
int tt_ig_col(char **hdr, int n, const char *name);
/* Like tt_ig_col but fails with a message naming the missing column. */
int tt_ig_need_col(ig_state *ig, char **hdr, int n, const char *name, int *idx);

/* Base name of a path without directories and extension (".trace",
 * ".csv", ".gz", ...), written to buf. */
void tt_ig_stem(const char *path, char *buf, size_t size);

#endif
