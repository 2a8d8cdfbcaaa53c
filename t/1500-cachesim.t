#!/bin/sh
# cachesim: every policy against a naive model, hand-worked examples,
# inclusion and write policies, composition, and exact agreement with
# valgrind's cachegrind on the example programs.
. "$(dirname "$0")/lib.sh"
plan 116
T="python3 $(dirname "$0")/topo.py"

U=$(cd "$(dirname "$0")/unit" && pwd)
C=$(cd "$(dirname "$0")/../contrib" && pwd)
mk() { printf '#reftrace trace 1\n'; awk '{print NR - 1, $1, $2, ($3 ? $3 : 4)}'; }
col() { awk -v l="$1" -v c="$2" '$1 == l {print $c}'; }	# level, column
M=10 WB=16	# the misses and writebacks columns

# every policy = the naive model, set-associative and fully associative
awk 'BEGIN {srand(5); for (i = 0; i < 4000; i++) print (rand() < .2 ? "M" : rand() < .3 ? "W" : "R"), int(rand() * rand() * 300)}' >"$tmp/r.in"
awk '{print $1, $2 * 64}' "$tmp/r.in" | mk >"$tmp/r.txt"
for p in lru fifo random mru plru srrip lfu opt pes; do
	check_same "$p, 8 sets x 4 ways: misses and writebacks = the naive model" \
	    "cachesim -S 3 -c 2K:4:64:$p $tmp/r.txt | awk '\$1 == \"L1\" {print \$$M, \$$WB}'" \
	    "$U/naivecache 8 4 $p 3 <$tmp/r.in"
	check_same "$p, fully associative 16: = the naive model" \
	    "cachesim -S 3 -c 1K:full:64:$p $tmp/r.txt | awk '\$1 == \"L1\" {print \$$M, \$$WB}'" \
	    "$U/naivecache 1 16 $p 3 <$tmp/r.in"
done
check_same "nru is srrip" "cachesim -c 2K:4:64:nru $tmp/r.txt | col L1 $M" "cachesim -c 2K:4:64:srrip $tmp/r.txt | col L1 $M"

# the offline bounds
for t in bsort-reversed matmul-standard; do
	trfilter $D/$t.lk.gz >"$tmp/$t"
	check "$t: OPT misses <= every policy's <= PES's (8K 4-way)" \
	    "for p in opt lru fifo random mru plru srrip lfu pes; do cachesim -c 8K:4:64:\$p $tmp/$t | col L1 $M; done | awk 'NR == 1 {o = \$1} {v[NR] = \$1} END {for (i = 2; i < NR; i++) if (v[i] < o || v[i] > v[NR]) exit 1; exit !(o < v[NR])}'"
done
check_same_rows "OPT on standard input (spooled) = on the file" \
    "cachesim -c 2K:4:64:opt <$tmp/r.txt" "cachesim -c 2K:4:64:opt $tmp/r.txt"
# the naive model looks ahead at each miss: a sanitized build (make asan)
# checks the first quarter of the trace
l2=$tmp/matmul-standard
[ -z "${RT_SMALL:-}" ] || { head -100000 "$l2" >"$tmp/mm-part"; l2=$tmp/mm-part; }
cachesim -c 1K:2:64 --misses 1 "$l2" | awk "$HEX"' !/^#/ {printf "%s %.0f\n", $2, hex($3) / 64}' >"$tmp/l2.in"
for p in opt pes; do
	check_same "$p at L2 = the naive $p on L2's own stream (from --misses 1)" \
	    "cachesim -c 1K:2:64 -c 8K:4:64:$p $l2 | awk '\$1 == \"L2\" {print \$$M, \$$WB}'" \
	    "$U/naivecache 32 4 $p <$tmp/l2.in"
done
check_same_rows "-c 010K:2:64 is 10 KiB, as 10K:2:64 (a leading 0 is not octal)" \
    "cachesim -c 010K:2:64 $tmp/matmul-standard" "cachesim -c 10K:2:64 $tmp/matmul-standard"
check_same "-c 010K:2:64: the size column says 10240" \
    "cachesim -c 010K:2:64 $tmp/matmul-standard | col L1 2" "echo 10240"
check_fail "OPT below the first level of an inclusive hierarchy is refused, with the reason" 2 \
    "one non-inclusive configuration" "cachesim --inclusion inclusive -c 1K:2:64 -c 8K:4:64:opt $tmp/matmul-standard"
# 3C: compulsory + capacity + conflict = misses; by hand on a direct-mapped cache
check "-3: the three kinds add up to the misses at every level" \
    "cachesim -3 -c 1K:2:64 -c 8K:4:64 $tmp/matmul-standard | awk '/^L/ {if (\$20 + \$21 + \$22 != \$10) exit 1; n++} END {exit n != 2}'"
printf 'R 0\nR 128\nR 0\nR 128\nR 64\nR 192\nR 256\nR 0\n' | mk >"$tmp/3c"
# 2 sets x 1 way of 64 B: blocks 0 2 0 2 1 3 4 0; FA shadow of 2 blocks
check_same "-3 by hand: 6 compulsory, 1 capacity, 2 conflict" \
    "cachesim -3 -c 128:1:64 $tmp/3c | awk '\$1 == \"L1\" {print \$10, \$20, \$21, \$22}'" "echo 8 5 1 2"

# breakdowns
check_same "--by set: accesses and misses per set add up to the totals" \
    "cachesim -g set -c 512:2:64 $tmp/r.txt | awk '!/^#/ {a += \$2; m += \$3} END {print a, m}'" \
    "cachesim -c 512:2:64 $tmp/r.txt | awk '\$1 == \"L1\" {print \$6, \$10}'"
