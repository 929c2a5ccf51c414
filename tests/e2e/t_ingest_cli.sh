# tt-ingest / tt-cat as a user meets them: help, usage errors, bad input
# with file:line:field messages, atomic output, compression and stdin.
P="$TRACES/philly/pollux_philly.csv"
expect_exit 0 tt-ingest -h
grep -q "usage: tt-ingest" out.txt || fail "-h prints usage on stdout"
expect_exit 2 tt-ingest
expect_err "usage: tt-ingest"
expect_exit 2 tt-ingest -o x.h5
expect_err "no input file"
expect_exit 2 tt-ingest -f nosuch -o x.h5 "$FIX/ingest/philly_csv/philly_csv_bad_gpus.csv"
expect_err "unknown format 'nosuch'"
expect_exit 2 tt-ingest --bogus
expect_exit 0 tt-ingest --version
grep -q "tracetune" out.txt || fail "--version"

# malformed rows: FILE:LINE: field, exit 1, no output, no temp file left
expect_exit 1 tt-ingest -f philly-csv -o x.h5 "$FIX/ingest/philly_csv/philly_csv_bad_gpus.csv"
expect_err "philly_csv_bad_gpus.csv:3: field 'num_gpus': expected a number, got 'abc'"
[ ! -e x.h5 ] || fail "output left after an error"
[ -z "$(ls -A)" ] || [ "$(ls -A | grep -v -e out.txt -e err.txt)" = "" ] || fail "stray files: $(ls -A)"
expect_exit 1 tt-ingest -o x.h5 "$FIX/ingest/philly_csv/philly_csv_negative.csv"
expect_err "philly_csv_negative.csv:3: field 'duration': negative value '-5'"
expect_exit 1 tt-ingest -o x.h5 "$FIX/ingest/philly_csv/philly_csv_bad_time.csv"
expect_err "philly_csv_bad_time.csv:3: field 'timestamp': cannot parse time '2017-13-09 06:13:03'"
expect_exit 1 tt-ingest -o x.h5 "$FIX/ingest/philly_csv/philly_csv_short_row.csv"
expect_err "philly_csv_short_row.csv:2: expected 5 fields, got 4"
: > empty.csv
expect_exit 1 tt-ingest -o x.h5 empty.csv
expect_err "empty.csv:1: empty input"
head -c 3000 /bin/sh > garbage.csv
expect_exit 1 tt-ingest -f philly-csv -o x.h5 garbage.csv
expect_err "garbage.csv:1: binary data"
expect_exit 1 tt-ingest -o x.h5 /nonexistent/trace.csv
expect_err "cannot open '/nonexistent/trace.csv'"
expect_exit 2 tt-ingest --tz Mars/Base -o x.h5 "$FIX/ingest/philly_csv/philly_csv_bad_gpus.csv"
expect_err "unknown time zone 'Mars/Base'"
[ ! -e x.h5 ] || fail "output left after an error"

[ -r "$P" ] || skip "no shared Philly CSV (the rest needs it)"
# an existing output survives a failed run untouched
expect_exit 0 tt-ingest -q -o keep.h5 "$P"
before=$(sha256sum keep.h5)
expect_exit 1 tt-ingest -q -o keep.h5 "$FIX/ingest/philly_csv/philly_csv_bad_gpus.csv"
[ "$(sha256sum keep.h5)" = "$before" ] || fail "failed run changed an existing output"
cp "$P" in.csv
expect_exit 1 tt-ingest -o in.csv in.csv
expect_err "output 'in.csv' is also the input 'in.csv': refusing to overwrite it"
cmp -s in.csv "$P" || fail "input was touched"

# inputs are read one at a time: 200 files under a limit of 64 descriptors
mkdir many
for i in $(seq 1 200); do printf 'submit,duration,gpus\n%d,10,1\n' "$i" > "many/$i.csv"; done
expect_exit 0 sh -c 'ulimit -n 64 && exec tt-ingest -o many.h5 many/*.csv'
expect_err "csv: 200 rows read, 200 kept"
[ "$(tt-cat --info many.h5 | grep -c '^source_sha256')" = 200 ] || fail "a digest per input"

# gzip, xz and stdin give the same jobs
gzip -c "$P" > p.csv.gz
xz -c "$P" > p.csv.xz
tt-ingest -q -o a.h5 "$P"
tt-ingest -q -o b.h5 p.csv.gz
tt-ingest -q -f philly-csv -o c.h5 - < p.csv.xz
tt-ingest -q -o d.h5 - < "$P"
tt-cat a.h5 > a.tsv
for f in b c d; do tt-cat $f.h5 | cmp -s - a.tsv || fail "$f differs from plain"; done
tt-cat --info b.h5 | grep -qx "source_sha256	$(sha256sum p.csv.gz | cut -d' ' -f1)" || fail "sha256 of compressed input"
tt-cat --info d.h5 | grep -qx "source_files	<stdin>" || fail "stdin label"

# tt-cat
expect_exit 2 tt-cat -c submit,nosuch a.h5
expect_err "unknown column 'nosuch'"
expect_exit 1 tt-cat in.csv
expect_err "not an HDF5 file"
expect_exit 1 tt-cat missing.h5
expect_err "cannot read 'missing.h5'"
[ "$(tt-cat -c gpus,vc a.h5 | head -2 | tail -1)" = "8	7f04ca" ] || fail "first job by submit time"
# a closed pipe is not an error worth a message: tt-cat dies of SIGPIPE, or
# where SIGPIPE is ignored gets EPIPE and exits 1, silent either way (a.tsv
# is far more than a pipe holds, so the pipe closes while tt-cat writes)
[ "$(wc -c < a.tsv)" -gt 1000000 ] || fail "a.tsv is too small to fill a pipe"
for ignored in no yes; do
    ( [ $ignored = no ] || trap '' PIPE
      { tt-cat a.h5 2>cat.err && echo 0 >cat.rc || echo $? >cat.rc; } | head -1 >/dev/null )
    case $ignored:$(cat cat.rc) in
    no:141 | no:1 | yes:1) ;; # an environment may ignore SIGPIPE already
    *) fail "tt-cat into a closed pipe (SIGPIPE ignored: $ignored) exited $(cat cat.rc)" ;;
    esac
    [ ! -s cat.err ] || fail "tt-cat into a closed pipe says: $(cat cat.err)"
done
if command -v h5dump >/dev/null; then
    h5dump -d /jobs/gpus -c 3 a.h5 | grep -q "DATASET \"/jobs/gpus\"" || fail "h5dump cannot read it"
fi
