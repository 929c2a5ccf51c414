/* tiresias: the job list of the Tiresias simulator (SymbioticLab/Tiresias,
 * simulator/60_job.csv): job_id,num_gpu,submit_time,iterations,model_name,
 * duration,interval, CRLF line ends. submit_time and duration are seconds
 * from the start of the trace; iterations and interval are the
 * simulator's own and not kept. Columns are found by name, so their order
 * may differ and extra columns are ignored. */
#include <stdio.h>
#include <string.h>

#include "base/csv.h"
#include "ingest/fmt_common.h"
#include "ingest/ingest_impl.h"

#define MAXF 64

static const char *const needed[] = {"job_id", "num_gpu", "submit_time", "model_name",
                                     "duration"};
#define NNEEDED (int)(sizeof needed / sizeof needed[0])

static int detect(char *line)
{
    char *f[MAXF];
    int n = tt_csv_split(line, ',', f, MAXF);
    if (n < NNEEDED || n > MAXF)
        return 0;
    for (int k = 0; k < NNEEDED; k++)
        if (tt_ig_col(f, n, needed[k]) < 0)
            return 0;
    return 10;
}

static int parse_one(ig_state *ig)
{
    char *line, *f[MAXF];
    int rc = tt_ig_header(ig, &line);
    if (rc < 0)
        return rc;
    int nh = tt_ig_split(ig, line, ',', f, MAXF, -NNEEDED);
    if (nh < 0)
        return nh;
    if (nh > MAXF)
        return tt_ig_fail(ig, "header has %d columns, at most %d expected", nh, MAXF);
    int cid, cgpu, csub, cmodel, cdur;
    if ((rc = tt_ig_need_col(ig, f, nh, "job_id", &cid)) ||
        (rc = tt_ig_need_col(ig, f, nh, "num_gpu", &cgpu)) ||
        (rc = tt_ig_need_col(ig, f, nh, "submit_time", &csub)) ||
        (rc = tt_ig_need_col(ig, f, nh, "model_name", &cmodel)) ||
        (rc = tt_ig_need_col(ig, f, nh, "duration", &cdur)))
        return rc;
    int rows = 0;
    while ((rc = tt_ig_line(ig, &line)) == 1) {
        if ((rc = tt_ig_split(ig, line, ',', f, MAXF, nh)) < 0)
            return rc;
        rows++;
        tt_ig_row(ig);
        tt_job j = tt_job_empty();
        int64_t gpus;
        if ((rc = tt_ig_count(ig, "submit_time", f[csub], &j.submit)) ||
            (rc = tt_ig_count(ig, "duration", f[cdur], &j.duration)) ||
            (rc = tt_ig_count(ig, "num_gpu", f[cgpu], &gpus)))
            return rc;
        if ((rc = tt_fc_gpus(ig, "num_gpu", gpus, &j.gpus)))
            return rc;
        if (gpus == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        j.name = tt_ig_str(f[cid]);
        j.model = tt_ig_str(f[cmodel]);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    if (rc == 0 && rows == 0)
        return tt_ig_fail(ig, "header only: no job rows");
    return rc;
}

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_tiresias = {
    "tiresias",
    "Tiresias simulator job list (job_id,num_gpu,submit_time,iterations,model_name,...)",
    NULL,
    "relative",
    detect,
    parse,
    "submit_time",
    "duration",
};