check_same "--by set: the keys are block mod sets (4 sets here)" \
    "cachesim -g set -c 512:2:64 $tmp/r.txt | awk '!/^#/ {print \$1, \$2}'" \
    "awk '{n[int(\$2 % 4)] += (\$1 == \"M\") ? 2 : 1} END {for (k = 0; k < 4; k++) print k, n[k]}' $tmp/r.in"
check_same "--by region: matmul's B misses every access in a 1K cache" \
    "cachesim -g region -c 1K:2:64 -c 8K:4:64 $D/matmul-standard.lk.gz | awk '\$1 == \"B\" {print \$2 == \$3}'" "echo 1"
trfilter -e "$D/bsort" -l -t RWM -m sort,done "$D/bsort-reversed.lk.gz" >"$tmp/bsl"
check_same "--by func: every access of the sort phase is bsort's or main's" \
    "cachesim -g func $tmp/bsl | awk '!/^#/ {n += \$2} END {print n}'" \
    "cachesim $tmp/bsl | awk '\$1 == \"L1\" {print \$6}'"
check_rows "-g loc: rows are file:line" '$1 ~ /^bsort.c:[0-9]+$/' "cachesim -g loc $tmp/bsl"
check_fail "-g something else: exit 2" 2 "set, region, loc or func" "cachesim -g colour $tmp/r.txt"
check "-g loc: rows by L1 misses, most first" \
    "cachesim -c 128:1:64 -g loc $tmp/bsl | awk '!/^#/ {if (n++ && \$3 > p) exit 1; p = \$3} END {exit n < 5}'"
check "-g func: fetches + reads + writes = accesses, L1_ratio = misses / accesses, shares add up to 1" \
    "cachesim -c 128:1:64 -g func $tmp/bsl | awk '!/^#/ {n++; if (\$4 + \$5 + \$6 != \$2 || \$7 != sprintf(\"%.6f\", \$3 / \$2)) exit 1; s += \$8} END {exit !(n >= 2 && s > 0.9999 && s < 1.0001)}'"
trfilter -e "$D/bsort" -l "$D/bsort-reversed.lk.gz" >"$tmp/bsw"
check "-g func: the loader's and libc's rows folded into one each, after the program's" \
    "cachesim -g func $tmp/bsw | awk '!/^#/ {if (\$1 ~ /^\\[/) {f[\$1]++; last = 1} else if (last) exit 1; else if (\$1 == \"bsort\") b++} END {exit !(b && f[\"[ld-linux-x86-64.so.2]\"] && f[\"[libc.so.6]\"])}'"
check_same "... the same accesses as --unfold's rows of every function, in fewer rows" \
    "cachesim -g func $tmp/bsw | awk '!/^#/ {a += \$2; m += \$3; n++} END {print a, m, (n < 30)}'" \
    "cachesim --unfold -g func $tmp/bsw | awk '!/^#/ {a += \$2; m += \$3; n++} END {print a, m, (n > 100)}'"
check "--sort reads: rows by the reads column, largest first" \
    "cachesim -g func --sort reads $tmp/bsw | awk '!/^#/ && \$1 !~ /^\\[/ {if (n++ && \$7 > p) exit 1; p = \$7} END {exit n < 5}'"
check "--cachegrind -g loc --sort Dw: rows by Dw" \
    "cachesim --cachegrind -c 1K:2:64 -c 8K:4:64 -g loc --sort Dw $tmp/bsw | awk '!/^#/ {if (n++ && \$8 > p) exit 1; p = \$8} END {exit n < 5}'"
check_fail "--sort a column the table has not: usage error" 2 "--sort Dw: a column of the -g table" \
    "cachesim -g func --sort Dw $tmp/bsw"
printf '#reftrace trace 1\n0 R 0x0 4 - - /src/p/a.c:3 f -\n1 R 0x40 4 - - /src/p/q/b.c:5 g -\n2 W 0x80 4 - - /src/p/q/b.c:5 g -\n' >"$tmp/roots"
check_same "-g loc: paths relative to the directory they share, named in #root" \
    "cachesim -g loc $tmp/roots | sed 1d" "printf '#root /src/p/\nq/b.c:5 2 2 2 2 0 1 1 1.000000 0.666667\na.c:3 1 1 1 1 0 1 0 1.000000 0.333333\n'"

# hand-worked: 0x1000ccee, 256-byte blocks: block 0x1000cc, set 76 of 128
printf 'R 0x1000ccee\nR %s\nR %s\n' $(printf '0x%x 0x%x' $((0x1000ccee + 32768)) $((0x1000ccee + 256))) | mk >"$tmp/set"
check_same "0x1000ccee is block 0x1000cc in set 76: 0x1000ccee+32K evicts it, +256 does not" \
    "cachesim -d -c 32K:1:256 $tmp/set | awk '!/^#/ {print \$2, \$3}'" \
    "printf 'mem -\nmem 0x1000cc00\nmem -\n'"
# the loop interchange example: float A[32][4], 16-byte blocks
for v in colwise:128 rowwise:32; do
	check_same "interchange ${v%:*}: L1 (4 blocks 2-way) read misses on A = ${v#*:}" \
	    "trfilter -m loop,done -r A -t R $D/interchange-${v%:*}.lk.gz | cachesim -c 64:2:16 -c 128:8:16 | col L1 $M" \
	    "echo ${v#*:}"
done

