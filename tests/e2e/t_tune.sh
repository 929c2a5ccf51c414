# tt-tune: its rows equal tt-sim's on the train and test parts (built here
# with head/tail), the budget and the cache counted in the HDF5 history,
# the same output for the same seed, and the errors.
T=$(printf '\t')
EX="$FIX/../../data/example.tsv"
expect_exit 0 tt-ingest -q -f csv -o ex.h5 "$EX"
# the parts of --holdout 0.3 over 2000 jobs: train [0,1400), test [1400,2000)
head -1401 "$EX" >train.tsv
{ head -1 "$EX"; tail -n +1402 "$EX"; } >test.tsv
[ "$(wc -l <test.tsv)" = 601 ] || fail "test part: $(wc -l <test.tsv) lines"
expect_exit 0 tt-ingest -q -f csv -o train.h5 train.tsv
expect_exit 0 tt-ingest -q -f csv -o test.h5 test.tsv

# a budget of a tenth of the grid, under its 46 distinct simulations: a search
S="-s w0=log:1:86400:15,inf -s theta=1000:5000:16 -p load=3000 --budget 25"
# row_params FILE ROW: the -p options of a tt-tune row's 24 parameter columns
row_params() {
    for k in $(seq 7 30); do
        printf ' -p %s=%s' "$(head -1 "$1" | cut -f$k)" "$(sed -n "$2p" "$1" | cut -f$k)"
    done
}
for st in model refine; do
    # shellcheck disable=SC2086
    expect_exit 0 tt-tune -d cpu -c 2x8x8 $S --strategy $st --objective jct_mean \
        --holdout 0.3 -o $st.h5 ex.h5
    cp out.txt $st.tsv
    cp err.txt $st.err
    [ "$(wc -l <$st.tsv)" = 6 ] || fail "$st: a header and 5 rows: $(cat $st.tsv)"
    [ "$(head -1 $st.tsv | awk -F'\t' '{print NF}')" = 109 ] || fail "$st: 109 columns"
    [ "$(cut -f1 $st.tsv | tr '\n' ,)" = "role,recommended,strict,no_wait,grid_best,hindsight," ] ||
        fail "$st: roles $(cut -f1 $st.tsv)"
    # every row's train and test metrics are tt-sim's on the parts
    for r in 2 3 4 5 6; do
        row=$(sed -n ${r}p $st.tsv)
        args=$(row_params $st.tsv $r)
        # shellcheck disable=SC2086
        expect_exit 0 tt-sim -c 2x8x8 $args train.h5
        [ "$(sed -n 2p out.txt | cut -f34-68)" = "$(echo "$row" | cut -f40-74)" ] ||
            fail "$st row $r: train metrics differ from tt-sim's: $(sed -n 2p out.txt) / $row"
        # shellcheck disable=SC2086
        expect_exit 0 tt-sim -c 2x8x8 $args test.h5
        [ "$(sed -n 2p out.txt | cut -f34-68)" = "$(echo "$row" | cut -f75-109)" ] ||
            fail "$st row $r: test metrics differ from tt-sim's"
        # the objective is jct_mean; regret = its test value less the hindsight's
        [ "$(echo "$row" | cut -f2)" = "$(echo "$row" | cut -f41)" ] || fail "$st: objective_train"
    done
    # the verdict on the test part: what the test objectives call for, and in the file
    want=$(awk -F'\t' -f "$FIX/../e2e/verdict.awk" $st.tsv)
    grep -qxF "tt-tune: $want" $st.err || fail "$st: not the verdict '$want': $(cat $st.err)"
    [ "$(h5dump -a /tune/verdict $st.h5 | sed -n 's/.*(0): "\(.*\)"$/\1/p')" = "$want" ] ||
        fail "$st: the file's verdict: $(h5dump -a /tune/verdict $st.h5)"
    awk -F'\t' 'NR > 1 { o[$1] = $3 } NR > 1 && $3 + 0 < best + 0 || NR == 2 { best = $3 }
        END { exit !(o["hindsight"] == best) }' $st.tsv || fail "$st: hindsight is not the best on test"
    # (each printed to 6 decimals: the difference of the printed values may
    # be 1e-6 off the printed difference)
    awk -F'\t' 'NR > 1 { h = $1 == "hindsight" ? $3 : h; r[NR] = $3; g[NR] = $4 }
        END { for (i in r) { d = r[i] - h - g[i]; if (d > 1.5e-6 || d < -1.5e-6) exit 1 } }' $st.tsv ||
        fail "$st: regret_test is not objective_test less the hindsight's"
    # strict and no_wait are what they say
    [ "$(sed -n 3p $st.tsv | cut -f8,9)" = "inf${T}inf" ] || fail "$st: strict"
    [ "$(sed -n 4p $st.tsv | cut -f8,9)" = "0${T}0" ] || fail "$st: no_wait"
    # the grid is 16 x 16 (15 log values + inf; 1000:5000:16): budget 25
    grep -q "over a grid of 256 (search 9.8%)" $st.err || fail "$st: $(cat $st.err)"
    # the history: the search's simulations (phase 0 on train, the rows that
    # are their own sim_row) within the budget, its points at most 4 per
    # simulation of it (the others share a simulation: docs/model.md 8.1)
    for c in phase part sim_row; do
        h5dump -y -w 0 -o "$c.raw" -d "/tune/history/$c" $st.h5 >/dev/null || fail "$st: h5dump $c"
        tr -d ' \n' <"$c.raw" | tr ',' '\n' >"$c.col"
    done
    sims=$(paste phase.col part.col sim_row.col | awk -F'\t' '$1 == 0 && $2 == 0 && $3 == NR - 1' | wc -l)
    points=$(paste phase.col part.col | awk -F'\t' '$1 == 0 && $2 == 0' | wc -l)
    [ "$sims" -ge 1 ] && [ "$sims" -le 25 ] || fail "$st: $sims search simulations, budget 25"
    [ "$points" -gt "$sims" ] && [ "$points" -le 100 ] || fail "$st: $points search points, $sims simulations"
    grep -q "(search $sims, grid baseline" $st.err || fail "$st: not $sims search simulations: $(cat $st.err)"
    train=$(paste part.col sim_row.col | awk -F'\t' '$1 == 0 && $2 == NR - 1' | wc -l)
    h5dump -a /tune/sims_train -a /tune/grid_size $st.h5 | grep -A1 "DATA {" | grep -o '(0): [0-9]*' >a.txt
    [ "$(cat a.txt | tr '\n' ' ')" = "(0): $train (0): 256 " ] || fail "$st: sims_train, grid_size $(cat a.txt)"
