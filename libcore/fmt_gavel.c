/* gavel: placeholder until the parser lands. */
#include "internal/ingest_impl.h"

static int parse(ig_state *ig, tt_src **srcs, int n)
{
    (void)srcs;
    (void)n;
    return tt_err(ig->ctx, TT_ENOTBUILT, "format gavel is not implemented yet");
}

const tt_format tt_fmt_gavel = {"gavel", "(not implemented)", NULL, "relative", NULL, parse};
