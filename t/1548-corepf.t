#!/bin/sh
# cachesim --cores with --tlb and --prefetch, and -E and -M with
# --prefetch (#37): each core's TLB = a plain --tlb run on its threads'
# records; each core's prefetching private levels on disjoint data = a
# plain --prefetch run (t/1550 ties that to Dinero IV) on its records; a
# hand-worked two-thread trace where prefetches downgrade and lose their
# blocks; t/coherence.awk with a next-line prefetcher on random traces;
# one core = the plain hierarchy; nopf_misses = the misses without
# prefetching; -E rows = each configuration alone; partitions of a
# prefetching run refused by -M.
. "$(dirname "$0")/lib.sh"
plan 29

# Random traces of 4 threads on 2 cores (core = tid mod 2), over 4
# regions, one a thread: the same pcs stride forwards a block, forwards 3
# blocks and backwards 20 bytes, one reads at random, one writes, one
# fetches instructions.
awk 'BEGIN { srand(11); print "#reftrace trace 1 seq op addr size tid pc loc func var"
	for (i = 0; i < 6000; i++) {
		t = int(rand() * 4); r = int(rand() * 6); base = t * 16777216; n = ++cnt[t]
		if (r == 0) { a = base + 64 * n; pc = 4096 }
		else if (r == 1) { a = base + 4194304 + 192 * n; pc = 4100 }
		else if (r == 2) { a = base + 8388608 - 20 * n; pc = 4104 }
		else if (r == 3) { a = base + 4 * int(rand() * 65536); pc = 4108 }
		else if (r == 4) { a = base + 12582912 + 8 * n; pc = 4112 }
		else { a = base + 14680064 + 4 * (n % 4096); pc = a }
		printf "%d %s 0x%x 4 %d 0x%x - - -\n", i, r == 4 ? "W" : r == 5 ? "I" : "R", a, t, pc } }' >"$tmp/d"
for c in 0 1; do awk -v c=$c '/^#/ || $5 % 2 == c' "$tmp/d" >"$tmp/d$c"; done

# 1. TLBs: one per core, a write needs no TLB coherence
tlb='-c 1K:2:64 -c 16K:4:64 --tlb 8:2:4K --tlb 64:4:4K --itlb 4:full:4K'
corerows() {	# core c's rows named as a plain run's, columns 1-19
	awk -v c="$1" -v re="$2" '$1 ~ re && $1 ~ "\\." c "$" {sub(/\.[0-9]+$/, "", $1); print}' | cut -d' ' -f1-19
}
for c in 0 1; do
	check_same "--cores 2 --tlb: core $c's TLB rows = a plain --tlb run on its threads' records" \
	    "cachesim --cores 2 $tlb $tmp/d | corerows $c '^TLB'" \
	    "cachesim $tlb $tmp/d$c | awk '/^TLB/' | cut -d' ' -f1-19"
