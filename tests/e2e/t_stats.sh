# tt-stats: every section on a five-job fixture, worked out by hand, then
# the real Philly CSV against awk over the CSV itself, then the errors.
T=$(printf '\t')

# ---- the fixture (tests/fixtures/trace/stats_five.tsv) ----
#   submit dur gpus milli vc user  gpu_s
#   100    25  2    -     a  u1     50
#   103     0  1    500   -  u2      0
#   110     5  4    -     b  u1     20
#   110    40  1    250   a  -      40
#   131     9  8    -     b  u3     72      total 182 GPU-s, span 31 s
expect_exit 0 tt-ingest -f csv -o five.h5 "$FIX/trace/stats_five.tsv"

# means: 182/3600 = 0.0506, 152000/3600000 = 0.0422, 16/5, 79/5, 182/31 = 5.871
cat >want_summary.tsv <<EOF
metric${T}value
jobs${T}5
gpu_hours${T}0.05
gpu_milli_hours${T}0.04
first_submit${T}100
last_submit${T}131
span_s${T}31
span_days${T}0.00
users${T}3
vcs${T}2
duplicates${T}0
mean_gpus${T}3.20
max_gpus${T}8
mean_duration_s${T}15.80
offered_load_gpus${T}5.87
duration_unit${T}s
EOF
# nearest ranks of 5 values: 1 1 2 3 4 5 5 5; of the 4 interarrivals
# (3 7 0 21): 1 1 1 2 3 4 4 4; means 79/5, 16/5, 31/4, 182/5
cat >want_quantiles.tsv <<EOF
quantity${T}mean${T}min${T}p10${T}p25${T}p50${T}p75${T}p90${T}p99${T}max
duration_s${T}15.80${T}0${T}0${T}5${T}9${T}25${T}40${T}40${T}40
gpus${T}3.20${T}1${T}1${T}1${T}2${T}4${T}8${T}8${T}8
interarrival_s${T}7.75${T}0${T}0${T}0${T}3${T}7${T}21${T}21${T}21
gpu_s${T}36.40${T}0${T}0${T}20${T}40${T}50${T}72${T}72${T}72
EOF
# GPU-s per count 40 50 20 72: hours 0.011 0.014 0.006 0.020, shares of 182
cat >want_gpus.tsv <<EOF
gpus${T}jobs${T}job_share${T}gpu_hours${T}gpu_hour_share
1${T}2${T}0.4000${T}0.01${T}0.2198
2${T}1${T}0.2000${T}0.01${T}0.2747
4${T}1${T}0.2000${T}0.01${T}0.1099
8${T}1${T}0.2000${T}0.02${T}0.3956
EOF
# b 92, a 90 (90/3600 = 0.025 exactly: the half rounds up), no VC 0
cat >want_vc.tsv <<EOF
vc${T}jobs${T}job_share${T}gpu_hours${T}gpu_hour_share
b${T}2${T}0.4000${T}0.03${T}0.5055
a${T}2${T}0.4000${T}0.03${T}0.4945
-${T}1${T}0.2000${T}0.00${T}0.0000
EOF
# 10 s bins from 100; GPU-s per bin 20 50 20 82 10 (the 40 s job ends on
# the boundary at 150, so there is no sixth bin)
cat >want_load.tsv <<EOF
bin_start${T}submitted${T}submitted_gpus${T}demand_gpus
100${T}2${T}3${T}2.00
110${T}2${T}5${T}5.00
120${T}0${T}0${T}2.00
130${T}1${T}8${T}8.20
140${T}0${T}0${T}1.00
EOF
expect_exit 0 tt-stats five.h5
cmp -s out.txt want_summary.tsv || fail "summary: $(diff out.txt want_summary.tsv)"
for s in summary quantiles gpus vc; do
    expect_exit 0 tt-stats -s $s five.h5
    cmp -s out.txt want_$s.tsv || fail "section $s: $(diff out.txt want_$s.tsv)"
done
expect_exit 0 tt-stats -s load -b 10 five.h5
cmp -s out.txt want_load.tsv || fail "load: $(diff out.txt want_load.tsv)"
for s in summary quantiles gpus vc load; do
    echo "# $s"
    cat want_$s.tsv
done >want_all.tsv
expect_exit 0 tt-stats -b 10 -s all five.h5
cmp -s out.txt want_all.tsv || fail "all: $(diff out.txt want_all.tsv)"
# one bin of 1000 s holds all 182 GPU-s: 0.18 GPUs
expect_exit 0 tt-stats -s load -b 1000 five.h5
[ "$(sed -n 2p out.txt)" = "100${T}5${T}16${T}0.18" ] || fail "one bin: $(cat out.txt)"

