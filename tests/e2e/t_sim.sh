# tt-sim: small traces worked out by hand from docs/model.md sections 5-7,
# the HDF5 result read back with h5py, then usage and input errors.
T=$(printf '\t')

# ---- sim_small.tsv on one node of 4 GPUs, defaults (fifo, strict
# consolidation, no preemption, backfill) ----
#   job submit dur gpus model
#   0   0      100 2    bert       starts at once: 0-100, 2 GPUs left
#   1   10     50  4    resnet50   needs all 4: waits for job 0
#   2   20     30  2    (absent)   backfills the 2 free GPUs: 20-50
#   3   30     40  8    bert       8 > 4 GPUs of the cluster: rejected
#   4   40     10  1    foo        nothing free; at 50 job 2 frees 2 and job 1
#                                  still cannot start: 50-60
#   at 100 job 0 ends and job 1 starts: 100-150
# One node: every start is packed (L0) at slowdown 1000 with no restart, so
# every run takes exactly its duration.
# JCT 100 140 30 20 (sum 290, mean 72.5; sorted 20 30 100 140: nearest rank
# p50 = 2nd = 30, p90 = p99 = 4th = 140); queue 0 90 0 10 (mean 25, p99 90);
# makespan 150 - 0; used GPU-s 2x100 + 4x50 + 2x30 + 1x10 = 470, util
# 470 / (4 x 150) = 0.783333; no communication or restart cost.
# Fairness (SPEC 11.6): active jobs N = 1 2 3 4 3 2 1 over [0,10) [10,20)
# [20,40) [40,50) [50,60) [60,100) [100,150). A over each job's [submit, end]
# 240 280 100 70; N_bar = A x 1000 / JCT 2400 2000 3333 3500; f_bar = max(1000,
# k x N_bar / 4) 1200 2000 1666 1000; rho = JCT x 10^6 / (duration x f_bar)
# 833 1400 600 2000: mean 1208.25, max 2000, 2 above 1000.
expect_exit 0 tt-ingest -q -f csv -o small.h5 "$FIX/sim/sim_small.tsv"
P="order${T}w0${T}w1${T}theta${T}restart${T}congestion${T}min_run${T}max_preempt${T}backfill"
P="$P${T}load${T}seed${T}mix${T}timers${T}mlfq${T}promote${T}prio_preempt${T}gittins_delta"
P="$P${T}gittins_dist${T}el_up${T}el_down${T}el_frac${T}resize${T}resize_cost${T}resize_gap"
P="$P${T}gpu_mem${T}cache_slots${T}load_bw${T}xfer_bw${T}evict${T}cache_place${T}w_warm${T}requeue${T}prio_victims"
M="makespan${T}jct_mean${T}jct_p50${T}jct_p90${T}jct_p99${T}queue_mean${T}queue_p99"
M="$M${T}comm_gpu_s${T}comm_share${T}restart_gpu_s${T}preemptions${T}placed_l0${T}placed_l1"
M="$M${T}placed_l2${T}util${T}rejected${T}resizes${T}grows${T}shrinks${T}resize_gpu_s${T}loan_gpu_s${T}demotions${T}promotions${T}preempt_prio${T}ftf_mean"
M="$M${T}ftf_max${T}ftf_unfair${T}wf_jct_mean${T}wf_jct_p99${T}wf_rejected${T}cache_hit${T}loads"
M="$M${T}model_evicts${T}load_gpu_s${T}xfer_gpu_s"
SPEC11="3250,7200${T}0${T}1${T}3250${T}trace"
SPEC11="$SPEC11${T}0${T}0${T}1000${T}sidecar${T}10${T}300" # and section 10's
SPEC11="$SPEC11${T}0${T}4${T}2000${T}1250${T}lru${T}off${T}0" # and section 12's
SPEC11="$SPEC11${T}keep${T}lowest" # and requeue, prio_victims
DEF="fifo${T}inf${T}inf${T}inf${T}30${T}0${T}300${T}3"
MIX="bert:1,ncf:1,yolov3:1,resnet18:1,deepspeech2:1,resnet50:1"
cat >want.tsv <<EOF
$P${T}$M
$DEF${T}1${T}1000${T}1${T}$MIX${T}-${T}$SPEC11${T}150${T}72.500000${T}30${T}140${T}140${T}25.000000${T}90${T}0.000${T}0.000000${T}0${T}0${T}4${T}0${T}0${T}0.783333${T}1${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}1208.250000${T}2000${T}2${T}0.000000${T}0${T}0${T}0${T}0${T}0${T}0${T}0
EOF
expect_exit 0 tt-sim -c 1x1x4 small.h5
cmp -s out.txt want.tsv || fail "summary: $(diff out.txt want.tsv)"
expect_err "tt-sim: 1 job rejected, not simulated (more GPUs than the cluster, a model larger than gpu_mem, or a task of a workflow rejected whole)"
expect_err "tt-sim: 2 jobs name no model class of the table: drawn from the mix"
[ "$(wc -l <err.txt)" = 2 ] || fail "stderr: $(cat err.txt)"
# the cluster as a file says the same; -c 1x1x4 written out
printf 'racks\tnodes_per_rack\tgpus_per_node\n1\t1\t4\n' >c.tsv
expect_exit 0 tt-sim -c c.tsv small.h5
cmp -s out.txt want.tsv || fail "cluster file: $(diff out.txt want.tsv)"

