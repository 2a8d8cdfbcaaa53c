#!/bin/sh
# Partitions (issue 17): trfilter -P n splits in one read and records the
# partition in each header; cachesim -M adds partitions' tables up to the
# single run's, byte for byte, and refuses what would not; reusedist -M
# of partitions against a naive stack per partition.
. "$(dirname "$0")/lib.sh"
U="$(dirname "$0")/unit"
plan 67

trfilter -t RWM -b "$D/bsort-reversed.lk.gz" >"$tmp/all.rtb"
trfilter -P 4 -o "$tmp/p%d.rtb" "$tmp/all.rtb"
trfilter -P 4:128 -o "$tmp/q%d.rtb" "$tmp/all.rtb"
# the fingerprint of the trace split (reftrace(5)), computed apart
FP=$(trfilter "$tmp/all.rtb" | python3 "$(dirname "$0")/fp.py")

# trfilter: one read = n reads of -P k/n (checks cachesim and reusedist
# do not take part in)
stubok 'cachesim reusedist'
for k in 0 3; do
	check_same "-P 4 -o p%d.rtb: partition $k = -P $k/4 -b" \
	    "cat $tmp/p$k.rtb" "trfilter -P $k/4 -b $tmp/all.rtb"
done
check_same "the partitions hold every access once (pieces of 64 bytes)" \
    "trfilter $tmp/p0.rtb $tmp/p1.rtb $tmp/p2.rtb $tmp/p3.rtb | awk '!/^#/ {print \$1, \$2}' | sort -u | wc -l | awk '\$1 > 0'" \
    "trfilter -P 0/1 $tmp/all.rtb | awk '!/^#/ {print \$1, \$2}' | sort -u | wc -l"
check_same "the binary header records 2/4, 64 bytes and that the fingerprint follows (bytes 9-15)" \
    "od -An -tu1 -j9 -N7 $tmp/p2.rtb | tr -s ' '" "echo ' 134 2 0 0 4 0 0'"
check_same "... and the fingerprint, u64le (bytes 16-23)" \
    "od -An -tx1 -j16 -N8 $tmp/p2.rtb | tr -d ' '" "echo $FP | sed 's/../& /g' | awk '{for (i = NF; i > 0; i--) printf \"%s\", \$i; print \"\"}'"
check_same "the text header records it on its second line" \
    "trfilter -P 2/4:128 $tmp/all.rtb | sed -n 2p" "echo '#partition 2/4:128 fp=$FP'"
check_same "an old binary trace (zero spare bytes) reads as before" \
    "od -An -tu1 -j9 -N7 $tmp/all.rtb | tr -s ' '" "echo ' 0 0 0 0 0 0 0'"
check_same "-o part%03d.rtb names the partitions with three digits" \
    "cd $tmp && trfilter -P 2 -o w%03d.rtb all.rtb && ls w*.rtb" "printf 'w000.rtb\nw001.rtb\n'"
check_fail "-P 4 without a %d in -o: usage error" 2 "name the partitions with -o and a %d" \
    "trfilter -P 4 $tmp/all.rtb"
check_fail "-P 4 -o a%d%d: usage error" 2 "one %d, and no other %" \
    "trfilter -P 4 -o $tmp/a%d%d $tmp/all.rtb"
check_fail "-P 0: usage error" 2 "want n or n:bytes" "trfilter -P 0 -o $tmp/x%d $tmp/all.rtb"
check_fail "a corrupt partition in a binary header: said" 1 "bad partition in the header" \
    "{ head -c 9 $tmp/all.rtb; printf '\\006\\005\\000\\000\\004\\000\\000'; tail -c +17 $tmp/all.rtb; } | trfilter"
check_fail "-P 2/4:96 -b: a binary header cannot record it, said" 0 "not recorded in the header" \
    "trfilter -P 2/4:96 -b -o $tmp/x.rtb $tmp/all.rtb"

stubok ''

# cachesim -M: the sum of the partitions is the single run, for every
# policy whose sets are independent
for pol in lru fifo mru plru srrip lfu opt pes; do
	for k in 0 1 2 3; do cachesim -c 1K:2:64:$pol -c 4K:4:64:$pol "$tmp/p$k.rtb" >"$tmp/c$k"; done
	check_same_rows "-M of 4 partitions = one run, $pol" \
	    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/c3" "cachesim -c 1K:2:64:$pol -c 4K:4:64:$pol $tmp/all.rtb"
