#!/bin/sh
# gallery.sh: spirals of the contrib examples, for looking at (make demo
# first).  Bubble sort sorted, reversed and shuffled (the data accesses
# inside bsort()); matrix multiply standard and blocked (the first 2000
# data accesses of the multiply: a few iterations of the outer loops).
set -e
cd "$(dirname "$0")/.."
PATH=$PWD/cmd:$PATH
mkdir -p demo
for v in sorted reversed shuffled; do
	trfilter -e t/data/bsort -l -F bsort -t RWM t/data/bsort-$v.lk.gz | tswindow | persist |
	    circcoord --class 1,2 >demo/gallery-bsort-$v.cc
	plotspiral --title "bubble sort, $v" -o demo/gallery-bsort-$v.png demo/gallery-bsort-$v.cc
done
for v in standard blocked; do
	trfilter -e t/data/matmul -l -F $v -t RWM t/data/matmul-$v.lk.gz | sed -n '1p;/^[0-9]/p' |
	    head -2001 | tswindow | persist | circcoord --class 1,2 >demo/gallery-matmul-$v.cc
	plotspiral --title "matrix multiply, $v" -o demo/gallery-matmul-$v.png demo/gallery-matmul-$v.cc
done
grep -H '^theta' demo/gallery-*.cc
# windows of source lines instead of op+address: one turn per j iteration
trfilter -e t/data/matmul -l -F standard -t RWM t/data/matmul-standard.lk.gz | sed -n '1p;/^[0-9]/p' |
    head -2001 | tswindow -y line | persist | circcoord --class 1,2 >demo/gallery-matmul-standard-lines.cc
plotspiral --title "matrix multiply, standard, windows of source lines" \
    -o demo/gallery-matmul-standard-lines.png demo/gallery-matmul-standard-lines.cc
grep -H '^theta' demo/gallery-matmul-standard-lines.cc