# ---- usage and file errors (nothing on stdout) ----
expect_exit 2 tt-stats -s nosuch five.h5
expect_err "unknown section 'nosuch'"
for b in 0 -5 abc '' 1.5; do
    expect_exit 2 tt-stats -s load -b "$b" five.h5
    expect_err "option -b"
    [ ! -s out.txt ] || fail "-b '$b' printed output"
done
# 1 s bins of the five jobs need 50: fine; a trace of 20,000,001 s needs
# more than the 10,000,000 allowed at 1 s, and exactly 10,000,001 at 2 s
expect_exit 0 tt-stats -s load -b 1 five.h5
[ "$(wc -l <out.txt)" = 51 ] || fail "1 s bins: $(wc -l <out.txt) lines"
printf 'submit\tduration\tgpus\n0\t1\t1\n20000000\t1\t1\n' >long.tsv
expect_exit 0 tt-ingest -q -f csv -o long.h5 long.tsv
for b in 1 2; do
    expect_exit 2 tt-stats -s all -b $b long.h5
    expect_err "use a larger bin"
    [ ! -s out.txt ] || fail "output for too many bins"
done
expect_exit 0 tt-stats -s load -b 1000000 long.h5
[ "$(wc -l <out.txt)" = 22 ] || fail "1e6 s bins: $(wc -l <out.txt) lines"
[ "$(tail -1 out.txt)" = "20000000${T}1${T}1${T}0.00" ] || fail "last bin: $(tail -1 out.txt)"

# ---- durations in training steps (gavel_small: 1000, 5, 250 steps on 4,
# 16, 1 GPUs, submits 0, 7, 13 s): described in steps, never as seconds;
# no offered load in GPUs (steps over seconds is not GPUs) ----
expect_exit 0 tt-ingest -q -o gv.h5 "$FIX/ingest/gavel/gavel_small.trace"
expect_exit 0 tt-stats -s all gv.h5
for want in "gpu_steps${T}4330.00" "gpu_milli_steps${T}4330.00" "span_s${T}13" \
    "mean_duration_steps${T}418.33" "offered_load_gpus${T}" "duration_unit${T}steps" \
    "duration_steps${T}418.33${T}5${T}5${T}5${T}250${T}1000${T}1000${T}1000${T}1000" \
    "interarrival_s${T}6.50${T}6${T}6${T}6${T}6${T}7${T}7${T}7${T}7" \
    "gpu_steps${T}1443.33${T}80${T}80${T}80${T}250${T}4000${T}4000${T}4000${T}4000" \
    "gpus${T}jobs${T}job_share${T}gpu_steps${T}gpu_steps_share" "4${T}1${T}0.3333${T}4000.00${T}0.9238" \
    "bin_start${T}submitted${T}submitted_gpus${T}demand_gpus" "0${T}3${T}21${T}"; do
    grep -qxF -- "$want" out.txt || fail "steps: no line '$want': $(tr '\n\t' '| ' <out.txt)"
done
grep -wE 'gpu_hours|gpu_milli_hours|gpu_hour_share|mean_duration_s|duration_s|gpu_s' out.txt &&
    fail "steps shown as seconds: $(grep -wE 'gpu_hours|duration_s|gpu_s' out.txt)"
[ "$(wc -l <out.txt)" = 34 ] || fail "steps: $(wc -l <out.txt) lines"
# a trace without a user column (gavel's): empty, not 0 users
grep -qxF "users${T}" out.txt || fail "users of a trace without them: $(grep '^users' out.txt)"

expect_exit 2 tt-stats
expect_err "no trace file"
expect_exit 2 tt-stats five.h5 five.h5
expect_exit 2 tt-stats -x five.h5
expect_exit 1 tt-stats missing.h5
expect_err "cannot read 'missing.h5'"
[ ! -s out.txt ] || fail "output for a missing file"
echo "not hdf5" >text.h5
expect_exit 1 tt-stats -s all text.h5
expect_err "not an HDF5 file"
[ ! -s out.txt ] || fail "output for a text file"
expect_exit 0 tt-stats -h
grep -q "^usage: tt-stats" out.txt || fail "-h"
expect_exit 0 tt-stats --version
grep -q "tracetune" out.txt || fail "--version"