# writes
printf 'W 0\nR 0\n' | mk >"$tmp/wr"
check_same "write-allocate: W a then R a misses once" "cachesim -c 1K:2:64 $tmp/wr | col L1 $M" "echo 1"
check_same "no-write-allocate: W a then R a misses twice" "cachesim -c 1K:2:64:lru:wb:nwa $tmp/wr | col L1 $M" "echo 2"
printf 'W 0\nW 0\nW 4\nR 0\n' | mk >"$tmp/wt"
check_same "write-through: every write reaches L2" "cachesim -c 1K:2:64:lru:wt -c 8K:4:64 $tmp/wt | awk '\$1 == \"L2\" {print \$8}'" "echo 3"
check_same "write-back: one writeback when the dirty block leaves" \
    "printf 'W 0\nR 64\nR 128\n' | mk | cachesim -c 64:1:64 | col L1 $WB" "echo 1"

# inclusion (2-block fully associative levels): a b a c a
printf 'R 0\nR 64\nR 0\nR 128\nR 0\n' | mk >"$tmp/abaca"
check_same "non-inclusive: L1 misses a b c" "cachesim -c 128:full:64 -c 128:full:64 $tmp/abaca | col L1 $M" "echo 3"
check_same "inclusive: L2 evicts a, back-invalidation costs L1 a 4th miss" \
    "cachesim --inclusion inclusive -c 128:full:64 -c 128:full:64 $tmp/abaca | col L1 $M" "echo 4"
# the top of the address space: each L1 miss is two of L2's 32-byte blocks;
# those at 2^64 - 64 and 2^64 - 32 leave (the same direct-mapped sets as
# 2^64 - 320 and 2^64 - 288), and the first back-invalidates L1's 64-byte
# block holding both; stepping by L1's block from 2^64 - 64 wrapped to 0
# and ran on for 2^58 blocks (a hang: the timeout fails it)
printf 'R 0xffffffffffffffc0 1\nR 0xfffffffffffffec0 1\n' | mk >"$tmp/top"
check_same "inclusive, L2 blocks smaller than L1's, at 2^64: L2 evicts 2, L1 invalidates 1" \
    "timeout -k 5 20 cachesim --inclusion inclusive -c 128:2:64 -c 256:1:32 $tmp/top | awk '\$1 == \"L1\" {i = \$17} \$1 == \"L2\" {e = \$15} END {print e, i}'" "echo 2 1"
printf 'R 0\nR 64\nR 0\n' | mk >"$tmp/aba"
check_same "exclusive (1-block levels): a b a fetches twice from memory, not 3 times" \
    "cachesim --inclusion exclusive -c 64:1:64 -c 64:1:64 $tmp/aba | awk '\$1 == \"mem\" {print \$6}'; cachesim -c 64:1:64 -c 64:1:64 $tmp/aba | awk '\$1 == \"mem\" {print \$6}'" \
    "printf '2\n3\n'"

# accesses across blocks, split caches, composition
printf 'R 60 8\n' | mk >"$tmp/span"
check_same "an access across a boundary touches both blocks" "cachesim -c 1K:2:64 $tmp/span | col L1 $M" "echo 2"
check_same "split I/D: fetches go to L1I" \
    "cachesim --icache 1K:2:64 -c 1K:2:64 $D/bsort-reversed.lk.gz | awk '\$1 == \"L1I\" {print \$9 == \$6} \$1 == \"L1D\" {print \$9}'" "printf '1\n0\n'"
B=$D/matmul-blocked.lk.gz
check_same "--misses 1 | cachesim = the second level of the hierarchy" \
    "cachesim -c 1K:2:64 --misses 1 $B | cachesim -c 8K:4:64 | awk '\$1 == \"L1\" {print \$6, \$10, \$16}'" \
    "cachesim -c 1K:2:64 -c 8K:4:64 $B | awk '\$1 == \"L2\" {print \$6, \$10, \$16}'"
# a level below with smaller blocks gets every block of a miss and of a
# write-back (#38 W1): L1 64 B over L2 32 B is 2 L2 accesses a miss
cat >"$tmp/naive.awk" <<'EOF'
# A naive write-back, write-allocate LRU hierarchy of any block sizes:
# a level's miss asks the level below for every block of its own (fetch
# first, then the victim's write-back, as cachesim orders them).
# -v spec="512:2:64 1K:2:32"; input: op addr size (R W); output per level:
# accesses misses writebacks bytes_in bytes_out, then memory's accesses.
# Warm-up: -v warm=N counts nothing of the first N records; -v frac=F
# nothing until F of the last level's ways have been filled.
function num(s) { return s ~ /K$/ ? substr(s, 1, length(s) - 1) * 1024 : s + 0 }
function acc(k, a, len, w,   b, last, s, i, hit, v, vb) {
	if (k > nl) { mem++; return }
	last = int((a + len - 1) / B[k])
	for (b = int(a / B[k]); b <= last; b++) {
		A[k]++; now++; s = b % S[k]; hit = -1
		for (i = 0; i < W[k]; i++)
			if ((k, s, i) in tag && tag[k, s, i] == b) hit = i
		if (hit >= 0) { st[k, s, hit] = now; if (w) d[k, s, hit] = 1; continue }
		M[k]++
		acc(k + 1, b * B[k], B[k], 0)
		v = -1
		for (i = 0; i < W[k] && v < 0; i++) if (!((k, s, i) in tag)) v = i
		if (v < 0) { v = 0; for (i = 1; i < W[k]; i++) if (st[k, s, i] < st[k, s, v]) v = i
			vb = tag[k, s, v]
			if (d[k, s, v]) { WB[k]++; OUT[k] += B[k]; acc(k + 1, vb * B[k], B[k], 1) } }
		if (!((k, s, v) in tag) && k == nl) filled++
		tag[k, s, v] = b; d[k, s, v] = w; IN[k] += B[k]; now++; st[k, s, v] = now
	}
}
BEGIN { nl = split(spec, L, " "); warming = warm || frac
	for (k = 1; k <= nl; k++) { split(L[k], f, ":"); B[k] = f[3]; W[k] = f[2]; S[k] = num(f[1]) / B[k] / W[k] } }