done
for o in "--inclusion inclusive" "--inclusion exclusive --latency 1,2,3" "--icache 1K:2:64"; do
	for k in 0 1 2 3; do cachesim $o -c 1K:2:64:lru:wt:nwa -c 8K:4:128:fifo "$tmp/q$k.rtb" >"$tmp/c$k"; done
	check_same_rows "-M = one run: $o, write-through, 128-byte L2 blocks" \
	    "cachesim -M $tmp/c3 $tmp/c1 $tmp/c2 $tmp/c0" "cachesim $o -c 1K:2:64:lru:wt:nwa -c 8K:4:128:fifo $tmp/all.rtb"
done
check_same_rows "-M -A: the single run's summary" \
    "cachesim -M -A $tmp/c3 $tmp/c1 $tmp/c2 $tmp/c0" "cachesim -A --icache 1K:2:64 -c 1K:2:64:lru:wt:nwa -c 8K:4:128:fifo $tmp/all.rtb"
check_same "a partition's table reads back and is written again the same" \
    "$U/cachestream cache $tmp/c1" "cat $tmp/c1"
for k in 0 1 2 3; do cachesim -3 -c 1K:2:64 -c 4K:4:64 "$tmp/p$k.rtb" >"$tmp/t$k"; done
cachesim -3 -c 1K:2:64 -c 4K:4:64 "$tmp/all.rtb" >"$tmp/t.all"
check_same "-3: compulsory misses add up to the single run's" \
    "cachesim -M $tmp/t0 $tmp/t1 $tmp/t2 $tmp/t3 2>/dev/null | awk '/^L/ {print \$1, \$10, \$20}'" \
    "awk '/^L/ {print \$1, \$10, \$20}' $tmp/t.all"
check_fail "-3: capacity and conflict do not merge: said, written as -" 0 "capacity and conflict do not" \
    "cachesim -M $tmp/t0 $tmp/t1 $tmp/t2 $tmp/t3 | awk '/^L/ && (\$21 != \"-\" || \$22 != \"-\") {exit 1}'"
# the merged -3 table is a table: read again, it is refused for what it
# is (no partition's), not as a bad row at its second level (fuzz/cachetab
# found it: the reader counted a merge's three columns twice)
cachesim -M $tmp/t0 $tmp/t1 $tmp/t2 $tmp/t3 >"$tmp/t.m" 2>/dev/null
check_fail "-3: the merged table reads back (-M on it: not a partition's)" 1 \
    "t.m: no partition's table" "cachesim -M $tmp/t.m"
# a table with capacity and conflict in one level's row and not another's
awk '/^L2/ {$21 = "-"; $22 = "-"} {print}' "$tmp/t0" >"$tmp/t.mixed"
check_fail "-3: capacity and conflict in some rows only: a bad table, said where" 1 \
    "t.mixed:4: capacity and conflict misses in some levels' rows and not in others" \
    "cachesim -M $tmp/t.mixed"
# a row whose name, after blanks, starts with '#' would be written back
# as a comment and lost (fuzz/cachetab found it): refused, said where
awk '/^L2/ {$1 = " #"} {print}' "$tmp/t0" >"$tmp/t.hash"
check_fail "a level named '#...' is refused at its line" 1 \
    "t.hash:4: a level named '#': a name may not start with '#'" \
    "cachesim -M $tmp/t.hash"
for k in 0 1 2 3; do cachesim -c 1K:2:64 -c 4K:4:64 "$tmp/p$k.rtb" >"$tmp/c$k"; done
check_fail "-M: a partition missing" 1 "1 of 4 partitions missing: 2" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c3"
check_fail "-M: a partition twice: both files named" 1 "c1 and .*/c1 are both partition 1/4\$" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c1 $tmp/c2 $tmp/c3"
cachesim -c 1K:2:64 -c 8K:4:64 "$tmp/p3.rtb" >"$tmp/o3"
check_fail "-M: another configuration" 1 "c0 and .*/o3 are tables of other caches: their L2 rows differ" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/o3"
cachesim --latency 1,2,3 -c 1K:2:64 -c 4K:4:64 "$tmp/p3.rtb" >"$tmp/o3"
check_fail "-M: other latencies" 1 "c0 and .*/o3 were made with other latencies" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/o3"
# W3 (#38): a table names what changes its counts beyond its rows
# (--flush), and the merge refuses a table made without it; U3: -3 with a
# table without it is one sentence
cachesim --flush -c 1K:2:64 -c 4K:4:64 "$tmp/p3.rtb" >"$tmp/f3"
check_fail "-M: a --flush table with tables without: refused, both named" 1 \
    "^cachesim: -M: .*/f3 was made with '--flush', .*/c0 with no options: their counts do not add up\$" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/f3"
