# tt-tune --rolling: every number of its rows worked out again from
# independent runs of the same window slices (cut here with awk from the
# trace's TSV): each choice is the one tt-tune alone recommends on its
# window, its objective there and on the next window is tt-sim's, strict
# consolidation's and the first window's choice's likewise, and the best
# static choice in hindsight is the least job-weighted total of a tt-sweep
# over the same grid on each window after the first; the totals, the tune
# file's /tune/rolling, a window without jobs, the figure and the errors.
C="-c 2x4x8 -p load=1500"
G="-s w0=0,600,3600,inf -s theta=1000,1200,1500,inf"
W=86400
# a trace of about 8 days, its fourth day left without jobs (a gap the
# choice of the third day spans), through TSV so that the slices below are
# the same rows in the same order
expect_exit 0 tt-gen -n 2200 -s 7 -a 300 -o gen.h5
tt-cat gen.h5 >gen.tsv
awk -F'\t' -v W=$W 'NR == 1 { print; next } NR == 2 { t0 = $1 }
    int(($1 - t0) / W) != 3 { print }' gen.tsv >all.tsv
expect_exit 0 tt-ingest -q -f csv -o all.h5 all.tsv
# the windows: jobs submitted in [t0 + k W, t0 + (k + 1) W), each its own
# file; win.txt: index start end jobs of those with jobs
awk -F'\t' -v W=$W 'NR == 1 { h = $0; next } NR == 2 { t0 = $1 }
    { k = int(($1 - t0) / W); f = "w" k ".tsv"
      if (!(k in n)) { print h >f; ks[++m] = k } print >f; n[k]++ }
    END { for (i = 1; i <= m; i++) print i - 1, ks[i] * W, (ks[i] + 1) * W, n[ks[i]] }' \
    all.tsv >win.txt
nw=$(wc -l <win.txt)
[ "$nw" -ge 5 ] || fail "the trace has $nw windows with jobs: $(cat win.txt)"
for k in $(awk '{ print $2 / '$W' }' win.txt); do
    expect_exit 0 tt-ingest -q -f csv -o "w$k.h5" "w$k.tsv"
done
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu $C $G --objective jct_mean --rolling 1d -o roll.h5 all.h5
cp out.txt roll.tsv
cp err.txt roll.err
[ "$(head -1 roll.tsv)" = "$(printf 'window\tstart\tend\tjobs\tw0\ttheta\tobjective\texact\tsims\tnext_jobs\tnext_choice\tnext_hindsight\tnext_strict\tnext_first')" ] ||
    fail "header: $(head -1 roll.tsv)"
[ "$(wc -l <roll.tsv)" = $((nw + 2)) ] || fail "$nw windows: a header, $nw rows and a total: $(cat roll.tsv)"
# the windows and their jobs are the slices'
[ "$(sed -n "2,$((nw + 1))p" roll.tsv | cut -f1-4 | tr '\t' ' ')" = "$(cat win.txt)" ] ||
    fail "windows: $(cut -f1-4 roll.tsv) against $(cat win.txt)"
# sim FILE ARGS...: tt-sim's jct_mean (the objective) with these -p
sim() {
    local f=$1
    shift
    # shellcheck disable=SC2086
    tt-sim $C "$@" "$f" >sim.txt 2>/dev/null || fail "tt-sim $* $f"
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "jct_mean") c = i } NR == 2 { print $c }' sim.txt
}
row() { sed -n "$(($1 + 2))p" roll.tsv | cut -f"$2"; }
for k in $(seq 0 $((nw - 1))); do
    day=$(awk -v k=$k '$1 == k { print $2 / '$W' }' win.txt)
    p="-p w0=$(row $k 5) -p theta=$(row $k 6)"
    # the choice is what tt-tune alone recommends on that window (exact)
    # shellcheck disable=SC2086
    expect_exit 0 tt-tune -d cpu $C $G --objective jct_mean --line "w$day.h5"
    [ "$(cat out.txt)" = "$p -p load=1500" ] || fail "window $k: tt-tune alone chooses '$(cat out.txt)', rolling '$p'"
    # shellcheck disable=SC2086
    [ "$(sim "w$day.h5" $p)" = "$(row $k 7)" ] || fail "window $k: objective $(row $k 7), tt-sim $(sim "w$day.h5" $p)"
    [ "$(row $k 8)" = 1 ] || fail "window $k: not exact with the default budget"
    [ $k = $((nw - 1)) ] && break
    next=$(awk -v k=$((k + 1)) '$1 == k { print $2 / '$W' }' win.txt)
    [ "$(row $k 10)" = "$(awk -v k=$((k + 1)) '$1 == k { print $4 }' win.txt)" ] || fail "window $k: next_jobs"
    # shellcheck disable=SC2086
    [ "$(sim "w$next.h5" $p)" = "$(row $k 11)" ] || fail "window $k: next_choice $(row $k 11), tt-sim $(sim "w$next.h5" $p)"
    [ "$(sim "w$next.h5" -p w0=inf -p w1=inf)" = "$(row $k 13)" ] || fail "window $k: next_strict"
    # shellcheck disable=SC2086
    [ "$(sim "w$next.h5" -p w0=$(row 0 5) -p theta=$(row 0 6))" = "$(row $k 14)" ] || fail "window $k: next_first"
