#!/usr/bin/env bash
# tests/slurm/run.sh: the documentation's Slurm recipe (a job array of
# tt-sweep --shard, then tt-merge under afterok; tt-merge(1)), taken from
# the docs as written and run for real on a one-node Slurm started here (slurm.sh):
#   - every task succeeds: the merged file holds the unsharded sweep;
#   - a task fails: it leaves no file, the merge is cancelled (not left
#     pending), tt-merge by hand names the missing shard, and running that
#     task again (as the docs say) completes the sweep;
#   - a running task is cancelled (scancel): the same.
# Needs TT_BIN. Skips, saying why, where Slurm is not installed or does not
# start; TT_SLURM_REQUIRED=1 (CI, which installs it) makes that a failure.
# TT_SLURM_KEEP=1 keeps the folder (the daemons' logs, each task's output).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
TT_BIN=$(cd "$TT_BIN" && pwd)
export TT_BIN

skip() {
    echo "slurm: skipped: $*"
    [ "${TT_SLURM_REQUIRED:-0}" = 1 ] && { echo "slurm: FAIL: TT_SLURM_REQUIRED=1"; exit 1; }
    exit 0
}
fail() { echo "slurm: FAIL: $*"; exit 1; }
for c in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo h5dump; do
    command -v $c >/dev/null ||
        skip "no $c (apt-get install slurmctld slurmd slurm-client munge hdf5-tools)"
done

# shellcheck source=tests/slurm/slurm.sh
. "$here/slurm.sh"
work=$(mktemp -d)
chmod 755 "$work" # munged's socket must be reachable through every folder above it
trap 'slurm_stop; [ -n "${TT_SLURM_KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
slurm_start "$work/slurm" >"$work/start.txt" 2>&1 || skip "Slurm does not start here: $(cat "$work/start.txt")"
t0=$(date +%s)

