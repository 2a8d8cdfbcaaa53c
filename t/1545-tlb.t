#!/bin/sh
# cachesim --tlb: TLB levels beside the caches (#37 item 3): a hand-worked
# trace, a naive LRU TLB in awk on a generated one, accesses across pages,
# an ensemble of TLBs in one pass = separate runs, partitions merged =
# the whole, and the caches' counts untouched.
. "$(dirname "$0")/lib.sh"
plan 40

tlbrows() { awk '/^TLB/'; }
nocut() { awk '!/^TLB/'; }	# the table without the TLBs' rows

# By hand, 4K pages, TLB1 2 entries in one set (LRU), TLB2 4 entries:
#   R 1000 p1 miss [1]       R 2000 p2 miss [2 1]     W 3000 p3 miss, evicts 1
#   R 2008 p2 hit [2 3]      R 1000 p1 miss, evicts 3 [1 2]
#   R 2ffe+4: p2 hit [2 1], p3 miss, evicts 1 [3 2]
#   M 5000: read p5 miss, evicts 2 [5 3], write hit    I 3004 p3 hit
# TLB1: 10 lookups (7 reads, 2 writes, 1 fetch), 6 misses (5 read, 1
# write), 4 evictions.  TLB2 sees the misses as reads: p1 p2 p3 p1 p3 p5,
# 4 misses.
cat >"$tmp/h" <<'EOF'
#reftrace trace 1 seq op addr size
0 R 0x1000 4
1 R 0x2000 4
2 W 0x3000 4
3 R 0x2008 4
4 R 0x1000 4
5 R 0x2ffe 4
6 M 0x5000 4
7 I 0x3004 4
EOF
check_same "by hand: TLB1's row (10 lookups, 6 misses, 4 evictions, no bytes)" \
    "cachesim -c 1K:2:64 --tlb 2:2:4K $tmp/h | tlbrows" \
    "echo 'TLB1 8192 2 4096 lru 10 7 2 1 6 5 1 0 0.600000 4 0 0 0 0'"
check_same "by hand: TLB2 of 4 entries below it: 6 lookups, 4 misses" \
    "cachesim -c 1K:2:64 --tlb 2:full:4K --tlb 4:full:4K $tmp/h | tlbrows | sed -n 2p" \
    "echo 'TLB2 16384 4 4096 lru 6 6 0 0 4 4 0 0 0.666667 0 0 0 0 0'"
check_same "by hand: --itlb takes the fetch (p3, a miss), TLB2 sees it as a fetch" \
    "cachesim -c 1K:2:64 --itlb 1:1:4K --tlb 2:2:4K --tlb 4:full:4K $tmp/h | tlbrows" \
    "printf '%s\n' 'TLB1I 4096 1 4096 lru 1 0 0 1 1 0 0 1 1.000000 0 0 0 0 0' \
	'TLB1D 8192 2 4096 lru 9 7 2 0 6 5 1 0 0.666667 4 0 0 0 0' \
	'TLB2 16384 4 4096 lru 7 6 0 1 4 4 0 0 0.571429 0 0 0 0 0'"
check_same "by hand: -A's summary has the TLB's line" \
    "cachesim -A -c 1K:2:64 --tlb 2:2:4K $tmp/h | grep '^TLB1 '" \
    "echo 'TLB1              10 accesses            6 misses  miss ratio 0.6000  (0 writebacks)'"
check_same "by hand: --warmup 3 counts the lookups of records 3 on (7, 3 misses)" \
    "cachesim --warmup 3 -c 1K:2:64 --tlb 2:2:4K $tmp/h | tlbrows | cut -d' ' -f6,10" "echo '7 3'"
check_same "by hand: 2M pages, one entry: 9 lookups (2ffe+4 in one page), 1 miss" \
    "cachesim -c 1K:2:64 --tlb 1:1:2M $tmp/h | tlbrows | cut -d' ' -f3-4,6,10" "echo '1 2097152 9 1'"