done
# the last window has no next: empty columns
[ "$(row $((nw - 1)) 10-14)" = "$(printf '\t\t\t\t')" ] || fail "last window: $(row $((nw - 1)) 1-14)"
# the gap: the third window's choice is applied to the fifth day's jobs
[ "$(awk '$1 == 3 { print $2 }' win.txt)" = $((4 * W)) ] || fail "no gap after the third window: $(cat win.txt)"

# the best static choice in hindsight: a tt-sweep of the grid on each window
# after the first, each configuration's jct_mean weighted by the window's
# jobs; its least total, the configuration tt-tune names and its objective
# on each window
: >sweeps.tsv
for k in $(seq 1 $((nw - 1))); do
    day=$(awk -v k=$k '$1 == k { print $2 / '$W' }' win.txt)
    jobs=$(awk -v k=$k '$1 == k { print $4 }' win.txt)
    # shellcheck disable=SC2086
    expect_exit 0 tt-sweep -d cpu $C ${G//-s /-g } "w$day.h5"
    awk -F'\t' -v k=$k -v j=$jobs 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print k "\t" j "\t" $c["w0"] "\t" $c["theta"] "\t" $c["jct_mean"] }' out.txt >>sweeps.tsv
done
read -r hw0 hth least < <(awk -F'\t' '{ key = $3 " " $4; if (!(key in s)) o[++n] = key
        s[key] += $2 * $5; w[key] += $2 }
    END { for (i = 1; i <= n; i++) { t = s[o[i]] / w[o[i]]; if (i == 1 || t < b) { b = t; k = o[i] } }
          printf "%s %.6f\n", k, b }' sweeps.tsv)
grep -qxF "tt-tune: best static choice in hindsight: tt-sim -c 2x4x8 -p w0=$hw0 -p theta=$hth -p load=1500 all.h5" roll.err ||
    fail "hindsight: the sweeps' least total is w0=$hw0 theta=$hth ($least): $(grep hindsight roll.err)"
for k in $(seq 1 $((nw - 1))); do
    want=$(awk -F'\t' -v k=$k -v a="$hw0" -v b="$hth" '$1 == k && $3 == a && $4 == b { print $5 }' sweeps.tsv)
    [ "$(row $((k - 1)) 12)" = "$want" ] || fail "window $((k - 1)): next_hindsight $(row $((k - 1)) 12), the sweep's $want"
done
# the totals: each column's objectives weighted by next_jobs, the total
# hindsight the sweeps' least (printed to 6 decimals: 1e-6 apart at most, 1.5e-6 with the doubles)
tot=$(tail -1 roll.tsv)
[ "$(echo "$tot" | cut -f1-3)" = "$(printf 'total\t0\t%s' "$(row $((nw - 1)) 3)")" ] || fail "total row: $tot"
[ "$(echo "$tot" | cut -f4)" = "$(awk '{ s += $4 } END { print s }' win.txt)" ] || fail "total jobs: $tot"
[ "$(echo "$tot" | cut -f8,9)" = "$(printf '%s\t%s' "$nw" "$(sed -n "2,$((nw + 1))p" roll.tsv | awk -F'\t' '{ s += $9 } END { print s }')")" ] ||
    fail "total exact, sims: $tot"
for c in 11 12 13 14; do
    awk -F'\t' -v c=$c -v n=$nw 'NR > 1 && NR <= n { s += $10 * $c; j += $10 }
        NR == n + 2 { d = s / j - $c; if ($10 != j || d > 1.5e-6 || d < -1.5e-6) exit 1 }' roll.tsv ||
        fail "total column $c is not the job-weighted mean: $tot"
done
echo "$tot" | awk -F'\t' -v l="$least" '{ d = $12 - l; exit !(d <= 1.5e-6 && d >= -1.5e-6) }' ||
    fail "total next_hindsight $(echo "$tot" | cut -f12), the sweeps' least $least"
# the stderr: a window without jobs left out, the verdict's numbers
grep -q " over $nw windows of 1d (days 0 to [0-9.]*; 1 window without jobs left out; search " roll.err ||
    fail "describe: $(cat roll.err)"
grep -qF "re-tuning every 1d gives jct_mean $(echo "$tot" | cut -f11) (the windows' mean weighted by their jobs)" roll.err ||
    fail "verdict: $(cat roll.err)"

