#!/bin/sh
# contrib/partrun: split, GNU parallel, merge; the single run's numbers.
. "$(dirname "$0")/lib.sh"
P="$(cd "$(dirname "$0")/.." && pwd)/contrib/partrun"
plan 6

trfilter -t RWM -b "$D/matmul-blocked.lk.gz" >"$tmp/all.rtb"
check_same_rows "-j 2: cachesim -c i7 merged = the single run" \
    "$P -j 2 $tmp/all.rtb 'cachesim -c i7'" "cachesim -c i7 $tmp/all.rtb"
check_same_rows "-S : (--transferfile, --return): the same" \
    "$P -S : -n 8 $tmp/all.rtb 'cachesim -c 4K:2:64:plru -c 64K:8:64:lru'" \
    "cachesim -c 4K:2:64:plru -c 64K:8:64:lru $tmp/all.rtb"
check_same_rows "-S 2/: -B 128, --inclusion exclusive: the same" \
    "$P -S 2/: -B 128 $tmp/all.rtb 'cachesim --inclusion exclusive -c 8K:4:64 -c 64K:8:128'" \
    "cachesim --inclusion exclusive -c 8K:4:64 -c 64K:8:128 $tmp/all.rtb"
for k in 0 1 2 3; do reusedist --exact -P $k/4 "$tmp/all.rtb" >"$tmp/g$k"; done
stubok cachesim check_same "reusedist --exact: the merge of reusedist -P k/4" \
    "$P -j 2 $tmp/all.rtb 'reusedist --exact'" "reusedist -M $tmp/g0 $tmp/g1 $tmp/g2 $tmp/g3"
check "-k dir keeps the partitions and tables" \
    "$P -k $tmp/kept -n 2 $tmp/all.rtb 'cachesim' >/dev/null && test -s $tmp/kept/part1.rtb && grep -q '^#reftrace cache ' $tmp/kept/part1.tsv && grep -q '^L1 ' $tmp/kept/part1.tsv"
check_fail "a job that fails fails the run" 1 "" \
    "$P -j 2 $tmp/all.rtb 'cachesim -c 3K:full:64'"
