# SPEC 7's invariants on tt-sim's own output (--jobs, --timeline, the
# metrics row) over random small traces that stress eviction: more jobs
# than GPUs, min_run 0, sensitive jobs, every queue order, priority
# preemption (tests/e2e/invariants.py says what is checked). The unit
# tests check the engine's segment log against the reference simulator;
# this checks what a user reads.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=${TT_INVARIANT_RUNS:-80}
preempted=0
for seed in $(seq 1 "$runs"); do
    args=$(python3 "$here/invariants.py" gen "$seed" c.csv m.tsv)
    expect_exit 0 tt-ingest -q -f csv -o c.h5 c.csv
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim $args --models m.tsv --jobs c.h5
    mv out.txt jobs.tsv
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim $args --models m.tsv --timeline c.h5
    mv out.txt timeline.tsv
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim $args --models m.tsv c.h5
    mv out.txt metrics.tsv
    set -- $args
    IFS=x read -r r n g <<<"$2"
    python3 "$here/invariants.py" check c.csv jobs.tsv timeline.tsv metrics.tsv $((r * n * g)) ||
        fail "seed $seed: tt-sim $args --models m.tsv: $(cat c.csv | tr '\n' ' ')"
    p=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "preemptions") c = i } NR == 2 { print $c }' metrics.tsv)
    preempted=$((preempted + p))
done
# the cases reach eviction
[ "$preempted" -gt "$runs" ] || fail "only $preempted evictions over $runs cases"
