# pai: PAI 2020 job + task tables joined through the real tools, in either
# order and with -f auto; bad input naming file, line and field with no
# output; the README example job alone is dropped (no task rows).
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	name	user	status' \
    '5	3602	17	16006	8	3610	9f9f9f9f9f9f9f9f9f9f9f9f	u5	Terminated' \
    '500	479	1	875	521	1000	a1a1a1a1a1a1a1a1a1a1a1a1	u2	Failed' \
    '1739100	38	1	500	1739162	1739200	4f057009a5d481acec67b088	58540f191766	Terminated')
cols=submit,duration,gpus,gpu_milli,start,end,name,user,status
expect_exit 0 tt-ingest -f pai -o a.h5 "$FIX/ingest/pai/pai_jobs.csv" "$FIX/ingest/pai/pai_tasks.csv"
expect_err "pai: 9 rows read, 3 kept, 6 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 missing_time, 1 end_before_start, 1 no_tasks)"
[ "$(tt-cat -c $cols a.h5)" = "$want" ] || fail "jobs,tasks: $(tt-cat -c $cols a.h5)"
expect_exit 0 tt-ingest -o b.h5 "$FIX/ingest/pai/pai_tasks.csv" "$FIX/ingest/pai/pai_jobs.csv"
[ "$(tt-cat -c $cols b.h5)" = "$want" ] || fail "tasks,jobs (auto): $(tt-cat -c $cols b.h5)"
tt-cat --info b.h5 | grep -qx "format	pai" || fail "format attribute"
tt-cat --info b.h5 | grep -qx "time_base	relative" || fail "time_base attribute"
# the same aggregation by awk over the task table: demand of a1a1... and 9f9f...
# (plan_gpu * inst_num * 10, rounded) and their earliest non-zero start
got=$(awk -F, '$1 ~ /^(a1a1|9f9f)/ { m[$1] += int($9 * $3 * 10 + 0.5)
                                     if ($5 + 0 != 0 && (!($1 in s) || $5 + 0 < s[$1])) s[$1] = $5 + 0 }
               END { for (k in m) printf "%s %d %d\n", k, m[k], int(s[k] + 0.5) }' "$FIX/ingest/pai/pai_tasks.csv" | sort)
want2=$(tt-cat -H -c name,gpu_milli,start b.h5 | awk -F'\t' '$1 ~ /^(a1a1|9f9f)/ { print $1, $2, $3 }' | sort)
[ "$got" = "$want2" ] || fail "awk aggregate '$got' vs '$want2'"

while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f pai -o bad.h5 "$FIX/ingest/pai/pai_jobs.csv" "$FIX/ingest/pai/$fx"
    expect_err "$FIX/ingest/pai/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
pai_bad_fields.csv|1: expected 6 fields (PAI job table) or 10 (task table), got 11
pai_short_row.csv|2: expected 6 fields, got 5
pai_bad_time.csv|2: field 'start_time': expected a time (seconds or YYYY-MM-DD HH:MM:SS), got 'yesterday'
pai_bad_plan.csv|2: field 'plan_gpu': expected a number, got 'half'
pai_negative.csv|1: field 'inst_num': negative value '-2.0'
CASES
expect_exit 2 tt-ingest -f pai -o bad.h5 "$FIX/ingest/pai/pai_tasks.csv"
expect_err "pai: no job table among the inputs"
[ ! -e bad.h5 ] || fail "output file written"

ex="$TRACES/alibaba_pai_gpu_v2020/readme_examples"
[ -r "$ex/pai_job_table.example.csv" ] || skip "no shared PAI README examples"
expect_exit 1 tt-ingest -o bad.h5 "$ex/pai_job_table.example.csv"
expect_err "no job can be simulated (1 rows: 1 no_tasks)"
expect_exit 1 tt-ingest -o bad.h5 "$ex/pai_job_table.example.csv" "$ex/pai_task_table.example.csv"
expect_err "no job can be simulated (1 rows: 1 no_tasks)"
[ ! -e bad.h5 ] || fail "output file written"
expect_exit 0 tt-ingest -o e.h5 "$ex/pai_job_table.example.csv" "$FIX/ingest/pai/pai_tasks.csv"
[ "$(tt-cat -H -c $cols e.h5)" = "4550879	526	2	2000	4550890	4551416	4b3f04b66a525d2df903eb16	58540f191766	Terminated" ] ||
    fail "README job joined: $(tt-cat -H -c $cols e.h5)"