done
# a tune file where a trace is expected says what it is, as tt-plot does
expect_exit 1 tt-sweep -d cpu -c 2x8x8 -g w0=0,60 model.h5
expect_err "tt-sweep: 'model.h5': not a tracetune trace (it is a tune file)"
# the same seed: the same bytes; --line is the recommended -p options
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c 2x8x8 $S --objective jct_mean --holdout 0.3 ex.h5
cmp -s out.txt model.tsv || fail "a second run differs: $(diff out.txt model.tsv | head -4)"
# -j past 4 x the usable CPUs is cut, said; the same bytes
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
    # shellcheck disable=SC2086
    expect_exit 0 taskset -c 0 tt-tune -d cpu -j 9 -c 2x8x8 $S --objective jct_mean --holdout 0.3 ex.h5
    expect_err "tt-tune: -j 9: 4 threads (4 x the 1 usable CPUs)"
    cmp -s out.txt model.tsv || fail "-j 9 on 1 CPU differs: $(diff out.txt model.tsv | head -4)"
else
    echo "SKIP (taskset): -j against the affinity mask not checked"
fi
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c 2x8x8 $S --objective jct_mean --holdout 0.3 --line ex.h5
grep -qF "recommended: tt-sim -c 2x8x8 $(cat out.txt) ex.h5" model.err ||
    fail "--line '$(cat out.txt)' vs $(grep recommended model.err)"
# without a split: no test columns
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c 2x8x8 $S --strategy refine --objective "jct_mean s.t. makespan <= 1.05 * best" ex.h5
[ "$(wc -l <out.txt)" = 5 ] || fail "no split: 4 rows: $(cat out.txt)"
[ "$(sed -n 2p out.txt | cut -f3,4,6,75)" = "${T}${T}${T}" ] || fail "no split: test columns"

# the objective stored in the tune file reads back to the same objective:
# every digit kept (1.0000001 was stored as 1), any length
O="1.0000001*jct_mean + 0.1*makespan s.t. makespan <= 1.0000001*best and util >= 1e-7"
expect_exit 0 tt-tune -d cpu -c 2x8x8 -s w0=0,60,600 --objective "$O" -o obj.h5 ex.h5
cp out.txt obj.tsv
stored=$(h5dump -a /tune/objective obj.h5 | sed -n 's/.*(0): "\(.*\)"$/\1/p')
[ "$stored" = "1.0000001 * jct_mean + 0.1 * makespan s.t. makespan <= 1.0000001 * best and util >= 1e-07" ] ||
    fail "objective stored as '$stored'"
