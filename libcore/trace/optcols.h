/* The optional scalar columns of a trace (SPEC 10.6, 12.7) as one table,
 * so that growing, sorting, comparing, writing and reading treat them
 * alike. The deps CSR (dep_off, deps) is handled apart. */
#ifndef TT_OPTCOLS_H
#define TT_OPTCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "tt/trace.h"

typedef struct {
    unsigned bit;      /* TT_COL_* */
    const char *name;  /* dataset and header name */
    size_t off;        /* of the column pointer in tt_trace */
    size_t job_off;    /* of the value in tt_job */
    int size;          /* bytes per value: 1, 4 or 8 */
    int64_t absent;    /* the value of a row without it */
    const char *units; /* the dataset's units attribute */
} tt_optcol;

#define TT_NOPTCOLS 7
extern const tt_optcol tt_optcols[TT_NOPTCOLS];

/* The column's array in t (NULL when t lacks it). */
static inline void **tt_optcol_arr(const tt_trace *t, const tt_optcol *c)
{
    return (void **)((char *)(uintptr_t)t + c->off);
}

/* Value i of an array of c->size-byte integers. */
static inline int64_t tt_optcol_get(const tt_optcol *c, const void *a, int64_t i)
{
    switch (c->size) {
    case 1: return ((const int8_t *)a)[i];
    case 4: return ((const int32_t *)a)[i];
    default: return ((const int64_t *)a)[i];
    }
}

static inline void tt_optcol_set(const tt_optcol *c, void *a, int64_t i, int64_t v)
{
    switch (c->size) {
    case 1: ((int8_t *)a)[i] = (int8_t)v; break;
    case 4: ((int32_t *)a)[i] = (int32_t)v; break;
    default: ((int64_t *)a)[i] = v; break;
    }
}

/* The job's value of c. */
static inline int64_t tt_optcol_job(const tt_optcol *c, const tt_job *j)
{
    return tt_optcol_get(c, (const char *)j + c->job_off, 0);
}

#endif
