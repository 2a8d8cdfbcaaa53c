#!/bin/sh
# cachesim -c ...:sb=BYTES: Dinero IV's sub-blocks (-lN-Tsbsize) against
# its own counts (t/data/dinero/*.sb4, recorded by contrib/dinero-oracle):
# demand and prefetch fetches and misses (a sub-block's), block misses,
# bytes from and to the level below; every fetch policy, LRU and FIFO,
# write-back and write-through, allocating or not, one and two levels.
. "$(dirname "$0")/lib.sh"
plan 23

O=$D/dinero

# NAME.sb4's rows as cachesim's columns (by name); a level without
# sub-blocks has no block-miss lines in Dinero's output, zeros in the record
expect() {
	awk 'BEGIN { nm["l1-icache"] = "L1I"; nm["l1-dcache"] = "L1D"; nm["l1-ucache"] = "L1"; nm["l2-ucache"] = "L2" }
	/^l[12]-/ { print nm[$1], $2, $3, $4, $5, $6, $7, $8, $9 }' "$1"
}
got() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i - 3; next }
	function v(n) { return n in col ? $col[n] : 0 }
	/^L/ { sb = v("sub_block") < $4
		print $1, $6, $10, v("pf_issued"), v("pf_issued") - v("pf_useless"),
		    sb ? v("block_misses") : 0, sb ? v("pf_block_misses") : 0, $18, $19 }
	END { exit NR < 2 }'
}
for f in "$O"/*.sb4; do
	name=$(basename "$f" .sb4)
	cmd=$(sed -n 's/^# cachesim //p' "$f")
	check_same "$name: sub-blocks = Dinero IV -Tsbsize (fetches, misses, block misses, bytes)" \
	    "cd $O && cachesim $cmd | got" "expect $f"
done

B=$O/bsort.din.gz
check_rows "the sub-block columns with sub-blocks" '/^#reftrace/ ? / sub_block block_misses pf_block_misses$/ : NF == 22' \
    "cachesim -c 512:2:16:sb=4 $B | grep -v '^#amat'"
check_rows "and not without" '!/sub_block/' "cachesim -c 512:2:16 $B"
check_same "sb= the block size is no sub-blocks" "cachesim -c 512:2:16:sb=16 $B" "cachesim -c 512:2:16 $B"
check_fail "3C is refused with sub-blocks" 2 'without 3C' "cachesim -3 -c 512:2:16:sb=4 $B"
check_fail "--cores is refused with sub-blocks" 2 'without 3C, --cores' "cachesim --cores 2 -c 512:2:16:sb=4 -c 4K:4:16 $B"
check_fail "a policy not Dinero's is refused" 2 'lru or fifo' "cachesim -c 512:2:16:plru:sb=4 $B"
check_fail "a stream prefetcher is refused" 2 "Dinero IV's d a m t l s" "cachesim --prefetch 1:stream -c 512:2:16:sb=4 $B"
check "abort's column with sub-blocks: aborted and issued, a draw for each read and fetch" \
	"cachesim --flush --prefetch 1:a:abort=40 -c 512:2:16:sb=4 $B | awk '/^#reftrace/ { for (i = 4; i <= NF; i++) c[\$i] = i - 3 }
	    /^L1/ { ok = (\"pf_aborted\" in c) && \$c[\"pf_aborted\"] > 0 && \$c[\"pf_aborted\"] + \$c[\"pf_issued\"] == \$c[\"reads\"] + \$c[\"fetches\"] }
	    END { exit !ok }'"
check_fail "more than 32 sub-blocks (Dinero's limit) are refused" 2 '32nd' "cachesim -c 512:2:64:sb=1 $B"
