# Damaged HDF5 files: one flipped bit made HDF5 1.10 hang (clearing
# terabytes for a string), crash or abort inside tt-cat, tt-stats, tt-sim,
# tt-sweep and tt-plot. Now a file tracetune wrote carries a seal (the
# sha256 of its bytes in a 512-byte user block), and a file whose seal is
# absent or does not hold is read whole first in a child process with a
# time limit: a damaged one is an error within seconds (exit 1, the file
# named), and an intact one reads as before.
F="$FIX/trace/gen20_vlen.h5" # written before the seal; never rewritten
# flip IN OUT OFFSET BIT: OUT is IN with one bit flipped
flip() {
    cp "$1" "$2"
    local b
    b=$(od -An -tu1 -j"$3" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ (1 << $4))))" | dd of="$2" bs=1 seek="$3" conv=notrunc 2>/dev/null
}
# in_time SECONDS CMD...: CMD ends within SECONDS (run under expect_exit)
in_time() {
    local t0=$SECONDS limit=$1
    shift
    "$@"
    [ $((SECONDS - t0)) -le "$limit" ] || fail "'$*' took $((SECONDS - t0)) s"
}

# ---- a file written before the seal: bits found by flipping each byte
# of this fixture in turn, with what they did to tt-cat before: the size
# of a string in the global heap (HDF5 looped for ever closing the file),
# a datatype message (segmentation fault), an attribute message (abort in
# free) ----
flip "$F" hang.h5 3169 5
flip "$F" crash.h5 1430 6
flip "$F" abort.h5 3025 5
# (built with a sanitizer, HDF5's overrun before the loop is caught: a
# crash, said as one)
hung() { # TOOL FILE SECONDS: stderr is the message of a hang, or of that
    local h="$1: '$2': damaged HDF5 file (HDF5 did not finish reading it in $3 s)"
    local c="$1: '$2': damaged HDF5 file (HDF5 crashed reading it)"
    [ "$(tail -1 err.txt)" = "$h" ] || [ "$(tail -1 err.txt)" = "$c" ] ||
        fail "$1 $2: $(cat err.txt)"
}
in_time 20 expect_exit 1 tt-cat hang.h5
hung tt-cat hang.h5 5
[ ! -s out.txt ] || fail "tt-cat printed rows of a damaged file"
export TT_H5_CHECK_S=2 # the base of the time limit, for the rest
for tool in tt-stats "tt-sim -c 2x8x8" "tt-sweep -d cpu -c 2x8x8 -g w0=0,600"; do
    # shellcheck disable=SC2086
    in_time 15 expect_exit 1 $tool hang.h5
    hung "${tool%% *}" hang.h5 2
done
in_time 15 expect_exit 1 tt-cat crash.h5
[ "$(cat err.txt)" = "tt-cat: 'crash.h5': damaged HDF5 file (HDF5 crashed reading it)" ] ||
    fail "tt-cat, crash: $(cat err.txt)"
in_time 15 expect_exit 1 tt-sim -c 2x8x8 abort.h5
[ "$(cat err.txt)" = "tt-sim: 'abort.h5': damaged HDF5 file (HDF5 crashed reading it)" ] ||
    fail "tt-sim, abort: $(cat err.txt)"
# standard input is read from a copy, checked the same way
in_time 15 expect_exit 1 tt-stats - <hang.h5
expect_err "tt-stats: '<stdin>': damaged HDF5 file (HDF5 "
# the intact fixture still reads, the same rows
expect_exit 0 tt-cat "$F"
cmp -s out.txt "$FIX/trace/gen20_vlen.tsv" || fail "the intact file: $(diff out.txt "$FIX/trace/gen20_vlen.tsv" | head)"

# ---- a file tracetune writes now: sealed ----
expect_exit 0 tt-gen -n 20 -s 1 -o new.h5
[ "$(head -c 42 new.h5)" = "tracetune sha256 of bytes 512 to the end: " ] ||
    fail "no seal: $(head -c 60 new.h5 | od -c | head -2)"