# accesses across pages: one lookup per page covered
printf '#reftrace trace 1 seq op addr size\n0 R 0xffc 8\n1 R 0x1ffff 1\n2 R 0x20ff0 12304\n' >"$tmp/span"
check_same "across pages: 2 + 1 + 4 lookups of 4K pages" \
    "cachesim -c 1K:2:64 --tlb 64:4:4K $tmp/span | tlbrows | cut -d' ' -f6,10" "echo '7 7'"
check_same "the same in 64K pages: 1 + 1 + 1 lookups, 3 pages" \
    "cachesim -c 1K:2:64 --tlb 64:4:64K $tmp/span | tlbrows | cut -d' ' -f6,10" "echo '3 3'"

# The naive model: per level, sets of ways holding page numbers, LRU by a
# clock; a level's misses go to the next; a modify is a read and a write.
awk 'BEGIN {srand(17); for (i = 0; i < 30000; i++) {
	r = rand()
	if (r < .3) a = int(rand() * 64) * 4096 + 4090 + int(rand() * 6)	# page ends
	else if (r < .6) a = (i * 24) % 400000
	else if (r < .8) a = int(rand() * rand() * 2000000)
	else a = 8000000 + int(rand() * 256) * 65536 + int(rand() * 64)
	o = rand(); o = o < .15 ? "W" : o < .25 ? "M" : o < .35 ? "I" : "R"
	print o, a, 1 + int(rand() * 16) }}' >"$tmp/g.in"
awk 'BEGIN {print "#reftrace trace 1 seq op addr size"} {printf "%d %s 0x%x %d\n", NR - 1, $1, $2, $3}' \
    "$tmp/g.in" >"$tmp/g"
naive() {	# page entries:ways ... <g.in: per level its lookups, misses and evictions
	awk -v page="$1" -v spec="$2" '
	function look(p, lv,   s, i, w, old) {
		s = p % S[lv]; acc[lv]++; clock++
		for (i = 0; i < A[lv]; i++)
			if ((lv, s, i) in tag && tag[lv, s, i] == p) { st[lv, s, i] = clock; return }
		miss[lv]++; w = -1
		for (i = 0; i < A[lv] && w < 0; i++)
			if (!((lv, s, i) in tag)) w = i
		if (w < 0) {
			old = clock + 1; ev[lv]++
			for (i = 0; i < A[lv]; i++)
				if (st[lv, s, i] < old) { old = st[lv, s, i]; w = i }
		}
		tag[lv, s, w] = p; st[lv, s, w] = clock
		if (lv < nl) look(p, lv + 1)
	}
	BEGIN { nl = split(spec, L, "/"); for (k = 1; k <= nl; k++) { split(L[k], f, ":"); A[k] = f[2]; S[k] = f[1] / f[2] } }
	{ for (p = int($2 / page); p <= int(($2 + $3 - 1) / page); p++) { look(p, 1); if ($1 == "M") look(p, 1) } }
	END { for (k = 1; k <= nl; k++) print "TLB" k, acc[k], miss[k], ev[k] + 0 }' "$tmp/g.in"
}
for c in 16:4:4096 64:64:256 8:1:1024 24:2:4096 32:2:4096/256:8:4096 4:2:512/96:3:512; do
	spec=$(echo "$c" | awk -F/ '{for (i = 1; i <= NF; i++) {split($i, f, ":"); printf " --tlb %s:%s:%s", f[1], f[2], f[3]}}')
	page=$(echo "$c" | awk -F: '{print $3}' | sed 's|/.*||')
	check_same "$c: lookups, misses and evictions = the naive LRU TLB" \
	    "cachesim -c 1K:2:64 $spec $tmp/g | tlbrows | cut -d' ' -f1,6,10,15" \
	    "naive $page $(echo "$c" | sed 's/:[0-9]*\//\//g; s/:[0-9]*$//')"
done

# the caches see what they saw: rows, -E rows, --diff, -d unchanged
trfilter "$D/matmul-standard.lk.gz" >"$tmp/mm"
check_same_rows "i7's rows and AMAT with --tlb = without" \
    "cachesim -c i7 --tlb 64:4:4K --tlb 1536:12:4K $tmp/mm | nocut" "cachesim -c i7 $tmp/mm"
