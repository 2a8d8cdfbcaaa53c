#!/bin/sh
# cachesim --threads: -E's configurations, --diff's two and one
# hierarchy (whole, or its first levels and the rest on two threads),
# simulated on threads beside the reader, write byte for byte
# what one thread writes, at 2, 3 and 7 threads; and each -E row is that
# configuration's own run (-c, one thread).
. "$(dirname "$0")/lib.sh"
plan 45

D=$(dirname "$0")/data
# strides across blocks, modifies, fetches, random addresses; a flush or
# an invalidation (of 64 blocks, of everything) every 2000 records, over
# 30000 records (the threads take them 4096 at a time)
awk 'BEGIN {srand(17); print "#reftrace trace 1 seq op addr size"
	for (i = 0; i < 30000; i++) {
		r = rand()
		if (r < .4) a = 4096 + (i * 8) % 65536
		else if (r < .6) a = 1048576 + (i * 72) % 300000
		else if (r < .75) a = 2097152 + (i % 40) * 4096
		else a = int(rand() * rand() * 4194304)
		o = rand(); o = o < .15 ? "W" : o < .25 ? "M" : o < .35 ? "I" : "R"
		printf "%d %s 0x%x %d\n", i, o, a, r < .6 ? 8 : 1 + int(rand() * 16)
		if (i % 2000 == 1999)
			print (i % 6000 == 1999 ? "#flush" : "#inval"), i, (i % 4000 == 3999 ? a " 4096" : "0x0 0")
	}}' >"$tmp/s"
trfilter "$D/fir2dim.lk.gz" >"$tmp/f"
trfilter "$D/matmul-standard.lk.gz" >"$tmp/m"

# What 2, 3 and 7 threads write, when they all write the same.
many() {	# trace options...
	_f=$1
	shift
	for j in 2 3 7; do
		cachesim --threads $j "$@" "$_f" >"$tmp/t$j" || return 1
	done
	cmp -s "$tmp/t2" "$tmp/t3" && cmp -s "$tmp/t2" "$tmp/t7" && cat "$tmp/t2"
}
same() {	# desc trace options...
	_d=$1 _f=$2
	shift 2
	check_same_rows "$_d: 2, 3, 7 threads = 1" "cachesim --threads 1 $* $_f" "many $_f $*"
}
# Each row's accesses and misses level by level, and each configuration's
# own run with -c (levels split at /), on one thread: n rows.
rows() { awk '!/^#/ {s = $1 " " $2; for (i = 3; i < NF; i += 2) if ($i != "-") s = s " " $i; print s}'; }
own() {	# trace options...
	_f=$1
	shift
	while read -r name rest; do
		# shellcheck disable=SC2046
		cachesim --threads 1 "$@" $(echo "-c $name" | sed 's|/| -c |g') "$_f" |
		    awk -v c="$name" '$1 ~ /^L[0-9]D?$/ {if (!a) a = $6; s = s " " $10} END {print c, a s}'
	done
}
alone() {	# desc rows trace options...
	_d=$1 _n=$2 _f=$3
	shift 3
	check_same "$_d: each row = its own run" \
	    "cachesim --threads 2 $* $_f | rows | awk -v n=$_n '{print} END {exit NR != n}'" \
	    "cachesim --threads 2 $* $_f | rows | own $_f $(echo " $*" | sed 's/ -E [^ ]*//g')"
}

E48="-E 1K..2M:4:64:lru -E 1K..2M:8:64:lru -E 1K..2M:16:64:lru -E 1K..2M:8:64:plru"
for t in s f m; do
	same "$t: 36 LRU and 12 PLRU" "$tmp/$t" $E48
	same "$t: two block sizes, LRU, PLRU, FIFO" "$tmp/$t" -E 1K..8K:4:32:lru,plru -E 1K..8K:4:128:lru,fifo
	same "$t: --diff" "$tmp/$t" --diff -E 1K:2:64 -E 2K:2:64/8K:4:64
	same "$t: one hierarchy" "$tmp/$t" -c i7
