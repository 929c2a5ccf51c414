#!/usr/bin/env bash
# tests/check.sh: make check, what CI runs. Every suite, each run whole even
# when one before failed, in this order: fuzz (a short run of every fuzzer,
# libFuzzer's output in build-fuzz/log/), sanitize (unit, e2e and api under
# ASan + UBSan), slurm, then make test's: unit, e2e, api, docs (doccheck),
# install (installcheck), notebooks. Each suite's output goes to the
# terminal as it runs and to build/check/SUITE.log; at the end a line a
# suite and, last, one line "N passed, M failed" summed over them (tests
# where a suite counts them: Criterion's tests, e2e scripts, fuzzers, the
# checks of api and docs; else the suite as one). Exit 1 when M > 0.
# Run by make check (MAKE as that make has it; its variables reach the
# suites through MAKEFLAGS).
set -uo pipefail
cd "$(dirname "$0")/.."
: "${MAKE:=make}"
logs=${CHECK_LOGS:-build/check}
mkdir -p "$logs"
pass=0 failn=0
summary=()

# count SUITE STATUS PASSED FAILED NOTE: adds a suite's counts; a suite that
# failed with no failure counted (a build error, a crash) counts one
count() {
    local p=$3 f=$4 note=$5
    if [ "$2" != 0 ] && [ "$f" = 0 ]; then
        f=1
        note="${note:+$note; }make failed: see $logs/$1.log"
    fi
    pass=$((pass + p))
    failn=$((failn + f))
    summary+=("$(printf '%-10s %5d passed, %d failed%s' "$1" "$p" "$f" "${note:+ ($note)}")")
}
# lines PATTERN LOG: how many lines of LOG match PATTERN
lines() { grep -cE -- "$1" "$2" || true; }
# the closing lines of the checks of api and docs when they pass
API_OK='^(stand_ins: compiled |headers: [0-9]+ public headers compile |symbols: [0-9]+ objects, every )'
DOCS_OK='^(man: [0-9]+ pages render |completion: [0-9]+ cases completed |figures: docs/figures/)'
# criterion LOG: "passed failed" from Criterion's last synthesis line
criterion() {
    sed 's/\x1b\[[0-9;]*m//g' "$1" | grep 'Synthesis: Tested:' | tail -1 |
        sed -n 's/.*Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3/p' |
        awk '{ print $1, $2 + $3 }'
}
# e2e LOG: "passed failed skipped" from run.sh's last line
e2e() { sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$1" | tail -1; }
# run SUITE TARGET...: make TARGET..., its output shown and kept; sets st
run() {
    echo "==== $1 (make ${*:2})"
    $MAKE --no-print-directory "${@:2}" 2>&1 | tee "$logs/$1.log"
    st=${PIPESTATUS[0]}
}

run fuzz fuzz
count fuzz $st "$(lines '^fuzz: [a-z0-9_]+: ok' "$logs/fuzz.log")" \
    "$(lines '^fuzz: [a-z0-9_]+: FAIL' "$logs/fuzz.log")" "libFuzzer's output in build-fuzz/log/"

run sanitize sanitize
read -r up uf < <(criterion "$logs/sanitize.log"; echo)
read -r ep ef es < <(e2e "$logs/sanitize.log"; echo)
[ "${es:-0}" = 0 ] && es=""
ap=$(lines "$API_OK" "$logs/sanitize.log")
count sanitize $st $((${up:-0} + ${ep:-0} + ap)) $((${uf:-0} + ${ef:-0})) \
    "unit ${up:-0}/$((${up:-0} + ${uf:-0})), e2e ${ep:-0}/$((${ep:-0} + ${ef:-0}))${es:+, $es skipped}, api $ap/3"

run slurm slurm
if grep -q '^slurm: skipped' "$logs/slurm.log"; then
    count slurm $st 0 0 "$(grep -m1 '^slurm: skipped' "$logs/slurm.log" | sed 's/^slurm: //')"
else
    count slurm $st $((st == 0)) 0 ""
fi

run unit unit
read -r up uf < <(criterion "$logs/unit.log"; echo)
count unit $st "${up:-0}" "${uf:-0}" ""

run e2e e2e
read -r ep ef es < <(e2e "$logs/e2e.log"; echo)
[ "${es:-0}" = 0 ] && es=""
count e2e $st "${ep:-0}" "${ef:-0}" "${es:+$es skipped}"

run api api
ap=$(lines "$API_OK" "$logs/api.log")
count api $st "$ap" 0 ""

run docs doccheck
dp=$(lines "$DOCS_OK" "$logs/docs.log")
count docs $st "$dp" 0 "$(grep -m1 '^figures: skipped' "$logs/docs.log")"

run install installcheck
count install $st $((st == 0)) 0 ""

run notebooks notebooks
if grep -q '^notebooks: skipped' "$logs/notebooks.log"; then
    count notebooks $st 0 0 "$(grep -m1 '^notebooks: skipped' "$logs/notebooks.log" | sed 's/^notebooks: //')"
else
    count notebooks $st $((st == 0)) 0 ""
fi

echo "==== check: every suite (logs in $logs/)"
printf '%s\n' "${summary[@]}"
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]
