/* Field splitting and calendar times with zones. */
#include "base/csv.h"
#include "io/timeparse.h"
#include "testutil.h"

Test(csv, split_quotes_and_empties)
{
    char line[] = "a,\"b,c\",,\"d\"\"e\",";
    char *f[8];
    cr_assert_eq(tt_csv_split(line, ',', f, 8), 5);
    cr_expect_str_eq(f[0], "a");
    cr_expect_str_eq(f[1], "b,c");
    cr_expect_str_eq(f[2], "");
    cr_expect_str_eq(f[3], "d\"e");
    cr_expect_str_eq(f[4], "");
    char bad[] = "a,\"open";
    cr_expect_eq(tt_csv_split(bad, ',', f, 8), -1);
    char many[] = "1,2,3,4";
    cr_expect_eq(tt_csv_split(many, ',', f, 2), 4, "count beyond max is still reported");
    char ws[] = "  1 \t 2  3 ";
    cr_expect_eq(tt_ws_split(ws, f, 8), 3);
    cr_expect_str_eq(f[2], "3");
}

static int64_t t_of(const char *s, const char *zone, int *flags)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_tz *tz = NULL;
    if (zone)
        cr_assert_eq(tt_tz_open(ctx, zone, &tz), 0, "%s", tt_errmsg(ctx));
    int64_t v = 0;
    int f = 0;
    cr_assert_eq(tt_time_parse(s, tz, &v, &f), 0, "parse %s", s);
    if (flags)
        *flags = f;
    tt_tz_free(tz);
    tt_ctx_free(ctx);
    return v;
}

Test(time, utc_and_offsets)
{
    cr_expect_eq(t_of("1970-01-01 00:00:00", NULL, NULL), 0);
    cr_expect_eq(t_of("2000-03-01 00:00:00", NULL, NULL), 951868800);
    cr_expect_eq(t_of("2023-03-01 00:18:22+08:00", NULL, NULL), 1677601102);
    cr_expect_eq(t_of("2023-05-17 11:00:58+00:00", NULL, NULL), 1684321258);
    cr_expect_eq(t_of("2023-05-17T11:00:58Z", NULL, NULL), 1684321258);
    cr_expect_eq(t_of("2023-05-17 11:00:58.75", NULL, NULL), 1684321258);
    cr_expect_eq(t_of("1969-12-31 23:59:59", NULL, NULL), -1);
    cr_expect_eq(t_of("2020-06-09 18:41:01", "Asia/Shanghai", NULL), 1591699261);
    cr_expect_eq(t_of("2020-06-09 18:41:01", "+08:00", NULL), 1591699261);
}

Test(time, pacific_dst)
{
    int f;
    /* 2017-10-07 01:11:39 PDT = 08:11:39 UTC */
    cr_expect_eq(t_of("2017-10-07 01:11:39", "America/Los_Angeles", &f), 1507363899);
    cr_expect_eq(f, 0);
    /* fall back 2017-11-05: 01:30 happens twice; the first (PDT, UTC-7) is taken */
    cr_expect_eq(t_of("2017-11-05 01:30:00", "America/Los_Angeles", &f), 1509870600);
    cr_expect_eq(f, TT_TIME_AMBIGUOUS);
    /* spring forward 2017-03-12: 02:30 does not exist; moved to 03:30 PDT */
    cr_expect_eq(t_of("2017-03-12 02:30:00", "America/Los_Angeles", &f), 1489314600);
    cr_expect_eq(f, TT_TIME_GAP);
    /* winter: PST, UTC-8 */
    cr_expect_eq(t_of("2017-12-22 08:02:11", "America/Los_Angeles", &f), 1513958531);
}

Test(time, rejects_bad_dates)
{
    int64_t v;
    const char *bad[] = {"2017-02-29 00:00:00", "2017-13-01 00:00:00", "2017-04-31 00:00:00",
                         "2017-01-01 24:00:00", "2017-01-01",          "2017-01-01 00:00:00 PDT",
                         "17-01-01 00:00:00",   "2017-01-01 00:00:00+25:00", "garbage"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(tt_time_parse(bad[i], NULL, &v, NULL), TT_EPARSE, "%s", bad[i]);
    cr_expect_eq(tt_time_parse("2016-02-29 00:00:00", NULL, &v, NULL), 0);
}

Test(time, unknown_zone)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_tz *tz;
    cr_expect_eq(tt_tz_open(ctx, "Mars/Olympus", &tz), TT_EINVAL);
    cr_expect(strstr(tt_errmsg(ctx), "unknown time zone 'Mars/Olympus'") != NULL);
    cr_expect_eq(tt_tz_open(ctx, "../../etc/passwd", &tz), TT_EINVAL);
    tt_ctx_free(ctx);
}

Test(time, days_from_civil)
{
    cr_expect_eq(tt_days_from_civil(1970, 1, 1), 0);
    cr_expect_eq(tt_days_from_civil(2000, 2, 29), 11016);
    cr_expect_eq(tt_days_from_civil(1600, 1, 1), -135140);
}
