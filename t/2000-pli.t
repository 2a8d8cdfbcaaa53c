#!/bin/sh
# pli: lossless round trips, the paper's fir2dim model, a matrix multiply.
. "$(dirname "$0")/lib.sh"
plan 41

rt() {	# file [pli options]: the model expands back to the file
	f=$1; shift
	pli -I series "$@" "$f" >"$tmp/m" && pli -x "$tmp/m" | cmp -s - "$f"
}
awk 'BEGIN { srand(7); for (i = 0; i < 5000; i++) printf "%.0f\n", int(rand() * 2^40) - 2^39 }' >"$tmp/random"
awk 'BEGIN { for (i = 0; i < 3000; i++) print 42 }' >"$tmp/constant"
awk 'BEGIN { for (i = 0; i < 3000; i++) print 7 - 13 * i }' >"$tmp/arith"
awk 'BEGIN { for (i = 0; i < 7; i++) for (j = 0; j < 9; j++) for (k = 0; k < 11; k++) print 5000 + 1000 * i - 37 * j + 3 * k }' >"$tmp/nested"
awk 'BEGIN { srand(3); for (i = 0; i < 20; i++) { for (j = 0; j < 50; j++) print 8 * j + 100 * i; for (j = 0; j < 7; j++) print int(rand() * 1000); for (j = 0; j < 30; j++) print 4096 } }' >"$tmp/mixed"
awk 'BEGIN { for (i = 0; i < 30; i++) for (j = 0; j < 30 - i; j++) print 10 * i + j }' >"$tmp/triangle"
printf '%s\n' -9223372036854775808 9223372036854775807 0 -1 -9223372036854775808 >"$tmp/extremes"
for s in random constant arith nested mixed triangle extremes; do
	check "round trip: $s" "rt $tmp/$s"
done
check "round trip with a short period bound and depth" "rt $tmp/mixed --period 2 --depth 2"
check "round trip with a small window" "rt $tmp/nested --lookback 7"
awk '{ printf "0x%x\n", $1 }' "$tmp/nested" >"$tmp/nested.hex"
check "hex input comes back in hex, line for line" \
	"pli -I series $tmp/nested.hex | pli -x | cmp -s - $tmp/nested.hex"
check "hex input reads as numbers" \
	"pli -I series $tmp/nested.hex | pli -x | awk \"\$HEX\"' { printf \"%d\\n\", hex(\$1) }' | cmp -s - $tmp/nested"
check "a decimal series' model has no #values hex; a hex one's has" \
	"! pli -I series $tmp/nested | grep -q '^#values hex' && pli -I series $tmp/nested.hex | grep -qx '#values hex'"

# Clauss and Kenmei's fir2dim: array[k*ARRAYDIM + f + i] rows k, k+1, k+2,
# three ints each, IMAGEDIM = ARRAYDIM - 2 = 100, as 8-byte blocks.
awk 'BEGIN { base = 2123328; for (k = 0; k < 100; k++) for (f = 0; f < 100; f++) for (r = 0; r < 3; r++) for (i = 0; i < 3; i++) print int((base + 4 * ((k + r) * 102 + f + i)) / 8) }' >"$tmp/fir"
pli -I series "$tmp/fir" >"$tmp/fir.pli"
stubok pli check "fir2dim: 90000 values (the fixture, before pli reads it)" "test \$(wc -l <$tmp/fir) = 90000"
check "fir2dim: exact" "pli -x $tmp/fir.pli | cmp -s - $tmp/fir"
check "fir2dim: one phase whose two outer loops run 100 and 50 times" \
	"grep -v '^#' $tmp/fir.pli | sed -n '1p;2p' | tr '\n' ' ' | grep -q '^for t1 = 0 to 99 {   for t2 = 0 to 49 { \$'"
check "fir2dim: a few lines, not thousands (nor none)" \
	"n=\$(grep -vc '^#' $tmp/fir.pli); test \$n -ge 3 && test \$n -lt 20"
check "fir2dim: depth 3 loops inside, 51 blocks a row" \
	"grep -q 'for t3 = 0 to 2' $tmp/fir.pli && grep -q 'emit 51\\*t1 + t2 + 51\\*t3' $tmp/fir.pli"

# The same from the bundled lackey trace of contrib/examples/fir2dim.c.
trfilter -e "$D/fir2dim" -F fir2dim -t R -r array "$D/fir2dim.lk.gz" >"$tmp/firtr"
awk "$HEX"' !/^#/ { printf "0x%x\n", int(hex($3) / 8) }' "$tmp/firtr" >"$tmp/firtr.blocks"
check "fir2dim from its trace: exact" \
	"pli -g none -B 8 $tmp/firtr >$tmp/firtr.pli && pli -x $tmp/firtr.pli | cmp -s - $tmp/firtr.blocks" 2>/dev/null
