/* Strict, locale-free number parsing. */
#include "tt/parse.h"

#include "tt/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int tt_parse_i64(const char *s, int64_t *out)
{
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = (*p++ == '-');
    if (!is_digit(*p))
        return TT_EPARSE;
    uint64_t v = 0;
    const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; is_digit(*p); p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (lim - d) / 10u) {
            while (is_digit(*p))
                p++;
            return *p ? TT_EPARSE : TT_ERANGE;
        }
        v = v * 10u + d;
    }
    if (*p)
        return TT_EPARSE;
    if (neg)
        *out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return 0;
}

int tt_parse_i32(const char *s, int32_t *out)
{
    int64_t v;
    int rc = tt_parse_i64(s, &v);
    if (rc)
        return rc;
    if (v < INT32_MIN || v > INT32_MAX)
        return TT_ERANGE;
    *out = (int32_t)v;
    return 0;
}

/* Checks the grammar [sign] digits [. digits] [e [sign] digits] with at least
 * one mantissa digit, so strtod never sees "inf", "nan", hex or spaces. */
static int decimal_syntax_ok(const char *p)
{
    int digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    while (is_digit(*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (is_digit(*p)) {
            p++;
            digits++;
        }
    }
    if (!digits)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!is_digit(*p))
            return 0;
        while (is_digit(*p))
            p++;
    }
    return *p == '\0';
}

int tt_parse_f64(const char *s, double *out)
{
    if (!decimal_syntax_ok(s))
        return TT_EPARSE;
    /* strtod honours the locale's decimal point; the tools never call
     * setlocale, so it is "." as in every trace. */
    char *end;
    double v = strtod(s, &end);
    if (*end)
        return TT_EPARSE;
    if (!isfinite(v))
        return TT_ERANGE;
    *out = v;
    return 0;
}

static int round_scaled(const char *s, double scale, int64_t *out)
{
    int64_t iv;
    if (scale == 1.0 && tt_parse_i64(s, &iv) == 0) {
        *out = iv; /* exact for integers beyond 2^53 */
        return 0;
    }
    double v;
    int rc = tt_parse_f64(s, &v);
    if (rc)
        return rc;
    v *= scale;
    if (!(v > -9.2e18 && v < 9.2e18))
        return TT_ERANGE;
    *out = (int64_t)llround(v);
    return 0;
}

int tt_parse_round(const char *s, int64_t *out) { return round_scaled(s, 1.0, out); }

int tt_parse_milli(const char *s, int64_t *out) { return round_scaled(s, 1000.0, out); }

int tt_parse_range(const char *s, int64_t *a, int64_t *b)
{
    char x[32], y[32];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof x || strlen(colon + 1) >= sizeof y)
        return TT_EPARSE;
    snprintf(x, sizeof x, "%.*s", (int)(colon - s), s);
    snprintf(y, sizeof y, "%s", colon + 1);
    int rc = tt_parse_i64(x, a);
    if (!rc)
        rc = tt_parse_i64(y, b);
    return rc ? rc : *a < 0 || *b <= *a ? TT_ERANGE : 0;
}

int tt_parse_duration(const char *s, int64_t *seconds)
{
    static const char units[] = "smhdw";
    static const int64_t scale[] = {1, 60, 3600, 86400, 604800};
    size_t n = strlen(s);
    const char *u = n > 1 ? strchr(units, s[n - 1]) : NULL;
    char num[32];
    if (!u || !*u || n - 1 >= sizeof num || !is_digit(s[0]))
        return TT_EPARSE;
    snprintf(num, sizeof num, "%.*s", (int)(n - 1), s);
    int64_t v;
    int rc = tt_parse_i64(num, &v);
    if (rc)
        return rc;
    int64_t k = scale[u - units];
    if (v == 0 || v > INT64_MAX / k)
        return TT_ERANGE;
    *seconds = v * k;
    return 0;
}

int tt_is_missing(const char *s)
{
    /* Every token is empty or starts with N or n: most fields end here. */
    if (*s == '\0')
        return 1;
    if (*s != 'N' && *s != 'n')
        return 0;
    static const char *const tokens[] = {"", "NA", "N/A", "None", "none", "null",
                                         "NULL", "nan", "NaN"};
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
        if (strcmp(s, tokens[i]) == 0)
            return 1;
    return 0;
}