check_same "the TLB rows follow the memory row" \
    "cachesim -c i7 --tlb 64:4:4K --tlb 1536:12:4K $tmp/mm | awk '!/^#/ {print \$1}' | tr '\n' ' '; echo" \
    "echo 'L1 L2 L3 mem TLB1 TLB2 '"
check_same_rows "-E's rows with --tlb = without, and the TLB's row after them" \
    "cachesim -E 1K..8K:2:64 --tlb 64:4:4K $tmp/mm | sed '\$d'" "cachesim -E 1K..8K:2:64 $tmp/mm"
check_same_rows "--diff with --tlb = without" \
    "cachesim --diff -E 1K:2:64 -E 2K:2:64 --tlb 64:4:4K $tmp/mm" "cachesim --diff -E 1K:2:64 -E 2K:2:64 $tmp/mm"
check_same_rows "-d with --tlb = without" \
    "cachesim -d -c 1K:2:64 --tlb 8:2:4K $tmp/h" "cachesim -d -c 1K:2:64 $tmp/h"

# an ensemble of TLBs in one pass = each run alone
ens() { cachesim -c 1K:2:64 "$@" $tmp/g | awk '/^tlb:/ {print $1, $2, $3, $5}'; }
alone() {	# each ensemble row's configuration run alone
	while read -r name acc m1 m2; do
		cachesim -c 1K:2:64 $(echo "${name#tlb:}" | tr / '\n' | sed 's/^/--tlb /') $tmp/g |
		    awk -v n="$name" '/^TLB1/ {a = $6; m = $10} /^TLB2/ {m2 = $10} END {print n, a, m, (m2 == "" ? "-" : m2)}'
	done
}
check_same "--tlb 4..512:4:4K: 8 rows, each = its own run" \
    "ens --tlb 4..512:4:4K | tee $tmp/e1 | awk 'END {exit NR != 8}' && cat $tmp/e1" "alone <$tmp/e1"
check_same "entries and ways ranges, policies, two levels: 18 rows, each = its own run" \
    "ens --tlb 16..64:1..4:4K:lru,fifo --tlb 256:8:4K | tee $tmp/e2 | awk 'END {exit NR != 18}' && cat $tmp/e2" \
    "alone <$tmp/e2"
check_same "page sizes 4K..2M: 10 rows, each = its own run" \
    "ens --tlb 16:4:4K..2M | tee $tmp/e3 | awk 'END {exit NR != 10}' && cat $tmp/e3" "alone <$tmp/e3"
check_same "-E with a range of blocks: each row = its own -c run" \
    "cachesim -E 1K..2K:2:32..128 $tmp/g | awk '!/^#/ {print \$1, \$3}'" \
    "for c in 1024:2:32 1024:2:64 1024:2:128 2048:2:32 2048:2:64 2048:2:128; do echo \$c:lru \$(cachesim -c \$c $tmp/g | awk '\$1 == \"L1\" {print \$10}'); done"
check_same "the ensemble's misses fall as entries grow (LRU, full)" \
    "ens --tlb 4..256:full:4K | awk 'NR > 1 && \$3 > m {exit 1} {m = \$3; n++} END {print n}'" "echo 7"
check_same "a TLB ensemble's table: the caches' row then the TLBs', amat -" \
    "cachesim -c 1K:2:64 --tlb 4..8:2:4K $tmp/h | awk '{print \$1, \$NF}'" \
    "printf '%s\n' '#reftrace amat' \"1024:2:64:lru \$(cachesim -c 1K:2:64 $tmp/h | sed -n 's/^#amat //p')\" 'tlb:4:2:4K:lru -' 'tlb:8:2:4K:lru -'"

# -3 on the TLBs: the kinds add up to the misses
check "-3: compulsory + capacity + conflict = misses at TLB1 and TLB2" \
    "cachesim -3 -c 1K:2:64 --tlb 16:2:4K --tlb 64:4:4K $tmp/g | awk '/^TLB/ {if (\$20 + \$21 + \$22 != \$10 || \$10 == 0) exit 1; n++} END {exit n != 2}'"

