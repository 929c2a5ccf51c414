/* The trace formats: the first byte picks the format (every format, then
 * auto), the rest is the input file. Seeds: tests/fuzz/corpus/ingest. */
#include "fuzz.h"

#include "tt/ingest.h"

int fuzz_ingest(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *const *names = tt_ingest_format_list();
    int n = 0;
    while (names[n])
        n++;
    int pick = data[0] % (n + 1);
    tt_ingest_opts o = {pick < n ? names[pick] : "auto", NULL, NULL};
    tt_ctx *ctx = tt_ctx_create();
    tt_trace *t = NULL;
    int rc = tt_ingest_mem(ctx, &o, data + 1, size - 1, "fuzz", &t);
    fuzz_check_rc(ctx, rc, o.format);
    FUZZ_CHECK(rc == 0 ? t != NULL : t == NULL, "%s: the trace and the return code disagree",
               o.format);
    FUZZ_CHECK(!t || tt_trace_is_sorted(t), "%s: the trace is not sorted", o.format);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return 0;
}
