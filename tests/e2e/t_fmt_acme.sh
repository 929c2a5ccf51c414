# acme: bad input (naive times included) fails naming file, line and field
# with no output; the drop rules; both README example files (Seren +08:00,
# Kalos +00:00) in one call. Epoch seconds were computed apart from
# tracetune (Python datetime.fromisoformat).
while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f acme -o bad.h5 "$FIX/ingest/acme/$fx"
    expect_err "$FIX/ingest/acme/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
acme_bad_fields.csv|3: expected 13 fields, got 12
acme_bad_number.csv|3: field 'duration': expected a number, got '1m'
acme_negative.csv|3: field 'gpu_num': negative value '-8'
acme_bad_time.csv|3: field 'start_time': cannot parse time '2023-02-30 00:00:10+08:00'
acme_naive_time.csv|3: field 'submit_time': time '2023-03-01 00:00:00' has no UTC offset
acme_no_column.csv|1: header has no column 'submit_time'
acme_empty.csv|1: empty input: no header line
acme_header_only.csv|1: header only: no job rows
CASES
[ "$(ls -A)" = "$(printf 'err.txt\nout.txt')" ] || fail "left-over files: $(ls -A)"
# with a zone named, naive times are read in it
expect_exit 0 tt-ingest -f acme --tz +08:00 -o n.h5 "$FIX/ingest/acme/acme_naive_time.csv"
[ "$(tt-cat -H -c submit n.h5 | tr '\n' ' ')" = "1677600000 1677600000 " ] || fail "--tz +08:00"

expect_exit 0 tt-ingest -o d.h5 "$FIX/ingest/acme/acme_drops.csv"
expect_err "acme: 6 rows read, 2 kept, 4 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 end_before_start)"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '1677600000	60	8	8000	1677600010	1677600070	1	1	u1			COMPLETED' \
    '1677600005	86400	16	16000	1677600005	1677686405	2	6	u3			COMPLETED')
[ "$(tt-cat d.h5)" = "$want" ] || fail "drops fixture: $(tt-cat d.h5)"

dir="$TRACES/acme/readme_examples"
[ -r "$dir/trace_seren.example.csv" ] && [ -r "$dir/trace_kalos.example.csv" ] ||
    skip "no shared Acme examples"
expect_exit 0 tt-ingest -f acme -o a.h5 "$dir/trace_kalos.example.csv" "$dir/trace_seren.example.csv"
expect_err "acme: 4 rows read, 4 kept, 0 dropped"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '1677601102	117	8	8000	1677601134	1677601251	1	5778432	u5907			FAILED' \
    '1677601438	2693	8	8000	1677601451	1677604144	1	5778469	u5907			COMPLETED' \
    '1684321258	8	64	64000	1684321268	1684321276	8	dlctk696s0jbvitv	uf794			FAILED' \
    '1684322922	70	64	64000	1684322934	1684323004	8	dlc1t2ypl09b8qtp	uf794			CANCELLED')
[ "$(tt-cat a.h5)" = "$want" ] || fail "example jobs: $(tt-cat a.h5)"
[ "$(tt-cat --info a.h5 | grep -c '^source_files	')" = 2 ] || fail "two source files"
# each file alone is told from its header
for f in seren kalos; do
    expect_exit 0 tt-ingest -o $f.h5 "$dir/trace_$f.example.csv"
    expect_err "acme: 2 rows read, 2 kept"
done