# the tune file: /tune/rolling holds the TSV's rows, the history's parts
# are the windows, the roles the last choice, the first and the hindsight
# col NAME: a column of /tune/rolling (DATASET: another path), a value a line
col() {
    h5dump -y -w 0 -m '%.17g' -o col.raw -d "${DATASET:-/tune/rolling/$1}" roll.h5 >/dev/null || fail "h5dump $1"
    tr -d ' \n' <col.raw | tr ',' '\n'
    echo
}
for c in window start end jobs w0 theta objective exact sims; do
    k=$(head -1 roll.tsv | tr '\t' '\n' | grep -nx "$c" | cut -d: -f1)
    want=$(sed -n "2,$((nw + 1))p" roll.tsv | cut -f"$k" | sed 's/^inf$/9223372036854775807/')
    got=$(col $c | awk -v c=$c '{ print c == "objective" ? sprintf("%.6f", $1) : $1 }')
    [ "$got" = "$want" ] || fail "/tune/rolling/$c: $(echo $got) against $(echo $want)"
done
h5dump -a /tune/windows -a /tune/windows_empty -a /tune/rolling_s roll.h5 | grep -o '(0): [0-9]*' | tr '\n' ' ' >a.txt
[ "$(cat a.txt)" = "(0): $nw (0): 1 (0): $W " ] || fail "attributes windows, windows_empty, rolling_s: $(cat a.txt)"
DATASET=/tune/history/part col | sort -un | tr '\n' ' ' >a.txt
[ "$(cat a.txt)" = "$(seq 0 $((nw - 1)) | tr '\n' ' ')" ] || fail "history parts: $(cat a.txt)"
[ "$(DATASET=/tune/result/role col | tr '\n' ' ')" = '"recommended" "first" "hindsight" ' ] ||
    fail "roles: $(h5dump -d /tune/result/role roll.h5)"
# the objective of the history row each role names is the TSV's
for c in choice hindsight strict first; do
    k=$(head -1 roll.tsv | tr '\t' '\n' | grep -nx "next_$c" | cut -d: -f1)
    DATASET=/tune/history/objective col >obj.col
    got=$(col "next_${c}_row" | head -$((nw - 1)) | while read -r r; do sed -n "$((r + 1))p" obj.col; done |
        awk '{ printf "%.6f\n", $1 }')
    [ "$got" = "$(sed -n "2,${nw}p" roll.tsv | cut -f"$k")" ] || fail "next_${c}_row: the history's objectives differ"
done
# --line: the last window's choice
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu $C $G --objective jct_mean --rolling 1d --line all.h5
[ "$(cat out.txt)" = "-p w0=$(row $((nw - 1)) 5) -p theta=$(row $((nw - 1)) 6) -p load=1500" ] ||
    fail "--line: $(cat out.txt)"
# the same seed: the same bytes; 24h is 1d
# shellcheck disable=SC2086
expect_exit 0 tt-tune -d cpu $C $G --objective jct_mean --rolling 24h all.h5
cmp -s out.txt roll.tsv || fail "--rolling 24h differs from 1d"

# the figure, from the file and from the TSV
if command -v gnuplot >/dev/null; then
    expect_exit 0 tt-plot rolling -o roll.png --script roll.gp roll.h5
    [ -s roll.png ] || fail "no figure"
    grep -q "re-tuned every 1d" roll.gp || fail "figure title: $(grep multiplot roll.gp)"
    # a parameter panel a dimension, w0 first; each choice held over the next window
    [ "$(grep -c '^plot \$dim' roll.gp)" = 2 ] || fail "figure: two parameter panels"
    grep -q "'w0 in force'" roll.gp && grep -q "'theta in force'" roll.gp || fail "figure: panels' keys"
    expect_exit 0 tt-plot rolling -o roll2.png roll.tsv
    expect_exit 1 tt-plot rolling -o bad.png all.h5
else
    echo "SKIP (part): no gnuplot: the rolling figure not drawn"
fi

# ---- errors: usage (2) ----
expect_exit 2 tt-tune $C -s w0=0,600 --objective jct_mean --rolling 30d all.h5
expect_err "one window of 30.0 days, none to apply its choice to"
expect_exit 2 tt-tune $C -s w0=0,600 --objective 'jct_mean s.t. makespan <= 1.05 * best' --rolling 1d all.h5
expect_err "has conditions"
for bad in 7 1.5d 0d -1d 7y; do
    expect_exit 2 tt-tune $C -s w0=0,600 --objective jct_mean --rolling "$bad" all.h5
    expect_err "option --rolling: expected a duration"
done
expect_exit 2 tt-tune $C -s w0=0,600 --objective jct_mean --rolling 1d --holdout 0.2 all.h5
expect_err "--rolling excludes --holdout"
