# tt-plot: every kind rendered to PNG and SVG from small fixed inputs (PNG
# header and size, SVG axis labels and marked points), from stdin and from
# HDF5, the --script file redrawing the figure alone, literal titles, and
# the failures: no gnuplot, empty input, a file of another layout
# version, unknown metric, parameter not swept, gnuplot failing; never a
# partial figure or a temporary file left.
# search: a tune file tt-tune writes on a cut trace, its points checked
# against the history as h5dump reads it, a sweep beneath from the same
# trace, and one of another trace refused.
command -v gnuplot >/dev/null || skip "gnuplot not installed"
mkdir tmp
export TMPDIR=$PWD/tmp

# png_size FILE: "WxH" from the IHDR chunk, after checking the signature
png_size() {
    [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1: not a PNG"
    od -An -tu1 -j16 -N8 "$1" | awk '{printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}
# svg_text FILE: the text of every <text> element, one a line
svg_text() { sed 's/<text/\n<text/g' "$1" | sed -n 's/^<text[^>]*>\([^<]*\)<\/text>.*/\1/p'; }
# nothing but the figures: no temporary file beside them or in TMPDIR
clean() {
    [ -z "$(ls -A tmp)" ] || fail "temporary files left in TMPDIR: $(ls -A tmp)"
    ls -a | grep -q '\.tmp-' && fail "temporary figure left: $(ls -a | grep '\.tmp-')"
    return 0
}

# ---- surface: the fixture's least jct_mean is 28800 s = 8 h at w0=600,
# theta=1500 and again at w0=3600; w0 has 0 and inf as edge columns ----
expect_exit 0 tt-plot surface -o s.png "$FIX/plot/plot_sweep.tsv"
[ "$(png_size s.png)" = 1000x750 ] || fail "surface size $(png_size s.png)"
expect_exit 0 tt-plot surface --facet makespan -o s.svg "$FIX/plot/plot_sweep.tsv"
svg_text s.svg >s.txt
for want in 'w0 [s] (log scale)' 'theta [permille]' 'jct_mean [h]' 'makespan [d]' inf 0 60 600 3600 \
    '○ least jct_mean: 8 h at w0=600, theta=1500 (1st of 2 equal)' \
    '○ least makespan: 59.03 d at w0=inf, theta=inf'; do
    grep -qxF -- "$want" s.txt || fail "surface SVG lacks '$want': $(tr '\n' '|' <s.txt)"
done
grep -q 'width="1500" height="650"' s.svg || fail "facet SVG size: $(grep -o 'width="[0-9]*" height="[0-9]*"' s.svg | head -1)"
expect_exit 0 tt-plot surface --3d -z makespan -o s3.pdf "$FIX/plot/plot_sweep.tsv"
[ "$(head -c 5 s3.pdf)" = "%PDF-" ] || fail "3-D view: not a PDF"
# from stdin, the same figure byte for byte
tt-plot surface -o stdin.png <"$FIX/plot/plot_sweep.tsv" || fail "surface from stdin"
cmp -s stdin.png s.png || fail "stdin and file give different figures"
clean

# ---- the --script file redraws the figure by itself, elsewhere ----
expect_exit 0 tt-plot surface -o fig.png --script fig.gp "$FIX/plot/plot_sweep.tsv"
mkdir alone && cp fig.gp alone/ && (cd alone && gnuplot fig.gp) || fail "fig.gp does not run alone"
cmp -s alone/fig.png fig.png || fail "the script draws another figure"
[ "$(ls alone)" = "$(printf 'fig.gp\nfig.png')" ] || fail "the script needs other files: $(ls alone)"
# by default nothing but the figure is left
expect_exit 0 tt-plot pareto -o only.png "$FIX/plot/plot_sweep.tsv"
[ "$(ls | grep -c only)" = 1 ] || fail "more than the figure: $(ls)"
clean

# ---- pareto: the front of the fixture (worked out in tests/unit/plot/test_pareto.c) ----
# (TSV records no trace or cluster: --baseline-any says it matches)
expect_exit 0 tt-plot pareto --baseline-any --baseline "$FIX/plot/plot_baseline.tsv" -o p.png "$FIX/plot/plot_sweep.tsv"
[ "$(png_size p.png)" = 1000x750 ] || fail "pareto size $(png_size p.png)"
expect_exit 0 tt-plot pareto --baseline-any --baseline "$FIX/plot/plot_baseline.tsv" -o p.svg "$FIX/plot/plot_sweep.tsv"
svg_text p.svg >p.txt
for want in 'makespan [d]' 'jct_mean [h]' 'w0=inf, theta=inf' 'w0=3600, theta=1200' \
    'w0=600, theta=1500 (+1 more)' 'non-dominated (4 configurations)' \
    'strict consolidation (w0=theta=inf)' 'no-wait (w0=w1=0)' 'baseline: plot_baseline.tsv' \
    'w0=600, w1=3600, theta=1500'; do
    grep -qxF -- "$want" p.txt || fail "pareto SVG lacks '$want': $(tr '\n' '|' <p.txt)"
done
# dominated configurations are not labelled: w0=60 theta=1500 (5.4M s, 36000 s)
grep -q 'w0=60,' p.txt && fail "a dominated point is labelled"
clean

# ---- HDF5: a real sweep gives the same script from its file as from its
# TSV, but for the title, which names the trace and cluster the file records ----
expect_exit 0 tt-ingest -q -f csv -o small.h5 "$FIX/sim/sim_small.tsv"
expect_exit 0 tt-sweep -d cpu -c 1x1x8 -g w0=0,60,600,inf -g theta=1100,1500,inf -o sw.h5 small.h5
cp out.txt sw.tsv
expect_exit 0 tt-plot surface --facet makespan -o h.png --script h5.gp sw.h5
expect_exit 0 tt-plot surface --facet makespan -o h.png --script tsv.gp sw.tsv
grep -q "^set multiplot layout 1,2 title 'small.h5 on 1x1x8: jct_mean and makespan over w0 x theta (12 configurations)'" h5.gp ||
    fail "HDF5 surface title: $(grep -m1 title h5.gp)"
grep -q "^set multiplot layout 1,2 title 'jct_mean and makespan over w0 x theta (12 configurations)'" tsv.gp ||
    fail "TSV surface title: $(grep -m1 title tsv.gp)"
diff h5.gp tsv.gp | grep -q '^[<>] set multiplot layout 1,2 title' || fail "no title difference"
[ "$(diff h5.gp tsv.gp | grep -c '^[<>]')" = 2 ] ||
    fail "HDF5 and TSV scripts differ beyond the title: $(diff h5.gp tsv.gp | head -5)"
expect_exit 0 tt-plot pareto -o hp.png --script hp.gp sw.h5
grep -q "^set title 'small.h5 on 1x1x8: jct_mean against makespan, both minimised (12 configurations)'" hp.gp ||
    fail "pareto title: $(grep -m1 title hp.gp)"
# a trace named by its full path: the title names the file, not where it was
expect_exit 0 tt-sweep -d cpu -c 1x1x8 -g w0=0,60,600,inf -g theta=1100,1500,inf -o swa.h5 "$PWD/small.h5"
expect_exit 0 tt-plot pareto -o hp.png --script hpa.gp swa.h5
cmp -s hp.gp hpa.gp || fail "a trace's full path in the figure: $(diff hp.gp hpa.gp | head -3)"
# HDF5 on stdin: the figure of the file, byte for byte, of its 12 rows
expect_exit 0 tt-plot pareto -o hp.svg sw.h5
# a metric it lacks: every metric of a sweep file named, whole (the list was cut at 512 bytes)
expect_exit 2 tt-plot pareto -x jct_men -o hp.png sw.h5
expect_err "tt-plot: metric 'jct_men' is not in 'sw.h5' (its metrics: makespan jct_mean"
expect_err " ftf_unfair wf_jct_mean wf_jct_p99 wf_rejected cache_hit loads model_evicts load_gpu_s xfer_gpu_s)"
svg_text hp.svg >hp.txt
grep -qxF 'configurations (12)' hp.txt || fail "pareto of sw.h5: $(tr '\n' '|' <hp.txt)"
tt-plot pareto -o hp_stdin.svg <sw.h5 || fail "HDF5 on stdin"
cmp -s hp.svg hp_stdin.svg || fail "HDF5 on stdin draws another figure: $(diff hp.svg hp_stdin.svg | head -5)"
clean

# ---- pareto --baseline: a result of the same trace, cluster and models,
# labelled with its configuration; another trace or cluster refused, and a
# TSV one (nothing to check) unless --baseline-any ----
expect_exit 0 tt-sim -c 1x1x8 -p w0=600 -p theta=1500 -p load=2000 -o base.h5 small.h5
expect_exit 0 tt-sim -c 1x1x8 -o strict.h5 small.h5
expect_exit 0 tt-plot pareto --baseline base.h5 --baseline strict.h5 -o pb.svg sw.h5
svg_text pb.svg >pb.txt
for want in 'w0=600, w1=inf, theta=1500, load=2000' 'w0=inf, w1=inf, theta=inf' \
    'baseline: base.h5' 'baseline: strict.h5'; do
    grep -qxF -- "$want" pb.txt || fail "pareto baseline SVG lacks '$want': $(tr '\n' '|' <pb.txt)"
done
expect_exit 0 tt-sim -c 1x2x8 -o other_cl.h5 small.h5
expect_exit 2 tt-plot pareto --baseline other_cl.h5 -o bad.png sw.h5
expect_err "tt-plot: 'other_cl.h5' and 'sw.h5' come from different clusters (cluster 1x2x8 and 1x1x8)"
head -3 "$FIX/sim/sim_small.tsv" >three.tsv
expect_exit 0 tt-ingest -q -f csv -o three.h5 three.tsv
expect_exit 0 tt-sim -c 1x1x8 -o other_tr.h5 three.h5
expect_exit 2 tt-plot pareto --baseline other_tr.h5 -o bad.png sw.h5
expect_err "tt-plot: 'other_tr.h5' and 'sw.h5' come from different traces (trace_source_sha256 "
tt-sim -c 1x1x8 small.h5 >base.tsv 2>/dev/null || fail "tt-sim TSV"
expect_exit 2 tt-plot pareto --baseline base.tsv -o bad.png sw.h5
expect_err "tt-plot: 'base.tsv' does not record its trace_source_sha256, so it cannot be matched with 'sw.h5' (a baseline is a result file of tt-sim -o of the same trace and cluster; --baseline-any draws it unchecked)"
expect_exit 2 tt-plot pareto --baseline base.h5 -o bad.png sw.tsv
expect_err "'sw.tsv' does not record its trace_source_sha256, so it cannot be matched with 'base.h5'"
[ -z "$(ls | grep '^bad\.')" ] || fail "a refused baseline left a figure"
expect_exit 0 tt-plot pareto --baseline-any --baseline base.tsv --baseline other_cl.h5 -o pa.svg sw.h5
svg_text pa.svg >pa.txt
grep -qxF 'baseline: other_cl.h5' pa.txt || fail "--baseline-any: $(tr '\n' '|' <pa.txt)"
expect_exit 2 tt-plot surface --baseline-any -o bad.png sw.h5
expect_err "--baseline and --baseline-any are for pareto"
clean

# ---- metrics that cannot be computed: rows left out, and said so ----
# every job larger than 1x1x8: the sweep's makespan and jct_mean are empty
# (they were 0, the best point of any front)
printf 'submit\tduration\tgpus\n0\t100\t16\n50\t200\t32\n' >big.tsv
expect_exit 0 tt-ingest -q -f csv -o big.h5 big.tsv
expect_exit 0 tt-sweep -d cpu -c 1x1x8 -g w0=0,60,600,inf -g theta=1100,1500,inf -o bigsw.h5 big.h5
expect_err "tt-sweep: makespan, jct_mean, jct_p50, jct_p90, jct_p99, queue_mean, queue_p99, comm_share, util, ftf_mean, ftf_max cannot be computed in 12 of 12 configurations (every job is rejected): left empty"
[ "$(awk -F'\t' 'NR > 1 && $34 == "" && $35 == ""' out.txt | wc -l)" = 12 ] || fail "empty metrics: $(head -3 out.txt)"
sed 's/^fifo/sjf/' out.txt >bigsw.tsv
expect_exit 1 tt-plot pareto -o f.png bigsw.h5
expect_err "tt-plot: 'bigsw.h5': no row has both makespan and jct_mean (empty in all 12 rows: they cannot be computed)"
expect_exit 1 tt-plot surface -o f.png bigsw.h5
expect_err "tt-plot: 'bigsw.h5': no value of jct_mean (empty in all 12 rows: it cannot be computed)"
[ -e f.png ] && fail "a figure of nothing"
# beside a sweep with values (order sjf marks them apart): left out, counted
{ cat sw.tsv; tail -n +2 bigsw.tsv; } >mixed.tsv
expect_exit 0 tt-plot pareto -o mixed.svg mixed.tsv
expect_err "tt-plot: 12 rows left out: a metric drawn is empty there (it cannot be computed)"
svg_text mixed.svg >mixed.txt
grep -qxF "configurations ($(($(wc -l <sw.tsv) - 1)))" mixed.txt || fail "mixed: $(tr '\n' '|' <mixed.txt)"
clean

# ---- cdf, timeline, trace ----
expect_exit 0 tt-plot cdf --label A -o c.svg "$FIX/plot/plot_jobs_a.tsv" - <"$FIX/plot/plot_jobs_b.tsv"
svg_text c.svg >c.txt
for want in 'jct [h] (log scale)' 'fraction of jobs' 'A (4 jobs, 1 not run)' 'stdin (4 jobs)'; do
    grep -qxF -- "$want" c.txt || fail "cdf SVG lacks '$want': $(tr '\n' '|' <c.txt)"
done
expect_exit 0 tt-plot cdf -o c.png "$FIX/plot/plot_jobs_a.tsv"
[ "$(png_size c.png)" = 1000x700 ] || fail "cdf size"
expect_exit 0 tt-sim -c 1x1x8 --timeline -o run.h5 small.h5
# queueing delay per job of a result file: its 5 jobs, 3 of which never
# waited (tt-sim --jobs says which), on a log axis of seconds
expect_exit 0 tt-sim -c 1x1x8 --jobs small.h5
zeros=$(awk -F'\t' 'NR > 1 && $9 == 0' out.txt | wc -l)
[ "$zeros" = 3 ] || fail "sim_small on 1x1x8: $zeros jobs without a wait"
expect_exit 0 tt-plot cdf -x queue -o cq.svg run.h5
svg_text cq.svg >cq.txt
for want in 'queue [s] (log scale)' "run.h5 (default parameters; 5 jobs, $zeros at 0)"; do
    grep -qxF -- "$want" cq.txt || fail "cdf of queue lacks '$want': $(tr '\n' '|' <cq.txt)"
done
# titles and keys name the trace, the cluster and the run's configuration
expect_exit 0 tt-sim -c 1x1x8 -p w0=600 -p theta=1500 --jobs -o run2.h5 small.h5
expect_exit 0 tt-plot cdf -o c2.png --script c2.gp run.h5 run2.h5
grep -q "^set title 'small.h5 on 1x1x8: CDF of jct per job'" c2.gp || fail "cdf title: $(grep -m1 title c2.gp)"
grep -q "title 'run.h5 (default parameters; " c2.gp || fail "cdf key of the defaults: $(grep 'title .run' c2.gp)"
grep -q "title 'run2.h5 (w0=600, theta=1500; " c2.gp || fail "cdf key of w0=600: $(grep 'title .run2' c2.gp)"
expect_exit 0 tt-plot timeline -o tl.png --script tl.gp run.h5
grep -q "title 'small.h5 on 1x1x8, default parameters: simulated cluster over time'" tl.gp ||
    fail "timeline title: $(grep -m1 title tl.gp)"
expect_exit 0 tt-plot timeline -o tl.svg run.h5
svg_text tl.svg >tl.txt
for want in 'jobs waiting' 'busy GPUs' 'jobs running' 'L0 packed' 'L2 spread'; do
    grep -qxF -- "$want" tl.txt || fail "timeline SVG lacks '$want'"
done
expect_exit 0 tt-plot timeline --size 800x600 -o tl.png "$FIX/plot/plot_timeline.tsv"
[ "$(png_size tl.png)" = 800x600 ] || fail "timeline size $(png_size tl.png)"
expect_exit 0 tt-plot trace -o tr.svg small.h5
svg_text tr.svg >tr.txt
for want in 'job-size mix' 'GPUs per job' 'duration CDF' 'GPUs (bin mean)' \
    "sim_small.tsv (csv, $(($(wc -l <"$FIX/sim/sim_small.tsv") - 1)) jobs): job sizes, durations and offered load"; do
    grep -qxF -- "$want" tr.txt || fail "trace SVG lacks '$want'"
done
expect_exit 0 tt-plot trace -o tr.png small.h5
[ "$(png_size tr.png)" = 1200x800 ] || fail "trace size"
# durations in training steps: no GPU time or offered load to draw (they
# were drawn as seconds, a 12,000-day axis for Gavel's Philly trace)
expect_exit 0 tt-ingest -q -o gv.h5 "$FIX/ingest/gavel/gavel_small.trace"
expect_exit 1 tt-plot trace -o gv.png gv.h5
expect_err "tt-plot: durations are in steps, not seconds (duration_unit): the trace cannot be drawn as it is"
[ -e gv.png ] && fail "a figure of steps as seconds"
clean

# ---- titles are text, never commands ----
expect_exit 0 tt-plot surface --title "it's \"q\" \\ \`touch pwn1\` system(\"touch pwn2\") @x" \
    -o t.svg "$FIX/plot/plot_sweep.tsv"
[ -e pwn1 ] || [ -e pwn2 ] && fail "the title ran a command"
grep -qF "it's \"q\" \\ \`touch pwn1\` system(\"touch pwn2\") @x" t.svg || fail "title not literal"

# ---- failures: a message, the exit status, no figure ----
rm -f *.png *.svg *.pdf
GNUPLOT=/nonexistent/gnuplot expect_exit 1 tt-plot surface -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "tt-plot: gnuplot not found"
: | expect_exit 1 tt-plot surface -o f.png
expect_err "tt-plot: stdin: empty input (expected a header line)"
head -1 "$FIX/plot/plot_sweep.tsv" >head.tsv
expect_exit 1 tt-plot pareto -o f.png head.tsv
expect_err "head.tsv: no rows under the header"
expect_exit 2 tt-plot surface -z jct_men -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "metric 'jct_men' is not in"
expect_exit 2 tt-plot surface -y load -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "parameter 'load' was not swept"
expect_exit 2 tt-plot surface -o f.jpg "$FIX/plot/plot_sweep.tsv"
expect_err "must end in .png, .svg or .pdf"
expect_exit 2 tt-plot bars -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "unknown KIND 'bars'"
expect_exit 1 tt-plot surface -o f.png no-such.tsv
expect_err "cannot read 'no-such.tsv'"
expect_exit 1 tt-plot cdf -o f.png sw.h5
expect_err "it is a sweep file"
# a sweep file of another layout version: refused, naming both versions
if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
    cp sw.h5 sw2.h5
    /usr/bin/python3 -c "import h5py; h5py.File('sw2.h5', 'r+')['sweep'].attrs['tracetune_layout'] = 'sweep/2'"
    expect_exit 1 tt-plot surface -o f.png sw2.h5
    expect_err "tt-plot: 'sw2.h5': sweep file layout 'sweep/2', this version reads 'sweep/1'"
fi
# w1 varies too: two rows on one cell, unless --where picks one
awk -F'\t' 'BEGIN{OFS="\t"} NR==1{print; next} {print; if (NR==2) {$3="inf"; print}}' \
    "$FIX/plot/plot_sweep.tsv" >dup.tsv
expect_exit 2 tt-plot surface -o f.png dup.tsv
expect_err "parameter 'w1' also varies (0, inf); pick one value with --where w1=VALUE"
expect_exit 0 tt-plot surface --where w1=0 -o w.png dup.tsv
rm w.png
# gnuplot that writes half a figure and fails: its words shown, nothing left
printf '#!/bin/sh\nfor a; do s=$a; done\nsed -n "s/^set output .\\(.*\\).$/\\1/p" "$s" | head -1 | xargs -I{} sh -c "echo partial > {}"\necho "line 3: broken" >&2\nexit 1\n' >badplot
chmod +x badplot
GNUPLOT=$PWD/badplot expect_exit 1 tt-plot surface -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "gnuplot failed (exit status 1) drawing 'f.png'"
expect_err "gnuplot: line 3: broken"
[ -z "$(ls | grep -E '\.(png|svg|pdf)$|tmp-')" ] || fail "a figure was left: $(ls)"
# gnuplot's lines lose the private script's name, its echo and caret
printf '#!/bin/sh\nfor a; do s=$a; done\necho "set output x" >&2\necho "      ^" >&2\necho "\\"$s\\" line 4: cannot open file" >&2\nexit 1\n' >badplot2
chmod +x badplot2
GNUPLOT=$PWD/badplot2 expect_exit 1 tt-plot surface -o f.png "$FIX/plot/plot_sweep.tsv"
expect_err "gnuplot: line 4: cannot open file"
grep -qE 'plot\.gp|\^|set output' err.txt && fail "gnuplot's private lines shown: $(cat err.txt)"
# a folder that does not exist: said before gnuplot runs, in our words
expect_exit 1 tt-plot pareto -o nodir/f.png "$FIX/plot/plot_sweep.tsv"
[ "$(cat err.txt)" = "tt-plot: cannot write 'nodir/f.png': No such file or directory" ] ||
    fail "missing folder: $(cat err.txt)"
clean

# ---- data gnuplot takes no range from (one job, one event, one value of
# the objective, no duration above 0): drawn, with nothing on stderr ----
printf 'submit\tduration\tgpus\n5\t100\t1\n' >one.tsv
printf 'submit\tduration\tgpus\n5\t0\t1\n' >zero.tsv
for t in one zero; do
    expect_exit 0 tt-ingest -q -f csv -o $t.h5 $t.tsv
    expect_exit 0 tt-sim -c 1x1x8 --timeline -o ${t}_run.h5 $t.h5
    expect_exit 0 tt-plot trace -o ${t}_trace.png $t.h5
    [ -s err.txt ] && fail "trace of $t job: $(cat err.txt)"
    expect_exit 0 tt-plot timeline -o ${t}_tl.png ${t}_run.h5
    [ -s err.txt ] && fail "timeline of $t job: $(cat err.txt)"
done
expect_exit 0 tt-tune -d cpu -c 1x1x8 -s w0=0:3600:4 --objective jct_mean --budget 3 -o one_tune.h5 one.h5
expect_exit 0 tt-plot search -o one_search.png --script one_search.gp one_tune.h5
[ -s err.txt ] && fail "search of one objective: $(cat err.txt)"
# every jct_mean is the job's 100 s: a range of 10% around it
grep -qxF 'set yrange [90:110]' one_search.gp || fail "search of one objective: no range of its own"
[ "$(png_size one_search.png)" = 1000x800 ] || fail "search of one objective: size"
clean

# ---- search: tt-tune's history over its space (a cut trace, a holdout) ----
head -301 "$FIX/../../data/example.tsv" >cut.tsv
head -201 "$FIX/../../data/example.tsv" >cut2.tsv
expect_exit 0 tt-ingest -q -f csv -o cut.h5 cut.tsv
expect_exit 0 tt-ingest -q -f csv -o cut2.h5 cut2.tsv
# 81 points: more than a budget of 12 looks at (4 a simulation, docs/model.md 8.1: points of
# one canonical form share a simulation), so the grid baseline adds rows of its own
expect_exit 0 tt-tune -d cpu -c 1x4x8 -s w0=log:1:86400:8,inf -s theta=1000:5000:9 -p load=2000 \
    --objective jct_mean --budget 12 --batch 4 --holdout 0.3 -o tune.h5 cut.h5
cp out.txt tune.tsv
cp err.txt tune.err
expect_exit 0 tt-plot search -o s.png --script s.gp tune.h5
[ "$(png_size s.png)" = 1000x800 ] || fail "search size $(png_size s.png)"
# the points are the train rows of the search (part 0, phase 0) in order,
# with their rounds, as h5dump reads the history
for c in part phase round objective sim_row; do
    h5dump -y -w 0 -o "$c.raw" -d "/tune/history/$c" tune.h5 >/dev/null || fail "h5dump $c"
    tr -d ' \n' <"$c.raw" | tr ',' '\n' >"$c.col"
done
paste part.col phase.col round.col objective.col |
    awk -F'\t' '$1 == 0 && $2 == 0 { print $3 }' >want.txt
[ "$(wc -l <want.txt)" -ge 12 ] || fail "h5dump: $(wc -l <want.txt) search rows"
awk '/^\$search << EOD$/ { f = 1; next } /^EOD$/ { f = 0 } f' s.gp | cut -f3 >got.txt
cmp -s want.txt got.txt || fail "search points: rounds $(tr '\n' ' ' <got.txt), want $(tr '\n' ' ' <want.txt)"
[ "$(sort -u got.txt | wc -l)" -ge 2 ] || fail "batches of 4: more than one round"
# the labels: the recommended row's objective (tt-tune's TSV) in the unit
# of the largest search objective
unit=$(paste part.col phase.col objective.col | awk -F'\t' '$1 == 0 && $2 == 0 && $3 > m { m = $3 }
    END { print (m >= 172800 ? "d 86400" : m >= 7200 ? "h 3600" : m >= 120 ? "min 60" : "s 1") }')
# count PHASE [ROUND]: the simulations of the train rows of a phase (rows
# that are their own sim_row, as tt-tune counts them), and the rows where
# some shared one: "12 simulations" or "12 simulations, 20 configurations"
count() {
    paste part.col phase.col round.col sim_row.col | awk -F'\t' -v p="$1" -v k="${2:-}" '
        $1 == 0 && $2 == p && (k == "" || $3 == k) { n++; s += $4 == NR - 1 }
        END { printf "%d simulation%s", s, s == 1 ? "" : "s"
              if (n != s) printf ", %d configuration%s", n, n == 1 ? "" : "s" }'
}
ngrid=$(paste part.col phase.col | awk -F'\t' '$1 == 0 && $2 == 1' | wc -l)
# the search's simulations and rounds (12 simulations, more points: those that
# share a simulation, docs/model.md 8.1, cost none)
nrounds=$(sort -n want.txt | tail -1 | awk '{ print $1 + 1 }')
[ "$(count 0)" = "12 simulations, $(wc -l <want.txt) configurations" ] || fail "search: $(count 0)"
# one count everywhere: tt-tune's stderr and the file's attributes say the
# history's simulations (train: all, the search's, the grid baseline's)
ntrain=$(paste part.col sim_row.col | awk -F'\t' '$1 == 0 && $2 == NR - 1' | wc -l)
rtrain=$(awk '$1 == 0' part.col | wc -l)
grep -q "^tt-tune: $ntrain simulations for $rtrain configurations on train (search 12, grid baseline $(count 1 | cut -d' ' -f1), " tune.err ||
    fail "stderr's counts: $(cat tune.err), the history's $ntrain for $rtrain, grid $(count 1)"
h5dump -a /tune/sims_train -a /tune/sims_search -a /tune/sims_grid tune.h5 | grep -o '(0): [0-9]*' | tr '\n' ' ' >a.txt
[ "$(cat a.txt)" = "(0): $ntrain (0): 12 (0): $(count 1 | cut -d' ' -f1) " ] || fail "the file's counts: $(cat a.txt)"
[ "$ngrid" -ge 1 ] || fail "no grid baseline row: its legend is not checked"
rec=$(awk -F'\t' -v u="$unit" '$1 == "recommended" { split(u, a, " "); printf "%.4g %s", $2 / a[2], a[1] }' tune.tsv)
expect_exit 0 tt-plot search -o s.svg tune.h5
svg_text s.svg >s.txt
# counts in simulations, as tt-tune's stderr and the file's sims_* have them;
# the objectives labelled as train's (the file has a test part)
for want in "recommended: jct_mean on train = $rec" 'w0 [s] (log scale)' 'theta [permille]' \
    "round 0 ($(count 0 0))" 'strict consolidation' 'no-wait' 'inf' \
    "grid baseline ($(count 1))" \
    "cut.h5 on 1x4x8: search on train for the least jct_mean over w0 x theta" \
    "(model: $(count 0) in $nrounds rounds; grid baseline $(count 1); load=2000)"; do
    grep -qxF -- "$want" s.txt || fail "search SVG lacks '$want': $(tr '\n' '|' <s.txt)"
done
grep -q '^strict consolidation: jct_mean on train = ' s.txt || fail "strict not labelled"
# the default budget over these 81 points: exact, as the title says; no test
# part: the labels are of the one part
expect_exit 0 tt-tune -d cpu -c 1x4x8 -s w0=log:1:86400:8,inf -s theta=1000:5000:9 -p load=2000 \
    --objective jct_mean -o exact.h5 cut.h5
nexact=$(sed -n 's/.*: exact: all \([0-9]*\) distinct simulations of the grid.*/\1/p' err.txt)
[ -n "$nexact" ] || fail "81 points, the default budget: not exact: $(cat err.txt)"
expect_exit 0 tt-plot search -o exact.svg exact.h5
svg_text exact.svg >exact.txt
grep -qF "(model, exact: $nexact simulations in " exact.txt || fail "exact: the title: $(tr '\n' '|' <exact.txt)"
grep -q '^recommended: jct_mean = ' exact.txt || fail "exact: the choice's label: $(tr '\n' '|' <exact.txt)"
# from stdin, the same figure
tt-plot search -o stdin.png <tune.h5 || fail "search from stdin"
cmp -s stdin.png s.png || fail "search: stdin and file give different figures"
clean
# a sweep of the same trace and cluster beneath; one of another trace: exit 2, nothing drawn
expect_exit 0 tt-sweep -d cpu -c 1x4x8 -g w0=0,1,26,662,17033,inf -g theta=1000:5000:5 -p load=2000 \
    -o sw.h5 cut.h5
expect_exit 0 tt-plot search --surface sw.h5 -o ss.svg tune.h5
svg_text ss.svg >ss.txt
for want in 'jct_mean [h]' "the heat map of 'sw.h5' simulates every job, the search its train jobs [0,210)"; do
    grep -qxF -- "$want" ss.txt || fail "search --surface SVG lacks '$want': $(tr '\n' '|' <ss.txt)"
done
grep -q '^least jct_mean of the sweep: ' ss.txt || fail "the sweep's least not marked"
expect_exit 0 tt-sweep -d cpu -c 1x4x8 -g w0=0,1,26,662,17033,inf -g theta=1000:5000:5 -p load=2000 \
    -o other.h5 cut2.h5
expect_exit 2 tt-plot search --surface other.h5 -o bad.png --script bad.gp tune.h5
expect_err "tt-plot: 'other.h5' and 'tune.h5' come from different traces (trace_source_sha256 "
[ -e bad.png ] || [ -e bad.gp ] && fail "a mismatched surface left a figure"
expect_exit 2 tt-plot search --surface sw.h5 -y objective -o bad.png tune.h5
expect_err "a surface beneath needs two dimensions on the axes"
expect_exit 2 tt-plot search -x load -o bad.png tune.h5
expect_err "tt-plot: axis 'load' is not a searched dimension of 'tune.h5' (searched: w0 theta)"
expect_exit 1 tt-plot search -o bad.png sw.h5
expect_err "tt-plot: 'sw.h5': not a tune file (it is a sweep file; tt-tune -o writes one)"
expect_exit 1 tt-plot search -o bad.png "$FIX/plot/plot_sweep.tsv"
expect_err "not a tune file (not HDF5"
expect_exit 2 tt-plot surface --surface sw.h5 -o bad.png sw.h5
expect_err "--surface is for search"
[ -z "$(ls | grep -E '^bad\.')" ] || fail "a failed search left a file: $(ls)"
clean

# ---- lines: SPEC 10.11's baselines against the resize cost at two loads,
# a sweep of elastic jobs on the example trace; lines and panels named ----
expect_exit 0 tt-ingest -q -o elx.h5 "$FIX/../../data/example.tsv"
expect_exit 0 tt-sweep -d cpu -c 1x2x8 -g load=1000,3000 -g preset=k8s-fixed,elastic-term,elastic-sidecar \
    -g resize_cost=1,10,100 -o el.h5 elx.h5
expect_exit 0 tt-plot lines --by el_up,resize --panel load --label k8s-fixed --label elastic-term \
    --label elastic-sidecar -o l.svg el.h5
svg_text l.svg >l.txt
for want in 'load=1000' 'load=3000' k8s-fixed elastic-term elastic-sidecar 'resize_cost [s]'; do
    grep -qxF -- "$want" l.txt || fail "lines SVG lacks '$want': $(tr '\n' '|' <l.txt)"
done
grep -q 'width="1500" height="700"' l.svg || fail "lines SVG size: $(grep -o 'width="[0-9]*" height="[0-9]*"' l.svg | head -1)"
expect_exit 0 tt-plot lines -y makespan --by el_up,resize --where load=1000 -o l.png el.h5
[ "$(png_size l.png)" = 1000x700 ] || fail "lines size $(png_size l.png)"
expect_exit 2 tt-plot lines -o bad.png el.h5
expect_err "share resize_cost=1 on one line: name what else varies with --by, --panel or --where"
expect_exit 2 tt-plot surface --by el_up -o bad.png el.h5
expect_err "--by and --panel are for lines"
expect_exit 2 tt-plot pareto --label x -o bad.png el.h5
expect_err "--label is for cdf and lines"
[ -z "$(ls | grep -E '^bad\.')" ] || fail "a failed lines figure left a file: $(ls)"
clean