for k in 0 1 2; do cachesim --flush -c 1K:2:64 -c 4K:4:64 "$tmp/p$k.rtb" >"$tmp/f$k"; done
# tables of one configuration still merge: the whole's, as above
check_same_rows "-M of 4 --flush tables = one --flush run" \
    "cachesim -M $tmp/f0 $tmp/f1 $tmp/f2 $tmp/f3" "cachesim --flush -c 1K:2:64 -c 4K:4:64 $tmp/all.rtb"
# --warmup counts by seq, so partitions warmed alike merge into the
# whole's warmed run; a table warmed otherwise is refused
for k in 0 1 2 3; do cachesim --warmup 300 -c 1K:2:64 -c 4K:4:64 "$tmp/p$k.rtb" >"$tmp/w$k"; done
check_same_rows "-M of 4 --warmup 300 tables = one --warmup 300 run" \
    "cachesim -M $tmp/w0 $tmp/w1 $tmp/w2 $tmp/w3" "cachesim --warmup 300 -c 1K:2:64 -c 4K:4:64 $tmp/all.rtb"
check_fail "-M: a --warmup table with tables without: refused" 1 \
    "w3 was made with '--warmup 300', .*/c0 with no options" "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/w3"
check_fail "-M: a -3 table with tables without: one sentence" 1 \
    "^cachesim: -M: .*/t3 has the 3C columns of compulsory, capacity and conflict misses, .*/c0 has none\$" \
    "cachesim -M $tmp/c0 $tmp/c1 $tmp/c2 $tmp/t3 2>&1 | awk 'END {exit NR != 1} {print}' >&2; exit 1"
# cat p1 p2 is read as one trace: it was taken for partition 1 holding
# both, whose table merged with partition 2's into double counts
check_fail "cat p1.rtb p2.rtb: refused, the two partitions named" 1 \
    "a second trace at byte [0-9]* records partition 2/4:64, the first partition 1/4:64: concatenated partitions" \
    "cat $tmp/p1.rtb $tmp/p2.rtb | cachesim -c 1K:2:64 >$tmp/cat.out; st=\$?; test ! -s $tmp/cat.out || st=9; exit \$st"
trfilter -O text -P 4 -o "$tmp/pt%d.txt" "$tmp/all.rtb"
check_fail "... and as text, at its line" 1 "<stdin>:[0-9]*: partition 2/4 in a trace of partition 1/4" \
    "cat $tmp/pt1.txt $tmp/pt2.txt | cachesim -c 1K:2:64 >$tmp/cat.out; st=\$?; test ! -s $tmp/cat.out || st=9; exit \$st"
cachesim -c 1K:2:64 -c 4K:4:64 "$tmp/all.rtb" >"$tmp/w"
stubok trfilter check_fail "-M: a whole trace's table" 1 "w: no partition's table" "cachesim -M $tmp/w"
trfilter -P 3 -o "$tmp/r%d.rtb" "$tmp/all.rtb"
check_fail "3 partitions of a 16-set cache: warned at the run" 0 "L1: 8 sets are not divided among 3 partitions" \
    "cachesim -c 1K:2:64 -c 4K:4:64 $tmp/r0.rtb >$tmp/r0"
check_fail "... and refused by the merge" 1 "r0: L1: 8 sets are not divided among 3" "cachesim -M $tmp/r0"
cachesim -c 2K:full:64 "$tmp/p0.rtb" >"$tmp/f0" 2>/dev/null
check_fail "a fully associative level: refused" 1 "1 set \\(fully associative\\) is not divided" "cachesim -M $tmp/f0"
cachesim -c 1K:2:128 "$tmp/p0.rtb" >"$tmp/b0" 2>/dev/null
check_fail "blocks larger than the partition's: refused" 1 "128-byte blocks span partitions of 64 bytes" "cachesim -M $tmp/b0"
cachesim -c 1K:2:64:random "$tmp/p0.rtb" >"$tmp/x0" 2>/dev/null
check_fail "random replacement: refused" 1 "random replacement draws for every set from one generator" "cachesim -M $tmp/x0"
stubok trfilter check_fail "-M with -c: usage error" 2 "only -A and -o" "cachesim -M -c i7 $tmp/c0"

