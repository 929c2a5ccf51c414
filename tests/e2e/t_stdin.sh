# "-" is standard input for every tool that reads a file, an HDF5 file from
# a pipe included (HDF5 seeks: it is read from a private copy in $TMPDIR,
# removed at exit, on an error and on a signal); standard input can be
# named once per command (exit 2 for twice).
mkdir tmp
export TMPDIR=$PWD/tmp
# left WHEN: nothing may remain in TMPDIR
left() { [ -z "$(ls -A tmp)" ] || fail "$1: left in TMPDIR: $(ls -A tmp)"; }
tt-gen -n 50 -o g.h5

# the same output from a pipe as from the file
for cmd in "tt-cat" "tt-cat -c submit,user --info" "tt-stats" "tt-stats -s all -b 600" \
    "tt-sim -c 1x2x8" "tt-sim -c 1x2x8 -p w0=60 --jobs" "tt-sim -c 1x2x8 --timeline" \
    "tt-sweep -d cpu -j 1 -c 1x2x8 -g w0=0,60,inf -g theta=1000,inf" \
    "tt-tune -d cpu -j 1 -c 1x2x8 -s w0=0:600:7 --objective jct_mean --budget 4"; do
    cat g.h5 | $cmd - >pipe.txt 2>err.txt || fail "'cat g.h5 | $cmd -' exited $?: $(cat err.txt)"
    $cmd g.h5 >file.txt 2>/dev/null || fail "'$cmd g.h5' failed"
    [ -s file.txt ] || fail "'$cmd g.h5' printed nothing"
    cmp -s pipe.txt file.txt || fail "'cat g.h5 | $cmd -' differs from '$cmd g.h5'"
    left "$cmd"
done
# the rest of a tool's input still comes from files
printf 'racks\tnodes_per_rack\tgpus_per_node\n1\t2\t8\n' >c.tsv
cat g.h5 | tt-sim -c c.tsv --models "$FIX/../../data/models.tsv" - >pipe.txt 2>/dev/null ||
    fail "a cluster file and a model table beside a trace on stdin"
tt-sim -c 1x2x8 g.h5 2>/dev/null | cmp -s - pipe.txt || fail "-c FILE with the trace on stdin"

# a shard from a pipe merges as from its file, and is named "-"
if command -v h5dump >/dev/null; then
    for k in 0 1; do
        tt-sweep -d cpu -j 1 -c 1x2x8 -g w0=0,60,inf --shard $k/2 -o s$k.h5 g.h5 >/dev/null 2>&1
    done
    tt-merge -o m.h5 s0.h5 s1.h5 2>/dev/null
    cat s1.h5 | expect_exit 0 tt-merge -o mp.h5 s0.h5 -
    expect_err "tt-merge: 2 shards, 3 configurations -> mp.h5"
    for g in params metrics; do
        cmp -s <(h5dump -g /sweep/$g m.h5 | sed 1d) <(h5dump -g /sweep/$g mp.h5 | sed 1d) ||
            fail "/sweep/$g of a merge from a pipe differs"
    done
    h5dump -a /sweep/merged_from mp.h5 | tr -d '\n ' | grep -qF '"s0.h5-"' ||
        fail "merged_from: $(h5dump -a /sweep/merged_from mp.h5)"
    left "tt-merge"
fi

# tt-plot: a trace from a pipe, and a baseline from standard input
if command -v gnuplot >/dev/null; then
    cat g.h5 | expect_exit 0 tt-plot trace -o pipe.png -
    tt-plot trace -o file.png g.h5 || fail "tt-plot trace g.h5"
    cmp -s pipe.png file.png || fail "tt-plot trace: a pipe and the file draw differently"
    tt-sweep -d cpu -j 1 -c 1x2x8 -g w0=0,60,600,inf -g theta=1000,inf g.h5 >sw.tsv 2>/dev/null
    tt-sim -c 1x2x8 -p w0=60 g.h5 >base.tsv 2>/dev/null
    # TSV records no trace or cluster to check the baseline by: --baseline-any
    tt-plot pareto --baseline-any --baseline base.tsv --script f.gp -o f.png sw.tsv ||
        fail "pareto, a baseline"
    expect_exit 0 tt-plot pareto --baseline-any --baseline - --script p.gp -o p.png sw.tsv <base.tsv
    # the same script but for the figure's name and the baseline's ("stdin")
    cmp -s <(sed "s/'p.png'/'f.png'/; s/baseline: stdin/baseline: base.tsv/" p.gp) f.gp ||
        fail "tt-plot pareto: a baseline from stdin: $(diff p.gp f.gp)"
    left "tt-plot"
fi

# not a trace: the message names standard input, not the copy
echo "not HDF5" | expect_exit 1 tt-stats -
expect_err "tt-stats: cannot read '<stdin>': not an HDF5 file"
grep -q tt-stdin err.txt && fail "the copy is named: $(cat err.txt)"
expect_exit 1 tt-cat - </dev/null
expect_err "tt-cat: cannot read '<stdin>': not an HDF5 file"
left "errors"

# standard input named twice: a usage error before anything is read
expect_exit 2 tt-sim -c - --models - g.h5 </dev/null
expect_err "tt-sim: standard input ('-') named twice"
expect_exit 2 tt-sweep -c 1x2x8 --configs - - </dev/null
expect_err "tt-sweep: standard input ('-') named twice"
expect_exit 2 tt-tune -c 1x2x8 -s w0=0:1:2 --objective jct_mean --models - - </dev/null
expect_err "tt-tune: standard input ('-') named twice"
expect_exit 2 tt-merge -o m2.h5 - s0.h5 - </dev/null
expect_err "tt-merge: standard input ('-') named twice"
expect_exit 2 tt-plot cdf -o c.png - - </dev/null
expect_err "tt-plot: standard input ('-') named twice"
expect_exit 2 tt-plot pareto --baseline - -o c.png </dev/null
expect_err "tt-plot: standard input ('-') named twice"
expect_exit 2 tt-ingest -o x.h5 - - </dev/null
expect_err "tt-ingest: standard input ('-') named twice"
[ ! -e m2.h5 ] && [ ! -e x.h5 ] || fail "an output was written"
left "named twice"

# a signal while standard input is being copied removes the copy
mkfifo fifo
for sig in TERM INT; do
    tt-stats - <fifo >out.txt 2>err.txt &
    pid=$!
    exec 3>fifo
    head -c 1000 g.h5 >&3
    for _ in $(seq 200); do [ -n "$(ls -A tmp)" ] && break; sleep 0.05; done
    [ -n "$(ls -A tmp)" ] || fail "SIG$sig: no copy of standard input while it is read"
    kill -"$sig" $pid
    got=0
    wait $pid || got=$?
    exec 3>&-
    [ "$got" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $got; $(cat err.txt)"
    left "SIG$sig while copying standard input"
done
# and a sweep stopped by Ctrl-C (it stops between configurations and exits)
tt-gen -n 3000 -o big.h5
tt-sweep -d cpu -j 1 -c 1x2x8 -g w0=0:100000:100000 - <big.h5 >out.txt 2>err.txt &
pid=$!
sleep 1
kill -INT $pid
got=0
wait $pid || got=$?
[ "$got" = 130 ] || fail "tt-sweep on SIGINT: exit $got; $(cat err.txt)"
left "tt-sweep stopped by SIGINT"