# every job larger than the cluster: no job ends, so makespan, JCT, queue
# delay, comm_share and util cannot be computed: empty fields (not 0, the
# best value there is), a warning, NAN or a "missing" mark in HDF5
printf 'submit\tduration\tgpus\n0\t100\t2\n10\t50\t4\n' >big.tsv
expect_exit 0 tt-ingest -q -f csv -o big.h5 big.tsv
cat >want_big.tsv <<EOF
$P${T}$M
$DEF${T}1${T}1000${T}1${T}$MIX${T}-${T}$SPEC11${T}${T}${T}${T}${T}${T}${T}${T}0.000${T}${T}0${T}0${T}0${T}0${T}0${T}${T}2${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}0${T}${T}${T}0${T}0.000000${T}0${T}0${T}0${T}0${T}0${T}0${T}0
EOF
expect_exit 0 tt-sim -c 1x1x1 -o big_res.h5 big.h5
cmp -s out.txt want_big.tsv || fail "all rejected: $(diff out.txt want_big.tsv)"
expect_err "tt-sim: makespan, jct_mean, jct_p50, jct_p90, jct_p99, queue_mean, queue_p99, comm_share, util, ftf_mean, ftf_max cannot be computed (every job is rejected): left empty"
h5dump -d /sim/summary/makespan -d /sim/summary/jct_mean -d /sim/summary/rejected \
    -d /sim/summary/comm_gpu_s big_res.h5 | tr -d ' \n' >big_dump.txt
for want in 'DATA{(0):-9223372036854775808}ATTRIBUTE"missing"{DATATYPEH5T_STD_I64LEDATASPACESCALARDATA{(0):-9223372036854775808}' \
    'DATASET"/sim/summary/jct_mean"{DATATYPEH5T_IEEE_F64LEDATASPACESCALARDATA{(0):nan}' \
    'DATASET"/sim/summary/comm_gpu_s"{DATATYPEH5T_IEEE_F64LEDATASPACESCALARDATA{(0):0}' \
    'DATASET"/sim/summary/rejected"{DATATYPEH5T_STD_I64LEDATASPACESCALARDATA{(0):2}'; do
    grep -qF -- "$want" big_dump.txt || fail "all rejected: HDF5 lacks $want: $(head -c 900 big_dump.txt)"
done
# a metric with a value carries no such mark
expect_exit 0 tt-sim -c 1x1x4 -o plain_res.h5 small.h5
h5dump -a /sim/summary/makespan/missing plain_res.h5 >/dev/null 2>&1 && fail "a makespan with a value is marked missing"

