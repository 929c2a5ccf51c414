# tt-merge: shards of a sweep, given in any order, join into the file the
# whole sweep writes (every dataset compared with h5dump, attributes
# worked out from the shards' own); empty shards; every refusal (exit 1,
# the file named, no output left, an existing output kept); usage.
if ! command -v h5dump >/dev/null || ! command -v h5ls >/dev/null; then
    skip "no h5dump/h5ls (apt install hdf5-tools)"
fi

# attr NAME FILE: the value of /sweep's attribute NAME as h5dump prints it
# (strings quoted, a string's lines one per line, doubles to 17 digits)
attr() {
    h5dump -m %.17g -a "/sweep/$1" "$2" | awk '/DATA \{/ { d = 1; next } d && /^ *\}/ { exit } d' |
        sed 's/^ *//; s/^(0): //'
}
# values DATASET FILE: a dataset's values on one line, "0,1,2"
values() { h5dump -y -w 0 -d "$1" "$2" | awk '/DATA \{/ { getline; gsub(/ /, ""); print; exit }'; }
# same_data A B: the same datasets under /sweep, each with the same type,
# shape, values, attributes, chunks and filters (the storage SIZE line
# is left out: variable-length strings live in a heap whose addresses
# differ between files)
same_data() {
    [ "$(h5ls -r "$1" | sed 1d)" = "$(h5ls -r "$2" | sed 1d)" ] ||
        fail "$2: other datasets than $1: $(diff <(h5ls -r "$1") <(h5ls -r "$2"))"
    local n=0 d
    for d in $(h5ls -r "$1" | awk '$2 == "Dataset" { print $1 }'); do
        n=$((n + 1))
        cmp -s <(h5dump -p -d "$d" "$1" | sed '1d; /^ *SIZE /d') \
            <(h5dump -p -d "$d" "$2" | sed '1d; /^ *SIZE /d') ||
            fail "$d differs between $1 and $2: $(diff <(h5dump -p -d "$d" "$1") <(h5dump -p -d "$d" "$2") | head)"
    done
    [ $n = 69 ] || fail "$1: $n datasets, expected 69 (index, 33 parameters, 35 metrics)"
}
# no_output F: an error left neither F nor a temporary file
no_output() {
    [ ! -e "$1" ] || fail "an error left $1"
    for t in .*tmp-*; do
        [ ! -e "$t" ] || fail "temporary file left: $t"
    done
}

EX="$FIX/../../data/example.tsv"
expect_exit 0 tt-ingest -q -f csv -o ex.h5 "$EX"

# ---- 2 x 3 x 2 = 12 configurations: whole, and as 3 shards ----
G=(-g "theta=1500,inf" -g "order=fifo,sjf,las" -g "mix=bert:1;bert:1,ncf:3")
expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" -o whole.h5 ex.h5
for k in 0 1 2; do
    expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" --shard $k/3 -o s$k.h5 ex.h5
done
expect_exit 0 tt-merge -o m.h5 s2.h5 s0.h5 s1.h5
[ ! -s out.txt ] || fail "tt-merge printed on stdout: $(cat out.txt)"
[ "$(cat err.txt)" = "tt-merge: 3 shards, 12 configurations -> m.h5" ] || fail "stderr: $(cat err.txt)"
same_data whole.h5 m.h5
[ "$(values /sweep/index m.h5)" = "0,1,2,3,4,5,6,7,8,9,10,11" ] ||
    fail "index: $(h5dump -d /sweep/index m.h5)"
# the rows of the shards, interleaved, are the rows of the whole (and of
# the merged file): makespan of shard 1 is configurations 1, 4, 7, 10
[ "$(values /sweep/metrics/makespan s1.h5)" = \
  "$(values /sweep/metrics/makespan m.h5 | awk -F, '{ print $2 "," $5 "," $8 "," $11 }')" ] ||
    fail "makespan of shard 1 not in its places"
