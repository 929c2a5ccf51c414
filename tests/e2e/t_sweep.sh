# tt-sweep: rows equal to tt-sim's for the same configurations (and to the
# hand-worked values of t_sim.sh), independent of threads and shards; the
# HDF5 sweep file read with h5py; usage and input errors.
T=$(printf '\t')

expect_exit 0 tt-ingest -q -f csv -o small.h5 "$FIX/sim/sim_small.tsv"

# ---- 2 x 2 x 3 = 12 configurations, the first -g slowest ----
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g backfill=1,0 -g order=fifo,sjf \
    -g w0=0:600:3 -p restart=10 small.h5
cp out.txt sweep.tsv
[ "$(wc -l <sweep.tsv)" = 13 ] || fail "expected a header and 12 rows: $(cat sweep.tsv)"
[ "$(cut -f9,1,2 sweep.tsv | tail -n +2 | tr '\t\n' ',;')" = \
  "fifo,0,1;fifo,300,1;fifo,600,1;sjf,0,1;sjf,300,1;sjf,600,1;fifo,0,0;fifo,300,0;fifo,600,0;sjf,0,0;sjf,300,0;sjf,600,0;" ] ||
    fail "configuration order: $(cut -f1,2,9 sweep.tsv)"
# every row is byte for byte tt-sim's row for its configuration
k=0
for bf in 1 0; do
    for o in fifo sjf; do
        for w in 0 300 600; do
            k=$((k + 1))
            expect_exit 0 tt-sim -c 1x1x4 -p backfill=$bf -p order=$o -p w0=$w -p restart=10 small.h5
            [ "$(head -1 out.txt)" = "$(head -1 sweep.tsv)" ] || fail "header differs from tt-sim's"
            [ "$(sed -n 2p out.txt)" = "$(sed -n "$((k + 1))p" sweep.tsv)" ] ||
                fail "row $k ($bf $o $w): $(sed -n "$((k + 1))p" sweep.tsv) vs tt-sim $(sed -n 2p out.txt)"
        done
    done
done
# and to the values worked out by hand in t_sim.sh: with backfill makespan
# 150, JCT mean 72.5, util 470/600; without 180, 130, 470/720
[ "$(sed -n 2p sweep.tsv | cut -f34,35,48)" = "150${T}72.500000${T}0.783333" ] ||
    fail "backfill=1 row: $(sed -n 2p sweep.tsv)"
[ "$(sed -n 8p sweep.tsv | cut -f34,35,48)" = "180${T}130.000000${T}0.652778" ] ||
    fail "backfill=0 row: $(sed -n 8p sweep.tsv)"
# the device is said once with -d auto (the default), nothing with -d cpu
grep -q "ran on" err.txt && fail "-d cpu said something about the device"
expect_exit 0 tt-sweep -c 1x1x4 -j 2 -g w0=0,1 small.h5
[ "$(grep -c 'ran on' err.txt)" = 1 ] || fail "-d auto: $(cat err.txt)"
if "$TT_BIN/tt-sweep" --version | grep -q "^GPU: [1-9]"; then
    expect_err "tt-sweep: ran on gpu: "
else
    expect_err "tt-sweep: ran on cpu: 2 threads"
fi
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g w0=0,1 small.h5
grep -q "ran on" err.txt && fail "-d cpu was not quiet: $(cat err.txt)"
# stderr not a terminal (a log, a batch job): a progress line at most every
# TT_PROGRESS_S seconds (60 by default, so none in a run this short)
expect_exit 0 env TT_PROGRESS_S=0 tt-sweep -d cpu -j 1 -c 1x1x4 -g backfill=1,0 \
    -g order=fifo,sjf -g w0=0:600:3 -p restart=10 small.h5
grep -Eq '^tt-sweep: [0-9]+/[0-9]+ simulations, [0-9.]+ sims/s, .* left \(ends about ' err.txt ||
    fail "TT_PROGRESS_S=0: no progress line: $(head -c 400 err.txt)"
cmp -s out.txt sweep.tsv || fail "progress changed the rows"

