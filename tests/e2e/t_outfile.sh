# Output files, for every tool that writes one (tt-ingest, tt-gen, tt-sim,
# tt-sweep, tt-tune, tt-merge, tt-plot's figure and --script): a symbolic
# link is followed and stays a link; the old file's mode is kept; an output
# that is not a regular file (FIFO, device, socket, folder) is refused; a
# disk that fills during the write leaves the old file, no temporary file,
# exit 1. Devices and small file systems need root: those parts skip
# without it.
EX="$FIX/../../data/example.tsv"
expect_exit 0 tt-ingest -q -f csv -o ex.h5 "$EX"
expect_exit 0 tt-sweep -d cpu -j 1 -c 2x8x8 -g w0=0,600 -g theta=1500,inf -o sw.h5 ex.h5
have_plot=0
if command -v gnuplot >/dev/null; then
    have_plot=1
    mkdir tmp
    export TMPDIR=$PWD/tmp
fi
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
    figure) tt-plot pareto -o "$2" sw.h5 ;;
    script) tt-plot pareto --script "$2" -o f.svg sw.h5 ;;
    esac
}
writers="ingest gen sim sweep tune merge"
[ $have_plot = 1 ] && writers="$writers figure script"
# ext TOOL: the end of an output name (a figure's says its format)
ext() { if [ $1 = figure ]; then echo .svg; else echo .out; fi; }
# no_tmp DIR: no temporary file left in DIR
no_tmp() {
    local left
    left=$(ls -A "$1" | grep -E '\.tmp-' || true)
    [ -z "$left" ] || fail "temporary files left in $1: $left"
}

for w in $writers; do
    e=$(ext $w)
    # ---- a symbolic link is followed: its target replaced in its own
    # folder, the link kept; a dangling one creates its target ----
    mkdir "d$w" "e$w"
    echo old >"d$w/o$e"
    ln -s "d$w/o$e" "l$w$e"
    expect_exit 0 write $w "l$w$e"
    [ -L "l$w$e" ] || fail "$w: the link was replaced"
    [ "$(readlink "l$w$e")" = "d$w/o$e" ] || fail "$w: the link points elsewhere"
    [ "$(head -c 3 "d$w/o$e")" != old ] || fail "$w: the link's target was not written"
    ln -s "../e$w/o$e" "d$w/dangling$e"
    expect_exit 0 write $w "d$w/dangling$e"
    [ -L "d$w/dangling$e" ] && [ -s "e$w/o$e" ] || fail "$w: a dangling link: $(ls -l d$w e$w)"
    no_tmp .; no_tmp "d$w"; no_tmp "e$w"
    # ---- the mode of the old file is kept ----
    chmod 600 "d$w/o$e"
    expect_exit 0 write $w "d$w/o$e"
    [ "$(stat -c %a "d$w/o$e")" = 600 ] || fail "$w: mode $(stat -c %a "d$w/o$e"), was 600"
    chmod 640 "d$w/o$e"
    expect_exit 0 write $w "l$w$e"
    [ "$(stat -c %a "d$w/o$e")" = 640 ] || fail "$w: through a link, mode $(stat -c %a "d$w/o$e")"
    # ---- not a regular file: refused, left as it was ----
    mkfifo "fifo$w$e"
    expect_exit 1 write $w "fifo$w$e"
    expect_err "cannot write 'fifo$w$e': a FIFO, not a regular file: refusing to replace it"
    [ -p "fifo$w$e" ] || fail "$w: the FIFO was replaced"
    mkdir "dir$w$e"
    expect_exit 1 write $w "dir$w$e"
    expect_err "cannot write 'dir$w$e': a folder, not a regular file: refusing to replace it"
    ln -s "fifo$w$e" "lfifo$w$e"
    expect_exit 1 write $w "lfifo$w$e"
    expect_err "cannot write 'lfifo$w$e' ('fifo$w$e'): a FIFO, not a regular file"
    [ -L "lfifo$w$e" ] && [ -p "fifo$w$e" ] || fail "$w: the link to a FIFO or the FIFO replaced"
    if [ $root = 1 ]; then
        mknod "null$w$e" c 1 3 # what /dev/null is
        expect_exit 1 write $w "null$w$e"
        expect_err "cannot write 'null$w$e': a character device, not a regular file"
        [ -c "null$w$e" ] || fail "$w: the character device was replaced"
    fi
    if command -v python3 >/dev/null; then
        python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('sock$w$e')"
        expect_exit 1 write $w "sock$w$e"
        expect_err "cannot write 'sock$w$e': a socket, not a regular file"
        [ -S "sock$w$e" ] || fail "$w: the socket was replaced"
    fi
    no_tmp .
done

# ---- a disk that fills during the write: exit 1 (HDF5 writers crashed at
# exit, the failed file still open), the old output intact, no temporary
# file; 16 KiB left free make every writer fail part way ----
if [ $root = 0 ]; then
    echo "no full-disk part: not root"
elif ! { mkdir full && mount -t tmpfs -o size=1m tmpfs full; } 2>/dev/null; then
    echo "no full-disk part: cannot mount a tmpfs"
else
    trap 'umount "$PWD/full" 2>/dev/null' EXIT
    hdf5="ingest gen sim sweep tune merge" # a figure and a script fit in 16 KiB
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
