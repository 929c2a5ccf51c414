# tt-sweep simulates each canonical form of a configuration once
# (docs/model.md 8.1): its rows and its sweep file are byte for byte those
# of --no-dedup, which simulates every row: on Philly over a grid that
# touches every rule, and on random grids over the example trace (as it
# is, and with model names on two jobs in three) and over a tt-gen trace;
# the count it says on stderr and keeps in the file; tt-merge's sum.
command -v h5dump >/dev/null || skip "no h5dump (apt install hdf5-tools)"

# dump F: the sweep file as h5dump prints it, without the attributes
# that may differ: the times, and the count --no-dedup does not write
dump() {
    h5dump "$1" | grep -v '^HDF5 "' | awk '
        /ATTRIBUTE "(elapsed_s|sims_per_s|distinct_simulations)"/ { skip = 1; ind = index($0, "A") }
        skip && /^ *}$/ && index($0, "}") == ind { skip = 0; next }
        !skip'
}
# same_as_all ARGS...: tt-sweep ARGS with and without --no-dedup: the same
# rows and file; sets forms (the distinct simulations) and rows
same_as_all() {
    expect_exit 0 tt-sweep -d cpu -j 2 -o dedup.h5 "$@"
    cp out.txt dedup.tsv
    cp err.txt dedup.err
    expect_exit 0 tt-sweep -d cpu -j 2 --no-dedup -o all.h5 "$@"
    cmp -s dedup.tsv out.txt || fail "$*: rows differ from --no-dedup: $(diff dedup.tsv out.txt | head -4)"
    cmp -s <(dump dedup.h5) <(dump all.h5) ||
        fail "$*: the file differs from --no-dedup's: $(diff <(dump dedup.h5) <(dump all.h5) | head -6)"
    rows=$(($(wc -l <dedup.tsv) - 1))
    forms=$(sed -n 's/^tt-sweep: [0-9,]* configurations*, \([0-9,]*\) distinct simulations*$/\1/p' dedup.err | tr -d ,)
    [ -n "$forms" ] || fail "$*: no count on stderr: $(cat dedup.err)"
    local all
    all=$(sed -n 's/^tt-sweep: [0-9,]* configurations*, \([0-9,]*\) simulations* (--no-dedup)$/\1/p' err.txt | tr -d ,)
    [ "$all" = "$rows" ] || fail "--no-dedup: $rows simulations expected: $(cat err.txt)"
    h5dump -a /sweep/distinct_simulations dedup.h5 | grep -q "(0): $forms\$" ||
        fail "$*: distinct_simulations: $(h5dump -a /sweep/distinct_simulations dedup.h5)"
    if h5dump -a /sweep/distinct_simulations all.h5 >/dev/null 2>&1; then
        fail "--no-dedup wrote distinct_simulations"
    fi
    [ "$forms" -lt "$rows" ] || fail "$*: $forms simulations for $rows rows: nothing merged"
}

# ---- a small grid: the line and the count by hand ----
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"
# every model unknown, drawn from all 6 classes; theta 1400 and 1600 make
# the same classes sensitive (L2 >= 1643: ncf, bert); w0 = inf: no
# preemption, theta does nothing: 4 x 4 + 1 = 17 of 25
same_as_all -c 2x8x8 -p w1=0 -g w0=0,60,600,3600,inf -g theta=1100,1200,1400,1600,inf ex.h5
[ "$forms" = 17 ] || fail "17 distinct simulations expected, got $forms"
grep -qx "tt-sweep: 25 configurations, 17 distinct simulations" dedup.err || fail "$(cat dedup.err)"
grep -qx "tt-sweep: 25 configurations, 25 simulations (--no-dedup)" err.txt || fail "$(cat err.txt)"
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -p w0=inf -p w1=0 ex.h5
grep -qx "tt-sweep: 1 configuration, 1 distinct simulation" err.txt || fail "$(cat err.txt)"
# with -d auto the device line comes first
expect_exit 0 tt-sweep -c 2x8x8 -g w0=0,inf -g w1=0,5 ex.h5
[ "$(sed -n 2p err.txt)" = "tt-sweep: 4 configurations, 3 distinct simulations" ] ||
    fail "-d auto: $(cat err.txt)"