# ---- threads and shards change no number ----
expect_exit 0 tt-ingest -q -f csv -o rack.h5 "$FIX/sim/sim_rack.tsv"
G="-g w0=log:1:1000:4 -g theta=1500,inf -g congestion=0:500:3 -g order=fifo,las"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -j 1 -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G rack.h5
cp out.txt j1.tsv
[ "$(wc -l <j1.tsv)" = 49 ] || fail "48 configurations: $(wc -l <j1.tsv)"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -j 3 -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G rack.h5
cmp -s out.txt j1.tsv || fail "-j 3 differs from -j 1: $(diff j1.tsv out.txt | head)"
# the GPU's rows are the CPU's, byte for byte, where a GPU answers
if tt-sweep -d gpu -c 1x1x4 -g w0=0,1 small.h5 >/dev/null 2>&1; then
    expect_exit 0 tt-sweep -d gpu -c 1x1x4 -g backfill=1,0 -g order=fifo,sjf \
        -g w0=0:600:3 -p restart=10 small.h5
    cmp -s out.txt sweep.tsv || fail "-d gpu differs from -d cpu: $(diff sweep.tsv out.txt | head)"
    # shellcheck disable=SC2086
    expect_exit 0 tt-sweep -d gpu -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G rack.h5
    cmp -s out.txt j1.tsv || fail "-d gpu differs from -d cpu: $(diff j1.tsv out.txt | head)"
else
    echo "SKIP (part): no GPU (tt-sweep -d gpu fails): GPU rows not compared with CPU rows" >&2
fi
# -j against the CPUs this process may use (taskset here): by default one
# thread each, at most 4 x as many and one per configuration, said on
# stderr; the rows stay the same
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
    # shellcheck disable=SC2086
    expect_exit 0 taskset -c 0 tt-sweep -d cpu -c 1x2x4 --models "$FIX/sim/sim_models.tsv" \
        -o j.h5 $G rack.h5
    cmp -s out.txt j1.tsv || fail "taskset -c 0 differs from -j 1"
    h5dump -a /sweep/device j.h5 | grep -qF '"cpu: 1 thread"' ||
        fail "taskset -c 0: the run did not take 1 thread"
    # shellcheck disable=SC2086
    expect_exit 0 taskset -c 0 tt-sweep -d cpu -j 64 -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G rack.h5
    expect_err "tt-sweep: -j 64: 4 threads (4 x the 1 usable CPUs)"
    cmp -s out.txt j1.tsv || fail "-j 64 on 1 CPU differs from -j 1"
else
    echo "SKIP (taskset): -j against the affinity mask not checked"
fi
expect_exit 0 tt-sweep -d cpu -j 4096 -c 1x1x4 -g w0=0,1 small.h5
expect_err "-j 4096: 2 threads, one per configuration"
# 48 = 5 x 9 + 3: shards of 10, 10, 10, 9, 9 rows, interleaved back
for s in 0 1 2 3 4; do
    # shellcheck disable=SC2086
    expect_exit 0 tt-sweep -d cpu -j 2 --shard $s/5 -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G rack.h5
    [ "$(head -1 out.txt)" = "$(head -1 j1.tsv)" ] || fail "shard $s header"
    tail -n +2 out.txt >shard$s.tsv
done
[ "$(wc -l <shard3.tsv)" = 9 ] || fail "shard 3/5: $(wc -l <shard3.tsv) rows"
{ head -1 j1.tsv; paste -d'\n' shard0.tsv shard1.tsv shard2.tsv shard3.tsv shard4.tsv | grep -v '^$'; } >joined.tsv
cmp -s joined.tsv j1.tsv || fail "shards do not join into the sweep: $(diff j1.tsv joined.tsv | head)"
# a shard past the configurations is empty, not an error
expect_exit 0 tt-sweep -d cpu --shard 5/7 -c 1x1x4 -g w0=1,2 small.h5
[ "$(wc -l <out.txt)" = 1 ] || fail "empty shard: $(cat out.txt)"

# ---- a configurations file: rows slowest, then the grid ----
printf 'w0\torder\n0\tsjf\n600\tfifo\n' >conf.tsv
expect_exit 0 tt-sweep -d cpu -c 1x1x4 --configs conf.tsv -g backfill=0,1 small.h5
[ "$(cut -f1,2,9 out.txt | tail -n +2 | tr '\t\n' ',;')" = "sjf,0,0;sjf,0,1;fifo,600,0;fifo,600,1;" ] ||
    fail "--configs order: $(cut -f1,2,9 out.txt)"
