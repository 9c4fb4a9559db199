# Read latencies of one run's results.csv (the cases with reads: readers under a writer,
# box sets): per workload, the reads' p50, p90, p99 and max (ms, log scale), for one
# variant and size.
#
#   gnuplot -e "datafile='results/reader-under-writer/results.csv'; outbase='results/reader-under-writer/plots/reader-under-writer-20000-plain-reads'; \
#               variant='plain'; workloads='wal-one-save wal-chunked'; size=20000; title='reader-under-writer'" Sources/SchemaLab/Plot/gnuplot/latency.gp
#
# `schemalab plot DIR` runs it for every variant and size that has reads.
set datafile separator ","
set datafile columnheaders
nw = words(workloads)
metrics = "read_p50_ms read_p90_ms read_p99_ms read_max_ms"
labels = "p50 p90 p99 max"
bw = 0.8 / 4
set style fill solid 0.75 border -1
set boxwidth bw absolute
set logscale y
set grid ytics mytics
set ylabel "read latency, ms (log scale)"
set title sprintf("%s, %s, n = %d: every read's latency (a reader under a writer's reads, a box set's queries)", title, variant, size) noenhanced
set xtics () noenhanced
do for [i=1:nw] { set xtics add (word(workloads, i) i - 1) }
# Long or many workload names (an imported scenario's) would overlap side by side: slanted
# then, with room below for the longest.
maxlen = 0
do for [i=1:nw] { maxlen = (strlen(word(workloads, i)) > maxlen) ? strlen(word(workloads, i)) : maxlen }
if (nw * (maxlen + 2) > 120) { set xtics rotate by 35 right; set bmargin (maxlen * 0.35 + 2) }
set xrange [-0.6 : nw - 0.4]
set key outside right top noenhanced

select(k) = (strcol("schema") eq variant && column("size") == size && strcol("reads") ne "") ? column(word(metrics, k)) : NaN
# The workload's place among the charted ones (only reader-under-writer workloads are passed).
idx(w, i) = (i > nw) ? NaN : (word(workloads, i) eq w ? i - 1 : idx(w, i + 1))
xpos(k) = idx(strcol("workload"), 1) - 0.4 + bw * (k - 0.5)

do for [fmt in "svg png"] {
    if (fmt eq "svg") { set terminal svg size 1100,560 font "sans,11" background "white" }
    if (fmt eq "png") { set terminal pngcairo size 1100,560 font "sans,10" background "white" }
    set output outbase . "." . fmt
    plot for [k=1:4] datafile using (xpos(k)):(select(k)):(bw) with boxes linecolor k title word(labels, k)
    unset output
}
