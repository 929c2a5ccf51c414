#!/usr/bin/env bash
# tests/api/symbols.sh BUILD [SO]: the names the library gives a program.
# 1. Every global symbol of libcore's and the kernels' objects starts with
#    tt (its prefix), so a static link cannot clash with a user's program;
#    in an object compiled by nvcc only its C symbols count (the C++
#    runtime and CUB bring their own); under AddressSanitizer each global
#    gains an __odr_asan. marker of its own.
# 2. With SO (libtracetune.so), every name it exports is declared by a
#    public header (libcore/include/tt/*.h): the objects are built with
#    hidden visibility and the headers make their declarations default, so
#    an internal name that leaks (a missing -fvisibility=hidden, a public
#    pragma around an internal header) fails here.
set -euo pipefail
build=${1:?BUILD folder}
so=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
objs=$(find "$build/libcore" "$build/kernels" -name '*.o' | sort)
[ -n "$objs" ] || { echo "symbols: no objects under $build" >&2; exit 1; }
bad=$(for o in $objs; do
    nm -g --defined-only "$o" | awk -v o="$o" 'NF == 3 { print o ": " $3 }'
done | grep -v ': tt' | grep -Ev ': (_Z|nvtx|InitializeInjection|DW\.ref|__odr_asan\.)' || true)
if [ -n "$bad" ]; then
    echo "symbols: exported without the tt prefix:" >&2
    echo "$bad" >&2
    exit 1
fi
echo "symbols: $(echo "$objs" | wc -l) objects, every global symbol starts with tt"
[ -n "$so" ] || exit 0
declared=$(cat "$here"/../../libcore/include/tt/*.h | grep -o '\btt_[A-Za-z0-9_]*' | sort -u)
exported=$(nm -D --defined-only "$so" | awk 'NF == 3 && $2 != "A" { print $3 }' | sort -u)
[ -n "$exported" ] || { echo "symbols: $so exports nothing" >&2; exit 1; }
leaked=$(comm -23 <(echo "$exported") <(echo "$declared"))
if [ -n "$leaked" ]; then
    echo "symbols: $so exports $(echo "$leaked" | wc -l) names no public header declares:" >&2
    echo "$leaked" | head -40 >&2
    exit 1
fi
echo "symbols: $so exports $(echo "$exported" | wc -l) names, each declared in tt/*.h"
