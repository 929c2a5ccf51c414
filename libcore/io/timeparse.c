/* Calendar-time parsing and TZif (RFC 8536) time zones. */
#include "io/timeparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tt_tz {
    char name[128];
    int32_t fixed;   /* offset east of UTC in seconds when ntrans == 0 */
    int64_t ntrans;
    int64_t *trans;  /* transition times, UTC seconds, ascending */
    int32_t *toff;   /* offset in effect from trans[i] on */
    int32_t first;   /* offset before the first transition */
    int32_t offs[16]; /* distinct offsets of the zone */
    int noffs;
};

int64_t tt_days_from_civil(int64_t y, int m, int d)
{
    /* Shift the year to start in March so Feb 29 is the last day; then an
     * era is 400 years = 146097 days. */
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int digits(const char **pp, int n, int *out)
{
    const char *p = *pp;
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    *pp = p + n;
    *out = v;
    return 0;
}

/* "+HH[:MM]" or "+HHMM" at *pp; sets seconds east. */
static int parse_offset(const char **pp, int32_t *off)
{
    const char *p = *pp;
    int sign = *p == '-' ? -1 : 1, h, m = 0;
    if (*p != '+' && *p != '-')
        return -1;
    p++;
    if (digits(&p, 2, &h))
        return -1;
    if (*p == ':') {
        p++;
        if (digits(&p, 2, &m))
            return -1;
    } else if (p[0] >= '0' && p[0] <= '9') {
        if (digits(&p, 2, &m))
            return -1;
    }
    if (h > 18 || m > 59)
        return -1;
    *off = sign * (h * 3600 + m * 60);
    *pp = p;
    return 0;
}

static int32_t offset_at(const tt_tz *tz, int64_t utc)
{
    if (tz->ntrans == 0)
        return tz->fixed;
    if (utc < tz->trans[0])
        return tz->first;
    int64_t lo = 0, hi = tz->ntrans - 1; /* last transition <= utc */
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (tz->trans[mid] <= utc)
            lo = mid;
        else
            hi = mid - 1;
    }
    return tz->toff[lo];
}

static int64_t local_to_utc(const tt_tz *tz, int64_t local, int *flags)
{
    if (!tz || tz->ntrans == 0)
        return local - (tz ? tz->fixed : 0);
    int nvalid = 0;
    int64_t best = 0, earliest = INT64_MAX;
    for (int i = 0; i < tz->noffs; i++) {
        int64_t u = local - tz->offs[i];
        if (u < earliest)
            earliest = u;
        if (offset_at(tz, u) == tz->offs[i]) {
            if (!nvalid || u < best)
                best = u; /* two valid: fall-back hour, take the first */
            nvalid++;
        }
    }
    if (nvalid > 1)
        *flags |= TT_TIME_AMBIGUOUS;
    if (nvalid == 0) { /* skipped by a spring-forward: use the offset before it */
        *flags |= TT_TIME_GAP;
        best = local - offset_at(tz, earliest);
    }
    return best;
}

int tt_time_parse(const char *s, const tt_tz *tz, int64_t *out, int *flags)
{
    const char *p = s;
    int y, mo, d, h, mi, sec = 0;
    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) || *p++ != '-' ||
        digits(&p, 2, &d))
        return TT_EPARSE;
    if (*p != ' ' && *p != 'T')
        return TT_EPARSE;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
        return TT_EPARSE;
    if (*p == ':') {
        p++;
        if (digits(&p, 2, &sec))
            return TT_EPARSE;
        if (*p == '.') {
            p++;
            if (*p < '0' || *p > '9')
                return TT_EPARSE;
            while (*p >= '0' && *p <= '9')
                p++;
        }
    }
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
        h > 23 || mi > 59 || sec > 60)
        return TT_EPARSE;
    if (sec == 60)
        sec = 59; /* a leap second: POSIX time has no room for it */
    int64_t local = tt_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    int32_t off;
    int f = 0;
    if (*p == 'Z' && p[1] == '\0') {
        *out = local;
    } else if (*p == '+' || *p == '-') {
        if (parse_offset(&p, &off) || *p)
            return TT_EPARSE;
        *out = local - off;
    } else if (*p == '\0') {
        *out = local_to_utc(tz, local, &f);
    } else {
        return TT_EPARSE;
    }
    if (flags)
        *flags = f;
    return 0;
}