# per job, with the mix naming one class so that the drawn classes are known;
# the rejected job's times, queue, level, slow and rho are empty
H="job${T}submit${T}duration${T}gpus${T}model${T}start${T}end${T}jct${T}queue${T}level${T}slow"
H="$H${T}preemptions${T}starts_l0${T}starts_l1${T}starts_l2${T}gpu_s${T}rho"
cat >want_jobs.tsv <<EOF
$H
0${T}0${T}100${T}2${T}bert${T}0${T}100${T}100${T}0${T}0${T}1000${T}0${T}1${T}0${T}0${T}200${T}833
1${T}10${T}50${T}4${T}resnet50${T}100${T}150${T}140${T}90${T}0${T}1000${T}0${T}1${T}0${T}0${T}200${T}1400
2${T}20${T}30${T}2${T}ncf${T}20${T}50${T}30${T}0${T}0${T}1000${T}0${T}1${T}0${T}0${T}60${T}600
3${T}30${T}40${T}8${T}bert${T}${T}${T}${T}${T}${T}${T}0${T}0${T}0${T}0${T}0${T}
4${T}40${T}10${T}1${T}ncf${T}50${T}60${T}20${T}10${T}0${T}1000${T}0${T}1${T}0${T}0${T}10${T}2000
EOF
expect_exit 0 tt-sim -c 1x1x4 -p mix=ncf:1 --jobs small.h5
cmp -s out.txt want_jobs.tsv || fail "--jobs: $(diff out.txt want_jobs.tsv)"
# the state after each event time: arrivals, ends (the rejected job's
# arrival at 30 changes nothing and is no event)
cat >want_tl.tsv <<EOF
t${T}waiting${T}running${T}busy_gpus${T}running_l0${T}running_l1${T}running_l2
0${T}0${T}1${T}2${T}1${T}0${T}0
10${T}1${T}1${T}2${T}1${T}0${T}0
20${T}1${T}2${T}4${T}2${T}0${T}0
40${T}2${T}2${T}4${T}2${T}0${T}0
50${T}1${T}2${T}3${T}2${T}0${T}0
60${T}1${T}1${T}2${T}1${T}0${T}0
100${T}0${T}1${T}4${T}1${T}0${T}0
150${T}0${T}0${T}0${T}0${T}0${T}0
EOF
expect_exit 0 tt-sim -c 1x1x4 --timeline small.h5
cmp -s out.txt want_tl.tsv || fail "--timeline: $(diff out.txt want_tl.tsv)"

# backfill=0: the queue stops at the first job that cannot start.
#   job 1 blocks at 10; job 2 (20) and job 4 (40) wait behind it; at 100
#   job 1 runs 100-150, job 2 still does not fit; at 150 job 2 runs 150-180
#   and job 4 150-160.
# JCT 100 140 160 120 (mean 130; sorted 100 120 140 160: p50 120, p90 160);
# queue 0 90 130 110 (mean 82.5, p99 130); makespan 180; util 470/720.
expect_exit 0 tt-sim -c 1x1x4 -p backfill=0 small.h5
[ "$(sed -n 2p out.txt | cut -f9,34-49)" = \
  "0${T}180${T}130.000000${T}120${T}160${T}160${T}82.500000${T}130${T}0.000${T}0.000000${T}0${T}0${T}4${T}0${T}0${T}0.652778${T}1" ] ||
    fail "backfill=0: $(sed -n 2p out.txt)"
# load=2000 halves the gaps: submits 0 5 10 15 20. Job 2 runs 10-40, job 4
# 40-50, job 1 100-150: JCT 100 145 30 30 (mean 76.25), queue 0 95 0 20
# (mean 28.75); a later -p wins over an earlier one
expect_exit 0 tt-sim -c 1x1x4 -p load=500 -p load=2000 --jobs small.h5
[ "$(cut -f2,6-9 out.txt | tail -n +2 | tr '\t\n' ',;')" = \
  "0,0,100,100,0;5,100,150,145,95;10,10,40,30,0;15,,,,;20,40,50,30,20;" ] ||
    fail "load=2000: $(cat out.txt)"
expect_exit 0 tt-sim -c 1x1x4 -p load=2000 small.h5
[ "$(sed -n 2p out.txt | cut -f10,34,35,39)" = "2000${T}150${T}76.250000${T}28.750000" ] ||
    fail "load=2000 summary: $(sed -n 2p out.txt)"

