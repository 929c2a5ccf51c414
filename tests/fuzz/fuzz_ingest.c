/* libFuzzer entry for the trace parsers: the first byte picks the format
 * (every format, then auto), the rest is the input file. Any return code
 * is fine; a crash, a leak or undefined behaviour is a bug.
 * Build and run: make fuzz FUZZ_SECONDS=N. */
#include <stddef.h>
#include <stdint.h>

#include "tt/ingest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
    tt_ingest_mem(ctx, &o, data + 1, size - 1, "fuzz", &t);
    tt_trace_free(t);
    tt_ctx_free(ctx);
    return 0;
}
