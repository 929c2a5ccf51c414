# tracetune tt-plot: gnuplot 5.4 script; the data are the $datablocks below.
# Restyle freely: gnuplot THIS_FILE redraws the figure.
set terminal pngcairo size 1000,700 noenhanced font 'Sans,13' linewidth 1.5
set output 'docs/figures/wf-servers.png'
set encoding utf8
set datafile separator "\t"
set grid front lc rgb '#c0c0c0' lw 0.5
set border lw 1
set palette defined (0 '#440154', 1 '#482878', 2 '#3e4989', 3 '#31688e', 4 '#26828e', 5 '#1f9e89', 6 '#35b779', 7 '#6ece58', 8 '#b5de2b', 9 '#fde725')
set style textbox opaque noborder
$p0 << EOD
48	4.666666667
52	3.533333333
56	2.766666667
60	2.25
64	2.2
68	2.2
72	2.2
76	2.2
80	2.2
84	2.2
88	2.2
92	2.2
96	2.2
EOD
$m0 << EOD
60	2.25
EOD
set label 1 'wf-deps: 1x15x4' at first 60, first 2.25 offset 0,1.6 center font ',11' tc rgb '#0072b2' boxed front
$p1 << EOD
48	5.333333333
52	4.116666667
56	3.183333333
60	2.516666667
64	2.233333333
68	2.2
72	2.2
76	2.2
80	2.2
84	2.2
88	2.2
92	2.2
96	2.2
EOD
$m1 << EOD
64	2.233333333
EOD
set label 2 'cache-lru: 1x16x4' at first 64, first 2.233333333 offset 0,3.0 center font ',11' tc rgb '#d55e00' boxed front
$p2 << EOD
48	5.133333333
52	3.883333333
56	3.033333333
60	2.4
64	2.233333333
68	2.216666667
72	2.233333333
76	2.216666667
80	2.216666667
84	2.216666667
88	2.216666667
92	2.216666667
96	2.216666667
EOD
$m2 << EOD
60	2.4
EOD
set label 3 'heft-like: 1x15x4' at first 60, first 2.4 offset 0,4.4 center font ',11' tc rgb '#009e73' boxed front
$p3 << EOD
48	5.183333333
52	4.016666667
56	3.166666667
60	2.516666667
64	2.333333333
68	2.3
72	2.283333333
76	2.3
80	2.283333333
84	2.3
88	2.3
92	2.3
96	2.3
EOD
$m3 << EOD
64	2.333333333
EOD
set label 4 'compass-like: 1x16x4' at first 64, first 2.333333333 offset 0,5.8 center font ',11' tc rgb '#cc79a7' boxed front
set title 'Servers (4 GPUs each) for wf_jct_p99 <= 150 s: 854 synthetic workflows, tasks of median 10 s'
set xlabel 'cluster size [GPUs]'
set ylabel 'wf_jct_p99 [min]'
set key top right font ',11'
set grid lc rgb '#dddddd'
set offsets graph 0.03, graph 0.03, graph 0.1, graph 0.05
plot $p0 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#0072b2' title 'wf-deps', \
  $m0 using 1:2 with points pt 6 ps 3 lw 2 lc rgb '#0072b2' notitle, \
  $p1 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#d55e00' title 'cache-lru', \
  $m1 using 1:2 with points pt 6 ps 3 lw 2 lc rgb '#d55e00' notitle, \
  $p2 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#009e73' title 'heft-like', \
  $m2 using 1:2 with points pt 6 ps 3 lw 2 lc rgb '#009e73' notitle, \
  $p3 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#cc79a7' title 'compass-like', \
  $m3 using 1:2 with points pt 6 ps 3 lw 2 lc rgb '#cc79a7' notitle, \
  2.5 with lines dt 2 lw 2 lc rgb '#555555' title 'target wf_jct_p99 <= 2.5 min (150 s)'