printf 'w0\torder\n0\tsjf\n-3\tfifo\n' >badconf.tsv
expect_exit 2 tt-sweep -c 1x1x4 --configs badconf.tsv small.h5
expect_err "tt-sweep: badconf.tsv:3: field 'w0': expected seconds >= 0 or inf, got '-3'"
# a sweep's own rows as configurations: its parameter columns taken, its
# metric columns ignored, so rows picked with awk run again to the same
# metrics (those of mean JCT under 770 s, and the last one)
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "jct_mean") j = i }
             NR == 1 || $j < 770 || NR == 49' j1.tsv >picked.tsv
[ "$(wc -l <picked.tsv)" -gt 3 ] || fail "too few rows picked: $(cat picked.tsv)"
expect_exit 0 tt-sweep -d cpu -c 1x2x4 --models "$FIX/sim/sim_models.tsv" --configs picked.tsv rack.h5
cmp -s out.txt picked.tsv || fail "--configs of a sweep's rows: $(diff picked.tsv out.txt | head)"
# an unknown column is still an error; metric columns alone configure nothing
cut -f34- j1.tsv >metrics.tsv
expect_exit 2 tt-sweep -c 1x2x4 --configs metrics.tsv rack.h5
expect_err "tt-sweep: metrics.tsv:1: no parameter column (metric columns are ignored)"
sed '1s/jct_mean/jct_men/' j1.tsv >typo.tsv
expect_exit 2 tt-sweep -c 1x2x4 --models "$FIX/sim/sim_models.tsv" --configs typo.tsv rack.h5
expect_err "tt-sweep: typo.tsv:1: field 'jct_men': unknown parameter 'jct_men'"

# ---- errors: usage (2), input (1); nothing on stdout, no file left ----
echo old >keep.h5
for args in "-g w0=1:2" "-g w0=a:b:3" "-g w0=1:2:0" "-g w0=log:0:10:3" "-g w0=1,,2" \
    "-g nosuch=1,2" "-g w0=" "-g w0=1,2 -g w0=3" "--shard 2/2" "--shard 1" "-p w0=5 -g w0=1,2" \
    "-g w0" "-d tpu" "-j 0" "-j 100000" "-j 4097" "--configs nosuch.tsv"; do
    # shellcheck disable=SC2086
    expect_exit 2 tt-sweep -c 1x1x4 $args -o keep.h5 small.h5
    [ ! -s out.txt ] || fail "'$args' printed output"
done
expect_exit 2 tt-sweep -c 1x1x4 -g w0=1:2 small.h5
expect_err "tt-sweep: grid 'w0=1:2': expected A:B:N, log:A:B:N (either may end in ,inf) or a list a,b,c"
expect_exit 2 tt-sweep -c 1x1x4 -g nosuch=1,2 small.h5
expect_err "tt-sweep: grid 'nosuch=1,2': unknown parameter 'nosuch' (known: order w0"
expect_exit 2 tt-sweep -c 1x1x4 -g w0= small.h5
expect_err "tt-sweep: grid 'w0=': no values"
expect_exit 2 tt-sweep -c 1x1x4 -g w0=1,2 -g w0=3 small.h5
expect_err "tt-sweep: grid 'w0=3': parameter 'w0' is already in a grid"
expect_exit 2 tt-sweep -c 1x1x4 --shard 2/2 small.h5
expect_err "tt-sweep: option --shard: expected K/N with 0 <= K < N"
expect_exit 2 tt-sweep -c 1x1x4 -g congestion=0:1000:3 small.h5
expect_err "grid 'congestion=0:1000:3': value 3 ('1000'): expected permille 0 .. 999"
expect_exit 2 tt-sweep -c 1x1x4 small.h5 small.h5
expect_exit 2 tt-sweep small.h5
expect_err "no cluster (-c RxNxG)"
if ! "$TT_BIN/tt-sweep" --version | grep -q "^GPU: [1-9]"; then
    expect_exit 1 tt-sweep -d gpu -c 1x1x4 -g w0=1,2 -o keep.h5 small.h5
    grep -Eq "^tt-sweep: -d gpu: (no GPU driver|no GPU \(|GPU driver too old|no CUDA device|CUDA support not built in)" err.txt ||
        fail "-d gpu without a GPU: $(cat err.txt)"
    [ ! -s out.txt ] || fail "-d gpu printed output"
    [ "$(cat keep.h5)" = old ] || fail "-d gpu touched keep.h5"