# group attributes: the whole sweep's, except the provenance of the merge
for a in tracetune_layout trace_file trace_format trace_source_sha256 cluster models_source \
    models_sha256 configs_sha256 device shard configurations rows tool_version; do
    [ "$(attr $a whole.h5)" = "$(attr $a m.h5)" ] || fail "attribute $a: $(attr $a m.h5), whole: $(attr $a whole.h5)"
done
[ "$(attr shard m.h5) $(attr rows m.h5) $(attr device m.h5)" = '"0/1" 12 "cpu: 2 threads"' ] ||
    fail "shard/rows/device: $(attr shard m.h5) $(attr rows m.h5) $(attr device m.h5)"
[ "$(attr merged_from m.h5)" = "$(printf '"s0.h5\ns1.h5\ns2.h5"')" ] || fail "merged_from: $(attr merged_from m.h5)"
# elapsed_s: the shards' sum in shard order, sims_per_s = 12 / that, to the bit
want=$(for k in 0 1 2; do attr elapsed_s s$k.h5; done | awk '{ s += $1 } END { printf "%.17g %.17g", s, 12 / s }')
[ "$(attr elapsed_s m.h5) $(attr sims_per_s m.h5)" = "$want" ] ||
    fail "elapsed_s, sims_per_s: $(attr elapsed_s m.h5) $(attr sims_per_s m.h5), want $want"
# the order of the files changes no byte of the data
expect_exit 0 tt-merge -o m2.h5 s0.h5 s1.h5 s2.h5
same_data m.h5 m2.h5

# ---- one whole sweep (0/1) merges to a copy; an existing output is replaced ----
echo old >copy.h5
expect_exit 0 tt-merge -o copy.h5 whole.h5
expect_err "tt-merge: 1 shard, 12 configurations -> copy.h5"
same_data whole.h5 copy.h5
[ "$(attr merged_from copy.h5)" = '"whole.h5"' ] || fail "merged_from of a copy: $(attr merged_from copy.h5)"

# ---- 14 shards of 12 configurations: 12 of one row, 2 empty ----
files=()
for k in 13 5 0 7 12 1 2 3 4 6 8 9 10 11; do
    expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" --shard $k/14 -o e$k.h5 ex.h5
    files+=("e$k.h5")
done
[ "$(attr rows e13.h5)" = 0 ] || fail "shard 13/14 rows: $(attr rows e13.h5)"
expect_exit 0 tt-merge -o e.h5 "${files[@]}"
expect_err "tt-merge: 14 shards, 12 configurations -> e.h5"
same_data whole.h5 e.h5

# ---- refusals: exit 1, the file named, no output ----
cp s1.h5 s1copy.h5
expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 -g theta=1500,inf -g order=fifo,sjf,las \
    -g "mix=bert:1;ncf:1" --shard 1/3 -o grid1.h5 ex.h5
expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" -p load=2000 --shard 1/3 -o load1.h5 ex.h5
head -1000 "$EX" >half.tsv
expect_exit 0 tt-ingest -q -f csv -o half.h5 half.tsv
expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" --shard 1/3 -o trace1.h5 half.h5
expect_exit 0 tt-sweep -d cpu -j 2 -c 2x4x8 "${G[@]}" --shard 1/2 -o half1.h5 ex.h5
expect_exit 0 tt-sweep -d cpu -j 2 -c 4x4x8 "${G[@]}" --shard 1/3 -o cl1.h5 ex.h5
echo "not hdf5" >text.h5
sha_a=$(attr configs_sha256 s0.h5 | tr '"' "'") sha_b=$(attr configs_sha256 grid1.h5 | tr '"' "'")
[ "$sha_a" != "$sha_b" ] || fail "two grids with one configs_sha256"
# trace_source_sha256 is the sha256 of the CSV bytes each trace was ingested from
src_a=$(sha256sum <"$EX" | cut -d' ' -f1) src_b=$(sha256sum <half.tsv | cut -d' ' -f1)
while IFS="|" read -r args msg; do
    # shellcheck disable=SC2086
    expect_exit 1 tt-merge -o bad.h5 $args
    expect_err "tt-merge: $msg"
    [ ! -s out.txt ] || fail "$args: output on stdout"
    no_output bad.h5