function zero(k) { for (k = 1; k <= nl; k++) A[k] = M[k] = WB[k] = IN[k] = OUT[k] = 0; mem = 0 }
warming && ((warm && NR > warm) || (frac && filled >= frac * S[nl] * W[nl])) { zero(); warming = 0 }
{ acc(1, $2, $3, $1 == "W") }
END { for (k = 1; k <= nl; k++) print A[k] + 0, M[k] + 0, WB[k] + 0, IN[k] + 0, OUT[k] + 0; print mem + 0 }
EOF
awk 'BEGIN {srand(7); for (i = 0; i < 3000; i++) print (rand() < .3 ? "W" : "R"), int(rand() * rand() * 6000), (rand() < .5 ? 4 : 8)}' >"$tmp/w.in"
awk '{print $1, $2, $3}' "$tmp/w.in" | mk >"$tmp/w.txt"
for sp in "512:2:64 1K:2:32" "256:1:64 512:4:16 2K:2:32"; do
	check_same "blocks smaller below ($sp): every level = the naive model" \
	    "cachesim $(for s in $sp; do printf -- '-c %s ' $s; done) $tmp/w.txt | awk '/^L/ {print \$6, \$10, \$16, \$18, \$19} /^mem/ {print \$6}'" \
	    "awk -v spec='$sp' -f $tmp/naive.awk $tmp/w.in"
done
for l1 in 512:2:64 512:2:64:lru:wt:nwa; do
	check_same "blocks smaller below: -c $l1 --misses 1 | cachesim -c 1K:2:32 = its L2" \
	    "cachesim -c $l1 --misses 1 $tmp/w.txt | cachesim -c 1K:2:32 | awk '\$1 == \"L1\" {print \$6, \$7, \$8, \$10, \$16, \$18, \$19} \$1 == \"mem\" {print \$6}'" \
	    "cachesim -c $l1 -c 1K:2:32 $tmp/w.txt | awk '\$1 == \"L2\" {print \$6, \$7, \$8, \$10, \$16, \$18, \$19} \$1 == \"mem\" {print \$6}'"
done
# exclusive victims into smaller blocks (#38 W1), worked by hand: L1 one
# 64-byte block over L2 two 32-byte ones; R 0, R 64, R 0.  R 0: L2 misses
# blocks 0 and 1 (2 from memory); R 64: misses 2 and 3 (2 more), L1's
# victim goes down whole, 0 and 1; R 0: L2 hits 0 and 1, moved up, and
# takes the victim 2 and 3 in their place: memory 4 (a victim sent as one
# 32-byte block would make 5; non-exclusive, 6), L2 6 accesses, 4 misses,
# 0 evictions, L1 128 bytes out
printf 'R 0 1\nR 64 1\nR 0 1\n' | mk >"$tmp/exv"
check_same "exclusive, L2 blocks smaller than L1's: every block of a victim goes down" \
    "cachesim --inclusion exclusive -c 64:1:64 -c 64:2:32 $tmp/exv | awk '\$1 == \"mem\" {m = \$6} \$1 == \"L2\" {a = \$6; x = \$10; e = \$15} \$1 == \"L1\" {o = \$19} END {print m, a, x, e, o}'" \
    "echo 4 6 4 0 128"
# warm-up (drcachesim's -warmup_refs, -warmup_fraction): the naive model
# zeroes its counts at the same point
for w in "--warmup 1000:-v warm=1000" "--warmup-fraction 0.5:-v frac=0.5" "--warmup-fraction 1:-v frac=1"; do
	check_same "${w%%:*}: every level = the naive model warmed up alike" \
	    "cachesim ${w%%:*} -c 512:2:64 -c 1K:2:32 $tmp/w.txt | awk '/^L/ {print \$6, \$10, \$16, \$18, \$19} /^mem/ {print \$6}'" \
	    "awk ${w#*:} -v spec='512:2:64 1K:2:32' -f $tmp/naive.awk $tmp/w.in"
done
trfilter -P 4 -o "$tmp/wp%d.rtb" "$tmp/w.txt"
check_same "--warmup 1000 over 4 partitions, merged (-M) = over the whole trace" \
    "for k in 0 1 2 3; do cachesim --warmup 1000 -c 512:2:64 -c 1K:2:64 $tmp/wp\$k.rtb >$tmp/wp\$k.tsv; done; cachesim -M $tmp/wp0.tsv $tmp/wp1.tsv $tmp/wp2.tsv $tmp/wp3.tsv | awk '/^L|^mem/ {print \$1, \$6, \$10, \$16, \$18, \$19}'" \
    "cachesim --warmup 1000 -c 512:2:64 -c 1K:2:64 $tmp/w.txt | awk '/^L|^mem/ {print \$1, \$6, \$10, \$16, \$18, \$19}'"
check_fail "--warmup-fraction on a partition is refused (its sets fill apart)" 2 "give --warmup n" \
    "cachesim --warmup-fraction 0.5 -c 512:2:64 $tmp/wp0.rtb"
