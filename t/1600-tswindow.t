#!/bin/sh
# tswindow: windows of symbols from traces, delay embeddings of series.
. "$(dirname "$0")/lib.sh"
plan 28

tr="$tmp/bs.txt"
trfilter -e "$D/bsort" -l -F bsort -t RWM "$D/bsort-reversed.lk.gz" >"$tr"

# The model: the records' symbols in order, w at a time, from awk.
model() {	# w stride symbol-expression [awk functions]
	awk -v w="$1" -v s="$2" "$HEX${4:-}"'
	!/^#/ { n++; sym[n] = '"$3"'; seq[n] = $1 }
	END { for (i = 1; i + w - 1 <= n; i += s) {
		line = seq[i]
		for (k = 0; k < w; k++) line = line " " sym[i + k]
		print line } }' "$tr"
}
strip() { grep -v '^#' | cut -d' ' -f1,5-; }

check_same "op+address windows (w 10) are the records' in order" \
	"tswindow -y opaddr $tr | strip" "model 10 1 '\$2 \$3'"
check_same "w 3, stride 2" \
	"tswindow -y opaddr -w 3 -i 2 $tr | strip" "model 3 2 '\$2 \$3'"
# a step: op, instruction, and the change of address since that
# instruction's last access (none at its first)
step='step($2, $6, hex($3))'
stepfn='function step(op, pc, a,   s) { s = op pc; if (pc in last) s = s sprintf("%+d", a - last[pc]); last[pc] = a; return s }'
check_same "steps: op, instruction and the change of its address" \
	"tswindow -y step $tr | strip" "model 10 1 '$step' '$stepfn'"
model 10 1 '$2 $3' >"$tmp/m.opaddr"
model 10 1 "$step" "$stepfn" | cut -d' ' -f2- >"$tmp/m.step"
check_same "by default two views of each window: op+address, then steps" \
	"tswindow $tr | strip" "paste -d' ' $tmp/m.opaddr $tmp/m.step"
stubok header:tswindow check "... named in the header: s1 ... s10, then t1 ... t10" \
	"tswindow $tr | head -1 | grep -q ' region s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10\$'"
check_same "addresses" "tswindow -y addr $tr | strip" "model 10 1 '\$3'"
check_same "blocks of 64 bytes" "tswindow -y block -B 64 $tr | strip" \
	"model 10 1 'sprintf(\"0x%x\", int(hex(\$3) / 64))'"
check_same "source lines" "tswindow -y line $tr | strip" "model 10 1 '\$7'"
check_same "functions" "tswindow -y func $tr | strip" "model 10 1 '\$8'"
check_same "each point keeps its first record's location and function" \
	"tswindow -w 4 $tr | grep -v '^#' | cut -d' ' -f1-3" \
	"awk '!/^#/ { n++; s[n] = \$1 \" \" \$7 \" \" \$8 } END { for (i = 1; i + 3 <= n; i++) print s[i] }' $tr"
# names longer than a symbol (47 bytes) are cut, in the columns and the
# symbols; regions found by address; pcs and steps of both signs
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 a_region_whose_name_is_longer_than_a_symbol_can_hold 0x10000 512 8"
	srand(7); for (i = 0; i < 300; i++) {
	    f = i % 3 ? "k.c" : "a/directory/name/longer/than/a/symbol/can/hold/file.c"
	    printf "%d %s 0x%x 8 - 0x%x %s:%d %s -\n", i, substr("RWMI", 1 + i % 4, 1), 65024 + int(rand() * 1024),
		4096 + (i % 13) * 4, f, 10 + i, i % 5 ? "f" : "a_function_name_longer_than_a_symbol_can_hold_too" } }' >"$tmp/long"
longmodel() {
	awk "$HEX"'
	    function cut(s) { return substr(s, 1, 47) }
	    function step(op, pc, a,   s) { s = op pc; if (pc in last) s = s sprintf("%+d", a - last[pc]); last[pc] = a; return s }
	    !/^#/ { n++; loc[n] = cut($7); fn[n] = cut($8); a = hex($3)
		reg[n] = a >= 65536 && a < 65536 + 512 ? cut("a_region_whose_name_is_longer_than_a_symbol_can_hold") : "-"
		pc[n] = $6; st[n] = step($2, $6, a) }
	    END { for (i = 1; i < n; i++) print i - 1, loc[i], fn[i], reg[i], loc[i], loc[i + 1], reg[i], reg[i + 1]
		for (i = 1; i + 2 <= n; i++) print i - 1, loc[i], fn[i], reg[i], pc[i], pc[i + 1], pc[i + 2], st[i], st[i + 1], st[i + 2] }' "$tmp/long"
}
check_same "long names cut at 47 bytes; regions, pcs and steps" \
	"tswindow -y line,region -w 2 $tmp/long | grep -v '^#' && tswindow -y pc,step -w 3 $tmp/long | grep -v '^#'" \
	longmodel
