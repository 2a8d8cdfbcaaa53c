#!/bin/sh
# demo.sh: the main job on the bundled bubble sort trace (make demo).
# Every program writes to a file before anything reads it (sh has no
# pipefail), so set -e stops the demo at the first step that fails.
# RT_BIN names the programs' directory (cmd/), RT_DEMO the output's (demo).
set -e
cd "$(dirname "$0")/.."
PATH=${RT_BIN:-$PWD/cmd}:$PATH
T=t/data/bsort-reversed.lk.gz
O=${RT_DEMO:-demo}
mkdir -p "$O"
echo "== bubble sort of 5 reversed ints: $T"
trfilter -e t/data/bsort -l -F bsort -t RWM -b -o $O/bsort.rtb $T
trfilter $O/bsort.rtb >$O/bsort.txt
awk '!/^#/ {n++; op[$2]++; line[$7]++}
    END {
	printf "data references inside bsort(): %d (%d reads, %d writes, %d modifies)\n", n, op["R"], op["W"], op["M"]
	print "by source line:"
	for (l in line) printf "  %-14s %4d\n", l, line[l] | "sort"
    }' $O/bsort.txt
trfilter $T >$O/whole.txt
trfilter -m sort,done $T >$O/sort.txt
trfilter -r a $O/sort.txt >$O/a.txt
trsample -s 0+700 $O/sort.txt >$O/sample.txt
printf 'whole trace: %d records, %d of them in the sort phase (marks sort..done)\n' \
    "$(grep -v -c '^#' $O/whole.txt)" "$(grep -v -c '^#' $O/sort.txt)"
printf 'accesses to the registered array a[5]: %d\n' "$(grep -v -c '^#' $O/a.txt)"
echo "the first 10 of 700 records sampled for the topological pipeline:"
awk '!/^#/ && n++ < 10 {print "  " $0}' $O/sample.txt
echo "written: $O/bsort.rtb (binary, $(wc -c <$O/bsort.rtb) bytes), $O/bsort.txt"
echo "cache statistics of the sort's data references (the dissertation's Core i7: 32K L1, 256K L2, 8M L3):"
cachesim -c i7 $O/bsort.rtb >$O/bsort.cache
awk '/^L[0-9]/ {printf "  %s %6d accesses %4d misses (ratio %.3f)\n", $1, $6, $10, $14}' $O/bsort.cache

echo
echo "== cache simulation: matrix multiply 16x16, standard vs blocked, 512 B L1 (2-way) + 4 KB L2"
for v in standard blocked; do
	trfilter -t RWM -m matmul,done -b -o $O/matmul-$v.rtb t/data/matmul-$v.lk.gz
	cachesim -c 512:2:64 -c 4K:4:64 -3 --map $O/matmul-$v-map.png --width 400 \
	    $O/matmul-$v.rtb >$O/matmul-$v.cache
	awk -v v=$v '/^L1/ {printf "  %-9s L1 misses %5d of %5d (ratio %.3f: %d compulsory, %d capacity, %d conflict)\n", v, $10, $6, $14, $20, $21, $22}
	        /^#amat/ {printf "  %-9s average access time %.2f cycles\n", "", $2}' $O/matmul-$v.cache
done
echo "written: $O/matmul-standard-map.png, $O/matmul-blocked-map.png (event maps: L1 blue .. memory red)"

echo
echo "== reuse distance: matrix multiply 16x16, standard vs blocked (data references)"
for v in standard blocked; do
	reusedist -C $O/matmul-$v.rtb >$O/matmul-$v.mrc
done
printf '  %-10s %10s %10s\n' "LRU cache" standard blocked
for kb in 0.5 1 2 4 8; do
	b=$(awk -v k=$kb 'BEGIN {print int(k * 1024 / 64)}')
	printf '  %-10s' "${kb}K"
	for v in standard blocked; do
		awk -v c=$b '!/^#/ && $1 <= c {r = $4} END {printf " %10.4f", r}' $O/matmul-$v.mrc
	done
	echo
done
if command -v gnuplot >/dev/null; then
	gnuplot -c contrib/mrc.gp $O/matmul-mrc.png $O/matmul-standard.mrc $O/matmul-blocked.mrc
	echo "written: $O/matmul-mrc.png"
fi

