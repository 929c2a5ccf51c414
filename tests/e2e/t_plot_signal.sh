# tt-plot on a signal while gnuplot draws: gnuplot is stopped and nothing
# is left, neither the figure, nor a temporary file beside it, nor the
# temporary folder. The gnuplot is a fake (GNUPLOT may name any program)
# that starts the figure on its standard output (where tt-plot reads it),
# says so, then sleeps, so the signal always comes while it runs; real
# gnuplot is not needed.
mkdir tmp
export TMPDIR=$PWD/tmp
cat >slowplot <<'SH'
#!/bin/sh
for a; do s=$a; done
grep -qx "set output" "$s" && echo partial
echo $$ >started.tmp && mv started.tmp started
exec sleep 60
SH
chmod +x slowplot
# running PID: alive and not a zombie waiting for a parent to reap it
running() {
    kill -0 "$1" 2>/dev/null || return 1
    [ ! -r "/proc/$1/stat" ] || ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"
}

for sig in TERM INT; do
    rm -f started
    GNUPLOT=$PWD/slowplot tt-plot surface -o f.png "$FIX/plot/plot_sweep.tsv" >out.txt 2>err.txt &
    pid=$!
    for _ in $(seq 200); do [ -s started ] && break; sleep 0.05; done
    [ -s started ] || fail "SIG$sig: the fake gnuplot did not start: $(cat err.txt)"
    ! ls -a | grep -q 'tmp-' || fail "SIG$sig: a file beside the figure while drawing: $(ls -a)"
    [ -n "$(ls -A tmp)" ] || fail "SIG$sig: no temporary folder while drawing"
    kill -"$sig" $pid
    got=0
    wait $pid || got=$?
    want=$((128 + $(kill -l "$sig")))
    [ "$got" = "$want" ] || fail "SIG$sig: exit $got, expected $want; $(cat err.txt)"
    [ -z "$(ls -A tmp)" ] || fail "SIG$sig: temporary files left: $(ls -AR tmp)"
    ls -a | grep -q 'tmp-' && fail "SIG$sig: the figure being drawn was left: $(ls -a)"
    [ ! -e f.png ] || fail "SIG$sig: a figure was left"
    gp=$(cat started)
    for _ in $(seq 100); do running "$gp" || break; sleep 0.05; done
    if running "$gp"; then
        kill "$gp"
        fail "SIG$sig: gnuplot still runs after tt-plot died"
    fi
done