fi
# a CUDA build where no NVIDIA driver is loaded says so, not CUDA's "driver
# version is insufficient for CUDA runtime version"
if "$TT_BIN/tt-sweep" --version | grep -q "^CUDA: built in" && [ ! -e /proc/driver/nvidia/version ]; then
    expect_exit 0 tt-sweep --version
    grep -qx "GPU: no GPU driver (no NVIDIA driver is loaded)" out.txt || fail "--version: $(cat out.txt)"
    expect_exit 1 tt-sweep -d gpu -c 1x1x4 -g w0=1,2 small.h5
    expect_err "tt-sweep: -d gpu: no GPU driver (no NVIDIA driver is loaded)"
fi
expect_exit 1 tt-sweep -c 1x1x4 -o keep.h5 missing.h5
expect_err "cannot read 'missing.h5'"
# a duration past 2^32 s, written by an earlier tt-ingest (it now refuses it)
cp "$FIX/sim/sim_long.h5" long.h5
expect_exit 1 tt-sweep -c 1x1x4 -g w0=1,2 -o keep.h5 long.h5
expect_err "tt-sweep: 'long.h5': job 0: duration 5000000000 outside 0 .. 2^32 s"
[ ! -s out.txt ] || fail "output for a trace beyond the bounds"
expect_exit 1 tt-sweep -c 1x1x4 -o small.h5 small.h5
expect_err "output 'small.h5' is also the input 'small.h5': refusing to overwrite it"
expect_exit 1 tt-sweep -c 1x1x4 -o nodir/s.h5 small.h5
expect_err "cannot write 'nodir/s.h5'"
[ "$(cat keep.h5)" = old ] || fail "an error replaced the existing output"
leftover=$(ls -A | grep -E '^\..*tmp-' || true)
[ -z "$leftover" ] || fail "temporary files left: $leftover"
expect_exit 0 tt-sweep -h
grep -q "^usage: tt-sweep" out.txt || fail "-h"
for w in "A:B:N" "log:A:B:N" "floating point" "repeated after rounding" "--shard K/N" "Exit status"; do
    grep -qF -- "$w" out.txt || fail "-h lacks '$w'"
done

# a range ending in ,inf is the range's values, then inf
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g w0=log:1:1000:4,inf small.h5
cp out.txt suffix.tsv
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g w0=1,10,100,1000,inf small.h5
cmp -s out.txt suffix.tsv || fail "-g w0=log:1:1000:4,inf differs from the list 1,10,100,1000,inf"
[ "$(cut -f2 suffix.tsv | tr '\n' ' ')" = "w0 1 10 100 1000 inf " ] || fail "w0 column: $(cut -f2 suffix.tsv)"
expect_exit 2 tt-sweep -d cpu -c 1x1x4 -g restart=0:10:3,inf small.h5
expect_err "tt-sweep: grid 'restart=0:10:3,inf': value 4 ('inf'): expected seconds 0 .. 4294967296, got 'inf'"

# ---- the Philly CSV: a 4 x 4 grid on 4x32x8, two rows against tt-sim ----
if [ -r "$TRACES/philly/pollux_philly.csv" ]; then
    expect_exit 0 tt-ingest -q -o p.h5 "$TRACES/philly/pollux_philly.csv"
    expect_exit 0 tt-sweep -d cpu -c 4x32x8 -g w0=0,600,3600,inf -g theta=1000,1500,2000,inf p.h5
    cp out.txt philly.tsv
    [ "$(wc -l <philly.tsv)" = 17 ] || fail "Philly: 16 rows expected"
    # configuration 6 = w0 600 (second), theta 2000 (third); 15 = inf, inf
    expect_exit 0 tt-sim -c 4x32x8 -p w0=600 -p theta=2000 p.h5
    [ "$(sed -n 2p out.txt)" = "$(sed -n 8p philly.tsv)" ] || fail "Philly row 6 differs from tt-sim"
    expect_exit 0 tt-sim -c 4x32x8 p.h5
    [ "$(sed -n 2p out.txt)" = "$(sed -n 17p philly.tsv)" ] || fail "Philly row 15 differs from tt-sim"