# partitions of 4K: the TLBs' rows (and the caches') merge into the whole's
trfilter -b "$tmp/g" >"$tmp/g.rtb"
trfilter -P 4:4096 -o "$tmp/p%d.rtb" "$tmp/g.rtb"
for k in 0 1 2 3; do cachesim -c 64K:2:64 --tlb 16:4:4K --tlb 256:8:4K "$tmp/p$k.rtb" >"$tmp/p$k.tsv"; done
check_same_rows "-M of 4 partitions' tables with TLB rows = the whole run" \
    "cachesim -M $tmp/p0.tsv $tmp/p1.tsv $tmp/p2.tsv $tmp/p3.tsv" "cachesim -c 64K:2:64 --tlb 16:4:4K --tlb 256:8:4K $tmp/g.rtb"
check_same_rows "-M -A: the summary, TLBs too" \
    "cachesim -M -A $tmp/p0.tsv $tmp/p1.tsv $tmp/p2.tsv $tmp/p3.tsv" "cachesim -A -c 64K:2:64 --tlb 16:4:4K --tlb 256:8:4K $tmp/g.rtb"
cachesim -c 64K:2:64 --tlb 32:4:4K --tlb 256:8:4K "$tmp/p3.rtb" >"$tmp/o3.tsv"
check_fail "-M: a partition of another TLB refused" 1 "their TLB1 rows differ" \
    "cachesim -M $tmp/p0.tsv $tmp/p1.tsv $tmp/p2.tsv $tmp/o3.tsv"
trfilter -P 4 -o "$tmp/q%d.rtb" "$tmp/g.rtb"
check_fail "a partition of 64-byte pieces under 4K pages: said it will not merge" 0 \
    "TLB1: 4096-byte blocks span partitions of 64 bytes" "cachesim -c 64K:2:64 --tlb 16:4:4K $tmp/q0.rtb"
sed 's/^mem /TLB9 /' "$tmp/p0.tsv" >"$tmp/bad.tsv"
check_fail "the table reader: a TLB row before the memory row, said" 1 \
    "a TLB's row before the memory row" "cachesim -M $tmp/bad.tsv"
awk '/^TLB1/ {print "L9" substr($0, 5); next} {print}' "$tmp/p0.tsv" >"$tmp/bad2.tsv"
check_fail "the table reader: a cache level's row after memory's, said" 1 \
    "a cache level's row after the memory row" "cachesim -M $tmp/bad2.tsv"

# what is refused
check_fail "a page that is not a power of two: usage, said" 2 "--tlb 64:4:3K: page size '3K'" \
    "cachesim --tlb 64:4:3K $tmp/h"
check_fail "entries not a multiple of the ways: usage, said" 2 "10 entries are not a multiple of the associativity 4" \
    "cachesim --tlb 10:4:4K $tmp/h"
check_fail "OPT in a TLB: usage, said" 2 "not opt or pes" "cachesim --tlb 64:4:4K:opt $tmp/h"
check_fail "write policies in a TLB: usage, said" 2 "want ENTRIES:ASSOC:PAGE" "cachesim --tlb 64:4:4K:lru:wt $tmp/h"
check_fail "--itlb alone: usage, said" 2 "an instruction TLB wants a TLB beside it" \
    "cachesim --itlb 64:4:4K $tmp/h"
check_fail "--tlb with --cachegrind: usage" 2 "not cachegrind's model" "cachesim --cachegrind --tlb 64:4:4K $tmp/h"
check_fail "two fields: usage, the TLB's form said" 2 "--tlb 64:4: want ENTRIES:ASSOC:PAGE" \
    "cachesim --tlb 64:4 $tmp/h"
check_fail "0 entries: usage, said (not 256 configurations of 0)" 2 "--tlb 0:4:4K: bad size 0" \
    "cachesim --tlb 0:4:4K $tmp/h"
