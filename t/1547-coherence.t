#!/bin/sh
# cachesim --cores: private levels over a shared one, MSI (#37 item 4): a
# hand-worked two-thread trace, a naive model (t/coherence.awk) on
# random traces of 2 to 4 threads, one core = the plain hierarchy, -E
# rows = each configuration alone, --diff = two -d runs, partitions
# merged = the whole, and what is refused.
. "$(dirname "$0")/lib.sh"
plan 26

# By hand: blocks A 0x1000, B 0x2000, C 0x3000, D 0x4000; threads 0 and
# 1 on cores 0 and 1; each core's L1 of 2 ways (one set, LRU), a shared
# L2 of 8 that never evicts here.  c0 [..] and c1 [..] are the L1s, oldest
# first, * dirty (M), else S.
#  0 R A c0: miss (compulsory), L2 miss           c0 [A]
#  1 R A c1: miss, L2 hit                         c1 [A]
#  2 W A c0: c1's A invalidated (A taken from c1); c0 hit  c0 [A*]
#  3 R A c1: miss, coherence; fetch downgrades c0's A (c0 writeback to L2)
#  4 W B c1: miss, L2 miss                        c1 [A B*]
#  5 R B c0: miss; c1's B downgraded (c1 writeback)        c0 [A B]
#  6 W A c1: c0's A invalidated; c1 hit           c1 [B A*]
#  7 R A c0: miss, coherence; c1's A downgraded   c0 [B A]
#  8 W C c0: miss, L2 miss, evicts B (clean)      c0 [A C*]
#  9 R B c0: miss (capacity), evicts A            c0 [C* B]
# 10 M B c1: read hit; the write invalidates c0's B; hit   c1 [A B*]
# 11 R B c0: miss, coherence; c1's B downgraded   c0 [C* B]
# 12 R C c1: miss; c0's C downgraded; evicts A (clean since 7)  c1 [B C]
# 13 W D c1: miss, L2 miss, evicts B (clean since 11)      c1 [C D*]
# L1.0: 7 accesses (5 reads), 6 misses (5 read), 2 evictions, 2
# writebacks (both downgrades), 2 invalidations, 2 coherence misses.
# L1.1: 8 accesses (4 reads: the modify is a read and a write), 5 misses
# (3 read), 2 evictions, 3 writebacks (downgrades), 1 invalidation, 1
# coherence miss.  L2: 11 fetches and 5 writebacks, 4 misses (A B C D).
cat >"$tmp/h" <<'EOF'
#reftrace trace 1 seq op addr size tid
0 R 0x1000 4 0
1 R 0x1000 4 1
2 W 0x1000 4 0
3 R 0x1000 4 1
4 W 0x2000 4 1
5 R 0x2000 4 0
6 W 0x1000 4 1
7 R 0x1000 4 0
8 W 0x3000 4 0
9 R 0x2000 4 0
10 M 0x2000 4 1
11 R 0x2000 4 0
12 R 0x3000 4 1
13 W 0x4000 4 1
EOF
hand='--cores 2 -c 128:2:64 -c 512:8:64'
check_same "by hand: the sum, each core's L1, the shared L2 and memory" \
    "cachesim $hand $tmp/h | sed 1d" \
    "printf '%s\n' 'L1 128 2 64 lru 15 9 6 0 11 8 3 0 0.733333 4 5 3 704 320 3 5' \
	'L1.0 128 2 64 lru 7 5 2 0 6 5 1 0 0.857143 2 2 2 384 128 2 2' \
	'L1.1 128 2 64 lru 8 4 4 0 5 3 2 0 0.625000 2 3 1 320 192 1 3' \
	'L2 512 8 64 lru 16 11 5 0 4 4 0 0 0.250000 0 0 0 256 0 0 0' \
	'mem - - - - 4 4 0 0 - - - - - - - - - - - -' '#amat 69.0000'"
check_same "by hand: the header ends with coherence downgrades" \
    "cachesim $hand $tmp/h | sed -n '1s/.* bytes_out//p'" "echo ' coherence downgrades'"
