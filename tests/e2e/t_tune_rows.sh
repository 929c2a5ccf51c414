# tt-tune's rows against plain tt-sim runs, for every searchable
# parameter searched alone: each row it prints (its 33 parameters, its
# train and test metrics) is what tt-sim gives those parameters on the
# part; strict and no_wait are the fixed parameters waiting inf and 0 (as
# tt-sim prints them); the search simulates as many configurations as
# tt-sweep counts distinct simulations over the same range; grid_best is no
# better than the choice unless tt-tune says so on stderr; with a test part,
# the verdict on stderr is what the test objectives call for.
T=$(printf '\t')
# sim_of FILE ROW TRACE: tt-sim's output row for the 33 parameters of a
# tt-tune row (columns 7 .. 39)
sim_of() {
    local args
    args=$(awk -F'\t' -v r="$2" 'NR == 1 { for (k = 7; k <= 39; k++) h[k] = $k }
        NR == r { for (k = 7; k <= 39; k++) printf " -p %s=%s", h[k], $k; exit }' "$1")
    # shellcheck disable=SC2086
    tt-sim -c "$C" $args "$3" 2>/dev/null | sed -n 2p
}
# check_rows TSV ERR TRAIN [TEST]: every row's parameters and metrics
# against tt-sim on the parts
check_rows() {
    local r n row sim
    n=$(wc -l <"$1")
    for r in $(seq 2 "$n"); do
        row=$(sed -n ${r}p "$1")
        sim=$(sim_of "$1" $r "$3")
        [ "$(echo "$sim" | cut -f1-68)" = "$(echo "$row" | cut -f7-39,40-74)" ] ||
            fail "$what: row $(echo "$row" | cut -f1) is not tt-sim's on train:$(echo; echo "$row" | cut -f1-40; echo "$sim" | cut -f1-34)"
        if [ -n "${4:-}" ]; then
            sim=$(sim_of "$1" $r "$4")
            [ "$(echo "$sim" | cut -f34-68)" = "$(echo "$row" | cut -f75-109)" ] ||
                fail "$what: row $(echo "$row" | cut -f1) is not tt-sim's on test"
        fi
    done
    # strict and no_wait: the fixed parameters waiting inf and 0, every
    # other parameter as given (tt-sim prints them all)
    # shellcheck disable=SC2086
    sim=$(tt-sim -c "$C" $fixed -p w0=inf -p w1=inf "$3" 2>/dev/null | sed -n 2p | cut -f1-68)
    [ "$(sed -n 3p "$1" | cut -f1)${T}$(sed -n 3p "$1" | cut -f7-74)" = "strict${T}$sim" ] ||
        fail "$what: strict is not the fixed parameters waiting inf: $(sed -n 3p "$1" | cut -f1-40)"
    # shellcheck disable=SC2086
    sim=$(tt-sim -c "$C" $fixed -p w0=0 -p w1=0 "$3" 2>/dev/null | sed -n 2p | cut -f1-68)
    [ "$(sed -n 4p "$1" | cut -f1)${T}$(sed -n 4p "$1" | cut -f7-74)" = "no_wait${T}$sim" ] ||
        fail "$what: no_wait is not the fixed parameters waiting 0: $(sed -n 4p "$1" | cut -f1-40)"
    # with a test part, the verdict there: what the test objectives call for
    if [ -n "${4:-}" ]; then
        want=$(awk -F'\t' -f "$FIX/../e2e/verdict.awk" "$1")
        grep -qxF "tt-tune: $want" "$2" || fail "$what: not the verdict '$want': $(cat "$2")"
    fi
    # grid_best no better than the choice on train, unless said
    if awk -F'\t' '$1 == "recommended" { r = $2 } $1 == "grid_best" { g = $2 } END { exit !(g + 0 < r + 0) }' "$1"; then
        grep -q "^tt-tune: the grid baseline beat the search on train: grid_best's objective $(awk -F'\t' '$1 == "grid_best" { print $2 }' "$1") is " "$2" ||
            fail "$what: grid_best beats the choice, unsaid: $(cut -f1,2 "$1")"
    else
        grep -q "grid baseline beat" "$2" && fail "$what: a grid note, yet grid_best does not beat the choice"
    fi
    return 0
}

# ---- the case of the defect: el_up over a trace of elastic jobs, a point
# a round (the cache keyed 13 parameters: 2 simulations for the grid of 4,
# strict with el_up=1, no_wait with another configuration's numbers) ----
C=2x8x8
expect_exit 0 tt-gen -n 3000 -s 2 --elastic 0.5 -o el.h5
what="el_up=0,1,2,3"
fixed="-p load=2000"
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c $C $fixed -s el_up=0,1,2,3 --objective jct_mean --budget 4 --batch 1 el.h5
cp out.txt el.tsv
cp err.txt el.err
expect_err "tt-tune: 5 simulations on train (search 4, grid baseline 0, others 1)"
check_rows el.tsv el.err el.h5
[ "$(cut -f1,25 el.tsv | tr '\t\n' ':,')" = "role:el_up,recommended:1,strict:0,no_wait:0,grid_best:1," ] ||
    fail "el_up: $(cut -f1,25 el.tsv)"
# with a held-out quarter: the test part's rows too (the parts as their own
# traces: the first 2250 jobs and the last 750)
tt-cat el.h5 >el-all.tsv
head -2251 el-all.tsv >el-train.tsv
{ head -1 el-all.tsv; tail -n +2252 el-all.tsv; } >el-test.tsv
expect_exit 0 tt-ingest -q -f csv -o el-train.h5 el-train.tsv
expect_exit 0 tt-ingest -q -f csv -o el-test.h5 el-test.tsv
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu -c $C $fixed -s el_up=0,1,2,3 -s el_down=0,1 --objective jct_mean \
    --budget 8 --batch 2 --holdout 0.25 el.h5
cp out.txt elh.tsv
cp err.txt elh.err
[ "$(wc -l <elh.tsv)" = 6 ] || fail "holdout: 5 rows: $(cut -f1 elh.tsv)"
what="el_up x el_down, holdout 0.25"
check_rows elh.tsv elh.err el-train.h5 el-test.h5

# ---- each searchable parameter alone, over a trace of elastic jobs and
# workflows with the model cache on, under an order that reads SPEC 11's
# parameters; then with el_up=1 too, where every configuration is a
# simulation of its own (the fixed parameters less the one searched) ----
C=2x4x8
expect_exit 0 tt-gen -n 600 -s 5 --elastic 0.5 --wf-frac 0.3 --models 6 -o g.h5
cat >ranges.txt <<'RANGES'
w0 0,60,inf
w1 0,600,inf
theta 1000,1300,1600,inf
restart 0,30,300
congestion 0,200,500
min_run 0,300,900
max_preempt 0,1,3
backfill 0,1
load 500,1000,2000
promote 0,2000,8000
prio_preempt 0,1
gittins_delta 100,3250,20000
el_up 0,1,2,3
el_down 0,1,2
resize_cost 1,10,100
resize_gap 0,300,3000
cache_slots 1,2,4
w_warm 0,60,600
requeue keep,front
prio_victims lowest,refill
RANGES
for BASE in "order=gittins w0=600 w1=3600 theta=1200 gpu_mem=2048 load_bw=100 load=2000" \
    "order=gittins w0=600 w1=3600 theta=1200 gpu_mem=2048 load_bw=100 load=2000 el_up=1"; do
    while read -r name range; do
        fixed=$(for kv in $BASE; do [ "${kv%%=*}" = "$name" ] || printf ' -p %s' "$kv"; done)
        what="$name=$range over $BASE"
        # shellcheck disable=SC2086
        expect_exit 0 tt-sweep -d cpu -c $C $fixed -g "$name=$range" g.h5
        forms=$(sed -n 's/^tt-sweep: [0-9,]* configurations*, \([0-9,]*\) distinct simulations*$/\1/p' err.txt)
        [ -n "$forms" ] || fail "$what: tt-sweep said no count: $(cat err.txt)"
        # a point a round: a later point looks up the rows of the earlier ones
        # shellcheck disable=SC2086
        expect_exit 0 tt-tune -d cpu -c $C $fixed -s "$name=$range" --objective jct_mean --budget 16 \
            --batch 1 g.h5
        cp out.txt p.tsv
        cp err.txt p.err
        grep -q "on train (search $forms, grid baseline 0, " p.err ||
            fail "$what: not the $forms distinct simulations tt-sweep counts: $(cat p.err)"
        grep -q ": exact: all $forms distinct simulations of the grid" p.err ||
            fail "$what: not said exact: $(cat p.err)"
        check_rows p.tsv p.err g.h5
    done <ranges.txt
done
# every searchable parameter is above: the tool's own list, from its message
expect_exit 2 tt-tune -c $C -s seed=1,2 --objective jct_mean g.h5
listed=$(sed -n 's/.*(searchable: \(.*\))$/\1/p' err.txt | tr ' ' '\n' | grep -v CLASS | sort | tr '\n' ' ')
[ "$listed" = "backfill cache_slots congestion el_down el_up gittins_delta load max_preempt min_run prio_preempt prio_victims promote requeue resize_cost resize_gap restart theta w0 w1 w_warm " ] ||
    fail "a searchable parameter this test does not search: $listed"