echo
echo "== recurrences: windows of 10 data accesses inside bsort(), Vietoris-Rips persistent cohomology"
tswindow -w 10 $O/bsort.rtb >$O/bsort.pts
persist $O/bsort.pts >$O/bsort.per
sed -n 's/^# threshold/  threshold/p' $O/bsort.per
awk '/^# persist / {for (i = 1; i <= NF; i++) if ($i ~ /^view=/) v = substr($i, 6)}
    /^#reftrace bars/ {t = 1; next} /^#reftrace/ {t = 0}
    /^#reftrace classes/ {c = 1; next} /^#/ {c = 0}
    t && $1 == 0 {c0[v]++} t && $1 == 1 {c1[v]++}
    c {top[$1] = sprintf("    class %d (%s, bar %d)  [%s, %s)  winds %d along time", $1, v, $6, $2, $3, $7); if ($1 > n) n = $1}
    END {printf "  %d points, two views of each window:", p
	for (v in c0) printf " %s %d H0 bars, %d H1 bars;", v, c0[v], c1[v]
	printf " the classes ranked across them:\n"
	for (r = 1; r <= n; r++) if (r in top) print top[r]}' \
    p="$(grep -v -c '^#' $O/bsort.pts)" $O/bsort.per
plotspiral --title "bubble sort: barcode" -o $O/bsort-bars.png $O/bsort.per
plotspiral --diagram --title "bubble sort: persistence diagram" -o $O/bsort-diagram.png $O/bsort.per
echo "written: $O/bsort.pts (points), $O/bsort.per (barcode, cocycles), $O/bsort-bars.png, $O/bsort-diagram.png"

echo
echo "== circular coordinates of the two most persistent classes, and the spiral"
circcoord --class 1,2 $O/bsort.per >$O/bsort.cc
awk '$1 ~ /^theta[0-9]/ {printf "  %s: class %s [%s, %s) at scale %s: winds %.2f times along the trace, residual %s\n", $1, $2, $3, $4, $5, ($9 < 0 ? -$9 : $9), $10}' $O/bsort.cc
plotspiral --title "bubble sort, 5 reversed ints: class 1, coloured by source line" -o $O/bsort-spiral.svg $O/bsort.cc
plotspiral --title "bubble sort: class 1" -o $O/bsort-spiral.png $O/bsort.cc
plotspiral --mode circle --title "bubble sort: circular plot" -o $O/bsort-circle.svg $O/bsort.cc
plotspiral --morph 1,2 --animate -o $O/bsort-morph.svg $O/bsort.cc
echo "written: $O/bsort-spiral.svg and .png (the spiral), $O/bsort-circle.svg, $O/bsort-morph.svg (class 1 -> 2, animated)"

echo
echo "== recording without valgrind: rtcc builds the 16x16 multiply, which writes its own trace"
rtcc -O0 -g -o $O/matmul contrib/examples/matmul.c
RTCC_OUT=$O/matmul-rtcc.rtb $O/matmul standard >/dev/null
trfilter -t RWM -m matmul,done $O/matmul-rtcc.rtb >$O/matmul-rtcc.txt
cachesim -c 512:2:64 -c 4K:4:64 $O/matmul-rtcc.txt >$O/matmul-rtcc.cache
awk '/^L1/ {printf "  the trace rtcc recorded: %d data references to the matrices in the multiply (the stack, its loop counters, is not instrumented), %d L1 misses\n", $6, $10}' $O/matmul-rtcc.cache
echo "written: $O/matmul-rtcc.rtb"

echo
echo "== loop model: the reads of array[] in fir2dim (DSPStone, IMAGEDIM 100) as 8-byte blocks"
trfilter -e t/data/fir2dim -F fir2dim -t R -r array t/data/fir2dim.lk.gz >$O/fir2dim.txt
pli -B 8 $O/fir2dim.txt >$O/fir2dim.pli
sed 's/^/  /' $O/fir2dim.pli
pli --stats -B 8 $O/fir2dim.txt >$O/fir2dim.stats
awk '!/^#/ {printf "  %d values, %d%% in loops of depth %d; model %d bytes: %.0fx smaller than the text, gzip %.0fx, xz %sx\n", $1, 100 * $5, $4, $7, $10, $11, $12}' $O/fir2dim.stats
echo "written: $O/fir2dim.pli (pli -x expands it back, exactly)"
