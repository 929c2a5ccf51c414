/* Input byte streams with transparent gzip / xz decompression. */
#include "io/src.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "io/srcz.h"

enum { PLAIN, GZIP = TT_SRCZ_GZIP, XZ = TT_SRCZ_XZ };
#define RAWBUF (256u << 10)
#define OUTBUF (256u << 10)

struct tt_src {
    char *label;
    FILE *fp;          /* NULL for memory sources */
    int own_fp;
    const uint8_t *mem; /* memory source */
    size_t memlen, mempos;
    int mode;
    int raw_eof, out_eof, err; /* err: sticky negative code */
    uint8_t *raw;               /* compressed bytes waiting for the decoder */
    size_t raw_pos, raw_len;
    uint8_t *out; /* decoded bytes */
    size_t out_pos, out_len;
    tt_srcz *z; /* the decoder; NULL when plain */
    tt_sha256 sha;
    char *line;
    size_t line_cap;
    int64_t lineno;
    int at_line_start;
    int replay;   /* tt_src_ungetline: return the current line again */
    int bom_done; /* the first decoded bytes were checked for a UTF-8 BOM */
};

const char *tt_src_label(const tt_src *s) { return s->label; }
int64_t tt_src_lineno(const tt_src *s) { return s->lineno; }
const char *tt_src_compression(const tt_src *s)
{
    return s->mode == GZIP ? "gzip" : s->mode == XZ ? "xz" : "plain";
}

/* Reads more raw bytes into s->raw (compacting it). 0, or TT_EIO. */
static int raw_fill(tt_src *s, tt_ctx *ctx)
{
    if (s->raw_pos > 0) {
        memmove(s->raw, s->raw + s->raw_pos, s->raw_len - s->raw_pos);
        s->raw_len -= s->raw_pos;
        s->raw_pos = 0;
    }
    size_t room = RAWBUF - s->raw_len, got;
    if (s->raw_eof || room == 0)
        return 0;
    if (s->fp) {
        got = fread(s->raw + s->raw_len, 1, room, s->fp);
        if (got < room) {
            if (ferror(s->fp))
                return tt_err(ctx, TT_EIO, "%s: read error: %s", s->label, strerror(errno));
            s->raw_eof = 1;
        }
    } else {
        got = s->memlen - s->mempos < room ? s->memlen - s->mempos : room;
        memcpy(s->raw + s->raw_len, s->mem + s->mempos, got);
        s->mempos += got;
        if (s->mempos == s->memlen)
            s->raw_eof = 1;
    }
    tt_sha256_update(&s->sha, s->raw + s->raw_len, got);
    s->raw_len += got;
    return 0;
}

/* Decodes more bytes into s->out. Sets out_eof at the end of the data. */
static int out_fill(tt_src *s, tt_ctx *ctx)
{
    s->out_pos = s->out_len = 0;
    while (s->out_len == 0 && !s->out_eof) {
        if (s->raw_pos == s->raw_len || (!s->raw_eof && s->raw_len - s->raw_pos < 4096)) {
            int rc = raw_fill(s, ctx);
            if (rc)
                return rc;
        }
        size_t avail = s->raw_len - s->raw_pos;
        if (s->mode == PLAIN) {
            if (avail == 0) {
                s->out_eof = 1;
                break;
            }
            memcpy(s->out, s->raw + s->raw_pos, avail);
            s->out_len = avail;
            s->raw_pos += avail;
        } else {
            size_t used, made;
            int rc = tt_srcz_run(s->z, ctx, s->label, s->raw + s->raw_pos, avail, s->raw_eof,
                                 s->out, OUTBUF, &used, &made, &s->out_eof);
            s->raw_pos += used;
            s->out_len = made;
            if (rc)
                return rc;
        }
    }
    /* Spreadsheets write a UTF-8 byte-order mark before the first line; it
     * is not part of any header, so no format has to know about it. */
    if (!s->bom_done && s->out_len > 0) {
        s->bom_done = 1;
        if (s->out_len >= 3 && memcmp(s->out, "\xEF\xBB\xBF", 3) == 0) {
            s->out_pos = 3;
            if (s->out_pos == s->out_len)
                return out_fill(s, ctx); /* the mark was all this chunk held */
        }
    }
    return 0;
}

