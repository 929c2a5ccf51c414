# swf: Standard Workload Format through the real tools; values checked
# against an awk reading of the same file; bad input with no output.
expect_exit 0 tt-ingest -o s.h5 "$FIX/ingest/swf/swf_small.swf"
expect_err "swf: 7 rows read, 4 kept, 3 dropped (1 cpu_only, 1 not_started, 1 missing_time)"
# awk: skip ';' lines (taking UnixStartTime), drop run -1 / submit -1 / no processors,
# processors = allocated if > 0 else requested
want=$(awk '/^[ \t]*;/ { if (match($0, /UnixStartTime: *[0-9]+/)) { b = substr($0, RSTART + 15, RLENGTH - 15) + 0 }; next }
            $4 == -1 || $2 == -1 { next }
            { p = $5 > 0 ? $5 : $8; if (p <= 0) next
              st = $3 == -1 ? "" : $2 + $3 + b; en = $3 == -1 ? "" : st + $4
              u = $12 == -1 ? "" : $12; q = $15 == -1 ? "" : $15
              printf "%.0f\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", $2 + b, $4, p, st, en, $1, u, q, $11 }' \
        "$FIX/ingest/swf/swf_small.swf" | sort -n)
got=$(tt-cat -H -c submit,duration,gpus,start,end,name,user,vc,status s.h5)
[ "$got" = "$want" ] || fail "swf_small: got
$got
want
$want"
[ "$(echo "$got" | wc -l)" = 4 ] || fail "row count"

expect_exit 0 tt-ingest -f swf -o r.h5 "$FIX/ingest/swf/swf_relative.swf"
tt-cat --info r.h5 | grep -qx "time_base	relative" || fail "time_base"
[ "$(tt-cat -H -c submit,start,end,gpus r.h5)" = "$(printf '50\t\t\t1\n100\t120\t420\t8')" ] ||
    fail "swf_relative: $(tt-cat -H -c submit,start,end,gpus r.h5)"

while IFS='|' read -r fx msg; do
    expect_exit 1 tt-ingest -f swf -o bad.h5 "$FIX/ingest/swf/$fx"
    expect_err "$FIX/ingest/swf/$fx:$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
swf_bad_fields.swf|1: expected 18 whitespace-separated fields, got 17
swf_bad_number.swf|2: field 'requested_time': expected a number, got '2h'
swf_negative.swf|1: field 'wait_time': negative value '-5' (only -1, missing, is allowed)
swf_late_header.swf|2: UnixStartTime header after the first job
CASES
expect_exit 1 tt-ingest -f swf -o bad.h5 "$FIX/ingest/swf/swf_small.swf" "$FIX/ingest/swf/swf_relative.swf"
expect_err "cannot mix absolute and relative times"
[ ! -e bad.h5 ] || fail "output file written"
