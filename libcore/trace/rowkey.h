/* Rows found by a pair of integer keys, for linking parents to rows: the
 * name and workflow of a trace's row (deps.c), a workflow and task number
 * (ingest's alibaba2018). Sort once, then look up in O(log n). */
#ifndef TT_ROWKEY_H
#define TT_ROWKEY_H

#include <stdint.h>

typedef struct {
    int64_t a, b, row;
} tt_rowkey;

/* Sorts k[0 .. n) by (a, b, row). */
void tt_rowkeys_sort(tt_rowkey *k, int64_t n);
/* The first index of sorted k[0 .. n) at or after (a, b), or n. */
int64_t tt_rowkeys_lower(const tt_rowkey *k, int64_t n, int64_t a, int64_t b);
/* The lowest row with keys (a, b), or -1. */
int64_t tt_rowkeys_find(const tt_rowkey *k, int64_t n, int64_t a, int64_t b);

#endif
