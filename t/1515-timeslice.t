#!/bin/sh
# Time slices (#36 item 3): cachesim --slice k/n's states, fixed up in
# order by --fixup, make the table of the whole trace byte for byte (the
# single run is the oracle), for policies whose fix-up converges and
# those whose does not; what cannot be exact is refused.
. "$(dirname "$0")/lib.sh"
plan 24

# 1.1 M records: 5 blocks of the binary trace; a hot set and a cold sweep
awk 'BEGIN { srand(11); for (i = 0; i < 1100000; i++) {
	a = rand() < 0.8 ? int(rand() * 3000) * 8 : int(rand() * 300000) * 8
	printf "%s 0x%x %d\n", rand() < 0.3 ? "W" : "R", a, rand() < 0.05 ? 16 : 8 } }' |
    trfilter -b >"$tmp/r.rtb"
trfilter -t RWM -b "$D/matmul-blocked.lk.gz" >"$tmp/m1.rtb"
# the t/data trace repeated past a block: its seqs kept, ids defined once
for i in 1 2 3 4 5 6; do trfilter "$D/kernels.lk.gz"; done | trfilter -b >"$tmp/k.rtb" 2>/dev/null

# sliced TRACE N OPTIONS: the jobs one by one, then the fix-up
sliced() {
	t=$1 ns=$2; shift 2
	s=
	for k in $(seq 0 $((ns - 1))); do
		cachesim "$@" --slice $k/$ns "$t" >"$tmp/s$k" || return 1
		s="$s $tmp/s$k"
	done
	cachesim "$@" --fixup "$t" $s
}

# the fix-ups of slices 1 to 4 of 5 done ahead on threads, each from the
# job before's end state, good only when the fix-up before converged:
# slice 2 touches one address (never converges), so slice 3's is done
# again from the true state
awk 'BEGIN { srand(7); for (i = 0; i < 1310720; i++) {
	a = i >= 524288 && i < 786432 ? 4096 : int(rand() * 16384) * 64
	printf "%s 0x%x 8\n", rand() < 0.3 ? "W" : "R", a } }' | trfilter -b >"$tmp/c.rtb"
for t in 1 4; do
	check_same_rows "--threads $t, 5 slices, the middle one never converging: the single run's table" \
	    "sliced $tmp/c.rtb 5 --threads $t -c 4K:4:64 -c 64K:8:64" "cachesim -c 4K:4:64 -c 64K:8:64 $tmp/c.rtb"
done
check "... and 3 of the 4 fix-ups converged" \
	"cachesim -A -c 4K:4:64 -c 64K:8:64 --fixup $tmp/c.rtb $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3 $tmp/s4 2>&1 >/dev/null |
	 grep -q '; 3 of 4 slices converged'"
for N in 2 3 5; do
	check_same_rows "LRU two levels, $N slices: the single run's table" \
	    "sliced $tmp/r.rtb $N -c 4K:4:64 -c 64K:8:64" "cachesim -c 4K:4:64 -c 64K:8:64 $tmp/r.rtb"
done
check_same_rows "FIFO, 3 slices" "sliced $tmp/r.rtb 3 -c 8K:4:32:fifo" \
    "cachesim -c 8K:4:32:fifo $tmp/r.rtb"
check_same_rows "PLRU (its states do not converge: whole slices again), 3 slices" \
    "sliced $tmp/r.rtb 3 -c 8K:8:64:plru" "cachesim -c 8K:8:64:plru $tmp/r.rtb"
check_same_rows "write-through, no write-allocate over a fully associative level, 2 slices" \
    "sliced $tmp/r.rtb 2 -c 2K:2:64:lru:wt:nwa -c 16K:full:64" \
    "cachesim -c 2K:2:64:lru:wt:nwa -c 16K:full:64 $tmp/r.rtb"
check_same_rows "three levels (i7), --flush, 5 slices" "sliced $tmp/r.rtb 5 --flush" \
    "cachesim --flush $tmp/r.rtb"
