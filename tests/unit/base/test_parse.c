/* Strict number parsing. */
#include "testutil.h"
#include "tt/error.h"
#include "tt/parse.h"

Test(parse, integers)
{
    int64_t v;
    cr_expect_eq(tt_parse_i64("42", &v), 0);
    cr_expect_eq(v, 42);
    cr_expect_eq(tt_parse_i64("-9223372036854775808", &v), 0);
    cr_expect_eq(v, INT64_MIN);
    cr_expect_eq(tt_parse_i64("9223372036854775808", &v), TT_ERANGE);
    cr_expect_eq(tt_parse_i64("", &v), TT_EPARSE);
    cr_expect_eq(tt_parse_i64(" 1", &v), TT_EPARSE);
    cr_expect_eq(tt_parse_i64("1 ", &v), TT_EPARSE);
    cr_expect_eq(tt_parse_i64("1.0", &v), TT_EPARSE);
    cr_expect_eq(tt_parse_i64("0x10", &v), TT_EPARSE);
    cr_expect_eq(tt_parse_i64("+", &v), TT_EPARSE);
    int32_t w;
    cr_expect_eq(tt_parse_i32("2147483648", &w), TT_ERANGE);
    cr_expect_eq(tt_parse_i32("-2147483648", &w), 0);
}

Test(parse, floats_and_rounding)
{
    double d;
    int64_t v;
    cr_expect_eq(tt_parse_f64("1.5e3", &d), 0);
    cr_expect_eq(d, 1500.0);
    cr_expect_eq(tt_parse_f64("nan", &d), TT_EPARSE);
    cr_expect_eq(tt_parse_f64("inf", &d), TT_EPARSE);
    cr_expect_eq(tt_parse_f64("1e999", &d), TT_ERANGE);
    cr_expect_eq(tt_parse_f64(".", &d), TT_EPARSE);
    cr_expect_eq(tt_parse_f64("1e", &d), TT_EPARSE);
    cr_expect_eq(tt_parse_round("66.0", &v), 0);
    cr_expect_eq(v, 66);
    cr_expect_eq(tt_parse_round("2.5", &v), 0);
    cr_expect_eq(v, 3);
    cr_expect_eq(tt_parse_round("-2.5", &v), 0);
    cr_expect_eq(v, -3);
    cr_expect_eq(tt_parse_milli("0.25", &v), 0);
    cr_expect_eq(v, 250);
    cr_expect_eq(tt_parse_milli("12.5", &v), 0);
    cr_expect_eq(v, 12500);
    cr_expect_eq(tt_parse_round("1e30", &v), TT_ERANGE);
}

Test(parse, missing_tokens)
{
    cr_expect(tt_is_missing(""));
    cr_expect(tt_is_missing("NA"));
    cr_expect(tt_is_missing("None"));
    cr_expect(tt_is_missing("null"));
    cr_expect(!tt_is_missing("0"));
    cr_expect(!tt_is_missing("n"));
}

Test(parse, ranges)
{
    int64_t a = -1, b = -1;
    cr_expect_eq(tt_parse_range("0:1400", &a, &b), 0);
    cr_expect(a == 0 && b == 1400, "%lld:%lld", (long long)a, (long long)b);
    cr_expect_eq(tt_parse_range("1399:1400", &a, &b), 0);
    cr_expect(a == 1399 && b == 1400);
    cr_expect_eq(tt_parse_range("5:5", &a, &b), TT_ERANGE);
    cr_expect_eq(tt_parse_range("5:2", &a, &b), TT_ERANGE);
    cr_expect_eq(tt_parse_range("-1:2", &a, &b), TT_ERANGE);
    cr_expect_eq(tt_parse_range("0:9223372036854775808", &a, &b), TT_ERANGE);
    cr_expect_eq(tt_parse_range("10", &a, &b), TT_EPARSE);
    cr_expect_eq(tt_parse_range("1:", &a, &b), TT_EPARSE);
    cr_expect_eq(tt_parse_range(":2", &a, &b), TT_EPARSE);
    cr_expect_eq(tt_parse_range("1:2:3", &a, &b), TT_EPARSE);
    cr_expect_eq(tt_parse_range(" 1:2", &a, &b), TT_EPARSE);
    /* a side of 32 characters is refused, one of 31 read */
    cr_expect_eq(tt_parse_range("00000000000000000000000000000001:2", &a, &b), TT_EPARSE);
    cr_expect_eq(tt_parse_range("0000000000000000000000000000001:2", &a, &b), 0);
    cr_expect(a == 1 && b == 2);
}

Test(parse, durations)
{
    int64_t v;
    const char *ok[] = {"7d", "12h", "3600s", "90m", "2w", "1s"};
    const int64_t want[] = {604800, 43200, 3600, 5400, 1209600, 1};
    for (int i = 0; i < 6; i++) {
        cr_expect_eq(tt_parse_duration(ok[i], &v), 0, "%s", ok[i]);
        cr_expect_eq(v, want[i], "%s: %lld", ok[i], (long long)v);
    }
    const char *bad[] = {"", "d", "7", "7D", "7 d", " 7d", "-7d", "+7d", "1.5d", "7dd", "7y", "0x7d"};
    for (int i = 0; i < 12; i++)
        cr_expect_eq(tt_parse_duration(bad[i], &v), TT_EPARSE, "%s", bad[i]);
    cr_expect_eq(tt_parse_duration("0d", &v), TT_ERANGE);
    cr_expect_eq(tt_parse_duration("9223372036854775807s", &v), 0);
    cr_expect_eq(tt_parse_duration("9223372036854775807m", &v), TT_ERANGE);
    cr_expect_eq(tt_parse_duration("99999999999999999999d", &v), TT_ERANGE);
}
