# tt-plot: every kind rendered to PNG and SVG from small fixed inputs (PNG
# header and size, SVG axis labels and marked points), from stdin and from
# HDF5, the --script file redrawing the figure alone, literal titles, and
# the failures: no gnuplot, empty input, unknown metric, parameter not
# swept, gnuplot failing; never a partial figure or a temporary file left.
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
expect_exit 0 tt-plot surface -o s.png "$FIX/plot_sweep.tsv"
[ "$(png_size s.png)" = 1000x750 ] || fail "surface size $(png_size s.png)"
expect_exit 0 tt-plot surface --facet makespan -o s.svg "$FIX/plot_sweep.tsv"
svg_text s.svg >s.txt
for want in 'w0 [s] (log scale)' 'theta [permille]' 'jct_mean [h]' 'makespan [d]' inf 0 60 600 3600 \
    '○ least jct_mean: 8 h at w0=600, theta=1500 (1st of 2 equal)' \
    '○ least makespan: 59.03 d at w0=inf, theta=inf'; do
    grep -qxF -- "$want" s.txt || fail "surface SVG lacks '$want': $(tr '\n' '|' <s.txt)"
done
grep -q 'width="1500" height="650"' s.svg || fail "facet SVG size: $(grep -o 'width="[0-9]*" height="[0-9]*"' s.svg | head -1)"
expect_exit 0 tt-plot surface --3d -z makespan -o s3.pdf "$FIX/plot_sweep.tsv"
[ "$(head -c 5 s3.pdf)" = "%PDF-" ] || fail "3-D view: not a PDF"
# from stdin, the same figure byte for byte
tt-plot surface -o stdin.png <"$FIX/plot_sweep.tsv" || fail "surface from stdin"
cmp -s stdin.png s.png || fail "stdin and file give different figures"
clean

# ---- the --script file redraws the figure by itself, elsewhere ----
expect_exit 0 tt-plot surface -o fig.png --script fig.gp "$FIX/plot_sweep.tsv"
mkdir alone && cp fig.gp alone/ && (cd alone && gnuplot fig.gp) || fail "fig.gp does not run alone"
cmp -s alone/fig.png fig.png || fail "the script draws another figure"
[ "$(ls alone)" = "$(printf 'fig.gp\nfig.png')" ] || fail "the script needs other files: $(ls alone)"
# by default nothing but the figure is left
expect_exit 0 tt-plot pareto -o only.png "$FIX/plot_sweep.tsv"
[ "$(ls | grep -c only)" = 1 ] || fail "more than the figure: $(ls)"
clean

# ---- pareto: the front of the fixture (worked out in test_plot.c) ----
expect_exit 0 tt-plot pareto --baseline "$FIX/plot_baseline.tsv" -o p.png "$FIX/plot_sweep.tsv"
[ "$(png_size p.png)" = 1000x750 ] || fail "pareto size $(png_size p.png)"
expect_exit 0 tt-plot pareto --baseline "$FIX/plot_baseline.tsv" -o p.svg "$FIX/plot_sweep.tsv"
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

# ---- HDF5: a real sweep gives the same script from its file as from its TSV ----
expect_exit 0 tt-ingest -q -f csv -o small.h5 "$FIX/sim_small.tsv"
expect_exit 0 tt-sweep -d cpu -c 1x1x8 -g w0=0,60,600,inf -g theta=1100,1500,inf -o sw.h5 small.h5
cp out.txt sw.tsv
expect_exit 0 tt-plot surface --facet makespan -o h.png --script h5.gp sw.h5
expect_exit 0 tt-plot surface --facet makespan -o h.png --script tsv.gp sw.tsv
cmp -s h5.gp tsv.gp || fail "HDF5 and TSV scripts differ: $(diff h5.gp tsv.gp | head -5)"
tt-plot pareto -o hp.svg <sw.h5 || fail "HDF5 on stdin"
clean

# ---- cdf, timeline, trace ----
expect_exit 0 tt-plot cdf --label A -o c.svg "$FIX/plot_jobs_a.tsv" - <"$FIX/plot_jobs_b.tsv"
svg_text c.svg >c.txt
for want in 'jct [h] (log scale)' 'fraction of jobs' 'A (4 jobs, 1 not run)' 'stdin (4 jobs)'; do
    grep -qxF -- "$want" c.txt || fail "cdf SVG lacks '$want': $(tr '\n' '|' <c.txt)"