check "--warmup-fraction on a partition: refused before -o's file is made" \
    "! cachesim --warmup-fraction 0.5 -c 512:2:64 -o $tmp/wf.tsv $tmp/wp0.rtb 2>/dev/null && test ! -e $tmp/wf.tsv"
check "--warmup past the trace's end: said, and nothing counted" \
    "cachesim --warmup 4000 -c 512:2:64 $tmp/w.txt 2>$tmp/we | awk '\$1 == \"L1\" {n++; if (\$6 != 0) exit 1} END {exit n != 1}' && grep -q 'lasted the whole trace' $tmp/we"
check_fail "--warmup with -E is refused" 2 "the table of one hierarchy" \
    "cachesim --warmup 10 -E 1K..2K:2:64 $tmp/w.txt"
check_fail "-d with --misses is refused: the output is the trace (they mixed on standard output)" 2 \
    "cachesim: --misses with -d: the output is the trace below the level" \
    "cachesim -d --misses 1 $tmp/w.txt"
check_fail "--cachegrind over three levels: two, D1 and LL" 2 "two levels, D1 and LL, not 3" \
    "cachesim --cachegrind -c 1K:2:64 -c 2K:2:64 -c 4K:2:64 $tmp/w.txt"
check_fail "-I names the formats it wants" 2 "-I dinero: want auto, text, binary, lackey, gleipnir, din" \
    "cachesim -I dinero $tmp/w.txt"
check_same "-d: one row per block access, served level named" \
    "cachesim -d -c 1K:2:64 -c 8K:4:64 $tmp/abaca | awk '!/^#/ {print \$2}'" "printf 'mem\nmem\nL1\nmem\nL1\n'"
check_same "-c i7: the dissertation's three levels" \
    "cachesim -c i7 $tmp/abaca | awk '/^L/ {print \$1, \$2, \$3, \$4}'" \
    "printf 'L1 32768 8 64\nL2 262144 8 64\nL3 8388608 16 64\n'"
check_same "average access time: 3 + m1 (15 + m2 x 300) by hand" \
    "cachesim -c 128:full:64 -c 128:full:64 $tmp/abaca | awk '/^#amat/ {print \$2}'" \
    "awk 'BEGIN {printf \"%.4f\n\", 3 + 3 / 5 * (15 + 3 / 3 * 300)}'"

# ensembles, diff, temperature, the event map
check_same "-E 1K..8K:2:64: four configurations, each = its own run" \
    "cachesim -E 1K..8K:2:64 $B | awk '!/^#/ {print \$1, \$3}'" \
    "for s in 1024 2048 4096 8192; do echo \$s:2:64:lru \$(cachesim -c \$s:2:64 $B | col L1 $M); done"
check_same "-E over block sizes: each configuration splits accesses its own way" \
    "cachesim -E 4K:2:32 -E 4K:2:128 $tmp/span | awk '!/^#/ {print \$3}'" "printf '2\n1\n'"
check_same "-E with policies and two levels: rows = single runs" \
    "cachesim -E 4K:4:64:lru,opt/32K:8:64 $B | awk '!/^#/ {print \$3, \$5}'" \
    "for p in lru opt; do cachesim -c 4K:4:64:\$p -c 32K:8:64 $B | awk '/^L/ {printf \"%s \", \$$M} END {print \"\"}' | sed 's/ \$//'; done"
cachesim -d -c 1K:2:64 -c 8K:4:64 "$B" | awk '!/^#/ {print $1, $2}' >"$tmp/da"
cachesim -d -c 2K:2:64 -c 8K:4:64 "$B" | awk '!/^#/ {print $1, $2}' >"$tmp/db"
check_same "--diff: the accesses two configurations serve from different levels" \
    "cachesim --diff -E 1K:2:64/8K:4:64 -E 2K:2:64/8K:4:64 $B | awk '!/^#/'" \
    "paste -d' ' $tmp/da $tmp/db | awk '\$2 != \$4 {print \$1, \$2, \$4}'"
check_same "--temperature 50: +1 hit, -1 miss, 0 not asked, averaged (awk over -d)" \
    "cachesim --temperature 50 -c 1K:2:64 -c 8K:4:64 $B | awk '!/^#/'" \
    "awk '{v = \$2 == \"L1\" ? 0 : \$2 == \"L2\" ? 1 : 2; for (j = 0; j < 2; j++) {s = v == j ? 1 : v > j ? -1 : 0; t = n % 50; if (n >= 50) sum[j] -= r[t, j]; r[t, j] = s; sum[j] += s} n++; w = n < 50 ? n : 50; printf \"%s %.4f %.4f\\n\", \$1, sum[0] / w, sum[1] / w}' $tmp/da"
check_fail "--diff needs two -E" 2 "give -E twice" "cachesim --diff -E 1K:2:64 $B"
check_fail "-E with -d is refused" 2 "one row per configuration" "cachesim -d -E 1K:2:64 $B"
# The event map: 16 blocks swept twice through a direct-mapped cache of
# 16 sets: the first sweep compulsory misses on a diagonal, the second
# hits on the next one; the cells are read back from the PNG at the
# plot area the SVG's description gives.
awk 'BEGIN { for (k = 0; k < 32; k++) printf "R 0x%x\n", 4096 + 64 * (k % 16) }' >"$tmp/sweep"
check_fail "--map NAME.html: refused, trmap -c named" 2 "trmap -c" \
    "cachesim --map $tmp/m.html $B"
