/* A trace's parents by name (SPEC 12.7: text traces name them) turned into
 * row indices, once every row is in; and the keyed row lookup that does
 * it (trace/rowkey.h). */
#include <stdlib.h>

#include "trace/rowkey.h"
#include "tt/trace.h"

static int key_cmp(const void *pa, const void *pb)
{
    const tt_rowkey *a = (const tt_rowkey *)pa, *b = (const tt_rowkey *)pb;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

void tt_rowkeys_sort(tt_rowkey *k, int64_t n) { qsort(k, (size_t)n, sizeof *k, key_cmp); }

int64_t tt_rowkeys_lower(const tt_rowkey *k, int64_t n, int64_t a, int64_t b)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k[mid].a < a || (k[mid].a == a && k[mid].b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int64_t tt_rowkeys_find(const tt_rowkey *k, int64_t n, int64_t a, int64_t b)
{
    int64_t at = tt_rowkeys_lower(k, n, a, b);
    return at < n && k[at].a == a && k[at].b == b ? k[at].row : -1;
}

/* The row named name: in workflow wf, else the first of any (-1: none). */
static int64_t find_row(const tt_rowkey *k, int64_t n, int32_t name, int64_t wf)
{
    int64_t row = tt_rowkeys_find(k, n, name, wf);
    if (row >= 0)
        return row;
    /* A name with many rows in other workflows only is scanned whole; the
     * names of one trace's rows rarely repeat that much. */
    for (int64_t at = tt_rowkeys_lower(k, n, name, INT64_MIN); at < n && k[at].a == name; at++)
        if (row < 0 || k[at].row < row)
            row = k[at].row;
    return row;
}

int tt_trace_link_deps(tt_ctx *ctx, tt_trace *t, int64_t *bad_row)
{
    *bad_row = -1;
    if (!t->deps_named)
        return 0;
    int64_t n = 0;
    tt_rowkey *k = (tt_rowkey *)malloc((size_t)(t->n ? t->n : 1) * sizeof *k);
    if (!k)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; i < t->n; i++)
        if (t->name[i] >= 0)
            k[n++] = (tt_rowkey){t->name[i], t->wf ? t->wf[i] : -1, i};
    tt_rowkeys_sort(k, n);
    int rc = 0;
    for (int64_t i = 0; i < t->n && !rc; i++)
        for (int64_t d = t->dep_off[i]; d < t->dep_off[i + 1] && !rc; d++) {
            int32_t name = t->deps[d];
            int64_t row = find_row(k, n, name, t->wf ? t->wf[i] : -1);
            if (row < 0) {
                *bad_row = i;
                rc = tt_err(ctx, TT_EPARSE, "no job is named '%s'",
                            tt_strtab_get(t->names, name));
            } else {
                t->deps[d] = (int32_t)row;
            }
        }
    free(k);
    if (!rc)
        t->deps_named = 0;
    return rc;
}