done
expect_exit 0 tt-plot cdf -o c.png "$FIX/plot_jobs_a.tsv"
[ "$(png_size c.png)" = 1000x700 ] || fail "cdf size"
expect_exit 0 tt-sim -c 1x1x8 --timeline -o run.h5 small.h5
expect_exit 0 tt-plot cdf -x queue -o cq.png run.h5
expect_exit 0 tt-plot timeline -o tl.svg run.h5
svg_text tl.svg >tl.txt
for want in 'jobs waiting' 'busy GPUs' 'jobs running' 'L0 packed' 'L2 spread'; do
    grep -qxF -- "$want" tl.txt || fail "timeline SVG lacks '$want'"
done
expect_exit 0 tt-plot timeline --size 800x600 -o tl.png "$FIX/plot_timeline.tsv"
[ "$(png_size tl.png)" = 800x600 ] || fail "timeline size $(png_size tl.png)"
expect_exit 0 tt-plot trace -o tr.svg small.h5
svg_text tr.svg >tr.txt
for want in 'job-size mix' 'GPUs per job' 'duration CDF' 'GPUs (bin mean)'; do
    grep -qxF -- "$want" tr.txt || fail "trace SVG lacks '$want'"
done
expect_exit 0 tt-plot trace -o tr.png small.h5
[ "$(png_size tr.png)" = 1200x800 ] || fail "trace size"
clean

# ---- titles are text, never commands ----
expect_exit 0 tt-plot surface --title "it's \"q\" \\ \`touch pwn1\` system(\"touch pwn2\") @x" \
    -o t.svg "$FIX/plot_sweep.tsv"
[ -e pwn1 ] || [ -e pwn2 ] && fail "the title ran a command"
grep -qF "it's \"q\" \\ \`touch pwn1\` system(\"touch pwn2\") @x" t.svg || fail "title not literal"

# ---- failures: a message, the exit status, no figure ----
rm -f *.png *.svg *.pdf
GNUPLOT=/nonexistent/gnuplot expect_exit 1 tt-plot surface -o f.png "$FIX/plot_sweep.tsv"
expect_err "tt-plot: gnuplot not found"
: | expect_exit 1 tt-plot surface -o f.png
expect_err "tt-plot: stdin: empty input (expected a header line)"
head -1 "$FIX/plot_sweep.tsv" >head.tsv
expect_exit 1 tt-plot pareto -o f.png head.tsv
expect_err "head.tsv: no rows under the header"
expect_exit 2 tt-plot surface -z jct_men -o f.png "$FIX/plot_sweep.tsv"
expect_err "metric 'jct_men' is not in"
expect_exit 2 tt-plot surface -y load -o f.png "$FIX/plot_sweep.tsv"
expect_err "parameter 'load' was not swept"
expect_exit 2 tt-plot surface -o f.jpg "$FIX/plot_sweep.tsv"
expect_err "must end in .png, .svg or .pdf"
expect_exit 2 tt-plot bars -o f.png "$FIX/plot_sweep.tsv"
expect_err "unknown KIND 'bars'"
expect_exit 1 tt-plot surface -o f.png no-such.tsv
expect_err "cannot read 'no-such.tsv'"
expect_exit 1 tt-plot cdf -o f.png sw.h5
expect_err "it is a sweep file"
# w1 varies too: two rows on one cell, unless --where picks one
awk -F'\t' 'BEGIN{OFS="\t"} NR==1{print; next} {print; if (NR==2) {$3="inf"; print}}' \
    "$FIX/plot_sweep.tsv" >dup.tsv
expect_exit 2 tt-plot surface -o f.png dup.tsv
expect_err "parameter 'w1' also varies (0, inf); pick one value with --where w1=VALUE"
expect_exit 0 tt-plot surface --where w1=0 -o w.png dup.tsv
rm w.png
# gnuplot that writes half a figure and fails: its words shown, nothing left
printf '#!/bin/sh\nfor a; do s=$a; done\nsed -n "s/^set output .\\(.*\\).$/\\1/p" "$s" | head -1 | xargs -I{} sh -c "echo partial > {}"\necho "line 3: broken" >&2\nexit 1\n' >badplot
chmod +x badplot
GNUPLOT=$PWD/badplot expect_exit 1 tt-plot surface -o f.png "$FIX/plot_sweep.tsv"
expect_err "gnuplot failed (exit status 1) drawing 'f.png'"
expect_err "gnuplot: line 3: broken"
[ -z "$(ls | grep -E '\.(png|svg|pdf)$|tmp-')" ] || fail "a figure was left: $(ls)"
clean
