#!/usr/bin/env bash
# tests/fuzz/run.sh NAME SECONDS MAX_LEN DIR [FLAG...]: one fuzzer
# (build-fuzz/fuzz_NAME) from its seeds in tests/fuzz/corpus/NAME, new
# inputs in DIR, what it finds in tests/fuzz/crashers/NAME/. libFuzzer's
# output goes to build-fuzz/log/NAME.log; on the terminal one line: what it
# ran, or where its finding and its log are. Exit 1 on a finding. Run by
# make fuzz and make fuzz-long.
set -uo pipefail
name=$1 secs=$2 max=$3 dir=$4
shift 4
log=build-fuzz/log/$name.log
mkdir -p "$dir" "tests/fuzz/crashers/$name" build-fuzz/log
dict=()
[ -f "tests/fuzz/$name.dict" ] && dict=("-dict=tests/fuzz/$name.dict")
# HDF5 asks for what a corrupt file claims and copes with a NULL, as the
# library does: malloc may fail here as it does outside ASan
if ASAN_OPTIONS=allocator_may_return_null=1 LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp \
    "build-fuzz/fuzz_$name" -max_total_time="$secs" -max_len="$max" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 "$@" "${dict[@]}" \
    -artifact_prefix="tests/fuzz/crashers/$name/" "$dir" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "fuzz: $name: ok, ${runs:-?} inputs in $secs s (libFuzzer's output: $log)"
    exit 0
fi
echo "fuzz: $name: FAIL: a finding in tests/fuzz/crashers/$name/ (libFuzzer's output: $log):"
grep -m 4 -E '^==[0-9]+==ERROR|^SUMMARY|deadly signal|Test unit written|^ALARM|out-of-memory' "$log" |
    sed 's/^/      /'
exit 1
