#!/usr/bin/env bash
# tests/compare/run.sh [--drop NAME,...] OLD_BIN NEW_BIN: runs a fixed set of
# tool runs with two builds of the tools and compares every output byte for
# byte (stdout, stderr, exit status, and the HDF5 files through h5dump, whose
# digests and attributes then must agree too). For refactors that must change
# no number.
# --drop names columns a change adds on purpose: they are removed from the
# new side first (TSV columns by header name, also as train_NAME and
# test_NAME; HDF5 datasets and attributes by name), so what is left must be
# the old output byte for byte.
# Exit 0 when all agree, 1 when any differs (the differences on stderr).
set -u
drop=
if [ "${1:-}" = --drop ]; then drop=${2:?--drop NAME,...}; shift 2; fi
old=$(cd "${1:?OLD_BIN}" && pwd) new=$(cd "${2:?NEW_BIN}" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${TT_SHARED:-$here/../shared}
philly="$shared/traces/philly/pollux_philly.csv"
fix="$here/tests/fixtures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# each line: a name, then the command; tools are called as $T/tt-x; files
# are written in the current folder
runs=$(cat <<RUNS
ingest-example  \$T/tt-ingest -o ex.h5 $here/data/example.tsv
ingest-philly   \$T/tt-ingest -o ph.h5 $philly
stats-example   \$T/tt-stats ex.h5
stats-philly    \$T/tt-stats ph.h5
cat-example     \$T/tt-cat ex.h5
cat-info        \$T/tt-cat --info ex.h5
gen             \$T/tt-gen -n 2000 -s 7 -o gen.h5
gen-cat         \$T/tt-cat gen.h5
sim-strict      \$T/tt-sim -c 4x32x8 -p load=2000 ph.h5
sim-delay       \$T/tt-sim -c 4x32x8 -p load=3000 -p w0=600 -p w1=3600 -p theta=1400 ph.h5
sim-jobs        \$T/tt-sim -c 2x8x8 -p w0=600 --jobs -o simjobs.h5 ex.h5
sim-orders      \$T/tt-sim -c 2x8x8 -p order=sjf ex.h5
sweep-example   \$T/tt-sweep -d cpu -c 2x8x8 -p w1=0 -g w0=0,60,300,600,1800,3600,14400,inf -g theta=1100,1200,1400,1600,inf -o sw.h5 ex.h5
sweep-philly    \$T/tt-sweep -d cpu -c 4x32x8 -p load=2000 -g w0=0,600,inf -g theta=1200,inf -g order=fifo,sjf -o swp.h5 ph.h5
tune-example    \$T/tt-tune -d cpu -c 2x8x8 -s w0=0:3600:16 -s theta=1000:2000:8 --objective jct_mean --budget 40 -o tu.h5 ex.h5
tune-holdout    \$T/tt-tune -d cpu -c 4x32x8 -p load=2000 -s w0=log:1:86400:8,inf -s theta=1000:2000:4 --objective "jct_mean s.t. makespan <= 1.05*best" --holdout 0.25 --budget 12 ph.h5
plot-search     \$T/tt-plot search --script srch.gp -o srch.svg tu.h5
plot-cdf        \$T/tt-plot cdf --script cdf.gp -o cdf.svg simjobs.h5
plot-surface    \$T/tt-plot surface --facet makespan --script surf.gp -o surf.svg sw.h5
plot-pareto     \$T/tt-plot pareto --script par.gp -o par.svg sw.h5
merge           \$T/tt-merge -o mg.h5 sw.h5
bad-cluster     \$T/tt-sim -c 4X32X8 ex.h5
bad-param       \$T/tt-sim -c 2x8x8 -p w0=abc ex.h5
RUNS
)
status=0
for side in old new; do
    mkdir -p "$work/$side"
    T=${!side}
    (cd "$work/$side" && while read -r name cmd; do
        [ -n "$name" ] || continue
        eval "${cmd//\\\$T/$T}" >"$name.out" 2>"$name.err"
        echo $? >"$name.rc"
        sed -i "s|$T|BIN|g" "$name.err" "$name.out"
    done <<<"$runs"
    # timings (elapsed_s, sims_per_s) differ from run to run: left out
    for f in *.h5; do
        h5dump "$f" 2>&1 | grep -v 'HDF5 "' | awk '
            /ATTRIBUTE "(elapsed_s|sims_per_s)"/ { skip = 1; ind = index($0, "A") }
            skip && /^ *}$/ && index($0, "}") == ind { skip = 0; next }
            !skip' >"$f.dump"
    done
    for f in *.gp; do sed -i '/set output/d' "$f"; done
    grep -L "^0$" ./*.rc | sed "s/^/non-zero: /" >&2
    rm -f ./*.h5 ./*.svg)
done
# the columns added on purpose leave the new side
if [ -n "$drop" ]; then
    for f in "$work"/new/*.out; do
        awk -F'\t' -v OFS='\t' -v drop="$drop" '
            NR == 1 { n = split(drop, d, ","); for (i = 1; i <= n; i++) {
                          gone[d[i]] = 1; gone["train_" d[i]] = 1; gone["test_" d[i]] = 1 }
                      tsv = NF > 1; for (i = 1; i <= NF; i++) keep[i] = !($i in gone) }
            !tsv { print; next }
            { line = ""; sep = ""; for (i = 1; i <= NF; i++) if (keep[i]) { line = line sep $i; sep = OFS }
              print line }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
    done
    for f in "$work"/new/*.dump; do
        awk -v drop="$drop" '
            BEGIN { n = split(drop, d, ","); for (i = 1; i <= n; i++) gone[d[i]] = 1 }
            !skip && match($0, /^ *(DATASET|ATTRIBUTE) "[^"]*" \{$/) {
                name = $0; sub(/^[^"]*"/, "", name); sub(/".*$/, "", name)
                if (name in gone) { skip = 1; ind = index($0, substr($1, 1, 1)); next } }
            skip && /^ *}$/ && index($0, "}") == ind { skip = 0; next }
            !skip' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
    done
fi
for f in "$work"/old/*; do
    b=$(basename "$f")
    cmp -s "$f" "$work/new/$b" || { echo "differs: $b" >&2; diff "$f" "$work/new/$b" | head -5 >&2; status=1; }
done
n=$(ls "$work/old" | wc -l)
[ $status = 0 ] && echo "compare: $n outputs byte-identical${drop:+ (less the columns $drop)}"
exit $status
