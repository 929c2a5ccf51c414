# csv: generic CSV/TSV by header names or -m maps; drops, fractional GPUs,
# calendar times; tt-cat's TSV reads back byte-identical (own fixtures and
# the Philly CSV); bad input names file, line and field, exits 1, no output.
bad() { # bad FIXTURE MESSAGE
    expect_exit 1 tt-ingest -f csv -o x.h5 "$FIX/ingest/csv/$1"
    expect_err "$1:$2"
    [ ! -e x.h5 ] || fail "output left after an error in $1"
}
# roundtrip A.h5: tt-cat A | tt-ingest -f csv - | tt-cat gives the same bytes
roundtrip() {
    tt-cat "$1" > rt_a.tsv
    tt-ingest -q -f csv -o rt_b.h5 - < rt_a.tsv || fail "read-back of $1 failed"
    tt-cat rt_b.h5 | cmp -s - rt_a.tsv || fail "csv round trip of $1 differs"
    rm -f rt_b.h5
}

# header names, drops, calendar times with offsets, fractional GPUs
expect_exit 0 tt-ingest -o j.h5 "$FIX/ingest/csv/csv_jobs.csv"
expect_err "csv: 7 rows read, 3 kept, 4 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 end_before_start)"
t0=$(date -u -d '2020-04-01 00:00:00+08:00' +%s)
{
    printf 'submit\tduration\tgpus\tgpu_milli\tstart\tend\tnodes\tname\tuser\tvc\tmodel\tstatus\n'
    printf '%d\t30\t1\t500\t%d\t%d\t\tj2\tu2\tvcB\t\tFAILED\n' $t0 $((t0 + 5)) $((t0 + 35))
    printf '%d\t3600\t8\t8000\t%d\t%d\t\tj1\tu1\tvcA\tbert\tCOMPLETED\n' $((t0 + 10)) $((t0 + 60)) $((t0 + 3660))
    printf '%d\t600\t2\t1500\t%d\t%d\t\tj,7\tu4\tvcC\tresnet, 50\tCOMPLETED\n' $((t0 + 15)) $((t0 + 20)) $((t0 + 620))
} > want.tsv
tt-cat j.h5 | cmp -s - want.tsv || fail "csv_jobs: $(tt-cat j.h5 | diff - want.tsv)"
roundtrip j.h5

# pending jobs (blank or NaN creation time, GPUs, duration) are dropped by
# reason; gpu_request is a GPU count; the duration column wins over end -
# start, and the report says so
expect_exit 0 tt-ingest -o pend.h5 "$FIX/ingest/csv/csv_pending.csv"
expect_err "csv: 9 rows read, 3 kept, 6 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 missing_time, 2 missing_gpus)"
expect_err "tt-ingest: 1 rows give a duration other than end - start: the duration column wins"
[ "$(tt-cat -H -c name,duration,gpus pend.h5 | tr '\t\n' ', ')" = "a,50,1 g,30,2 h,60,1 " ] ||
    fail "csv_pending: $(tt-cat -H -c name,duration,gpus pend.h5)"
tt-cat --info pend.h5 | grep -qx "dropped_missing_gpus	2" || fail "missing_gpus not in the file"
tt-cat --info pend.h5 | grep -qx "duration_mismatches	1" || fail "duration_mismatches not in the file"
tt-cat --info j.h5 | grep -q "dropped_missing_gpus\|duration_mismatches" &&
    fail "counts added since trace/1 are listed only when non-zero"

# inputs of different time bases are refused, naming both
expect_exit 1 tt-ingest -o x.h5 "$FIX/ingest/csv/csv_relative.csv" "$FIX/ingest/csv/csv_jobs.csv"
expect_err "csv_jobs.csv:2: field 'submit_time': a calendar time (time base unix), but $FIX/ingest/csv/csv_relative.csv:2 has relative seconds (time base relative): one trace cannot mix time bases"
[ ! -e x.h5 ] || fail "output left after mixed time bases"

# -m names columns and wins over header names; numbers may carry blanks
expect_exit 0 tt-ingest -f csv -m submit=when,duration=len,gpus=k,user=who,vc=queue -o m.h5 "$FIX/ingest/csv/csv_mapped.tsv"
printf '50\t31\t1\tbob\tq2\t\n100\t60\t2\talice\tq1\tA3C\n' > wantm.tsv
tt-cat -H -c submit,duration,gpus,user,vc,model m.h5 | cmp -s - wantm.tsv ||
    fail "csv_mapped: $(tt-cat -H -c submit,duration,gpus,user,vc,model m.h5 | diff - wantm.tsv)"
