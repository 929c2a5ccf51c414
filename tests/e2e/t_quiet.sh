# Notes on stderr and -q: tt-sim, tt-sweep and tt-size say once a run that
# jobs drew their model class from the mix (and that jobs were rejected,
# that metrics are left empty); -q leaves standard error empty on success,
# standard output the same, and errors still said.
tt-gen -n 300 -s 2 -o g.h5 # no model column: every class drawn from the mix
for cmd in "tt-sim -c 1x1x4" "tt-sweep -d cpu -j 1 -c 1x1x4 -g w0=0,600" \
    "tt-size -c 1x1x4 --nodes 1:2:2 -P k8s-fixed --target jct_mean<=100000"; do
    $cmd g.h5 >loud.txt 2>err.txt || fail "'$cmd g.h5' exited $?: $(cat err.txt)"
    [ "$(grep -c 'jobs name no model class of the table: drawn from the mix' err.txt)" = 1 ] ||
        fail "'$cmd': the mix note: $(cat err.txt)"
    $cmd -q g.h5 >quiet.txt 2>err.txt || fail "'$cmd -q g.h5' exited $?: $(cat err.txt)"
    [ ! -s err.txt ] || fail "'$cmd -q' said: $(cat err.txt)"
    cmp -s loud.txt quiet.txt || fail "'$cmd -q' printed other rows"
done
# jobs rejected (8 GPUs on 4): a note, off with -q
tt-sim -c 1x1x4 g.h5 2>&1 >/dev/null | grep -q "rejected, not simulated" || fail "no rejected note"
# errors are not notes
expect_exit 1 tt-sim -q -c 1x1x4 missing.h5
expect_err "tt-sim: cannot read 'missing.h5'"
expect_exit 2 tt-sweep -q -c 1x1x4 -g w0=x g.h5
[ -s err.txt ] || fail "tt-sweep -q: a usage error unsaid"
