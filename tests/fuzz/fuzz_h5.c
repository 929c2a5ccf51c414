/* The HDF5 readers, over mutated files: the first byte picks
 *   0  a trace (tt_trace_load_mem), then its tt-stats views
 *   1..5  a sweep, simulation or tune file as each table part
 *   6  a sweep file joined alone by tt_sweep_merge (it reads paths, so the
 *      image goes through a file), the result read back
 * the rest is the file, opened in memory through HDF5's file-image API.
 * Seeds (tests/fuzz/corpus/h5) are small files written by the tools. */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tt/sweepmerge.h"
#include "tt/table.h"
#include "tt/tracefile.h"

static void trace(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    tt_trace *t = NULL;
    int rc = tt_trace_load_mem(ctx, data, size, "fuzz", &t);
    fuzz_check_rc(ctx, rc, "tt_trace_load_mem");
    FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the trace and the return code disagree");
    if (!t)
        return;
    FUZZ_CHECK(tt_trace_is_sorted(t), "a trace that loaded is not sorted");
    for (int v = TT_TABLE_TRACE_GPUS; v <= TT_TABLE_TRACE_LOAD; v++) {
        tt_table *tab = NULL;
        rc = tt_table_from_trace(ctx, t, (tt_table_trace_view)v, 0, &tab);
        fuzz_check_rc(ctx, rc, "tt_table_from_trace");
        if (tab)
            fuzz_table_walk(ctx, tab);
    }
    tt_trace_free(t);
}

static void merge(tt_ctx *ctx, const uint8_t *data, size_t size)
{
    const char *in = fuzz_file("shard.h5", data, size);
    char out[512];
    snprintf(out, sizeof out, "%s/merged.h5", fuzz_dir());
    tt_sweep_merge_info info;
    int rc = tt_sweep_merge(ctx, out, &in, 1, &info);
    fuzz_check_rc(ctx, rc, "tt_sweep_merge");
    if (rc) {
        FUZZ_CHECK(access(out, F_OK) != 0, "a failed merge left its output");
        return;
    }
    tt_table *t = NULL;
    rc = tt_table_load(ctx, out, TT_TABLE_CONFIGS, &t);
    FUZZ_CHECK(rc == 0, "the merged file does not read back: %s", tt_errmsg(ctx));
    FUZZ_CHECK(tt_table_rows(t) == info.configurations, "%lld rows, %lld configurations",
               (long long)tt_table_rows(t), (long long)info.configurations);
    fuzz_table_walk(ctx, t);
    unlink(out);
}

int fuzz_h5(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tt_ctx *ctx = tt_ctx_create();
    int pick = data[0] % 7;
    if (pick == 0) {
        trace(ctx, data + 1, size - 1);
    } else if (pick == 6) {
        merge(ctx, data + 1, size - 1);
    } else {
        tt_table *t = NULL;
        int rc = tt_table_read_mem(ctx, "fuzz", data + 1, size - 1, (tt_table_part)(pick - 1),
                                   &t);
        fuzz_check_rc(ctx, rc, "tt_table_read_mem");
        FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "the table and the return code disagree");
        if (t)
            fuzz_table_walk(ctx, t);
    }
    tt_ctx_free(ctx);
    return 0;
}
