/* tt/objective.h: the objective language of the tuner (tt/tune.h): what
 * to minimise over the simulated metrics, under conditions, and how
 * configurations rank by it.
 *
 * Grammar (tt_objective_parse):
 *   OBJ    := SUM [ "s.t." COND { "and" COND } ]       at most 4 conditions
 *   SUM    := [-] TERM { (+|-) TERM }
 *   TERM   := [NUMBER "*"] METRIC                     a metric of tt_metric_names
 *   COND   := METRIC ("<=" | ">=") BOUND
 *   BOUND  := NUMBER | [NUMBER "*"] "best"
 * The objective is minimised (write -util to maximise util). "best" is the
 * best value of that metric (least for <=, greatest for >=) among the
 * configurations being compared. A configuration is feasible when every
 * condition holds; feasible ones rank before infeasible ones and among
 * themselves by objective; infeasible ones by total relative violation
 * (sum over conditions of the excess over |bound|), then by objective;
 * ties by order of evaluation. A NUMBER is read as strtod reads it (no
 * sign; 1e-400 is 0); one past a double (1e400) is refused, since no
 * finite bound or weight could stand for it. A configuration whose objective or a
 * condition's metric cannot be computed (tt_metric_defined) ranks after
 * all others; a search stops at the first one (TT_EEMPTY: with no job
 * simulated no configuration has a value, so there is nothing to tune).
 *
 * Thread safety: a parsed objective is read-only and may be shared.
 */
#ifndef TT_OBJECTIVE_H
#define TT_OBJECTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "tt/error.h"
#include "tt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* public: the library is built hidden */

#define TT_OBJ_MAX_CONDS 4

typedef struct tt_objective tt_objective;

/* Parses text (grammar above). TT_EINVAL with "objective 'TEXT': reason"
 * (an unknown metric lists the known ones; a bound factor must be >= 1
 * for <= best and <= 1 for >= best, so the best itself is feasible). */
int tt_objective_parse(tt_ctx *ctx, const char *text, tt_objective **out);
void tt_objective_free(tt_objective *o);
/* The objective as text with single spaces, as parsed, each number in the
 * shortest form that reads back to the same double: tt_objective_parse of
 * the text gives the same objective (what a tune file stores). Owned by
 * o. */
const char *tt_objective_text(const tt_objective *o);
/* The value to minimise for metrics m; NAN when a metric of it cannot be
 * computed. */
double tt_objective_value(const tt_objective *o, const tt_metrics *m);
/* Among the n metric sets m (n >= 1, "best" bounds taken over them), the
 * position of the best by the ranking above, in *best, and whether it is
 * feasible in *feasible. 0, or TT_EEMPTY when n = 0 or no set has a value
 * for the objective and its conditions. */
int tt_objective_best(const tt_objective *o, const tt_metrics *m, int64_t n, int64_t *best,
                      int *feasible);
/* "constraint 'makespan <= 1000' holds for none of the 12 configurations
 * (least makespan 1320)" for the first condition that none of the n sets
 * meets, into buf; "" when every condition holds somewhere. */
void tt_objective_why_infeasible(const tt_objective *o, const tt_metrics *m, int64_t n,
                                 char *buf, size_t size);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
