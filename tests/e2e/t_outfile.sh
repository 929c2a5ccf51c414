# Output files, for every tool that writes one (tt-ingest, tt-gen, tt-sim,
# tt-sweep, tt-tune, tt-merge, tt-plot's figure and --script): a symbolic
# link is followed and stays a link; the old file's mode is kept; an output
# that is not a regular file (FIFO, device, socket, folder) or that is one
# of the inputs (through links too) is refused before any work; an output
# that cannot be created is said before the input is even read; a disk that
# fills during the write leaves the old file, no temporary file, exit 1.
# Devices and small file systems need root: those parts skip without it.
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

# ---- an output that is an input: refused, through links, for every
# input: traces, model tables, cluster and configuration files, the data
# of a figure and its script; the input untouched ----
cp ex.h5 ex.orig
ln -s ex.h5 exlink.h5
ln ex.h5 exhard.h5
printf 'name\tslow_l1\tslow_l2\nbert\t1100\t1300\n' >models.tsv
printf 'racks\tnodes_per_rack\tgpus_per_node\n2\t8\t8\n' >cluster.tsv
printf 'w0\n0\n600\n' >configs.tsv
cp models.tsv models.orig; cp cluster.tsv cluster.orig; cp configs.tsv configs.orig
refused() { # OUT IN CMD...: exit 1, the message, the input unchanged
    local out=$1 in=$2; shift 2
    expect_exit 1 "$@"
    expect_err "output '$out' is also the input '$in': refusing to overwrite it"
}
refused ex.h5 ex.h5 tt-tune -c 2x8x8 -s w0=0:600:4 --objective jct_mean -o ex.h5 ex.h5
refused exlink.h5 ex.h5 tt-sim -c 2x8x8 -o exlink.h5 ex.h5
refused exhard.h5 ex.h5 tt-sweep -c 2x8x8 -g w0=0,600 -o exhard.h5 ex.h5
refused exhard.h5 exlink.h5 tt-ingest -q -f csv -o exhard.h5 "$EX" exlink.h5
refused ex.h5 - tt-ingest -q -f csv -o ex.h5 - <ex.h5
refused models.tsv models.tsv tt-sim -c 2x8x8 --models models.tsv -o models.tsv ex.h5
refused models.tsv models.tsv tt-tune -c 2x8x8 -s w0=0:600:4 --objective jct_mean \
    --models models.tsv -o models.tsv ex.h5
refused cluster.tsv cluster.tsv tt-sweep -c cluster.tsv -g w0=0,600 -o cluster.tsv ex.h5
refused cluster.tsv cluster.tsv tt-sim -c cluster.tsv -o cluster.tsv ex.h5
refused configs.tsv configs.tsv tt-sweep -c 2x8x8 --configs configs.tsv -o configs.tsv ex.h5
refused exlink.h5 ex.h5 tt-merge -o exlink.h5 ex.h5
# a parameter's file (gittins_dist) and tt-size's cluster files are inputs too
printf 'duration\n3250\n7200\n' >dist.txt
cp dist.txt dist.orig
ln -s dist.txt distlink.txt
printf 'w0\tgittins_dist\n0\tdist.txt\n' >dconfigs.tsv
refused dist.txt dist.txt tt-sim -c 2x8x8 -p order=gittins -p gittins_dist=dist.txt -o dist.txt ex.h5
refused distlink.txt dist.txt tt-sim -c 2x8x8 -p gittins_dist=dist.txt -o distlink.txt ex.h5
refused dist.txt dist.txt tt-sweep -c 2x8x8 -p order=gittins -p gittins_dist=dist.txt \
    -g w0=0,600 -o dist.txt ex.h5
refused dist.txt dist.txt tt-sweep -c 2x8x8 -p order=gittins -g 'gittins_dist=trace;dist.txt' \
    -o dist.txt ex.h5
refused dist.txt dist.txt tt-sweep -c 2x8x8 -p order=gittins --configs dconfigs.tsv -o dist.txt ex.h5
refused dist.txt dist.txt tt-tune -c 2x8x8 -p order=gittins -p gittins_dist=dist.txt \
    -s w0=0:600:4 --objective jct_mean -o dist.txt ex.h5
refused dist.txt dist.txt tt-size -c 2x8x8 -P 'g: -p order=gittins -p gittins_dist=dist.txt' \
    --target 'jct_mean<=1e9' -o dist.txt ex.h5
refused dist.txt dist.txt tt-size -c 2x8x8 -P tiresias-gittins -p gittins_dist=dist.txt \
    --target 'jct_mean<=1e9' -o dist.txt ex.h5
refused cluster.tsv cluster.tsv tt-size -c 1x8x8 -c cluster.tsv -P yarn-cs \
    --target 'jct_mean<=1e9' -o cluster.tsv ex.h5
refused cluster.tsv cluster.tsv tt-size -c cluster.tsv --nodes 2,4 -P yarn-cs \
    --target 'jct_mean<=1e9' -o cluster.tsv ex.h5
cmp -s ex.h5 ex.orig && cmp -s models.tsv models.orig && cmp -s cluster.tsv cluster.orig &&
    cmp -s configs.tsv configs.orig && cmp -s dist.txt dist.orig || fail "an input was changed"
