# pai-sim: bad input fails naming file, line and field with no output; the
# drop rules; the 133-job head of the PAI 2020 simulator trace, with its
# counts and totals computed here by awk from the source file.
while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f pai-sim -o bad.h5 "$FIX/ingest/pai_sim/$fx"
    expect_err "$FIX/ingest/pai_sim/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
pai_sim_bad_fields.csv|3: expected 14 fields, got 13
pai_sim_bad_number.csv|3: field 'duration': expected a number, got 'sixty'
pai_sim_negative.csv|3: field 'num_gpu': negative value '-1.0'
pai_sim_bad_time.csv|3: field 'submit_time': expected a time
pai_sim_no_column.csv|1: header has no column 'num_gpu'
pai_sim_empty.csv|1: empty input: no header line
pai_sim_header_only.csv|1: header only: no job rows
CASES
[ "$(ls -A)" = "$(printf 'err.txt\nout.txt')" ] || fail "left-over files: $(ls -A)"

expect_exit 0 tt-ingest -o d.h5 "$FIX/ingest/pai_sim/pai_sim_drops.csv"
expect_err "pai-sim: 5 rows read, 3 kept, 2 dropped (1 cpu_only, 1 missing_time)"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '0	60	1	1000	10	70		0	u1			' \
    '3	100	1	250	7	107		3	u2			' \
    '4	1000	3	2500				4	u3			')
[ "$(tt-cat d.h5)" = "$want" ] || fail "drops fixture: $(tt-cat d.h5)"

src="$TRACES/alibaba_pai_gpu_v2020/simulator_trace_head/pai_job_duration_estimate_100K.head133.csv"
[ -r "$src" ] || skip "no shared PAI simulator head"
expect_exit 0 tt-ingest -o p.h5 "$src"
# rows, CPU-only rows, kept rows, sum of num_gpu*1000, of durations and of
# whole GPUs (num_gpu rounded up) over the kept rows
read -r rows cpu kept milli dur gpus <<EOT
$(awk -F, 'NR > 1 { n++; if ($3 + 0 == 0) { c++; next }
                    m = int($3 * 1000 + 0.5); k++; sm += m; sd += $6; sg += int((m + 999) / 1000) }
           END { print n, c, k, sm, sd, sg }' "$src")
EOT
[ "$rows" = 133 ] || fail "awk read $rows rows"
expect_err "pai-sim: $rows rows read, $kept kept, $cpu dropped ($cpu cpu_only)"
got=$(tt-cat -H -c gpu_milli,duration,gpus p.h5 |
      awk -F'\t' '{ n++; m += $1; d += $2; g += $3 } END { print n, m, d, g }')
[ "$got" = "$kept $milli $dur $gpus" ] || fail "totals: got $got, want $kept $milli $dur $gpus"
tt-cat --info p.h5 | grep -qx "time_base	relative" || fail "time_base attribute"
# job 74: num_gpu 2.5, submit 783, wait 9, duration 5794
[ "$(tt-cat -H -c name,submit,start,end,gpus,gpu_milli p.h5 | awk -F'\t' '$1 == 74')" = \
  "$(printf '74\t783\t792\t6586\t3\t2500')" ] || fail "job 74"
