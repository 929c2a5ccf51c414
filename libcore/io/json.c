/* A streaming JSON reader (RFC 8259 grammar) over a tt_src. */
#include "io/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER 1024 /* digits kept for a number; longer ones are refused */

void tt_json_init(tt_json *j, tt_src *src, tt_ctx *ctx)
{
    memset(j, 0, sizeof *j);
    j->src = src;
    j->ctx = ctx;
}

void tt_json_free(tt_json *j)
{
    free(j->buf);
    j->buf = NULL;
    j->len = j->cap = 0;
}

int tt_json_fail(tt_json *j, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tt_err(j->ctx, TT_EPARSE, "%s:%lld: malformed JSON: %s", tt_src_label(j->src),
                  (long long)tt_src_lineno(j->src), msg);
}

const char *tt_json_kind(int type)
{
    switch (type) {
    case TT_JSON_NULL: return "null";
    case TT_JSON_FALSE:
    case TT_JSON_TRUE: return "a boolean";
    case TT_JSON_NUMBER: return "a number";
    case TT_JSON_STRING: return "a string";
    case TT_JSON_ARRAY: return "an array";
    case TT_JSON_OBJECT: return "an object";
    default: return "a value";
    }
}

const char *tt_json_shown(int c, char buf[24])
{
    if (c < 0)
        return "end of input";
    if (c > 0x20 && c < 0x7f)
        snprintf(buf, 24, "'%c'", c);
    else
        snprintf(buf, 24, "byte 0x%02x", c);
    return buf;
}

/* Byte reads: c >= -1 is a byte or the end; c < -1 carries the source's
 * error code (-1 + code), whose message is already in ctx. */
#define SRC_ERR(c) ((c) + 1)

/* Consumes the offending byte first, so the line number is the one it is on. */
static int unexpected(tt_json *j, int c, const char *expected)
{
    if (c < 0)
        return tt_json_fail(j, "unexpected end of input (truncated?), expected %s", expected);
    int g = tt_src_getc(j->src, j->ctx);
    if (g < -1)
        return SRC_ERR(g);
    char b[24];
    return tt_json_fail(j, "expected %s, got %s", expected, tt_json_shown(c, b));
}

int tt_json_peek(tt_json *j, int *c)
{
    for (;;) {
        int b = tt_src_peekc(j->src, j->ctx);
        if (b < -1)
            return SRC_ERR(b);
        if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
            *c = b;
            return 0;
        }
        tt_src_getc(j->src, j->ctx);
    }
}

static int put(tt_json *j, const char *s, size_t n)
{
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *nb = (char *)realloc(j->buf, cap);
        if (!nb)
            return tt_err(j->ctx, TT_ENOMEM, "%s: out of memory", tt_src_label(j->src));
        j->buf = nb;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
    return 0;
}

static int hex4(tt_json *j, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int c = tt_src_getc(j->src, j->ctx);
        if (c < -1)
            return SRC_ERR(c);
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) {
            char b[24];
            return tt_json_fail(j, "expected 4 hex digits after '\\u', got %s",
                                tt_json_shown(c, b));
        }
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 0;
}

/* A \u escape (the "\u" already read), with its low surrogate if any,
 * as UTF-8 in out. Returns the byte count or a negative code. */
