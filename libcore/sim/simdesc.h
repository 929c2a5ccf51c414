/* How the parameters and metrics of a simulation are stored in HDF5, in
 * tt_param_names / tt_metric_names order: one description, and one writer
 * of their columns, shared by the simulation result (/sim/summary), the
 * sweep (/sweep/params, /sweep/metrics) and the tuner's history, so the
 * layouts cannot drift apart. */
#ifndef TT_SIMDESC_H
#define TT_SIMDESC_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "tt/sim.h"
#include "tt/trace.h"

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

extern const sd_param tt_sd_params[]; /* TT_NPARAMS rows, checked where defined */
extern const sd_metric tt_sd_metrics[]; /* TT_NMETRICS rows, checked too */

/* The "infinite" attribute (INT64_MAX) on the dataset name of grp. 0 or -1. */
int tt_sd_mark_inf(hid_t grp, const char *name);
/* The "missing" attribute (TT_METRIC_NONE) on the dataset name of grp: an
 * integer metric that cannot be computed. 0 or -1. */
int tt_sd_mark_missing(hid_t grp, const char *name);
/* Row r's parameters for tt_sd_write_param_cols: a pointer to them (the
 * caller's, or scratch filled), or NULL on a failure. Asked once a row for
 * each column, so rows need not all be held at once (a sweep expands them
 * from its axes). */
typedef const tt_params *(*tt_sd_params_fn)(void *arg, int64_t r, tt_params *scratch);
/* The rows of an array of pointers (arg: const tt_params *const *). */
const tt_params *tt_sd_params_of(void *arg, int64_t r, tt_params *scratch);
/* One 1-D column per parameter into gp, row r from at(arg, r) (text as
 * tt_params_format writes it); buf: n * 8 bytes of scratch. 0 or -1 (HDF5,
 * out of memory, or at failed). */
int tt_sd_write_param_cols(hid_t gp, const tt_models *models, tt_sd_params_fn at, void *arg,
                           int64_t n, void *buf);
/* The attributes every result file (simulation, sweep, tune) opens with:
 * tracetune_layout, trace_file, trace_format, trace_source_sha256 (p may
 * be NULL), trace_jobs_sha256 (where p has one), cluster, models_source
 * and models_sha256. 0 or -1. */
int tt_sd_write_origin(hid_t g, const char *layout, const char *trace_path, const tt_provenance *p,
                    const tt_cluster *c, const tt_models *models);
/* One 1-D column per metric into gm, row r from *m[r]; an integer column
 * with a row that cannot be computed gets the "missing" attribute. 0 or
 * -1. */
int tt_sd_write_metric_cols(hid_t gm, const tt_metrics *const *m, int64_t n, void *buf);

#endif
