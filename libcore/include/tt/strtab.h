/* Interned strings: each distinct string once, known by a small integer
 * code (job names, users, virtual clusters, model classes of a trace). Not
 * thread-safe: one table, one writer. */
#ifndef TT_STRTAB_H
#define TT_STRTAB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

/* Code i is the i-th distinct string added. */
typedef struct tt_strtab tt_strtab;
/* An empty table, or NULL when out of memory; free with tt_strtab_free
 * (NULL is accepted). */
tt_strtab *tt_strtab_create(void);
void tt_strtab_free(tt_strtab *t);
/* The code of s (added if new); s is copied. Returns >= 0, or TT_ENOMEM. */
int32_t tt_strtab_intern(tt_strtab *t, const char *s);
/* The code of s, or -1 when s is not in the table. */
int32_t tt_strtab_find(const tt_strtab *t, const char *s);
/* The string with code i (NULL for i out of range). Owned by the table. */
const char *tt_strtab_get(const tt_strtab *t, int32_t i);
int32_t tt_strtab_count(const tt_strtab *t);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif
