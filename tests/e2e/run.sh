#!/usr/bin/env bash
# End-to-end tests of the real tools: exit codes, messages, pipes, files.
# Each tests/e2e/t_*.sh is sourced in a subshell with helpers below; it
# fails by calling fail or by exiting non-zero.
# Needs TT_BIN (the built tools) and TT_SHARED (the shared folder).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
: "${TT_SHARED:=$here/../../../shared}"
export TT_BIN TT_SHARED PATH="$TT_BIN:$PATH"
TRACES="$TT_SHARED/traces"
export TRACES
FIX="$here/../fixtures"
export FIX

pass=0 failn=0 skipn=0
# TT_E2E=NAME runs only t_NAME.sh (a glob: TT_E2E="fmt_*")
for t in "$here"/t_${TT_E2E:-*}.sh; do
    name=$(basename "$t" .sh)
    work=$(mktemp -d)
    out=$( (
        set -eu
        cd "$work"
        fail() { echo "FAIL: $*"; exit 1; }
        skip() { echo "SKIP: $*"; exit 77; }
        # expect_exit CODE CMD...: runs CMD, checks its exit status
        expect_exit() {
            local want=$1; shift
            local got=0
            "$@" >out.txt 2>err.txt || got=$?
            [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(head -c 400 err.txt)"
        }
        # expect_err TEXT: stderr of the last expect_exit contains TEXT
        expect_err() { grep -qF -- "$1" err.txt || fail "stderr lacks '$1': $(head -c 400 err.txt)"; }
        . "$t"
    ) 2>&1 )
    rc=$?
    rm -rf "$work"
    if [ $rc = 0 ]; then
        pass=$((pass + 1)); echo "ok    $name"
        # a check a script could not make here is said, not hidden
        echo "$out" | grep "^SKIP (part)" | sed 's/^/      /'
    elif [ $rc = 77 ]; then
        skipn=$((skipn + 1)); echo "skip  $name: ${out##*SKIP: }"
    else
        failn=$((failn + 1)); echo "FAIL  $name"; echo "$out" | sed 's/^/      /' | tail -20
    fi
done
echo "e2e: $pass passed, $failn failed, $skipn skipped"
[ $failn = 0 ]
