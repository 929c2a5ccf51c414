/* acme: the Shanghai AI Lab Acme job logs, trace_seren.csv (13 columns,
 * times +08:00) and trace_kalos.csv (17 columns, times +00:00), one or
 * both in a call. Columns are looked up by name, so one parser reads
 * both; Kalos' extra columns (memory, fail_time, stop_time) are not used.
 * `type` is a job category (Pretrain, SFT, Eval, ...), not a DL model, so
 * it is not kept as one. Times must carry their offset: the two files
 * differ in zone, so a naive time has no safe default. */
#include "ingest/fmt_common.h"

static const char seren[] = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,"
                            "start_time,end_time,duration,queue,gpu_time";
static const char kalos[] = "job_id,user,node_num,gpu_num,cpu_num,mem_per_pod_GB,"
                            "shared_mem_per_pod,type,state,submit_time,start_time,end_time,"
                            "fail_time,stop_time,duration,queue,gpu_time";

static int detect(char *line)
{
    return tt_fc_detect_header(line, seren) ? 10 : tt_fc_detect_header(line, kalos);
}

static int parse_one(ig_state *ig) { return tt_fc_job_log(ig, 0, 1); }

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_acme = {
    "acme",
    "Acme trace_seren.csv / trace_kalos.csv (job_id,user,node_num,gpu_num,...; ISO times)",
    NULL,
    "unix",
    detect,
    parse,
    "submit_time",
    "end_time - start_time",
};
