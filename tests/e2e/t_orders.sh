# SPEC 11's orders through the tools: presets in tt-sim and as a sweep axis,
# the mlfq grid syntax, a Gittins distribution from a file (and its errors
# naming file and line), the tuner searching the knob, refusals.
T=$(printf '\t')
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"

# a preset is the parameters it names, where it stands
expect_exit 0 tt-sim -c 2x8x8 -p preset=tiresias-dlas ex.h5
cp out.txt preset.tsv
expect_exit 0 tt-sim -c 2x8x8 -p order=dlas -p mlfq=3250,7200 -p w0=0 -p w1=0 ex.h5
cmp -s out.txt preset.tsv || fail "preset=tiresias-dlas: $(diff out.txt preset.tsv)"
expect_exit 0 tt-sim -c 2x8x8 -p preset=tiresias-dlas -p w0=600 ex.h5
[ "$(sed -n 2p out.txt | cut -f1,2,3,14)" = "dlas${T}600${T}0${T}3250,7200" ] ||
    fail "a later -p overrides a preset: $(sed -n 2p out.txt | cut -f1-18)"
expect_exit 0 tt-sim -c 2x8x8 -p w0=600 -p preset=tiresias-dlas ex.h5
cmp -s out.txt preset.tsv || fail "a preset overrides an earlier -p"
# dlas runs demote and evict by priority on this trace
[ "$(sed -n 2p out.txt | awk -F'\t' '{print ($55 > 0 && $57 > 0)}')" = 1 ] ||
    fail "dlas: no demotion or priority eviction: $(sed -n 2p out.txt)"
# with elastic jobs too: resizes, demotions and priority evictions in one run
expect_exit 0 tt-sim -c 2x8x8 -p preset=tiresias-dlas -p el_up=1 ex.h5
[ "$(sed -n 2p out.txt | awk -F'\t' '{print ($50 > 0 && $55 > 0 && $57 > 0)}')" = 1 ] ||
    fail "dlas with el_up=1: no resize, demotion or priority eviction: $(sed -n 2p out.txt)"
expect_exit 0 tt-sim -c 2x8x8 -p preset=tiresias-gittins -p el_down=1 ex.h5
expect_exit 2 tt-sim -c 2x8x8 -p preset=tiresias ex.h5
expect_err "tt-sim: parameter 'preset': expected one of yarn-cs, tiresias-dlas, tiresias-gittins, pollux-tiresias, themis, k8s-fixed, elastic-term, elastic-sidecar, start-smaller, wf-deps, cache-lru, heft-like, compass-like, tiresias-sim-dlas, tiresias-sim-gittins, got 'tiresias'"

# tiresias-sim-dlas beside Tiresias's released simulator (SymbioticLab/Tiresias
# @ 959f9b0, simulator/run_sim.py --schedule=dlas-gpu --scheme=count
# --cluster_spec=n1g4.csv, Python 2.7) on 14 one-GPU jobs in its job-list
# layout: its job.csv's end_time and preempt, job by job (JOB:END:EVICTIONS).
# One-GPU jobs keep its demotion timer's defect out (docs/studies.md, 1).
expect_exit 0 tt-ingest -q -f tiresias -o t1.h5 "$FIX/sim/tiresias_1gpu.csv"
want="0:10176:1 1:12524:3 2:3132:0 3:4131:0 4:4582:0 5:10943:1 6:6160:0 7:15044:1 8:13176:1 9:16729:1 10:9854:0 11:10003:0 12:16409:1 13:14048:1 "
expect_exit 0 tt-sim -q -c 1x1x4 -p preset=tiresias-sim-dlas --jobs t1.h5
got=$(awk -F'\t' 'NR > 1 { printf "%s:%s:%s ", $1, $7, $12 }' out.txt)
[ "$got" = "$want" ] || fail "tiresias-sim-dlas is not Tiresias's simulator: $got"
# without requeue=front and prio_victims=refill 4 of the jobs end otherwise or
# are evicted a different number of times
expect_exit 0 tt-sim -q -c 1x1x4 -p preset=tiresias-sim-dlas -p requeue=keep \
    -p prio_victims=lowest --jobs t1.h5
got=$(awk -F'\t' 'NR > 1 { printf "%s:%s:%s ", $1, $7, $12 }' out.txt)
[ "$got" != "$want" ] || fail "the options change nothing on the Tiresias trace"

