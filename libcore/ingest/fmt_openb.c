/* openb: the Alibaba GPU 2023 pod lists, openb_pod_list_*.csv
 * (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
 * creation_time,deletion_time,scheduled_time). A pod is one job; times are
 * seconds from the trace's start, scheduled_time a float that is blank for
 * pending pods. gpu_milli is the share of one GPU and means something only
 * when num_gpu is 1; multi-GPU pods take whole GPUs. */
#include "ingest/fmt_common.h"

static const char header[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
                             "pod_phase,creation_time,deletion_time,scheduled_time";
/* The multigpu re-samplings: these columns and no times. */
static const char untimed[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli";

static int detect(char *line)
{
    if (tt_fc_detect_header(line, header))
        return 10;
    /* Still this format, so -f auto ends in the clear "no times" error. */
    return tt_fc_header_starts(line, untimed) ? 5 : 0;
}

static int parse_one(ig_state *ig)
{
    fc_csv c;
    int rc = tt_fc_header(ig, &c);
    if (rc)
        return rc;
    int cname, cngpu, cmilli, cphase, ccreate, cdel, csched;
    if ((rc = tt_ig_need_col(ig, c.f, c.n, "name", &cname)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "num_gpu", &cngpu)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "gpu_milli", &cmilli)))
        return rc;
    if (tt_ig_col(c.f, c.n, "creation_time") < 0)
        return tt_ig_fail(ig, "header has no column 'creation_time': a pod list without times "
                           "(like the multigpu re-samplings) cannot be replayed");
    if ((rc = tt_ig_need_col(ig, c.f, c.n, "pod_phase", &cphase)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "creation_time", &ccreate)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "deletion_time", &cdel)) ||
        (rc = tt_ig_need_col(ig, c.f, c.n, "scheduled_time", &csched)))
        return rc;
    while ((rc = tt_fc_row(ig, &c)) == 1) {
        char **f = c.f;
        tt_job j = tt_job_empty();
        int64_t ngpu, milli;
        if ((rc = tt_ig_count(ig, "num_gpu", f[cngpu], &ngpu)) ||
            (rc = tt_ig_count(ig, "gpu_milli", f[cmilli], &milli)) ||
            (rc = tt_ig_time(ig, "creation_time", f[ccreate], &j.submit)) ||
            (rc = tt_ig_time(ig, "scheduled_time", f[csched], &j.start)) ||
            (rc = tt_ig_time(ig, "deletion_time", f[cdel], &j.end)))
            return rc;
        if (j.submit == TT_TIME_NONE)
            return tt_ig_fail(ig, "field 'creation_time': value missing");
        if (ngpu == 1 && (milli < 1 || milli > 1000))
            return tt_ig_fail(ig, "field 'gpu_milli': a one-GPU pod takes 1..1000 thousandths of "
                               "it, got '%s'", f[cmilli]);
        if (ngpu == 0) {
            tt_ig_drop(ig, TT_DROP_CPU_ONLY);
            continue;
        }
        if ((rc = tt_fc_gpus(ig, "num_gpu", ngpu, &j.gpus)))
            return rc;
        j.gpu_milli = ngpu == 1 ? (int32_t)milli : j.gpus * 1000;
        int why = tt_fc_observed_run(&j);
        if (why >= 0) {
            tt_ig_drop(ig, why);
            continue;
        }
        j.name = tt_ig_str(f[cname]);
        j.status = tt_ig_str(f[cphase]);
        if ((rc = tt_ig_keep(ig, &j)))
            return rc;
    }
    return rc;
}

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_openb = {
    "openb",
    "Alibaba GPU 2023 pod list openb_pod_list_*.csv (name,...,num_gpu,gpu_milli,...,times)",
    NULL,
    "relative",
    detect,
    parse,
    "creation_time",
    "deletion_time - scheduled_time",
};
