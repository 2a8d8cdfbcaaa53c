#!/bin/sh
# reusedist: distances against a naive LRU stack, miss-ratio curves against
# direct LRU simulation, hand-worked examples, SHARDS accuracy.
. "$(dirname "$0")/lib.sh"
plan 74

U=$(cd "$(dirname "$0")/unit" && pwd)
MAE="$(dirname "$0")/mae.awk"
# mae_below LIMIT EXACT SAMPLED: the curves' mean absolute difference from
# 100 blocks up is a number (not nan: both have rows) below LIMIT
mae_below() {
	awk -v lo=100 -f "$MAE" "$2" "$3" | awk -v lim="$1" '{ print "# MAE", $1 } END { exit !(NR == 1 && $1 ~ /^[0-9.]+$/ && $1 < lim) }'
}
mk() { printf '#reftrace trace 1\n'; awk '{print NR - 1, ($2 ? $2 : "R"), $1, ($3 ? $3 : 1)}'; }
dist() { awk '!/^#/ {print $3}'; }
# a modify is a read and a write of its block (reftrace(7)): twice
blocks() { trfilter | awk "$HEX"' !/^#/ {printf "%.0f\n", int(hex($3) / B); if ($2 == "M") printf "%.0f\n", int(hex($3) / B)}' B=$1; }

# hand-worked
printf '0\n64\n128\n0\n' | mk >"$tmp/abca"
check_same "a b c a: the second a is at distance 2" "reusedist -d $tmp/abca | dist" "printf -- '-\n-\n-\n2\n'"
printf '0\n64\n64\n0\n' | mk >"$tmp/abba"
check_same "a b b a: reuse distance 1, time distance 2" \
    "reusedist -d $tmp/abba | dist; reusedist -D time -d $tmp/abba | dist" \
    "printf -- '-\n-\n0\n1\n-\n-\n0\n2\n'"
check_same "-d columns: seq, block, distance" "reusedist -d $tmp/abca" \
    "printf '#reftrace reuse 1 seq block distance\n0 0 -\n1 1 -\n2 2 -\n3 0 2\n'"
printf '60 R 8\n0 R 4\n64 R 4\n' | mk >"$tmp/straddle"
check_same "an access across a block boundary touches both blocks" \
    "reusedist -d $tmp/straddle | awk '!/^#/ {print \$2, \$3}'" "printf '0 -\n1 -\n0 1\n1 1\n'"
printf '0 M 4\n0 M 4\n' | mk >"$tmp/mod"
check_same "a modify is a read and a write, as cachesim counts it: its write at distance 0" \
    "reusedist -d $tmp/mod | dist" "printf -- '-\n0\n0\n0\n'"
check_same "-B 1: byte addresses" "printf '0\n1\n0\n' | mk | reusedist -B 1 -d | dist" "printf -- '-\n-\n1\n'"
check_same "-x: the exact histogram of a b c a a c" \
    "printf '0\n64\n128\n0\n0\n128\n' | mk | reusedist --exact | grep -v '^#'" \
    "printf '0 0 1 0.166667 0.166667\n1 1 1 0.166667 0.333333\n2 2 1 0.166667 0.5\ncold cold 3 0.5 1\n'"
check_same "-C: its miss-ratio curve" \
    "printf '0\n64\n128\n0\n0\n128\n' | mk | reusedist -C | grep -v '^#'" \
    "printf '0 0 6 1\n1 64 5 0.833333\n2 128 4 0.666667\n3 192 3 0.5\n'"

# against the naive stack, on random and real traces
awk 'BEGIN {srand(11); for (i = 0; i < 20000; i++) print (rand() < .7 ? int(rand() * 40) : int(rand() * 3000)) * 64}' | mk >"$tmp/rand1"
awk 'BEGIN {srand(12); for (i = 0; i < 20000; i++) print int(rand() * rand() * 5000) * 8}' | mk >"$tmp/rand2"
for t in rand1 rand2; do
	check_same "$t: distances = the naive stack's" \
	    "reusedist -d $tmp/$t | dist" "blocks 64 <$tmp/$t | $U/naive stack"