check_same_rows "stdin, - and gzip read alike" "tswindow <$tr" \
	"gzip -c $tr | tswindow -"

printf '1\n2.5\n# a comment\n4\n8\n16\n32\n' >"$tmp/s"
check_same "a series: delay embedding, dimension 3, lag 2" \
	"tswindow -I series -w 3 -j 2 $tmp/s | grep -v '^#'" \
	"printf '0 - - - 1 4 16\n1 - - - 2.5 8 32\n'"
check "a series' header names numeric columns" \
	"tswindow -I series -w 2 $tmp/s | head -1 | grep -q ' x1 x2\$'"

printf '1\n2\nthree\n' >"$tmp/bad"
check_fail "a bad number is named by line" 1 "bad:3: not a number" "tswindow -I series -w 2 $tmp/bad"
check_fail "fewer records than the window" 1 "5 records, fewer than a window needs \\(10\\)" \
	"sed -n '1p;/^[0-9]/p' $tr | head -6 | tswindow"
check_fail "a missing file" 1 "nosuch" "tswindow $tmp/nosuch"
check_fail "a bad option" 2 "usage" "tswindow -Q"
check_fail "-I series refuses another kind of stream, naming it" 1 "pers: a persistence stream, not a series" \
	"printf '#reftrace persistence 1\\n# persist points=1\\n' >$tmp/pers && tswindow -I series $tmp/pers"

# --threads: the lines of a chunk of items at a time, a range of windows a
# thread; inputs of several chunks (about 16 MB of lines at their longest
# each), windows across their seams, against the model and one thread
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 buf 0x10000 4096 8"
	for (i = 0; i < 100000; i++) {
	    if (i == 50000) print "not a record"
	    printf "%d %s 0x%x 8 - 0x%x k.c:%d f%d -\n", i, substr("RWM", 1 + i % 3, 1),
		65536 + (i * 24 + int(i / 7) * 8) % 8192, 4096 + (i % 7) * 4, 10 + i % 7, i % 5 } }' >"$tmp/big"
gzip -c "$tmp/big" >"$tmp/big.gz"
awk 'BEGIN { for (i = 0; i < 300000; i++) print int(sin(i / 7) * 1000) / 8 }' >"$tmp/ser"
sermodel() {	# w lag stride
	awk -v w="$1" -v j="$2" -v s="$3" '{ x[NR - 1] = $1 }
	END { for (i = 0; i + (w - 1) * j < NR; i += s) { line = i " - - -"
		for (k = 0; k < w; k++) line = line " " sprintf("%.17g", x[i + k * j])
		print line } }' "$tmp/ser"
}
grep -v '^not' "$tmp/big" >"$tmp/big.ok"
check_same "several chunks, one thread: the model's windows, -i 3, across files and stdin" \
	"tswindow --threads 1 -k -y opaddr -i 3 $tmp/big - $tmp/big.gz <$tmp/big | strip" \
	"cat $tmp/big.ok $tmp/big.ok $tmp/big.ok >$tmp/big3; tr=$tmp/big3; model 10 3 '\$2 \$3'"
check_same "a window of 1024, more than a chunk's new items: the model's" \
	"tswindow --threads 1 -k -y addr -w 1024 -i 97 $tmp/big | strip" \
	"tr=$tmp/big.ok; model 1024 97 '\$3'"
check_same "a series with a lag, over chunks: the model's" \
	"tswindow --threads 1 -I series -w 10 -j 1000 -i 7 $tmp/ser | grep -v '^#'" "sermodel 10 1000 7"
check_same "a series whose window spans more than a chunk's new items: the model's" \
	"tswindow --threads 1 -I series -w 3 -j 50000 -i 5 $tmp/ser | grep -v '^#'" "sermodel 3 50000 5"
runs() {	# threads: a run of each kind, one after another
	tswindow --threads "$1" -k -i 3 "$tmp/big" - "$tmp/big.gz" <"$tmp/big"
	tswindow --threads "$1" -k -y step,region "$tmp/big"
	tswindow --threads "$1" -k -y line,func -w 40 -i 2 "$tmp/big"
	tswindow --threads "$1" -k -y pc -w 1024 -i 97 "$tmp/big"
	tswindow --threads "$1" -I series -w 10 -j 1000 -i 7 "$tmp/ser"
	tswindow --threads "$1" -I series -w 3 -j 50000 -i 5 "$tmp/ser"
}
runs 1 >"$tmp/one" 2>/dev/null
for t in 2 3 7; do
	check_same_rows "--threads $t writes byte for byte what one thread writes" \
		"runs $t 2>/dev/null" "cat $tmp/one"
done
check_fail "--threads 0 is refused" 2 "threads 0: 1 to 64" "tswindow --threads 0 $tmp/ser"
check_fail "--threads x is refused" 2 "threads x: 1 to 64" "tswindow --threads x $tmp/ser"
