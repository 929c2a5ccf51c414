# The trace file itself: every dataset chunked with shuffle + deflate, the
# string tables too (fixed-length strings: variable-length ones sit in
# HDF5's global heap, where no filter reaches), so a trace is smaller than
# its TSV; and a file of the layout before (variable-length tables, no
# filter on them), written by tt-gen -n 20 then, still reads the same.
command -v h5dump >/dev/null || skip "no h5dump (apt install hdf5-tools)"

# ---- written now: 17 datasets (12 columns, 5 tables), all filtered but
# the empty model and status tables (tt-gen draws neither; an empty
# dataset has no chunk to filter) ----
expect_exit 0 tt-gen -n 100000 -o g.h5
h5dump -p -H g.h5 >dump.txt
n=$(grep -c 'DATASET "' dump.txt)
[ "$n" = 17 ] || fail "$n datasets, expected 17"
[ "$(grep -c 'PREPROCESSING SHUFFLE' dump.txt)" = 15 ] || fail "a dataset without shuffle"
[ "$(grep -c 'COMPRESSION DEFLATE' dump.txt)" = 15 ] || fail "a dataset without deflate"
h5dump -H -g /jobs/tables g.h5 | grep -q 'H5T_VARIABLE' && fail "a variable-length string table"
# 100,000 unique names took 5 MB uncompressed, more than the 4.7 MB TSV
tsv=$(tt-cat g.h5 | wc -c)
h5=$(wc -c <g.h5)
[ $((h5 * 4)) -lt "$tsv" ] || fail "the trace is $h5 bytes for a $tsv-byte TSV"

# ---- the layout before: the same rows and provenance ----
old="$FIX/trace/gen20_vlen.h5"
h5dump -H -d /jobs/tables/name "$old" | grep -q 'H5T_VARIABLE' ||
    fail "the fixture no longer has variable-length tables"
expect_exit 0 tt-cat "$old"
cmp -s out.txt "$FIX/trace/gen20_vlen.tsv" || fail "old layout: rows differ"
expect_exit 0 tt-cat --info "$old"
cmp -s out.txt "$FIX/trace/gen20_vlen.info" || fail "old layout: provenance differs"
expect_exit 0 tt-cat -c vc,name "$old"
[ "$(sed -n 2p out.txt)" = "$(cut -f10,8 "$FIX/trace/gen20_vlen.tsv" | sed -n 2p |
    awk -F'\t' -v OFS='\t' '{print $2, $1}')" ] || fail "old layout: -c vc,name: $(sed -n 2p out.txt)"
expect_exit 0 tt-sim -c 2x2x8 "$old"
expect_exit 0 tt-stats "$old"

# ---- a table another program wrote: ASCII, 300 KB a string (h5py's
# default; read in the file's character set, a bounded block at a time) ----
PY=/usr/bin/python3
if [ -x "$PY" ] && "$PY" -c "import h5py" 2>/dev/null; then
    expect_exit 0 tt-gen -n 20 -o a.h5
    "$PY" - <<'PYEOF'
import h5py, numpy as np
with h5py.File("a.h5", "r+") as f:
    t = f["jobs/tables"]
    names = list(t["user"][()])
    del t["user"]
    t.create_dataset("user", data=np.array(names, dtype="S300000"), chunks=(1,),
                     compression="gzip", shuffle=True)
PYEOF
    expect_exit 0 tt-cat -c user a.h5
    [ "$(sed -n 2p out.txt)" = user-1 ] || fail "ASCII table: $(sed -n 2p out.txt | head -c 80)"
else
    echo "SKIP (part): no h5py for the ASCII table"
fi