else
    echo "SKIP (part): no shared Philly CSV" >&2
fi

# ---- Ctrl-C: stops between configurations, writes nothing, exits 130 ----
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"
echo old >stop.h5
tt-sweep -d cpu -j 2 -c 2x8x8 -g w0=0:100000:400 -g theta=1000:2000:100 -o stop.h5 ex.h5 \
    >stop.out 2>stop.err &
pid=$!
sleep 1
kill -INT $pid
got=0
wait $pid || got=$?
[ "$got" = 130 ] || fail "SIGINT: exit $got, expected 130; $(cat stop.err)"
grep -q "stopped by signal 2 before the end: nothing written" stop.err || fail "SIGINT: $(cat stop.err)"
[ "$(grep -c stopped stop.err)" = 1 ] || fail "SIGINT: said more than once: $(cat stop.err)"
[ "$(cat stop.h5)" = old ] || fail "SIGINT: stop.h5 was touched"
[ ! -s stop.out ] || fail "SIGINT: rows printed"
ls -a | grep -q "tmp-" && fail "SIGINT: a temporary file was left: $(ls -a)"

# ---- timers per class: a grid over one class's own w0 ----
M="--models $FIX/sim/sim_models.tsv"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -c 1x2x4 $M -g w0.slow=0,inf -g w0=0,inf rack.h5
cp out.txt cls.tsv
[ "$(cut -f2,13 cls.tsv | tail -n +2 | tr '\t\n' ',;')" = "0,slow:0:-;inf,slow:0:-;0,slow:inf:-;inf,slow:inf:-;" ] ||
    fail "w0.slow grid: $(cut -f2,13 cls.tsv)"
for r in 2 3 4 5; do
    w0=$(sed -n ${r}p cls.tsv | cut -f2)
    tm=$(sed -n ${r}p cls.tsv | cut -f13)
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim -c 1x2x4 $M -p w0=$w0 -p timers=$tm rack.h5
    [ "$(sed -n 2p out.txt)" = "$(sed -n ${r}p cls.tsv)" ] || fail "w0.slow row $r differs from tt-sim's"
done
# only the slow job decides (see t_sim.sh): its own w0 sets the makespan
[ "$(cut -f34 cls.tsv | tail -n +2 | tr '\n' ,)" = "1000,1000,1100,1100," ] ||
    fail "w0.slow makespans: $(cut -f34 cls.tsv)"
# shellcheck disable=SC2086
expect_exit 2 tt-sweep -d cpu -c 1x2x4 $M -p timers=fast:0:0 -g w0.slow=0,inf rack.h5
expect_err "grid 'w0.slow=0,inf': 'w0.slow' and 'timers' both set class timers: use one or the other"
printf 'timers\tw1.fast\nslow:0:0\t5\n' >clash.tsv
# shellcheck disable=SC2086
expect_exit 2 tt-sweep -d cpu -c 1x2x4 $M --configs clash.tsv rack.h5
expect_err "clash.tsv:1: field 'w1.fast': 'w1.fast' and 'timers' both set class timers"
# shellcheck disable=SC2086
expect_exit 2 tt-sweep -d cpu -c 1x2x4 $M -g w0.medium=0,1 rack.h5
expect_err "tt-sweep: grid 'w0.medium=0,1': parameter 'w0.medium': unknown class 'medium' (classes: fast slow)"

# ---- a large grid holds its axes and results, not a parameter set a row ----
# 100000 configurations with -o: each row's parameters (1.4 KiB with the
# class timers) expanded up front took 140 MB; expanded from the axes as the
# columns are written, the run fits in 150 MB of address space. AddressSanitizer
# reserves terabytes of it, so a sanitized build skips this.
if ldd "$TT_BIN/tt-sweep" 2>/dev/null | grep -q libasan; then
    echo "SKIP (sanitizer): the memory bound of a large grid not checked"
else
    expect_exit 0 sh -c 'ulimit -v 150000 && exec tt-sweep -d cpu -j 1 -c 1x1x4 \
        -g w0=0:100000:250 -g theta=1000:2000:400 -o big.h5 small.h5'
    [ "$(wc -l <out.txt)" = 100001 ] || fail "large grid: $(wc -l <out.txt) lines"
    h5dump -a /sweep/rows big.h5 | grep -q "(0): 100000" || fail "large grid: /sweep rows"
    rm -f big.h5 out.txt
