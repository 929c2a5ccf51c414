# tiresias: the Tiresias simulator's 60_job.csv (CRLF), every value checked
# against awk; a fixture without a final newline; bad input names file,
# line and field, exits 1 and leaves no output.
bad() { # bad FIXTURE MESSAGE
    expect_exit 1 tt-ingest -f tiresias -o x.h5 "$FIX/ingest/tiresias/$1"
    expect_err "$1:$2"
    [ ! -e x.h5 ] || fail "output left after an error in $1"
}

# CRLF, no final newline, a CPU-only drop, 127.5 rounding to 128
expect_exit 0 tt-ingest -o s.h5 "$FIX/ingest/tiresias/tiresias_small.csv"
expect_err "tiresias: 4 rows read, 3 kept, 1 dropped (1 cpu_only)"
printf '%s\n' '0	164	1	0	vgg19' '53	128	2	2	inception4' '79	121	4	3	resnet50' > want.tsv
tt-cat -H -c submit,duration,gpus,name,model s.h5 | cmp -s - want.tsv ||
    fail "tiresias_small: $(tt-cat -H -c submit,duration,gpus,name,model s.h5 | diff - want.tsv)"
tt-cat s.h5 > s.tsv
tt-ingest -q -f csv -o r.h5 - < s.tsv
tt-cat r.h5 | cmp -s - s.tsv || fail "csv round trip of tiresias_small differs"

bad tiresias_bad_gpus.csv "3: field 'num_gpu': expected a number, got 'x8'"
bad tiresias_negative.csv "3: field 'duration': negative value '-147'"
bad tiresias_bad_time.csv "3: field 'submit_time': expected a number, got '2017-10-03 00:00'"
bad tiresias_short_row.csv "3: expected 7 fields, got 6"
bad tiresias_no_model.csv "1: header has no column 'model_name'"
bad tiresias_header_only.csv "1: header only: no job rows"
: > empty.csv
expect_exit 1 tt-ingest -f tiresias -o x.h5 empty.csv
expect_err "empty.csv:1: empty input"
head -c 3000 /bin/sh > garbage.csv
expect_exit 1 tt-ingest -f tiresias -o x.h5 garbage.csv
expect_err "garbage.csv:1: binary data"
[ ! -e x.h5 ] || fail "output left after an error"

J="$TRACES/philly/simulator_shipped/tiresias/60_job.csv"
[ -r "$J" ] || skip "no shared Tiresias 60_job.csv"
grep -q $'\r$' "$J" || fail "the shared file was expected to have CRLF line ends"
expect_exit 0 tt-ingest -o t.h5 "$J"
expect_err "tiresias: 60 rows read, 60 kept, 0 dropped"
# submit, duration, gpus, name, model of every job, sorted by submit
tr -d '\r' < "$J" | awk -F, 'NR > 1 {printf "%s\t%s\t%s\t%s\t%s\n", $3, $6, $2, $1, $5}' |
    sort -s -n -k1,1 > want60.tsv
[ "$(wc -l < want60.tsv)" = 60 ] || fail "awk saw $(wc -l < want60.tsv) rows"
tt-cat -H -c submit,duration,gpus,name,model t.h5 | cmp -s - want60.tsv ||
    fail "60_job values: $(tt-cat -H -c submit,duration,gpus,name,model t.h5 | diff - want60.tsv | head -5)"
tt-cat --info t.h5 | grep -qx "format	tiresias" || fail "format attribute"
tt-cat --info t.h5 | grep -qx "time_base	relative" || fail "time_base"
tt-cat t.h5 > t.tsv
tt-ingest -q -f csv -o t2.h5 - < t.tsv
tt-cat t2.h5 | cmp -s - t.tsv || fail "csv round trip of 60_job differs"
