/* Calendar times to UTC seconds, with time zones read from the system's
 * TZif files (/usr/share/zoneinfo, or $TZDIR) so naive local times in a
 * DST zone (Philly: US Pacific) convert exactly. */
#ifndef TT_TIMEPARSE_H
#define TT_TIMEPARSE_H

#include <stdint.h>

#include "tt/error.h"

typedef struct tt_tz tt_tz;

/* name: "UTC", a fixed offset ("+08:00", "-0700", "UTC+8"), or an IANA zone
 * name ("America/Los_Angeles"). 0 or TT_EINVAL with the reason in ctx. */
int tt_tz_open(tt_ctx *ctx, const char *name, tt_tz **out);
void tt_tz_free(tt_tz *tz);
const char *tt_tz_name(const tt_tz *tz);

enum { TT_TIME_AMBIGUOUS = 1, TT_TIME_GAP = 2 };

/* Parses "YYYY-MM-DD[ T]HH:MM[:SS[.fff]]" with an optional zone suffix
 * ("Z", "+08:00", "+0800", "+08") into UTC epoch seconds (fractions are
 * truncated toward the earlier second). A time without a suffix is local to
 * tz (UTC if tz is NULL); *flags then gets TT_TIME_AMBIGUOUS for a time in
 * a fall-back hour (the first, daylight, occurrence is taken) or
 * TT_TIME_GAP for one that a spring-forward skipped (moved forward by the
 * gap). Returns 0 or TT_EPARSE. */
int tt_time_parse(const char *s, const tt_tz *tz, int64_t *out, int *flags);

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d. */
int64_t tt_days_from_civil(int64_t y, int m, int d);

#endif
