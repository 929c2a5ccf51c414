# python/tracetune: every file the tools write reads into pandas as the
# tools print it. Each frame, written back as TSV (tests/e2e/py_tsv.py),
# must equal the tool's output byte for byte: traces (the bundled example,
# a generated one, one with the optional columns) against tt-cat, a tt-sim -o file against tt-sim, tt-sim
# --jobs and --timeline, a sweep against tt-sweep, a tune file against
# tt-tune's table, a rolling tune's windows against tt-tune --rolling's.
PY=/usr/bin/python3 # Debian's python3-h5py and python3-pandas live there
[ -x "$PY" ] || PY=python3
export PYTHONPATH="$FIX/../../python"
$PY -c "import h5py" 2>/dev/null || skip "no h5py for $PY (apt install python3-h5py)"
$PY -c "import pandas" 2>/dev/null || skip "no pandas for $PY (apt install python3-pandas)"
tsv() { $PY "$FIX/../e2e/py_tsv.py" "$@"; }
# same WHAT A B: the files are equal, else fail with their first difference
same() { cmp -s "$2" "$3" || fail "$1: the frame differs from the tool: $(diff "$2" "$3" | head -4)"; }

tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"
tt-gen -n 3000 -s 3 -o g.h5
tt-gen -n 3000 -s 3 --elastic 0.3 --wf-frac 0.3 --wf-shape fan:2,mr:2:2 --models 4 -o gc.h5
for t in ex g gc; do
    tt-cat $t.h5 >cat.tsv
    tsv trace $t.h5 >py.tsv
    same "read_trace $t.h5" cat.tsv py.tsv
done
# the documented line
$PY -c 'import tracetune; print(len(tracetune.read_trace("ex.h5")))' | grep -qx 2000 ||
    fail "import tracetune; tracetune.read_trace(...)"

c="-c 1x2x8 -p w0=60 -p theta=1200"
tt-sim $c -o run.h5 g.h5 >sim.tsv 2>/dev/null
tt-sim $c --jobs g.h5 >jobs.tsv 2>/dev/null
tt-sim $c --timeline g.h5 >timeline.tsv 2>/dev/null
for k in sim jobs timeline; do
    tsv $k run.h5 >py.tsv
    same "read_sim${k#sim} (tt-sim $k)" $k.tsv py.tsv
done
# rejected jobs (8 GPUs on a 4-GPU cluster): NA, printed empty
tt-sim -c 1x1x4 --jobs -o rej.h5 g.h5 >jobs.tsv 2>/dev/null
awk -F'\t' 'NR > 1 && $6 == ""' jobs.tsv | grep -q . || fail "no rejected job to check"
tsv jobs rej.h5 >py.tsv
same "read_sim_jobs with rejected jobs" jobs.tsv py.tsv

tt-sweep -d cpu -j 2 -c 1x2x8 -g w0=0,60,inf -g theta=1000,1500,inf -p timers=bert:600:- \
    -o sweep.h5 g.h5 >sweep.tsv 2>/dev/null
tsv sweep sweep.h5 >py.tsv
same "read_sweep" sweep.tsv py.tsv

for split in "" "--holdout 0.25"; do
    tt-tune -d cpu -j 2 -c 1x2x8 -s w0=log:1:86400:8,inf -s w0.bert=0,600,inf \
        -s theta=1000:1800:5 --objective 'jct_mean s.t. makespan <= 1.05*best' --budget 20 \
        $split -o tune.h5 g.h5 >tune.tsv 2>/dev/null
    tsv tune tune.h5 >py.tsv
    same "read_tune ${split:-without a split}" tune.tsv py.tsv
done

# a rolling tune's windows: tt-tune --rolling's rows, less the total
tt-tune -d cpu -j 2 -c 1x2x8 -s w0=0,600,inf -s theta=1000,1500 --objective jct_mean \
    --rolling 1d -o roll.h5 g.h5 >roll.tsv 2>/dev/null
[ "$(wc -l <roll.tsv)" -ge 4 ] || fail "rolling: $(cat roll.tsv)"
head -n -1 roll.tsv >want.tsv
tsv rolling roll.h5 >py.tsv
same "read_tune_rolling" want.tsv py.tsv
$PY -c 'import tracetune; tracetune.read_tune_rolling("tune.h5")' 2>err.txt && fail "read_tune_rolling on a split's tune file"
grep -qF "tune.h5: not a rolling tune (no /tune/rolling" err.txt || fail "message: $(tail -1 err.txt)"

# a file of another kind: an error that says which
$PY -c 'import tracetune; tracetune.read_sweep("g.h5")' 2>err.txt && fail "read_sweep on a trace"
grep -qF "g.h5: not a sweep/1 file (no /sweep group)" err.txt || fail "message: $(tail -1 err.txt)"
