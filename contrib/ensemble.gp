# ensemble.gp: a cache ensemble written by cachesim -E: the miss ratio
# against the cache size, one line per policy (or per configuration, when
# more than the policy differs); the size is that of the level whose size
# varies most, in bytes on a log scale; a PNG.  A third argument names
# another column (L2_ratio, amat, ...).
#   cachesim -E 1K..64K:4:64:lru,fifo,plru,opt trace > ens.tsv
#   gnuplot -c contrib/ensemble.gp ens.png ens.tsv [L1_ratio]
if (ARGC < 2) {
	print "usage: gnuplot -c ensemble.gp out.png ensemble.tsv [column]"
	exit status 2
}
file = ARG2
want = ARGC >= 3 ? ARG3 : "L1_ratio"
set output ARG1
set terminal pngcairo size 800,500 noenhanced
bytes(x) = x >= 2**30 ? sprintf("%g GiB", x / 2**30) : x >= 2**20 ? sprintf("%g MiB", x / 2**20) : \
	x >= 2**10 ? sprintf("%g KiB", x / 2**10) : sprintf("%g B", x)
# awk, once: the level whose size varies most (lev), then a block per
# line, "label size value" rows, blocks two blank lines apart; a label is
# the configuration without that size, or its policy alone when the
# levels are one and only the policy differs
awk = 'function key(c,   L, f, n, i, g) { n = split(c, L, "/"); split(L[lev], f, ":"); g = ""; ' . \
	'for (i = 1; i <= n; i++) g = g (i > 1 ? "/" : "") (i == lev ? substr(L[i], length(f[1]) + 2) : L[i]); ' . \
	'size = f[1]; return g } ' . \
	'/^#reftrace cache-ensemble/ { for (i = 5; i <= NF; i++) if ($i == want) col = i - 3; next } ' . \
	'/^#/ || !NF { next } ' . \
	'{ r[++n] = $0; m = split($1, L, "/"); levels = m; for (i = 1; i <= m; i++) { split(L[i], f, ":"); ' . \
	'if (!((i, f[1]) in seen)) { seen[i, f[1]] = 1; c[i]++ } } } ' . \
	'END { if (!col) { print "no column " want > "/dev/stderr"; exit 1 } lev = 1; ' . \
	'for (i = 1; i <= levels; i++) if (c[i] > c[lev]) lev = i; ' . \
	'for (k = 1; k <= n; k++) { split(r[k], F, " "); g = key(F[1]); if (!(g in at)) { at[g] = ++ng; name[ng] = g } ' . \
	'rows[g] = rows[g] sprintf("%s %s\n", size, F[col]) } ' . \
	'short = levels == 1; for (i = 1; i <= ng; i++) { split(name[i], f, ":"); ' . \
	'if (i == 1) same = f[1] ":" f[2]; else if (f[1] ":" f[2] != same) short = 0 } ' . \
	'for (i = 1; i <= ng; i++) { split(name[i], f, ":"); ' . \
	'printf "# %s\n%s\n\n", short ? f[3] : name[i], rows[name[i]] } ' . \
	'if (short) { split(same, f, ":"); print "#common " f[1] "-way, " f[2] " B blocks" } }'
data = "< awk -v want=" . want . " '" . awk . "' '" . file . "'"
labels = system("awk -v want=" . want . " '" . awk . "' '" . file . "' | sed -n 's/^# //p'")
common = system("awk -v want=" . want . " '" . awk . "' '" . file . "' | sed -n 's/^#common //p'")
name = system("basename '" . file . "' | sed 's/\\.gz$//; s/\\.[^.]*$//'")
stats data using 1 nooutput
k0 = floor(log(STATS_min) / log(2)); k1 = ceil(log(STATS_max) / log(2))
step = k1 - k0 > 11 ? 2 : 1
set xtics () nomirror
do for [k = k0:k1:step] { set xtics add (bytes(2**k) 2**k) }
set logscale x 2
set xrange [2**k0 / 1.2:2**k1 * 1.2]
set yrange [0:*]
set grid
set title sprintf("%s against cache size: %s%s", want, name, common eq "" ? "" : " (" . common . ")")
set xlabel sprintf("cache size (bytes)")
# the column as words: L2_ratio "L2 miss ratio", amat "average access time (cycles)"
ylab(w) = w eq "amat" ? "average access time (cycles)" : strstrt(w, "_ratio") ? w[1:strstrt(w, "_ratio") - 1] . " miss ratio" : strstrt(w, "_misses") ? w[1:strstrt(w, "_misses") - 1] . " misses" : w
set ylabel ylab(want)
set key outside right top title (common eq "" ? "ways:block:policy" : "policy")
plot for [i = 1:words(labels)] data index i - 1 using 1:2 with linespoints lw 2 pt 7 ps 0.8 \
	title word(labels, i)
