# mae.awk [-v lo=C] exact.mrc sampled.mrc: the mean absolute difference of
# two miss-ratio step curves (reusedist -C) at cache sizes lo * 2^(k/4)
# blocks, k = 0, 1, ..., up to twice the first curve's largest size;
# "nan" and exit 1 when a curve has no rows (no mean of nothing).
FNR == 1 { f++ }
/^#/ { next }
{ b[f, ++n[f]] = $1; r[f, n[f]] = $4 }
function at(g, c) {	# sizes only grow: walk on from the last position
	while (p[g] < n[g] && b[g, p[g] + 1] <= c) p[g]++
	return r[g, p[g] ? p[g] : 1]
}
END {
	if (n[1] == 0 || n[2] == 0) {
		print "nan"
		exit 1
	}
	if (lo < 1) lo = 1
	max = b[1, n[1]] * 2
	for (k = 0; (c = int(lo * 2 ^ (k / 4))) <= max; k++) {
		d = at(1, c) - at(2, c); s += d < 0 ? -d : d; m++
	}
	printf "%.5f\n", s / m
}
