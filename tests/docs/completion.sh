#!/usr/bin/env bash
# tests/docs/completion.sh FILE: the bash completion FILE (written by
# docs/man/completion.py) registers every tool of TT_BIN and completes, in
# an interactive bash, what a user types: options, the arguments an option
# takes (devices, formats, sections, parameter names, metrics, columns,
# clusters), the values after NAME= of a parameter that takes words
# (order=, preset=, evict=, ...; in a grid's list too), tt-plot's kinds,
# and files.
set -uo pipefail
file=${1:?completion file}
: "${TT_BIN:?set TT_BIN to the bin/ folder}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/ex.h5" "$tmp/ex.tsv"
tools=$(cd "$TT_BIN" && echo tt-*)

# each case: the words before the cursor | the word under it | the
# completions wanted (in any order)
cat >"$tmp/cases" <<'EOF'
tt-sweep|--sh|--shard
tt-sweep -c 4x32x8|--no|--no-dedup
tt-sweep -d||auto cpu gpu
tt-tune --strategy||model refine
tt-ingest -f|pai|pai pai-sim
tt-ingest -f|philly|philly-csv philly-json
tt-stats -s||summary quantiles gpus vc load all
tt-sim -p|w|w0= w1= w_warm=
tt-sweep -g|th|theta=
tt-tune -s|min|min_run=
tt-sim -p w0 =||
tt-sim -p w0|=|
tt-sim -p order|=|fifo sjf srtf las dlas gittins ftf
tt-sim -p order =|s|sjf srtf
tt-sweep -p preset|=|yarn-cs tiresias-dlas tiresias-gittins pollux-tiresias themis k8s-fixed elastic-term elastic-sidecar start-smaller wf-deps cache-lru heft-like compass-like tiresias-sim-dlas tiresias-sim-gittins
tt-tune -p preset =|elastic|elastic-term elastic-sidecar
tt-sim -p evict|=|lru demand
tt-sim -p cache_place =|a|affinity
tt-sim -p resize =|t|term
tt-sim -p requeue =|f|front
tt-sim -p prio_victims =|r|refill
tt-sim -p gittins_dist =|ex.|ex.h5 ex.tsv
tt-sweep -g order =|fifo,s|fifo,sjf fifo,srtf
tt-sweep -g preset =|k8s-fixed,elastic-s|k8s-fixed,elastic-sidecar
tt-sim -c|4x|4x32x8 4x4x8
tt-cat -c|submit,du|submit,duration
tt-plot||surface pareto cdf timeline trace search rolling size lines
tt-plot -o f.png|pa|pareto
tt-plot surface -z|jct_p|jct_p50 jct_p90 jct_p99
tt-plot pareto -x|make|makespan
tt-plot surface|ex|ex.h5 ex.tsv
tt-sim -c 4x32x8|ex.|ex.h5 ex.tsv
tt-merge -o|ex.h|ex.h5
tt-stats|--v|--version
EOF

# shellcheck disable=SC2016 # expanded by the inner bash
bash --norc --noprofile -i -c '
    cd "$1" || exit 1
    . "$2" || exit 1
    compopt() { :; } # outside a real completion, options on the reply are moot
    for t in $3; do
        [ "$(complete -p "$t" 2>&1)" = "complete -F _tt_complete $t" ] ||
            echo "FAIL: complete -p $t: $(complete -p "$t" 2>&1)"
    done
    n=0
    while IFS="|" read -r before cur want; do
        read -ra COMP_WORDS <<<"$before"
        COMP_WORDS+=("$cur")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="$before $cur" COMP_POINT=${#COMP_LINE}
        _tt_complete
        got=$(printf "%s\n" "${COMPREPLY[@]}" | sort | xargs)
        want=$(printf "%s\n" $want | sort | xargs)
        [ "$got" = "$want" ] || echo "FAIL: \"$before $cur<TAB>\": \"$got\", expected \"$want\""
        n=$((n + 1))
    done <cases
    echo "completion: $n cases"
' completion "$tmp" "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")" "$tools" >"$tmp/out" 2>"$tmp/err"
if grep -q FAIL "$tmp/out" || ! grep -q "^completion: [0-9]* cases" "$tmp/out"; then
    grep FAIL "$tmp/out" >&2
    echo "completion: bash said: $(grep -v '^bash: .*job control\|no job control' "$tmp/err" | head -5)" >&2
    exit 1
fi
echo "$(tail -1 "$tmp/out") completed as expected; every tool registered"
