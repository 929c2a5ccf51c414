/* The end of every search (refine and model): coordinate steps around
 * the best points, and the gain of each round, which says whether the
 * budget was enough.
 *
 * A global strategy spends its budget on the lattice at large and is
 * left with a point near, not at, the best: on the landscapes of real
 * traces the last few percent sit one lattice step away along one axis
 * (the next w1, the next theta), which neither a halving step nor the
 * surrogate's expected improvement proposes in time. So every search
 * keeps a part of its budget for rounds of coordinate steps: the unvisited
 * lattice neighbours along each axis of the best point, then of the next
 * best ones (several starts: once the best has no neighbour left to try,
 * it is a local minimum over the lattice, and the budget left goes to the
 * runners-up, which may lie in another basin). Each round is small (the
 * neighbours of two points), so that a step found in one round is
 * followed in the next. */
#include <math.h>
#include <stdlib.h>

#include "tt/tune.h"
#include "tune/tune_impl.h"

/* the share of the budget kept for the local steps */
#define LOCAL_SHARE 0.2
/* points whose neighbours one local round proposes */
#define LOCAL_STARTS 2

int64_t tt_search_local_reserve(const tt_search *s)
{
    return (int64_t)floor(LOCAL_SHARE * (double)s->o->budget);
}

int tt_search_run_local(tt_search *s)
{
    const tt_tune *t = s->t;
    int64_t one[TT_TUNE_MAX_DIMS], saved = s->batch, small = 2 * t->nd * LOCAL_STARTS;
    for (int d = 0; d < t->nd; d++)
        one[d] = 1;
    s->batch = small < s->batch ? small : s->batch;
    int rc = 0;
    while (!rc && s->spent < s->limit && s->nid_used < t->grid) {
        double bound[TT_OBJ_MAX_CONDS];
        tt_search_ranked *r = tt_search_rank(s, bound);
        if (!r) {
            rc = TT_ENOMEM;
            break;
        }
        /* the ranking's length: a proposal that fills a batch runs it, and
         * the rows it adds to s->set are not in r */
        int64_t nr = s->nset;
        for (int64_t i = 0; i < nr && tt_search_room(s) > 0 && !rc; i++)
            if (!tt_search_ranked_repeat(s, r, i))
                rc = tt_search_propose_around(s, r[i].row, one, 1, NAN);
        free(r);
        if (!rc && s->npend == 0)
            break; /* every axis neighbour of every point is known */
        if (!rc)
            rc = tt_search_flush(s);
    }
    s->batch = saved;
    return rc;
}

int tt_search_note_best(tt_search *s)
{
    int64_t b;
    int feas;
    int rc = tt_tune_best_of_rows(s->t, s->set, s->nset, &b, &feas);
    if (rc)
        return rc == TT_ENOMEM ? tt_err(s->ctx, rc, "out of memory") : 0;
    double v = s->t->rows[b].objective;
    if (!s->have_best || !feas)
        s->gain = 0.0; /* the first round, or none that meets the conditions yet */
    else if (!s->best_feasible)
        s->gain = INFINITY; /* the first that meets them */
    else
        s->gain = v < s->best_obj ? (s->best_obj - v) / fmax(fabs(s->best_obj), 1e-300) : 0.0;
    s->best_obj = v;
    s->best_feasible = feas;
    s->have_best = 1;
    return 0;
}