check "block numbers: pli -x writes what trfilter -B writes, in hex" \
	"trfilter -B 64 -t R $D/fir2dim.lk.gz | awk '!/^#/ { print \$3 }' >$tmp/b64 &&
	 test \$(grep -c '^0x' $tmp/b64) -gt 1000 &&
	 trfilter -B 64 -t R $D/fir2dim.lk.gz | pli | pli -x | cmp -s - $tmp/b64"
check "a model of addresses: constants and literals in hex, slopes in decimal" \
	"grep -qx '#values hex' $tmp/firtr.pli && grep -q '^ *emit .*[0-9]\*t[0-9].* + 0x[0-9a-f]*\$' $tmp/firtr.pli && ! grep -q 'emit.* [0-9]*[0-9]\$' $tmp/firtr.pli"
check "hex numbers read in a decimal model, and a value of 64 bits in hex" \
	"printf '#reftrace loops 1\\nvalues 0x10 -0x1 0xffffffffffffffff\\nfor t1 = 0 to 0x2 {\\n  emit 0x20*t1 + 0x5\\n}\\n' | pli -x | tr '\\n' ' ' | grep -qx '16 -1 -1 5 37 69 '"
check "fir2dim from its trace: the same nest of 100 and 50" \
	"grep -v '^#' $tmp/firtr.pli | sed -n '1p;2p' | tr '\n' ' ' | grep -q '^for t1 = 0 to 99 {   for t2 = 0 to 49 { \$'"

# A matrix multiply's operands: A[i][k], B[k][j], then C[i][j] read and
# written: an i, j, k nest of N each.
awk 'BEGIN { n = 12; for (i = 0; i < n; i++) for (j = 0; j < n; j++) { for (k = 0; k < n; k++) { print 4096 + 8 * (n * i + k); print 8192 + 8 * (n * k + j) } print 16384 + 8 * (n * i + j) } }' >"$tmp/mm"
pli -I series "$tmp/mm" >"$tmp/mm.pli"
pli -I series "$tmp/nested.hex" >"$tmp/nested.pli.hex"
check "models of both radices expanded by one -x, each in its own" \
	"pli -x $tmp/nested.pli.hex $tmp/mm.pli $tmp/nested.pli.hex >$tmp/mixed.x &&
	 cat $tmp/nested.hex $tmp/mm $tmp/nested.hex | cmp -s - $tmp/mixed.x"
check "matrix multiply: exact" "pli -x $tmp/mm.pli | cmp -s - $tmp/mm"
check "matrix multiply: the i, j, k loops of 12" \
	"grep -v '^#' $tmp/mm.pli | sed -n '1,3p' | tr -s ' \n' ' ' | grep -q '^for t1 = 0 to 11 { for t2 = 0 to 11 { for t3 = 0 to 11 { \$'"
# one header and one row, or it fails: an awk that tests only inside a
# row would pass on no output at all
stats_ok='/^#reftrace pli-stats 1 values / { h++; next } !/^#/ { n++; ok = $1 == 3600 && $2 == 1 && $3 == 1 && $4 == 3 && $5 == 1 && $10 > $11 } END { exit !(h == 1 && n == 1 && ok) }'
check "--stats: every value in one nest of depth 3, smaller than gzip's" \
	"pli --stats -I series $tmp/mm | awk '$stats_ok'"
check "values up to 2^64 - 1 read modulo 2^64 (written signed)" \
	"echo 18446744073709551615 | pli -I series | pli -x | grep -qx -- -1"
check_fail "a bad value is named by line" 1 "bad:2: field 1: not an integer" \
	"printf '1\nx\n' >$tmp/bad && pli -I series $tmp/bad"

# The model is a stream of its own kind: the header first, and -x refuses
# any other kind with what it is.
stubok header:pli check "the model's first line is its header" "test \"\$(sed 1q $tmp/mm.pli)\" = '#reftrace loops 1'"
check "no values: the header alone, which expands to nothing" \
	": | pli -I series >$tmp/none.pli && test \"\$(grep -v '^# ' $tmp/none.pli)\" = '#reftrace loops 1' && pli -x $tmp/none.pli >$tmp/none.x && test ! -s $tmp/none.x"
