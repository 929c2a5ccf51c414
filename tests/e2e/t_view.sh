# Output a person reads: -m picks columns of the metrics row (the same
# values as the full row, in the order asked), --human writes each as
# name, value and the value in days, hours, GPU-hours or %, checked
# against the full row's seconds; a sweep names each row's preset; an
# unknown column is a usage error with the nearest name.
T=$(printf '\t')
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"
# col NAME FILE: the value of column NAME in row 2 of a TSV file
col() { awk -F'\t' -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$2"; }

expect_exit 0 tt-sim -c 3x4x4 -p w0=600 -p theta=1200 ex.h5
cp out.txt full.tsv
expect_exit 0 tt-sim -c 3x4x4 -p w0=600 -p theta=1200 -m makespan,jct_mean,w0,preset ex.h5
[ "$(sed -n 1p out.txt)" = "makespan${T}jct_mean${T}w0${T}preset" ] || fail "-m header: $(sed -n 1p out.txt)"
[ "$(sed -n 2p out.txt)" = "$(col makespan full.tsv)$T$(col jct_mean full.tsv)${T}600$T-" ] ||
    fail "-m row: $(sed -n 2p out.txt), full row makespan $(col makespan full.tsv)"

# --human: jct_mean in hours, util in %, from the full row's numbers
expect_exit 0 tt-sim -c 3x4x4 -p w0=600 -p theta=1200 --human ex.h5
jm=$(col jct_mean full.tsv)
want=$(awk -v x="$jm" 'BEGIN { printf "%.2f hours", x / 3600 }')
grep -q "^jct_mean  *$jm  ($want)\$" out.txt || fail "--human jct_mean: want ($want): $(grep jct_mean out.txt)"
ut=$(col util full.tsv)
want=$(awk -v x="$ut" 'BEGIN { printf "%.1f %%", 100 * x }')
grep -q "^util  *$ut  ($want of cluster GPU-s)\$" out.txt || fail "--human util: $(grep '^util' out.txt)"
grep -q '^w0  *600  (10.0 minutes)$' out.txt || fail "--human shows w0=600 as 10 minutes: $(grep '^w0' out.txt)"
grep -q '^w1 ' out.txt && fail "--human shows w1, which is at its default"
grep -q '^resizes ' out.txt && fail "--human shows resizes, 0 without elastic jobs"

# a sweep names each row's preset, and its rows are tt-sim's
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g preset=yarn-cs,themis -g load=1000,2000 -m preset,load,jct_mean ex.h5
cp out.txt sweep.tsv
[ "$(cut -f1,2 sweep.tsv | tail -n +2 | tr '\t\n' ':,')" = "yarn-cs:1000,yarn-cs:2000,themis:1000,themis:2000," ] ||
    fail "preset column: $(cut -f1,2 sweep.tsv | tr '\n' ' ')"
expect_exit 0 tt-sim -c 3x4x4 -p preset=themis -p load=2000 -m jct_mean ex.h5
[ "$(sed -n 5p sweep.tsv | cut -f3)" = "$(sed -n 2p out.txt)" ] || fail "sweep row themis/2000 is not tt-sim's"
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g preset=yarn-cs,themis --human ex.h5
[ "$(grep -c '^configuration ' out.txt)" = 2 ] || fail "--human: two blocks expected"
grep -q '^preset  *themis$' out.txt || fail "--human names the preset"
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g w0=0,600 -m preset ex.h5
[ "$(tail -n +2 out.txt | tr '\n' ,)" = "-,-," ] || fail "no preset: '-': $(cat out.txt)"

# errors
expect_exit 2 tt-sim -c 3x4x4 -m jct_men ex.h5
expect_err "tt-sim: -m: no column 'jct_men' (did you mean 'jct_mean'?)"
expect_exit 2 tt-sweep -c 3x4x4 -g w0=0,1 -m makespan,lod ex.h5
expect_err "(did you mean 'load'?)"
expect_exit 2 tt-sim -c 3x4x4 -m makespan --jobs ex.h5
expect_err "-m and --human choose the metrics row's columns"
