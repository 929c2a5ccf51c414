# A trace opens in h5py with no tracetune code, and reads the same as tt-cat.
PY=/usr/bin/python3
$PY -c "import h5py" 2>/dev/null || skip "no h5py for $PY (apt install python3-h5py)"
[ -r "$TRACES/philly/pollux_philly.csv" ] || skip "no shared Philly CSV"
tt-ingest -q -o p.h5 "$TRACES/philly/pollux_philly.csv"
$PY "$FIX/../../notebooks/read_trace.py" p.h5 > sum.txt
grep -qx "jobs	82247" sum.txt || fail "h5py job count: $(cat sum.txt)"
grep -qx "gpu_hours	978078.47" sum.txt || fail "h5py GPU-hours: $(cat sum.txt)"
$PY "$FIX/../../notebooks/read_trace.py" p.h5 --tsv | head -2000 > py.tsv
tt-cat p.h5 | head -2000 | cmp -s - py.tsv || fail "h5py rows differ from tt-cat"
