# t/coherence.sh: cachesim --cores against the naive model t/coherence.awk
# (sourced by t/1547 and t/1548 after t/lib.sh): random traces of T
# threads, a few hot blocks shared, accesses within a block; compared row
# by row: accesses, misses, evictions, writebacks, invalidations,
# coherence misses, downgrades (and the prefetch columns).
cohgen() {	# threads seed: "OP BLOCK TID SIZE OFFSET"
	awk -v T="$1" -v seed="$2" 'BEGIN {srand(seed); for (i = 0; i < 4000; i++) {
		t = int(rand() * T); r = rand()
		b = r < .5 ? int(rand() * 12) : int(rand() * 200)
		o = rand(); o = o < .3 ? "W" : o < .4 ? "M" : "R"
		print o, b, t, 1 + int(rand() * 8), int(rand() * 56) }}'
}
cohtrace() { awk 'BEGIN {print "#reftrace trace 1 seq op addr size tid"} {printf "%d %s 0x%x %d %d\n", NR - 1, $1, $2 * 64 + $5, $4, $3}'; }
cohcols() { awk '!/^#/ {s = $1 " " $6; if ($10 != "-") {s = s " " $10 " " $15 " " $16 " " $17; for (i = 20; i <= NF; i++) s = s " " $i} print s}'; }
# cohcheck PF CORES THREADS SETS:WAYS/... SIZE:ASSOC:BLOCK/...: one check
# (PF a or m: --prefetch 1:PF; "-": none); the trace left in $tmp/g
cohcheck() {
	cohgen "$3" "$2$3" >"$tmp/g.in"
	cohtrace <"$tmp/g.in" >"$tmp/g"
	check_same "$([ "$1" = - ] || echo "1:$1, ")$2 cores, $3 threads, $5: every row = the naive model" \
	    "cachesim --cores $2 $([ "$1" = - ] || echo "--prefetch 1:$1") -c $(echo "$5" | sed 's|/| -c |g') $tmp/g | cohcols" \
	    "awk -v N=$2 '{print \$1, \$2, \$3 % N}' $tmp/g.in | awk -v spec=$4 -v N=$2 -v PF=${1#-} -f $(dirname "$0")/coherence.awk"
}