# reusedist: the partitions' histograms add up to the sum of each
# partition's own stack distances x n (a naive stack per partition; a
# modify is a read and a write of its block, reftrace(7)); no cachesim
stubok cachesim
for k in 0 1 2 3; do reusedist --exact "$tmp/p$k.rtb" >"$tmp/h$k"; done
for k in 0 1 2 3; do
	trfilter "$tmp/all.rtb" | awk "$HEX"' !/^#/ {a = hex($3); for (b = int(a / 64); b <= int((a + $4 - 1) / 64); b++) if (b % 4 == k) for (m = 0; m <= ($2 == "M"); m++) printf "%.0f\n", b}' k=$k | "$U/naive" stack
done | awk '{c[$1 == "-" ? "cold" : $1 * 4]++} END {for (d in c) print d, c[d]}' | sort >"$tmp/naive"
check_same "reusedist -M of 4 partitions = the naive stack per partition, distances x 4" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/h3 | awk '!/^#/ {print \$1, \$3}' | sort" "cat $tmp/naive"
for k in 0 1 2 3; do reusedist --exact -P $k/4 "$tmp/all.rtb" >"$tmp/g$k"; done
check_same "... = reusedist -P k/4 of the whole, merged" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/h3" "reusedist -M $tmp/g0 $tmp/g1 $tmp/g2 $tmp/g3"
# W3: a partition's histogram names its partition and what changes its
# counts; -M refuses a partition twice, one missing, another split,
# another kind of distance, naming the files
check_fail "reusedist -M: a partition twice, both named" 1 "h1 and .*/h1 are both partition 1/4\$" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/h1 >$tmp/m.out; st=\$?; test ! -s $tmp/m.out || st=9; exit \$st"
check_fail "reusedist -M: a partition missing" 1 "1 of 4 partitions missing: 3\$" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2"
reusedist --exact "$tmp/r1.rtb" >"$tmp/h3of3"
check_fail "reusedist -M: a partition of another split" 1 \
    "h3of3 is of partition 1/3 of 64-byte blocks, .*/h0 of partition 0/4 of 64-byte blocks" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/h3of3"
reusedist --exact -D time "$tmp/p3.rtb" >"$tmp/ht3"
check_fail "reusedist -M: time distances with reuse distances" 1 \
    "ht3 was made with '-D time', .*/h0 with no options" \
    "reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/ht3"
check_fail "reusedist -M: a whole trace's histogram with partitions'" 1 \
    "hw is of no partition, .*/h0 of partition 0/4" \
    "reusedist --exact $tmp/all.rtb >$tmp/hw && reusedist -M $tmp/h0 $tmp/h1 $tmp/h2 $tmp/hw"
# D5: a histogram or a table cut at a line boundary is refused with what
# its header says (counted here by awk), nothing written
head -n 20 "$tmp/h0" >"$tmp/hcut"
check_fail "reusedist -M: a histogram cut after 20 lines: the header's accesses and the rows' sum" 1 \
    "hcut: truncated: header says $(awk '/^#accesses/ {print $2}' $tmp/h0) accesses, rows sum to $(awk '!/^#/ {s += $3} END {printf "%.0f", s}' $tmp/hcut) \\(no cold row\\)\$" \
    "reusedist -M $tmp/hcut $tmp/h1 $tmp/h2 $tmp/h3 >$tmp/m.out; st=\$?; test ! -s $tmp/m.out || st=9; exit \$st"
grep -v '^cold' "$tmp/h0" >"$tmp/hnocold"
check_fail "... without its cold row" 1 "hnocold: truncated: header says [0-9]* accesses, rows sum to [0-9]* \\(no cold row\\)" \
    "reusedist -M $tmp/hnocold $tmp/h1 $tmp/h2 $tmp/h3"
head -n 4 "$tmp/c0" >"$tmp/ccut"
check_fail "cachesim -M: a table cut before its memory row" 1 "ccut: truncated: no memory row after the levels' rows" \
    "cachesim -M $tmp/ccut $tmp/c1 $tmp/c2 $tmp/c3 >$tmp/m.out; st=\$?; test ! -s $tmp/m.out || st=9; exit \$st"
