#!/usr/bin/env bash
# The mutation pass (make mutants; not in CI, it takes about an hour):
# each mutant of tests/mutants/mutants.txt, a small plausible change to
# the code, is applied to a scratch copy of the working tree (never to the
# tree itself), built with HAVE_CUDA=0, and the unit tests run on it, then
# the end-to-end scripts the mutant names. A mutant the tests fail is
# caught; one they pass survived (a gap in the tests, or an equivalent
# mutant: docs/development.md's table says which); one whose run passes
# its time limit is caught by the timeout.
#
#   tests/mutants/run.sh [GLOB...]   the mutants whose names match (all)
#
# Prints a TSV table on stdout: mutant, file, result (caught, timeout,
# survived; nobuild: the mutant does not compile; stale: its text is no
# longer in the file; equivalent: argued so in mutants.txt, applied but
# not run), and the tests that failed (for an equivalent one, why). Progress on stderr.
# TT_MUTANT_TIMEOUT (60): each unit test's limit in seconds; the unit run
# as a whole and each end-to-end script get 10 times that.
# TT_MUTANT_KEEP=1 keeps the scratch copy. Needs python3 and git.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
limit=${TT_MUTANT_TIMEOUT:-60}
shared=${TT_SHARED:-$(cd "$root/.." && pwd)/shared}
names=$(python3 "$here/mutate.py" "$here/mutants.txt" names "$@") || exit 2
[ -n "$names" ] || { echo "mutants: no mutant matches $*" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tt-mutants.XXXXXX")
[ "${TT_MUTANT_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
log() { echo "mutants: $*" >&2; }

# the working tree as it is (tracked and untracked files, not the ignored
# ones: no build output), so new tests count before they are committed
(cd "$root" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) |
    tar -C "$work" -xf - || exit 2
cd "$work" || exit 2
# the list and the script as they were at the start, whatever happens to
# the tree during the pass
list=$work/tests/mutants/mutants.txt
mutate() { python3 "$work/tests/mutants/mutate.py" "$list" "$@"; }

build() { make -j2 HAVE_CUDA=0 all build/tests/unit >build.log 2>&1; }
# unit: 0 when the unit tests pass; sets failed (the failing tests)
unit() {
    local rc=0
    TT_SHARED=$shared timeout $((10 * limit)) build/tests/unit -j2 --timeout "$limit" \
        >unit.log 2>&1 || rc=$?
    failed=$(sed -n 's/^\[FAIL\] \([^ :]*::[^ :]*\):.*/\1/p' unit.log | sort -u | head -3 | paste -sd ' ')
    timedout=0
    if [ $rc = 124 ] || grep -q 'Timed out' unit.log; then timedout=1; fi
    [ $rc = 124 ] && failed="${failed:+$failed }(the whole run)"
    return $rc
}
# e2e NAME...: 0 when the scripts t_NAME.sh pass; adds to failed
e2e() {
    local rc=0 t
    for t in "$@"; do
        TT_E2E=$t TT_BIN=$work/bin TT_SHARED=$shared timeout $((10 * limit)) \
            tests/e2e/run.sh >e2e.log 2>&1 || { rc=1; failed="${failed:+$failed }t_$t"; }
    done
    return $rc
}

log "building the unmutated copy in $work"
build || { tail -20 build.log >&2; log "the unmutated tree does not build"; exit 1; }
all_e2e=$(for n in $names; do [ -n "$(mutate why "$n")" ] || mutate show "$n" | cut -f2; done |
    tr ' ,' '\n\n' | sort -u | paste -sd ' ')
if ! unit || ! e2e $all_e2e; then
    log "the unmutated tree fails: $failed"
    exit 1
fi

printf 'mutant\tfile\tresult\tby\n'
ncaught=0 nsurv=0 nequiv=0 nother=0
for n in $names; do
    IFS=$'\t' read -r file scripts < <(mutate show "$n")
    cp -p "$file" "$work/.orig"
    failed= result=
    why=$(mutate why "$n")
    if ! mutate apply "$n" "$work" 2>mutate.log; then
        result=stale failed=$(cat mutate.log)
    elif [ -n "$why" ]; then
        result=equivalent failed=$why
    elif ! build; then
        result=nobuild failed=$(grep -m1 'error' build.log)
    elif ! unit; then
        result=caught
        [ $timedout = 1 ] && result=timeout
    elif [ -n "$scripts" ] && ! e2e ${scripts//,/ }; then
        result=caught
    else
        result=survived
    fi
    # back to the original text; its new mtime rebuilds what the mutant built
    cp "$work/.orig" "$file" && touch "$file"
    case $result in
    caught | timeout) ncaught=$((ncaught + 1)) ;;
    survived) nsurv=$((nsurv + 1)) ;;
    equivalent) nequiv=$((nequiv + 1)) ;;
    *) nother=$((nother + 1)) ;;
    esac
    printf '%s\t%s\t%s\t%s\n' "$n" "$file" "$result" "$failed"
    log "$n: $result ${failed:+($failed)}"
done
log "$ncaught caught, $nsurv survived, $nequiv equivalent, $nother neither (stale or nobuild)"