[ "$(head -c 106 new.h5 | tail -c 64)" = "$(tail -c +513 new.h5 | sha256sum | cut -c1-64)" ] ||
    fail "the seal is not the sha256 of the rest"
expect_exit 0 tt-cat new.h5
cp out.txt new.tsv
# the size of the string of its notes in the global heap, as in hang.h5
# (tt-gen 0.1.0 looped for ever on it): the seal fails, the rehearsal in
# the child crashes or does not end, an error
at=$(LC_ALL=C grep -obUa 'tt-gen -n 20' new.h5 | head -1 | cut -d: -f1)
[ -n "$at" ] || fail "no notes found in new.h5"
flip new.h5 newbad.h5 $((at - 7)) 5
in_time 15 expect_exit 1 tt-cat newbad.h5
expect_err "tt-cat: 'newbad.h5': damaged HDF5 file (HDF5 "
[ ! -s out.txt ] || fail "tt-cat printed rows of a damaged file"
# a sealed file changed since, harmlessly (the units of /jobs/gpus, "GPUs"
# to "gPUs"): its seal fails, the child reads it whole, and so does the
# reader
at=$(LC_ALL=C grep -obUa 'GPUs' new.h5 | head -1 | cut -d: -f1)
flip new.h5 changed.h5 "$at" 5
expect_exit 0 tt-cat changed.h5
cmp -s out.txt new.tsv || fail "a changed but intact file reads differently"

# ---- result files: a tune file that made tt-plot search crash (a bit
# of the address of a group's link index), a damaged sweep shard ----
EX="$FIX/../../data/example.tsv"
expect_exit 0 tt-ingest -q -f csv -o ex.h5 "$EX"
if command -v gnuplot >/dev/null; then
    expect_exit 0 tt-tune -d cpu -j 1 -c 2x8x8 -s w0=0:600:4 --objective jct_mean --budget 4 \
        -o tune.h5 ex.h5
    at=$(LC_ALL=C grep -obUaP '\x02\x00\x28\x00\x00\x00\x00\x00\x00\x03\x01\x00' tune.h5 |
        head -1 | cut -d: -f1)
    [ -n "$at" ] || fail "no link info message found in tune.h5"
    flip tune.h5 tunebad.h5 $((at + 18)) 2
    in_time 15 expect_exit 1 tt-plot search -o s.svg tunebad.h5
    [ "$(cat err.txt)" = "tt-plot: 'tunebad.h5': damaged HDF5 file (HDF5 crashed reading it)" ] ||
        fail "tt-plot search: $(cat err.txt)"
    [ ! -e s.svg ] || fail "a figure of a damaged tune file"
fi
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -g w0=0,600 --shard 0/2 -o s0.h5 ex.h5
expect_exit 0 tt-sweep -d cpu -c 2x8x8 -g w0=0,600 --shard 1/2 -o s1.h5 ex.h5
# a shard whose seal fails: its reads rehearsed, then made (HDF5 no longer
# finds the attribute whose message the bit broke)
at=$(LC_ALL=C grep -obUaP '\x01\x00\x11\x00\x14\x00\x08\x00tracetune_layout' s1.h5 | head -1 | cut -d: -f1)
[ -n "$at" ] || fail "no tracetune_layout attribute message found in s1.h5"
flip s1.h5 s1bad.h5 $((at + 5)) 1
in_time 15 expect_exit 1 tt-merge -o m.h5 s0.h5 s1bad.h5
[ "$(cat err.txt)" = "tt-merge: s1bad.h5: not a sweep file (no tracetune_layout on /sweep)" ] ||
    fail "tt-merge: $(cat err.txt)"
[ ! -e m.h5 ] || fail "a merge of a damaged shard"
expect_exit 0 tt-merge -o m.h5 s0.h5 s1.h5
