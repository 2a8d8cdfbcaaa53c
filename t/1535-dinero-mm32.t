#!/bin/sh
# cachesim against Dinero IV's own regression suite: the twelve golden
# outputs of its testing/ folder on mm.32 (a 32x32 matrix multiply traced
# by pixie) for the caches cachesim has (demand fetch, no sub-blocks, LRU
# and FIFO; random is Dinero's own generator), three of them with 3C.
# The outputs are Dinero IV's files as its testing/ folder ships them
# (t/data/dinero/mm32, with Dinero IV's COPYRIGHT); the trace is mm.32
# through Dinero's testing/p2d, as its testscript feeds it.  Each output
# names its options: cachesim's are made from them.
. "$(dirname "$0")/lib.sh"
plan 14

O=$D/dinero/mm32
T=$O/mm.32.din.gz

# Dinero's options (the output's summary) as cachesim's
opts() {
	awk '/^-l1-u/ { o[substr($1, 6)] = $2 } /^-l1-uccc/ { ccc = 1 }
	END { p = o["repl"] == "f" ? "fifo" : o["repl"] == "r" ? "random" : "lru"
		printf "%s-c %d:%d:%d:%s:%s:%s\n", ccc ? "-3 --3c-ref own " : "", o["size"], o["assoc"],
		    o["bsize"], p, o["wback"] == "a" ? "wb" : "wt", o["walloc"] == "a" ? "wa" : "nwa" }' "$1"
}
# Dinero's counts: fetches and misses (total, read with misc, write,
# instruction), 3C (when there), bytes from and to memory
expect() {
	awk '/^ Demand Fetches/ || /^ Demand Misses/ { print $3, $6 + $8, $7, $4 }
	/^   (Compulsory|Capacity|Conflict) misses/ { print $3 }
	/^ Bytes (From|To) Memory/ { print $4 }' "$1"
}
got() {
	awk '$1 == "L1" { print $6, $7, $8, $9; print $10, $11, $12, $13
		if (NF > 21) print $20 "\n" $21 "\n" $22; print $18; print $19; n++ } END { exit n != 1 }'
}

for f in "$O"/mm.32.good.*; do
	tag=${f##*.}
	o=$(opts "$f")
	check_same "mm.32 $tag: cachesim --flush $o = Dinero IV's golden output" \
	    "cachesim --flush $o $T | got" "expect $f"
done

# Hill's reference cache (LRU, allocating) is the default: on the FIFO and
# the write-through no-write-allocate caches its capacity misses are not
# Dinero's (17539 and 17547 where Dinero says 9222 and 19800), and the
# three kinds still add up to the misses
check "-3 alone on mm.32 u8b16a4rfc: Hill's capacity misses, not Dinero's own-policy ones" \
    "a=\$(cachesim --flush -3 -c 8K:4:16:fifo $T | awk '\$1 == \"L1\" && \$20 + \$21 + \$22 == \$10 {print \$21}');
     b=\$(awk '/^   Capacity misses/ {print \$3}' $O/mm.32.good.u8b16a4rfc); test -n \"\$a\" && test \"\$a\" -gt \"\$b\""
check_fail "--3c-ref own: a policy Dinero IV does not have is refused" 2 "lru, fifo or random" \
    "cachesim --3c-ref own -c 8K:4:16:plru $T"