# the presets as a sweep axis: each row is its tt-sim run; -p applies after
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -g preset=yarn-cs,tiresias-dlas,themis ex.h5
cp out.txt sweep.tsv
[ "$(cut -f1 sweep.tsv | tail -n +2 | tr '\n' ,)" = "fifo,dlas,ftf," ] ||
    fail "preset axis: orders $(cut -f1 sweep.tsv)"
r=2
for ps in yarn-cs tiresias-dlas themis; do
    expect_exit 0 tt-sim -c 2x8x8 -p preset=$ps ex.h5
    [ "$(sed -n 2p out.txt)" = "$(sed -n ${r}p sweep.tsv)" ] || fail "preset=$ps row differs from tt-sim's"
    r=$((r + 1))
done
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -g preset=yarn-cs,themis -p w0=600 ex.h5
[ "$(cut -f1,2 out.txt | tail -n +2 | tr '\t\n' ',;')" = "fifo,600;ftf,600;" ] ||
    fail "-p after a preset axis: $(cut -f1,2 out.txt)"

# mlfq grids: lists separated by ';', thresholds by ',' or '/'
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -p order=dlas -g 'mlfq=3250,7200;57600' ex.h5
cp out.txt mlfq.tsv
[ "$(cut -f14 mlfq.tsv | tail -n +2 | tr '\n' ';')" = "3250,7200;57600;" ] ||
    fail "mlfq grid: $(cut -f14 mlfq.tsv)"
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -p order=dlas -g 'mlfq=3250/7200;57600' ex.h5
cmp -s out.txt mlfq.tsv || fail "mlfq with '/': $(diff out.txt mlfq.tsv)"
expect_exit 2 tt-sim -c 2x8x8 -p mlfq=7200,3250 ex.h5
expect_err "tt-sim: parameter 'mlfq': expected 1 to 7 ascending GPU-second thresholds 1 .. 1125899906842624 separated by ',' or '/', got '7200,3250'"
expect_exit 2 tt-sweep -c 2x8x8 -g mlfq=0:10:3 ex.h5
expect_err "tt-sweep: grid 'mlfq=0:10:3': value 1 ('0:10:3')"

# ranges the engine's int64 arithmetic holds (libcore/sim/params.c): a
# threshold near 2^63 put the next demotion past it (makespan 1,823,890,
# util -3.95e10); at the bound no job is ever demoted, so dlas runs as fifo
expect_exit 2 tt-sim -c 2x8x8 -p order=dlas -p mlfq=9223372036854775806 ex.h5
[ "$(cat err.txt)" = "tt-sim: parameter 'mlfq': expected 1 to 7 ascending GPU-second thresholds 1 .. 1125899906842624 separated by ',' or '/', got '9223372036854775806'" ] ||
    fail "mlfq near 2^63: $(cat err.txt)"
expect_exit 2 tt-sweep -c 2x8x8 -p order=dlas -g 'mlfq=3250;1125899906842625' ex.h5
expect_err "tt-sweep: grid 'mlfq=3250;1125899906842625': value 2 ('1125899906842625'): expected 1 to 7 ascending GPU-second thresholds 1 .. 1125899906842624"
expect_exit 0 tt-sim -c 2x8x8 -p order=dlas -p mlfq=1125899906842624 ex.h5
[ "$(sed -n 2p out.txt | cut -f34-38,48,55)" = "1904751${T}18972.585500${T}4905${T}20142${T}358750${T}0.326174${T}0" ] ||
    fail "dlas at the largest threshold: $(sed -n 2p out.txt | cut -f34-38,48,55)"
expect_exit 0 tt-sim -c 2x8x8 ex.h5
[ "$(sed -n 2p out.txt | cut -f34-38,48)" = "1904751${T}18972.585500${T}4905${T}20142${T}358750${T}0.326174" ] ||
    fail "fifo: $(sed -n 2p out.txt | cut -f34-38,48)"
expect_exit 2 tt-sim -c 2x8x8 -p max_preempt=2147483648 ex.h5
expect_err "tt-sim: parameter 'max_preempt': expected a count 0 .. 2147483647 (a job's evictions are counted in 32 bits), got '2147483648'"
expect_exit 0 tt-sim -c 2x8x8 -p max_preempt=2147483647 ex.h5
expect_exit 2 tt-sim -c 2x8x8 -p gpu_mem=1073741824 ex.h5
expect_err "tt-sim: parameter 'gpu_mem': expected MiB 0 .. 1073741823 (0: no model cache), got '1073741824'"
expect_exit 0 tt-sim -c 2x8x8 -p gpu_mem=1073741823 ex.h5
expect_exit 1 tt-sim -c 2x8x8 -p restart=2147483648 -p el_up=1 ex.h5
expect_err "parameter 'restart': 2147483648 out of range with elastic jobs (expected seconds 0 .. 2147483647 when el_up or el_down > 0)"
expect_exit 0 tt-sim -c 2x8x8 -p restart=2147483647 -p el_up=1 ex.h5