# ---- the recipe, as the docs write it ----
# block PATTERN: the one fenced code block of the docs with a line matching
# PATTERN (its fence's indentation taken off)
block() {
    local f
    for f in "$root"/README.md "$root"/docs/*.md "$root"/docs/*/*.md; do
        [ -e "$f" ] && awk -v pat="$1" '
            /^ *```/ { if (inb) { if (hit) printf "%s", buf; inb = hit = 0; buf = "" }
                       else { inb = 1; match($0, /^ */); ind = RLENGTH }
                       next }
            inb { line = substr($0, ind + 1); buf = buf line "\n"; if (line ~ pat) hit = 1 }' "$f"
    done
}
block '^#SBATCH --array' >"$work/sweep.sbatch"
[ "$(head -1 "$work/sweep.sbatch")" = "#!/bin/sh" ] && [ "$(grep -c '^#!' "$work/sweep.sbatch")" = 1 ] ||
    fail "the docs hold no single sweep.sbatch block (#!/bin/sh, #SBATCH --array): $(cat "$work/sweep.sbatch")"
block 'sbatch --parsable sweep.sbatch' >"$work/submit"
[ "$(grep -c 'sbatch --parsable sweep.sbatch' "$work/submit")" = 1 ] && grep -q 'tt-merge' "$work/submit" ||
    fail "the docs hold no single block submitting sweep.sbatch and tt-merge: $(cat "$work/submit")"
tasks=$(sed -n 's/^#SBATCH --array=0-\([0-9]*\)$/\1/p' "$work/sweep.sbatch")
tasks=$((tasks + 1))
# the unsharded sweep: the script's tt-sweep line without --shard and -o
whole_cmd=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$work/sweep.sbatch" | grep '^tt-sweep ' |
    sed -E 's/ --shard +("[^"]*"|[^ ]+)//; s/ -o +("[^"]*"|[^ ]+)//')
[ -n "$whole_cmd" ] || fail "no tt-sweep line in sweep.sbatch"

# a shard that fails (TT_FAIL_TASK: a model table that does not exist) or
# runs long enough to be cancelled (TT_SLOW_TASK: a trace of 300,000
# jobs, 200 seeds of every configuration, each simulated: minutes even on
# a fast machine, where its own 22 take a second); the rest is the real tool
mkdir "$work/shim"
cat >"$work/shim/tt-sweep" <<'EOF'
#!/bin/sh
[ "$SLURM_ARRAY_TASK_ID" = "${TT_FAIL_TASK:-none}" ] && set -- "$@" --models missing.tsv
if [ "$SLURM_ARRAY_TASK_ID" = "${TT_SLOW_TASK:-none}" ]; then
    for a; do shift; [ "$a" = trace.h5 ] && a=big.h5; set -- "$@" "$a"; done
    set -- "$@" -g seed=1:200:200 --no-dedup
fi
exec "$TT_BIN/tt-sweep" "$@"
EOF
chmod +x "$work/shim/tt-sweep"
export PATH="$work/shim:$TT_BIN:$PATH"
"$TT_BIN/tt-ingest" -q -o "$work/trace.h5" "$root/data/example.tsv" || fail "tt-ingest"

# submit DIR: the recipe submitted from DIR; sets ARRAY and MERGE
submit() {
    cd "$1" || fail "cd $1"
    cp "$work/sweep.sbatch" "$work/trace.h5" .
    # shellcheck disable=SC1091 # sets jid
    . "$work/submit" >submit.out 2>&1 || fail "submitting: $(cat submit.out)"
    ARRAY=${jid:-}
    MERGE=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' submit.out)
    [ -n "$ARRAY" ] && [ -n "$MERGE" ] || fail "submitting: $(cat submit.out)"
}
# settle ID...: waits until no job of the IDs is pending or running
settle() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -j "$(echo "$@" | tr ' ' ,)" 2>/dev/null)" ] && return 0
        sleep 0.1
    done
    fail "jobs $* still queued after 60 s: $(squeue -j "$(echo "$@" | tr ' ' ,)")"
}
state() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]* Reason=[A-Za-z_]*' | sort | uniq -c | tr -s ' '; }
# datasets FILE: every dataset of the sweep as h5dump prints it
datasets() { h5dump -d /sweep/index -g /sweep/params -g /sweep/metrics "$1" | sed 1d; }
# no_shard K: task K left no file, not even a temporary one
no_shard() {
    [ ! -e "sweep_$1.h5" ] || fail "task $1 left sweep_$1.h5"
    local t
    for t in .*tmp-*; do
        [ ! -e "$t" ] || fail "a temporary file is left: $t"
    done
    [ ! -e sweep.h5 ] || fail "the merge ran"
}
# merge_cancelled K: the merge was cancelled, and tt-merge by hand names shard K
merge_cancelled() {
    [ "$(state "$MERGE")" = " 1 JobState=CANCELLED Reason=DependencyNeverSatisfied" ] ||
        fail "the merge job: $(state "$MERGE")"
    "$TT_BIN/tt-merge" -o sweep.h5 sweep_*.h5 2>merge.err && fail "tt-merge by hand merged"
    grep -q "shard $1/$tasks missing" merge.err || fail "tt-merge by hand: $(cat merge.err)"
}

# ---- every task succeeds ----
mkdir "$work/ok"
submit "$work/ok"
settle "$ARRAY" "$MERGE"
[ "$(state "$ARRAY")" = " $tasks JobState=COMPLETED Reason=None" ] || fail "the array: $(state "$ARRAY")"
[ "$(state "$MERGE")" = " 1 JobState=COMPLETED Reason=None" ] || fail "the merge: $(state "$MERGE") $(cat slurm-"$MERGE".out)"
grep -q "tt-merge: $tasks shards, [0-9]* configurations -> sweep.h5" "slurm-$MERGE.out" ||
    fail "the merge's output: $(cat "slurm-$MERGE.out")"
SLURM_CPUS_PER_TASK=2 eval "$whole_cmd -o whole.h5" >whole.tsv 2>whole.err || fail "$whole_cmd: $(cat whole.err)"
datasets whole.h5 >whole.txt
datasets sweep.h5 >merged.txt
[ "$(wc -l <whole.txt)" -gt 100 ] && cmp -s whole.txt merged.txt ||
    fail "the merged file is not the unsharded sweep: $(diff whole.txt merged.txt | head)"
echo "slurm: $tasks shards and the merge under afterok: the unsharded sweep ($(($(date +%s) - t0)) s)"

# ---- a task fails ----
mkdir "$work/fail"
TT_FAIL_TASK=2 submit "$work/fail"
settle "$ARRAY" "$MERGE"
[ "$(state "${ARRAY}_2")" = " 1 JobState=FAILED Reason=NonZeroExitCode" ] || fail "task 2: $(state "${ARRAY}_2")"
grep -q "tt-sweep: .*missing.tsv" "slurm-${ARRAY}_2.out" || fail "task 2 said: $(cat "slurm-${ARRAY}_2.out")"
no_shard 2
merge_cancelled 2
# the docs' remedy: that task again, then the merge
again=$(sbatch --parsable --array=2 sweep.sbatch) || fail "sbatch --array=2"
settle "$again"
"$TT_BIN/tt-merge" -o sweep.h5 sweep_*.h5 2>merge.err || fail "tt-merge after the task ran again: $(cat merge.err)"
datasets sweep.h5 >merged.txt
cmp -s "$work/ok/whole.txt" merged.txt || fail "the sweep completed by hand is not the unsharded sweep"
echo "slurm: a failed task: no file, the merge cancelled, tt-merge names it; run again, merged ($(($(date +%s) - t0)) s)"

# ---- a running task is cancelled ----
mkdir "$work/cancel"
"$TT_BIN/tt-gen" -n 300000 -o "$work/cancel/big.h5" || fail "tt-gen"
TT_SLOW_TASK=1 TT_PROGRESS_S=1 submit "$work/cancel"
# its first progress line says it is under way
progress="tt-sweep: [0-9]*/[0-9]* simulations, [0-9.]* sims/s"
for _ in $(seq 300); do
    grep -q "$progress" "slurm-${ARRAY}_1.out" 2>/dev/null && break
    sleep 0.1
done
grep -q "$progress" "slurm-${ARRAY}_1.out" || fail "task 1 is not running: $(state "$ARRAY")"
scancel "${ARRAY}_1"
settle "$ARRAY" "$MERGE"
[ "$(state "${ARRAY}_1")" = " 1 JobState=CANCELLED Reason=None" ] || fail "task 1: $(state "${ARRAY}_1")"
# the batch shell dies at once; tt-sweep ends its configuration first, and
# (proctrack/linuxproc losing it with its parent) may outlive the job
stopped="tt-sweep: stopped by signal 15 before the end: nothing written"
for _ in $(seq 100); do
    grep -q "$stopped" "slurm-${ARRAY}_1.out" && break
    sleep 0.1
done
grep -q "$stopped" "slurm-${ARRAY}_1.out" || fail "task 1 said: $(cat "slurm-${ARRAY}_1.out")"
no_shard 1
merge_cancelled 1
echo "slurm: a cancelled task: no file, the merge cancelled, tt-merge names it ($(($(date +%s) - t0)) s)"