done
same "s: 25 LRU, invalidated" "$tmp/s" -E 1K..16K:1..16:64:lru
same "s: write-through, no-write-allocate" "$tmp/s" -E 1K..4K:2..8:64:lru:wt -E 1K..4K:2..8:64:lru:wb:nwa -E 1K..4K:2..8:64
same "s: fully associative" "$tmp/s" -E 512..8K:full:64
same "s: two levels, LRU and FIFO" "$tmp/s" -E 256..2K:2:64/8K:4:64:lru,fifo
same "s: random, seeded" "$tmp/s" -S 7 -E 1K..4K:1..4:64:random
same "s: a split I-cache" "$tmp/s" --icache 1K:2:64 -E 1K..4K:1..4:64
same "s: OPT beside LRU" "$tmp/s" -E 4K:4:64:lru,opt/32K:8:64
same "s: inclusive" "$tmp/s" --inclusion inclusive -E 256:2:64/4K:4:64 -E 512:2:64/4K:4:64:fifo
same "s: --flush, --latency" "$tmp/s" --flush --latency 2,100 -E 2K..16K:4:64 -E 1K:1..2:64
same "s: -3, one hierarchy" "$tmp/s" -3 -c 1K:2:64 -c 8K:4:64
same "s: random, one hierarchy" "$tmp/s" -S 9 -c 2K:4:64:random
same "s: --diff of random caches" "$tmp/s" -S 3 --diff -E 1K:2:64:random -E 1K:2:64:fifo
# one hierarchy of two levels or more: from three threads, its first
# levels and the rest on two (hsplit.c), the events in both halves in order
same "s: split: an I-cache, write-through" "$tmp/s" --icache 1K:2:64 -c 1K:2:64:lru:wt -c 8K:4:64 -c 64K:8:64
same "s: split: no-write-allocate, FIFO, PLRU, SRRIP, LFU below" "$tmp/s" -c 1K:2:64:lru:wb:nwa -c 4K:4:64:fifo -c 8K:8:64:plru -c 16K:4:64:srrip -c 64K:8:64:lfu
same "s: split: smaller blocks below" "$tmp/s" -c 1K:2:128 -c 8K:4:32 -c 32K:8:64
same "s: split: random below" "$tmp/s" -S 5 -c 1K:2:64 -c 8K:4:64:random
same "s: split: random above" "$tmp/s" -S 5 -c 1K:2:64:random -c 8K:4:64 -c 16K:4:64:mru
same "s: random both sides, not split" "$tmp/s" -S 5 -c 1K:2:64:random -c 8K:4:64:random
same "s: split: --flush, --latency" "$tmp/s" --flush --latency 2,10,100 -c 1K:2:64 -c 4K:4:64
same "m: split: OPT below" "$tmp/m" -c 1K:2:64 -c 8K:4:64:opt
same "f: split: a fully associative second level" "$tmp/f" -c 1K:2:64 -c 8K:full:64
same "m: opt, one hierarchy" "$tmp/m" -c 2K:4:64:opt
check_same_rows "m: opt, standard input spooled: 2 threads = 1" \
    "cachesim --threads 1 -c 2K:4:64:opt <$tmp/m" "cachesim --threads 2 -c 2K:4:64:opt - <$tmp/m"

alone "s: 36 LRU and 12 PLRU" 48 "$tmp/s" $E48
alone "f: 36 LRU and 12 PLRU" 48 "$tmp/f" $E48
alone "s: 25 LRU, invalidated" 25 "$tmp/s" -E 1K..16K:1..16:64:lru
alone "s: two block sizes" 16 "$tmp/s" -E 1K..8K:4:32:lru,plru -E 1K..8K:4:128:lru,fifo
alone "s: write policies" 27 "$tmp/s" -E 1K..4K:2..8:64:lru:wt -E 1K..4K:2..8:64:lru:wb:nwa -E 1K..4K:2..8:64
alone "s: two levels" 8 "$tmp/s" -E 256..2K:2:64/8K:4:64:lru,fifo
alone "s: random, seeded" 9 "$tmp/s" -S 7 -E 1K..4K:1..4:64:random
alone "m: inclusive, two levels" 2 "$tmp/m" --inclusion inclusive -E 256:2:64/4K:4:64 -E 512:2:64/4K:4:64:fifo
check_fail "--threads 0: refused, status 2" 2 "threads 0: 1 to 64" "cachesim --threads 0 $tmp/s"
check_fail "--threads 65: refused, status 2" 2 "threads 65: 1 to 64" "cachesim --threads 65 $tmp/s"
