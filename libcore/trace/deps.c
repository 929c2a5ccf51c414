/* A trace's parents by name (SPEC 12.7: text traces name them) turned into
 * row indices, once every row is in. */
#include <stdlib.h>

#include "tt/trace.h"

typedef struct {
    int32_t name;
    int64_t wf, row;
} name_key;

static int key_cmp(const void *pa, const void *pb)
{
    const name_key *a = (const name_key *)pa, *b = (const name_key *)pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->wf != b->wf)
        return a->wf < b->wf ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* The first key at or after (name, wf, -inf) in k[0 .. n), or n. */
static int64_t lower(const name_key *k, int64_t n, int32_t name, int64_t wf)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k[mid].name < name || (k[mid].name == name && k[mid].wf < wf))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The row named name: in workflow wf, else the first of any (-1: none). */
static int64_t find_row(const name_key *k, int64_t n, int32_t name, int64_t wf)
{
    int64_t at = lower(k, n, name, wf);
    if (at < n && k[at].name == name && k[at].wf == wf)
        return k[at].row;
    int64_t first = -1;
    for (at = lower(k, n, name, INT64_MIN); at < n && k[at].name == name; at++)
        if (first < 0 || k[at].row < first)
            first = k[at].row;
    return first;
}

int tt_trace_link_deps(tt_ctx *ctx, tt_trace *t, int64_t *bad_row)
{
    *bad_row = -1;
    if (!t->deps_named)
        return 0;
    int64_t n = 0;
    name_key *k = (name_key *)malloc((size_t)(t->n ? t->n : 1) * sizeof *k);
    if (!k)
        return tt_err(ctx, TT_ENOMEM, "out of memory");
    for (int64_t i = 0; i < t->n; i++)
        if (t->name[i] >= 0)
            k[n++] = (name_key){t->name[i], t->wf ? t->wf[i] : -1, i};
    qsort(k, (size_t)n, sizeof *k, key_cmp);
    int rc = 0;
    /* A name with many rows in other workflows only is scanned whole; the
     * names of one trace's rows rarely repeat that much. */
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
