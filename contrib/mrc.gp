# mrc.gp: miss-ratio curves written by reusedist -C, one line per trace,
# named after its file (matmul-blocked.tsv: matmul-blocked; only .gz and
# a table's .tsv .mrc .txt .dat are cut, so lua.mrc.h stays itself), the
# cache size in bytes on a log scale; a PNG.  A sampled curve has no rows
# below its #resolution.
#   gnuplot -c contrib/mrc.gp mrc.png standard.tsv blocked.tsv
#   gnuplot -e "file='a.tsv b.tsv'" contrib/mrc.gp > both.png	(the older form)
if (ARGC >= 2) {
	set output ARG1
	file = ""
	do for [i = 2:ARGC] { file = file . " " . value("ARG" . i) }
}
if (!exists("file")) file = "mrc.tsv"
set terminal pngcairo size 800,500 noenhanced
# bytes as B, KiB, MiB, GiB at powers of two, as the suite's pictures say them
bytes(x) = x >= 2**30 ? sprintf("%g GiB", x / 2**30) : x >= 2**20 ? sprintf("%g MiB", x / 2**20) : \
	x >= 2**10 ? sprintf("%g KiB", x / 2**10) : sprintf("%g B", x)
name(f) = system("basename '" . f . "' | sed 's/\\.gz$//; s/\\.\\(tsv\\|mrc\\|txt\\|dat\\)$//'")
lo = 1e300; hi = 0
do for [f in file] {
	stats f using ($2 > 0 ? $2 : NaN) nooutput
	lo = STATS_min < lo ? STATS_min : lo
	hi = STATS_max > hi ? STATS_max : hi
}
k0 = floor(log(lo) / log(2)); k1 = ceil(log(hi) / log(2))
step = k1 - k0 > 11 ? 2 : 1
set xtics () nomirror
do for [k = k0:k1:step] { set xtics add (bytes(2**k) 2**k) }
set logscale x 2
set xrange [2**k0:2**k1]
set xlabel "cache size (bytes; fully associative LRU)"
set ylabel "miss ratio"
set yrange [0:*]
set grid
set key top right title "trace"
set title "miss-ratio curves (reusedist -C)"
plot for [f in file] f using ($2 > 0 ? $2 : 1/0):4 with steps lw 2 title name(f)
