#!/bin/sh
# cachesim -E: the LRU configurations simulated together in one pass (a
# stack per set count) and the PLRU ones batch by batch (plru.c) give,
# row by row, what each configuration's own run (-c, cache.c) gives; the
# others beside them.
. "$(dirname "$0")/lib.sh"
plan 17

# strides (8, 72: across blocks; 4096: one set), modifies, fetches, and
# random addresses over 4 MB
awk 'BEGIN {srand(7); print "#reftrace trace 1 seq op addr size"
	for (i = 0; i < 20000; i++) {
		r = rand()
		if (r < .4) a = 4096 + (i * 8) % 65536
		else if (r < .6) a = 1048576 + (i * 72) % 300000
		else if (r < .75) a = 2097152 + (i % 40) * 4096
		else a = int(rand() * 4194304)
		o = rand(); o = o < .15 ? "W" : o < .25 ? "M" : o < .35 ? "I" : "R"
		printf "%d %s 0x%x %d\n", i, o, a, r < .6 ? 8 : 1 + int(rand() * 16)
	}}' >"$tmp/s"
# uniform random over 256 blocks of 64 bytes, reads and writes
awk 'BEGIN {srand(11); print "#reftrace trace 1 seq op addr size"
	for (i = 0; i < 20000; i++)
		printf "%d %s 0x%x 4\n", i, rand() < .3 ? "W" : "R", int(rand() * 16384) * 4}' >"$tmp/u"
# invalidations, of 64 blocks and of everything, now and then, in a
# trace where the order of recency decides much; the block accessed just
# before an invalidation is accessed again after it (a cache that knows
# its last block must forget it)
awk 'BEGIN {srand(3); print "#reftrace trace 1 seq op addr size"
	for (i = 0; i < 20000; i++) {
		a = int(rand() * rand() * rand() * 4096) * 64
		if (i % 3000 == 2999) {
			printf "%d R 0x%x 8\n", n++, a
			print "#inval", n, (int(i / 3000) % 2 ? a " 4096" : "0x0 0")
		}
		printf "%d %s 0x%x 8\n", n++, rand() < .3 ? "W" : "R", a
	}}' >"$tmp/v"

# The ensemble's rows, n of them (no check passes on nothing).
ens() {	# rows trace options...
	_rows=$1 _f=$2
	shift 2
	cachesim "$@" "$_f" | awk -v n="$_rows" '!/^#/ {print; r++} END {exit r != n}'
}
# The same rows, each configuration run alone with -c: read from the
# ensemble's first column.
own() {	# trace options...
	_f=$1
	shift
	while read -r name rest; do
		cachesim "$@" -c "$name" "$_f" | awk -v c="$name" '$1 ~ /^L1D?$/ {a = $6; m = $10; r = $14}
		    /^#amat/ {print c, a, m, r, $2}'
	done
}
same() {	# desc rows trace options...
	_d=$1 _rows=$2 _f=$3
	shift 3
	check_same "$_d" "ens $_rows $_f $*" "ens $_rows $_f $* | own $_f $(echo " $*" | sed 's/ -E [^ ]*//g')"
}

for t in s u; do
	same "$t: 1K..16K x 1..16 ways (1 set at 1K:16), = own runs" 25 "$tmp/$t" -E 1K..16K:1..16:64:lru
	same "$t: fully associative 512..8K (8 to 128 ways), = own runs" 5 "$tmp/$t" -E 512..8K:full:64
	same "$t: three associativities 1K..2M, = own runs" 36 "$tmp/$t" \
	    -E 1K..2M:4:64:lru -E 1K..2M:8:64:lru -E 1K..2M:16:64:lru
done
same "write-through and no-write-allocate beside write-back, = own runs" 27 "$tmp/s" \
    -E 1K..4K:2..8:64:lru:wt -E 1K..4K:2..8:64:lru:wb:nwa -E 1K..4K:2..8:64
same "two block sizes, LRU among PLRU and FIFO, = own runs" 16 "$tmp/s" \
    -E 1K..8K:4:32:lru,plru -E 1K..8K:4:128:lru,fifo
same "with a split I-cache: the data side, = own runs" 9 "$tmp/s" \
    --icache 1K:2:64 -E 1K..4K:1..4:64
same "invalidations (64 blocks, all): = own runs" 25 "$tmp/v" -E 1K..16K:1..16:64:lru
same "-S, --flush and --latency change no row: = own runs" 6 "$tmp/s" \
    -S 5 --flush --latency 2,100 -E 2K..16K:4:64 -E 1K:1..2:64
for t in s u v; do
	same "$t: PLRU 1K..16K x 1..16 ways, write-back and no-write-allocate, = own runs" 50 \
	    "$tmp/$t" -E 1K..16K:1..16:64:plru -E 1K..16K:1..16:64:plru:wb:nwa
done
same "PLRU with a split I-cache, = own runs" 9 "$tmp/s" --icache 1K:2:64 -E 1K..4K:1..4:64:plru
check_same "1..4 is 1, 2, 4" \
    "cachesim -E 2K:1..4:64 $tmp/u | cut -d' ' -f1" \
    "printf '#reftrace\n2048:1:64:lru\n2048:2:64:lru\n2048:4:64:lru\n'"
check_fail "a bad associativity range" 2 "bad associativity range 4..2" \
    "cachesim -E 2K:4..2:64 $tmp/u"
