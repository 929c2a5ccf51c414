# gavel: the older 7-field Gavel traces (Philly seed 0, one file per VC),
# checked against awk over the same files; bad input names file, line and
# field, exits 1 and leaves no output.
bad() { # bad FIXTURE MESSAGE
    expect_exit 1 tt-ingest -f gavel -o x.h5 "$FIX/ingest/gavel/$1"
    expect_err "$1:$2"
    [ ! -e x.h5 ] || fail "output left after an error in $1"
}

# own fixture: rounding (12.5 -> 13), a CPU-only drop, whole job_type strings
expect_exit 0 tt-ingest -o s.h5 "$FIX/ingest/gavel/gavel_small.trace"
expect_err "gavel: 4 rows read, 3 kept, 1 dropped (1 cpu_only)"
printf '%s\n' 'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '0	1000	4	4000						gavel_small	ResNet-50 (batch size 64)	' \
    '7	5	16	16000						gavel_small	CycleGAN	' \
    '13	250	1	1000						gavel_small	A3C	' > want.tsv
tt-cat s.h5 | cmp -s - want.tsv || fail "gavel_small: $(tt-cat s.h5 | diff - want.tsv)"
tt-cat --info s.h5 | grep -qx "duration_unit	steps" || fail "duration_unit is not steps"
tt-cat --info s.h5 | grep -qx "time_base	relative" || fail "time_base is not relative"
tt-cat s.h5 | tt-ingest -q -f csv -o r.h5 - || fail "csv read-back failed"
tt-cat r.h5 | cmp -s - want.tsv || fail "csv round trip of gavel_small differs"
# stdin has no file name, so no VC
tt-ingest -q -f gavel -o i.h5 - < "$FIX/ingest/gavel/gavel_small.trace"
[ "$(tt-cat -H -c vc i.h5 | sort -u)" = "" ] || fail "stdin gave a VC"

bad gavel_newer.trace "2: 10 tab-separated fields: this is the newer 10-field Gavel trace; -f gavel reads the older 7-field one"
bad gavel_short_row.trace "2: expected 7 tab-separated fields"
bad gavel_bad_number.trace "2: field 'total_steps': expected a number, got 'many'"
bad gavel_negative.trace "2: field 'arrival_time': negative value '-5.000000'"
bad gavel_negative_gpus.trace "2: field 'scale_factor': negative value '-2'"
bad gavel_bad_time.trace "2: field 'arrival_time': expected a number, got '2019-10-03 00:00:00'"
bad gavel_header.trace "1: field 'needs_data_dir': expected 0 or 1, got 'needs_data_dir'"
# auto picks gavel for the 10-field layout too, to say what it is
expect_exit 1 tt-ingest -o x.h5 "$FIX/ingest/gavel/gavel_newer.trace"
expect_err "newer 10-field Gavel trace"
: > empty.trace
expect_exit 1 tt-ingest -f gavel -o x.h5 empty.trace
expect_err "empty.trace:1: empty input"
head -c 3000 /bin/sh > garbage.trace
expect_exit 1 tt-ingest -f gavel -o x.h5 garbage.trace
expect_err "garbage.trace:1: binary data"
[ ! -e x.h5 ] || fail "output left after an error"

G="$TRACES/philly/gavel_msr_seed0"
[ -r "$G/6214e9.trace" ] || skip "no shared Gavel traces"
expect_exit 0 tt-ingest -o g.h5 "$G"/*.trace
expect_err "gavel: 15264 rows read, 15264 kept, 0 dropped"
[ "$(tt-cat -H -c gpus g.h5 | wc -l)" = 15264 ] || fail "job count"
# per VC (= file stem): rows, sum of scale_factor, total_steps, arrival_time
want=$(for f in "$G"/*.trace; do
    awk -F'\t' -v vc="$(basename "$f" .trace)" \
        '{n++; g += $7; s += $5; a += $6} END {printf "%s %d %d %.0f %.0f\n", vc, n, g, s, a}' "$f"
done | sort)
got=$(tt-cat -H -c vc,gpus,duration,submit g.h5 | awk -F'\t' \
    '{n[$1]++; g[$1] += $2; s[$1] += $3; a[$1] += $4}
     END {for (v in n) printf "%s %d %d %.0f %.0f\n", v, n[v], g[v], s[v], a[v]}' | sort)
[ "$want" = "$got" ] || fail "per-VC sums differ: $(diff <(echo "$want") <(echo "$got") | head -5)"
[ "$(echo "$got" | wc -l)" = 15 ] || fail "VC count"
# job_type is the model, whole
[ "$(tt-cat -H -c model g.h5 | sort -u)" = "$(cut -f1 "$G"/*.trace | sort -u)" ] || fail "models"
tt-cat --info g.h5 | grep -qx "duration_unit	steps" || fail "duration_unit"
# auto-detected from one file
expect_exit 0 tt-ingest -o one.h5 "$G/6214e9.trace"
expect_err "gavel: 2000 rows read, 2000 kept"
# tt-cat's TSV reads back unchanged
tt-cat g.h5 > g.tsv
tt-ingest -q -f csv -o g2.h5 - < g.tsv
tt-cat g2.h5 | cmp -s - g.tsv || fail "csv round trip of the Gavel trace differs"