if [ $have_plot = 1 ]; then
    cp sw.h5 sw.orig
    refused sw.h5 sw.h5 tt-plot pareto --script sw.h5 -o f.svg sw.h5
    cp sw.h5 data.svg
    refused data.svg data.svg tt-plot pareto -o data.svg data.svg
    cp "$FIX/plot/plot_sweep.tsv" base.tsv
    refused base.tsv base.tsv tt-plot pareto --baseline base.tsv --script base.tsv -o f.svg sw.h5
    expect_exit 1 tt-plot pareto --script same.svg -o same.svg sw.h5
    expect_err "--script 'same.svg' is also the figure (-o): refusing to overwrite it"
    cmp -s sw.h5 sw.orig && cmp -s base.tsv "$FIX/plot/plot_sweep.tsv" || fail "tt-plot changed an input"
fi
no_tmp .

# ---- a writer killed by SIGKILL (or a crash) leaves its temporary file:
# the next write of the same output removes it, and only it: not one of
# a process still running, nor another output's, nor another name ----
sh -c 'exit 0' &
dead=$!
wait $dead
sleep 30 &
alive=$!
mkdir stale
for f in ".r.h5.tmp-$dead" ".r.h5.tmp-$alive" ".q.h5.tmp-$dead" ".r.h5.tmp-${dead}x" \
    ".r.h5.tmp-" "r.h5.tmp-$dead"; do
    echo partial >"stale/$f"
done
expect_exit 0 tt-sim -c 2x8x8 -o stale/r.h5 ex.h5
left=$(ls -A stale | sort | tr '\n' ' ')
want=$(printf '%s\n' ".q.h5.tmp-$dead" ".r.h5.tmp-" ".r.h5.tmp-$alive" ".r.h5.tmp-${dead}x" r.h5 \
    "r.h5.tmp-$dead" | sort | tr '\n' ' ')
[ "$left" = "$want" ] || fail "after a write: $left, expected $want"
kill $alive
wait $alive 2>/dev/null || true
expect_exit 0 tt-sim -c 2x8x8 -o stale/r.h5 ex.h5
[ ! -e "stale/.r.h5.tmp-$alive" ] || fail "the temporary file of a process gone was kept"
[ -e "stale/.q.h5.tmp-$dead" ] || fail "another output's temporary file was removed"

# ---- an output that cannot be created: said before the input is read
# (so before any simulation or drawing), nothing left ----
nowhere() { # OUT CMD...
    local out=$1; shift
    expect_exit 1 "$@"
    expect_err "cannot write '$out': No such file or directory"
}
nowhere nodir/i.h5 tt-ingest -q -o nodir/i.h5 missing.csv
nowhere nodir/g.h5 tt-gen -n 10 -o nodir/g.h5
nowhere nodir/r.h5 tt-sim -c 2x8x8 -o nodir/r.h5 missing.h5
nowhere /nonexistent/dir/s.h5 tt-sweep -c 2x8x8 -g w0=0,600 -o /nonexistent/dir/s.h5 missing.h5
nowhere nodir/t.h5 tt-tune -c 2x8x8 -s w0=0:600:4 --objective jct_mean -o nodir/t.h5 missing.h5
nowhere nodir/m.h5 tt-merge -o nodir/m.h5 missing.h5
if [ $have_plot = 1 ]; then
    nowhere nodir/f.svg tt-plot pareto -o nodir/f.svg missing.h5
    nowhere nodir/f.gp tt-plot pareto --script nodir/f.gp -o f.svg missing.h5
fi
if [ $root = 1 ] && mkdir ro && mount -t tmpfs -o size=64k,ro tmpfs ro 2>/dev/null; then
    expect_exit 1 tt-sweep -c 2x8x8 -g w0=0,600 -o ro/s.h5 missing.h5
    umount ro
    expect_err "cannot write 'ro/s.h5': Read-only file system"
fi
no_tmp .

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
    for e in png svg pdf; do echo old >"full/fig.$e"; done
    cat /dev/zero >full/filler 2>/dev/null || true
    truncate -s -16K full/filler
    for w in $hdf5; do
        expect_exit 1 write $w "full/o$w"
        expect_err "cannot write 'full/o$w': No space left on device"
        [ "$(cat "full/o$w")" = old ] || fail "$w: the old output was changed"
    done
    no_tmp full
    # figures, 4 KiB left: gnuplot exits 0 on a disk it could not write,
    # leaving what fitted; tt-plot writes what it read from gnuplot
    if [ $have_plot = 1 ]; then
        cat /dev/zero >>full/filler 2>/dev/null || true
        truncate -s -4K full/filler
        for e in png svg pdf; do
            expect_exit 1 tt-plot pareto -o "full/fig.$e" sw.h5
            expect_err "cannot write 'full/fig.$e': No space left on device"
            [ "$(cat "full/fig.$e")" = old ] ||
                fail "figure .$e: the old figure was replaced ($(wc -c <"full/fig.$e") bytes)"
        done
        no_tmp full
    fi
    # the brief's own case: a trace larger than the whole disk
    rm full/filler
    expect_exit 1 tt-gen -n 1000000 -o full/ogen # about 5 MB, compressed
    expect_err "cannot write 'full/ogen': No space left on device"
    [ "$(cat full/ogen)" = old ] || fail "gen: the old output was changed"
    no_tmp full
    umount full
    trap - EXIT
fi
