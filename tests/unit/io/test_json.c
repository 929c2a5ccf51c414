/* The streaming JSON reader: values, escapes, skipping, and errors with
 * file and line. */
#include "testutil.h"
#include "io/json.h"

typedef struct {
    tt_ctx *ctx;
    tt_src *src;
    tt_json js;
} reader;

static void open_text(reader *r, const char *text)
{
    r->ctx = tt_ctx_create();
    cr_assert_eq(tt_src_open_mem(r->ctx, text, strlen(text), "mem.json", &r->src), 0);
    tt_json_init(&r->js, r->src, r->ctx);
}

static void close_reader(reader *r)
{
    tt_json_free(&r->js);
    tt_src_close(r->src);
    tt_ctx_free(r->ctx);
}

/* Reads one scalar and checks its kind and text. */
static void expect_scalar(const char *text, int type, const char *want)
{
    reader r;
    open_text(&r, text);
    int got;
    cr_assert_eq(tt_json_read(&r.js, &got), 0, "%s: %s", text, tt_errmsg(r.ctx));
    cr_expect_eq(got, type, "%s: kind %d", text, got);
    if (want)
        cr_expect_str_eq(r.js.buf, want, "%s", text);
    close_reader(&r);
}

/* Skips one value and checks the error (NULL: none) and what follows. */
static void expect_skip(const char *text, const char *err)
{
    reader r;
    open_text(&r, text);
    int rc = tt_json_skip(&r.js);
    if (err) {
        cr_expect_eq(rc, TT_EPARSE, "%s: accepted", text);
        cr_expect(strstr(tt_errmsg(r.ctx), err) != NULL, "%s: message '%s' lacks '%s'", text,
                  tt_errmsg(r.ctx), err);
    } else {
        cr_expect_eq(rc, 0, "%s: %s", text, tt_errmsg(r.ctx));
    }
    close_reader(&r);
}

Test(json, scalars)
{
    expect_scalar("  null", TT_JSON_NULL, NULL);
    expect_scalar("true", TT_JSON_TRUE, NULL);
    expect_scalar("\n\tfalse ", TT_JSON_FALSE, NULL);
    expect_scalar("0", TT_JSON_NUMBER, "0");
    expect_scalar("-12.50e+3", TT_JSON_NUMBER, "-12.50e+3");
    expect_scalar("1E-2", TT_JSON_NUMBER, "1E-2");
    expect_scalar("\"\"", TT_JSON_STRING, "");
    expect_scalar("\"plain text\"", TT_JSON_STRING, "plain text");
}

