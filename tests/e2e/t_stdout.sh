# -o - writes the HDF5 file to standard output, for every tool that writes
# one (tt-ingest, tt-gen, tt-sim, tt-sweep, tt-tune, tt-merge, tt-size): the
# same file, byte count and content, as -o FILE (h5dump, but for a run's
# timings), and nothing else there (the TSV a tool prints is left out); no
# file named '-'; the next tool reads it from the pipe ('tt-ingest -o - x.csv
# | tt-stats -'). On a terminal it is refused (exit 2) before any work;
# standard output redirected into an input is refused too.
command -v h5dump >/dev/null || skip "no h5dump (apt install hdf5-tools)"
EX="$FIX/../../data/example.tsv"
tt-ingest -q -o ex.h5 "$EX"
for k in 0 1; do
    tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600,inf --shard $k/2 -o s$k.h5 ex.h5 >/dev/null 2>&1
done
# dump FILE: its h5dump, but for its name and a run's timings
dump() {
    h5dump "$1" | sed 1d | awk '/ATTRIBUTE "(elapsed_s|sims_per_s)" \{/ {
        match($0, /^ */); end = substr($0, 1, RLENGTH) "}"; skip = 1; next }
        skip { if ($0 == end) skip = 0; next } { print }'
}
# write TOOL OUT: the tool writes OUT
write() {
    case $1 in
    ingest) tt-ingest -q -o "$2" "$EX" ;;
    gen) tt-gen -n 300 -s 2 -o "$2" ;;
    sim) tt-sim -c 2x8x8 -p w0=600 -p theta=1500 -o "$2" ex.h5 ;;
    sweep) tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600 -g theta=1500,inf -o "$2" ex.h5 ;;
    tune) tt-tune -d cpu -j 1 -c 2x8x8 -s w0=0:600:4 --objective jct_mean --budget 4 -o "$2" ex.h5 ;;
    merge) tt-merge -o "$2" s1.h5 s0.h5 ;;
    size) tt-size -c 1x2x8 --nodes 1:2:2 -P k8s-fixed -P yarn-cs --target 'jct_mean<=100000' \
        -o "$2" ex.h5 ;;
    esac
}
for w in ingest gen sim sweep tune merge size; do
    write $w named.h5 >named.txt 2>/dev/null || fail "$w -o named.h5 exited $?"
    write $w - >piped.h5 2>err.txt || fail "$w -o - exited $?: $(cat err.txt)"
    [ ! -e ./- ] || fail "$w -o -: wrote a file named '-'"
    # HDF5's signature after the 512-byte block of tracetune's checksum
    # (tt_h5u_save: a user block HDF5 skips), the same bytes as the file
    [ "$(head -c 520 piped.h5 | tail -c 8 | od -An -tx1 | tr -d ' \n')" = 894844460d0a1a0a ] ||
        fail "$w -o -: standard output has no HDF5 signature after its user block: $(head -c 40 piped.h5)"
    [ "$(head -c 16 piped.h5)" = "tracetune sha256" ] ||
        fail "$w -o -: standard output does not open with tracetune's checksum block"
    [ "$(wc -c <piped.h5)" = "$(wc -c <named.h5)" ] ||
        fail "$w -o -: $(wc -c <piped.h5) bytes on standard output, $(wc -c <named.h5) in the file"
    cmp -s <(dump named.h5) <(dump piped.h5) ||
        fail "$w -o -: another file than -o named.h5: $(diff <(dump named.h5) <(dump piped.h5) | head -6)"
    rm -f named.h5 piped.h5
done

# the pipe, and others: what reads '-' reads it
tt-ingest -o - "$EX" 2>/dev/null | tt-stats - >pipe.txt || fail "tt-ingest -o - | tt-stats -"
tt-stats ex.h5 >file.txt
cmp -s pipe.txt file.txt || fail "tt-stats of a piped trace differs: $(diff pipe.txt file.txt | head -4)"
tt-gen -n 300 -s 2 -o - | tt-sim -c 2x8x8 - >pipe.txt 2>/dev/null || fail "tt-gen -o - | tt-sim -"
tt-gen -n 300 -s 2 -o g.h5 && tt-sim -c 2x8x8 g.h5 >file.txt 2>/dev/null
cmp -s pipe.txt file.txt || fail "tt-sim of a piped trace differs"
tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600,inf --shard 0/2 -o - ex.h5 2>/dev/null |
    tt-merge -o m.h5 - s1.h5 2>/dev/null || fail "tt-sweep -o - | tt-merge -o m.h5 - s1.h5"
tt-merge -o m2.h5 s0.h5 s1.h5 2>/dev/null
for g in params metrics; do
    cmp -s <(h5dump -g /sweep/$g m.h5 | sed 1d) <(h5dump -g /sweep/$g m2.h5 | sed 1d) ||
        fail "/sweep/$g of a merge of a piped shard differs"
done
tt-merge -o - s0.h5 s1.h5 2>err.txt >/dev/null
grep -qxF "tt-merge: 2 shards, 3 configurations -> standard output" err.txt ||
    fail "tt-merge -o -: $(cat err.txt)"

# what else wants standard output: a usage error
expect_exit 2 tt-sim -c 2x8x8 --jobs -o - ex.h5
expect_err "tt-sim: -o - and --jobs or --timeline both write to standard output"
expect_exit 2 tt-tune -c 2x8x8 -s w0=0:600:4 --objective jct_mean --line -o - ex.h5
expect_err "tt-tune: --line and -o - both write to standard output"
# standard output into an input: refused before the work, the input kept
cp ex.h5 keep.h5
got=0
tt-sim -c 2x8x8 -o - keep.h5 >>keep.h5 2>err.txt || got=$?
[ $got = 1 ] || fail "tt-sim -o - keep.h5 >>keep.h5: exit $got"
expect_err "tt-sim: standard output is also the input 'keep.h5': refusing to overwrite it"
cmp -s ex.h5 keep.h5 || fail "the input was written"

# on a terminal: refused at once, whatever the tool, exit 2
if command -v script >/dev/null; then
    for w in ingest gen sim sweep tune merge size; do
        got=0
        SHELL=/bin/bash script -qec "$(declare -f write); EX='$EX' write $w -" /dev/null \
            >tty.txt 2>&1 </dev/null || got=$?
        [ $got = 2 ] || fail "$w -o - on a terminal: exit $got: $(cat tty.txt)"
        grep -qF -- "-o -: standard output is a terminal: an HDF5 file is binary" tty.txt ||
            fail "$w -o - on a terminal: $(cat tty.txt)"
        [ "$(wc -l <tty.txt)" = 1 ] || fail "$w -o - on a terminal wrote more: $(head -c 300 tty.txt)"
    done
    [ ! -e ./- ] || fail "a file named '-' on a terminal"
else
    echo "SKIP (part): no script(1) for a terminal"
fi
