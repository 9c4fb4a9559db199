# Line charts with one panel per workload and one line per variant, from a tab-separated file
# that `schemalab plot` writes (panel, series, x, y); crosses from a marks file (panel, x, y, label).
# Used for time against size (log-log, crossovers marked), memory against size, and latency
# by percentile.
#
#   gnuplot -e "datafile='d.tsv'; marksfile='d-marks.tsv'; outbase='out/photos-growth'; panels='insert fetch'; \
#               series='V1 V2'; title='...'; xlabel='objects'; ylabel='ms'; logx=1; logy=1" Sources/SchemaLab/Plot/gnuplot/lines.gp
set datafile separator "\t"
set datafile columnheaders
np = words(panels)
ns = words(series)
cols = (np <= 1) ? 1 : ((np <= 4) ? 2 : 3)
rows = int((np + cols - 1) / cols)
height = 320 * rows + 60
if (logx) { set logscale x; set format x "%.0s%c" }
# xticks: the x axis's tics as a gnuplot list, ("1k" 1000, "3.2k" 3162): the measured sizes of a sweep
# (its few sizes would leave a log axis almost bare).
if (exists("xticks") && strlen(xticks) > 0) { eval("set xtics " . xticks) }
set autoscale xfix
set offsets graph 0.04, graph 0.04, 0, 0
if (logy) { set logscale y }
set grid xtics ytics mytics lc rgb "#dddddd"
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced

do for [fmt in "svg png"] {
    if (fmt eq "svg") { set terminal svg size 1100, height font "sans,10" background "white" }
    if (fmt eq "png") { set terminal pngcairo size 1100, height font "sans,9" background "white" }
    set output outbase . "." . fmt
    set multiplot layout rows, cols title title noenhanced margins 0.07, 0.98, (45.0 / height), (1 - 62.0 / height) spacing 0.07, (95.0 / height)
    do for [i=1:np] {
        p = word(panels, i)
        set title p noenhanced
        if (i == 1) { set key top left Left reverse noenhanced opaque box lc rgb "#cccccc" samplen 2 spacing 0.9 } else { unset key }
        plot for [j=1:ns] datafile using (strcol(1) eq p && strcol(2) eq word(series, j) ? column(3) : NaN):(column(4)) \
                 with linespoints linecolor j pointtype 7 pointsize 0.6 title word(series, j), \
             marksfile using (strcol(1) eq p ? column(2) : NaN):(column(3)) with points pointtype 2 pointsize 2 linewidth 2 \
                 linecolor rgb "black" notitle
    }
    unset multiplot
    unset output
}