# ---- shards: each counts its own; tt-merge sums them ----
G="-p w1=0 -g w0=0,60,600,3600,inf -g theta=1100,1200,1400,1600,inf"
sum=0
for k in 0 1 2; do
    # shellcheck disable=SC2086
    expect_exit 0 tt-sweep -d cpu -c 2x8x8 $G --shard $k/3 -o s$k.h5 ex.h5
    n=$(sed -n 's/.* configurations, \([0-9]*\) distinct simulations$/\1/p' err.txt)
    [ -n "$n" ] || fail "shard $k: $(cat err.txt)"
    sum=$((sum + n))
done
expect_exit 0 tt-merge -o m.h5 s0.h5 s1.h5 s2.h5
h5dump -a /sweep/distinct_simulations m.h5 | grep -q "(0): $sum\$" ||
    fail "merged: $sum expected: $(h5dump -a /sweep/distinct_simulations m.h5)"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -c 2x8x8 $G --shard 1/3 --no-dedup -o s1.h5 ex.h5
expect_exit 0 tt-merge -o m.h5 s0.h5 s1.h5 s2.h5
if h5dump -a /sweep/distinct_simulations m.h5 >/dev/null 2>&1; then
    fail "a shard simulated every row: the merged file has a count"
fi

# ---- random grids: 40 configurations and 3 neighbours of each ----
# configs SEED: a --configs file; each neighbour redraws one parameter of
# its base, as a grid's next point does
configs() {
    awk -v seed="$1" '
    function pick(list,   a, n) { n = split(list, a, " "); return a[int(rand() * n) + 1] }
    function draw(k) {
        if (k == 1) return pick("fifo sjf srtf las")
        if (k == 2) return pick("0 60 600 inf inf")
        if (k == 3) return pick("0 600 inf")
        if (k == 4) return pick("0 1034 1100 1190 1386 1500 1643 1766 1767 inf inf")
        if (k == 5) return pick("0 30")
        if (k == 6) return pick("0 0 1 2 100 900")
        if (k == 7) return pick("0 300")
        if (k == 8) return pick("0 1 3")
        if (k == 9) return pick("1 1 0")
        if (k == 10) return pick("1000 1000 3000")
        if (k == 11) return pick("1 2")
        if (k == 12) return pick("bert:1,ncf:1,yolov3:1,resnet18:1,deepspeech2:1,resnet50:1 resnet50:1 bert:3,resnet50:1 ncf:2")
        return pick("- - ncf:0:0 bert:inf:5 resnet50:60:inf")
    }
    BEGIN {
        srand(seed)
        print "order\tw0\tw1\ttheta\trestart\tcongestion\tmin_run\tmax_preempt\tbackfill\tload\tseed\tmix\ttimers"
        for (b = 0; b < 40; b++) {
            for (k = 1; k <= 13; k++) v[k] = draw(k)
            for (n = 0; n < 4; n++) {
                if (n > 0) { k = int(rand() * 13) + 1; keep = v[k]; v[k] = draw(k) }
                line = v[1]
                for (k2 = 2; k2 <= 13; k2++) line = line "\t" v[k2]
                print line
                if (n > 0) v[k] = keep
            }
        }
    }'
}
# the example trace with model names: bert, resnet50, unknown in turn
awk -F'\t' -v OFS='\t' 'NR > 1 { $11 = NR % 3 == 0 ? "bert" : NR % 3 == 1 ? "resnet50" : "" } 1' \
    "$FIX/../../data/example.tsv" >named.tsv
expect_exit 0 tt-ingest -q -o named.h5 named.tsv
expect_exit 0 tt-gen -n 3000 -s 5 -o gen.h5
for t in ex named gen; do
    for s in 1 2; do
        configs $s >c$s.tsv
        same_as_all -c 2x8x8 --configs c$s.tsv $t.h5
    done
done

