# Output files, for every HDF5 writer (tt-ingest, tt-gen, tt-sim --jobs,
# tt-sweep, tt-tune, tt-merge): a disk that fills during the write leaves
# the old file, no temporary file, exit 1. Small file systems need root:
# that part skips without it.
EX="$FIX/../../data/example.tsv"
expect_exit 0 tt-ingest -q -f csv -o ex.h5 "$EX"
expect_exit 0 tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600 -g theta=1500,inf -o sw.h5 ex.h5
root=0
[ "$(id -u)" = 0 ] && root=1

# write TOOL OUT: the tool writes OUT from the inputs above
write() {
    case $1 in
    ingest) tt-ingest -q -f csv -o "$2" "$EX" ;;
    gen) tt-gen -n 50 -o "$2" ;;
    sim) tt-sim -c 2x8x8 --jobs -o "$2" ex.h5 ;;
    sweep) tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600 -o "$2" ex.h5 ;;
    tune) tt-tune -d cpu -j 1 -c 2x8x8 -s w0=0:600:4 --objective jct_mean --budget 4 -o "$2" ex.h5 ;;
    merge) tt-merge -o "$2" sw.h5 ;;
    esac
}
# no_tmp DIR: no temporary file left in DIR
no_tmp() {
    local left
    left=$(ls -A "$1" | grep -E '\.tmp-' || true)
    [ -z "$left" ] || fail "temporary files left in $1: $left"
}

# ---- a disk that fills during the write: exit 1 (HDF5 writers crashed at
# exit, the failed file still open), the old output intact, no temporary
# file; 16 KiB left free make every writer fail part way ----
if [ $root = 0 ]; then
    echo "no full-disk part: not root"
elif ! { mkdir full && mount -t tmpfs -o size=1m tmpfs full; } 2>/dev/null; then
    echo "no full-disk part: cannot mount a tmpfs"
else
    trap 'umount "$PWD/full" 2>/dev/null' EXIT
    hdf5="ingest gen sim sweep tune merge"
    for w in $hdf5; do
        echo old >"full/o$w"
    done
    cat /dev/zero >full/filler 2>/dev/null || true
    truncate -s -16K full/filler
    for w in $hdf5; do
        expect_exit 1 write $w "full/o$w"
        expect_err "cannot write 'full/o$w': No space left on device"
        [ "$(cat "full/o$w")" = old ] || fail "$w: the old output was changed"
    done
    no_tmp full
    # the brief's own case: a trace larger than the whole disk
    rm full/filler
    expect_exit 1 tt-gen -n 100000 -o full/ogen
    expect_err "cannot write 'full/ogen': No space left on device"
    [ "$(cat full/ogen)" = old ] || fail "gen: the old output was changed"
    no_tmp full
    umount full
    trap - EXIT
fi
