#!/bin/sh
# demo.sh: the main job on the bundled bubble sort trace (make demo).
# Grows as the suite's programs land.
set -e
cd "$(dirname "$0")/.."
PATH=$PWD/cmd:$PATH
T=t/data/bsort-reversed.lk.gz
mkdir -p demo
echo "== bubble sort of 5 reversed ints: $T"
trfilter -e t/data/bsort -l -F bsort -t RWM -b -o demo/bsort.rtb $T
trfilter demo/bsort.rtb >demo/bsort.txt
awk '!/^#/ {n++; op[$2]++; line[$7]++}
    END {
	printf "data references inside bsort(): %d (%d reads, %d writes, %d modifies)\n", n, op["R"], op["W"], op["M"]
	print "by source line:"
	for (l in line) printf "  %-14s %4d\n", l, line[l] | "sort"
    }' demo/bsort.txt
printf 'whole trace: %d records, %d of them in the sort phase (marks sort..done)\n' \
    "$(trfilter $T | grep -v -c '^#')" "$(trfilter -m sort,done $T | grep -v -c '^#')"
printf 'accesses to the registered array a[5]: %d\n' "$(trfilter -r a -m sort,done $T | grep -v -c '^#')"
echo "the first 10 of 700 records sampled for the topological pipeline:"
trfilter -m sort,done $T | trsample -s 0+700 | grep -v '^#' | head -10 | sed 's/^/  /'
echo "written: demo/bsort.rtb (binary, $(wc -c <demo/bsort.rtb) bytes), demo/bsort.txt"
echo "cache statistics of the sort's data references (the dissertation's Core i7: 32K L1, 256K L2, 8M L3):"
cachesim -c i7 demo/bsort.rtb | awk '/^L[0-9]/ {printf "  %s %6d accesses %4d misses (ratio %.3f)\n", $1, $6, $10, $14}'

echo
echo "== cache simulation: matrix multiply 16x16, standard vs blocked, 512 B L1 (2-way) + 4 KB L2"
for v in standard blocked; do
	trfilter -t RWM -m matmul,done t/data/matmul-$v.lk.gz |
	    cachesim -c 512:2:64 -c 4K:4:64 -3 --map demo/matmul-$v-map.png --width 128 |
	    awk -v v=$v '/^L1/ {printf "  %-9s L1 misses %5d of %5d (ratio %.3f: %d compulsory, %d capacity, %d conflict)\n", v, $10, $6, $14, $20, $21, $22}
	        /^#amat/ {printf "  %-9s average access time %.2f cycles\n", "", $2}'
done
echo "written: demo/matmul-standard-map.png, demo/matmul-blocked-map.png (event maps: L1 blue .. memory red)"

echo
echo "== reuse distance: matrix multiply 16x16, standard vs blocked (data references)"
for v in standard blocked; do
	trfilter -t RWM -m matmul,done t/data/matmul-$v.lk.gz | reusedist -C >demo/matmul-$v.mrc
done
printf '  %-10s %10s %10s\n' "LRU cache" standard blocked
for kb in 0.5 1 2 4 8; do
	b=$(awk -v k=$kb 'BEGIN {print int(k * 1024 / 64)}')
	printf '  %-10s' "${kb}K"
	for v in standard blocked; do
		awk -v c=$b '!/^#/ && $1 <= c {r = $4} END {printf " %10.4f", r}' demo/matmul-$v.mrc
	done
	echo
done
if command -v gnuplot >/dev/null; then
	gnuplot -c contrib/mrc.gp demo/matmul-mrc.png demo/matmul-standard.mrc demo/matmul-blocked.mrc
	echo "written: demo/matmul-mrc.png"
fi

echo
echo "== recurrences: windows of 10 data accesses inside bsort(), Vietoris-Rips persistent cohomology"
trfilter -e t/data/bsort -l -F bsort -t RWM $T | tswindow -w 10 >demo/bsort.pts
persist demo/bsort.pts >demo/bsort.per
sed -n 's/^# threshold/  threshold/p' demo/bsort.per
awk '/^#reftrace bars/ {t = 1; next} /^#reftrace/ {t = 0}
    t && $1 == 0 {c0++} t && $1 == 1 {c1++; if ($2 <= 8) top = top sprintf("    H1 #%d  [%s, %s)  persistence %s\n", $2, $3, $4, $5)}
    END {printf "  %d points; %d H0 bars, %d H1 bars; the most persistent H1 classes:\n%s", p, c0, c1, top}' \
    p="$(grep -v -c '^#' demo/bsort.pts)" demo/bsort.per
plotspiral --title "bubble sort: barcode" -o demo/bsort-bars.png demo/bsort.per
plotspiral --diagram --title "bubble sort: persistence diagram" -o demo/bsort-diagram.png demo/bsort.per
echo "written: demo/bsort.pts (points), demo/bsort.per (barcode, cocycles), demo/bsort-bars.png, demo/bsort-diagram.png"

echo
echo "== circular coordinates of the two most persistent classes, and the spiral"
circcoord --class 1,2 demo/bsort.per >demo/bsort.cc
awk '$1 ~ /^theta[0-9]/ {printf "  %s: class %s [%s, %s) at scale %s: winds %.2f times along the trace, residual %s\n", $1, $2, $3, $4, $5, ($9 < 0 ? -$9 : $9), $10}' demo/bsort.cc
plotspiral --title "bubble sort, 5 reversed ints: class 1, coloured by source line" -o demo/bsort-spiral.svg demo/bsort.cc
plotspiral --title "bubble sort: class 1" -o demo/bsort-spiral.png demo/bsort.cc
plotspiral --mode circle --title "bubble sort: circular plot" -o demo/bsort-circle.svg demo/bsort.cc
plotspiral --morph 1,2 --animate -o demo/bsort-morph.svg demo/bsort.cc
echo "written: demo/bsort-spiral.svg and .png (the spiral), demo/bsort-circle.svg, demo/bsort-morph.svg (class 1 -> 2, animated)"

echo
echo "== loop model: the reads of array[] in fir2dim (DSPStone, IMAGEDIM 100) as 8-byte blocks"
trfilter -e t/data/fir2dim -F fir2dim -t R -r array t/data/fir2dim.lk.gz >demo/fir2dim.txt
pli -B 8 demo/fir2dim.txt | tee demo/fir2dim.pli | sed 's/^/  /'
pli --stats -B 8 demo/fir2dim.txt | awk '!/^#/ {printf "  %d values, %d%% in loops of depth %d; model %d bytes: %.0fx smaller than the text, gzip %.0fx, xz %sx\n", $1, 100 * $5, $4, $7, $10, $11, $12}'
echo "written: demo/fir2dim.pli (pli -x expands it back, exactly)"