# ---- a rack placement with a model table of its own (sim_models.tsv:
# fast 1000/1000, slow 2000/3000) on one rack of two 4-GPU nodes ----
#   jobs 0 and 1 (3 GPUs, fast, 1000 s) take node 0 and node 1 at 0,
#   leaving 1 + 1 GPUs; job 2 (2 GPUs, slow, 100 s) finds no packed node.
# w0=0: job 2 may take L1 at once: 1 GPU on each node, slowdown 2000, so it
#   runs ceil(100 x 1000 x 2000 / 10^6) = 200 s: 0-200. comm_gpu_s =
#   2 x (200 - 100) = 200, used 3000 + 3000 + 400 = 6400 GPU-s, comm_share
#   200/6400 = 0.03125, util 6400 / (8 x 1000) = 0.8; JCT 1000 1000 200.
# default (w0=inf): job 2 waits for a packed node until 1000: 1000-1100.
expect_exit 0 tt-ingest -q -f csv -o rack.h5 "$FIX/sim/sim_rack.tsv"
expect_exit 0 tt-sim -c "$FIX/sim/sim_cluster.tsv" --models "$FIX/sim/sim_models.tsv" -p w0=0 rack.h5
[ "$(sed -n 2p out.txt | cut -f2,12,13,34-49)" = \
  "0${T}fast:1,slow:1${T}-${T}1000${T}733.333333${T}1000${T}1000${T}1000${T}0.000000${T}0${T}200.000${T}0.031250${T}0${T}0${T}2${T}1${T}0${T}0.800000${T}0" ] ||
    fail "w0=0: $(sed -n 2p out.txt)"
[ ! -s err.txt ] || fail "stderr for a run with every model known: $(cat err.txt)"
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0=0 --jobs rack.h5
[ "$(sed -n 4p out.txt | cut -f1-16)" = "2${T}0${T}100${T}2${T}slow${T}0${T}200${T}200${T}0${T}1${T}2000${T}0${T}0${T}1${T}0${T}400" ] ||
    fail "w0=0 job 2: $(sed -n 4p out.txt)"
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" --jobs rack.h5
[ "$(sed -n 4p out.txt | cut -f6-11)" = "1000${T}1100${T}1100${T}1000${T}0${T}1000" ] ||
    fail "w0=inf job 2: $(sed -n 4p out.txt)"
# timers per class: only job 2's class (slow) decides above, so slow's own
# w0=0 under a global inf is the w0=0 run, and slow's own inf under a global
# 0 is the strict run, job for job
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0=0 --jobs rack.h5
cp out.txt nowait_jobs.tsv
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" --jobs rack.h5
cp out.txt strict_jobs.tsv
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0.slow=0 --jobs rack.h5
cmp -s out.txt nowait_jobs.tsv || fail "w0.slow=0: $(diff out.txt nowait_jobs.tsv)"
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0=0 -p timers=slow:inf:- \
    --jobs rack.h5
cmp -s out.txt strict_jobs.tsv || fail "timers=slow:inf:-: $(diff out.txt strict_jobs.tsv)"
# fast's own timers change nothing here; the summary names them
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0.fast=0 -p w1.fast=inf rack.h5
[ "$(sed -n 2p out.txt | cut -f13,34,35)" = "fast:0:inf${T}1100${T}1033.333333" ] ||
    fail "w0.fast=0: $(sed -n 2p out.txt)"
expect_exit 2 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0.medium=0 rack.h5
expect_err "tt-sim: parameter 'w0.medium': unknown class 'medium' (classes: fast slow)"

# ---- errors: usage (2), bad input (1); nothing on stdout, no file left ----
echo old >keep.h5
for args in "-p w0=-5" "-p theta=abc" "-p nosuch=1" "-p w0" "-p =5" "-p mix=gpt:1" \
    "-p congestion=1000" "-p load=0" "-p backfill=2" "-p order=xyz"; do
    # shellcheck disable=SC2086
    expect_exit 2 tt-sim -c 1x1x4 $args -o keep.h5 small.h5
    [ ! -s out.txt ] || fail "'$args' printed output"
