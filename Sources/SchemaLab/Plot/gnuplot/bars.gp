# Grouped bar chart of one run's results.csv: one group per workload, one bar per
# schema variant, the median time with min-max whiskers, log scale.
#
#   gnuplot -e "datafile='results/photos/results.csv'; outbase='results/photos/plots/photos-matrix-10000'; \
#               variants='V1 V1+index'; workloads='insert fetch-sorted'; size=10000; title='photos-matrix'" Sources/SchemaLab/Plot/gnuplot/bars.gp
#
# `schemalab plot DIR` (and `make plots`) fill these variables in from results.csv.
set datafile separator ","
set datafile columnheaders
nv = words(variants)
nw = words(workloads)
bw = 0.8 / nv
set style fill solid 0.75 border -1
set boxwidth bw absolute
set logscale y
set grid ytics mytics
set ylabel "median time per repetition, ms (log scale; whiskers: min..max)"
set title sprintf("%s, n = %d", title, size) noenhanced
set xtics () noenhanced
do for [i=1:nw] { set xtics add (word(workloads, i) i - 1) }
# Long or many workload names (an imported scenario's) would overlap side by side: slanted
# then, with room below for the longest.
maxlen = 0
do for [i=1:nw] { maxlen = (strlen(word(workloads, i)) > maxlen) ? strlen(word(workloads, i)) : maxlen }
if (nw * (maxlen + 2) > 120) { set xtics rotate by 35 right; set bmargin (maxlen * 0.35 + 2) }
set xrange [-0.6 : nw - 0.4]
set key outside right top noenhanced
set bars 2

select(v) = (strcol("schema") eq word(variants, v) && column("size") == size) ? 1 : 0
xpos(v) = column("workload_index") - 0.4 + bw * (v - 0.5)

do for [fmt in "svg png"] {
    if (fmt eq "svg") { set terminal svg size 1100,560 font "sans,11" background "white" }
    if (fmt eq "png") { set terminal pngcairo size 1100,560 font "sans,10" background "white" }
    set output outbase . "." . fmt
    plot for [v=1:nv] datafile \
        using (select(v) ? xpos(v) : NaN):(column("median_ms")):(column("min_ms")):(column("max_ms")):(bw) \
        with boxerrorbars linecolor v title word(variants, v)
    unset output
}
