#!/usr/bin/env bash
# The recorded commands of every figure in docs/figures: each is drawn from
# the tools and the public traces, so it can be made again and checked.
#
#   docs/figures/figures.sh OUTDIR [NAME...]   draw the figures named (all
#                                              but the slow ones by default)
#   docs/figures/figures.sh --list             the names, one a line, slow
#                                              ones marked
#
# TT_BIN: the tools (default bin/); TT_SHARED: the shared data folder
# (default ../shared). Work files go to a scratch folder. `make figures`
# draws them all into docs/figures; tests/docs/figures.sh draws the fast
# ones and says which committed figure is stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TT_BIN=${TT_BIN:-$root/bin}
TT_SHARED=${TT_SHARED:-$root/../shared}
philly_csv=$TT_SHARED/traces/philly/pollux_philly.csv
export PATH="$TT_BIN:$PATH"

# name, the function that draws it, slow (minutes) or not
FIGURES="philly-surface:surface philly-pareto:surface philly-orders-jct:orders
philly-orders-rho:orders philly-elastic-jct:elastic philly-elastic-makespan:elastic
philly-rolling:rolling wf-servers:workflows study-jct-cdf:study:slow"

philly() {
    [ -s "$work/philly.h5" ] || tt-ingest -q -o "$work/philly.h5" "$philly_csv"
}

# w0 x theta on Philly at twice the load, w1 = 0: 104 configurations
surface() {
    philly
    tt-sweep -c 4x32x8 -p load=2000 -p w1=0 \
        -g w0=0,60,120,300,600,1200,1800,3600,7200,14400,28800,86400,inf \
        -g theta=1050,1100,1200,1300,1400,1500,1700,inf \
        -o "$work/philly-sweep.h5" "$work/philly.h5" >/dev/null
    tt-plot surface --facet makespan \
        --title 'Philly (82,247 jobs) on 4x32x8 at twice the load, w1=0: mean JCT and makespan over w0 x theta' \
        -o "$out/philly-surface.png" "$work/philly-sweep.h5"
    tt-plot pareto -x jct_mean -y jct_p99 \
        --title 'Philly (82,247 jobs) on 4x32x8 at twice the load, w1=0: mean against p99 JCT, 104 configurations' \
        -o "$out/philly-pareto.png" "$work/philly-sweep.h5"
}

# each queue discipline's JCT and rho per job, twice the load
orders() {
    philly
    local ps="yarn-cs tiresias-dlas tiresias-gittins pollux-tiresias themis" files=() labels=()
    for p in $ps; do
        tt-sim -c 4x32x8 -p load=2000 -p preset=$p -o "$work/$p.h5" "$work/philly.h5" >/dev/null
        files+=("$work/$p.h5")
        labels+=(--label "$p")
    done
    for x in jct rho; do
        tt-plot cdf -x $x "${labels[@]}" \
            --title "Philly on 4x32x8 at twice the load: $x of each job, per queue discipline" \
            -o "$out/philly-orders-$x.png" "${files[@]}"
    done
}

# SPEC 10.11's baselines against the resize cost, loads 1000 and 2000
elastic() {
    philly
    tt-sweep -c 4x32x8 -g load=1000,2000 -g preset=k8s-fixed,elastic-term,elastic-sidecar \
        -g resize_cost=1,10,30,100,300,1000 -o "$work/philly-elastic.h5" "$work/philly.h5" >/dev/null
    for m in jct:jct_mean makespan:makespan; do
        tt-plot lines -y "${m#*:}" --by el_up,resize --panel load --label k8s-fixed \
            --label elastic-term --label elastic-sidecar --title "Philly on 4x32x8 \
(order=fifo, w0=w1=0, el_up=2 el_down=1 when elastic): ${m#*:} against resize_cost" \
            -o "$out/philly-elastic-${m%%:*}.png" "$work/philly-elastic.h5"
    done
}

# the auto-tuner re-tuning every 14 days at twice the load, each window's
# choice applied to the next (docs/studies.md): 42 configurations, 248
# simulations, about 5 s with -j 2
rolling() {
    philly
    tt-tune -d cpu -j 2 -c 4x32x8 -p load=2000 -s w0=0,60,600,3600,14400,86400,inf \
        -s theta=1000,1100,1300,1500,1700,inf --objective jct_mean --rolling 14d \
        -o "$work/philly-rolling.h5" "$work/philly.h5" >/dev/null 2>&1
    tt-plot rolling --title 'Philly on 4x32x8 at twice the load: w0 x theta re-tuned every 14 days' \
        -o "$out/philly-rolling.png" "$work/philly-rolling.h5"
}

# servers (nodes of 4 GPUs) each workflow baseline needs for wf_jct_p99 <=
# 150 s: 4,000 one-GPU tasks of median 10 s, 854 workflows, 20 models
workflows() {
    tt-gen -n 4000 -s 1 --wf-frac 1 --wf-shape chain:3,fan:4,mr:4:2 --models 20 -g 1:1 \
        -d 1:10:0.8 -a 0.25 --day-ratio 1 --weekend 1 -o "$work/wf-short.h5"
    tt-size -c 1x1x4 --nodes 12:24:13 -P wf-deps -P cache-lru -P heft-like \
        -P compass-like --target 'wf_jct_p99<=150' "$work/wf-short.h5" > "$work/wf-size.tsv"
    tt-plot size --title "Servers (4 GPUs each) for wf_jct_p99 <= 150 s: 854 synthetic \
workflows, tasks of median 10 s" -o "$out/wf-servers.png" "$work/wf-size.tsv"
}

# the study's held-out JCT CDF at 4x load (make study: minutes)
study() {
    make -C "$root" --no-print-directory study >/dev/null
    cp "$root/study/jct-cdf.png" "$out/study-jct-cdf.png"
}

if [ "${1:-}" = --list ]; then
    for f in $FIGURES; do
        IFS=: read -r name _ slow <<<"$f"
        echo "$name${slow:+ (slow)}"
    done
    exit 0
fi
out=${1:?usage: figures.sh OUTDIR [NAME...] | --list}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
done_fns=" "
for f in $FIGURES; do
    IFS=: read -r name fn slow <<<"$f"
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    elif [ -n "$slow" ]; then
        continue
    fi
    case "$done_fns" in *" $fn "*) continue ;; esac
    echo "figures: $fn" >&2
    "$fn"
    done_fns="$done_fns$fn "
done