check_same_rows "three levels of three policies, exclusive, 3 slices" \
    "sliced $tmp/r.rtb 3 --inclusion exclusive -c 4K:4:64:mru -c 32K:8:64:srrip -c 128K:8:64:lfu" \
    "cachesim --inclusion exclusive -c 4K:4:64:mru -c 32K:8:64:srrip -c 128K:8:64:lfu $tmp/r.rtb"
check_same_rows "a t/data trace repeated, split I-cache, 3 slices" \
    "sliced $tmp/k.rtb 3 --icache 4K:2:64 -c 8K:4:64 -c 64K:8:64" \
    "cachesim --icache 4K:2:64 -c 8K:4:64 -c 64K:8:64 $tmp/k.rtb"
check_same_rows "a trace of one block in 4 slices (three empty)" \
    "sliced $tmp/m1.rtb 4 -c 1K:2:32" "cachesim -c 1K:2:32 $tmp/m1.rtb"
check_rows "the fix-up of LRU converges: it simulates less than the slices again" \
    '$1 < 880000' "sliced $tmp/r.rtb 5 -A -c 4K:4:64 2>&1 >/dev/null |
    sed -n 's/.*fix-up simulated \([0-9]*\) records.*/\1/p'"

if command -v parallel >/dev/null; then
	check_same_rows "contrib/tslice: 3 slices under GNU parallel, the single run's table" \
	    "$(dirname "$0")/../contrib/tslice -n 3 $tmp/r.rtb -c 4K:4:64 -c 32K:8:64:fifo" \
	    "cachesim -c 4K:4:64 -c 32K:8:64:fifo $tmp/r.rtb"
else
	skip "contrib/tslice: GNU parallel is not installed"
fi

check_fail "--slice 2/2 refused" 2 "slice 2/2: want k/n" "cachesim --slice 2/2 $tmp/r.rtb"
check_fail "-3 refused" 2 "3C.*compulsory" "cachesim -3 --slice 0/2 $tmp/r.rtb"
check_fail "RANDOM refused, with the reason" 2 "random.*generator" \
    "cachesim -c 4K:4:64:random --slice 0/2 $tmp/r.rtb"
check_fail "OPT refused" 2 "opt.*future" "cachesim -c 4K:4:64:opt --slice 1/2 $tmp/r.rtb"
check_fail "a gzip trace refused" 1 "seeking" \
    "gzip -c $tmp/r.rtb >$tmp/r.rtb.gz; cachesim --slice 1/2 $tmp/r.rtb.gz"
check_fail "a state of other caches refused" 2 "not of these caches|a level not" \
    "cachesim -c 4K:4:64 --slice 0/2 $tmp/r.rtb >$tmp/o0 &&
    cachesim -c 4K:4:64 --slice 1/2 $tmp/r.rtb >$tmp/o1 &&
    cachesim -c 8K:4:64 --fixup $tmp/r.rtb $tmp/o0 $tmp/o1"
check_fail "states of another trace refused" 2 "of a trace of [0-9]* bytes" \
    "cachesim -c 4K:4:64 --fixup $tmp/k.rtb $tmp/o0 $tmp/o1"
check_fail "states out of order refused" 2 "slice 1/2, not of 0/2" \
    "cachesim -c 4K:4:64 --fixup $tmp/r.rtb $tmp/o1 $tmp/o0"
# an LRU stamp counts accesses: 2^63 is no count (the victim's choice keys below it)
check_fail "a stamp of 2^63 refused, its line named" 1 "o0bad:[0-9]*: bad cache state line" \
    "awk '/^W/ && !d { \$5 = \"9223372036854775808\"; d = 1 } { print }' $tmp/o0 >$tmp/o0bad &&
    cachesim -c 4K:4:64 --fixup $tmp/r.rtb $tmp/o0bad $tmp/o1"