Test(json, string_escapes)
{
    expect_scalar("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", TT_JSON_STRING, "a\"b\\c/d\b\f\n\r\t");
    /* U+00E9 is C3 A9; U+20AC is E2 82 AC; U+1F600 (D83D DE00) is F0 9F 98 80 */
    expect_scalar("\"\\u00e9\\u20AC\\ud83d\\ude00\"", TT_JSON_STRING,
                  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    expect_scalar("\"\\u0041\\u007f\"", TT_JSON_STRING, "A\x7f");
    /* raw UTF-8 passes through */
    expect_scalar("\"\xc3\xa9\"", TT_JSON_STRING, "\xc3\xa9");
}

Test(json, containers_are_opened)
{
    reader r;
    open_text(&r, "{\"k\": [1, \"two\", {}], \"e\": []}");
    int type;
    int64_t nk = 0, ne = 0;
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    cr_assert_eq(type, TT_JSON_OBJECT);
    cr_assert_eq(tt_json_next_key(&r.js, &nk), 1);
    cr_expect_str_eq(r.js.buf, "k");
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    cr_assert_eq(type, TT_JSON_ARRAY);
    cr_assert_eq(tt_json_next_elem(&r.js, &ne), 1);
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    cr_expect_eq(type, TT_JSON_NUMBER);
    cr_expect_str_eq(r.js.buf, "1");
    cr_assert_eq(tt_json_next_elem(&r.js, &ne), 1);
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    cr_expect_str_eq(r.js.buf, "two");
    cr_assert_eq(tt_json_next_elem(&r.js, &ne), 1);
    cr_assert_eq(tt_json_skip(&r.js), 0);
    cr_assert_eq(tt_json_next_elem(&r.js, &ne), 0);
    cr_expect_eq(ne, 3);
    cr_assert_eq(tt_json_next_key(&r.js, &nk), 1);
    cr_expect_str_eq(r.js.buf, "e");
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    ne = 0;
    cr_assert_eq(tt_json_next_elem(&r.js, &ne), 0);
    cr_expect_eq(ne, 0);
    cr_assert_eq(tt_json_next_key(&r.js, &nk), 0);
    cr_expect_eq(nk, 2);
    int c;
    cr_assert_eq(tt_json_peek(&r.js, &c), 0);
    cr_expect_eq(c, -1);
    close_reader(&r);
}

Test(json, skip_accepts_valid_values)
{
    expect_skip("{\"a\": [1, -0.5, 2e10, true, false, null, {\"b\": {\"c\": [[]]}}], \"\": \"\"}",
                NULL);
    expect_skip("[ ]", NULL);
    expect_skip("{ }", NULL);
    expect_skip("\"\\u0000 is fine when skipped\"", NULL);
    expect_skip("[\"\\ud83d\\ude00\", \"\\\"\"]", NULL);
}

Test(json, malformed_values)
{
    expect_skip("", "unexpected end of input");
    expect_skip("[1, 2", "unexpected end of input (truncated?), expected ',' or ']'");
    expect_skip("[1 2]", "expected ',' or ']' after an array element, got '2'");
    expect_skip("[1,]", "expected a value, got ']'");
    expect_skip("[,1]", "expected a value, got ','");
    expect_skip("{\"a\" 1}", "expected ':' after an object key, got '1'");
    expect_skip("{\"a\": 1,}", "expected a string key, got '}'");
    expect_skip("{a: 1}", "expected a string key, got 'a'");
    expect_skip("{'a': 1}", "expected a string key, got '''");
    expect_skip("[1}", "expected ',' or ']' after an array element, got '}'");
    expect_skip("{\"a\": 1]", "expected ',' or '}' after an object member, got ']'");
    expect_skip("\"abc", "unterminated string");
    expect_skip("\"a\tb\"", "control character (byte 0x09)");
    expect_skip("\"\\x\"", "invalid escape '\\' followed by 'x'");
    expect_skip("\"\\u12g4\"", "expected 4 hex digits after '\\u', got 'g'");
    expect_skip("\"\\ud83d\"", "high surrogate \\uD83D not followed by a low one");
    expect_skip("\"\\ud83d\\u0041\"", "followed by \\u0041, not a low one");
    expect_skip("\"\\ude00\"", "unpaired low surrogate \\uDE00");
    expect_skip("tru", "unknown literal 'tru'");
    expect_skip("nulll", "unknown literal 'nulll'");
    expect_skip("True", "expected a value, got 'T'");
    expect_skip("-", "expected a digit after '-' in a number");
    expect_skip("-a", "expected a digit after '-' in a number, got 'a'");
    expect_skip("1.", "a digit after '.' in a number");
    expect_skip("1.e5", "a digit after '.' in a number, got 'e'");
    expect_skip("1e", "a digit after the exponent in a number");
    expect_skip("1e+", "a digit after the exponent in a number");
    expect_skip("+1", "expected a value, got '+'");
    expect_skip(".5", "expected a value, got '.'");
    expect_skip("\x01", "expected a value, got byte 0x01");
}

Test(json, kept_string_limits)
{
    reader r;
    open_text(&r, "\"a\\u0000b\"");
    int type;
    cr_expect_eq(tt_json_read(&r.js, &type), TT_EPARSE);
    cr_expect(strstr(tt_errmsg(r.ctx), "\\u0000") != NULL, "%s", tt_errmsg(r.ctx));
    close_reader(&r);
}

Test(json, nesting_limit)
{
    static char deep[2 * 300 + 1];
    memset(deep, '[', 300);
    memset(deep + 300, ']', 300);
    expect_skip(deep, "nested deeper than 256 levels");
    memset(deep, 0, sizeof deep);
    memset(deep, '[', 200);
    memset(deep + 200, ']', 200);
    expect_skip(deep, NULL);
}

Test(json, errors_name_file_and_line)
{
    expect_skip("[\n  1,\n  2\n  3\n]", "mem.json:4: malformed JSON: expected ',' or ']'");
    expect_skip("{\n\"a\":\n\"line three\n\"}", "mem.json:3: malformed JSON: control character");
    expect_skip("[\r\n1,\r\n\r\n", "mem.json:3: malformed JSON: unexpected end of input");
}

Test(json, numbers_end_at_delimiters)
{
    reader r;
    open_text(&r, "[0,-0.0,12e-1]");
    int type;
    int64_t n = 0;
    const char *want[] = {"0", "-0.0", "12e-1"};
    cr_assert_eq(tt_json_read(&r.js, &type), 0);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(tt_json_next_elem(&r.js, &n), 1);
        cr_assert_eq(tt_json_read(&r.js, &type), 0, "%s", tt_errmsg(r.ctx));
        cr_expect_str_eq(r.js.buf, want[i]);
    }
    cr_expect_eq(tt_json_next_elem(&r.js, &n), 0);
    close_reader(&r);
    /* "01" is a 0 followed by a stray 1 */
    expect_skip("[01]", "expected ',' or ']' after an array element, got '1'");
}
