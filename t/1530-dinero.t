#!/bin/sh
# cachesim against Dinero IV: its counts on the traces of t/data/dinero
# (extended and traditional din, write-back and write-through, copy-backs
# and invalidates, misaligned and odd sizes, one and two levels), recorded
# by contrib/dinero-oracle, and cachesim --flush on the same traces and
# caches: demand fetches and misses by kind, write-backs, bytes from and
# to the level below, cache by cache.
. "$(dirname "$0")/lib.sh"
plan 12

O=$D/dinero

# The rows of NAME.d4 as cachesim's table has them: level, reads (Dinero's
# read and misc), writes, fetches, read, write and fetch misses, the
# writebacks (bytes to memory over the block for a write-back level, none
# for write-through) and the bytes in and out.  wt: "1 0" says L1D is
# write-through, L2 write-back.
expect() {
	awk -v wt="$2" -v blocks="$3" '
	BEGIN { split(wt, w, " "); split(blocks, b, " ")
		name["l1-icache"] = "L1I"; name["l1-dcache"] = "L1D"; name["l1-ucache"] = "L1"
		name["l2-ucache"] = "L2"; lv["l1-dcache"] = lv["l1-ucache"] = 1; lv["l2-ucache"] = 2 }
	/^l[12]-/ { k = lv[$1]
		wb = $1 == "l1-icache" || w[k] ? 0 : $11 / b[k]
		print name[$1], $2 + $4, $3, $5, $6 + $8, $7, $9, wb, $10, $11 }' "$1"
}
got() {
	awk '/^L/ {print $1, $7, $8, $9, $11, $12, $13, $16, $18, $19} END {exit NR < 3}'
}

for f in "$O"/*.d4; do
	name=$(basename "$f" .d4)
	cmd=$(sed -n 's/^# cachesim //p' "$f")
	specs=$(echo "$cmd" | tr ' ' '\n' | sed -n '/^-c$/{n;p;}')
	wt=$(for s in $specs; do case $s in *:wt*) printf '1 ' ;; *) printf '0 ' ;; esac; done)
	blocks=$(for s in $specs; do echo "$s" | awk -F: '{printf "%s ", $3}'; done)
	check_same "$name: cachesim --flush = Dinero IV (fetches, misses, write-backs, bytes)" \
	    "cd $O && cachesim $cmd | got" "expect $f '$wt' '$blocks'"
done

# without --flush the blocks still dirty at the end are not written back:
# bytes to memory fall short of Dinero's by whole blocks, and agree again
# after a copy-back of the whole cache at the end of the trace
f=$O/mix-wb.d4
cmd=$(sed -n 's/^# cachesim --flush //p' "$f")
check "without --flush: fewer write-backs than Dinero IV" \
    "a=\$(cd $O && cachesim $cmd | awk '\$1 == \"L1D\" {print \$19}');
     b=\$(awk '\$1 == \"l1-dcache\" {print \$11}' $f);
     test \$a -lt \$b && test \$(((b - a) % 16)) -eq 0"
check_same_rows "a trace ending in 'c 0 0' = --flush" \
    "cd $O && { cat mix.din; echo 'c 0 0'; } | cachesim $(echo "$cmd" | sed 's/mix.din$//')" \
    "cd $O && cachesim --flush $cmd"

# the bytes to memory and write-backs of a hand-worked trace: 16-byte
# blocks, 2 ways; w 1000 and w 2000 dirty set 0, r 3000 evicts 1000
# (written back), c 0 0 writes 2000 back, w 1000 evicts 2000 (clean now),
# and --flush writes 1000: 3 write-backs, 48 bytes (Dinero IV: 48)
printf 'w 1000 4\nw 2000 8\nr 3000 4\nc 0 0\nw 1000 4\n' >"$tmp/h.din"
check_same "hand-worked: 3 write-backs, 48 bytes to memory" \
    "cachesim --flush -c 256:2:16 $tmp/h.din | awk '\$1 == \"L1\" {print \$16, \$19}'" \
    "echo 3 48"
check_same "hand-worked without --flush: 2 write-backs" \
    "cachesim -c 256:2:16 $tmp/h.din | awk '\$1 == \"L1\" {print \$16, \$19}'" \
    "echo 2 32"
