/* The names of the HDF5 file layouts, in one place for every writer and
 * reader: the marker attribute and its value for each kind of file (a
 * layout's version changes when a reader of the old one would misread the
 * new), and the groups. The layouts themselves are described in
 * tt/tracefile.h, tt/simfile.h, tt/sweepfile.h and tt/tune.h. */
#ifndef TT_LAYOUT_H
#define TT_LAYOUT_H

/* The attribute on a file's top group that says what it is. */
#define LAYOUT_ATTR "tracetune_layout"

/* A trace: /jobs, its string tables in /jobs/tables. */
#define LAYOUT_TRACE "trace/1"
#define GRP_JOBS "jobs"
#define GRP_TABLES "tables"

/* One simulation: /sim with summary, jobs, models and timeline. */
#define LAYOUT_SIM "sim/1"
#define GRP_SIM "sim"
#define GRP_SIM_SUMMARY "summary"
#define GRP_SIM_JOBS "jobs"
#define GRP_SIM_MODELS "models"
#define GRP_SIM_TIMELINE "timeline"

/* A sweep: /sweep with index, params and metrics. */
#define LAYOUT_SWEEP "sweep/1"
#define GRP_SWEEP "sweep"
#define GRP_PARAMS "params" /* in /sweep and /tune/history */
#define GRP_METRICS "metrics"

/* A tuner's history: /tune with space, history and result. */
#define LAYOUT_TUNE "tune/1"
#define GRP_TUNE "tune"
#define GRP_TUNE_SPACE "space"
#define GRP_TUNE_HISTORY "history"
#define GRP_TUNE_RESULT "result"
#define GRP_TUNE_ROLLING "rolling" /* tt-tune --rolling: a row a window */

/* Whole paths, for readers. */
#define PATH_SIM "/" GRP_SIM
#define PATH_SIM_SUMMARY PATH_SIM "/" GRP_SIM_SUMMARY
#define PATH_SIM_JOBS PATH_SIM "/" GRP_SIM_JOBS
#define PATH_SIM_TIMELINE PATH_SIM "/" GRP_SIM_TIMELINE
#define PATH_SWEEP "/" GRP_SWEEP
#define PATH_SWEEP_PARAMS PATH_SWEEP "/" GRP_PARAMS
#define PATH_SWEEP_METRICS PATH_SWEEP "/" GRP_METRICS
#define PATH_TUNE "/" GRP_TUNE
#define PATH_TUNE_SPACE PATH_TUNE "/" GRP_TUNE_SPACE
#define PATH_TUNE_HISTORY PATH_TUNE "/" GRP_TUNE_HISTORY
#define PATH_TUNE_HISTORY_PARAMS PATH_TUNE_HISTORY "/" GRP_PARAMS
#define PATH_TUNE_HISTORY_METRICS PATH_TUNE_HISTORY "/" GRP_METRICS
#define PATH_TUNE_RESULT PATH_TUNE "/" GRP_TUNE_RESULT
#define PATH_TUNE_ROLLING PATH_TUNE "/" GRP_TUNE_ROLLING

#endif