done
check_same "rand2 -B 8: distances = the naive stack's" \
    "reusedist -B 8 -d $tmp/rand2 | dist" "blocks 8 <$tmp/rand2 | $U/naive stack"
check_same "rand1: time distances = the naive ones" \
    "reusedist -D time -d $tmp/rand1 | dist" "blocks 64 <$tmp/rand1 | $U/naive time"
# runs of accesses within one block, one after another: distance 0 without
# asking the engine (queued when each access is reported, counted at once
# for a histogram), the blocks' order on the stack untouched
awk 'BEGIN {srand(13); for (i = 0; i < 20000; i++) {b = rand() < .6 ? int(rand() * 30) : int(rand() * 2000); n = 1 + int(rand() * 5); for (j = 0; j < n; j++) print b * 64 + int(rand() * 8) * 8}}' | mk >"$tmp/runs"
check_same "runs within a block: distances = the naive stack's" \
    "reusedist -d $tmp/runs | dist" "blocks 64 <$tmp/runs | $U/naive stack"
check_same "runs within a block: the exact histogram = the naive stack's" \
    "reusedist --exact $tmp/runs | awk '!/^#/ {print \$1, \$3}'" \
    "blocks 64 <$tmp/runs | $U/naive stack | awk '{c[\$1]++} END {for (k in c) if (k != \"-\") print k, c[k] | \"sort -n\"; close(\"sort -n\"); print \"cold\", c[\"-\"]}'"
check_same "runs within a block: time distances = the naive ones" \
    "reusedist -D time -d $tmp/runs | dist" "blocks 64 <$tmp/runs | $U/naive time"
check_same "runs within a block, -H 0.5: distances = 2 x the naive stack's over the sampled blocks" \
    "reusedist -H 0.5 -d $tmp/runs | dist" \
    "reusedist -H 0.5 -d $tmp/runs | awk '!/^#/ {print \$2}' | $U/naive stack | awk '{print \$1 == \"-\" ? \"-\" : 2 * \$1}'"
for t in bsort-reversed matmul-blocked interchange-colwise; do
	trfilter -t RWM "$D/$t.lk.gz" >"$tmp/$t"
	check_same "$t (data): distances = the naive stack's" \
	    "reusedist -d $tmp/$t | dist" \
	    "awk '$HEX !/^#/ {a = hex(\$3); for (b = int(a / 64); b <= int((a + \$4 - 1) / 64); b++) for (m = 0; m <= (\$2 == \"M\"); m++) printf \"%.0f\\n\", b}' $tmp/$t | $U/naive stack"
done
zcat "$D/bsort-reversed.lk.gz" | head -30000 | trfilter >"$tmp/bsall"
check_same "bsort with fetches, 30000 lines: the naive stack's" \
    "reusedist -d $tmp/bsall | dist" \
    "awk '$HEX !/^#/ {a = hex(\$3); for (b = int(a / 64); b <= int((a + \$4 - 1) / 64); b++) for (m = 0; m <= (\$2 == \"M\"); m++) printf \"%.0f\\n\", b}' $tmp/bsall | $U/naive stack"

# Mattson: the curve at C blocks = a fully associative LRU cache of C blocks
reusedist -C "$tmp/matmul-blocked" >"$tmp/mm.mrc"
awk "$HEX"' !/^#/ {a = hex($3); for (b = int(a / 64); b <= int((a + $4 - 1) / 64); b++) for (m = 0; m <= ($2 == "M"); m++) printf "%.0f\n", b}' "$tmp/matmul-blocked" >"$tmp/mm.blocks"
for c in 1 2 3 5 8 13 21 34 55 89 144; do
	check_same "matmul-blocked: misses at $c blocks = LRU simulation" \
	    "awk -v c=$c '!/^#/ && \$1 <= c {m = \$3} END {print m}' $tmp/mm.mrc" "$U/naive lru $c <$tmp/mm.blocks"
done
check_rows "-C bytes column = blocks x block size" '$2 == $1 * 32' "reusedist -B 32 -C $tmp/rand1"

