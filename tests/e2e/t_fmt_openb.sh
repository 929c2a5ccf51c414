# openb: bad input fails naming file, line and field with no output; the
# drop rules; the real pod list openb_pod_list_default.csv and every other
# pod list, each checked against counts computed here by awk from the
# source file. The multigpu re-samplings carry no times and must fail
# with a clear message.
while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f openb -o bad.h5 "$FIX/ingest/openb/$fx"
    expect_err "$FIX/ingest/openb/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
openb_bad_fields.csv|3: expected 11 fields, got 10
openb_bad_number.csv|3: field 'gpu_milli': expected a number, got 'half'
openb_negative.csv|3: field 'creation_time': negative time '-5'
openb_bad_time.csv|3: field 'scheduled_time': expected a time
openb_no_column.csv|1: header has no column 'scheduled_time'
openb_empty.csv|1: empty input: no header line
openb_header_only.csv|1: header only: no job rows
CASES
[ "$(ls -A)" = "$(printf 'err.txt\nout.txt')" ] || fail "left-over files: $(ls -A)"

expect_exit 0 tt-ingest -o d.h5 "$FIX/ingest/openb/openb_drops.csv"
expect_err "openb: 6 rows read, 2 kept, 4 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 end_before_start)"
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '0	60	1	500	10	70		p0				Running' \
    '5	999	8	8000	6	1005		p5				Succeeded')
[ "$(tt-cat d.h5)" = "$want" ] || fail "drops fixture: $(tt-cat d.h5)"

dir="$TRACES/alibaba_gpu_v2023_openb/csv"
[ -r "$dir/openb_pod_list_default.csv" ] || skip "no shared openb pod lists"
# rows, then drops by reason, kept rows and the sums of gpu_milli and
# duration over kept rows, by the rules of the format, with columns found
# by name in the header
count() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; g = $c["num_gpu"]; s = $c["scheduled_time"]; e = $c["deletion_time"]
          if (g == 0) cpu++; else if (s == "") ns++; else if (e == "") nf++;
          else if (e + 0 < int(s + 0.5)) eb++;
          else { k++; m += (g == 1 ? $c["gpu_milli"] : g * 1000); d += e - int(s + 0.5) } }
        END { printf "%d %d %d %d %d %d %d %d\n", n, cpu, ns, nf, eb, k, m, d }' "$1"
}
got_counts() {
    tt-cat --info "$1" | awk -F'\t' '{ v[$1] = $2 } END { printf "%d %d %d %d %d %d ",
        v["rows_read"], v["dropped_cpu_only"], v["dropped_not_started"],
        v["dropped_not_finished"], v["dropped_end_before_start"], v["rows_kept"] }'
    tt-cat -H -c gpu_milli,duration "$1" | awk -F'\t' '{ m += $1; d += $2 } END { print m, d }'
}
want=$(count "$dir/openb_pod_list_default.csv")
# FORMATS.md: 8,152 pods, 1,088 without GPU, 897 blank scheduled_time (36 of them CPU-only)
[ "${want% * *}" = "8152 1088 861 0 0 6203" ] || fail "awk counts $want"
expect_exit 0 tt-ingest -o o.h5 "$dir/openb_pod_list_default.csv"
expect_err "openb: 8152 rows read, 6203 kept, 1949 dropped (1088 cpu_only, 861 not_started)"
[ "$(got_counts o.h5)" = "$want" ] || fail "default: got $(got_counts o.h5), want $want"
# spot checks: a GPU share, an 8-GPU pod, a start one second after creation
[ "$(tt-cat -H -c name,submit,start,end,duration,gpus,gpu_milli,status o.h5 |
     awk -F'\t' '$1 ~ /^openb-pod-(0001|0017|8151)$/')" = "$(printf '%s\n' \
    'openb-pod-0001	427061	427061	12902960	12475899	1	460	Running' \
    'openb-pod-0017	9437497	9437497	10769854	1332357	8	8000	Succeeded' \
    'openb-pod-8151	12901761	12901762	12901792	30	1	590	Failed')" ] || fail "spot checks"

n=0 untimed=0
for f in "$dir"/openb_pod_list_*.csv; do
    b=$(basename "$f")
    [ "$b" = openb_pod_list_default.csv ] && continue
    n=$((n + 1))
    if ! head -1 "$f" | grep -q scheduled_time; then
        untimed=$((untimed + 1))
        expect_exit 1 tt-ingest -o x.h5 "$f"
        expect_err "$f:1: header has no column 'creation_time': a pod list without times"
        [ ! -e x.h5 ] || fail "$b: output file written"
        continue
    fi
    expect_exit 0 tt-ingest -o x.h5 "$f"
    want=$(count "$f")
    [ "$(got_counts x.h5)" = "$want" ] || fail "$b: got $(got_counts x.h5), want $want"
    rm x.h5
done
[ $n = 23 ] && [ $untimed = 4 ] || fail "$n other pod lists, $untimed without times"
