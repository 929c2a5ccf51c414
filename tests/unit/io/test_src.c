/* Input streams: lines, CRLF, compression, bad bytes, SHA-256. */
#include <lzma.h>
#include <zlib.h>

#include "base/sha256.h"
#include "io/src.h"
#include "testutil.h"

static char *all_lines(const void *buf, size_t n, int *rc_out)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    cr_assert_eq(tt_src_open_mem(ctx, buf, n, "t", &s), 0);
    static char out[1 << 16];
    out[0] = '\0';
    char *line;
    int rc;
    while ((rc = tt_src_getline(s, ctx, &line, NULL)) == 1) {
        strcat(out, line);
        strcat(out, "|");
    }
    *rc_out = rc;
    tt_src_close(s);
    tt_ctx_free(ctx);
    return out;
}

Test(src, lines_crlf_and_last_line)
{
    int rc;
    cr_expect_str_eq(all_lines("a\nb\r\n\nc", 7, &rc), "a|b||c|");
    cr_expect_eq(rc, 0);
    cr_expect_str_eq(all_lines("a\n", 2, &rc), "a|");
    cr_expect_str_eq(all_lines("", 0, &rc), "");
    cr_expect_eq(rc, 0);
}

Test(src, nul_byte_is_an_error_with_line)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    tt_src_open_mem(ctx, "ok\nbad\0x\n", 9, "g.csv", &s);
    char *line;
    cr_expect_eq(tt_src_getline(s, ctx, &line, NULL), 1);
    cr_expect_eq(tt_src_getline(s, ctx, &line, NULL), TT_EPARSE);
    cr_expect(strstr(tt_errmsg(ctx), "g.csv:2: binary data") != NULL, "%s", tt_errmsg(ctx));
    tt_src_close(s);
    tt_ctx_free(ctx);
}

Test(src, ungetline_replays)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    tt_src_open_mem(ctx, "h\nx\n", 4, "t", &s);
    char *line;
    tt_src_getline(s, ctx, &line, NULL);
    tt_src_ungetline(s);
    cr_expect_eq(tt_src_getline(s, ctx, &line, NULL), 1);
    cr_expect_str_eq(line, "h");
    cr_expect_eq(tt_src_lineno(s), 1);
    tt_src_getline(s, ctx, &line, NULL);
    cr_expect_str_eq(line, "x");
    tt_src_close(s);
    tt_ctx_free(ctx);
}

static size_t gzip_buf(const char *in, size_t n, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    size_t len = cap - z.avail_out;
    deflateEnd(&z);
    return len;
}

Test(src, gzip_plain_concatenated_and_truncated)
{
    unsigned char gz[4096];
    size_t n1 = gzip_buf("a,1\nb,2\n", 8, gz, sizeof gz);
    size_t n2 = gzip_buf("c,3", 3, gz + n1, sizeof gz - n1);
    int rc;
    cr_expect_str_eq(all_lines(gz, n1, &rc), "a,1|b,2|");
    cr_expect_eq(rc, 0);
    cr_expect_str_eq(all_lines(gz, n1 + n2, &rc), "a,1|b,2|c,3|");
    cr_expect_eq(rc, 0);
    all_lines(gz, n1 - 5, &rc);
    cr_expect_eq(rc, TT_EPARSE, "truncated gzip must fail");
    unsigned char bad[4096];
    memcpy(bad, gz, n1);
    bad[n1 / 2] ^= 0xff;
    all_lines(bad, n1, &rc);
    cr_expect_eq(rc, TT_EPARSE, "corrupt gzip must fail");
}

Test(src, xz_and_truncated_xz)
{
    const char *text = "x\ny\nz\n";
    uint8_t xz[4096];
    size_t pos = 0;
    cr_assert_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text, 6, xz,
                                         &pos, sizeof xz),
                 LZMA_OK);
    int rc;
    cr_expect_str_eq(all_lines(xz, pos, &rc), "x|y|z|");
    cr_expect_eq(rc, 0);
    all_lines(xz, pos - 3, &rc);
    cr_expect_eq(rc, TT_EPARSE);
}

static void hex_of(const char *data, size_t n, char hex[65])
{
    tt_sha256 s;
    tt_sha256_init(&s);
    tt_sha256_update(&s, data, n);
    tt_sha256_hex(&s, hex);
}

Test(sha256, fips_vectors)
{
    char hex[65];
    hex_of("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(m, strlen(m), hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', fed in uneven pieces */
    tt_sha256 s;
    tt_sha256_init(&s);
    char a[1100];
    memset(a, 'a', sizeof a);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t k = step < left ? step : left;
        tt_sha256_update(&s, a, k);
        left -= k;
        step = step % 997 + 13;
    }
    tt_sha256_hex(&s, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(src, digest_covers_whole_file_even_unread)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    tt_src_open_mem(ctx, "abc", 3, "t", &s);
    char hex[65];
    cr_expect_eq(tt_src_finish(s, ctx, hex), 0);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    tt_src_close(s);
    tt_ctx_free(ctx);
}

Test(src, open_missing_file)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    cr_expect_eq(tt_src_open(ctx, "/nonexistent/x.csv", &s), TT_EIO);
    cr_expect(strstr(tt_errmsg(ctx), "cannot open '/nonexistent/x.csv'") != NULL);
    tt_ctx_free(ctx);
}

Test(src, utf8_bom_is_skipped_once)
{
    int rc;
    cr_expect_str_eq(all_lines("\xEF\xBB\xBFh,x\n\xEF\xBB\xBF", 10, &rc), "h,x|\xEF\xBB\xBF|",
                     "only the mark at the very start is dropped");
    cr_expect_eq(rc, 0);
    cr_expect_str_eq(all_lines("\xEF\xBB\xBF", 3, &rc), "", "a file of just the mark is empty");
    cr_expect_eq(rc, 0);
    /* byte access sees it gone too, so -f auto still finds a JSON '[' */
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s;
    tt_src_open_mem(ctx, "\xEF\xBB\xBF[]", 5, "t", &s);
    cr_expect_eq(tt_src_peekc(s, ctx), '[');
    tt_src_close(s);
    tt_src_open_mem(ctx, "\xEF\xBB\xBF", 3, "t", &s);
    cr_expect_eq(tt_src_peekc(s, ctx), -1);
    tt_src_close(s);
    tt_ctx_free(ctx);
}

Test(src, empty_input_names_line_one)
{
    expect_ingest_fail("philly-csv", "", "mem.txt:1: empty input: no header line");
    expect_ingest_fail("philly-csv", "\n\n", "mem.txt:2: empty input: no header line");
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = ingest_text(ctx, "auto",
                              "\xEF\xBB\xBFtimestamp,duration,num_gpus,gpu_time,cluster\n"
                              "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n");
    cr_expect_not_null(t, "a BOM before the header: %s", tt_errmsg(ctx));
    tt_trace_free(t);
    tt_ctx_free(ctx);
}
