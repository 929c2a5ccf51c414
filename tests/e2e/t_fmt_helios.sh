# helios: bad input fails naming file, line and field with no output; the
# drop rules on a CRLF fixture; the README's 3 example jobs through
# tt-ingest (format told from the header) and tt-cat. Epoch seconds below
# were computed apart from tracetune (Python datetime, +08:00).
while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f helios -o bad.h5 "$FIX/ingest/helios/$fx"
    expect_err "$FIX/ingest/helios/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
helios_bad_fields.csv|3: expected 12 fields, got 11
helios_bad_number.csv|3: field 'gpu_num': expected a number, got 'two'
helios_negative.csv|3: field 'duration': negative value '-60'
helios_bad_time.csv|3: field 'end_time': expected a time
helios_no_column.csv|1: header has no column 'state'
helios_empty.csv|1: empty input: no header line
helios_header_only.csv|1: header only: no job rows
CASES
[ "$(ls -A)" = "$(printf 'err.txt\nout.txt')" ] || fail "left-over files: $(ls -A)"

expect_exit 0 tt-ingest -o d.h5 "$FIX/ingest/helios/helios_drops.csv"
expect_err "helios: 6 rows read, 2 kept, 4 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 end_before_start)"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '1590940800	60	2	2000	1590940810	1590940870	1	1	u1	vc1		COMPLETED' \
    '1590940805	86400	16	16000	1590940805	1591027205	2	6	u3	vc2		TIMEOUT')
[ "$(tt-cat d.h5)" = "$want" ] || fail "drops fixture: $(tt-cat d.h5)"

ex="$TRACES/helios/readme_examples/cluster_log.example.csv"
[ -r "$ex" ] || skip "no shared Helios example"
expect_exit 0 tt-ingest -o h.h5 "$ex"
expect_err "helios: 3 rows read, 3 kept, 0 dropped"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '1591699261	36848	1	1000	1591699261	1591736109	1	1425511	uXBbc	vcJkd		COMPLETED' \
    '1591699287	249	4	4000	1591699287	1591699536	1	1425512	uVMrF	vchbv		FAILED' \
    '1591699288	675233	1	1000	1591699288	1592374521	1	1425513	uzqls	vcpDC		CANCELLED')
[ "$(tt-cat h.h5)" = "$want" ] || fail "example jobs: $(tt-cat h.h5)"
tt-cat --info h.h5 | grep -qx "format	helios" || fail "format attribute"
tt-cat --info h.h5 | grep -qx "time_base	unix" || fail "time_base attribute"
tt-cat --info h.h5 | grep -qx "timezone	Asia/Shanghai" || fail "timezone attribute"
# naive times follow --tz: UTC reads every time 8 h (28,800 s) later
expect_exit 0 tt-ingest --tz UTC -o u.h5 "$ex"
[ "$(tt-cat -H -c submit u.h5 | head -1)" = $((1591699261 + 28800)) ] || fail "--tz UTC"
