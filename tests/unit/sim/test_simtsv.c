/* Simulation rows as TSV: the header and rows tt-sim and tt-sweep print,
 * read back by the table reader with every column in its place. */
#include "testutil.h"
#include "tt/sim.h"
#include "tt/simfile.h"
#include "tt/table.h"

Test(simtsv, rows_read_back)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_models *models = NULL;
    cr_assert_eq(tt_models_default(ctx, &models), 0, "%s", tt_errmsg(ctx));
    tt_params p[2];
    tt_params_default(&p[0]);
    tt_params_default(&p[1]);
    cr_assert_eq(tt_params_set(ctx, &p[1], models, "w0", "600"), 0, "%s", tt_errmsg(ctx));
    cr_assert_eq(tt_params_set(ctx, &p[1], models, "order", "sjf"), 0, "%s", tt_errmsg(ctx));
    tt_metrics m[2];
    memset(m, 0, sizeof m);
    m[0].makespan = 100;
    m[1].makespan = 250;
    m[1].util = 0.5;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_expect_eq(tt_sim_tsv_header(f), 0);
    for (int r = 0; r < 2; r++)
        cr_expect_eq(tt_sim_tsv_row(f, &p[r], models, &m[r]), 0);
    cr_assert_eq(fclose(f), 0);
    /* one header line and a line per row, as many fields in each */
    cr_expect_eq(strncmp(text, "order\t", 6), 0, "%s", text);
    tt_table *t = NULL;
    cr_assert_eq(tt_table_read_mem(ctx, "mem", text, len, TT_TABLE_CONFIGS, &t), 0, "%s",
                 tt_errmsg(ctx));
    cr_expect_eq(tt_table_rows(t), 2);
    cr_expect_eq(tt_table_cols(t), TT_NPARAMS + TT_NMETRICS);
    for (int i = 0; i < TT_NPARAMS; i++)
        cr_expect_str_eq(tt_table_name(t, i), tt_param_names[i]);
    for (int i = 0; i < TT_NMETRICS; i++)
        cr_expect_str_eq(tt_table_name(t, TT_NPARAMS + i), tt_metric_names[i]);
    cr_expect_str_eq(tt_table_text(t, tt_table_find(t, "order"), 1), "sjf");
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "w0"))[1], 600);
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "makespan"))[0], 100);
    cr_expect_eq(tt_table_values(t, tt_table_find(t, "util"))[1], 0.5);
    tt_table_free(t);
    free(text);
    tt_models_free(models);
    tt_ctx_free(ctx);
}
