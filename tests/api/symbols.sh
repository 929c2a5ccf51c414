#!/usr/bin/env bash
# tests/api/symbols.sh BUILD: every symbol the library exports starts with
# tt (its public prefix), so it cannot clash with a user's program. Reads
# the objects of libcore and of the kernels; in an object compiled by nvcc
# only its C symbols count (the C++ runtime and CUB bring their own); under
# AddressSanitizer each global gains an __odr_asan. marker of its own.
set -euo pipefail
build=${1:?BUILD folder}
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
echo "symbols: $(echo "$objs" | wc -l) objects, every exported symbol starts with tt"
