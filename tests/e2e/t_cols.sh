# The optional trace columns (SPEC 10.6, 12.7) through the tools: csv ->
# tt-ingest -> tt-cat (and back) -> tt-stats -> tt-sim, where the elastic
# column decides what the el_frac hash would; the batch_task format; tt-gen's
# columns; bad values fail naming file, line and field, with no output.
printf 'name\tslow_l1\tslow_l2\tscale\nlin\t1000\t1000\t1000,2000,4000,8000\n' > lin.tsv
# SPEC 10.10's scenario B: j2 elastic ends at 560, at its fixed size at 700
cat > b.csv <<'CSV'
name,submit,duration,gpus,model,elastic,gpus_min,gpus_max,wf,deps,mid,mem_mb,out_mb
j0,0,600,4,lin,0,-1,-1,-1,,-1,-1,0
j1,0,300,2,lin,0,-1,-1,-1,,-1,-1,0
j2,0,400,4,lin,1,-1,-1,-1,,-1,-1,0
CSV
expect_exit 0 tt-ingest -o b.h5 b.csv
tt-cat -c name,elastic,gpus_min,wf,deps,out_mb b.h5 > cat.tsv
printf 'name\telastic\tgpus_min\twf\tdeps\tout_mb\nj0\t0\t-1\t-1\t\t0\nj1\t0\t-1\t-1\t\t0\nj2\t1\t-1\t-1\t\t0\n' |
    diff - cat.tsv || fail "tt-cat of the columns"
# what tt-cat prints reads back as the same trace
tt-cat b.h5 | tt-ingest -q -f csv -o b2.h5 -
[ "$(tt-cat b2.h5)" = "$(tt-cat b.h5)" ] || fail "tt-cat | tt-ingest changed the trace"
# a trace without them prints none
printf 'submit,duration,gpus\n0,10,1\n' > plain.csv
tt-ingest -q -o plain.h5 plain.csv
[ "$(tt-cat plain.h5 | head -1)" = "$(printf 'submit\tduration\tgpus\tgpu_milli\tstart\tend\tnodes\tname\tuser\tvc\tmodel\tstatus')" ] ||
    fail "a plain trace's header: $(tt-cat plain.h5 | head -1)"
expect_exit 1 tt-cat -c wf plain.h5
expect_err "the trace has no column 'wf'"
! tt-stats plain.h5 | grep -q elastic_jobs || fail "tt-stats counts a column that is not there"
tt-stats b.h5 | grep -qx "elastic_jobs	1" || fail "tt-stats elastic_jobs: $(tt-stats b.h5)"
tt-stats b.h5 | grep -qx "workflows	0" || fail "tt-stats workflows"

# tt-sim: the column, and the hash where the trace has none
# j2's end, as the makespan: 600 (j0's end) when j2 ends at 560, else 700
end2() {
    tt-sim -c 1x2x4 --models lin.tsv -p el_down=1 -p resize_gap=0 "$@" |
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    { m = $c["makespan"]; print m == 600 ? 560 : m }'
}
[ "$(end2 -p el_frac=0 b.h5)" = 560 ] || fail "the column's elastic job: $(end2 -p el_frac=0 b.h5)"
cut -d, -f1-5 b.csv > nocol.csv
tt-ingest -q -o nocol.h5 nocol.csv
[ "$(end2 -p el_frac=1000 nocol.h5)" = 560 ] || fail "hashed elastic"
[ "$(end2 -p el_frac=0 nocol.h5)" = 700 ] || fail "hashed fixed"
sed 's/^j2,0,400,4,lin,1/j2,0,400,4,lin,0/' b.csv > fixed.csv
tt-ingest -q -o fixed.h5 fixed.csv
[ "$(end2 -p el_frac=1000 fixed.h5)" = 700 ] || fail "the column's 0 wins over el_frac"

# bad values and unknown parents: file, line, field; no output
printf 'name,submit,duration,gpus,elastic\na,0,1,1,3\n' > bad.csv
expect_exit 1 tt-ingest -o bad.h5 bad.csv
expect_err "bad.csv:2: field 'elastic': '3' is out of range (-1, 0 or 1)"
printf 'name,submit,duration,gpus,deps\na,0,1,1,\nb,1,1,1,a;nobody\n' > orphan.csv
expect_exit 1 tt-ingest -o bad.h5 orphan.csv
expect_err "orphan.csv:3: field 'deps': no job is named 'nobody'"
[ ! -e bad.h5 ] || fail "output written for a bad input"

# Alibaba cluster-trace-v2018 batch_task: workflows from task names
expect_exit 0 tt-ingest -o ali.h5 "$FIX/ingest/alibaba2018/batch_task.csv"
expect_err "alibaba2018: 10 rows read, 9 kept, 1 dropped (1 not_finished)"
tt-cat -c name,wf,deps ali.h5 | grep -qx "j_2/J3_1_2	1	j_2/M1;j_2/M2" || fail "batch_task deps"
tt-cat --info ali.h5 | grep -q "CPU tasks read as jobs of 1 GPU" || fail "batch_task notes"
tt-stats ali.h5 | grep -qx "tasks	9" || fail "batch_task tasks"

# tt-gen: --elastic is tt-sim's own draw: the same run with the column and
# with el_frac on a trace without it
tt-gen -n 300 -s 4 -o g0.h5
tt-gen -n 300 -s 4 --elastic 0.4 -o g1.h5
[ "$(tt-cat g0.h5)" = "$(tt-cat -c submit,duration,gpus,gpu_milli,start,end,nodes,name,user,vc,model,status g1.h5)" ] ||
    fail "--elastic changed other columns"
# (all but the el_frac column, which says what each was given)
a=$(tt-sim -c 2x4x8 -p el_up=1 -p el_down=1 -p seed=4 -p el_frac=400 g0.h5 | cut -f1-20,22-)
b=$(tt-sim -c 2x4x8 -p el_up=1 -p el_down=1 -p seed=4 -p el_frac=0 g1.h5 | cut -f1-20,22-)
[ "$a" = "$b" ] || fail "tt-gen --elastic vs el_frac: $a / $b"
expect_exit 2 tt-gen -n 10 --wf-shape ring:3 -o g.h5
expect_err "option --wf-shape: workflow shape 'ring:3': not chain:L, fan:W or mr:M:R"
expect_exit 0 tt-gen -n 200 -s 2 --wf-frac 0.5 --wf-shape fan:3,mr:2:2 --models 4 -o g2.h5
tt-stats g2.h5 | grep -q "^workflows	[1-9]" || fail "tt-gen workflows: $(tt-stats g2.h5)"
tt-cat --info g2.h5 | grep -q "synthetic columns: wf and deps" || fail "tt-gen notes"