expect_exit 0 tt-tune -d cpu -c 2x8x8 -s w0=0,60,600 --objective "$stored" ex.h5
cmp -s out.txt obj.tsv || fail "the stored objective '$stored' tunes differently"

# a budget its last round still gained on: said on stderr and kept in the file
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c 2x8x8 $S --budget 4 --objective jct_mean -o small.h5 ex.h5
note=$(sed -n 's/^tt-tune: \(budget may be too small: .*\)$/\1/p' err.txt)
echo "$note" | grep -q '^budget may be too small: the last round improved the objective by [0-9.]* %$' ||
    fail "budget 4: no note: $(cat err.txt)"
[ "$(h5dump -a /tune/budget_note small.h5 | sed -n 's/.*(0): "\(.*\)"$/\1/p')" = "$note" ] ||
    fail "budget_note in the file: $(h5dump -a /tune/budget_note small.h5)"
# every point simulated (the default budget over 3 points: exact): nothing to say
h5dump -a /tune/budget_note obj.h5 | grep -q '(0): ""$' ||
    fail "budget_note after one round: $(h5dump -a /tune/budget_note obj.h5)"

# ---- exact: with the default budget (256 over these 256 points) the search
# runs each of the grid's distinct simulations, as many as tt-sweep counts,
# and its choice has the least objective of the exhaustive sweep, on each
# part; not with a budget under them ----
G="-s w0=log:1:86400:15,inf -s theta=1000:5000:16 -p load=3000"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -c 2x8x8 ${G//-s /-g } train.h5
cp out.txt sweep-train.tsv
forms=$(sed -n 's/^tt-sweep: 256 configurations, \([0-9]*\) distinct simulations$/\1/p' err.txt)
[ -n "$forms" ] && [ "$forms" -lt 256 ] || fail "exact: tt-sweep's count: $(cat err.txt)"
# shellcheck disable=SC2086
expect_exit 0 tt-sweep -d cpu -c 2x8x8 ${G//-s /-g } test.h5
cp out.txt sweep-test.tsv
forms_test=$(sed -n 's/^tt-sweep: 256 configurations, \([0-9]*\) distinct simulations$/\1/p' err.txt)
# least jct_mean (column 35) of a sweep's rows
least() { awk -F'\t' 'NR > 1 && (m == "" || $35 + 0 < m + 0) { m = $35 } END { print m }' "$1"; }
for st in model refine; do
    # shellcheck disable=SC2086
    expect_exit 0 tt-tune -d cpu -c 2x8x8 $G --strategy $st --objective jct_mean --holdout 0.3 \
        -o exact-$st.h5 ex.h5
    cp err.txt exact-$st.err
    expect_err "(search $forms, grid baseline 0, others 1) over a grid of 256: exact: all $forms distinct simulations of the grid"
    expect_err "of the best in hindsight, exact: all $forms_test distinct simulations of the grid; train jobs [0,1400)"
    [ "$(sed -n 2p out.txt | cut -f2)" = "$(least sweep-train.tsv)" ] ||
        fail "exact $st: recommended $(sed -n 2p out.txt | cut -f2), the sweep's least $(least sweep-train.tsv)"
    [ "$(awk -F'\t' '$1 == "hindsight" { print $3 }' out.txt)" = "$(least sweep-test.tsv)" ] ||
        fail "exact $st: hindsight is not the sweep's least on test"
    grep -q "budget may be too small" err.txt && fail "exact $st: a budget note"
    h5dump -a /tune/exact_train -a /tune/grid_distinct_train -a /tune/exact_test \
        -a /tune/grid_distinct_test exact-$st.h5 | grep -o '(0): [0-9-]*' | tr '\n' ' ' >a.txt
    [ "$(cat a.txt)" = "(0): 1 (0): $forms (0): 1 (0): $forms_test " ] || fail "exact $st: the file says $(cat a.txt)"
done
# a budget under the distinct simulations: a search, not exact, which says
# what it left and the budget that makes it exact; the file keeps the count
h5dump -a /tune/exact_train -a /tune/grid_distinct_train model.h5 | grep -o '(0): [0-9-]*' | tr '\n' ' ' >a.txt
[ "$(cat a.txt)" = "(0): 0 (0): $forms " ] || fail "budget 25: the file says $(cat a.txt)"
grep -q ": exact: " model.err && fail "budget 25: said exact: $(cat model.err)"
grep -qxF "tt-tune: not exact: the search ran 25 of the grid's $forms distinct simulations; how far its choice lies from the grid's best is not known (--budget $forms makes it exact)" model.err ||
    fail "budget 25: not said what it left: $(cat model.err)"
for st in model refine; do
    grep -q "not exact" exact-$st.err 2>/dev/null && fail "exact $st: said not exact"
done
# honest confidence: a search that is not exact says 'budget may be too
# small' and why, whether or not its choice is the grid's best (the budgets
# 10 and 25 with seeds 1 to 3 land 0 to 14 % above tt-sweep's least on this
# train part, and the surrogate's room alone missed choices 9 to 14 % off);
# one that says nothing was exact and is the sweep's least
best=$(least sweep-train.tsv)
off=0
for st in model refine; do
    for b in 10 25; do
        for seed in 1 2 3; do
            # shellcheck disable=SC2086
            expect_exit 0 tt-tune -d cpu -c 2x8x8 $G --strategy $st --budget $b --seed $seed \
                --objective jct_mean train.h5
            got=$(sed -n 2p out.txt | cut -f2)
            awk -v g="$got" -v b="$best" 'BEGIN { exit !(g > 1.02 * b) }' && off=$((off + 1))
            grep -q "^tt-tune: budget may be too small: " err.txt ||
                fail "$st budget $b seed $seed: $got against the grid's $best, and no warning: $(cat err.txt)"
        done
    done
done
[ $off -ge 3 ] || fail "only $off of 12 small searches more than 2 % off: a check that cannot fail"

# ---- timers per class: w0.* is one dimension a class of the model table ----
expect_exit 0 tt-tune -d cpu -c 2x8x8 -s 'w0.*=0,600,inf' -s theta=1000,2000 -p load=3000 \
    --objective jct_mean --budget 40 -o cls.h5 ex.h5
cp out.txt cls.tsv
grep -q "over a grid of 1458 (search 2.7%)" err.txt || fail "w0.*: 3^6 x 2 grid: $(cat err.txt)"
# the recommended row gives classes their own w0; every row is tt-sim's
sed -n 2p cls.tsv | cut -f19 | grep -q '^[a-z0-9]*:[0-9inf]*:-' || fail "w0.*: timers $(sed -n 2p cls.tsv)"
for r in 2 3 4 5; do
    row=$(sed -n ${r}p cls.tsv)
    args=$(row_params cls.tsv $r)
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim -c 2x8x8 $args ex.h5
    [ "$(sed -n 2p out.txt | cut -f34-68)" = "$(echo "$row" | cut -f40-74)" ] ||
        fail "w0.* row $r: metrics differ from tt-sim's: $(sed -n 2p out.txt) / $row"
done
# strict and no_wait keep no class timers of their own
[ "$(sed -n 3p cls.tsv | cut -f8,9,19)" = "inf${T}inf${T}-" ] || fail "w0.*: strict $(sed -n 3p cls.tsv)"
# the history: a number column a searched class timer, equal to the timers text
h5dump -d /tune/history/params/w0.bert -d /tune/space/w0.resnet50 cls.h5 >/dev/null ||
    fail "w0.*: history or space column missing"
expect_exit 2 tt-tune -c 2x8x8 -s w0.medium=0,60 --objective jct_mean ex.h5
expect_err "tt-tune: range 'w0.medium=0,60': unknown model class 'medium'"

# ---- errors: usage (2), input (1); nothing on stdout, no file left ----
for args in "-s w0=a:b:3" "-s order=fifo,sjf" "-s w0=1:2" "--objective jct_avg" \
    "--objective jct_mean-" "--objective 'jct_mean s.t. makespan <= 0.5 * best'" \
    "--holdout 1.5" "--train 0:10" "--train 5:2 --test 2:9" "-p w0=5" "--strategy grid" \
    "--budget 0" "-d tpu" "-j 0" "-j 100000" "--holdout 0.3 --train 0:1 --test 1:2" "--train 0:10 --test 10:9000"; do
    eval "set -- $args"
    expect_exit 2 tt-tune -c 2x8x8 -s w0=0,60 --objective jct_mean "$@" -o bad.h5 ex.h5
    [ -s out.txt ] && fail "'$args': output on stdout"
    [ -e bad.h5 ] && fail "'$args': left bad.h5"
done
expect_exit 2 tt-tune -c 2x8x8 -s w0=a:b:3 --objective jct_mean ex.h5
expect_err "tt-tune: range 'w0=a:b:3': 'a' is not an integer"
expect_exit 2 tt-tune -c 2x8x8 -s w0=0,60 --objective jct_avg ex.h5
expect_err "objective 'jct_avg': unknown metric 'jct_avg' (known: makespan jct_mean"
expect_exit 2 tt-tune -c 2x8x8 -s w0=0,60 -p w0=5 --objective jct_mean ex.h5
expect_err "parameter 'w0': both fixed with -p and searched with -s"
# an absolute bound no configuration meets: exit 1, its reason
expect_exit 1 tt-tune -d cpu -c 2x8x8 -s w0=0,60 --budget 2 --objective "jct_mean s.t. makespan <= 10" -o bad.h5 ex.h5
expect_err "no feasible configuration: constraint 'makespan <= 10' holds for none of the 2 configurations"
[ -e bad.h5 ] && fail "infeasible: left bad.h5"
[ -s out.txt ] && fail "infeasible: output on stdout"
# every job larger than the cluster: no objective has a value (all were 0,
# and a configuration was recommended): exit 1, nothing written
printf 'submit\tduration\tgpus\n0\t100\t16\n50\t200\t32\n' >big.tsv
expect_exit 0 tt-ingest -q -f csv -o big.h5 big.tsv
expect_exit 1 tt-tune -d cpu -c 1x1x8 -s w0=0,60,600 -s theta=1100,inf --objective "jct_mean s.t. util >= 0.5" -o bad.h5 big.h5
expect_err "tt-tune: 'big.h5': the objective's jct_mean cannot be computed (every job is rejected): nothing to tune"
[ -e bad.h5 ] && fail "nothing to tune: left bad.h5"
[ -s out.txt ] && fail "nothing to tune: output on stdout"
expect_exit 1 tt-tune -c 2x8x8 -s w0=0,60 --objective jct_mean nosuch.h5
# -d gpu where no GPU answers: exit 1, said
if ! tt-tune --version | grep -q "device(s)"; then
    expect_exit 1 tt-tune -d gpu -c 2x8x8 -s w0=0,60 --objective jct_mean ex.h5
    expect_err "tt-tune: GPU linear algebra: "
fi

# ---- Ctrl-C: stops between batches, writes nothing, says so once, exits 130 ----
echo old >stop.h5
# (a grid whose distinct simulations pass the budget: a search of many rounds)
tt-tune -d cpu -j 2 -c 2x8x8 -s w0=0:3600:60 -s w1=0:3600:60 -s theta=0:3600:60 \
    --objective jct_mean --budget 2000 -o stop.h5 ex.h5 >stop.out 2>stop.err &
pid=$!
sleep 1
kill -INT $pid
got=0
wait $pid || got=$?
[ "$got" = 130 ] || fail "SIGINT: exit $got, expected 130; $(cat stop.err)"
[ "$(grep stopped stop.err)" = "tt-tune: stopped by signal 2 before the end: nothing written" ] ||
    fail "SIGINT: not said once: $(cat stop.err)"
[ "$(cat stop.h5)" = old ] || fail "SIGINT: stop.h5 was touched"
[ ! -s stop.out ] || fail "SIGINT: rows printed"

# ---- a local search whose proposals run a batch mid-ranking: the ranking's
# length is the one it was made with (rows added by the batch are not in it;
# reading past it crashed, or under ASan reported, with -j 2 here) ----
openb="$TT_SHARED/traces/alibaba_gpu_v2023_openb/csv/openb_pod_list_default.csv"
if [ -f "$openb" ]; then
    expect_exit 0 tt-ingest -q -o openb.h5 "$openb"
    for j in 1 2; do
        expect_exit 0 tt-tune -d cpu -j $j -c 1x4x8 -s w0=log:30:86400:16,inf \
            -s theta=log:1000:10000:12,inf -p w1=0 \
            --objective 'jct_mean s.t. makespan <= 1.05*best' --budget 40 --holdout 0.25 \
            openb.h5
        cp out.txt openb-tune$j.tsv
    done
    cmp -s openb-tune1.tsv openb-tune2.tsv || fail "tune on openb: -j 1 and -j 2 differ"
fi