static int unicode_escape(tt_json *j, char out[4])
{
    unsigned cp;
    int rc = hex4(j, &cp);
    if (rc)
        return rc;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return tt_json_fail(j, "unpaired low surrogate \\u%04X", cp);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        int c1 = tt_src_getc(j->src, j->ctx);
        int c2 = c1 == '\\' ? tt_src_getc(j->src, j->ctx) : c1;
        if (c1 < -1 || c2 < -1)
            return SRC_ERR(c1 < -1 ? c1 : c2);
        unsigned lo;
        if (c1 != '\\' || c2 != 'u')
            return tt_json_fail(j, "high surrogate \\u%04X not followed by a low one", cp);
        if ((rc = hex4(j, &lo)))
            return rc;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return tt_json_fail(j, "high surrogate \\u%04X followed by \\u%04X, not a low one",
                                cp, lo);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string, its opening quote next. keep: decode it into buf; else only
 * check it (skipped strings have no length limit). */
static int read_string(tt_json *j, int keep)
{
    tt_src_getc(j->src, j->ctx); /* the quote, already peeked */
    j->len = 0;
    int rc = keep ? put(j, "", 0) : 0;
    if (rc)
        return rc;
    for (;;) {
        int c = tt_src_getc(j->src, j->ctx);
        if (c < -1)
            return SRC_ERR(c);
        if (c == -1)
            return tt_json_fail(j, "unterminated string at end of input");
        if (c == '"')
            return 0;
        char out[4];
        int n = 1;
        out[0] = (char)c;
        if (c < 0x20) {
            return tt_json_fail(j, "control character (byte 0x%02x) in a string: escape it", c);
        } else if (c == '\\') {
            int e = tt_src_getc(j->src, j->ctx);
            if (e < -1)
                return SRC_ERR(e);
            switch (e) {
            case '"':
            case '\\':
            case '/': out[0] = (char)e; break;
            case 'b': out[0] = '\b'; break;
            case 'f': out[0] = '\f'; break;
            case 'n': out[0] = '\n'; break;
            case 'r': out[0] = '\r'; break;
            case 't': out[0] = '\t'; break;
            case 'u':
                if ((n = unicode_escape(j, out)) < 0)
                    return n;
                if (keep && n == 1 && out[0] == '\0')
                    return tt_json_fail(j, "\\u0000 in a string that is kept");
                break;
            default: {
                char b[24];
                return tt_json_fail(j, "invalid escape '\\' followed by %s", tt_json_shown(e, b));
            }
            }
        }
        if (!keep)
            continue;
        if (j->len + (size_t)n > TT_JSON_MAX_STRING)
            return tt_json_fail(j, "string longer than %u bytes", TT_JSON_MAX_STRING);
        if (put(j, out, (size_t)n))
            return TT_ENOMEM;
    }
}

/* Appends the next byte to the number text if it satisfies want. */
static int num_take(tt_json *j, int (*want)(int), int *took)
{
    int c = tt_src_peekc(j->src, j->ctx);
    if (c < -1)
        return SRC_ERR(c);
    *took = c >= 0 && want(c);
    if (!*took)
        return 0;
    if (j->len >= MAX_NUMBER)
        return tt_json_fail(j, "number longer than %d characters", MAX_NUMBER);
    tt_src_getc(j->src, j->ctx);
    char ch = (char)c;
    return put(j, &ch, 1);
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_minus(int c) { return c == '-'; }
static int is_sign(int c) { return c == '-' || c == '+'; }
static int is_dot(int c) { return c == '.'; }
static int is_exp(int c) { return c == 'e' || c == 'E'; }

/* Takes one or more digits; fails naming what they follow. */
static int num_digits(tt_json *j, const char *after)
{
    int took, rc = num_take(j, is_digit, &took);
    if (rc)
        return rc;
    if (!took) {
        int c = tt_src_peekc(j->src, j->ctx);
        if (c < -1)
            return SRC_ERR(c);
        char what[64];
        snprintf(what, sizeof what, "a digit after %s in a number", after);
        return unexpected(j, c, what);
    }
    do {
        if ((rc = num_take(j, is_digit, &took)))
            return rc;
    } while (took);
    return 0;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int read_number(tt_json *j)
{
    int took, rc;
    j->len = 0;
    if ((rc = put(j, "", 0)) || (rc = num_take(j, is_minus, &took)))
        return rc;
    int c = tt_src_peekc(j->src, j->ctx);
    if (c < -1)
        return SRC_ERR(c);
    if (c == '0') {
        if ((rc = num_take(j, is_digit, &took)))
            return rc;
    } else if ((rc = num_digits(j, "'-'"))) {
        return rc;
    }
    if ((rc = num_take(j, is_dot, &took)))
        return rc;
    if (took && (rc = num_digits(j, "'.'")))
        return rc;
    if ((rc = num_take(j, is_exp, &took)))
        return rc;
    if (took && ((rc = num_take(j, is_sign, &took)) || (rc = num_digits(j, "the exponent"))))
        return rc;
    return 0;
}

static int is_lower(int c) { return c >= 'a' && c <= 'z'; }

static int read_literal(tt_json *j, int *type)
{
    char word[8];
    int n = 0, c;
    while ((c = tt_src_peekc(j->src, j->ctx)) >= 0 && is_lower(c) && n < 6) {
        tt_src_getc(j->src, j->ctx);
        word[n++] = (char)c;
    }
    if (c < -1)
        return SRC_ERR(c);
    word[n] = '\0';
    if (strcmp(word, "true") == 0)
        *type = TT_JSON_TRUE;
    else if (strcmp(word, "false") == 0)
        *type = TT_JSON_FALSE;
    else if (strcmp(word, "null") == 0)
        *type = TT_JSON_NULL;
    else
        return tt_json_fail(j, "unknown literal '%s%s' (true, false or null expected)", word,
                            n == 6 ? "..." : "");
    return 0;
}

static int read_value(tt_json *j, int *type, int keep)
{
    int c, rc = tt_json_peek(j, &c);
    if (rc)
        return rc;
    switch (c) {
    case '{':
        tt_src_getc(j->src, j->ctx);
        *type = TT_JSON_OBJECT;
        return 0;
    case '[':
        tt_src_getc(j->src, j->ctx);
        *type = TT_JSON_ARRAY;
        return 0;
    case '"':
        *type = TT_JSON_STRING;
        return read_string(j, keep);
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        *type = TT_JSON_NUMBER;
        return read_number(j);
    default:
        if (is_lower(c))
            return read_literal(j, type);
        return unexpected(j, c, "a value");
    }
}

int tt_json_read(tt_json *j, int *type) { return read_value(j, type, 1); }

int tt_json_next_elem(tt_json *j, int64_t *n)
{
    int c, rc = tt_json_peek(j, &c);
    if (rc)
        return rc;
    if (c == ']') {
        tt_src_getc(j->src, j->ctx);
        return 0;
    }
    if (*n > 0) {
        if (c != ',')
            return unexpected(j, c, "',' or ']' after an array element");
        tt_src_getc(j->src, j->ctx);
    }
    (*n)++;
    return 1;
}

static int next_key(tt_json *j, int64_t *n, int keep)
{
    int c, rc = tt_json_peek(j, &c);
    if (rc)
        return rc;
    if (c == '}') {
        tt_src_getc(j->src, j->ctx);
        return 0;
    }
    if (*n > 0) {
        if (c != ',')
            return unexpected(j, c, "',' or '}' after an object member");
        tt_src_getc(j->src, j->ctx);
        if ((rc = tt_json_peek(j, &c)))
            return rc;
    }
    if (c != '"')
        return unexpected(j, c, "a string key");
    if ((rc = read_string(j, keep)) || (rc = tt_json_peek(j, &c)))
        return rc;
    if (c != ':')
        return unexpected(j, c, "':' after an object key");
    tt_src_getc(j->src, j->ctx);
    (*n)++;
    return 1;
}

int tt_json_next_key(tt_json *j, int64_t *n) { return next_key(j, n, 1); }

static int skip_value(tt_json *j, int depth)
{
    int type, rc = read_value(j, &type, 0);
    if (rc || (type != TT_JSON_ARRAY && type != TT_JSON_OBJECT))
        return rc;
    if (depth >= TT_JSON_MAX_DEPTH)
        return tt_json_fail(j, "nested deeper than %d levels", TT_JSON_MAX_DEPTH);
    int64_t n = 0;
    if (type == TT_JSON_ARRAY) {
        while ((rc = tt_json_next_elem(j, &n)) == 1)
            if ((rc = skip_value(j, depth + 1)))
                return rc;
    } else {
        while ((rc = next_key(j, &n, 0)) == 1)
            if ((rc = skip_value(j, depth + 1)))
                return rc;
    }
    return rc;
}

int tt_json_skip(tt_json *j) { return skip_value(j, 0); }