done
expect_exit 2 tt-sim -c 1x1x4 -p w0=-5 small.h5
[ "$(cat err.txt)" = "tt-sim: parameter 'w0': expected seconds >= 0 or inf, got '-5'" ] ||
    fail "w0=-5: $(cat err.txt)"
expect_exit 2 tt-sim -c 1x1x4 -p theta=abc small.h5
expect_err "tt-sim: parameter 'theta': expected permille >= 0 or inf, got 'abc'"
expect_exit 2 tt-sim -c 1x1x4 -p nosuch=1 small.h5
expect_err "tt-sim: unknown parameter 'nosuch' (known: order w0 w1 theta restart congestion min_run max_preempt backfill load seed mix timers mlfq promote prio_preempt gittins_delta gittins_dist el_up el_down el_frac resize resize_cost resize_gap gpu_mem cache_slots load_bw xfer_bw evict cache_place w_warm requeue prio_victims w0.CLASS w1.CLASS preset)"
expect_exit 2 tt-sim -c 1x1x4 -p w0 small.h5
expect_err "option -p: expected NAME=VALUE, got 'w0'"
expect_exit 2 tt-sim -c 1x1x4 -p mix=gpt:1 small.h5
expect_err "parameter 'mix': unknown class 'gpt'"
expect_exit 2 tt-sim -c 1x0x8 -o keep.h5 small.h5
expect_err "tt-sim: cluster '1x0x8': field 'nodes_per_rack': expected an integer 1 .. 2147483647, got '0'"
expect_exit 2 tt-sim -c 4x32 small.h5
expect_err "cluster '4x32': expected RxNxG"
expect_exit 2 tt-sim -c nosuch_cluster.tsv small.h5
expect_err "tt-sim: cluster 'nosuch_cluster.tsv': not RxNxG (racks x nodes per rack x GPUs per node, e.g. 4x32x8), and no cluster file of that name exists"
# a mistyped cluster is not called a file that cannot be opened
for c in 4X32X8 " 4x32x8" 4x32x8junk; do
    expect_exit 2 tt-sim -c "$c" small.h5
    expect_err "tt-sim: cluster '$c': not RxNxG"
done
expect_exit 2 tt-sim small.h5
expect_err "no cluster (-c RxNxG)"
expect_exit 2 tt-sim -c 1x1x4
expect_err "no trace file"
expect_exit 2 tt-sim -c 1x1x4 small.h5 small.h5
expect_exit 2 tt-sim -c 1x1x4 --jobs --timeline small.h5
expect_err "--jobs and --timeline exclude each other"
expect_exit 2 tt-sim -x -c 1x1x4 small.h5

expect_exit 1 tt-sim -c 1x1x4 -o keep.h5 missing.h5
expect_err "cannot read 'missing.h5'"
echo "not hdf5" >text.h5
expect_exit 1 tt-sim -c 1x1x4 -o keep.h5 text.h5
expect_err "not an HDF5 file"
[ ! -s out.txt ] || fail "output for a text file"
expect_exit 1 tt-sim -c 1x1x4 --models "$FIX/sim/sim_bad_models.tsv" -o keep.h5 small.h5
expect_err "sim_bad_models.tsv:3: field 'slow_l2': expected an integer 1000 .. 1000000 (permille), got '999'"
expect_exit 1 tt-sim -c 1x1x4 --models nosuch_models.tsv small.h5
expect_err "cannot open 'nosuch_models.tsv'"
# a trace beyond the engine's bounds (a duration past 2^32 s), which
# tt-ingest now refuses: written by an earlier tt-ingest
cp "$FIX/sim/sim_long.h5" long.h5
expect_exit 1 tt-sim -c 1x1x4 -o keep.h5 long.h5
expect_err "tt-sim: 'long.h5': job 0"
[ "$(cat keep.h5)" = old ] || fail "an error replaced the existing output"
# the output may not be the trace; a folder that does not exist
cp small.h5 small_copy.h5
expect_exit 1 tt-sim -c 1x1x4 -o small.h5 small.h5
expect_err "output 'small.h5' is also the input 'small.h5': refusing to overwrite it"
cmp -s small.h5 small_copy.h5 || fail "the input was overwritten"
expect_exit 1 tt-sim -c 1x1x4 -o nodir/r.h5 small.h5
expect_err "cannot write 'nodir/r.h5'"
[ ! -s out.txt ] || fail "output after a failed write"
leftover=$(ls -A | grep -E '^\..*tmp-' || true)
[ -z "$leftover" ] || fail "temporary files left: $leftover"
# success replaces the old file
expect_exit 0 tt-sim -c 1x1x4 -o keep.h5 small.h5
[ "$(head -c 516 keep.h5 | tail -c 4 | od -An -c | tr -d ' ')" = "211HDF" ] || fail "keep.h5 not replaced" # after the seal