check "--map: a PNG 3:5 of the width asked, decoded" \
    "cachesim --map $tmp/m.png --width 600 $B >/dev/null && test \$($T png $tmp/m.png) = 600x360"
check "--map: title, axes, and a key of the colours the map holds (the sweep: L1 hit, compulsory, no access)" \
    "cachesim -3 -c 1K:1:64 -c 8K:2:64 --map $tmp/sw.svg $tmp/sweep >/dev/null && $T svg $tmp/sw.svg >/dev/null &&
     for w in 'cache events' 'time (accesses)' 'L1 set' '>L1 hit<' '>L1 miss, compulsory<' '>no access<'; do grep -q \"\$w\" $tmp/sw.svg || exit 1; done &&
     for w in 'capacity' '>L2<' '>memory<' 'evicted'; do ! grep -q \"\$w\" $tmp/sw.svg || exit 1; done"
# the colours inside the plot area of a PNG, and the key's swatches of the
# same run's SVG (its desc says where the plot is and its columns)
cat >"$tmp/plotcols.py" <<'EOF'
import sys, zlib, struct, re
d = open(sys.argv[1], "rb").read(); p, idat = 8, b""
while p < len(d):
    n, t = struct.unpack(">I4s", d[p:p + 8]); body = d[p + 8:p + 8 + n]
    if t == b"IHDR": w, h = struct.unpack(">II", body[:8])
    if t == b"PLTE": pal = body
    if t == b"IDAT": idat += body
    p += 12 + n
raw = zlib.decompress(idat)
svg = open(sys.argv[2]).read()
x0, y0, pw, ph, cols = map(float, re.search(r"; plot ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+); columns ([0-9]+)", svg).groups())
px = lambda x, y: tuple(pal[3 * raw[y * (w + 1) + 1 + x]:3 * raw[y * (w + 1) + 1 + x] + 3])
if sys.argv[3] == "colours":
    seen = {px(x, y) for y in range(int(y0) + 1, int(y0 + ph) - 1) for x in range(int(x0) + 1, int(x0 + pw) - 1)}
    key = {tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in re.findall(r'width="10.0" height="10.0" fill="#([0-9a-f]{6})"', svg)}
    print(sorted(seen) == sorted(key) and len(key) >= 4, len(seen), len(key))
else:	# the cells of the sweep: column k, set k % 16
    for k in range(32):
        s = k % 16; x = int(x0 + (k + 0.5) * pw / cols); y = int(y0 + (15 - s + 0.5) * ph / 16)
        print(k, s, px(x, y))
    print("edge", px(int(x0 + pw) - 1, int(y0 + 0.5 * ph / 16)))
EOF
check_same "--map: every colour inside the plot is in the key, and the key has no other (evictions, 3C)" \
    "cachesim -3 -c 512:2:64 -c 4K:4:64 --map $tmp/mb.png $B >/dev/null && cachesim -3 -c 512:2:64 -c 4K:4:64 --map $tmp/mb.svg $B >/dev/null &&
     python3 $tmp/plotcols.py $tmp/mb.png $tmp/mb.svg colours | cut -d' ' -f1 && grep -q 'evicted<' $tmp/mb.svg" "echo True"
check_same "--map: a diagonal of compulsory misses, then one of L1 hits, at the right pixels; the last column at the plot's right edge" \
    "cachesim -3 -c 1K:1:64 -c 8K:2:64 --map $tmp/sw.png $tmp/sweep >/dev/null && python3 $tmp/plotcols.py $tmp/sw.png $tmp/sw.svg cells" \
    "awk 'BEGIN { for (k = 0; k < 32; k++) print k, k % 16, k < 16 ? \"(117, 107, 177)\" : \"(171, 217, 233)\"; print \"edge (171, 217, 233)\" }'"
check "--map: each set's label at the middle of its band" \
    "awk -F'\"' '/text-anchor=\"end\"/ && /<text x=\"72.0\"/ {split(\$0, a, \">\"); split(a[2], b, \"<\"); s = b[1]; c = 38 + (15 - s + 0.5) * 402 / 16; d = \$4 - 4 - c; if (d < -1.5 || d > 1.5) exit 1; n++} END {exit n < 8}' $tmp/sw.svg"

# the cache table reader (cachesim -M will merge with it): a round trip
cachesim -3 --icache 1K:2:64 -c 2K:4:64:fifo:wt:nwa -c 8K:8:64:plru "$B" >"$tmp/ct1"
cachesim -c i7 --inclusion exclusive "$D/bsort-reversed.lk.gz" >"$tmp/ct2"
check_same "the cache table reads back the same (-3, split L1, wt, nwa)" "$U/cachestream cache $tmp/ct1" "cat $tmp/ct1"
check_same "the cache table reads back the same (i7, exclusive)" "gzip -c $tmp/ct2 | $U/cachestream cache -" "cat $tmp/ct2"
check_fail "the cache table reader names another kind" 1 "ct3: a cache ensemble table, not a cache table \\(cachesim makes one\\)" \
    "cachesim -E 1K:2:64 $B >$tmp/ct3; $U/cachestream cache $tmp/ct3"

