#!/usr/bin/env bash
# tests/api/headers.sh: every public header compiles alone, as C11 and as
# C++17, with warnings as errors, so a user may include any one of them
# first, from C or from C++.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for h in libcore/include/tt/*.h; do
    name=$(basename "$h")
    printf '#include "tt/%s"\n#include "tt/%s"\nint tt_header_probe;\n' "$name" "$name" >"$tmp/p.c"
    cp "$tmp/p.c" "$tmp/p.cpp"
    if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -Ilibcore/include -c "$tmp/p.c" -o "$tmp/p.o" 2>"$tmp/err"; then
        echo "headers: $name does not compile alone as C11:" >&2; head -5 "$tmp/err" >&2; bad=1
    fi
    if ! ${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -Ilibcore/include -c "$tmp/p.cpp" -o "$tmp/p.o" 2>"$tmp/err"; then
        echo "headers: $name does not compile alone as C++17:" >&2; head -5 "$tmp/err" >&2; bad=1
    fi
    n=$((n + 1))
done
[ $bad = 0 ] && echo "headers: $n public headers compile alone as C11 and C++17"
exit $bad
