#!/bin/sh
# tswindow: windows of symbols from traces, delay embeddings of series.
. "$(dirname "$0")/lib.sh"
plan 18

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
