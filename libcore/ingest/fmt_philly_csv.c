/* philly-csv: the per-job Philly CSV of the Pollux artifact
 * (timestamp,duration,num_gpus,gpu_time,cluster). timestamp is the submit
 * time, naive US Pacific; duration is the sum of the attempts' run times in
 * seconds, stored as a float ("66.0"); cluster is the VC. */
#include <string.h>

#include "ingest/fmt_common.h"
#include "ingest/ingest_impl.h"

#define MAXF 16

static int detect(char *line)
{
    return strncmp(line, "timestamp,duration,num_gpus", 27) == 0 ? 10 : 0;
}

static int parse_one(ig_state *ig)
{
    char *line, *f[MAXF];
    int rc = tt_ig_header(ig, &line);
    if (rc < 0)
        return rc;
    int nh = tt_ig_split(ig, line, ',', f, MAXF, -5);
    if (nh < 0)
        return nh;
    if (nh > MAXF)
        return tt_ig_fail(ig, "header has %d columns, at most %d expected", nh, MAXF);
    int cts, cdur, cgpu, cvc;
    if ((rc = tt_ig_need_col(ig, f, nh, "timestamp", &cts)) ||
        (rc = tt_ig_need_col(ig, f, nh, "duration", &cdur)) ||
        (rc = tt_ig_need_col(ig, f, nh, "num_gpus", &cgpu)) ||
        (rc = tt_ig_need_col(ig, f, nh, "cluster", &cvc)))
        return rc;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        if ((rc = tt_ig_split(ig, line, ',', f, MAXF, nh)) < 0)
            return rc;
        tt_ig_row(ig);
        tt_job j = tt_job_empty();
        int64_t gpus;
        if ((rc = tt_ig_time(ig, "timestamp", f[cts], &j.submit)) ||
            (rc = tt_ig_count(ig, "duration", f[cdur], &j.duration)) ||
            (rc = tt_ig_count(ig, "num_gpus", f[cgpu], &gpus)))
            return rc;
        if (j.submit == TT_TIME_NONE)
            return tt_ig_fail(ig, "field 'timestamp': value missing");
        if ((rc = tt_fc_gpus(ig, "num_gpus", gpus, &j.gpus)))
            return rc;
        if (gpus == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        j.vc = tt_ig_str(f[cvc]);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_philly_csv = {
    "philly-csv",
    "Philly per-job CSV of the Pollux artifact (timestamp,duration,num_gpus,gpu_time,cluster)",
    "America/Los_Angeles",
    "unix",
    detect,
    parse,
    "timestamp",
    "duration",
};