# log2 bins, groups, windows
check_same "log2 bins hold the exact counts" \
    "reusedist $tmp/rand1 | awk '!/^#/ {print \$1, \$2, \$3}'" \
    "reusedist --exact $tmp/rand1 | awk '!/^#/ && \$1 != \"cold\" {k = \$1 == 0 ? 0 : 2 ^ int(log(\$1) / log(2) + 1e-9); c[k] += \$3} \$1 == \"cold\" {cold = \$3} END {for (k in c) print k, (k + 0 ? 2 * k - 1 : 0), c[k] | \"sort -n\"; close(\"sort -n\"); print \"cold cold\", cold}'"
trfilter -e "$D/bsort" -l -t RWM "$D/bsort-reversed.lk.gz" >"$tmp/bsl"
reusedist -d "$tmp/bsl" | awk '!/^#/' >"$tmp/bsl.d"
awk 'NR == FNR {if (!/^#/) f[$1] = $8; next} {print f[$1], $1, $2, $3}' "$tmp/bsl" "$tmp/bsl.d" >"$tmp/bsl.j"
check_same "-g func: count, cold, mean and sd per function (awk over -d)" \
    "reusedist -g func $tmp/bsl | awk '\$1 == \"bsort\" || \$1 == \"main\"' | sort" \
    "awk '{n[\$1]++} \$4 == \"-\" {c[\$1]++; next} {k[\$1]++; s[\$1] += \$4; q[\$1] += \$4 * \$4} END {for (f in n) if (f == \"bsort\" || f == \"main\") printf \"%s %d %d %.3f %.3f\n\", f, n[f], c[f], s[f] / k[f], sqrt((q[f] - s[f] * s[f] / k[f]) / (k[f] - 1))}' $tmp/bsl.j | sort"
check_same "-g region: the array a's reuse (awk over -d)" \
    "reusedist -g region $tmp/bsl | awk '\$1 == \"a\" {print \$2, \$3, \$4}'" \
    "reusedist -d $tmp/bsl | awk 'NR == FNR {if (\$1 != \"#reftrace\" && \$9 == \"a\") a[\$1] = 1; next} (\$1 in a) {n++; if (\$3 == \"-\") c++; else {k++; s += \$3}} END {printf \"%d %d %.3f\n\", n, c, s / k}' $tmp/bsl -"
check_same "-g loc: one row per source line, counts add up" \
    "reusedist -g loc $tmp/bsl | awk '!/^#/ {n += \$2} END {print n}'" "wc -l <$tmp/bsl.d | tr -d ' '"
check_same "-w 1000: the running mean (awk over -d)" \
    "reusedist -w 1000 $tmp/rand1 | awk '!/^#/ {print \$2, \$3, \$4}'" \
    "reusedist -d $tmp/rand1 | awk '!/^#/ {n++; if (\$3 == \"-\") c++; else {k++; s += \$3}} n == 1000 {printf \"%d %d %.3f\n\", n, c, s / k; n = c = k = s = 0} END {if (n) printf \"%d %d %.3f\n\", n, c, s / k}'"

# sampling (SHARDS): accuracy on 10^7 accesses over the sizes a sample
# resolves (1/rate blocks and up)
"$U/synth" 10000000 5 | trfilter -b >"$tmp/syn.rtb"
reusedist -C "$tmp/syn.rtb" >"$tmp/exact.mrc"
reusedist -C -H 0.01 "$tmp/syn.rtb" >"$tmp/h.mrc"
reusedist -C -N 8K "$tmp/syn.rtb" >"$tmp/n.mrc"
check "-H 0.01 on 10^7 accesses: MAE < 0.01 from 100 blocks up" \
    "mae_below 0.01 $tmp/exact.mrc $tmp/h.mrc"
check "-N 8K (fixed size): MAE < 0.01 from 100 blocks up" \
    "mae_below 0.01 $tmp/exact.mrc $tmp/n.mrc"
