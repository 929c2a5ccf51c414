# philly-json: the raw Philly job log through the real tools: the README
# example, the quirks fixture (drops by reason), JSON Lines on stdin and
# compressed, bad input naming file and line with no output, and a large
# generated log checked against an independent Python reading of it.
expect_exit 0 tt-ingest -o q.h5 "$FIX/ingest/philly_json/philly_json_quirks.json"
expect_err "philly-json: 8 rows read, 2 kept, 6 dropped (1 cpu_only, 1 not_started, 1 not_finished, 1 no_attempts, 1 missing_time, 1 end_before_start)"
expect_err "1 local times fell in a DST fall-back hour"
# times are UTC epoch seconds worked out with Python zoneinfo (America/Los_Angeles)
want=$(printf '%s\n' \
    'submit	duration	gpus	nodes	name	vc	status' \
    '1509870600	90001	16	2	job_multinode	103959	Pass' \
    '1512115199	600	2	1	job_ésc/aped 😀		Pass')
got=$(tt-cat -c submit,duration,gpus,nodes,name,vc,status q.h5)
[ "$got" = "$want" ] || fail "quirks fixture: $got"

# JSON Lines: plain, on stdin, gzip- and xz-compressed give the same jobs
expect_exit 0 tt-ingest -q -o l.h5 "$FIX/ingest/philly_json/philly_json_lines.jsonl"
tt-cat l.h5 > l.tsv
[ "$(wc -l < l.tsv)" = 3 ] || fail "JSON Lines: $(cat l.tsv)"
expect_exit 0 tt-ingest -q -o s.h5 - < "$FIX/ingest/philly_json/philly_json_lines.jsonl"
tt-cat s.h5 | cmp -s - l.tsv || fail "stdin differs"
gzip -c "$FIX/ingest/philly_json/philly_json_lines.jsonl" > l.jsonl.gz
expect_exit 0 tt-ingest -q -o g.h5 l.jsonl.gz
tt-cat g.h5 | cmp -s - l.tsv || fail "gzip differs"
if command -v xz > /dev/null; then
    xz -c "$FIX/ingest/philly_json/philly_json_lines.jsonl" > l.jsonl.xz
    expect_exit 0 tt-ingest -q -o x.h5 l.jsonl.xz
    tt-cat x.h5 | cmp -s - l.tsv || fail "xz differs"
fi

# bad input: FILE:LINE: reason, exit 1, no output file
while IFS='|' read -r fx code msg; do
    expect_exit "$code" tt-ingest -o bad.h5 "$FIX/ingest/philly_json/$fx"
    expect_err "$FIX/ingest/philly_json/$fx$msg"
    [ ! -e bad.h5 ] || fail "$fx: output file written"
done <<'CASES'
philly_json_truncated.json|1|:23: malformed JSON: unexpected end of input
philly_json_trailing.json|1|:50: malformed JSON: data after the end of the top-level array
philly_json_wrongtype.json|1|:5: field 'attempts[0].detail[0].gpus': expected an array, got a string
philly_json_empty_array.json|1|: no job rows
CASES
printf '[{"jobid": "a",\n "submitted_time": "2017-10-07 25:00:00", "attempts": []}]\n' > badtime.json
expect_exit 1 tt-ingest -o bad.h5 badtime.json
expect_err "badtime.json:2: field 'submitted_time': cannot parse time '2017-10-07 25:00:00'"
[ ! -e bad.h5 ] || fail "output file written"
[ -z "$(ls -A | grep -e '\.tmp-')" ] || fail "temporary files left: $(ls -A)"

ex="$TRACES/philly/readme_examples/cluster_job_log.example.json"
[ -r "$ex" ] || skip "no shared Philly README example"
expect_exit 0 tt-ingest -o e.h5 "$ex"
expect_err "philly-json: 1 rows read, 1 kept, 0 dropped"
# submitted 2017-10-07 01:11:39 PDT; 74 s + 193,182 s of attempts, as the Pollux
# CSV row 2017-10-07 01:11:39,193256.0,8,1546048.0,ee9e8c says
want=$(printf '%s\n' \
    'submit	duration	gpus	gpu_milli	start	end	nodes	name	user	vc	model	status' \
    '1507363899	193256	8	8000	1507363929	1507557192	1	application_1506638472019_14199	ce2f4c	ee9e8c		Pass')