static int64_t be(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    if (n == 4)
        return (int64_t)(int32_t)(uint32_t)v;
    return (int64_t)v;
}

/* Loads a TZif file (version 2+ 64-bit block when present). */
static int load_tzif(tt_ctx *ctx, tt_tz *tz, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return tt_err(ctx, TT_EINVAL, "unknown time zone '%s' (no %s)", tz->name, path);
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (1u << 20)) {
                free(buf);
                fclose(fp);
                return tt_err(ctx, TT_EINVAL, "time zone file %s is too large", path);
            }
            unsigned char *nb = (unsigned char *)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return tt_err(ctx, TT_ENOMEM, "out of memory");
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    fclose(fp);
    int rc = tt_err(ctx, TT_EINVAL, "time zone file %s is not a valid TZif file", path);
    const unsigned char *p = buf, *endp = buf + len;
    int tsize = 4;
    for (int pass = 0; pass < 2; pass++) {
        if (endp - p < 44 || memcmp(p, "TZif", 4) != 0)
            goto out;
        int version = p[4];
        int64_t isut = be(p + 20, 4), isstd = be(p + 24, 4), leap = be(p + 28, 4),
                timecnt = be(p + 32, 4), typecnt = be(p + 36, 4), charcnt = be(p + 40, 4);
        if (isut < 0 || isstd < 0 || leap < 0 || timecnt < 0 || typecnt < 1 || typecnt > 256 ||
            charcnt < 0)
            goto out;
        int64_t body = timecnt * tsize + timecnt + typecnt * 6 + charcnt +
                       leap * (tsize + 4) + isstd + isut;
        if (endp - (p + 44) < body)
            goto out;
        if (pass == 0 && version >= '2') { /* skip the 32-bit block */
            p += 44 + body;
            tsize = 8;
            continue;
        }
        const unsigned char *tt = p + 44, *ti = tt + timecnt * tsize, *types = ti + timecnt;
        tz->trans = (int64_t *)malloc((size_t)(timecnt ? timecnt : 1) * sizeof(int64_t));
        tz->toff = (int32_t *)malloc((size_t)(timecnt ? timecnt : 1) * sizeof(int32_t));
        if (!tz->trans || !tz->toff) {
            rc = tt_err(ctx, TT_ENOMEM, "out of memory");
            goto out;
        }
        for (int64_t i = 0; i < timecnt; i++) {
            int idx = ti[i];
            if (idx >= typecnt)
                goto out;
            tz->trans[i] = be(tt + i * tsize, tsize);
            tz->toff[i] = (int32_t)be(types + idx * 6, 4);
        }
        tz->ntrans = timecnt;
        tz->first = (int32_t)be(types, 4);
        tz->fixed = tz->first;
        tz->noffs = 0;
        for (int64_t k = 0; k < typecnt && tz->noffs < 16; k++) {
            int32_t o = (int32_t)be(types + k * 6, 4);
            int seen = 0;
            for (int i = 0; i < tz->noffs; i++)
                seen |= tz->offs[i] == o;
            if (!seen)
                tz->offs[tz->noffs++] = o;
        }
        rc = 0;
        break;
    }
out:
    free(buf);
    return rc;
}

int tt_tz_open(tt_ctx *ctx, const char *name, tt_tz **out)
{
    *out = NULL;
    tt_tz *tz = (tt_tz *)calloc(1, sizeof *tz);
    if (!tz)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    snprintf(tz->name, sizeof tz->name, "%s", name);
    const char *p = name;
    if (strncmp(p, "UTC", 3) == 0 || strncmp(p, "GMT", 3) == 0)
        p += 3;
    int32_t off = 0;
    if (*p == '\0' || (parse_offset(&p, &off) == 0 && *p == '\0')) {
        tz->fixed = off;
        *out = tz;
        return 0;
    }
    if (!*name || name[0] == '/' || strstr(name, "..") || strlen(name) > 100) {
        free(tz);
        return tt_err(ctx, TT_EINVAL, "unknown time zone '%s'", name);
    }
    const char *dir = getenv("TZDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", name);
    int rc = load_tzif(ctx, tz, path);
    if (rc) {
        tt_tz_free(tz);
        return rc;
    }
    *out = tz;
    return 0;
}

void tt_tz_free(tt_tz *tz)
{
    if (!tz)
        return;
    free(tz->trans);
    free(tz->toff);
    free(tz);
}

const char *tt_tz_name(const tt_tz *tz) { return tz->name; }
