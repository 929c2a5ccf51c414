# Values in the units people think in: times with s, m, h, d, w and
# permille values as factors or percentages give the same rows as the
# plain numbers (tt-sim, a sweep's list, class timers); load=2 warns;
# unknown names get the nearest known one; --load says -p load=.
expect_exit 0 tt-ingest -q -o ex.h5 "$FIX/../../data/example.tsv"
expect_exit 0 tt-sim -c 3x4x4 -p w0=600 -p w1=5400 -p load=2000 -p theta=1500 ex.h5
cp out.txt plain.tsv
expect_exit 0 tt-sim -c 3x4x4 -p w0=10m -p w1=1.5h -p load=2x -p theta=1.5x ex.h5
cmp -s out.txt plain.tsv || fail "units: $(diff plain.tsv out.txt)"
expect_exit 0 tt-sim -c 3x4x4 -p w0=600s -p w1=90min -p load=200% -p theta=150% ex.h5
cmp -s out.txt plain.tsv || fail "units (s, min, %): $(diff plain.tsv out.txt)"
expect_exit 0 tt-sim -c 3x4x4 -p w0=1w -p restart=1d -m w0,restart ex.h5
[ "$(sed -n 2p out.txt)" = "$(printf '604800\t86400')" ] || fail "1w, 1d: $(sed -n 2p out.txt)"
# a sweep's list and class timers
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g w0=0,600,3600 ex.h5
cp out.txt plain-sweep.tsv
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g w0=0,10m,1h ex.h5
cmp -s out.txt plain-sweep.tsv || fail "sweep list with units differs"
cls=$(awk 'NR == 2 { print $1 }' "$FIX/../../data/models.tsv")
expect_exit 0 tt-sim -c 3x4x4 -p "timers=$cls:10m:1h" -m timers ex.h5
[ "$(sed -n 2p out.txt)" = "$cls:600:3600" ] || fail "class timers with units: $(sed -n 2p out.txt)"
# errors and warnings
expect_exit 2 tt-sim -c 3x4x4 -p w0=1.5s ex.h5
expect_err "tt-sim: parameter 'w0': expected seconds >= 0 or inf, got '1.5s'"
expect_exit 2 tt-sim -c 3x4x4 -p load=2h ex.h5
expect_err "parameter 'load': expected permille"
expect_exit 0 tt-sim -c 3x4x4 -p load=2 ex.h5
expect_err "tt-sim: warning: load=2 is in permille of the trace's load: 0.2 % of it (twice the load is load=2000 or load=2x)"
expect_exit 0 tt-sweep -d cpu -c 3x4x4 -g load=1000,3 ex.h5
expect_err "warning: load=3 is in permille"
expect_exit 0 tt-sim -c 3x4x4 -p load=50 ex.h5
grep -q warning err.txt && fail "load=50 warned: $(cat err.txt)"
expect_exit 2 tt-sim -c 3x4x4 -p lod=2000 ex.h5
expect_err "tt-sim: unknown parameter 'lod', did you mean 'load'? (known: order"
expect_exit 2 tt-sweep -c 3x4x4 -g thta=1000,2000 ex.h5
expect_err "unknown parameter 'thta', did you mean 'theta'?"
expect_exit 2 tt-sim -c 3x4x4 --load 2000 ex.h5
expect_err "tt-sim: --load is not an option: parameters are set with -p, as in -p load=2000"
expect_exit 2 tt-tune -c 3x4x4 --w0=600 -s theta=1000,2000 --objective jct_mean ex.h5
expect_err "tt-tune: --w0 is not an option: parameters are set with -p, as in -p w0=600"
expect_exit 2 tt-cat -c submit,gpu ex.h5
expect_err "tt-cat: unknown column 'gpu', did you mean 'gpus'? (see tt-cat -h)"
# a tool's own option that shares a parameter's name is the option
expect_exit 0 tt-tune -c 3x4x4 --seed 2 -s w0=0,600 --objective jct_mean --budget 2 ex.h5