done
sumrows() { awk '/^TLB[0-9]+[ID]? / {print $1, $6, $10, $15, $16}' | sort; }
corerows() { awk '/^TLB[0-9]+[ID]?[.]/ {sub(/[.][0-9]+$/, "", $1); a[$1] += $6; m[$1] += $10; e[$1] += $15; w[$1] += $16; n[$1]++}
	END {for (k in a) if (n[k] == 2) print k, a[k], m[k], e[k], w[k]}' | sort; }
check_same "--cores 2 --tlb: each TLB row (3) is the sum of its 2 cores' rows" \
    "cachesim --cores 2 $tlb $tmp/d | sumrows | tee $tmp/s && test \$(wc -l <$tmp/s) -eq 3" \
    "cachesim --cores 2 $tlb $tmp/d | corerows"
plain() { awk '!/^[A-Z]+[0-9]+[ID]?\./' | cut -d' ' -f1-19 | sed '1s/.*/header/'; }
check_same_rows "--cores 1 --tlb = --tlb (caches, TLBs, AMAT)" \
    "cachesim --cores 1 $tlb $tmp/d | plain" "cachesim $tlb $tmp/d | plain"

# 2a. prefetching private levels, data disjoint: each core's rows = a
# plain run on its records (accesses, misses, evictions, writebacks,
# bytes in and out, pf_issued pf_useless pf_useful pf_unused nopf_misses)
pfcols() { awk -v re="$1" '$1 ~ re {n = split($0, f, " "); print $1, $6, $10, $15, $16, $18, $19, f[n - 4], f[n - 3], f[n - 2], f[n - 1], f[n]} END {exit NR < 2}'; }
corepf() { cachesim --cores 2 "$@" "$tmp/d" | pfcols '^L[0-9]+[.]' | sort; }
plainpf() {	# private levels, options: core k's rows named L1.k ...
	np=$1; shift
	for k in 0 1; do cachesim "$@" "$tmp/d$k" | pfcols "^L[1-$np]$" | awk -v k=$k '{$1 = $1 "." k; print}'; done | sort
}
for p in "1:a 1K:2:64/16K:4:64" "1:m:2 1K:2:64/16K:4:64" "1:t 2K:4:64/16K:4:64" "1:stream:4 1K:2:32/8K:4:32" \
    "1:stride:2 1K:2:64/4K:4:64/64K:8:64" "2:stride:2:16 1K:2:64/4K:4:64/64K:8:64"; do
	set -- $p
	c="--prefetch $1 -c $(echo "$2" | sed 's|/| -c |g')"
	check_same "--cores 2 $1 $2: each core's private rows = a plain run on its records" \
	    "corepf $c" "plainpf $(echo "$2" | awk -F/ '{print NF - 1}') $c"
done

# 2b. By hand: each core's L1 of 2 ways (one set, LRU) prefetching the
# next block after every read (1:a), a shared L2 of 16 that never
# evicts; blocks A 0x1000 and its next A' 0x1040, B 0x1080.
#  0 W A' c1: miss, L2 miss (A' read into L2)               c1 [A'*]
#  1 R A  c0: miss, L2 miss; prefetch A': a read at the shared level
#     downgrades c1's A' (c1 writeback, a write hit in L2), L2 hit;
#     A' in c0 clean (S)                                     c0 [A A'p]
#  2 W A' c0: A' clean: c1's A' invalidated (taken); c0 hit, the
#     prefetch's first use (useful)                          c0 [A A'*]
#  3 R A' c1: miss, coherence; c0's A' downgraded (c0 writeback, L2
#     write hit), L2 hit; prefetch B: L2 miss              c1 [A' Bp]
#  4 R A  c1: miss, L2 hit, evicts A' (clean); prefetch A': miss, L2
#     hit, evicts B unused                                   c1 [A A'p]
# L1.0: 2 accesses (1 read, 1 write), 1 miss, no eviction, 1 writeback
# (a downgrade), 128 bytes in, 64 out, 1 prefetch issued, 1 useful.
# L1.1: 3 accesses (2 reads), 3 misses (1 write), 2 evictions, 1
# writeback (a downgrade), 1 invalidation, 320 bytes in (A' A' B A A'),
# 64 out, 1 coherence miss, 2 issued, 1 evicted unused.  L2: 7 reads
# (0, 1, 1's prefetch, 3, 3's prefetch, 4, 4's prefetch) and 2 writes
# (the downgrades), 3 misses (A' A B); 3 reads from memory.  Without
# prefetches (nopf_misses) c0 misses A and A' (2), c1 A', A' again
# (taken by c0's write) and A (3).
cat >"$tmp/h" <<'EOF'
#reftrace trace 1 seq op addr size tid
0 W 0x1040 4 1
1 R 0x1000 4 0
2 W 0x1040 4 0
3 R 0x1040 4 1
4 R 0x1000 4 1
EOF
check_same "by hand: prefetches downgrade another core's copy and lose theirs" \
    "cachesim --cores 2 --prefetch 1:a -c 128:2:64 -c 1K:16:64 $tmp/h | sed 1d" \
    "printf '%s\n' 'L1 128 2 64 lru 5 3 2 0 4 3 1 0 0.800000 2 2 1 448 128 1 2 3 0 1 1 5' \
	'L1.0 128 2 64 lru 2 1 1 0 1 1 0 0 0.500000 0 1 0 128 64 0 1 1 0 1 0 2' \
	'L1.1 128 2 64 lru 3 2 1 0 3 2 1 0 1.000000 2 1 1 320 64 1 1 2 0 0 1 3' \
	'L2 1024 16 64 lru 9 7 2 0 3 3 0 0 0.333333 0 0 0 192 0 0 0 0 0 0 0 -' \
	'mem - - - - 3 3 0 0 - - - - - - - - - - - - - - - - -' '#amat 95.0000'"

# 2c. the naive model (t/coherence.awk -v PF): random traces of shared
# blocks, a next-block prefetcher in each core's L1, row by row
. "$(dirname "$0")/coherence.sh"
for c in "a 2 2 4:1/16:4 256:1:64/4K:4:64" "m 4 4 4:2/16:2 512:2:64/2K:2:64" \
    "a 2 4 2:2/4:2/32:4 256:2:64/512:2:64/8K:4:64" "m 3 3 8:1/16:4 512:1:64/4K:4:64"; do
	cohcheck $c
done
check_rows "the model's traces make prefetches useful, useless and unused in every core" \
    '$9 > 0 && $10 > 0 && $11 > 0 && $12 > 0' "cachesim --cores 3 --prefetch 1:m -c 512:1:64 -c 4K:4:64 $tmp/g | cohcols | grep '^L1\\.'"

# 2d. one core is the plain hierarchy, prefetchers at every level
nocoh() { awk '!/^L[0-9]+[ID]?\./ {if (NF == 26) {$20 = $21 = ""; $0 = $0; $1 = $1} print}' | sed '1s/.*/header/'; }
trfilter "$D/matmul-standard.lk.gz" >"$tmp/mm"
check_same_rows "--cores 1 --prefetch 1:t --prefetch 2:stride:2 = the plain run (i7)" \
    "cachesim --cores 1 --prefetch 1:t --prefetch 2:stride:2 -c i7 $tmp/d | nocoh" \
    "cachesim --prefetch 1:t --prefetch 2:stride:2 -c i7 $tmp/d | sed '1s/.*/header/'"
check_same_rows "--cores 1 --prefetch 3:stream:2 on a trace without threads = the plain run" \
    "cachesim --cores 1 --prefetch 3:stream:2 -c i7 $tmp/mm | nocoh" \
    "cachesim --prefetch 3:stream:2 -c i7 $tmp/mm | sed '1s/.*/header/'"

# 5. nopf_misses: a prefetching level's twin that never prefetches; at
# the first level it misses as the level does without --prefetch
nopf() { awk -v k="$1" -v re="$2" '$1 ~ re {print k, $1, $NF} END {exit NR < 1}'; }
misses() { awk -v k="$1" -v re="$2" '$1 ~ re {print k, $1, $10} END {exit NR < 1}'; }
check_same "nopf_misses at L1, every kind = the misses without --prefetch" \
    "for k in a m:2 t l s stream:3 stride:2 stride:4:2; do cachesim --prefetch 1:\$k -c 2K:2:64 -c 16K:4:64 $tmp/mm | nopf x '^L1\$'; done" \
    "for k in a m:2 t l s stream:3 stride:2 stride:4:2; do cachesim -c 2K:2:64 -c 16K:4:64 $tmp/mm | misses x '^L1\$'; done"
check_same "nopf_misses at L1, every policy, no write allocation, a split I-cache = without --prefetch" \
    "for c in 2K:4:64:fifo 2K:4:64:plru 2K:4:64:srrip 2K:4:64:lfu 2K:4:64:mru 2K:4:64:random 2K:2:64:lru:wt:nwa 2K:full:64; do cachesim --prefetch 1:t -c \$c $tmp/mm | nopf \$c '^L1\$'; done; cachesim --prefetch i:stream:2 --prefetch 1:a --icache 1K:2:64 -c 2K:2:64 -c 16K:4:64 $tmp/d | nopf i '^L1[ID]\$'" \
    "for c in 2K:4:64:fifo 2K:4:64:plru 2K:4:64:srrip 2K:4:64:lfu 2K:4:64:mru 2K:4:64:random 2K:2:64:lru:wt:nwa 2K:full:64; do cachesim -c \$c $tmp/mm | misses \$c '^L1\$'; done; cachesim --icache 1K:2:64 -c 2K:2:64 -c 16K:4:64 $tmp/d | misses i '^L1[ID]\$'"
awk '{print} NR > 1 && NR % 20000 == 0 {print "#inval", $1, "0x0 0"} NR > 1 && NR % 7001 == 0 {print "#inval", $1, $3, 4096}' "$tmp/mm" >"$tmp/mmi"
check_same "nopf_misses at L1 with invalidate events (all, a page) = the misses without --prefetch" \
    "for k in a stream:2; do cachesim --prefetch 1:\$k -c 2K:2:64 -c 16K:4:64 $tmp/mmi | nopf x '^L1\$'; done" \
    "for k in a stream:2; do cachesim -c 2K:2:64 -c 16K:4:64 $tmp/mmi | misses x '^L1\$'; done"
check_same "--cores 3: each core's nopf_misses at L1 = its misses without --prefetch (invalidations too)" \
    "for k in a stream:2 stride:2; do cachesim --cores 3 --prefetch 1:\$k -c 256:2:64 -c 512:2:64 -c 4K:4:64 $tmp/g | nopf x '^L1'; done" \
    "for k in a stream:2 stride:2; do cachesim --cores 3 -c 256:2:64 -c 512:2:64 -c 4K:4:64 $tmp/g | misses x '^L1'; done"
check_same "nopf_misses is - in inclusive and exclusive hierarchies (the twin sees neither's moves) and at a level without a prefetcher, a count in the others" \
    "for i in nine inclusive exclusive; do cachesim --prefetch 1:a --inclusion \$i -c 2K:2:64 -c 16K:4:64 $tmp/mm | awk -v i=\$i '/^L/ {print i, \$1, (\$NF == \"-\" ? \"-\" : \"n\")}'; done" \
    "printf '%s\n' 'nine L1 n' 'nine L2 -' 'inclusive L1 -' 'inclusive L2 -' 'exclusive L1 -' 'exclusive L2 -'"
check_rows "the prefetchers change the misses the twin does not (the checks above compare something)" \
    '$3 != $4' "cachesim --prefetch 1:stream:3 -c 2K:2:64 -c 16K:4:64 $tmp/mm | awk '\$1 == \"L1\" {print \$1, \$6, \$10, \$NF}'"

# 4. -E with prefetchers: each row = its configuration alone
check_same "-E --prefetch 1:stream:2: 6 rows, each = its configuration's own run, prefetch columns too" \
    "cachesim --prefetch 1:stream:2 -E 1K..4K:2:64/16K:4:64:lru,fifo $tmp/d | tee $tmp/e | awk '!/^#/ {n++} END {exit n != 6}' && sed 1d $tmp/e" \
    "sed 1d $tmp/e | while read -r name rest; do cachesim --prefetch 1:stream:2 \$(echo \"\$name\" | tr / '\n' | sed 's/^/-c /') $tmp/d | awk -v n=\"\$name\" '/^L1 / {a = \$6; m1 = \$10; r1 = \$14; p1 = \$20 \" \" \$21 \" \" \$22 \" \" \$23 \" \" \$24} /^L2 / {m2 = \$10; r2 = \$14; p2 = \$20 \" \" \$21 \" \" \$22 \" \" \$23 \" \" \$24} /^#amat/ {print n, a, m1, r1, m2, r2, \$2, p1, p2}'; done"
check_fail "-E with a prefetcher at a level a configuration lacks: usage, said" 2 \
    "-E: no level 2 to prefetch into" "cachesim --prefetch 2:stride -E 1K:2:64 $tmp/d"

# -M: a prefetch reaches the next block, of another partition
trfilter -b "$tmp/d" >"$tmp/d.rtb"
trfilter -P 2:64 -o "$tmp/p%d.rtb" "$tmp/d.rtb"
check_fail "a prefetching run on a partition: said it will not merge" 0 \
    "partition 0/2: a prefetching run's table: a prefetch reaches blocks of other partitions" \
    "cachesim --prefetch 1:a -c 1K:2:64 -c 16K:4:64 $tmp/p0.rtb >$tmp/p0.tsv"
check_fail "-M of a prefetching run's tables: refused, said" 1 \
    "p0.tsv:1: a prefetching run's table" "cachesim -M $tmp/p0.tsv"
# -M with cores and TLBs: the TLBs' core rows read back and add up
trfilter -P 2:4096 -o "$tmp/q%d.rtb" "$tmp/d.rtb"
o='--cores 2 -c 16K:2:64 -c 64K:4:64 --tlb 8:2:4K --tlb 64:4:4K'
for k in 0 1; do cachesim $o "$tmp/q$k.rtb" >"$tmp/q$k.tsv"; done
check_same_rows "-M of 2 partitions with --cores --tlb (TLB1.0 ... rows) = the whole run" \
    "cachesim -M $tmp/q0.tsv $tmp/q1.tsv" "cachesim $o $tmp/d.rtb"