done <<EOF
s0.h5 s2.h5|shard 1/3 missing
s2.h5|shards 0/3, 1/3 missing
s0.h5 s1.h5 s1.h5 s2.h5|s1.h5: given twice
s0.h5 s1.h5 s2.h5 s1copy.h5|s1copy.h5: shard 1/3 again (also s1.h5)
s0.h5 grid1.h5 s2.h5|grid1.h5: shard 1/3 was run on another grid than s0.h5 (configs_sha256 differs): compare their -p, -g and --configs options
s0.h5 load1.h5 s2.h5|load1.h5: shard 1/3 has load=2000, the other shards load=1000: not one sweep
s0.h5 trace1.h5 s2.h5|trace1.h5: shard 1/3 was run on another trace: 'half.h5' (sha256 ${src_b:0:12}...) vs 'ex.h5' (sha256 ${src_a:0:12}...) in s0.h5
s0.h5 cl1.h5 s2.h5|cl1.h5: cluster '4x4x8' differs from '2x4x8' in s0.h5
s0.h5 half1.h5 s2.h5|half1.h5: shard 1/2 is one of 2 shards, but s0.h5 (shard 0/3) is one of 3
s0.h5 s1.h5 ex.h5|ex.h5: not a sweep file (no /sweep group)
s0.h5 s1.h5 text.h5|text.h5: not an HDF5 file
s0.h5 s1.h5 nosuch.h5|nosuch.h5: cannot read: No such file or directory
EOF
# ---- shards of traces whose contents differ, which their source's sha256
# cannot tell: two tt-gen traces (no source file, so none) and one CSV
# ingested with two column maps; trace_jobs_sha256, the sha256 of the jobs
# as simulated, tells them ----
expect_exit 0 tt-gen -n 300 -s 1 -o gen1.h5
expect_exit 0 tt-gen -n 300 -s 2 -o gen2.h5
expect_exit 0 tt-sweep -d cpu -c 2x4x8 -g theta=1500,inf --shard 0/2 -o gs0.h5 gen1.h5
expect_exit 0 tt-sweep -d cpu -c 2x4x8 -g theta=1500,inf --shard 1/2 -o gs1.h5 gen2.h5
[ "$(attr trace_source_sha256 gs0.h5)" = "$(attr trace_source_sha256 gs1.h5)" ] ||
    fail "tt-gen traces with a source sha256"
