#!/bin/sh
# mktraces.sh DIR: build the example programs and record their traces in DIR.
set -e
dir=${1:-t/data}
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "mktraces: valgrind not found" >&2; exit 1; }
mkdir -p "$dir"
out=$(cd "$dir" && pwd)
build() {	# program source [flags]
	(cd "$here/examples" && ${CC:-cc} -g -O0 -fdebug-prefix-map="$here/examples"=. \
	    -o "$out/$1" "$2.c" $3)
}
for p in bsort matmul interchange fir2dim kernels; do
	build $p $p
done
build matmul4 matmul "-DN=4 -DBS=2"	# the paper's 4x4 multiply, block 2
t() {	# name program args: the objects of DIR named as DIR/..., as given,
	# so that a trace symbolizes wherever the repository is
	name=$1; shift
	"$here/rttrace" -o "$dir/$name.lk.gz" "$@" 2>/dev/null
	gzip -dc "$dir/$name.lk.gz" | sed "s|Reading syms from $out/|Reading syms from $dir/|" |
	    gzip -9n >"$dir/$name.lk.gz.tmp"
	mv "$dir/$name.lk.gz.tmp" "$dir/$name.lk.gz"
}
t bsort-sorted "$dir/bsort" sorted
t bsort-reversed "$dir/bsort" reversed
t bsort-shuffled "$dir/bsort" shuffled
t matmul-standard "$dir/matmul" standard
t matmul-transposed "$dir/matmul" transposed
t matmul-blocked "$dir/matmul" blocked
t matmul4-standard "$dir/matmul4" standard
t matmul4-blocked "$dir/matmul4" blocked
t interchange-rowwise "$dir/interchange" rowwise
t interchange-colwise "$dir/interchange" colwise
t fir2dim "$dir/fir2dim"
t kernels "$dir/kernels"
# two threads, each summing its own array into a counter of its own, the
# counters neighbours in one block (false sharing: cachesim --cores); the
# pcs of the loop's load and add (a stride prefetcher's key)
awk 'BEGIN {print "#reftrace trace 1 seq op addr size tid pc loc func var"
	for (i = 0; i < 1000; i++) for (t = 0; t < 2; t++) {
		printf "%d R 0x%x 8 %d 0x401000 - - -\n", n++, 0x100000 + t * 0x10000 + i * 8, t
		printf "%d M 0x%x 8 %d 0x401004 - - -\n", n++, 0x200000 + t * 8, t
	}}' | gzip -9n >"$dir/falseshare.txt.gz"
