/* What the files of a simulation's configuration share (cluster.c,
 * models.c, params.c): the reader of the small TSV tables that cluster and
 * model files are, the bound on a model name, and how a value is quoted in
 * a message. */
#ifndef TT_SIM_SIMCONF_H
#define TT_SIM_SIMCONF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/shown.h"
#include "io/src.h"
#include "tt/sim.h"

/* Model names go into mix values (NAME:WEIGHT,...) and TSV columns. The
 * length bound keeps a formatted mix within TT_MAX_CLASSES * 75 bytes. */
#define NAME_MAX_LEN 63
#define MAX_FIELDS 64

/* ---- small TSV tables (cluster and model files; in cluster.c) ---- */

typedef struct {
    tt_ctx *ctx;
    tt_src *src;
    int nh;              /* header fields */
    char *f[MAX_FIELDS]; /* fields of the last line read */
} tt_conftab;

/* A TT_EPARSE error prefixed with "FILE:LINE: ". */
int tt_conftab_fail(tt_conftab *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Opens path (or takes the open source mem) and reads its header; idx[k]
 * gets the column of need[k], found by name (a name after '?' may be
 * absent: idx[k] = -1). */
int tt_conftab_open(tt_conftab *t, tt_ctx *ctx, const char *path, tt_src *mem,
                    const char *const *need, int nneed, int *idx);
void tt_conftab_close(tt_conftab *t);
/* The next data row, with exactly the header's field count: 1, 0 at the
 * end, or a negative code. */
int tt_conftab_next(tt_conftab *t);
/* An integer field in [min, max]; want describes the range. */
int tt_conftab_int(tt_conftab *t, const char *field, const char *text, int64_t min, int64_t max,
                   const char *want, int64_t *out);

/* 1 when some class of p has a timer of its own (params.c). */
int tt_params_class_timers(const tt_params *p);
/* p's numbers within the ranges tt_params_set reads them in (params.c
 * says why each keeps the engine's int64 arithmetic exact), and restart
 * within 2^31 - 1 s with elastic jobs. 0, or TT_EINVAL with "parameter
 * 'mlfq': ... out of range (expected ...)". */
int tt_params_check_ranges(tt_ctx *ctx, const tt_params *p);

#endif