expect_exit 0 tt-sim -h
grep -q "^usage: tt-sim" out.txt || fail "-h"
for w in order=fifo w0=inf w1=inf theta=inf restart=30 congestion=0 min_run=300 \
    max_preempt=3 backfill=1 load=1000 seed=1 "mix=(equal)" "Exit status"; do
    grep -qF -- "$w" out.txt || fail "-h lacks '$w'"
done
expect_exit 0 tt-sim --version
grep -q "tracetune" out.txt || fail "--version"

# ---- the HDF5 result: read with h5py alone, it gives the same tables ----
PY=/usr/bin/python3
$PY -c "import h5py" 2>/dev/null ||
    skip "no h5py for $PY (apt install python3-h5py): result file not read back; other checks passed"
expect_exit 0 tt-sim -c 1x1x4 -p mix=ncf:1 -o res.h5 --jobs small.h5
cmp -s out.txt want_jobs.tsv || fail "--jobs with -o: $(diff out.txt want_jobs.tsv)"
cat >read.py <<'EOF'
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
s = f["sim"]
assert s.attrs["tracetune_layout"] == "sim/1"
assert s.attrs["cluster"] == sys.argv[3], s.attrs["cluster"]
j, names = s["jobs"], s["models/name"].asstr()[()]
cols = ["job", "submit", "duration", "gpus", "cls", "start", "end", "queue", "level", "slow",
        "preemptions", "starts_l0", "starts_l1", "starts_l2", "gpu_s", "rejected", "rho"]
assert sorted(j.keys()) == sorted(cols), sorted(j.keys())
assert j["start"].attrs["missing"] == -2**63 and j["start"].attrs["units"] == "s"
c = {k: j[k][()] for k in cols}
if sys.argv[2] == "jobs":
    print("job\tsubmit\tduration\tgpus\tmodel\tstart\tend\tjct\tqueue\tlevel\tslow\t"
          "preemptions\tstarts_l0\tstarts_l1\tstarts_l2\tgpu_s\trho")
    for i in range(len(c["job"])):
        rej = c["rejected"][i] == 1
        gone = lambda v: "" if rej else str(v)
        print("\t".join([str(c["job"][i]), str(c["submit"][i]), str(c["duration"][i]),
                         str(c["gpus"][i]), names[c["cls"][i]], gone(c["start"][i]),
                         gone(c["end"][i]), gone(int(c["end"][i]) - int(c["submit"][i])),
                         gone(c["queue"][i]), gone(c["level"][i]), gone(c["slow"][i])] +
                        [str(c[k][i]) for k in cols[10:15]] + [gone(c["rho"][i])]))
elif sys.argv[2] == "timeline":
    tl = s["timeline"]
    tc = ["t", "waiting", "running", "busy_gpus", "running_l0", "running_l1", "running_l2"]
    assert sorted(tl.keys()) == sorted(tc)
    print("\t".join(tc))
    for i in range(len(tl["t"])):
        print("\t".join(str(tl[k][i]) for k in tc))
