# tt-size on data/example.tsv: a row of each policy equal byte for byte to
# tt-sim's on that cluster; the smallest size that meets jct_p99 and a
# makespan target that is met, missed and met again (not stable); the HDF5
# file read with h5py; usage errors; the size figure.
T=$(printf '\t')
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"

# ---- jct_p99: 3 policies x 6 sizes, 16 .. 96 nodes of 8 GPUs ----
expect_exit 0 tt-size -c 1x1x8 --nodes 16:96:6 -P yarn-cs -P tiresias-dlas \
    -P 'w600: -p w0=600 -p theta=1500' --target 'jct_p99<=300000' -j 2 -o size.h5 ex.h5
cp out.txt size.tsv
[ "$(wc -l <size.tsv)" = 19 ] || fail "expected a header and 18 rows: $(cat size.tsv)"
[ "$(head -1 size.tsv | cut -f1-8)" = "policy${T}cluster${T}nodes${T}gpus${T}target${T}meets${T}smallest${T}stable" ] ||
    fail "header: $(head -1 size.tsv)"
expect_err "tt-size: jct_p99<=300000: yarn-cs: 1x32x8 (256 GPUs), stable"
expect_err "tt-size: jct_p99<=300000: w600: 1x32x8 (256 GPUs), stable"
[ "$(cut -f1,2 size.tsv | sed -n '2p;7p;8p;19p' | tr '\t\n' ',;')" = \
  "yarn-cs,1x16x8;yarn-cs,1x96x8;tiresias-dlas,1x16x8;w600,1x96x8;" ] || fail "row order: $(cut -f1,2 size.tsv)"
