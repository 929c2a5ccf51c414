# A trace opens in h5py with no tracetune C code (python/tracetune with
# h5py and numpy alone, no pandas), and reads the same as tt-cat.
PY=/usr/bin/python3 # Debian's python3-h5py lives there, not in another python on PATH
[ -x "$PY" ] || PY=python3
export PYTHONPATH="$FIX/../../python"
$PY -c "import h5py" 2>/dev/null || skip "no h5py for $PY (apt install python3-h5py)"
[ -r "$TRACES/philly/pollux_philly.csv" ] || skip "no shared Philly CSV"
tt-ingest -q -o p.h5 "$TRACES/philly/pollux_philly.csv"
$PY -m tracetune p.h5 > sum.txt
grep -qx "jobs	82247" sum.txt || fail "h5py job count: $(cat sum.txt)"
grep -qx "gpu_hours	978078.47" sum.txt || fail "h5py GPU-hours: $(cat sum.txt)"
$PY -m tracetune p.h5 --tsv > py.tsv
tt-cat p.h5 | cmp -s - py.tsv || fail "h5py rows differ from tt-cat"
