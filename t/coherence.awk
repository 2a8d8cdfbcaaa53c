# t/coherence.awk: a naive model of private levels over a shared one,
# kept coherent by MSI (t/1547-coherence.t): per core and private level,
# and for the shared level, the accesses, misses, evictions, writebacks,
# invalidations, coherence misses and downgrades.  -v spec=S:W/S:W/...
# (sets and ways per level, the last shared) -v N=cores; input lines
# "OP BLOCK CORE" (a modify is a read then a write).  Sets are lists of
# ways searched in full, LRU by a clock, write-back and write-allocate.
# -v PF=a|m: each core's first level prefetches the next block after
# every demand read (a) or read miss (m), as a read from below; then the
# first levels' rows end with pf_issued pf_useless pf_useful pf_unused
# nopf_misses, the last the misses of a twin of each first level that
# sees its demand accesses and the other cores' writes, never a prefetch.
function find(c, j, b,   s, i) {
	s = b % S[j]
	for (i = 0; i < W[j]; i++) if ((c, j, s, i) in tag && tag[c, j, s, i] == b) return i
	return -1
}
function look(c, j, op, b,   s, i) {	# core c's level j (the last: shared, c = "s")
	if (j == L) c = "s"
	s = b % S[j]; acc[c, j]++; clock++
	if ((i = find(c, j, b)) >= 0) {
		st[c, j, s, i] = clock
		if (op == "W") dirty[c, j, s, i] = 1
		if (pfb[c, j, s, i]) { useful[c, j]++; pfb[c, j, s, i] = 0 }
		if (j == 1 && op == "R" && PF == "a") prefetch(c, b + 1)
		return
	}
	miss[c, j]++
	if (((c, j, b) in took)) { coh[c, j]++; delete took[c, j, b] }
	if (j < L - 1) look(c, j + 1, "R", b)
	else if (j == L - 1) { downgrade(c, b); look(c, j + 1, "R", b) }
	else memacc++
	put(c, j, b, op == "W", 0)
	if (j == 1 && op == "R" && PF != "") prefetch(c, b + 1)
}
function put(c, j, b, d, pf,   s, i, v, old, vb) {	# b into a way, the LRU one evicted
	s = b % S[j]; v = -1
	for (i = 0; i < W[j] && v < 0; i++) if (!((c, j, s, i) in tag)) v = i
	if (v < 0) {
		old = clock + 1
		for (i = 0; i < W[j]; i++) if (st[c, j, s, i] < old) { old = st[c, j, s, i]; v = i }
		ev[c, j]++
		if (pfb[c, j, s, v]) unused[c, j]++
		if (dirty[c, j, s, v]) {
			wb[c, j]++; vb = tag[c, j, s, v]
			if (j < L) look(c, j + 1, "W", vb); else memacc++
		}
	}
	tag[c, j, s, v] = b; st[c, j, s, v] = ++clock; dirty[c, j, s, v] = d; pfb[c, j, s, v] = pf
}
function prefetch(c, b,   i) {	# into core c's first level: a read below, no miss counted
	issued[c]++; clock++
	if ((i = find(c, 1, b)) >= 0) { st[c, 1, b % S[1], i] = clock; useless[c]++; return }
	if (L > 2) look(c, 2, "R", b); else { downgrade(c, b); look(c, 2, "R", b) }
	delete took[c, 1, b]
	put(c, 1, b, 0, 1)
}
function other(c, b, inval,   d, j, i, s) {	# the other cores' copies
	for (d = 0; d < N; d++) for (j = 1; j < L && d != c; j++) {
		if ((i = find(d, j, b)) < 0) continue
		s = b % S[j]
		if (dirty[d, j, s, i]) { dirty[d, j, s, i] = 0; wb[d, j]++; if (!inval) dg[d, j]++; look(d, L, "W", b) }
		if (inval) { if (pfb[d, j, s, i]) unused[d, j]++; delete tag[d, j, s, i]; delete dirty[d, j, s, i]; delete pfb[d, j, s, i]; inv[d, j]++; took[d, j, b] = 1 }
	}
}
function downgrade(c, b) { other(c, b, 0) }
function access(c, op, b,   d) {
	if (op == "W") { other(c, b, 1); for (d = 0; d < N; d++) if (d != c) delete twin[d, b] }
	if (PF != "") {	# the twin: blocks by core, LRU in a set by a clock
		if (!((c, b) in twin)) { nopf[c]++; twinput(c, b) }
		twin[c, b] = ++tclock
	}
	look(c, 1, op, b)
}
function twinput(c, b,   k, n, old, v, f) {
	n = 0; old = tclock + 1
	for (k in twin) {
		split(k, f, SUBSEP)
		if (f[1] == c && f[2] % S[1] == b % S[1]) { n++; if (twin[k] < old) { old = twin[k]; v = k } }
	}
	if (n == W[1]) delete twin[v]
}
BEGIN { L = split(spec, f, "/"); for (j = 1; j <= L; j++) { split(f[j], g, ":"); S[j] = g[1]; W[j] = g[2] } }
{ if ($1 == "M") { access($3, "R", $2); access($3, "W", $2) } else access($3, $1, $2) }
END {
	for (j = 1; j < L; j++) {
		a = m = e = w = v = h = d = 0
		for (c = 0; c < N; c++) { a += acc[c, j]; m += miss[c, j]; e += ev[c, j]; w += wb[c, j]; v += inv[c, j]; h += coh[c, j]; d += dg[c, j] }
		pi = pu = pe = pn = 0
		for (c = 0; c < N && j == 1; c++) { pi += issued[c]; pu += useless[c]; pe += useful[c, 1]; pn += unused[c, 1]; pm += nopf[c] }
		print "L" j, a, m, e, w, v, h, d pfcols(j, pi, pu, pe, pn, pm)
		for (c = 0; c < N; c++)
			print "L" j "." c, acc[c, j] + 0, miss[c, j] + 0, ev[c, j] + 0, wb[c, j] + 0, inv[c, j] + 0, coh[c, j] + 0, dg[c, j] + 0 \
			    pfcols(j, issued[c], useless[c], useful[c, 1], unused[c, 1], nopf[c])
	}
	print "L" L, acc["s", L] + 0, miss["s", L] + 0, ev["s", L] + 0, wb["s", L] + 0, 0, 0, 0 pfcols(L)
	print "mem", memacc + 0
}
function pfcols(j, i, u, e, n, m) { return PF == "" ? "" : j > 1 ? " 0 0 0 0 -" : " " i + 0 " " u + 0 " " e + 0 " " n + 0 " " m + 0 }