# W4 (#38): accesses that span blocks, -B 16 under partitions of 64 bytes,
# partitions of uneven size: -P k/3 of the whole and the partitions' own
# traces merge to the same histogram, the naive stack per partition's
# blocks, distances x 3 (before: -P k/3 cut its partition by 16-byte
# blocks and corrected its count towards a third of the whole's, cut at
# 0: 11 accesses for 10 on a trace of 5 records)
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"; x = 7
	for (i = 1; i <= 400; i++) { x = (x * 1103515245 + 12345) % 2147483648
		printf "%d %s 0x%x %d\n", i, substr("RWMR", x % 4 + 1, 1), int(x / 16) % 700, 1 + int(x / 65536) % 100 } }' >"$tmp/span.txt"
trfilter -P 3 -o "$tmp/sp%d.rtb" "$tmp/span.txt"
for k in 0 1 2; do
	reusedist -B 16 --exact "$tmp/sp$k.rtb" >"$tmp/so$k"
	reusedist -B 16 --exact -P $k/3 "$tmp/span.txt" >"$tmp/sw$k"
	awk "$HEX"' !/^#/ {a = hex($3); for (b = int(a / 16); b <= int((a + $4 - 1) / 16); b++) if (int(b / 4) % 3 == k) for (m = 0; m <= ($2 == "M"); m++) printf "%.0f\n", b}' k=$k "$tmp/span.txt" | "$U/naive" stack
done | awk '{c[$1 == "-" ? "cold" : $1 * 3]++; n++} END {for (d in c) print d, c[d]; print "accesses", n}' | sort >"$tmp/spnaive"
check_same "spanning accesses, -B 16: -M of the partitions' traces = the naive stack per partition" \
    "reusedist -B 16 -M $tmp/so0 $tmp/so1 $tmp/so2 | awk '/^#accesses/ {print \"accesses\", \$2} !/^#/ {print \$1, \$3}' | sort" \
    "cat $tmp/spnaive"
check_same "... = -M of -P k/3 over the whole trace" \
    "reusedist -B 16 -M $tmp/sw0 $tmp/sw1 $tmp/sw2" "reusedist -B 16 -M $tmp/so0 $tmp/so1 $tmp/so2"
stubok 'cachesim trfilter' check_fail "-P 0/2 -B 128: the 64-byte partition blocks do not hold a block, said" 2 \
    "partition blocks of 64 bytes do not hold -B's 128-byte blocks" "reusedist -B 128 -P 0/2:64 $tmp/span.txt"
# a partition's trace filtered is still that partition (before: its
# #partition line dropped, the filtered partitions merged into a curve of
# a quarter of the accesses); inputs of two partitions are refused
for k in 0 1 2 3; do trfilter -t R "$tmp/p$k.rtb" | reusedist --exact >"$tmp/r$k"; done
trfilter -t R "$tmp/all.rtb" >"$tmp/allr"
for k in 0 1 2 3; do reusedist --exact -P $k/4 "$tmp/allr" >"$tmp/s$k"; done
check_same_rows "partitions filtered by trfilter -t R merge as -P k/4 of the whole's reads do" \
    "reusedist -M $tmp/r0 $tmp/r1 $tmp/r2 $tmp/r3" "reusedist -M $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3"
check_same "... and trsample keeps the partition line" \
    "trfilter -b $tmp/p2.rtb | trsample -i 3 | sed -n 2p" "echo '#partition 2/4:64 fp=$FP'"
check_same "two partitions filtered together: an output of none, one of them: its" \
    "trfilter $tmp/p0.rtb $tmp/p1.rtb | sed -n 2p | cut -c1-10; trfilter $tmp/p3.rtb $tmp/p3.rtb | sed -n 2p" \
    "trfilter $tmp/all.rtb | sed -n 2p | cut -c1-10; echo '#partition 3/4:64 fp=$FP'"
check_same "a partition on standard input = the file" \
    "reusedist --exact <$tmp/p1.rtb" "cat $tmp/h1"
check_fail "a partition's trace with -H: usage error" 2 "partition 1/4's trace: not with -P, -H or -N" \
    "reusedist -H 0.5 $tmp/p1.rtb"
