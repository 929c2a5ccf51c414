/* helios: the SenseTime Helios job log, cluster_log.csv
 * (job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,
 * end_time,duration,queue). Times are naive China local time (UTC+8, no
 * DST); duration = end - start in seconds. About half the jobs are
 * CPU-only. */
#include "ingest/fmt_common.h"

static const char header[] = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,"
                             "start_time,end_time,duration,queue";

static int detect(char *line) { return tt_fc_detect_header(line, header); }

static int parse_one(ig_state *ig) { return tt_fc_job_log(ig, 1, 0); }

static int parse(ig_state *ig) { return tt_ig_each_input(ig, parse_one); }

const tt_format tt_fmt_helios = {
    "helios",
    "Helios cluster_log.csv (job_id,user,vc,gpu_num,...,submit_time,start_time,end_time,...)",
    "Asia/Shanghai",
    "unix",
    detect,
    parse,
    "submit_time",
    "end_time - start_time",
};