jobs_a=$(attr trace_jobs_sha256 gs0.h5 | tr -d '"') jobs_b=$(attr trace_jobs_sha256 gs1.h5 | tr -d '"')
[ ${#jobs_a} = 64 ] && [ ${#jobs_b} = 64 ] && [ "$jobs_a" != "$jobs_b" ] ||
    fail "trace_jobs_sha256: '$jobs_a' '$jobs_b'"
expect_exit 1 tt-merge -o bad.h5 gs0.h5 gs1.h5
[ "$(cat err.txt)" = "tt-merge: gs1.h5: shard 1/2 simulated other jobs than gs0.h5 (trace_jobs_sha256 ${jobs_b:0:12}... vs ${jobs_a:0:12}...): traces 'gen2.h5' and 'gen1.h5' differ in their contents: not one sweep" ] ||
    fail "two tt-gen traces: $(cat err.txt)"
no_output bad.h5
printf 'submit\tsecs\tsecs2\tn\n0\t100\t200\t1\n10\t50\t60\t2\n' >two.tsv
expect_exit 0 tt-ingest -q -m submit=submit,duration=secs,gpus=n -o map1.h5 two.tsv
expect_exit 0 tt-ingest -q -m submit=submit,duration=secs2,gpus=n -o map2.h5 two.tsv
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g w0=0,60 --shard 0/2 -o ms0.h5 map1.h5
expect_exit 0 tt-sweep -d cpu -c 1x1x4 -g w0=0,60 --shard 1/2 -o ms1.h5 map2.h5
expect_exit 1 tt-merge -o bad.h5 ms0.h5 ms1.h5
expect_err "tt-merge: ms1.h5: shard 1/2 simulated other jobs than ms0.h5 (trace_jobs_sha256 "
expect_err "traces 'map2.h5' and 'map1.h5' differ in their contents: not one sweep"
no_output bad.h5
# the same trace under another name is one trace; a shard written before
# trace_jobs_sha256 is checked by trace_source_sha256 alone, as then
cp gen1.h5 gen1copy.h5
expect_exit 0 tt-sweep -d cpu -c 2x4x8 -g theta=1500,inf --shard 1/2 -o gs1same.h5 gen1copy.h5
expect_exit 0 tt-merge -o good.h5 gs0.h5 gs1same.h5
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import h5py" 2>/dev/null; then
    cp gs1.h5 gs1old.h5
    /usr/bin/python3 -c "import h5py; del h5py.File('gs1old.h5', 'r+')['sweep'].attrs['trace_jobs_sha256']"
    expect_exit 0 tt-merge -o old.h5 gs0.h5 gs1old.h5
else
    echo "SKIP (part): no h5py for a shard without trace_jobs_sha256"
fi

# an error keeps an existing output as it was; an input is never the output
echo old >keep.h5
expect_exit 1 tt-merge -o keep.h5 s0.h5 s2.h5
[ "$(cat keep.h5)" = old ] || fail "an error replaced the existing output"
cp s1.h5 s1.before
expect_exit 1 tt-merge -o s1.h5 s0.h5 s1.h5 s2.h5
expect_err "tt-merge: output 's1.h5' is also the input 's1.h5': refusing to overwrite it"
cmp -s s1.h5 s1.before || fail "the output-is-input refusal changed the input"
expect_exit 1 tt-merge -o nodir/m.h5 s0.h5 s1.h5 s2.h5
expect_err "cannot write 'nodir/m.h5'"
no_output bad.h5

# ---- usage ----
expect_exit 2 tt-merge s0.h5
expect_err "tt-merge: no output (-o MERGED.h5)"
expect_exit 2 tt-merge -o x.h5
expect_err "tt-merge: no shard files"
expect_exit 2 tt-merge -x -o x.h5 s0.h5
expect_exit 0 tt-merge -h
grep -q "^usage: tt-merge -o MERGED.h5 SHARD.h5" out.txt || fail "-h: $(cat out.txt)"
for w in configs_sha256 "Exit status" merged_from; do
    grep -qF -- "$w" out.txt || fail "-h lacks '$w'"
done
no_output x.h5

# ---- read back with h5py alone: shard k's rows are rows k, k+3, ... ----
PY=/usr/bin/python3
$PY -c "import h5py" 2>/dev/null ||
    skip "no h5py for $PY (apt install python3-h5py): merged file not read back; other checks passed"
$PY - m.h5 whole.h5 s0.h5 s1.h5 s2.h5 <<'PYEOF' || fail "h5py: the merged file"
import sys, h5py
m, whole = h5py.File(sys.argv[1], "r")["sweep"], h5py.File(sys.argv[2], "r")["sweep"]
shards = [h5py.File(p, "r")["sweep"] for p in sys.argv[3:]]
assert list(m["index"][()]) == list(range(12))
names = ["index"] + ["%s/%s" % (g, k) for g in ("params", "metrics") for k in whole[g]]
assert len(names) == 69 and sorted(names) == sorted(
    ["index"] + ["%s/%s" % (g, k) for g in ("params", "metrics") for k in m[g]])
for n in names:
    d = m[n]
    assert d.dtype == whole[n].dtype and d.shape == (12,), n
    assert dict(d.attrs) == dict(whole[n].attrs), n
    assert list(d[()]) == list(whole[n][()]), n
    for k, s in enumerate(shards):
        assert list(d[k::3]) == list(s[n][()]), (n, k)
a = m.attrs
assert a["shard"] == "0/1" and a["rows"] == 12 and a["configurations"] == 12
assert a["merged_from"] == "s0.h5\ns1.h5\ns2.h5"
assert a["elapsed_s"] == sum(s.attrs["elapsed_s"] for s in shards)
for k in whole.attrs:
    if k not in ("elapsed_s", "sims_per_s"):
        assert a[k] == whole.attrs[k], k
PYEOF
