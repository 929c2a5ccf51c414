/* Simulation rows as TSV (tt/simfile.h): what tt-sim and tt-sweep print and
 * tt_table_load reads back, parameters then metrics under one header. */
#include <stdio.h>

#include "tt/simfile.h"

int tt_sim_tsv_header(FILE *f)
{
    for (int i = 0; i < TT_NPARAMS; i++)
        fprintf(f, "%s\t", tt_param_names[i]);
    for (int i = 0; i < TT_NMETRICS; i++)
        fprintf(f, "%s%c", tt_metric_names[i], i + 1 < TT_NMETRICS ? '\t' : '\n');
    return ferror(f) ? TT_EIO : 0;
}

int tt_sim_tsv_row(FILE *f, const tt_params *p, const tt_models *models, const tt_metrics *m)
{
    char buf[TT_PARAM_TEXT_MAX];
    for (int i = 0; i < TT_NPARAMS; i++) {
        tt_params_format(p, models, i, buf, sizeof buf);
        fprintf(f, "%s\t", buf);
    }
    for (int i = 0; i < TT_NMETRICS; i++) {
        tt_metric_format(m, i, buf, sizeof buf);
        fprintf(f, "%s%c", buf, i + 1 < TT_NMETRICS ? '\t' : '\n');
    }
    return ferror(f) ? TT_EIO : 0;
}