[ "$(tt-cat e.h5)" = "$want" ] || fail "README example: $(tt-cat e.h5)"
tt-cat --info e.h5 | grep -qx "time_base	unix" || fail "time_base"
tt-cat --info e.h5 | grep -qx "timezone	America/Los_Angeles" || fail "timezone"
# the Pollux CSV has this very job: the same submit, duration and GPUs
pol="$TRACES/philly/pollux_philly.csv"
if [ -r "$pol" ]; then
    grep -qx '2017-10-07 01:11:39,193256.0,8,1546048.0,ee9e8c' "$pol" || fail "Pollux row"
    printf 'timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-07 01:11:39,193256.0,8,1546048.0,ee9e8c\n' > pol1.csv
    expect_exit 0 tt-ingest -q -o pol1.h5 pol1.csv
    [ "$(tt-cat -H -c submit,duration,gpus,vc pol1.h5)" = "$(tt-cat -H -c submit,duration,gpus,vc e.h5)" ] ||
        fail "differs from the Pollux row"
fi

# a large generated log (one JSON array, pretty-printed like the real one):
# counts and sums against an independent Python reading
command -v python3 > /dev/null || skip "no python3 for the large-log check"
python3 - <<'PY'
import json, random
from datetime import datetime, timedelta
random.seed(7)
jobs = []
base = datetime(2017, 8, 7)
for i in range(20000):
    sub = base + timedelta(seconds=random.randint(0, 130 * 86400))
    att, t = [], sub
    for k in range(random.choice([0, 1, 1, 2, 3])):
        s = t + timedelta(seconds=random.randint(1, 600))
        e = s + timedelta(seconds=random.randint(-5, 100000))
        end = e.strftime('%Y-%m-%d %H:%M:%S') if random.random() > 0.02 else random.choice([None, "None", ""])
        g = random.choice([0, 1, 1, 2, 4, 8])
        att.append({"start_time": s.strftime('%Y-%m-%d %H:%M:%S'), "end_time": end,
                    "detail": [{"ip": "m%d" % random.randint(1, 500), "gpus": ["gpu%d" % x for x in range(g)]}
                               for _ in range(random.choice([1, 1, 2]))]})
        t = e
    jobs.append({"status": random.choice(["Pass", "Killed", "Failed"]), "vc": "%06x" % random.randint(0, 15),
                 "jobid": "application_1506638472019_%d" % i, "attempts": att,
                 "submitted_time": sub.strftime('%Y-%m-%d %H:%M:%S'), "user": "%06x" % random.randint(0, 400)})
json.dump(jobs, open('big.json', 'w'), indent=4)

from zoneinfo import ZoneInfo
z = ZoneInfo('America/Los_Angeles')
def ts(s):
    return None if s in (None, "None", "") else int(datetime.strptime(s, '%Y-%m-%d %H:%M:%S').replace(tzinfo=z).timestamp())
drops, kept, dur, gpus, subsum = {}, 0, 0, 0, 0
for j in jobs:
    a = j["attempts"]
    st = [ts(x["start_time"]) for x in a]; en = [ts(x["end_time"]) for x in a]
    g = sum(len(d["gpus"]) for d in a[0]["detail"]) if a else 0
    why = ("no_attempts" if not a else "not_finished" if en[-1] is None else
           "not_started" if st[0] is None else
           "missing_time" if None in st[1:] or None in en[:-1] else
           "end_before_start" if any(e < s for s, e in zip(st, en)) else
           "cpu_only" if g == 0 else None)
    if why:
        drops[why] = drops.get(why, 0) + 1
        continue
    kept += 1; dur += sum(e - s for s, e in zip(st, en)); gpus += g; subsum += ts(j["submitted_time"])
with open('big.want', 'w') as f:
    f.write("%d %d %d %d\n" % (kept, dur, gpus, subsum))
    for k in sorted(drops):
        f.write("dropped_%s\t%d\n" % (k, drops[k]))
PY
expect_exit 0 tt-ingest -o big.h5 big.json
tt-cat -H -c duration,gpus,submit big.h5 | awk '{n++; d += $1; g += $2; s += $3} END {printf "%.0f %.0f %.0f %.0f\n", n, d, g, s}' > big.got
head -1 big.want | cmp -s - big.got || fail "large log: want $(head -1 big.want), got $(cat big.got)"
tail -n +2 big.want | while IFS="$(printf '\t')" read -r k v; do
    tt-cat --info big.h5 | grep -qx "$k	$v" || fail "large log: $k is not $v"
done
