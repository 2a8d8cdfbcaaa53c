#!/bin/sh
# The pipeline with default options finds the loops of Choudhury et al.'s
# programs (Table 1, Figs. 7 and 9) and of whole loops at scale.
#
# The tolerance: a class that follows a loop of r iterations turns once
# from each iteration to the next, so along time it winds r - 1 times
# plus the parts of the first and last it covers; where that loop sits
# inside an outer loop of m iterations, the step from the last iteration
# of one outer iteration to the first of the next need not be a turn
# (a j loop wraps from 3 back to 0), so it winds between r - m and r.
# Accepted: |winding| in [r - m, r + 0.5], for some class among the top
# three; and no two expectations met by the same class.
. "$(dirname "$0")/lib.sh"
plan 11

# windings of the top classes: data references of function F in trace T
windings() {	# binary function trace [persist options]
	trfilter -e "$D/$1" -F "$2" -t RWM "$D/$3" | tswindow | persist ${4:-} |
	    circcoord --class 1,2,3 2>/dev/null | awk '/^theta[0-9]/ { w = $9 < 0 ? -$9 : $9; print w }'
}
# expect FILE r:m ...: each expectation met by a class of its own
expect() {
	f=$1
	shift
	awk -v want="$*" 'BEGIN { n = split(want, e, " ") }
	    { w[++k] = $1 }
	    END {
		if (k == 0) exit 1
		for (i = 1; i <= n; i++) {
			split(e[i], rm, ":"); r = rm[1]; m = rm[2]; found = 0
			for (j = 1; j <= k && !found; j++)
				if (!(j in used) && w[j] >= r - m && w[j] <= r + 0.5) { used[j] = 1; found = 1 }
			if (!found) { printf "# no class winds %d (from %d)\n", r, r - m; bad = 1 }
		}
		exit bad
	    }' "$f"
}

windings matmul4 standard matmul4-standard.lk.gz >"$tmp/std"
check "4x4 standard multiply: the k (64 turns), j (16) and i (4) loops" \
	"expect $tmp/std 64:16 16:4 4:1"
check "... and the k loop is the most persistent" \
	"head -1 $tmp/std | awk '{ exit !(\$1 >= 48 && \$1 <= 64.5) }'"
windings matmul4 blocked matmul4-blocked.lk.gz >"$tmp/blk"
check "4x4 blocked multiply (block 2, five loops): the j (32 turns) and i (16) loops" \
	"expect $tmp/blk 32:16 16:4"
windings bsort bsort bsort-reversed.lk.gz >"$tmp/rev"
check "bubble sort, reversed: the passes (4 turns) and the 10 compare-and-swaps" \
	"expect $tmp/rev 4:1 10:4"
windings bsort bsort bsort-shuffled.lk.gz >"$tmp/shuf"
check "bubble sort, shuffled: the 6 compare-and-swaps (in 3 passes)" \
	"expect $tmp/shuf 6:3"
windings bsort bsort bsort-sorted.lk.gz >"$tmp/sorted"
check "bubble sort, sorted: 4 standalone comparisons, and the sort stops" \
	"expect $tmp/sorted 4:1"

# The threshold persist chose is in the stream, with its reason.
trfilter -e "$D/matmul4" -F standard -t RWM "$D/matmul4-standard.lk.gz" | tswindow |
    persist >"$tmp/std.per"
check "the threshold is the least distance at which the top classes are known" \
	"grep -q '^# threshold [0-9]*: the least distance at which the 3 most persistent' $tmp/std.per"
check "bars of equal persistence (and alive or not alike) share a tie rank, the first of the group" \
	"awk '/^#reftrace bars/ { t = 1; next } /^#/ { t = 0 } t && \$1 == 1 { n++; g = \$5 \" \" (\$4 == \"inf\"); if (g != p) first = \$2; if (\$6 != first) bad = 1; p = g } END { exit bad || n < 10 }' $tmp/std.per"

# At scale.  A stencil sweep over 4096 elements (4 reads, a write and the
# loop counter an element) 20 times: 409391 windows, a class winding 20.
# Under the sanitizers (make asan) the same with 512 elements.
els=4096
[ -n "${RT_SMALL:-}" ] && els=512
awk -v e=$els 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"; n = 0
	for (s = 0; s < 20; s++) for (i = 1; i < e - 1; i++) {
		printf "%d R 0x%x 4\n", n++, 4095000
		printf "%d R 0x%x 8\n", n++, 1048576 + 8 * (i - 1)
		printf "%d R 0x%x 8\n", n++, 1048576 + 8 * i
		printf "%d R 0x%x 8\n", n++, 1048576 + 8 * (i + 1)
		printf "%d W 0x%x 8\n", n++, 2097152 + 8 * i } }' >"$tmp/stencil"
tswindow "$tmp/stencil" | persist 2>"$tmp/st.err" | circcoord >"$tmp/st.cc" 2>/dev/null
check "a stencil sweep repeated 20 times: a class winding 20" \
	"awk '/^theta1 / { w = \$9 < 0 ? -\$9 : \$9; exit !(w >= 19 && w <= 20.5) } END { if (NR == 0) exit 1 }' $tmp/st.cc"

# A triply nested loop at N=16 (the bundled standard multiply), its first
# 16000 windows: 71 runs of the j loop, so about 70 turns.
nw=16000
[ -n "${RT_SMALL:-}" ] && nw=4000
trfilter -e "$D/matmul" -F standard -t RWM "$D/matmul-standard.lk.gz" | trsample -s 0+$((nw + 9)) |
    tswindow | persist >"$tmp/m16.per" 2>/dev/null
circcoord --class 1,2,3 "$tmp/m16.per" 2>/dev/null | awk '/^theta[0-9]/ { w = $9 < 0 ? -$9 : $9; print w }' >"$tmp/m16"
j=$((nw / 224))
check "N=16 multiply, $nw windows: the j loop (about $j turns) among the top classes" \
	"expect $tmp/m16 $j:$((nw / 3584 + 1))"
check "... with landmarks standing for the points, their cover in the stream" \
	"grep -q '^# persist .* distinct=[0-9]* cover=[0-9.]*' $tmp/m16.per"
