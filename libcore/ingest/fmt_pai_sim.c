/* pai-sim: the job list of the Alibaba PAI 2020 simulator
 * (pai_job_duration_estimate_100K.csv: job_id,user,num_gpu,num_cpu,
 * num_pod,duration,job_name,submit_time,group,gpu_type,wait_time,...).
 * num_gpu is the job's total GPU demand and fractional under GPU sharing
 * ("0.25"); times are seconds from the trace's start; the observed start
 * is submit + wait_time. */
#include "ingest/fmt_common.h"

static const char header[] = "job_id,user,num_gpu,num_cpu,num_pod,duration,job_name,submit_time,"
                             "group,gpu_type,wait_time,user_dur,group_dur,group_gpu_dur";

static int detect(char *line) { return tt_fc_detect_header(line, header); }

static int parse_one(ig_state *ig)
{
    fc_csv c;
    int rc = tt_fc_header(ig, &c);
    if (rc)
        return rc;
    int cid, cuser, cgpu, cdur, csub, cwait;
    if ((rc = tt_ig_need_col(ig, c.f, c.n, "job_id", &cid)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "user", &cuser)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "num_gpu", &cgpu)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "duration", &cdur)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "submit_time", &csub)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "wait_time", &cwait)))
        return rc;
    while ((rc = tt_fc_row(ig, &c)) == 1) {
        char **f = c.f;
        tt_job j = tt_job_empty();
        int64_t milli, wait;
        if ((rc = tt_ig_milli(ig, "num_gpu", f[cgpu], &milli)) ||
            (rc = tt_ig_time(ig, "submit_time", f[csub], &j.submit)) ||
            (rc = tt_ig_count_opt(ig, "duration", f[cdur], &j.duration)) ||
            (rc = tt_ig_count_opt(ig, "wait_time", f[cwait], &wait)))
            return rc;
        if (j.submit == TT_TIME_NONE)
            return tt_ig_fail(ig, "field 'submit_time': value missing");
        if (milli > INT32_MAX)
            return tt_ig_fail(ig, "field 'num_gpu': '%s' GPUs is out of range", f[cgpu]);
        if (milli == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        if (j.duration == TT_TIME_NONE) {
            tt_ig_drop(ig, TT_DROP_MISSING_TIME);
            continue;
        }
        /* A share of a GPU still occupies a whole one for placement. */
        j.gpus = (int32_t)((milli + 999) / 1000);
        j.gpu_milli = (int32_t)milli;
        if (wait != TT_TIME_NONE &&
            ((rc = tt_fc_add(ig, "wait_time", j.submit, wait, &j.start)) ||
             (rc = tt_fc_add(ig, "duration", j.start, j.duration, &j.end))))
            return rc;
        j.name = tt_ig_str(f[cid]);
        j.user = tt_ig_str(f[cuser]);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_pai_sim = {
    "pai-sim",
    "PAI 2020 simulator job list (job_id,user,num_gpu,...,submit_time,...,wait_time,...)",
    NULL,
    "relative",
    detect,
    parse,
    "submit_time",
    "duration",
};