check "-H 0.01: the access count is the trace's" "grep -q '^#accesses 10000000\$' $tmp/h.mrc"
check_same "-H agrees with trsample -H (same hash, same seed): distances x 1/rate" \
    "reusedist -H 0.1 -S 3 -d $tmp/rand1 | dist" \
    "trsample -H 0.1 -S 3 $tmp/rand1 | reusedist -d | awk '!/^#/ {print \$3 == \"-\" ? \"-\" : \$3 * 10}'"
for k in 0 1 2 3; do reusedist --exact -P $k/4 "$tmp/syn.rtb" >"$tmp/p$k.h"; done
check "-P k/4 partitions merged with -M: MAE < 0.01 from 100 blocks up" \
    "reusedist -M -C $tmp/p0.h $tmp/p1.h $tmp/p2.h $tmp/p3.h >$tmp/pm.mrc && mae_below 0.01 $tmp/exact.mrc $tmp/pm.mrc"
reusedist --exact "$tmp/rand1" >"$tmp/r1.h"
check_same_rows "-M of one exact histogram is itself" "reusedist -M $tmp/r1.h" "cat $tmp/r1.h"
# a bin's count below half a thousandth (an estimate: counts over a rate)
# is written with its digits, not as 0, which read again was no bin at all
printf '#reftrace hist 1 lo hi count fraction cumulative\n#block 64\n#accesses 3\n#rate 1\n4 4 2 0 0\n5 5 0.0002 0 0\n8 8 1 0 0\n' >"$tmp/tiny.h"
check_same "-M: a count of 0.0002 stays 0.0002, its bin read again" \
    "reusedist -M $tmp/tiny.h >$tmp/tiny2.h && reusedist -M $tmp/tiny2.h | awk '!/^#/ {print \$1, \$3}'" \
    "printf '4 2\n5 0.0002\n8 1\n'"

# the summary for people agrees with the tables
reusedist -C "$tmp/syn.rtb" >"$tmp/syn.mrc"
check_same "-A: the 32K miss ratio is the curve's at 512 blocks" \
    "reusedist -A $tmp/syn.rtb | awk '/32K/ {print \$NF}'" \
    "awk '!/^#/ && \$1 <= 512 {r = \$3 / 10000000} END {printf \"%.4f\\n\", r}' $tmp/syn.mrc"
check_same "-A: accesses and distinct blocks" \
    "reusedist -A $tmp/rand1 | awk '/^accesses/ {print \$2} /^distinct/ {print \$3}'" \
    "awk '!/^#/' $tmp/rand1 | wc -l | tr -d ' '; reusedist -d $tmp/rand1 | awk '\$3 == \"-\"' | wc -l | tr -d ' '"

# input handling
check_same "-o writes the file" "reusedist --exact -o $tmp/o.h $tmp/rand1 && cat $tmp/o.h" "reusedist --exact $tmp/rand1"
check_same_rows "stdin, '-', gzip and binary give the same" \
    "reusedist --exact <$tmp/rand1; gzip -c $tmp/rand1 | reusedist --exact -; trfilter -b $tmp/rand1 | reusedist --exact" \
    "reusedist --exact $tmp/rand1; reusedist --exact $tmp/rand1; reusedist --exact $tmp/rand1"
printf '#reftrace trace 1\n0 R 0x10 4\n1 R zz 4\n2 R 0x10 4\n' >"$tmp/bad"
check_fail "a bad line is named, exit 1" 1 "bad:3: bad address" "reusedist $tmp/bad"
check_same "-k skips it" "reusedist -k -d $tmp/bad 2>/dev/null | dist" "printf -- '-\n0\n'"
check_fail "a missing file: exit 1" 1 "reusedist: nosuch: No such file" "reusedist nosuch"
check_fail "a bad option: usage, exit 2" 2 "usage: reusedist" "reusedist -Q"
check_fail "-D time with -C: exit 2, says why" 2 "come from reuse distances" "reusedist -D time -C $tmp/rand1"
check_fail "-M of a trace: says it got a trace" 1 \
    "rand1: a trace.*, not a reuse-distance histogram \\(reusedist makes one\\)" "reusedist -M $tmp/rand1"