# geometry and input errors
check_fail "size not a multiple of assoc x block: exit 2, says why" 2 "not a multiple of associativity" "cachesim -c 32K:3:64 $tmp/r.txt"
check_fail "block not a power of two: exit 2" 2 "block size .48.: want a power of two up to 1M" "cachesim -c 32K:8:48 $tmp/r.txt"
check_fail "pseudo-LRU with 6 ways: exit 2" 2 "power-of-two associativity" "cachesim -c 24K:6:64:plru $tmp/r.txt"
check_fail "an unknown policy: exit 2" 2 "unknown policy" "cachesim -c 32K:8:64:belady $tmp/r.txt"
check_fail "a bad option: usage, exit 2" 2 "usage: cachesim" "cachesim -Q"
check_fail "a missing file: exit 1" 1 "cachesim: nosuch: No such file" "cachesim nosuch"
check_same_rows "stdin, '-' and gzip" "cachesim <$tmp/r.txt; gzip -c $tmp/r.txt | cachesim -" "cachesim $tmp/r.txt; cachesim $tmp/r.txt"

# cachegrind parity: both tools on the same program, back to back
if ! command -v valgrind >/dev/null || ! command -v cc >/dev/null; then
	skip "no valgrind"; exit 0
fi
ok=0 bad=
for p in "bsort sorted" "bsort reversed" "bsort shuffled" "matmul standard" "matmul transposed" \
    "matmul blocked" "interchange rowwise" "interchange colwise" "fir2dim"; do
	set -- $p
	(cd "$C/examples" && cc -g -O0 -o "$tmp/$1" "$1.c")
	valgrind --tool=lackey --trace-mem=yes --log-file="$tmp/lk" "$tmp/$1" ${2:-} >/dev/null 2>&1
	valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=16384,4,64 --LL=262144,8,64 \
	    --cachegrind-out-file="$tmp/cg" "$tmp/$1" ${2:-} >/dev/null 2>&1
	want=$(awk '/^summary:/ {$1 = ""; print substr($0, 2)}' "$tmp/cg")
	got=$(cachesim --cachegrind --icache 32K:8:64 -c 16K:4:64 -c 256K:8:64 "$tmp/lk" | awk '!/^#/')
	if [ "$want" = "$got" ]; then ok=$((ok + 1)); else bad="$bad [$p: cachegrind $want, cachesim $got]"; fi
done
check "cachegrind mode = cachegrind's summary on all 9 example runs ($ok equal)" \
    "test -z '$bad' || { echo '$bad'; false; }"

# cachegrind's file: a program without libc (its every instruction is
# its own, so cachegrind's functions and addr2line's are the same ones),
# under both tools with the same arguments; cg_annotate reads both files
cat >"$tmp/nolibc.c" <<'EOF'
#define N 24
static double a[N][N], b[N][N], c[N][N];

static void
fill(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			a[i][j] = i + j;
			b[i][j] = i - j;
		}
}

static void
multiply(void)
{
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < N; k++)
				c[i][j] += a[i][k] * b[k][j];
}

void
entry(void)
{
	fill();
	multiply();
	__asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "memory");
}
EOF
(cd "$tmp" && cc -g -O0 -static-pie -nostdlib -fpie -Wl,-e,entry -o nolibc nolibc.c)
(cd "$tmp" && valgrind --tool=lackey --trace-mem=yes -v -v --log-file=nl.lk ./nolibc &&
    valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=4096,2,64 --LL=65536,8,64 \
    --cachegrind-out-file=nl.cg ./nolibc) >/dev/null 2>&1
trfilter -e "$tmp/nolibc" -l "$tmp/nl.lk" >"$tmp/nl.txt"
G="--cachegrind --icache 32K:8:64 -c 4K:2:64 -c 64K:8:64"
cachesim $G --cachegrind-out "$tmp/ours.cg" "$tmp/nl.txt" >/dev/null
check_same "--cachegrind-out: cachegrind's file but for cmd: (a program without libc)" \
    "grep -v '^cmd:' $tmp/ours.cg" "grep -v '^cmd:' $tmp/nl.cg"
check_same "cg_annotate's report of it = of cachegrind's file, but for the command and file lines" \
    "cg_annotate $tmp/ours.cg | grep -v -e '^Command:' -e '^Data file:'" \
    "cg_annotate $tmp/nl.cg | grep -v -e '^Command:' -e '^Data file:' | awk '{print} /multiply/ {m++} END {exit !m}'"
check_same "cg_diff of the two: every count 0" \
    "cg_diff $tmp/ours.cg $tmp/nl.cg | sed -n 's/^summary: //p'" "echo 0 0 0 0 0 0 0 0 0"
check_same "cg_merge of it twice: the counts doubled" \
    "cg_merge -o $tmp/two.cg $tmp/ours.cg $tmp/ours.cg && sed -n 's/^summary: //p' $tmp/two.cg" \
    "sed -n 's/^summary: //p' $tmp/nl.cg | awk '{for (i = 1; i <= NF; i++) \$i *= 2; print}'"
check_same "-g func: cachegrind's counts by function, most first-level misses first, adding up" \
    "cachesim $G -g func $tmp/nl.txt | awk '!/^#/ {print \$1; for (i = 2; i <= 10; i++) s[i] += \$i} END {for (i = 2; i <= 10; i++) printf \"%d \", s[i]; print \"\"}'" \
    "printf 'multiply\nfill\nentry\n'; sed -n 's/^summary: //p' $tmp/nl.cg | sed 's/ *\$/ /'"
check_same "-A: cachegrind's labelled summary, of the same counts" \
    "cachesim $G -A $tmp/nl.txt | awk '/^I   refs:/ {print \$3} /^D1  misses:/ {print \$3, \$5, \$8}' | tr -d ," \
    "sed -n 's/^summary: //p' $tmp/nl.cg | awk '{print \$1; print \$5 + \$8, \$5, \$8}'"
