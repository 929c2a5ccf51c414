/* tt/parse.h: strict number parsing for trace fields and command options.
 *
 * Each function parses the whole string or fails: no leading or trailing
 * space, no empty string, no partial number. They return 0, TT_EPARSE for
 * text that is not a number of the kind asked, or TT_ERANGE for a number
 * that does not fit. No context: callers add file, line and field names.
 * Thread-safe (they do not depend on the locale).
 */
#ifndef TT_PARSE_H
#define TT_PARSE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Decimal integer with optional sign: "42", "-7". */
int tt_parse_i64(const char *s, int64_t *out);
/* Like tt_parse_i64 but the result must fit in int32_t. */
int tt_parse_i32(const char *s, int32_t *out);
/* Finite decimal number: "1.5", "-2e3", "66.0"; no "nan", "inf", hex. */
int tt_parse_f64(const char *s, double *out);
/* A number that stands for a whole quantity, written as an integer or as a
 * float ("66", "66.0", "193256.4"): rounded to the nearest integer, halves
 * away from zero. This is how traces store integral seconds as floats. */
int tt_parse_round(const char *s, int64_t *out);
/* A number scaled by 1000 and rounded to the nearest integer, halves away
 * from zero: "0.25" -> 250. Used for fractional GPUs in permille. */
int tt_parse_milli(const char *s, int64_t *out);
/* A range of indices "A:B" with 0 <= A < B ("0:1400"), each side a
 * decimal integer of at most 31 characters: TT_EPARSE when s is not two
 * such integers around a colon, TT_ERANGE when one does not fit in int64
 * or A < 0 or B <= A. */
int tt_parse_range(const char *s, int64_t *a, int64_t *b);
/* A positive duration: a decimal integer and its unit, s, m (minutes), h,
 * d or w (weeks): "7d" -> 604800, "12h", "90m", "3600s". TT_EPARSE when s
 * is not such a number and unit (no unit, another unit, a sign, a
 * fraction), TT_ERANGE when it is 0 or its seconds do not fit in int64. */
int tt_parse_duration(const char *s, int64_t *seconds);

/* 1 when s is a token that traces use for "no value": "", "NA", "N/A",
 * "None", "null", "NULL", "nan", "NaN" (case as listed). */
int tt_is_missing(const char *s);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
