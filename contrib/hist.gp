# hist.gp: a reuse-distance histogram written by reusedist (its bins, or
# single distances with --exact, and the cold accesses): the fraction of
# accesses in each bin as bars, the cumulative fraction as a line; a PNG.
#   gnuplot -c contrib/hist.gp hist.png hist.tsv
if (ARGC < 2) {
	print "usage: gnuplot -c hist.gp out.png hist.tsv"
	exit status 2
}
file = ARG2
set output ARG1
set terminal pngcairo size 800,500 noenhanced
meta(key) = system("sed -n 's/^#" . key . " //p' '" . file . "' | head -1")
block = meta("block"); accesses = meta("accesses"); rate = meta("rate")
name = system("basename '" . file . "' | sed 's/\\.gz$//; s/\\.[^.]*$//'")
# bins (lo < hi past 1) as bars a bin each; single distances (--exact)
# on their own axis, the cold accesses said in the title
stats file using 3 nooutput
rows = STATS_records
undefine STATS_*
stats file using ($1 == $2 ? 0 : 1) nooutput
exact = exists("STATS_sum") && STATS_sum == 0	# none when all are cold
cold = system("awk '$1 == \"cold\" { print $4 }' '" . file . "'")
every = rows > 24 ? ceil(rows / 24.0) : 1
bin(lo, hi, i) = i % every != 0 && lo ne "cold" ? "" : lo eq hi ? lo : lo . "-" . hi
set title sprintf("reuse distances of %s: %s accesses, %s B blocks%s%s", name, accesses, block, \
	rate eq "1" || rate eq "" ? "" : ", sampled at " . rate, \
	exact && cold ne "" ? sprintf(", %.3g%% cold", 100 * cold) : "")
set xlabel sprintf("reuse distance (distinct %s B blocks since the last use%s)", block, \
	exact ? "" : "; cold: first use")
set ylabel "fraction of accesses"
set y2label "cumulative fraction"
set yrange [0:*]
set y2range [0:1]
set ytics nomirror
set y2tics 0.2
set grid y2tics
set key right center
if (exact) {
	set xtics nomirror
	set xrange [-0.5:*]
	plot file using 1:4 with impulses lw 2 lc rgb "#1f77b4" title "fraction at the distance", \
		'' using 1:5 axes x1y2 with steps lw 1.5 lc rgb "#ff7f0e" title "cumulative"
} else {
	set xtics rotate by -45 nomirror
	set xrange [-0.6:rows - 0.4]
	set style fill solid 0.8 border -1
	set boxwidth 0.8
	plot file using 0:4:xticlabels(bin(strcol(1), strcol(2), int(column(0)))) with boxes \
		lc rgb "#1f77b4" title "fraction in the bin", \
		'' using 0:5 axes x1y2 with linespoints pt 7 ps 0.6 lc rgb "#ff7f0e" title "cumulative"
}
