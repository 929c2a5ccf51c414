#!/usr/bin/env bash
# tests/api/stand_ins.sh: the X_none.c stand-ins of libcore, which
# bench/gpu-check links where X.c's headers are missing (the make build
# never does), compile with warnings as errors; and tt_src over
# srcz_none.c still reads plain text and refuses gzip and xz input with
# TT_ENOTBUILT, saying so.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes
       -Wmissing-prototypes -Werror -Ilibcore/include -Ilibcore"
for f in libcore/*/*_none.c; do
    ${CC:-cc} $flags -c "$f" -o "$tmp/$(basename "$f" .c).o"
done
cat >"$tmp/probe.c" <<'C'
#include <stdio.h>
#include <string.h>

#include "io/src.h"

/* 0 when the text is read, or refused with TT_ENOTBUILT as it should be */
static int probe(const char *text, size_t n, int want)
{
    tt_ctx *ctx = tt_ctx_create();
    tt_src *s = NULL;
    char *line = NULL;
    int rc = tt_src_open_mem(ctx, text, n, "probe", &s);
    if (rc == 0)
        rc = tt_src_getline(s, ctx, &line, NULL) == 1 && strcmp(line, "a") == 0 ? 0 : -99;
    int bad = rc != want || (want && !strstr(tt_errmsg(ctx), "not built in"));
    if (bad)
        fprintf(stderr, "stand_ins: '%.2s...' gave %d (%s), expected %d\n", text, rc,
                tt_errmsg(ctx), want);
    tt_src_close(s);
    tt_ctx_free(ctx);
    return bad;
}

int main(void)
{
    return probe("a\nb\n", 4, 0) | probe("\x1f\x8b\x08\x00", 4, TT_ENOTBUILT) |
           probe("\xfd" "7zXZ\0\0", 7, TT_ENOTBUILT);
}
C
${CC:-cc} $flags -Wno-missing-prototypes "$tmp/probe.c" libcore/io/src.c "$tmp/srcz_none.o" \
    libcore/base/sha256.c libcore/base/sha256_ni.c libcore/base/error.c -o "$tmp/probe"
"$tmp/probe"
echo "stand_ins: compiled $(echo libcore/*/*_none.c); tt_src without zlib and liblzma reads" \
    "plain text and refuses gzip and xz"