# ---- the rules at their edges (docs/model.md 8.1, 13 item 14) ----
# the example trace on 2x2x4 (a rack of 8, a cluster of 16), no job above
# a rack; w0 = inf: congestion counts only for a job of more than a rack
# that fits the cluster, so with a job of exactly 16 GPUs every 50th row
# congestion 0 and 1 (the same slowdowns) are one simulation of 3 per
# backfill, and with jobs of at most exactly a rack all four are one
awk -F'\t' -v OFS='\t' 'NR > 1 && $3 > 8 { $3 = 8 } NR > 1 && NR % 50 == 0 { $3 = 16 } 1' \
    "$FIX/../../data/example.tsv" >c16.tsv
awk -F'\t' -v OFS='\t' 'NR > 1 && $3 > 8 { $3 = 8 } 1' "$FIX/../../data/example.tsv" >c8.tsv
for t in c16 c8; do
    expect_exit 0 tt-ingest -q -o $t.h5 $t.tsv
    same_as_all -c 2x2x4 -p w0=inf -g congestion=0,1,100,500 -g backfill=0,1 $t.h5
    [ "$forms" = "$([ $t = c16 ] && echo 6 || echo 2)" ] || fail "$t: $forms distinct simulations"
done
# a tt-gen trace of workflows with models and outputs (some in workflow
# 0): the cache's parameters, each over two values. Without the cache
# load_bw, cache_slots and evict merge, so 2 x 2 (cache_place: a task
# may read an output; w_warm always counts) + 32 with gpu_mem = 500
expect_exit 0 tt-gen -n 400 -s 3 --wf-frac 0.5 --models 6 -o wf.h5
same_as_all -c 2x2x4 -p xfer_bw=10 -g gpu_mem=0,500 -g load_bw=10,1000 -g cache_slots=1,4 \
    -g evict=lru,demand -g cache_place=off,affinity -g w_warm=0,5 wf.h5
[ "$forms" = 36 ] || fail "workflows: 36 distinct simulations expected, got $forms"

# ---- Philly: every rule on the real trace (no job there is larger than a
# rack of 4x32x8, every model unknown) ----
if [ -r "$TRACES/philly/pollux_philly.csv" ]; then
    expect_exit 0 tt-ingest -q -o p.h5 "$TRACES/philly/pollux_philly.csv"
    # timers, theta, eviction, congestion: 2 x 2 x 4 x 2 x 2 x 2 = 128. w0 = inf:
    # one simulation; w0 = 600: w1 x congestion x (no eviction (theta inf,
    # theta 1000 that makes every class sensitive and leaves no victim, or
    # max_preempt 0), or 2 sets of sensitive classes x min_run) = 2 x 2 x 5
    same_as_all -c 4x32x8 -p load=3000 -g w0=600,inf -g w1=0,3600 \
        -g theta=1000,1200,1700,inf -g max_preempt=0,3 -g min_run=0,300 -g congestion=0,300 p.h5
    [ "$forms" = 21 ] || fail "philly grid 1: 21 simulations expected, got $forms"
    # mix, seed, class timers, restart: 2 x 2 x 3 x 2 x 2 = 48; theta 1700:
    # bert alone is sensitive. bert alone drawn: no victim, and the seed and
    # ncf's timers do nothing, 2 simulations (w0 600, and bert waiting
    # forever); bert and ncf: per seed, 3 for each of "-" and ncf:0:0 (w0
    # 600 with restart 0 or 30, and w0 inf), one more for bert:inf (w0 =
    # 600), so 2 + 2 x 7 = 16
    same_as_all -c 4x32x8 -p load=3000 -p w1=0 -p theta=1700 -g 'mix=bert:1;bert:1,ncf:1' \
        -g seed=1,2 -g 'timers=-;ncf:0:0;bert:inf:-' -g w0=600,inf -g restart=0,30 p.h5
    [ "$forms" = 16 ] || fail "philly grid 2: 16 simulations expected, got $forms"
else
    echo "SKIP (part): no shared Philly CSV" >&2
fi