check_fail "-x given a trace says so" 1 "^pli: trace\.txt: a trace, not a loop model \(pli makes one\)\$" \
	"cd $tmp && printf '#reftrace trace 1 seq op addr size\\n0 R 0x10 4\\n' >trace.txt && pli -x trace.txt"
check_fail "-x given a model without its header says so" 1 "old\.pli: not a loop model \(pli makes one\)" \
	"cd $tmp && sed 1d mm.pli >old.pli && pli -x old.pli"
check "-x reads a gzipped model, named or on standard input" \
	"gzip -c $tmp/mm.pli >$tmp/mm.pli.gz && pli -x $tmp/mm.pli.gz | cmp -s - $tmp/mm && pli -x <$tmp/mm.pli.gz | cmp -s - $tmp/mm"
check_fail "a loop left open is named by the line it opens on" 1 "^pli: open\.pli:4: the loop opened here is not closed\$" \
	"cd $tmp && printf '#reftrace loops 1\\nvalues 1\\n\\nfor t1 = 0 to 2 {\\n  emit t1\\n' >open.pli && pli -x open.pli"
check_fail "a stray '}' is named by its line" 1 "^pli: <stdin>:2: '}' without a loop\$" \
	"printf '#reftrace loops 1\\n}\\n' | pli -x"
check "empty loops expand to nothing, around them all is expanded" \
	"printf '#reftrace loops 1\\nfor t1 = 0 to 3 {\\n}\\nvalues 5\\nfor t1 = 0 to 1 {\\n  for t2 = 0 to 2 {\\n  }\\n  emit 7*t1\\n}\\n' | pli -x | tr '\\n' ' ' | grep -qx '5 0 7 '"
check "a bad model ends its file (status 1), what it had and the next file are expanded" \
	"! pli -x $tmp/open.pli $tmp/mm.pli >$tmp/two.x 2>/dev/null && test \"\$(sed 1q $tmp/two.x)\" = 1 && sed 1d $tmp/two.x | cmp -s - $tmp/mm"

# Models of other series (issue 18 item 3).  Clauss and Kenmei's Example
# 4: a 32 KB direct-mapped cache of 1024 lines, the number of misses so
# far after each access of fir2dim's array reads.  The model expands to
# the count of a naive direct-mapped cache written here, and its largest
# phase has the paper's shape: 24 iterations of an outer loop (t1 from
# 263 to 286 in the paper), 51 misses an iteration, one a block (51t1 + t2).
awk "$HEX"' !/^#/ { b = int(hex($3) / 32); s = b % 1024; if (!(s in tag) || tag[s] != b) { m++; tag[s] = b } print m }' \
	"$tmp/firtr" >"$tmp/misses"
check "cachesim -d | pli: the misses so far, exactly a naive cache's" \
	"test \$(tail -1 $tmp/misses) -gt 1000 && cachesim -d -c 32K:1:32 $tmp/firtr | pli >$tmp/misses.pli &&
	 pli -x $tmp/misses.pli | cmp -s - $tmp/misses"
check "the misses' model: 24 iterations of 51 misses, one a block (the paper's Example 4)" \
	"awk '/^for t1 = 0 to 23 {/ { o = 1 } o && /emit 51\\*t1 \\+ t2 \\+ [0-9]+\$/ { f = 1 } /^}/ { o = 0 } END { exit !f }' $tmp/misses.pli"
check "reusedist -d | pli: each access's distance, -1 for a first use" \
	"reusedist -d $tmp/firtr | awk '!/^#/ { print \$3 == \"-\" ? -1 : \$3 }' >$tmp/dist && grep -qx -- -1 $tmp/dist &&
	 reusedist -d $tmp/firtr | pli | pli -x | cmp -s - $tmp/dist"
# Addresses out in hex: 4000 literals of 1 to 16 random hex digits (and
# 0, and all f's), made here as text, come back as 0x and those digits.
awk 'BEGIN { srand(7); print "#reftrace loops 1"; print "#values hex"; print "0"; print "ffffffffffffffff"
	for (i = 0; i < 4000; i++) { n = 1 + int(rand() * 16); s = substr("123456789abcdef", 1 + int(rand() * 15), 1)
		for (j = 1; j < n; j++) s = s substr("0123456789abcdef", 1 + int(rand() * 16), 1); print s } }' >"$tmp/hexlit"
check "pli -x writes every hex value as 0x and its digits" \
	"pli -x $tmp/hexlit >$tmp/hexout && awk 'NR > 2 { print \"0x\" \$0 }' $tmp/hexlit | cmp -s - $tmp/hexout &&
	 test \$(wc -l <$tmp/hexout) -eq 4002"