check_same "--cachegrind on a terminal: the labelled summary, as -A" \
    "script -qc 'cachesim $G $tmp/nl.txt' /dev/null | tr -d '\\r' | awk '{print} /^I   refs: / {n++} END {exit !n}'" \
    "cachesim $G -A $tmp/nl.txt"
check_fail "--cachegrind -g set: refused" 2 "--cachegrind: -g loc or func" "cachesim --cachegrind -g set $tmp/nl.txt"
cachesim -c 4K:2:64 -c 64K:8:64 -c 256K:8:64 --cachegrind-out "$tmp/h.cg" "$tmp/nl.txt" >"$tmp/h.tab"
check_same "--cachegrind-out of a hierarchy: events per level, adding up to the table's accesses and misses" \
    "sed -n 's/^events: //p; s/^summary: //p' $tmp/h.cg | awk 'NR == 2 {print \$1 + \$5 + \$9, \$2 + \$6 + \$10, \$3 + \$7 + \$11, \$4 + \$8 + \$12; next} {print}'" \
    "echo 'Ir I1mr I2mr I3mr Dr D1mr D2mr D3mr Dw D1mw D2mw D3mw '; awk '\$1 == \"L1\" {printf \"%s %s\", \$6, \$10} \$1 ~ /^L[23]\$/ {printf \" %s\", \$10} END {print \"\"}' $tmp/h.tab"
check "... and cg_annotate reads it" "cg_annotate $tmp/h.cg | grep -q 'nolibc.c:multiply'"

# -g by location on a trace without locations: every row '-', said so
check_fail "-g func without locations: said, with the fix" 0 \
    "^cachesim: -g func: no record has a source location: .*trfilter -l" \
    "trfilter -t RW $D/bsort-reversed.lk.gz | cachesim -c 4K:2:64 -g func >/dev/null"
check "-g func with locations: no word on stderr" \
    "trfilter -e $D/bsort -l -t RW $D/bsort-reversed.lk.gz | cachesim -c 4K:2:64 -g func 2>$tmp/e | grep -q '^bsort ' && test ! -s $tmp/e"
check_fail "--cachegrind without levels says the geometry it takes" 0 \
    "^cachesim: --cachegrind: I1 32K:8:64, D1 32K:8:64, LL 8M:16:64" \
    "cachesim --cachegrind $D/bsort-reversed.lk.gz >/dev/null"
check_same_rows "... and it is the one given with -i and -c" \
    "cachesim --cachegrind $D/bsort-reversed.lk.gz 2>/dev/null" \
    "cachesim --cachegrind --icache 32K:8:64 -c 32K:8:64 -c 8M:16:64 $D/bsort-reversed.lk.gz"

# The batched path (rt_hier_run: first-level hits inline, each side's last
# block remembered, stopping at each event) against the path that serves
# every block by itself (--map asks for what follows each access): the
# same table on a trace of reads, writes, modifies and fetches that cross
# blocks, with flushes and invalidates among them, for a unified first
# level and a split one, LRU and MRU (inline) and FIFO (not), direct-mapped
# too (where a miss evicts the block a side remembers), one to three levels
awk 'BEGIN {srand(7); printf "#reftrace trace 1\n"
	for (i = 0; i < 20000; i++) {
		r = rand()
		if (r < .003) { printf "#%s %d 0x%x %d\n", rand() < .5 ? "flush" : "inval", i, int(rand() * 4096) * 16, rand() < .3 ? 0 : int(rand() * 2048); continue }
		op = r < .45 ? "I" : r < .7 ? "R" : r < .9 ? "W" : "M"
		a = op == "I" ? 4096 + int(rand() * 600) : rand() < .7 ? 65536 + int(rand() * 3000) : int(rand() * 2^20)
		printf "%d %s 0x%x %d\n", i, op, a, 1 + int(rand() * rand() * 40) }}' >"$tmp/ev.txt"
trfilter -b "$tmp/ev.txt" >"$tmp/ev.rtb"	# read in batches (text comes a record at a time)
bad=
for c in "-c 1K:2:64" "-c 512:1:64" "-c 1K:4:64:mru -c 4K:4:64" "-c 2K:4:32 -c 16K:8:64" "--icache 1K:2:32 -c 2K:4:64 -c 8K:4:64 -c 64K:8:128" \
    "-c 2K:4:64:fifo -c 16K:4:64" "--icache 1K:1:64:mru -c 1K:2:16:lru:wt -c 8K:4:64" \
    "-c 2K:2:64:lru:wb:nwa -c 16K:4:64 --inclusion inclusive" "-c 2K:2:64 -c 16K:4:64 --inclusion exclusive"; do
	a=$(cachesim $c "$tmp/ev.rtb") && b=$(cachesim $c --map "$tmp/m.png" "$tmp/ev.rtb") &&
	    [ "$(printf '%s\n' "$a" | grep -c '^L')" -gt 0 ] && [ "$a" = "$b" ] || bad="$bad [$c]"
done
check "batched = block by block, events among the accesses, 9 hierarchies" \
    "test -z '$bad' || { echo '$bad'; false; }"
check "... where the events count (without them the table differs) and every level misses" \
    "c='--icache 1K:2:32 -c 2K:4:64 -c 8K:4:64 -c 64K:8:128'; cachesim \$c $tmp/ev.rtb >$tmp/ev.a && grep -v '^#[fi]' $tmp/ev.txt | trfilter -b | cachesim \$c >$tmp/ev.b && ! cmp -s $tmp/ev.a $tmp/ev.b && awk '/^L/ && \$10 > 0 {n++} END {exit n != 4}' $tmp/ev.a"
