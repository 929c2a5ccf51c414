/* gavel: the older 7-field Gavel trace (stanford-futuredata/gavel,
 * scheduler/traces/msr/seed=N/<vc>.trace), one file per Philly VC:
 * tab-separated, no header: job_type, command, num_steps_arg,
 * needs_data_dir, total_steps, arrival_time, scale_factor. Arrival is in
 * seconds from the VC's start; the length is in training steps, not
 * seconds, so the trace's duration unit is "steps". The VC is the file's
 * stem. */
#include <string.h>

#include "base/csv.h"
#include "ingest/fmt_common.h"
#include "ingest/ingest_impl.h"
#include "tt/parse.h"

enum { F_TYPE, F_COMMAND, F_STEPS_ARG, F_DATA_DIR, F_STEPS, F_ARRIVAL, F_SCALE, NFIELDS };
/* The newer layout (utils.parse_trace of current Gavel) has 10 fields, with
 * needs_data_dir fifth; it is recognised only to say that it is not this. */
#define NEWER_NFIELDS 10
#define NEWER_DATA_DIR 4
#define MAXF 16

#define FIELD_NAMES \
    "job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time, scale_factor"


static int is_number(const char *s)
{
    double d;
    return tt_parse_f64(s, &d) == 0;
}

static int is_flag(const char *s) { return strcmp(s, "0") == 0 || strcmp(s, "1") == 0; }

static int detect(char *line)
{
    char *f[MAXF];
    int n = tt_tab_split(line, f, MAXF);
    /* The 10-field layout scores too, so that parse can name the mistake. */
    int dd = n == NFIELDS ? F_DATA_DIR : n == NEWER_NFIELDS ? NEWER_DATA_DIR : -1;
    if (dd < 0 || !is_flag(f[dd]) || !is_number(f[dd + 1]) || !is_number(f[dd + 2]))
        return 0;
    return 10;
}

static int parse_one(ig_state *ig)
{
    /* One file per VC; stdin has no name to take the VC from. */
    char vcbuf[256];
    const char *label = tt_src_label(ig->src), *vc = NULL;
    if (strcmp(label, "<stdin>") != 0) {
        tt_ig_stem(label, vcbuf, sizeof vcbuf);
        vc = vcbuf;
    }
    char *line, *f[MAXF];
    int rc, rows = 0;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        int n = tt_tab_split(line, f, MAXF);
        if (n == NEWER_NFIELDS)
            return tt_ig_fail(ig,
                           "10 tab-separated fields: this is the newer 10-field Gavel trace; "
                           "-f gavel reads the older 7-field one (" FIELD_NAMES ")");
        if (n != NFIELDS)
            return tt_ig_fail(ig, "expected 7 tab-separated fields (" FIELD_NAMES "), got %d", n);
        rows++;
        tt_ig_row(ig);
        if (!is_flag(f[F_DATA_DIR]))
            return tt_ig_fail(ig, "field 'needs_data_dir': expected 0 or 1, got '%.40s'",
                           f[F_DATA_DIR]);
        tt_job j = tt_job_empty();
        int64_t gpus;
        if ((rc = tt_ig_count(ig, "total_steps", f[F_STEPS], &j.duration)) ||
            (rc = tt_ig_count(ig, "arrival_time", f[F_ARRIVAL], &j.submit)) ||
            (rc = tt_ig_count(ig, "scale_factor", f[F_SCALE], &gpus)))
            return rc;
        if ((rc = tt_fc_gpus(ig, "scale_factor", gpus, &j.gpus)))
            return rc;
        if (gpus == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        j.model = tt_ig_str(f[F_TYPE]);
        j.vc = vc;
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    if (rc == 0 && rows == 0) { /* line 0 would read oddly */
        int64_t at = tt_src_lineno(ig->src);
        return tt_err(ig->ctx, TT_EPARSE, "%s:%lld: empty input: no job line", label,
                      (long long)(at ? at : 1));
    }
    return rc;
}

static int parse(ig_state *ig)
{
    if (tt_prov_set(&ig->trace->prov.duration_unit, "steps"))
        return tt_err(ig->ctx, TT_ENOMEM, "out of memory");
    return tt_ig_each_input(ig, parse_one);
}

const tt_format tt_fmt_gavel = {
    "gavel",
    "older 7-field Gavel trace, one <vc>.trace per VC (tab-separated; durations in steps)",
    NULL,
    "relative",
    detect,
    parse,
    "arrival_time",
    "total_steps",
};