cachesim -c 1K:2:64 "$tmp/rand1" >"$tmp/r1.cache"
check_fail "-M of a cache table: says it got a cache table" 1 \
    "r1.cache: a cache table, not a reuse-distance histogram \\(reusedist makes one\\)" "reusedist -M $tmp/r1.cache"
reusedist -C "$tmp/rand1" >"$tmp/r1.mrc"
check_fail "-M of a miss-ratio curve: names it" 1 "a miss-ratio curve, not a reuse-distance histogram" "reusedist -M $tmp/r1.mrc"
for k in 0 1 2 3; do gzip -c "$tmp/p$k.h" >"$tmp/p$k.h.gz"; done
check_same_rows "-M of gzipped histograms = of the plain ones" \
    "reusedist -M -C $tmp/p0.h.gz $tmp/p1.h.gz $tmp/p2.h.gz $tmp/p3.h.gz" "cat $tmp/pm.mrc"
awk 'NR == 2 {s = "#"; for (i = 0; i < 3000; i++) s = s "x"; print s} {print}' "$tmp/r1.h" >"$tmp/long.h"
check_same_rows "-M reads lines of any length (a 3000-byte comment)" "reusedist -M $tmp/long.h" "cat $tmp/r1.h"
sed '7s/^[0-9]* /zz /' "$tmp/r1.h" >"$tmp/bad.h"
check_fail "-M of a bad row names its file and line" 1 "bad.h:7: bad histogram line" "reusedist -M $tmp/bad.h"
check_fail "-M of log2 bins: refused, with the line" 1 "r1.log2:7: log2 bins do not merge" \
    "reusedist $tmp/rand1 >$tmp/r1.log2; reusedist -M $tmp/r1.log2"
check_same "the histogram and curve readers: exact histograms and curves read back the same" \
    "$U/cachestream hist $tmp/r1.h; $U/cachestream mrc $tmp/r1.mrc" \
    "cat $tmp/r1.h; awk '/^#block/ {b = \$2} /^#accesses/ {a = \$2} /^#rate/ {print b, a, \$2} !/^#/' $tmp/r1.mrc"
# Estimates are counts over a rate: shown to three decimals at most, not
# with the noise of their last bits (3387144.00000001 before)
for i in 1 2 3 4; do zcat "$D/matmul-standard.lk.gz"; done >"$tmp/mm4.lk"
check "-C -H 0.07: every estimated count has at most three decimals" \
    "reusedist -C -H 0.07 $tmp/mm4.lk >$tmp/est && test \$(grep -vc '^#' $tmp/est) -gt 10 &&
     ! awk '!/^#/ && \$3 !~ /^[0-9]+(\\.[0-9][0-9]?[0-9]?)?\$/ { print; bad = 1 } END { exit !bad }' $tmp/est"
check_fail "-g loc without locations: said, with the fix" 0 \
    "^reusedist: -g loc: no record has a source location: .*trfilter -l" \
    "trfilter -t RW $D/bsort-reversed.lk.gz | reusedist -g loc >/dev/null"
# A histogram of two bins, one at distance 12222222, merged: its bins
# back, and no array as long as the distance (it took 128 MB; fuzzing
# found it; 1 GB under the sanitizers, whose allocator touches more).
printf '#reftrace hist 1 lo hi count fraction cumulative\n#block 64\n#accesses 10\n#rate 1\n12222222 12222222 5 0.5 0.5\n5 5 5 0.5 1\n' >"$tmp/far.h"
lim=32768; [ -z "${RT_SMALL:-}" ] || lim=1048576
check "-M of a bin at distance 12 M: its bins, in under 32 MB" \
    "/usr/bin/time -f %M -o '$tmp/rss' reusedist -M $tmp/far.h >$tmp/far.out &&
     test \"\$(grep -v '^#' $tmp/far.out | cut -d' ' -f1-3 | tr '\\n' ' ')\" = '5 5 5 12222222 12222222 5 ' &&
     test \$(cat '$tmp/rss') -lt $lim"
