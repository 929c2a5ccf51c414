#!/usr/bin/env bash
# Writes the fuzzers' seed corpora (tests/fuzz/corpus/NAME, NAME not
# ingest, whose seeds are kept by hand): a few well-formed inputs of each
# parser, the HDF5 ones written by the tools in BIN (h5repack needed).
#   tests/fuzz/seeds.sh [BIN]     (default bin; run from the repository root)
set -eu
bin=${1:-bin}
c=tests/fuzz/corpus
for d in params sweep tune tables h5; do rm -rf "${c:?}/$d"; mkdir -p "$c/$d"; done
# seed DIR NAME BYTE: the picking byte (octal), then standard input
seed() { { printf "\\$3"; cat; } > "$c/$1/$2"; }

printf 'w0=600\nw1=3600\ntheta=1500\norder=sjf\nmix=bert:1,ncf:2\ntimers=bert:600:-\nw0.ncf=inf\nseed=18446744073709551615\nload=3000\nbackfill=0' | seed params set 000
printf 'restart=4294967296\ncongestion=999\nmin_run=0\nmax_preempt=9223372036854775807\ntimers=-' | seed params bounds 000
printf '4x32x8' | seed params cluster 001
printf 'America/Los_Angeles' | seed params zone 002
printf 'UTC+08:00' | seed params offset 002
printf '\002 2021-11-07 01:30:00' | seed params time 003
printf '\001 2021-03-14T02:30:00.5' | seed params time_frac 003
seed params tzif_la 004 < /usr/share/zoneinfo/America/Los_Angeles
seed params tzif_utc 004 < /usr/share/zoneinfo/Etc/UTC
printf 'submit=time,duration=run,gpus=n,user=who\nAmerica/Los_Angeles\ntime,run,n,who\n2021-01-01 00:00:00,10,1,a\n2021-01-01 01:00:00,20,8,b\n' | seed params csv_map 005
printf 'submit=s,duration=d,gpus=g\n\ns,d,g\n0,10,1\n5,600,4\n' | seed params csv_map_plain 005
printf '1:0.8,8:0.2\n0.7:600:1.5,0.3:36000:1' | seed params gen 006
printf '1:76627,2:1818,4:1870,8:1643' | seed params gen_gpus 006
printf '\n\n1:6:3:1,8:0:1:9' | seed params gen_weights 006
printf '0:1400' | seed params range 007
printf -- '-12.5e3' | seed params number 007

printf 'g w0=0:3600:5\ng theta=1100,1200,inf\np w1=0\n' | seed sweep grids 147
printf 'g w0=log:1:86400:16,inf\ng mix=bert:1;ncf:1,bert:1\ng w0.ncf=0,600\n' | seed sweep log_mix 147
printf 'p order=las\nc\nw0\tw1\ttimers\n0\t0\t-\n600\tinf\tbert:60:-\n' | seed sweep configs 160

printf 'jct_mean' | seed tune plain 000
printf '0.5*jct_mean + 0.5*makespan s.t. makespan <= 1.05*best and util >= 0.5' | seed tune conds 000
printf -- '-util s.t. queue_p99 <= 3600 and preemptions <= 2 * best' | seed tune max 000
printf '\000\020w0=log:1:86400:16,inf\ntheta=1100:2000:4\n' | seed tune space_grid 001
printf '\001\020w0=0:3600:7\nw1=0,600,inf\nrestart=0:60:3\n' | seed tune space_refine 001
printf '\002\010w0.bert=0:600:5\nw1.ncf=0,inf\n' | seed tune space_model 001

printf 'racks\tnodes_per_rack\tgpus_per_node\n4\t32\t8\n' | seed tables cluster 000
seed tables models 001 < data/models.tsv
seed tables sweep_tsv 002 < tests/fixtures/plot/plot_sweep.tsv
seed tables jobs_tsv 003 < tests/fixtures/plot/plot_jobs_a.tsv
seed tables timeline_tsv 004 < tests/fixtures/plot/plot_timeline.tsv
seed tables baseline_tsv 002 < tests/fixtures/plot/plot_baseline.tsv

# HDF5 files from the tools, as small as they come
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
printf 'submit,duration,gpus,model\n0,100,1,bert\n10,3000,4,ncf\n20,50,8,\n30,700,2,yolov3\n' > "$w/t.csv"
"$bin/tt-ingest" -q -o "$w/t.h5" "$w/t.csv"
"$bin/tt-sweep" -c 1x2x4 -g w0=0,600 -g theta=1500,inf -d cpu -j 1 -o "$w/sw.h5" "$w/t.h5" >/dev/null 2>&1
"$bin/tt-sim" -c 1x2x4 -p w0=60 --timeline -o "$w/sim.h5" "$w/t.h5" >/dev/null
"$bin/tt-tune" -c 1x2x4 -s w0=0:600:4 -s theta=1500,inf --objective jct_mean --budget 4 -d cpu -j 1 \
    -o "$w/tu.h5" "$w/t.h5" >/dev/null 2>&1
# contiguous datasets (h5repack) make files a quarter the size, so more of
# a mutation lands on structure; one trace keeps the tools' chunked,
# deflated layout
seed h5 trace_chunked 000 < "$w/t.h5"
for f in t sw sim tu; do h5repack -l CONTI "$w/$f.h5" "$w/$f.c.h5"; done
seed h5 trace 000 < "$w/t.c.h5"
seed h5 sweep 001 < "$w/sw.c.h5"
seed h5 sim_summary 001 < "$w/sim.c.h5"
seed h5 sim_jobs 002 < "$w/sim.c.h5"
seed h5 sim_timeline 003 < "$w/sim.c.h5"
seed h5 tune 004 < "$w/tu.c.h5"
seed h5 tune_space 005 < "$w/tu.c.h5"
seed h5 merge 006 < "$w/sw.c.h5"
