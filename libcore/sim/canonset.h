/* A set of canonical forms (tt/canon.h), each held as the id of a
 * configuration its owner can make again (a position in a run's source, a
 * tuner's row) rather than as a 1.4 KiB parameter set: run.c and the tuner
 * find with it the configuration that already stands for a form. Open
 * addressing on tt_canon_hash; a hash that matches is confirmed by
 * comparing the forms, so a collision never merges two configurations. */
#ifndef TT_SIM_CANONSET_H
#define TT_SIM_CANONSET_H

#include <stdint.h>

#include "tt/canon.h"

/* The canonical form of the configuration id into scratch: a pointer to
 * it (scratch or another), or NULL when it cannot be made (then it equals
 * nothing). */
typedef const tt_params *(*tt_cset_form_fn)(void *arg, int64_t id, tt_params *scratch);

typedef struct {
    int64_t *id;    /* nslots entries, -1 empty */
    uint64_t *hash; /* the hash of each entry's form */
    int64_t nslots, n;
    tt_cset_form_fn form;
    void *arg;
} tt_cset;

/* An empty set whose ids form gives the forms of. */
void tt_cset_init(tt_cset *s, tt_cset_form_fn form, void *arg);
void tt_cset_free(tt_cset *s);
/* Empties s, keeping its memory. */
void tt_cset_clear(tt_cset *s);
/* The id of s whose form equals q (of hash h), or -1. */
int64_t tt_cset_find(const tt_cset *s, const tt_params *q, uint64_t h);
/* Adds id, whose form (of hash h) is not in s yet. 0 or TT_ENOMEM. */
int tt_cset_add(tt_ctx *ctx, tt_cset *s, int64_t id, uint64_t h);

#endif