static int src_init(tt_ctx *ctx, tt_src *s)
{
    s->raw = (uint8_t *)malloc(RAWBUF);
    s->out = (uint8_t *)malloc(OUTBUF);
    if (!s->raw || !s->out)
        return tt_err(ctx, TT_ENOMEM, "%s: out of memory", s->label);
    tt_sha256_init(&s->sha);
    s->at_line_start = 1;
    int rc = raw_fill(s, ctx);
    if (rc)
        return rc;
    const uint8_t *b = s->raw;
    if (s->raw_len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        s->mode = GZIP;
    else if (s->raw_len >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0)
        s->mode = XZ;
    return s->mode == PLAIN ? 0 : tt_srcz_open(ctx, s->label, s->mode, &s->z);
}

static int src_new(tt_ctx *ctx, const char *label, tt_src **out)
{
    tt_src *s = (tt_src *)calloc(1, sizeof *s);
    if (s)
        s->label = (char *)malloc(strlen(label) + 1);
    if (!s || !s->label) {
        free(s);
        return tt_err(ctx, TT_ENOMEM, "%s: out of memory", label);
    }
    strcpy(s->label, label);
    *out = s;
    return 0;
}

int tt_src_open(tt_ctx *ctx, const char *path, tt_src **out)
{
    *out = NULL;
    int is_stdin = strcmp(path, "-") == 0;
    tt_src *s = NULL;
    int rc = src_new(ctx, is_stdin ? "<stdin>" : path, &s);
    if (rc)
        return rc;
    if (is_stdin) {
        s->fp = stdin;
    } else {
        s->fp = fopen(path, "rb");
        if (!s->fp) {
            rc = tt_err(ctx, TT_EIO, "cannot open '%s': %s", path, strerror(errno));
            tt_src_close(s);
            return rc;
        }
        s->own_fp = 1;
    }
    if ((rc = src_init(ctx, s))) {
        tt_src_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

int tt_src_open_mem(tt_ctx *ctx, const void *buf, size_t n, const char *label, tt_src **out)
{
    *out = NULL;
    tt_src *s = NULL;
    int rc = src_new(ctx, label, &s);
    if (rc)
        return rc;
    s->mem = (const uint8_t *)buf;
    s->memlen = n;
    s->raw_eof = n == 0;
    if ((rc = src_init(ctx, s))) {
        tt_src_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

void tt_src_close(tt_src *s)
{
    if (!s)
        return;
    if (s->own_fp)
        fclose(s->fp);
    tt_srcz_free(s->z);
    free(s->raw);
    free(s->out);
    free(s->line);
    free(s->label);
    free(s);
}

static int binary_error(tt_src *s, tt_ctx *ctx)
{
    return tt_err(ctx, TT_EPARSE, "%s:%lld: binary data (NUL byte): not a text trace", s->label,
                  (long long)s->lineno);
}

int tt_src_getline(tt_src *s, tt_ctx *ctx, char **line, size_t *len)
{
    if (s->err)
        return s->err;
    if (s->replay) {
        s->replay = 0;
        *line = s->line;
        if (len)
            *len = strlen(s->line);
        return 1;
    }
    if (s->out_pos == s->out_len) {
        int rc = out_fill(s, ctx);
        if (rc)
            return s->err = rc;
        if (s->out_len == 0)
            return 0; /* no bytes left: no more lines */
    }
    s->lineno++;
    size_t n = 0;
    for (;;) {
        if (s->out_pos == s->out_len) {
            int rc = out_fill(s, ctx);
            if (rc)
                return s->err = rc;
            if (s->out_len == 0)
                break; /* last line without a newline */
        }
        const uint8_t *p = s->out + s->out_pos;
        size_t avail = s->out_len - s->out_pos;
        const uint8_t *nl = (const uint8_t *)memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (memchr(p, '\0', take))
            return s->err = binary_error(s, ctx);
        if (n + take + 1 > TT_SRC_MAX_LINE)
            return s->err = tt_err(ctx, TT_EPARSE, "%s:%lld: line longer than %u MiB", s->label,
                                   (long long)s->lineno, TT_SRC_MAX_LINE >> 20);
        if (n + take + 1 > s->line_cap) {
            size_t cap = s->line_cap ? s->line_cap : 4096;
            while (cap < n + take + 1)
                cap *= 2;
            char *nb = (char *)realloc(s->line, cap);
            if (!nb)
                return s->err = tt_err(ctx, TT_ENOMEM, "%s: out of memory", s->label);
            s->line = nb;
            s->line_cap = cap;
        }
        memcpy(s->line + n, p, take);
        n += take;
        s->out_pos += take + (nl ? 1 : 0);
        if (nl)
            break;
    }
    if (!s->line && !(s->line = (char *)malloc(s->line_cap = 4096)))
        return s->err = tt_err(ctx, TT_ENOMEM, "%s: out of memory", s->label);
    if (n > 0 && s->line[n - 1] == '\r')
        n--;
    s->line[n] = '\0';
    *line = s->line;
    if (len)
        *len = n;
    return 1;
}

void tt_src_ungetline(tt_src *s)
{
    if (s->line)
        s->replay = 1;
}

int tt_src_peekc(tt_src *s, tt_ctx *ctx)
{
    if (s->err)
        return -1 + s->err;
    if (s->out_pos == s->out_len) {
        int rc = out_fill(s, ctx);
        if (rc) {
            s->err = rc;
            return -1 + rc;
        }
        if (s->out_len == 0)
            return -1;
    }
    return s->out[s->out_pos];
}

int tt_src_getc(tt_src *s, tt_ctx *ctx)
{
    int c = tt_src_peekc(s, ctx);
    if (c < 0)
        return c;
    if (s->at_line_start) {
        s->lineno++;
        s->at_line_start = 0;
    }
    s->out_pos++;
    if (c == '\n')
        s->at_line_start = 1;
    return c;
}

int tt_src_finish(tt_src *s, tt_ctx *ctx, char hex[65])
{
    while (!s->raw_eof) {
        s->raw_pos = s->raw_len; /* the decoder no longer needs them */
        int rc = raw_fill(s, ctx);
        if (rc)
            return rc;
    }
    tt_sha256_hex(&s->sha, hex);
    return 0;
}