# ---- the Pollux Philly CSV: checked against awk over the CSV ----
csv="$TRACES/philly/pollux_philly.csv"
[ -r "$csv" ] || skip "no shared Philly CSV (fixture checks passed)"
expect_exit 0 tt-ingest -q -o p.h5 "$csv"
tt-stats p.h5 >sum.tsv
[ "$(head -1 sum.tsv)" = "metric${T}value" ] || fail "summary header"
grep -qx "jobs${T}82247" sum.tsv || fail "jobs: $(grep ^jobs sum.tsv)"
grep -qx "gpu_hours${T}978078.47" sum.tsv || fail "gpu_hours: $(grep ^gpu_hours sum.tsv)"
grep -qx "vcs${T}15" sum.tsv || fail "vcs"
grep -qx "users${T}" sum.tsv || fail "users of a trace without them: $(grep ^users sum.tsv)"
grep -qx "duplicates${T}65" sum.tsv || fail "duplicates"

# GPU counts: FORMATS.md's numbers, and awk's over the CSV
tt-stats -s gpus p.h5 >gpus.tsv
[ "$(head -1 gpus.tsv)" = "gpus${T}jobs${T}job_share${T}gpu_hours${T}gpu_hour_share" ] ||
    fail "gpus header"
tail -n +2 gpus.tsv | cut -f1,2 | tr '\t' : | paste -sd, >got_gpus.txt
[ "$(cat got_gpus.txt)" = "1:76627,2:1818,4:1870,8:1643,12:7,16:199,24:7,32:67,64:6,128:3" ] ||
    fail "gpu counts: $(cat got_gpus.txt)"
awk -F, 'NR > 1 && NF { n[$3 + 0]++ } END { for (g in n) print g ":" n[g] }' "$csv" | sort -n |
    paste -sd, >awk_gpus.txt
cmp -s got_gpus.txt awk_gpus.txt || fail "gpu counts vs awk: $(cat awk_gpus.txt)"
# GPU-hours per count within the last printed digit of awk's floating sum
awk -F, 'NR > 1 && NF { h[$3 + 0] += $2 * $3 }
    END { for (g in h) printf "%d\t%.6f\n", g, h[g] / 3600 }' "$csv" | sort -n >awk_hours.txt
tail -n +2 gpus.tsv | awk -F'\t' 'NR == FNR { h[$1] = $2; next }
    { d = $4 - h[$1]; if (d < -0.0051 || d > 0.0051) { print $1 ": " $4 " vs " h[$1]; bad = 1 } }
    END { exit bad }' awk_hours.txt - || fail "GPU-hours per count"

# median duration: nearest rank ceil(n / 2) of the sorted duration column
# (the CSV ends with an empty line: NF skips it)
n=$(awk 'NR > 1 && NF { n++ } END { print n }' "$csv")
p50=$(awk -F, 'NR > 1 && NF { print $2 + 0 }' "$csv" | sort -n |
    awk -v r=$(((n + 1) / 2)) 'NR == r { print }')
tt-stats -s quantiles p.h5 >q.tsv
got=$(awk -F'\t' '$1 == "duration_s" { print $6 }' q.tsv)
[ "$(head -1 q.tsv | cut -f6)" = p50 ] || fail "quantiles header"
[ -n "$p50" ] && [ "$got" = "$p50" ] || fail "p50 duration $got, awk says $p50"

# load: demand x bin adds up to the GPU-seconds, within the rounding of
# 2 decimals (0.005 GPU x bin per bin); every job submitted once
total=$(awk -F, 'NR > 1 && NF { s += $2 * $3 } END { printf "%.0f", s }' "$csv")
[ "$total" = 3521082502 ] || fail "awk GPU-seconds $total"
for b in 3600 86400; do
    tt-stats -s load -b $b p.h5 >load.tsv
    [ "$(head -1 load.tsv)" = "bin_start${T}submitted${T}submitted_gpus${T}demand_gpus" ] ||
        fail "load header"
    awk -F'\t' -v b=$b -v total=$total 'NR > 1 { s += $4 * b; j += $2; bins++ }
        END { d = s - total; if (d < 0) d = -d
              if (d > bins * 0.005 * b || j != 82247) {
                  printf "-b %d: %.0f GPU-s in %d bins vs %d, %d jobs\n", b, s, bins, total, j
                  exit 1 } }' load.tsv || fail "load sum"
done
# all: the five sections in order, each with its header
tt-stats -s all p.h5 >all.tsv
[ "$(grep '^# ' all.tsv | paste -sd' ')" = "# summary # quantiles # gpus # vc # load" ] ||
    fail "all: sections"
[ "$(grep -c "^vc${T}jobs" all.tsv)" = 1 ] || fail "all: vc header"
awk -F'\t' '/^# vc/ { v = 1; next } /^# / { v = 0 } v && $1 != "vc" { n++ } END { exit n != 15 }' \
    all.tsv || fail "all: 15 VC rows"
