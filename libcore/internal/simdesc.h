/* How the parameters and metrics of a simulation are stored in HDF5, in
 * tt_param_names / tt_metric_names order: one description shared by the
 * simulation result (/sim/summary) and the sweep (/sweep/params,
 * /sweep/metrics), so the two layouts cannot drift apart. */
#ifndef TT_SIMDESC_H
#define TT_SIMDESC_H

#include <stddef.h>

#include "tt/sim.h"

enum { SD_TEXT, SD_I64, SD_I32, SD_U64 }; /* SD_I32 fields are stored as int64 */

typedef struct {
    int kind;
    size_t off; /* in tt_params */
    const char *units;
    int inf; /* INT64_MAX means infinite ("infinite" attribute) */
} sd_param;

typedef struct {
    size_t off; /* in tt_metrics */
    int real;   /* double, else int64 */
    const char *units;
} sd_metric;

extern const sd_param sd_params[TT_NPARAMS];
extern const sd_metric sd_metrics[TT_NMETRICS];

#endif
