/* The TSV files the tools read: the first byte picks
 *   0  a cluster file (-c FILE)
 *   1  a model table (--models FILE), then a mix and timers over it
 *   2..6  the TSV a tool printed, read back as a table (tt-plot), as each
 *      part tt_table_read_mem takes
 * the rest is the file. (The configurations file of tt-sweep is in
 * fuzz_sweep.) Seeds: tests/fuzz/corpus/tables. */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>


static void cluster_file(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    tt_cluster c;
    int rc = tt_cluster_parse(ctx, fuzz_file("cluster.tsv", data, size), &c);
    fuzz_check_rc(ctx, rc, "tt_cluster_parse");
    FUZZ_CHECK(rc || (int64_t)c.racks * c.nodes_per_rack * c.gpus_per_node <= TT_MAX_CLUSTER_GPUS,
               "too many GPUs");
}

static void models_file(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    tt_models *m = NULL;
    int rc = tt_models_load(ctx, fuzz_file("models.tsv", data, size), &m);
    fuzz_check_rc(ctx, rc, "tt_models_load");
    if (rc)
        return;
    int n = tt_models_count(m);
    FUZZ_CHECK(n >= 1 && n <= TT_MAX_CLASSES, "%d classes", n);
    /* every class named in a mix and given timers of its own */
    static char mix[TT_PARAM_TEXT_MAX], timers[TT_PARAM_TEXT_MAX], back[TT_PARAM_TEXT_MAX];
    size_t a = 0, b = 0;
    for (int c = 0; c < n; c++) {
        const char *name = tt_models_name(m, c);
        FUZZ_CHECK(tt_models_find(m, name) == c, "class %d '%s' not found by name", c, name);
        a += (size_t)snprintf(mix + a, sizeof mix - a, "%s%s:%d", c ? "," : "", name, c + 1);
        b += (size_t)snprintf(timers + b, sizeof timers - b, "%s%s:%d:inf", c ? "," : "", name,
                              c);
    }
    tt_params p;
    tt_params_default(&p);
    FUZZ_CHECK(a < sizeof mix && b < sizeof timers, "a mix of %d classes is too long", n);
    FUZZ_CHECK(tt_params_set(ctx, &p, m, "mix", mix) == 0, "mix '%s': %s", mix, tt_errmsg(ctx));
    FUZZ_CHECK(tt_params_set(ctx, &p, m, "timers", timers) == 0, "timers: %s", tt_errmsg(ctx));
    FUZZ_CHECK(tt_params_format(&p, m, 11, back, sizeof back) == 0 && strcmp(back, mix) == 0,
               "mix '%s' written '%s'", mix, back);
    tt_models_free(m);
}

int fuzz_tables(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tt_ctx *ctx = tt_ctx_create();
    int pick = data[0] % 7;
    if (pick == 0) {
        cluster_file(ctx, data + 1, size - 1);
    } else if (pick == 1) {
        models_file(ctx, data + 1, size - 1);
    } else {
        fuzz_table_read(ctx, data + 1, size - 1, pick - 2);
    }
    tt_ctx_free(ctx);
    return 0;
}