# c0's misses: A B C compulsory, B (9) capacity, A (7) B (11) coherence;
# c1's: A B C D compulsory, A (3) coherence
check_same "by hand, -3: compulsory capacity conflict coherence, per core" \
    "cachesim -3 $hand $tmp/h | awk '/^L1/ {print \$1, \$20, \$21, \$22, \$23}'" \
    "printf '%s\n' 'L1 7 1 0 3' 'L1.0 3 1 0 2' 'L1.1 4 0 0 1'"
check_same "by hand, -d: the level that served each access" \
    "cachesim -d $hand $tmp/h | awk 'NR > 1 {printf \"%s \", \$2} END {print \"\"}'" \
    "echo 'mem L2 L1 L2 mem L2 L1 L2 mem L2 L1 L2 L2 mem '"
# --flush: c1's dirty D goes to L2 (4 writebacks), then L2's A B C D to memory
check_same "by hand, --flush: every core's dirty copies, then the shared level's" \
    "cachesim --flush $hand $tmp/h | awk '/^L1.1 |^L2 / {print \$1, \$16} /^mem/ {print \$6}'" \
    "printf '%s\n' 'L1.1 4' 'L2 4' 8"
check_same "by hand, -A: a line of coherence misses and downgrades under each level" \
    "cachesim -A $hand $tmp/h | sed -n 2p" "echo '                   3 coherence         5 downgrades'"
check_same "by hand: a thread id above the cores goes to tid mod n (3 -> core 1)" \
    "sed 's/ 1\$/ 3/' $tmp/h | cachesim $hand | sed 1d" "cachesim $hand $tmp/h | sed 1d"

# the naive model (t/coherence.sh, t/coherence.awk)
. "$(dirname "$0")/coherence.sh"
for c in "2 2 4:1/16:4 256:1:64/4K:4:64" "4 4 4:2/16:2 512:2:64/2K:2:64" \
    "2 4 2:2/4:2/32:4 256:2:64/512:2:64/8K:4:64" "3 3 8:1/16:4 512:1:64/4K:4:64"; do
	cohcheck - $c
done
cohgen 3 9 | cohtrace >"$tmp/r"
check_rows "-3: compulsory + capacity + conflict + coherence = misses, every level's row" \
    '$1 == "mem" || ($20 + $21 + $22 + $23 == $10 && $10 > 0)' \
    "cachesim -3 --cores 3 -c 256:2:64 -c 512:2:64 -c 4K:4:64 $tmp/r"
check_rows "each private level's row is the sum of its cores' rows" \
    '$2 == "sum"' \
    "cachesim --cores 3 -c 256:2:64 -c 512:2:64 -c 4K:4:64 $tmp/r | awk '/^L[12] / {for (i = 6; i <= 21; i++) s[\$1, i] = \$i; l = \$1} /^L[12]\\./ {n++; for (i = 6; i <= 21; i++) if (i != 14) t[l, i] += \$i} END {for (k in s) {split(k, f, SUBSEP); if (f[2] != 14 && s[k] != t[k]) bad = 1}; print bad || n != 6 ? \"x differ\" : \"x sum\"}'"

# one core is the plain hierarchy; a trace without thread ids all core 0's
plain() { awk '!/^L[0-9]+[ID]?\./' | cut -d' ' -f1-19 | sed '1s/.*/header/'; }
trfilter "$D/matmul-standard.lk.gz" >"$tmp/mm"
check_same_rows "--cores 1: the plain hierarchy's rows and AMAT (i7)" \
    "cachesim --cores 1 -c i7 $tmp/mm | plain" "cachesim -c i7 $tmp/mm | plain"
awk 'NR > 1 && NR % 5 == 0 && $2 == "R" {$2 = "I"} 1' "$tmp/r" >"$tmp/ri"	# fetches too
check_same_rows "--cores 1 -3 --icache: the plain hierarchy's, split and classified" \
    "cachesim -3 --cores 1 --icache 8K:2:64 -c 16K:4:64 -c 256K:8:64 $tmp/ri | cut -d' ' -f1-22 | plain" \
    "cachesim -3 --icache 8K:2:64 -c 16K:4:64 -c 256K:8:64 $tmp/ri | cut -d' ' -f1-22 | plain"
