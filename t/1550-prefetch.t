#!/bin/sh
# cachesim --prefetch: Dinero IV's fetch policies against its own counts
# (t/data/dinero/*.pf4, recorded by contrib/dinero-oracle), the stream and
# stride prefetchers against a naive model in awk and a hand-worked trace.
. "$(dirname "$0")/lib.sh"
if [ -n "${RT_SMALL:-}" ]; then plan 31; else plan 32; fi	# one less under ASan (ulimit -v)

O=$D/dinero

# NAME.pf4's rows as cachesim's columns: level, demand fetches and
# misses, prefetches issued, those that missed, bytes to the level below
expect() {
	awk 'BEGIN { nm["l1-icache"] = "L1I"; nm["l1-dcache"] = "L1D"; nm["l1-ucache"] = "L1"; nm["l2-ucache"] = "L2" }
	/^l[12]-/ { print nm[$1], $2, $3, $4, $5, $7 }' "$1"
}
got() {
	awk '/^L/ {print $1, $6, $10, $20, $20 - $21, $19} END {exit NR < 2}'
}
for f in "$O"/*.pf4; do
	name=$(basename "$f" .pf4)
	cmd=$(sed -n 's/^# cachesim //p' "$f")
	check_same "$name: --prefetch = Dinero IV -Tfetch (demand and prefetch fetches and misses)" \
	    "cd $O && cachesim $cmd | got" "expect $f"
done

# A naive model of one LRU level with write allocation: every block a
# last-use time, the set a scan; prefetches as cachesim(1) says.
model() {	# kind degree sets ways block entries
	awk -v kind="$1" -v N="$2" -v S="$3" -v W="$4" -v B="$5" -v E="$6" '
	function hex(s,   i, v) {
		v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	function put(b, pf,   s, i, v, best) {
		s = b % S; v = ""; best = -1
		cnt = 0; for (i in res) if (i % S == s) cnt++
		if (cnt == W) {
			for (i in res) if (i % S == s && (best < 0 || st[i] < best)) { best = st[i]; v = i }
			if (pfb[v]) unused++
			delete res[v]; delete pfb[v]
		}
		res[b] = 1; pfb[b] = pf; st[b] = now
	}
	function pfetch(b) {
		now++; issued++
		if (b in res) { st[b] = now; useless++; return }
		put(b, 1)
	}
	function trigger(b, miss, first, pc,   j, e, d) {
		if (kind == "stream" && first)
			for (j = 1; j <= N; j++) pfetch(b + j)
		if (kind != "stride") return
		e = pc % E
		if (!(e in tpc) || tpc[e] != pc) { tpc[e] = pc; last[e] = b; str[e] = 0; conf[e] = 0; return }
		d = b - last[e]
		if (d == 0) return
		if (d == str[e]) { if (conf[e] < 3) conf[e]++ }
		else if (conf[e] > 0) conf[e]--
		else str[e] = d
		last[e] = b
		if (conf[e] >= 2) for (j = 1; j <= N; j++) if (b + j * str[e] >= 0) pfetch(b + j * str[e])
	}
	!/^#/ { op = $2; b = int(hex($3) / B); pc = hex($6); now++; acc++
		if (b in res) { st[b] = now; first = pfb[b]; if (first) useful++; pfb[b] = 0
			if (op != "W") trigger(b, 0, first, pc) }
		else { miss++; put(b, 0); if (op != "W") trigger(b, 1, 1, pc) } }
	END { print acc, miss, issued + 0, useless + 0, useful + 0, unused + 0 }'
}
# a synthetic trace: three pcs striding (one forwards by a block, one by
# 3 blocks, one backwards by 5 words), one reading at random, writes between
awk 'BEGIN { srand(7); print "#reftrace trace 1 seq op addr size tid pc loc func var"
	for (i = 0; i < 3000; i++) {
		r = int(rand() * 5)
		if (r == 0) { a = 4096 + 64 * i; pc = 4096 }
		else if (r == 1) { a = 65536 + 192 * i; pc = 4100 }
		else if (r == 2) { a = 1048576 - 20 * i; pc = 4104 }
		else if (r == 3) { a = 4 * int(rand() * 8192); pc = 4108 }
		else a = 8192 + 8 * i
		printf "%d %s 0x%x 4 - 0x%x - - -\n", i, r == 4 ? "W" : "R", a, pc } }' >"$tmp/syn.txt"
sim() {
	cachesim --prefetch "$1" -c "$2" "$tmp/syn.txt" | awk '$1 == "L1" {print $6, $10, $20, $21, $22, $23} END {exit NR < 1}'
}
check_same "stream:1, 2K:2:64 = the naive model" "sim stream:1 2K:2:64" "model stream 1 16 2 64 64 <$tmp/syn.txt"
check_same "stream:4, 4K:4:32 = the naive model" "sim stream:4 4K:4:32" "model stream 4 32 4 32 64 <$tmp/syn.txt"
check_same "stride:2, 2K:2:64 = the naive model" "sim stride:2 2K:2:64" "model stride 2 16 2 64 64 <$tmp/syn.txt"
check_same "stride:4:2 (two entries: pcs collide), 4K:4:32 = the naive model" \
    "sim stride:4:2 4K:4:32" "model stride 4 32 4 32 2 <$tmp/syn.txt"
check "the stride prefetcher is useful on the synthetic trace" \
    "sim stride:2 2K:2:64 | awk '\$5 > 100 {ok = 1} END {exit !ok}'"

# hand-worked, one set of 4 blocks of 64, next 2 lines: blocks 0..4 read
# in order miss once (0) and each later one is a prefetch's first use (4
# useful); of the 10 prefetches, 4 find their block (1 of 0's, then 2, 3,
# 4 and 5 again); reading block 64 evicts 3, and its prefetches evict 4
# and 5, never used: 2 misses, 12 issued, 4 useless, 4 useful, 1 unused
printf 'R 0x0\nR 0x40\nR 0x80\nR 0xc0\nR 0x100\nR 0x1000\n' >"$tmp/h.txt"
check_same "hand-worked stream:2: 2 misses, 12 issued, 4 useless, 4 useful, 1 unused" \
    "cachesim --prefetch stream:2 -c 256:4:64 $tmp/h.txt | awk '\$1 == \"L1\" {print \$10, \$20, \$21, \$22, \$23}'" \
    "echo 2 12 4 4 1"
# without a prefetcher the table keeps its columns
check_same "no --prefetch: the table's columns as before" \
    "cachesim -c 256:4:64 $tmp/h.txt | head -1 | awk '{print NF}'" "echo 22"
check "a bad prefetcher: usage (status 2)" \
    "cachesim --prefetch 1:x -c 256:4:64 $tmp/h.txt 2>$tmp/e; test \$? -eq 2 && grep -q 'prefetch 1:x' $tmp/e"

# abort=P (Dinero IV's -Tpfabort): the draws are Dinero's minstd
# generator from 1; with always (a) at one level every demand read draws
# once, so pf_aborted is the count of the first READS draws under P% and
# pf_issued the rest (an awk model of the generator)
awk 'BEGIN { for (i = 0; i < 500; i++) printf "%s 0x%x\n", i % 7 ? "R" : "W", 64 * ((i * 37) % 101) }' >"$tmp/ab.txt"
draws() {	# reads percent
	awk -v n="$1" -v p="$2" 'BEGIN { s = 1
		for (i = 0; i < n; i++) { s = (s * 48271) % 2147483647; a += int(s / int(2147483647 / 100)) < p }
		print n - a, a }'
}
reads=$(grep -c '^R' "$tmp/ab.txt")
for p in 5 40 99; do
	check_same "abort=$p: pf_issued and pf_aborted as Dinero's generator draws" \
	    "cachesim --prefetch 1:a:abort=$p -c 1K:2:64 $tmp/ab.txt | awk '\$1 == \"L1\" {print \$20, \$25}'" \
	    "draws $reads $p"
done
check_same "pf_aborted only with abort=P, after nopf_misses" \
    "cachesim --prefetch 1:a -c 1K:2:64 $tmp/ab.txt | head -1 | awk '{print \$NF}'; cachesim --prefetch 1:a:abort=0 --prefetch i:t:abort=3 --icache 1K:2:64 -c 1K:2:64 $tmp/ab.txt | head -1 | awk '{print \$(NF-1), \$NF}'" \
    "printf 'nopf_misses\nnopf_misses pf_aborted\n'"
check "abort on a stride prefetcher, above 100 or not last: usage (status 2)" \
    "for s in stride:2:abort=5 1:a:abort=101 1:a:abort=x 1:abort=5:a 1:stride:2:64:abort=1:x; do
	cachesim --prefetch \$s -c 256:4:64 $tmp/h.txt 2>$tmp/e; test \$? -eq 2 && grep -q \"prefetch \$s\" $tmp/e || exit 1; done"
# the twin's tags count in the memory check: under 1 GB of address space a
# 2G level alone fits (544 MiB of tags), with its twin it does not
if [ -z "${RT_SMALL:-}" ]; then	# make asan: ASan reserves more than that
	check "a prefetching level whose twin's tags do not fit: refused (exit 2), said; alone it runs" \
	    "(ulimit -v 1000000; cachesim --prefetch 1:a -c 2G:8:64 $tmp/h.txt 2>$tmp/e; test \$? -eq 2) &&
	    grep -q 'its twin without prefetches need 1.1 GiB' $tmp/e &&
	    (ulimit -v 1000000; cachesim -c 2G:8:64 $tmp/h.txt | grep -q '^L1 ')"
fi
# -E: each row's prefetch columns (pf_aborted too) = its configuration's own run's
cachesim --prefetch 1:t:abort=30 --prefetch 2:a -E 1K..2K:2:64:lru,fifo/8K:4:64 "$tmp/syn.txt" >"$tmp/E"
check_same "-E --prefetch 1:t:abort=30 --prefetch 2:a: 4 rows, each one's prefetch columns = its own run's" \
    "awk '!/^#/ {p = \$1; for (i = 8; i <= NF; i++) p = p \" \" \$i; print p; n++} END {exit n != 4}' $tmp/E" \
    "sed 1d $tmp/E | while read -r c rest; do
	cachesim --prefetch 1:t:abort=30 --prefetch 2:a \$(echo \$c | tr / '\n' | sed 's/^/-c /') $tmp/syn.txt |
	    awk -v p=\$c '/^L[12] / {for (i = 20; i <= 25; i++) p = p \" \" \$i} END {print p}'; done"