# a Gittins distribution from a file, Tiresias's layout (a header line)
printf 'duration\n121\n2214\n\n53294624\n' >dist.csv
expect_exit 0 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=dist.csv ex.h5
[ "$(sed -n 2p out.txt | cut -f1,18)" = "gittins${T}dist.csv" ] || fail "gittins_dist: $(sed -n 2p out.txt)"
cp out.txt file.tsv
expect_exit 0 tt-sim -c 2x8x8 -p order=gittins ex.h5
cmp -s out.txt file.tsv && fail "the file's distribution and the trace's give the same run"
printf 'duration\n121\n2214\n12x\n' >bad.csv
expect_exit 1 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=bad.csv ex.h5
expect_err "bad.csv:4: expected an integer of GPU-seconds, got '12x'"
expect_exit 1 tt-sweep -d cpu -c 2x8x8 -p order=gittins -g 'gittins_dist=dist.csv;nosuch.csv' ex.h5
expect_err "configuration 1: gittins_dist 'nosuch.csv'"
# the whole message, once (it was written into the buffer it read from)
expect_exit 1 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=nosuch.csv ex.h5
[ "$(cat err.txt)" = "tt-sim: 'ex.h5': gittins_dist 'nosuch.csv': cannot open 'nosuch.csv': No such file or directory" ] ||
    fail "gittins_dist missing: $(cat err.txt)"
expect_exit 1 tt-sweep -d cpu -c 2x8x8 -p order=gittins -g 'gittins_dist=dist.csv;nosuch.csv' ex.h5
[ "$(tail -1 err.txt)" = "tt-sweep: 'ex.h5': configuration 1: gittins_dist 'nosuch.csv': cannot open 'nosuch.csv': No such file or directory" ] ||
    fail "gittins_dist missing in a sweep: $(cat err.txt)"
expect_exit 1 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=bad.csv ex.h5
[ "$(cat err.txt)" = "tt-sim: 'ex.h5': gittins_dist 'bad.csv': bad.csv:4: expected an integer of GPU-seconds, got '12x'" ] ||
    fail "gittins_dist bad: $(cat err.txt)"
mkdir distdir
expect_exit 1 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=distdir ex.h5
[ "$(cat err.txt)" = "tt-sim: 'ex.h5': gittins_dist 'distdir': distdir: read error: Is a directory" ] ||
    fail "gittins_dist a folder: $(cat err.txt)"
# under another order the distribution is never read
expect_exit 0 tt-sim -c 2x8x8 -p gittins_dist=nosuch.csv ex.h5
# the bundled distribution (data/gittins/yarn-gput1000.csv, compiled in) is
# that file: the same run by name and by path, and no file of the name read
tr -d '\r' <"$FIX/../../data/gittins/yarn-gput1000.csv" >yarn.csv
expect_exit 0 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=yarn.csv ex.h5
cut -f1-17,19- out.txt >byfile.tsv
expect_exit 0 tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=yarn-gput1000 ex.h5
[ "$(sed -n 2p out.txt | cut -f18)" = yarn-gput1000 ] || fail "bundled: $(sed -n 2p out.txt)"
cut -f1-17,19- out.txt | cmp -s - byfile.tsv || fail "the bundled distribution is not its file"
cmp -s out.txt file.tsv && fail "the bundled distribution and dist.csv give the same run"
expect_exit 0 tt-sim -c 2x8x8 -p preset=tiresias-gittins ex.h5
[ "$(sed -n 2p out.txt | cut -f18)" = yarn-gput1000 ] || fail "tiresias-gittins: $(sed -n 2p out.txt)"

# the tuner searches the knob under dlas
expect_exit 0 tt-tune -d cpu -c 2x8x8 -p order=dlas -s promote=0:8000:5 --objective jct_mean ex.h5
[ "$(sed -n 2p out.txt | cut -f7)" = dlas ] || fail "tune: $(sed -n 2p out.txt)"
expect_exit 2 tt-tune -d cpu -c 2x8x8 -s mlfq=1:10:2 --objective jct_mean ex.h5
expect_err "only integer parameters can be searched"
