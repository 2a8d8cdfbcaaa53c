#!/bin/sh
# The pipeline with every option at its default finds every loop level of
# functions nobody tuned it for (contrib/examples/kernels.c): triangular,
# short bodies, strided, data-dependent exits, consecutive phases, a nest
# four deep, 3000 iterations.  Each loop's iterations r, from the source,
# are first checked against the trace; then, asking for as many classes
# as the function has loops, one class of its own must wind within 10% of
# r, or of r - e where the loop is entered e times (a turn may be lost at
# each entry).  A loop of fewer than 3 iterations turns at most once, a
# knot like any other: not asked for.
. "$(dirname "$0")/lib.sh"

src="$(dirname "$0")/../contrib/examples/kernels.c"
grep -n 'loop [a-z]*\.[a-z]* [0-9]* [0-9]*' "$src" |
	sed 's/^\([0-9]*\):.*loop \([a-z]*\)\.\([a-z]*\) \([0-9]*\) \([0-9]*\).*/\1 \2 \3 \4 \5/' >"$tmp/loops"
funcs="isort transpose fft search rowsum twoloops stencil lu strided deep longloop triangle matvec histo"
# under the sanitizers (make asan) the functions of small clouds
[ -n "${RT_SMALL:-}" ] && funcs="isort search twoloops stencil deep histo"
nloops=$(wc -l <"$tmp/loops")
nfound=0
for f in $funcs; do
	nfound=$((nfound + $(awk -v f=$f '$2 == f && $4 >= 3' "$tmp/loops" | wc -l)))
done
plan $((nloops + nfound + 3))

# Executions of each line's first instruction, from the instruction fetches.
trfilter -e "$D/kernels" -l -t I "$D/kernels.lk.gz" |
	awk '$7 ~ /^kernels\.c:/ { split($7, l, ":"); n[l[2] " " $6]++ }
	    END { for (k in n) print k, n[k] }' | sort -k1,1n -k2,2 |
	awk '!($1 in seen) { seen[$1]; print $1, $3 }' >"$tmp/exec"
while read -r line f name r e; do
	check "$f.$name: the source's $r iterations are the trace's (line $line)" \
		"awk -v l=$line -v r=$r '\$1 == l { found = 1; exit \$2 != r } END { if (!found) exit 1 }' $tmp/exec"
done <"$tmp/loops"

# The classes' windings (absolute) and spans, in rank order.
for f in $funcs; do
	m=$(awk -v f=$f '$2 == f' "$tmp/loops" | wc -l)
	trfilter -e "$D/kernels" -F $f -t RWM "$D/kernels.lk.gz" | tswindow | persist --classes $m \
	    2>/dev/null | circcoord --class $(seq -s, 1 $m) 2>/dev/null |
	    awk '/^theta[0-9]/ { w = $9 < 0 ? -$9 : $9; print w, $11, $12 }' >"$tmp/$f.w"
	# each loop, most iterations first, takes the first class of its own
	# in its range
	awk -v f=$f '$2 == f && $4 >= 3' "$tmp/loops" | sort -k4,4nr |
	    awk -v wf="$tmp/$f.w" 'BEGIN { while ((getline l < wf) > 0) { split(l, x, " "); w[++k] = x[1] } }
		{ lo = 0.9 * ($4 - $5); hi = 1.1 * $4; got = 0
		  for (j = 1; j <= k && !got; j++)
			if (!(j in used) && w[j] >= lo && w[j] <= hi) { used[j] = 1; got = j }
		  print $2 "." $3, $4, got ? "rank " got " winds " w[got] : "none in [" lo ", " hi "]" }' \
	    >"$tmp/$f.found"
	while read -r loop r how; do
		check "$loop ($r iterations) among the top $m classes: $how" \
			"grep -q '^$loop $r rank '  $tmp/$f.found"
	done <"$tmp/$f.found"
done

# Phases: the two consecutive loops of twoloops() turn in their own time.
check "two consecutive loops: two classes whose spans do not overlap" \
	"awk 'NR <= 2 { a[NR] = \$2; b[NR] = \$3 } END { exit !(NR >= 2 && b[1] > a[1] && b[2] > a[2] && (b[1] < a[2] || b[2] < a[1])) }' $tmp/twoloops.w"
check "... each within its loop's lines' records" \
	"trfilter -e $D/kernels -l -F twoloops -t RWM $D/kernels.lk.gz |
	 awk -v wf=$tmp/twoloops.w 'BEGIN { while ((getline l < wf) > 0) { split(l, x, \" \"); a[++k] = x[2]; b[k] = x[3] } }
	     /kernels.c:9[01]/ { if (!f0) f0 = \$1; f1 = \$1 } /kernels.c:9[23]/ { if (!s0) s0 = \$1; s1 = \$1 }
	     END { for (j = 1; j <= 2; j++) { in_f = a[j] >= f0 - 20 && b[j] <= f1 + 20; in_s = a[j] >= s0 - 20 && b[j] <= s1 + 20
		   if (in_f) nf++; if (in_s) ns++ } exit !(nf == 1 && ns == 1) }'"

# Ties: the search's short inner loop ties in persistence with dozens of
# knots; a class that turns twice or more ranks before one that turns
# once, and that before one that does not turn, in every view.
trfilter -e "$D/kernels" -F search -t RWM "$D/kernels.lk.gz" | tswindow | persist --classes 12 2>/dev/null >"$tmp/search.per"
check "classes that recur rank first, then those that turn once, then the rest" \
	"awk '/^#reftrace classes/ { t = 1; next } /^#/ { t = 0 } t { w = \$7 < 0 ? -\$7 : \$7; print \$1, (w >= 2 ? 2 : w) }' $tmp/search.per |
	 sort -n | awk '{ n++; if (NR > 1 && \$2 > p) bad = 1; p = \$2; if (\$2 == 2) r++ } END { exit bad || n != 12 || r < 2 }'"