fi

# ---- the sweep file, read with h5py alone ----
PY=/usr/bin/python3
$PY -c "import h5py" 2>/dev/null ||
    skip "no h5py for $PY (apt install python3-h5py): sweep file not read back; other checks passed"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -j 2 --shard 1/5 -c 1x2x4 --models "$FIX/sim/sim_models.tsv" $G -o sw.h5 rack.h5
cmp -s out.txt <(cat <(head -1 j1.tsv) shard1.tsv) || fail "-o changed the rows"
want_sha=$(sha256sum "$FIX/sim/sim_models.tsv" | cut -d' ' -f1)
# configs_sha256: of the whole sweep's parameter columns, as printed
cfg_sha=$(tail -n +2 j1.tsv | cut -f1-13 | sha256sum | cut -d' ' -f1)
$PY - sw.h5 out.txt "$want_sha" "$cfg_sha" <<'EOF' || fail "h5py: the sweep file"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
s = f["sweep"]
a = s.attrs
assert a["tracetune_layout"] == "sweep/1"
assert a["cluster"] == "1x2x4" and a["shard"] == "1/5" and a["configurations"] == 48
assert a["device"] == "cpu: 2 threads", a["device"]
assert a["models_sha256"] == sys.argv[3] and a["models_source"].endswith("sim_models.tsv")
assert a["trace_file"] == "rack.h5"
assert a["configs_sha256"] == sys.argv[4], (a["configs_sha256"], sys.argv[4])
assert a["trace_source_sha256"] == h5py.File("rack.h5", "r")["jobs"].attrs["source_sha256"]
assert a["elapsed_s"] >= 0 and a["sims_per_s"] >= 0
assert list(s["index"][()]) == list(range(1, 48, 5)), s["index"][()]
params = ["order", "w0", "w1", "theta", "restart", "congestion", "min_run", "max_preempt",
          "backfill", "load", "seed", "mix", "timers", "mlfq", "promote", "prio_preempt",
          "gittins_delta", "gittins_dist", "el_up", "el_down", "el_frac", "resize",
          "resize_cost", "resize_gap", "gpu_mem", "cache_slots", "load_bw", "xfer_bw", "evict",
          "cache_place", "w_warm", "requeue", "prio_victims"]
metrics = ["makespan", "jct_mean", "jct_p50", "jct_p90", "jct_p99", "queue_mean", "queue_p99",
           "comm_gpu_s", "comm_share", "restart_gpu_s", "preemptions", "placed_l0",
           "placed_l1", "placed_l2", "util", "rejected", "resizes", "grows", "shrinks",
           "resize_gpu_s", "loan_gpu_s", "demotions", "promotions",
           "preempt_prio", "ftf_mean", "ftf_max", "ftf_unfair", "wf_jct_mean", "wf_jct_p99",
           "wf_rejected", "cache_hit", "loads", "model_evicts", "load_gpu_s", "xfer_gpu_s"]
assert sorted(s["params"].keys()) == sorted(params)
assert sorted(s["metrics"].keys()) == sorted(metrics)
assert s["params/theta"].attrs["infinite"] == 2**63 - 1
assert s["params/seed"].dtype.kind == "u"
dec = {"comm_gpu_s": 3, "jct_mean": 6, "queue_mean": 6, "comm_share": 6, "util": 6,
       "ftf_mean": 6, "wf_jct_mean": 6}
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])][1:]
assert len(rows) == len(s["index"])
for r, want in enumerate(rows):
    got = []
    for k in params:
        d = s["params"][k]
        v = d[r]
        if d.dtype.kind == "O":
            got.append(v.decode() if isinstance(v, bytes) else v)
        elif "infinite" in d.attrs and v == d.attrs["infinite"]:
            got.append("inf")
        else:
            got.append(str(v))
    for k in metrics:
        v = s["metrics"][k][r]
        got.append("%.*f" % (dec[k], v) if k in dec else str(v))
    assert got == want, (r, got, want)
EOF
# the sweep file where a trace is expected says what it is, as tt-plot does
expect_exit 1 tt-sim -c 1x2x4 sw.h5
expect_err "tt-sim: 'sw.h5': not a tracetune trace (it is a sweep file)"