else:
    sm = s["summary"]
    params = ["order", "w0", "w1", "theta", "restart", "congestion", "min_run", "max_preempt",
              "backfill", "load", "seed", "mix", "timers", "mlfq", "promote", "prio_preempt",
              "gittins_delta", "gittins_dist", "el_up", "el_down", "el_frac", "resize",
              "resize_cost", "resize_gap", "gpu_mem", "cache_slots", "load_bw", "xfer_bw",
              "evict", "cache_place", "w_warm", "requeue", "prio_victims"]
    metrics = ["makespan", "jct_mean", "jct_p50", "jct_p90", "jct_p99", "queue_mean",
               "queue_p99", "comm_gpu_s", "comm_share", "restart_gpu_s", "preemptions",
               "placed_l0", "placed_l1", "placed_l2", "util", "rejected", "resizes", "grows",
               "shrinks", "resize_gpu_s", "loan_gpu_s", "demotions",
               "promotions", "preempt_prio", "ftf_mean", "ftf_max", "ftf_unfair",
               "wf_jct_mean", "wf_jct_p99", "wf_rejected", "cache_hit", "loads",
               "model_evicts", "load_gpu_s", "xfer_gpu_s"]
    assert sorted(sm.keys()) == sorted(params + metrics)
    row = []
    for k in params:
        d = sm[k]
        if d.dtype.kind == "O":
            row.append(d.asstr()[()])
        elif "infinite" in d.attrs and d[()] == d.attrs["infinite"]:
            row.append("inf")
        else:
            row.append(str(d[()]))
    for k in metrics:
        v = sm[k][()]
        dec = {"comm_gpu_s": 3, "jct_mean": 6, "queue_mean": 6, "comm_share": 6, "util": 6,
               "ftf_mean": 6, "wf_jct_mean": 6}
        row.append("%.*f" % (dec[k], v) if k in dec else str(v))
    print("\t".join(params + metrics))
    print("\t".join(row))
EOF
$PY read.py res.h5 jobs 1x1x4 >py_jobs.tsv || fail "h5py read failed"
cmp -s py_jobs.tsv want_jobs.tsv || fail "h5py jobs: $(diff py_jobs.tsv want_jobs.tsv)"
$PY read.py res.h5 timeline 1x1x4 >py_tl.tsv || fail "h5py timeline failed"
cmp -s py_tl.tsv want_tl.tsv || fail "h5py timeline: $(diff py_tl.tsv want_tl.tsv)"
$PY read.py res.h5 summary 1x1x4 >py_sum.tsv || fail "h5py summary failed"
sed "s/$MIX/ncf:1/" want.tsv >want_ncf.tsv
cmp -s py_sum.tsv want_ncf.tsv || fail "h5py summary: $(diff py_sum.tsv want_ncf.tsv)"
# the provenance names the trace, its digest and the model table
# (the built-in table is data/models.tsv: same digest)
$PY - "$FIX/../../data/models.tsv" <<'EOF' || fail "h5py provenance"
import hashlib, sys, h5py
s = h5py.File("res.h5", "r")["sim"]
t = h5py.File("small.h5", "r")["jobs"]
assert s.attrs["trace_file"] == "small.h5"
assert s.attrs["trace_source_sha256"] == t.attrs["source_sha256"]
assert s.attrs["models_source"] == "(built in)"
assert s.attrs["models_sha256"] == hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()
assert s.attrs["unknown_models"] == 2 and s.attrs["jobs"] == 5
assert s["summary/w1"].attrs["infinite"] == 2**63 - 1
EOF
# a table file given with --models is named in the result
expect_exit 0 tt-sim -c 1x2x4 --models "$FIX/sim/sim_models.tsv" -p w0=0 -o rack_res.h5 rack.h5
$PY read.py rack_res.h5 summary 1x2x4 >py_sum.tsv || fail "h5py rack summary failed"
cmp -s py_sum.tsv out.txt || fail "h5py rack summary: $(diff py_sum.tsv out.txt)"
want_sha=$(sha256sum "$FIX/sim/sim_models.tsv" | cut -d' ' -f1)
$PY -c "
import h5py, sys
s = h5py.File('rack_res.h5', 'r')['sim']
sys.exit(s.attrs['models_sha256'] != '$want_sha' or
         not s.attrs['models_source'].endswith('sim_models.tsv'))" || fail "models provenance"
