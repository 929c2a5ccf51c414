/* A small pull reader for JSON over a tt_src, one token at a time, so a
 * file of any size is read with memory bounded by its longest string.
 * Strings are decoded (escapes, \uXXXX and surrogate pairs to UTF-8);
 * numbers are checked against the JSON grammar and handed over as text.
 * Errors are TT_EPARSE with "LABEL:LINE: malformed JSON: ..." in ctx.
 *
 * Reading an array:   tt_json_read (gives TT_JSON_ARRAY, '[' consumed),
 *                     then while (tt_json_next_elem(j, &n) == 1) read a value.
 * Reading an object:  the same with tt_json_next_key, the key in j->buf. */
#ifndef TT_JSON_H
#define TT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "io/src.h"

enum {
    TT_JSON_NULL,
    TT_JSON_FALSE,
    TT_JSON_TRUE,
    TT_JSON_NUMBER, /* text in buf */
    TT_JSON_STRING, /* decoded text in buf */
    TT_JSON_ARRAY,  /* '[' consumed */
    TT_JSON_OBJECT  /* '{' consumed */
};

#define TT_JSON_MAX_STRING (1u << 20) /* longer strings that must be kept are an error */
#define TT_JSON_MAX_DEPTH 256         /* deeper nesting is an error, not a stack overflow */

typedef struct tt_json {
    tt_src *src;
    tt_ctx *ctx;
    char *buf;  /* the last key, string or number read, NUL-terminated */
    size_t len; /* its length (a decoded string may hold no NUL: \u0000 is refused) */
    size_t cap;
} tt_json;

void tt_json_init(tt_json *j, tt_src *src, tt_ctx *ctx);
void tt_json_free(tt_json *j);

/* Skips whitespace and gives the next byte without consuming it in *c,
 * or -1 at the end of the input. 0 or a negative code. */
int tt_json_peek(tt_json *j, int *c);

/* Reads one value: a scalar whole, or the opening bracket of an array or
 * object. *type is a TT_JSON_* kind. 0 or a negative code. */
int tt_json_read(tt_json *j, int *type);

/* Skips one whole value, containers included. 0 or a negative code. */
int tt_json_skip(tt_json *j);

/* Inside an array whose '[' was read, with *n elements read so far
 * (start at 0): 1 when another element follows (its separator consumed,
 * *n incremented), 0 when the array ended (']' consumed), or a negative code. */
int tt_json_next_elem(tt_json *j, int64_t *n);

/* Inside an object whose '{' was read: 1 with the next key in j->buf and
 * its ':' consumed, 0 when the object ended ('}' consumed), or a negative
 * code. *n counts the members as for tt_json_next_elem. */
int tt_json_next_key(tt_json *j, int64_t *n);

/* Sets a TT_EPARSE error "LABEL:LINE: malformed JSON: ..." and returns it. */
int tt_json_fail(tt_json *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A byte for messages: 'x', byte 0xNN, or "end of input" (c < 0). */
const char *tt_json_shown(int c, char buf[24]);

/* A JSON kind as a word for messages ("a string", "an array", ...). */
const char *tt_json_kind(int type);

#endif