# the rows after the first eight columns are tt-sim's, header and values
for row in 2:1x16x8: 10:1x48x8:-p\ preset=tiresias-dlas 13:1x96x8:-p\ preset=tiresias-dlas \
           14:1x16x8:-p\ w0=600\ -p\ theta=1500; do
    n=${row%%:*} rest=${row#*:}
    cl=${rest%%:*} opts=${rest#*:}
    # shellcheck disable=SC2086
    expect_exit 0 tt-sim -c "$cl" $opts ex.h5
    [ "$(head -1 size.tsv | cut -f9-)" = "$(head -1 out.txt)" ] || fail "header differs from tt-sim's"
    [ "$(sed -n "${n}p" size.tsv | cut -f9-)" = "$(sed -n 2p out.txt)" ] ||
        fail "row $n ($cl $opts): $(sed -n "${n}p" size.tsv) vs tt-sim $(sed -n 2p out.txt)"
    [ "$(sed -n "${n}p" size.tsv | cut -f2)" = "$cl" ] || fail "row $n is not $cl"
done
# meets / smallest / stable as the jct_p99 column says
awk -F'\t' 'NR > 1 {
    m = ($46 <= 300000); if ($6 != m) { print "meets", NR; exit 1 }
    if ($1 != p) { p = $1; seen = 0 }
    if ($7 != (m && !seen)) { print "smallest", NR; exit 1 }
    if (m) seen = 1 }' size.tsv || fail "meets/smallest columns: $(cut -f1-8,46 size.tsv)"
[ "$(head -1 size.tsv | cut -f46)" = jct_p99 ] || fail "column 46 is not jct_p99"

# ---- a makespan target met at 64 GPUs, missed at 80, met again: not stable ----
expect_exit 0 tt-size -c 1x2x8 --nodes 2:16:8 -P 'w600: -p w0=600 -p theta=1500' \
    -P yarn-cs --target 'makespan<=2400000' ex.h5
expect_err "tt-size: makespan<=2400000: w600: 1x8x8 (64 GPUs), not stable: 1x10x8 misses it"
expect_err "tt-size: makespan<=2400000: yarn-cs: 1x10x8 (80 GPUs), stable"
[ "$(grep '^w600' out.txt | cut -f2,6,7,8 | tr '\t\n' ',;')" = \
  "1x2x8,0,0,0;1x4x8,0,0,0;1x6x8,0,0,0;1x8x8,1,1,0;1x10x8,0,0,0;1x12x8,1,0,1;1x14x8,1,0,1;1x16x8,1,0,1;" ] ||
    fail "w600's meets, smallest, stable: $(grep '^w600' out.txt | cut -f2,6-8)"
# a list of clusters, sorted by GPUs; none meets
expect_exit 0 tt-size -c 1x4x8 -c 1x2x8 -P yarn-cs --target 'jct_mean<=1' ex.h5
[ "$(cut -f2 out.txt | tr '\n' ' ')" = "cluster 1x2x8 1x4x8 " ] || fail "sizes not sorted: $(cut -f2 out.txt)"
expect_err "tt-size: jct_mean<=1: yarn-cs: none of the sizes tried (the largest, 1x4x8: jct_mean "

# ---- the HDF5 study ----
if python3 -c 'import h5py' 2>/dev/null; then
    python3 - size.h5 <<'PY' || fail "size.h5"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
g = f["size"]
assert g.attrs["tracetune_layout"] == "size/1", g.attrs["tracetune_layout"]
assert g.attrs["target"] == "jct_p99<=300000"
r = g["rows"]
assert [s.decode() for s in r["policy"][:3]] == ["yarn-cs"] * 3
assert list(r["gpus"][:6]) == [128, 256, 384, 512, 640, 768], list(r["gpus"][:6])
assert list(r["smallest"][:6]) == [0, 1, 0, 0, 0, 0]
assert r["metrics/jct_p99"][0] == 358750, r["metrics/jct_p99"][0]
assert r["params/w0"][12] == 600
res = g["result"]
assert [s.decode() for s in res["policy"]] == ["yarn-cs", "tiresias-dlas", "w600"]
assert [s.decode() for s in res["cluster"]] == ["1x32x8"] * 3
assert list(res["gpus"]) == [256] * 3 and list(res["stable"]) == [1] * 3
PY
fi

# ---- usage errors ----
expect_exit 2 tt-size -c 1x1x8 -P yarn-cs --target 'jct_p98<=3' ex.h5
expect_err "tt-size: --target: unknown metric 'jct_p98' (the metrics: makespan"
expect_exit 2 tt-size -c 1x1x8 -P yarn-cs --target 'jct_p99<3' ex.h5
expect_err "tt-size: --target: expected METRIC<=VALUE or METRIC>=VALUE"
expect_exit 2 tt-size -c 1x1x8 -P yarn-cs ex.h5
expect_err "no target"
expect_exit 2 tt-size -c 1x1x8 --target 'jct_p99<=3' ex.h5
expect_err "no policy"
expect_exit 2 tt-size -c 4x1x8 --nodes 3,8 -P yarn-cs --target 'jct_p99<=3' ex.h5
expect_err "3 nodes cannot be spread evenly over the 4 racks"
expect_exit 2 tt-size -c 1x1x8 -c 1x2x8 --nodes 2,3 -P yarn-cs --target 'jct_p99<=3' ex.h5
expect_err "--nodes takes one -c"
expect_exit 2 tt-size -c 1x1x8 -P yarn-cs -P yarn-cs --target 'jct_p99<=3' ex.h5
expect_err "the label 'yarn-cs' twice"
expect_exit 2 tt-size -c 1x1x8 -P 'x: -p nosuch=1' --target 'jct_p99<=3' ex.h5
expect_err "tt-size: -P 'x: -p nosuch=1': "
expect_exit 1 tt-size -c 1x1x8 -P yarn-cs --target 'jct_p99<=3' nosuch.h5
[ ! -e size2.h5 ] || fail "size2.h5 exists"

# ---- the figure ----
command -v gnuplot >/dev/null || skip "gnuplot not installed (the rest is the size figure)"
expect_exit 0 tt-plot size -o size.png --script size.gp size.tsv
[ -s size.png ] || fail "no size.png"
# the target in the axis's unit, then the metric's
grep -qE "title 'target jct_p99 <= [0-9.]+ (h|d) \(300000 s\)'" size.gp ||
    fail "no target line in size.gp: $(grep -m1 "title 'target" size.gp)"
grep -qF "set label 1 'yarn-cs: 1x32x8' at first 256," size.gp || fail "no label of yarn-cs's smallest size"
expect_exit 0 tt-plot size -x nodes -y util -o util.pdf size.tsv
expect_exit 2 tt-plot size -o x.png "$FIX/plot/plot_sweep.tsv"
expect_err "not tt-size's rows"