# A bin of count 0 is no bin, wherever its distance puts it (at 100000
# it went to the map, which printed it).
printf '#reftrace hist 1 lo hi count fraction cumulative\n#block 64\n#accesses 10\n#rate 1\n5 5 10 1 1\n100000 100000 0 0 1\n' >"$tmp/zero.h"
check "-M: a bin of count 0 is left out" \
    "reusedist -M --exact $tmp/zero.h >$tmp/zero.out && test \"\$(grep -v '^#' $tmp/zero.out | cut -d' ' -f1-3)\" = '5 5 10'"

# cachegrind's file of the misses of fully associative LRU caches of
# chosen sizes, per source line: each size's misses are cachesim's
trfilter -e "$D/bsort" -l "$D/bsort-reversed.lk.gz" >"$tmp/bsw"
reusedist --cachegrind-out "$tmp/r.cg" --sizes 1K,8K "$tmp/bsw" >/dev/null
check_same "--cachegrind-out --sizes 1K,8K: the misses of each size = cachesim's fully associative LRU" \
    "sed -n 's/^summary: //p' $tmp/r.cg | awk '{print \$2 + \$5 + \$8; print \$3 + \$6 + \$9}'" \
    "for s in 1K 8K; do cachesim -c \$s:full:64 $tmp/bsw | awk '\$1 == \"L1\" {print \$10}'; done"
check_same "... and its accesses are the histogram's" \
    "sed -n 's/^summary: //p' $tmp/r.cg | awk '{print \$1 + \$4 + \$7}'" \
    "reusedist $tmp/bsw | sed -n 's/^#accesses //p'"
check_same "... the events named by kind and size, a desc: line per size" \
    "sed -n 's/^events: //p; s/^desc: //p' $tmp/r.cg" \
    "printf 'LRU1 cache:       1024 B, 64 B, fully associative\nLRU2 cache:       8192 B, 64 B, fully associative\nIr I1mr I2mr Dr D1mr D2mr Dw D1mw D2mw \n'"
if command -v cg_annotate >/dev/null; then
	check "... and cg_annotate reads it" "cg_annotate $tmp/r.cg | grep -q 'dl-lookup.c:do_lookup_x'"
else
	skip "no cg_annotate (valgrind)"
fi
check_fail "--cachegrind-out of a sample: refused" 2 "exact reuse distances" \
    "reusedist -H 0.5 --cachegrind-out $tmp/x.cg $tmp/bsw"

# a sampled curve has no row for a cache smaller than its resolution,
# 1/rate blocks, which it cannot tell from none (at 1 block, 0.003 for
# an exact 0.80); from there on its rows are written
reusedist -C -H 0.01 "$D/fir2dim.lk.gz" >"$tmp/s.mrc"
check "-C -H 0.01: #resolution 100, no row of 1 to 99 blocks, one at 100, rows after" \
    "grep -q '^#resolution 100\$' $tmp/s.mrc && awk '!/^#/ && \$1 > 0 && \$1 < 100 {exit 1} !/^#/ && \$1 == 100 {h++} !/^#/ && \$1 >= 100 {n++} END {exit h != 1 || n < 5}' $tmp/s.mrc"
check "-C exact: no #resolution, a row at 1 block" \
    "reusedist -C $D/fir2dim.lk.gz | awk '/^#resolution/ {exit 1} \$1 == 1 {n++} END {exit n != 1}'"

# one definition of an access (reftrace(7)): reusedist's accesses and a
# fully associative LRU cache's misses are cachesim's, modifies included
trfilter -t RWM "$D/matmul-standard.lk.gz" >"$tmp/mmd"
check_same "matmul (with modifies): accesses and 32K misses = cachesim -c 32K:full:64's" \
    "reusedist -C $tmp/mmd | awk '/^#accesses/ {a = \$2} !/^#/ && \$1 <= 512 {m = \$3} END {print a, m}'" \
    "cachesim -c 32K:full:64 $tmp/mmd | awk '\$1 == \"L1\" {print \$6, \$10}'"
check "-g loc: rows by accesses, most first" \
    "trfilter -e $D/bsort -l $D/bsort-reversed.lk.gz | reusedist -g loc | awk '!/^#/ {if (n++ && \$2 > p) exit 1; p = \$2} END {exit n < 10}'"