tt-cat --info m.h5 | grep -qx "time_base	relative" || fail "numeric times give a relative time base"
roundtrip m.h5
expect_exit 1 tt-ingest -f csv -o x.h5 "$FIX/ingest/csv/csv_mapped.tsv"
expect_err "csv_mapped.tsv:1: header has no submit column"
# -m implies -f csv (auto cannot tell this header)
expect_exit 0 tt-ingest -m submit=when,duration=len,gpus=k,user=who,vc=queue -o m2.h5 "$FIX/ingest/csv/csv_mapped.tsv"
tt-cat m2.h5 | cmp -s - <(tt-cat m.h5) || fail "-m without -f csv reads differently"
expect_exit 2 tt-ingest -f csv -m submit=when,colour=k -o x.h5 "$FIX/ingest/csv/csv_mapped.tsv"
expect_err "-m: unknown key 'colour' (keys: submit duration gpus start end name user vc model status nodes gpu_milli elastic gpus_min gpus_max wf deps mid mem_mb out_mb)"
expect_exit 1 tt-ingest -f csv -m submit=nosuch,duration=len,gpus=k -o x.h5 "$FIX/ingest/csv/csv_mapped.tsv"
expect_err "csv_mapped.tsv:1: -m: no column 'nosuch' in the header"
expect_exit 2 tt-ingest -f tiresias -m submit=when -o x.h5 "$FIX/ingest/csv/csv_mapped.tsv"
expect_err "-m (column map) applies to -f csv only"
[ ! -e x.h5 ] || fail "output left after an error"

# a tt-cat TSV with every column reads back to the same bytes
expect_exit 0 tt-ingest -o v.h5 "$FIX/ingest/csv/csv_roundtrip.tsv"
expect_err "csv: 4 rows read, 4 kept"
tt-cat v.h5 | cmp -s - "$FIX/ingest/csv/csv_roundtrip.tsv" || fail "csv_roundtrip: $(tt-cat v.h5 | diff - "$FIX/ingest/csv/csv_roundtrip.tsv")"
# and so do traces of the other formats
tt-ingest -q -o g.h5 "$FIX/ingest/gavel/gavel_small.trace" && roundtrip g.h5
tt-ingest -q -o t.h5 "$FIX/ingest/tiresias/tiresias_small.csv" && roundtrip t.h5

bad csv_bad_gpus.csv "3: field 'gpus': expected a number, got 'two'"
bad csv_negative.csv "3: field 'duration': negative value '-20'"
bad csv_bad_time.csv "3: field 'submit': cannot parse time '2020-13-01 00:00:00'"
bad csv_short_row.csv "3: expected 3 fields, got 2"
bad csv_no_gpus.csv "1: header has no gpus column"
bad csv_no_duration.csv "1: header has no duration column"
bad csv_header_only.csv "1: header only: no job rows"
bad csv_dup_header.csv "1: header names column 'duration' twice (columns 2 and 4)"
bad csv_huge.csv "3: field 'submit': submit 9223372036854775807 is out of range (-2^40 .. 2^40 s)"
bad csv_before_1970.csv "2: field 'submit': time '1969-12-31 23:58:20' is before 1970-01-01 00:00 UTC"
: > empty.csv
expect_exit 1 tt-ingest -f csv -o x.h5 empty.csv
expect_err "empty.csv:1: empty input"
head -c 3000 /bin/sh > garbage.csv
expect_exit 1 tt-ingest -f csv -o x.h5 garbage.csv
expect_err "garbage.csv:1: binary data"
[ ! -e x.h5 ] || fail "output left after an error"

P="$TRACES/philly/pollux_philly.csv"
[ -r "$P" ] || skip "no shared Philly CSV"
expect_exit 0 tt-ingest -q -o p.h5 "$P"
tt-cat p.h5 > p.tsv
# through a pipe, as documented
tt-cat p.h5 | tt-ingest -f csv -o q.h5 - 2> err.txt || fail "read-back: $(cat err.txt)"
grep -qF "csv: 82247 rows read, 82247 kept, 0 dropped; 65 duplicate rows kept" err.txt ||
    fail "report: $(cat err.txt)"
tt-cat q.h5 | cmp -s - p.tsv || fail "csv round trip of the Philly CSV differs"
# tt-cat's header is recognised without -f
expect_exit 0 tt-ingest -o r.h5 p.tsv
expect_err "csv: 82247 rows read"
