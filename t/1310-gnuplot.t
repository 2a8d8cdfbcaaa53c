#!/bin/sh
# contrib's gnuplot scripts on the programs' real output: each writes a
# PNG that decodes, at its size, with more than axes in it.
. "$(dirname "$0")/lib.sh"
plan 11

T="python3 $(cd "$(dirname "$0")" && pwd)/topo.py"
C=$(cd "$(dirname "$0")/../contrib" && pwd)
if ! command -v gnuplot >/dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "gnuplot is not installed (contrib/needs installs it)"; done
	exit 0
fi
cd "$tmp"
trfilter -t RWM "$D/matmul-standard.lk.gz" >std.rt
trfilter -t RWM "$D/matmul-blocked.lk.gz" >blk.rt
reusedist -C std.rt >matmul-standard.tsv
reusedist -C blk.rt >matmul-blocked.tsv
reusedist std.rt >hist.tsv
reusedist --exact std.rt >exact.tsv
cachesim -E 1K..64K:4:64:lru,fifo,plru,opt std.rt >ens.tsv

# a plot of real data is 27 to 46 KB; axes, a title and one flat line
# make 16 KB at 800x500
plotted() { test "$($T png "$1")" = 800x500 && test "$(wc -c <"$1")" -gt "$2"; }

check "mrc.gp: two miss-ratio curves" \
	"gnuplot -c $C/mrc.gp mrc.png matmul-standard.tsv matmul-blocked.tsv && plotted mrc.png 20000"
check "mrc.gp: the older form, file= and the PNG on standard output" \
	"gnuplot -e \"file='matmul-standard.tsv'\" $C/mrc.gp >old.png && plotted old.png 20000"
check "mrc.gp: one curve draws less than two" \
	"gnuplot -c $C/mrc.gp one.png matmul-standard.tsv && test \$(wc -c <one.png) -lt \$(wc -c <mrc.png)"
check "hist.gp: a histogram in bins, with the cold accesses" \
	"gnuplot -c $C/hist.gp hist.png hist.tsv && plotted hist.png 20000"
check "hist.gp: single distances (--exact)" \
	"gnuplot -c $C/hist.gp exact.png exact.tsv && plotted exact.png 20000"
check "ensemble.gp: miss ratio against size, a line per policy" \
	"gnuplot -c $C/ensemble.gp ens.png ens.tsv && plotted ens.png 25000"
check "ensemble.gp: another column" \
	"gnuplot -c $C/ensemble.gp amat.png ens.tsv amat && plotted amat.png 25000 && ! cmp -s amat.png ens.png"
check_fail "ensemble.gp: a column the table has not, said" 1 "no column nosuch" \
	"gnuplot -c $C/ensemble.gp bad.png ens.tsv nosuch"
# the scripts' own definitions, evaluated: a curve's name cuts only .gz
# and a table's extension; the y label says the column in words
check_same "mrc.gp: lua.mrc.tsv and lua.mrc.h are two names" \
    "gnuplot -e \"\$(grep '^name(f)' $C/mrc.gp); print name('d/lua.mrc.tsv'); print name('lua.mrc.h'); print name('x.tsv.gz')\" 2>&1" \
    "printf 'lua.mrc\nlua.mrc.h\nx\n'"
check_same "ensemble.gp: the y label in words" \
    "gnuplot -e \"\$(grep '^ylab(w)' $C/ensemble.gp); print ylab('L2_ratio'); print ylab('amat'); print ylab('L1_misses')\" 2>&1" \
    "printf 'L2 miss ratio\naverage access time (cycles)\nL1 misses\n'"
reusedist -C -H 0.02 std.rt >sampled.tsv
check "mrc.gp: a sampled curve (rows from its resolution up)" \
    "gnuplot -c $C/mrc.gp s.png sampled.tsv && plotted s.png 16000"
