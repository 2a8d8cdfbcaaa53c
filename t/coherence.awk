# t/coherence.awk: a naive model of private levels over a shared one,
# kept coherent by MSI (t/1547-coherence.t): per core and private level,
# and for the shared level, the accesses, misses, evictions, writebacks,
# invalidations, coherence misses and downgrades.  -v spec=S:W/S:W/...
# (sets and ways per level, the last shared) -v N=cores; input lines
# "OP BLOCK CORE" (a modify is a read then a write).  Sets are lists of
# ways searched in full, LRU by a clock, write-back and write-allocate.
function find(c, j, b,   s, i) {
	s = b % S[j]
	for (i = 0; i < W[j]; i++) if ((c, j, s, i) in tag && tag[c, j, s, i] == b) return i
	return -1
}
function look(c, j, op, b,   s, i, v, old, vb) {	# core c's level j (the last: shared, c = "s")
	if (j == L) c = "s"
	s = b % S[j]; acc[c, j]++; clock++
	if ((i = find(c, j, b)) >= 0) {
		st[c, j, s, i] = clock
		if (op == "W") dirty[c, j, s, i] = 1
		return
	}
	miss[c, j]++
	if (((c, j, b) in took)) { coh[c, j]++; delete took[c, j, b] }
	if (j < L - 1) look(c, j + 1, "R", b)
	else if (j == L - 1) { downgrade(c, b); look(c, j + 1, "R", b) }
	else memacc++
	v = -1
	for (i = 0; i < W[j] && v < 0; i++) if (!((c, j, s, i) in tag)) v = i
	if (v < 0) {
		old = clock + 1
		for (i = 0; i < W[j]; i++) if (st[c, j, s, i] < old) { old = st[c, j, s, i]; v = i }
		ev[c, j]++
		if (dirty[c, j, s, v]) {
			wb[c, j]++; vb = tag[c, j, s, v]
			if (j < L) look(c, j + 1, "W", vb); else memacc++
		}
	}
	tag[c, j, s, v] = b; st[c, j, s, v] = ++clock; dirty[c, j, s, v] = (op == "W")
}
function other(c, b, inval,   d, j, i, s) {	# the other cores' copies
	for (d = 0; d < N; d++) for (j = 1; j < L && d != c; j++) {
		if ((i = find(d, j, b)) < 0) continue
		s = b % S[j]
		if (dirty[d, j, s, i]) { dirty[d, j, s, i] = 0; wb[d, j]++; if (!inval) dg[d, j]++; look(d, L, "W", b) }
		if (inval) { delete tag[d, j, s, i]; delete dirty[d, j, s, i]; inv[d, j]++; took[d, j, b] = 1 }
	}
}
function downgrade(c, b) { other(c, b, 0) }
function access(c, op, b) {
	if (op == "W") other(c, b, 1)
	look(c, 1, op, b)
}
BEGIN { L = split(spec, f, "/"); for (j = 1; j <= L; j++) { split(f[j], g, ":"); S[j] = g[1]; W[j] = g[2] } }
{ if ($1 == "M") { access($3, "R", $2); access($3, "W", $2) } else access($3, $1, $2) }
END {
	for (j = 1; j < L; j++) {
		a = m = e = w = v = h = d = 0
		for (c = 0; c < N; c++) { a += acc[c, j]; m += miss[c, j]; e += ev[c, j]; w += wb[c, j]; v += inv[c, j]; h += coh[c, j]; d += dg[c, j] }
		print "L" j, a, m, e, w, v, h, d
		for (c = 0; c < N; c++)
			print "L" j "." c, acc[c, j] + 0, miss[c, j] + 0, ev[c, j] + 0, wb[c, j] + 0, inv[c, j] + 0, coh[c, j] + 0, dg[c, j] + 0
	}
	print "L" L, acc["s", L] + 0, miss["s", L] + 0, ev["s", L] + 0, wb["s", L] + 0, 0, 0, 0
	print "mem", memacc + 0
}
