/* An input byte stream: a file, stdin ("-") or a memory buffer, plain,
 * gzip- or xz-compressed (told from its first bytes), read as lines or as
 * bytes with line numbers kept. A UTF-8 byte-order mark at the start of the
 * decoded text is skipped. The SHA-256 of the raw bytes is kept as
 * they are read, for the trace's provenance. */
#ifndef TT_SRC_H
#define TT_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"

typedef struct tt_src tt_src;

#define TT_SRC_MAX_LINE (16u << 20) /* longer lines are an error, not a 4 GB malloc */

/* Opens path ("-" for stdin). The label in messages is the path, or
 * "<stdin>". 0 or a negative code with the reason in ctx. */
int tt_src_open(tt_ctx *ctx, const char *path, tt_src **out);
/* Reads from a caller-owned buffer, which must outlive the source. */
int tt_src_open_mem(tt_ctx *ctx, const void *buf, size_t n, const char *label, tt_src **out);
void tt_src_close(tt_src *s);

const char *tt_src_label(const tt_src *s);
/* Line number of the last line returned (1-based), or of the byte last
 * read by tt_src_getc. */
int64_t tt_src_lineno(const tt_src *s);
/* "gzip", "xz" or "plain". */
const char *tt_src_compression(const tt_src *s);

/* The next line without its "\n" (and "\r" before it), NUL-terminated in a
 * buffer owned by s that lives until the next call. Returns 1 with a line,
 * 0 at the end, or a negative code (NUL byte, over-long line, corrupt
 * compressed data, read error). A last line without "\n" is returned. */
int tt_src_getline(tt_src *s, tt_ctx *ctx, char **line, size_t *len);

/* Makes the next tt_src_getline return the line just returned, unchanged
 * (the caller must not have modified it). */
void tt_src_ungetline(tt_src *s);

/* Byte access for parsers that are not line-oriented: the next byte
 * (0..255), -1 at the end, or a negative code below -1 on error
 * (-1 - TT_E..., see tt_src_error). Do not mix with tt_src_getline. */
int tt_src_getc(tt_src *s, tt_ctx *ctx);
/* Looks at the next byte without consuming it (same returns). */
int tt_src_peekc(tt_src *s, tt_ctx *ctx);

/* Reads what is left of the raw input so the digest covers all of it, and
 * writes its hex SHA-256. 0 or a negative code. */
int tt_src_finish(tt_src *s, tt_ctx *ctx, char hex[65]);

#endif