check_same_rows "no thread ids (lackey): --cores 4 is core 0 alone, = the plain run" \
    "cachesim --cores 4 -c 4K:2:64 -c 64K:8:64 $tmp/mm | plain" "cachesim -c 4K:2:64 -c 64K:8:64 $tmp/mm | plain"

# ensembles: each row = its configuration alone; --diff = two -d runs
check_same "-E --cores 2: 8 rows, each = its configuration's own run" \
    "cachesim --cores 2 -E 256..2K:2:64/8K:4:64:lru,fifo $tmp/r | tee $tmp/e | awk '!/^#/ {n++} END {exit n != 8}' && sed 1d $tmp/e" \
    "sed 1d $tmp/e | while read -r name rest; do cachesim --cores 2 \$(echo \"\$name\" | tr / '\n' | sed 's/^/-c /') $tmp/r | awk -v n=\"\$name\" '/^L1 / {a = \$6; m1 = \$10; r1 = \$14} /^L2 / {m2 = \$10; r2 = \$14} /^#amat/ {print n, a, m1, r1, m2, r2, \$2}'; done"
check_same "--diff --cores 2 = the accesses two -d runs serve from other levels" \
    "cachesim --diff --cores 2 -E 256:2:64/4K:4:64 -E 512:2:64/4K:4:64 $tmp/r | sed 1d" \
    "cachesim -d --cores 2 -c 256:2:64 -c 4K:4:64 $tmp/r | sed 1d >$tmp/d1; cachesim -d --cores 2 -c 512:2:64 -c 4K:4:64 $tmp/r | sed 1d | paste -d' ' $tmp/d1 - | awk '\$2 != \$6 {print \$1, \$2, \$6}'"
check_rows "--diff --cores: some accesses differ (the check above compares something)" \
    '$1 >= 0' "cachesim --diff --cores 2 -E 256:2:64/4K:4:64 -E 512:2:64/4K:4:64 $tmp/r | sed 1d"

# partitions by block: all cores' copies of a block in one partition
trfilter -b "$tmp/r" >"$tmp/r.rtb"
trfilter -P 4:64 -o "$tmp/p%d.rtb" "$tmp/r.rtb"
for k in 0 1 2 3; do cachesim -3 --cores 3 -c 256:1:64 -c 4K:4:64 "$tmp/p$k.rtb" >"$tmp/p$k.tsv"; done
check_same_rows "-M of 4 partitions' tables = the whole run (-3: compulsory and coherence exact)" \
    "cachesim -M $tmp/p0.tsv $tmp/p1.tsv $tmp/p2.tsv $tmp/p3.tsv | cut -d' ' -f1-19,20,23,24" \
    "cachesim -3 --cores 3 -c 256:1:64 -c 4K:4:64 $tmp/r.rtb | cut -d' ' -f1-19,20,23,24"
cachesim -3 -c 256:1:64 -c 4K:4:64 "$tmp/p3.rtb" >"$tmp/o3.tsv"
check_fail "-M: a partition's table without cores refused" 1 "their L1.0 rows differ|coherence columns" \
    "cachesim -M $tmp/p0.tsv $tmp/p1.tsv $tmp/p2.tsv $tmp/o3.tsv"

# what is refused
check_fail "one level: usage, said" 2 "--cores: the last level is shared" "cachesim --cores 2 -c 1K:2:64 $tmp/h"
check_fail "inclusive: usage, said" 2 "non-inclusive" "cachesim --cores 2 --inclusion inclusive -c 1K:2:64 -c 8K:4:64 $tmp/h"
check_fail "two block sizes: usage, said" 2 "one block size" "cachesim --cores 2 -c 1K:2:32 -c 8K:4:64 $tmp/h"
check_fail "--cores 65: usage, said" 2 "--cores 65: 1 to 64" "cachesim --cores 65 $tmp/h"
check_fail "--cores with --misses: usage, said" 2 "--cores with --misses: each core.s levels" "cachesim --cores 2 --misses 1 $hand $tmp/h"
