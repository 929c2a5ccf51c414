# Workflows through the tools (SPEC 12): SPEC 12.10's scenario A from a csv
# trace, through tt-ingest and the HDF5 file to tt-sim and tt-sweep, under
# the 12.11 presets with scenario A's memory and bandwidths.
cat > a.csv <<'CSV'
name,submit,duration,gpus,wf,deps,mid,mem_mb,out_mb
x,0,50,1,-1,,1,400,0
t0,0,100,1,7,,0,500,200
t1,0,50,1,7,t0,0,500,0
CSV
expect_exit 0 tt-ingest -q -o a.h5 a.csv
A="-c 1x2x1 -p gpu_mem=1000 -p load_bw=100 -p xfer_bw=100"
# the metrics named, in the order named
metrics() {
    awk -F'\t' -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n = split(want, w, ","); s = ""
          for (k = 1; k <= n; k++) s = s (k > 1 ? " " : "") $c[w[k]]; print s }'
}
M=wf_jct_mean,cache_hit,loads,load_gpu_s,xfer_gpu_s
# cache_place=off: T1 on node 0, r = 5 + 2, ends at 162; affinity: node 1, 155
got=$(tt-sim $A -p preset=cache-lru -p gpu_mem=1000 a.h5 | metrics $M)
[ "$got" = "162.000000 0 3 14 2" ] || fail "scenario A, cache-lru: $got"
got=$(tt-sim $A -p preset=heft-like -p gpu_mem=1000 a.h5 | metrics $M)
[ "$got" = "155.000000 333 2 9 0" ] || fail "scenario A, heft-like: $got"
# wf-deps: no cache; T1 waits for T0 (ends 100) and pays X = 2 on node 0
got=$(tt-sim $A -p preset=wf-deps a.h5 | metrics $M)
[ "$got" = "152.000000 0 0 0 2" ] || fail "scenario A, wf-deps: $got"
# a sweep over the presets reads the same file the same way
tt-sweep $A -g preset=cache-lru,heft-like -p gpu_mem=1000 -o a-sweep.h5 a.h5 > sweep.tsv
[ "$(metrics wf_jct_mean < sweep.tsv | sort | tr '\n' ' ')" = "155.000000 162.000000 " ] ||
    fail "tt-sweep over the presets: $(metrics wf_jct_mean < sweep.tsv)"
# gittins_dist=trace samples the jobs a configuration accepts, so a sweep
# over gpu_mem (300 MiB rejects some models, 800 and 24576 none) keys a
# distribution per kind of rejection: each row as tt-sim gives it alone
expect_exit 0 tt-gen -n 400 -s 3 --models 6 -o g.h5
G="-c 1x4x8 -p order=gittins -p load=3000"
tt-sweep $G -g gpu_mem=300,800,24576 g.h5 > g-sweep.tsv 2> g-sweep.err
grep -q "^tt-sweep: 0 to 75 jobs rejected, by configuration, not simulated (more GPUs" g-sweep.err ||
    fail "tt-sweep does not give the range of rejected jobs: $(cat g-sweep.err)"
for m in 300 800 24576; do
    one=$(tt-sim $G -p gpu_mem=$m g.h5 2>/dev/null | metrics gpu_mem,jct_mean,rejected)
    grep -q "^$one\$" <(metrics gpu_mem,jct_mean,rejected < g-sweep.tsv) ||
        fail "gittins at gpu_mem=$m: tt-sim gives $one, the sweep $(metrics gpu_mem,jct_mean < g-sweep.tsv)"
done
[ "$(metrics rejected < g-sweep.tsv | sort -u | wc -l)" = 2 ] || fail "gpu_mem=300 rejects no model"
# dlas and gittins with workflows (12.5): on one GPU T1 is ready at 50, when
# J has waited in queue 0 since 20, so J runs first and the workflow ends at
# 90; under fifo T1 keeps its rank and it ends at 60
cat > q.csv <<'CSV'
name,submit,duration,gpus,wf,deps
t0,0,50,1,1,
t1,0,10,1,1,t0
j,20,30,1,-1,
CSV
expect_exit 0 tt-ingest -q -o q.h5 q.csv
for p in tiresias-dlas tiresias-gittins yarn-cs; do
    got=$(tt-sim -c 1x1x1 -p preset=$p q.h5 2>/dev/null | metrics wf_jct_mean)
    want=90.000000; [ $p = yarn-cs ] && want=60.000000
    [ "$got" = $want ] || fail "queue 0 by ready time, $p: $got"
done
tt-sweep -d cpu -c 1x1x1 -g preset=tiresias-dlas,tiresias-gittins -o q-sweep.h5 q.h5 2>/dev/null >qs.tsv
[ "$(metrics wf_jct_mean < qs.tsv | tr '\n' ' ')" = "90.000000 90.000000 " ] ||
    fail "tt-sweep, dlas and gittins with workflows: $(metrics wf_jct_mean < qs.tsv)"
expect_exit 0 tt-tune -d cpu -c 1x1x1 -p preset=tiresias-dlas -s promote=0:2000:3 \
    --objective wf_jct_mean q.h5
expect_exit 0 tt-size -c 1x1x1 --nodes 1,2 -P tiresias-dlas -P tiresias-gittins \
    --target 'wf_jct_p99<=90' q.h5
# elastic jobs with the cache (docs/model.md 13 item 9) on a generated
# workload of elastic jobs and workflows: grows load, so the run loads more
# than the same run without grows, and evicts no more than it loads
expect_exit 0 tt-gen -n 400 -s 5 --elastic 0.5 --wf-frac 0.3 --models 6 -o el.h5
E="-c 2x4x8 -p load=2000 -p gpu_mem=2048 -p load_bw=100"
M=resizes,grows,loads,model_evicts,load_gpu_s
set -- $(tt-sim $E -p preset=elastic-sidecar el.h5 | metrics $M)
[ "$#" = 5 ] && [ "$2" -gt 0 ] && [ "$3" -ge "$4" ] && [ "$5" -gt 0 ] ||
    fail "elastic-sidecar with gpu_mem: $*"
fixed=$(tt-sim $E -p preset=k8s-fixed el.h5 | metrics loads)
[ "$3" -gt "$fixed" ] || fail "elastic-sidecar loads $3, k8s-fixed $fixed"
