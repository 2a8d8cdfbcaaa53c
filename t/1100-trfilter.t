#!/bin/sh
# trfilter: every selection, mapping and conversion against awk, nm and
# addr2line run here on the raw lackey file.
. "$(dirname "$0")/lib.sh"
plan 54

L=$D/bsort-reversed.lk.gz
P=$D/bsort
zcat "$L" >"$tmp/b.lk"
# The model: seq op addr size pc (decimal), straight from the lackey lines.
awk "$HEX"' /^I  / || /^ [LSM] / { split($2, a, ","); v = hex(a[1]);
	if ($1 == "I") { pc = v; op = "I" } else op = ($1 == "L" ? "R" : $1 == "S" ? "W" : "M");
	printf "%d %s %.0f %d %.0f\n", n++, op, v, a[2], pc }' "$tmp/b.lk" >"$tmp/model"
# trfilter's output in the model's terms
cat >"$tmp/tomodel" <<'A'
!/^#/ { printf "%d %s %.0f %d %.0f\n", $1, $2, hex($3), $4, hex($6) }
A
tm() { awk "$HEX"' !/^#/ { printf "%d %s %.0f %d %.0f\n", $1, $2, hex($3), $4, hex($6) }'; }
seqs() { awk '!/^#/ {print $1}'; }

check_same "no options: every record" "trfilter $L | tm" "cat $tmp/model"
check_same "-t R: the reads" "trfilter -t R $L | seqs" "awk '\$2 == \"R\" {print \$1}' $tmp/model"
check_same "-t WM: writes and modifies" "trfilter -t WM $L | seqs" "awk '\$2 == \"W\" || \$2 == \"M\" {print \$1}' $tmp/model"
check_same "-v -t I: all but fetches" "trfilter -v -t I $L | seqs" "awk '\$2 != \"I\" {print \$1}' $tmp/model"
check_same "-t R and -v -t R partition the trace" \
    "(trfilter -t R $L; trfilter -v -t R $L) | seqs | sort -n" "awk '{print \$1}' $tmp/model"

lo=$(printf '%d' 0x1fff000500) hi=$(printf '%d' 0x1fff0005ff)
check_same "-a lo-hi: accesses that overlap the range" \
    "trfilter -a 0x1fff000500-0x1fff0005ff $L | seqs" \
    "awk '\$2 != \"I\" || 1 {if (\$3 <= $hi && \$3 + \$4 - 1 >= $lo) print \$1}' $tmp/model"
check_same "-a lo+len is the same range" \
    "trfilter -a 0x1fff000500+256 $L | seqs" "trfilter -a 0x1fff000500-0x1fff0005ff $L | seqs"
check_same "-a twice: either range" \
    "trfilter -a 0x1fff000500+16 -a 0x1fff000580+16 $L | seqs" \
    "awk '{if ((\$3 <= $lo + 15 && \$3 + \$4 - 1 >= $lo) || (\$3 <= $lo + 143 && \$3 + \$4 - 1 >= $lo + 128)) print \$1}' $tmp/model"
check_same "-n: a seq range" "trfilter -n 1000-1999 $L | seqs" "seq 1000 1999"
check_same "-n lo+len" "trfilter -n 5+3 $L | seqs" "printf '5\n6\n7\n'"
check_same "-n 010-012: decimal, a leading 0 is not octal" "trfilter -n 010-012 $L | seqs" "printf '10\n11\n12\n'"
check_same "-a: decimal bounds are the same range as 0x hex ones" \
    "trfilter -a $lo-$hi $L | seqs" "trfilter -a 0x1fff000500-0x1fff0005ff $L | seqs"
plo=$(printf '%d' 0x109300) phi=$(printf '%d' 0x1093ff)
check_same "-p: a pc range" "trfilter -p 0x109300-0x1093ff $L | seqs" \
    "awk '\$5 >= $plo && \$5 <= $phi {print \$1}' $tmp/model"
awk '/reftrace mark sort/ {on = 1; next} /reftrace mark done/ {on = 0} on && (/^I  / || /^ [LSM] /) {c++} END {print c}' "$tmp/b.lk" >"$tmp/marked"
check_same "-m sort,done: records between the marks" "trfilter -m sort,done $L | grep -v -c '^#'" "cat $tmp/marked"
check_same "-m sort: up to the next mark" "trfilter -m sort $L | seqs" "trfilter -m sort,done $L | seqs"
check_same "marks, regions and objects pass through a selection" \
    "trfilter -t R $L | grep '^#' | grep -v '^#reftrace'" "trfilter $L | grep '^#' | grep -v '^#reftrace'"

# functions: nm gives bsort's extent, the trace gives the bias
bias=$(awk "$HEX"' /Reading syms from/ {p = $NF} /svma 0x/ && p ~ /data\/bsort$/ {printf "%d", hex($5) - hex(substr($3, 1, length($3) - 1)); exit}' "$tmp/b.lk")
set -- $(nm -S "$P" | awk "$HEX"' $4 == "bsort" {printf "%d %d", hex($1), hex($2)}')
flo=$(($1 + bias)) fhi=$(($1 + bias + $2))
check_same "-F bsort -t RWM: the data references inside bsort (nm + awk)" \
    "trfilter -e $P -F bsort -t RWM $L | seqs" \
    "awk '\$2 != \"I\" && \$5 >= $flo && \$5 < $fhi {print \$1}' $tmp/model"
# 276 without the early exit (the -O0 loop of the previous example), and
# 18 for it: 4 passes set and test the flag, 10 swaps set it
check_same "-F bsort: 294 data references for 5 reversed ints" \
    "trfilter -e $P -F bsort -t RWM $L | grep -v -c '^#'" "echo \$((276 + 4 + 4 + 10))"
# source lines: addr2line asked here, once per pc
awk '$2 != "I" && $5 >= '$flo' && $5 < '$fhi' {printf "0x%x\n", $5 - '$bias'}' "$tmp/model" | sort -u >"$tmp/pcs"
addr2line -e "$P" <"$tmp/pcs" | sed 's/ (discriminator.*//; s|.*/||' | paste -d' ' "$tmp/pcs" - >"$tmp/lines"
awk 'NR == FNR {split($2, a, ":"); line[$1] = a[2]; next}
    $2 != "I" && $5 >= '$flo' && $5 < '$fhi' {pc = sprintf("0x%x", $5 - '$bias'); if (line[pc] >= 15 && line[pc] <= 17) print $1}' \
    "$tmp/lines" "$tmp/model" >"$tmp/l1517"
check_same "-L bsort.c:15-17: by source line (addr2line)" \
    "trfilter -e $P -t RWM -L bsort.c:15-17 $L | seqs" "cat $tmp/l1517"
check_same "-l: file:line and function attached (addr2line)" \
    "trfilter -e $P -l -F bsort -t RWM $L | awk '!/^#/ {print \$7, \$8}' | sort | uniq -c" \
    "awk 'NR == FNR {l[\$1] = \$2; next} \$2 != \"I\" && \$5 >= $flo && \$5 < $fhi {print l[sprintf(\"0x%x\", \$5 - $bias)], \"bsort\"}' $tmp/lines $tmp/model | sort | uniq -c"
grep -v '^#object' "$tmp/b.lk" >/dev/null
trfilter $L | grep -v '^#object' >"$tmp/noobj.txt"
check_same "-e on a PIE with no object lines: valgrind's 0x108000 is assumed" \
    "trfilter -e $P -F bsort $tmp/noobj.txt | seqs" "trfilter -e $P -F bsort $L | seqs"
check_same "the stream's bias wins for an object named like -e" \
    "mkdir -p $tmp/else && cp $P $tmp/else/ && trfilter -e $tmp/else/bsort -F bsort $L | seqs" \
    "trfilter -e $P -F bsort $L | seqs"

# regions
set -- $(trfilter $L | awk "$HEX"' $1 == "#region" && $3 == "a" {printf "%.0f %d %d", hex($4), $5, $2}')
rlo=$1 rhi=$(($1 + $2 - 1)) rseq=$3
check_same "-r a: accesses to the array once it is registered" "trfilter -r a $L | seqs" \
    "awk '\$1 >= $rseq && \$3 <= $rhi && \$3 + \$4 - 1 >= $rlo {print \$1}' $tmp/model"
check_same "-l names the region an access falls in" \
    "trfilter -e $P -l $L | awk '!/^#/ && \$9 == \"a\" {print \$1}'" "trfilter -r a $L | seqs"
# by hand: a comparison reads 2 elements, a swap (one per inversion: 0, 6
# and 10) reads 2 and writes 2; a pass without a swap ends the sort, so
# sorted input makes one pass of 4 comparisons, the others all 10
for c in sorted:8 shuffled:44 reversed:60; do
	check_same "-r a -m sort,done: ${c%:*} input touches a[] ${c#*:} times (by hand)" \
	    "trfilter -r a -m sort,done $D/bsort-${c%:*}.lk.gz | grep -v -c '^#'" "echo ${c#*:}"
done
cat >"$tmp/g.txt" <<'G'
START PID 517
S 7ff000490 8 1 S main LV _zzq_result
S 000601080 8 2 G func GS glStrcArray[0].var1
L 000601260 4 2 G func GS glArray[0]
S 0006010b0 8 1 G func GS glStrcArray[1].var1
G
check_same "-r on Gleipnir variables: the structure's elements" "trfilter -r glStrcArray $tmp/g.txt | seqs" "printf '1\n3\n'"
check_same "-T: one thread" "trfilter -T 2 $tmp/g.txt | seqs" "printf '1\n2\n'"
check_same "-F on Gleipnir functions" "trfilter -F func $tmp/g.txt | seqs" "printf '1\n2\n3\n'"

# blocks and partitions
check_same "-B 64: block numbers and blocks spanned" \
    "trfilter -B 64 $L | awk '$HEX !/^#/ {printf \"%d %.0f %d\\n\", \$1, hex(\$3), \$4}'" \
    "awk '{f = int(\$3 / 64); l = int((\$3 + \$4 - 1) / 64); printf \"%d %.0f %d\\n\", \$1, f, l - f + 1}' $tmp/model"
for k in 0 1 2 3; do trfilter -P $k/4 $L; done | tm | sort -n -k1,1 -k3,3 >"$tmp/parts"
check_same "-P k/4: the four partitions hold every block's bytes once" \
    "cat $tmp/parts | awk '{print \$1, \$3, \$4}'" \
    "awk '{a = \$3; e = \$3 + \$4 - 1; for (b = int(a / 64); b <= int(e / 64); b++) { lo = b * 64 > a ? b * 64 : a; hi = b * 64 + 63 < e ? b * 64 + 63 : e; printf \"%d %.0f %d\\n\", \$1, lo, hi - lo + 1 } }' $tmp/model"
check "-P 1/4: every piece is in a block = 1 mod 4" \
    "trfilter -P 1/4 $L | tm | awk '{ if (int(\$3 / 64) % 4 != 1) bad = 1; n++ } END { exit bad || n == 0 }'"
check "-P 3/8:4096: pages = 3 mod 8" \
    "trfilter -P 3/8:4K $L | tm | awk '{ if (int(\$3 / 4096) % 8 != 3) bad = 1; n++ } END { exit bad || n == 0 }'"

# conversion and plumbing
check_same "-O din: one line per access, two per modify" "trfilter -O din $L | wc -l" \
    "awk '{n += (\$2 == \"M\") ? 2 : 1} END {print n}' $tmp/model"
check_same "stdin, '-' and a file are the same" "trfilter <$L" "trfilter - <$L"
check_same "several files are read in order" "trfilter $L $L | grep -v -c '^#'" "echo \$((2 * \$(wc -l <$tmp/model)))"
check_fail "a missing file: named, exit 1" 1 "trfilter: nosuch: No such file" "trfilter nosuch"
check_fail "a missing file does not stop the others" 1 "nosuch" \
    "trfilter nosuch $L >$tmp/after && test \$(grep -v -c '^#' $tmp/after) -eq \$(wc -l <$tmp/model)"
check_fail "a bad option: usage, exit 2" 2 "usage: trfilter" "trfilter -Q $L"
check_fail "a bad range: exit 2" 2 "bad range" "trfilter -a 9-3 $L"
check_same "-o writes the file" "trfilter -t R -o $tmp/out.txt $L && cat $tmp/out.txt" "trfilter -t R $L"
check_fail "-o into a missing directory: named, exit 1" 1 "nodir/x: No such file" "trfilter -o $tmp/nodir/x $L"

# A selection that matches nothing says so (before: an empty answer,
# silently), each value apart; one that matches says nothing.
L=$D/bsort-reversed.lk.gz
check_fail "-F misspelt: said, the good -F beside it not" 0 \
    "^trfilter: -F no_such_function: no record in a function of that name\$" \
    "trfilter -e $D/bsort -F no_such_function -F bsort $L >/dev/null 2>$tmp/e1; st=\$?; cat $tmp/e1 >&2; test \$(wc -l <$tmp/e1) -eq 1 && exit \$st; exit 3"
check_fail "-m a mark the trace does not have" 0 "^trfilter: -m nomark: no mark of that name in the trace\$" \
    "trfilter -m nomark $L >/dev/null"
check_fail "-r a region nothing touches" 0 "^trfilter: -r nosuch: no access to a region of that name\$" \
    "trfilter -r nosuch $L >/dev/null"
check_fail "-L a file the trace has no record of" 0 "^trfilter: -L nosuch.c: no record of that file" \
    "trfilter -e $D/bsort -L nosuch.c $L >/dev/null"
check_fail "-L lines of a file that match nothing: the lines said too" 0 \
    "^trfilter: -L bsort.c:999: no record of that file and those lines\$" \
    "trfilter -e $D/bsort -L bsort.c:999 $L >/dev/null"
cp "$D/bsort" "$tmp/other"
check_fail "-e naming no object the trace loaded: an error that names the trace's objects" 1 \
    "^trfilter: -e $tmp/other: the trace loaded no object of that name \\(it loaded bsort, ld-linux" \
    "trfilter -e $tmp/other -l $L >/dev/null"
check "-F, -L, -m that match: no word on stderr, records out" \
    "trfilter -e $D/bsort -F bsort -L bsort.c -m sort,done $L 2>$tmp/e | grep -q '^[0-9]' && test ! -s $tmp/e"

# The bundled traces name their objects from the repository root, so they
# symbolize there without -e; elsewhere the missing object is said once,
# with the fix, and a -F that then matched nothing is an error.
R=$(cd "$(dirname "$0")/.." && pwd)
check_same "from the repository root, -F bsort without -e = with -e" \
    "cd $R && trfilter -F bsort t/data/bsort-reversed.lk.gz | grep -c '^[0-9]'" \
    "trfilter -e $D/bsort -F bsort $L | grep -c '^[0-9]'"
check_fail "elsewhere: the missing program said once, with -e as the fix; -F fails" 1 \
    "^trfilter: t/data/bsort: No such file or directory \\(a trace recorded elsewhere: give the program with -e\\)\$" \
    "cd $tmp && trfilter -F bsort $L >/dev/null 2>$tmp/e2; st=\$?; cat $tmp/e2 >&2; test \$(grep -c 'No such file' $tmp/e2) -eq 1 && exit \$st; exit 3"

# One addr2line per file, however often the trace loaded it, and at most
# 32 at once: under a limit of 40 descriptors, 400 loads of bsort and 40
# copies of it each get every location (before: a process per load, and
# locations lost past the limit)
a=$(nm "$D/bsort" | awk "$HEX"' $3 == "bsort" {print hex($1)}')
for k in $(seq 1 40); do cp "$D/bsort" "$tmp/bs$k"; done
awk -v D="$D" -v T="$tmp" -v a="$a" 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
    for (k = 0; k < 400; k++) { b = (k + 1) * 1048576; printf "#object %d %s 0x%x\n%d R 0x10 4 - 0x%x\n", k, D "/bsort", b, k, b + a + 4 }
    for (k = 1; k <= 40; k++) { b = (k + 500) * 1048576; printf "#object %d %s/bs%d 0x%x\n%d R 0x10 4 - 0x%x\n", 400 + k, T, k, b, 400 + k, b + a + 4 }
    for (k = 1; k <= 40; k++) { b = (k + 500) * 1048576; printf "%d R 0x10 4 - 0x%x\n", 500 + k, b + a + 8 } }' >"$tmp/loads.txt"
check_same "400 loads of one file, 40 files: every record located, 40 descriptors" \
    "(ulimit -n 40; trfilter -l $tmp/loads.txt) | awk '!/^#/ && \$7 ~ /bsort[.]c:[0-9]+\$/ && \$8 == \"bsort\"' | wc -l" "echo 480"
mkdir "$tmp/a2l"
printf '#!/bin/sh\necho "$*" >>%s/a2l.log\nexec %s "$@"\n' "$tmp" "$(command -v addr2line)" >"$tmp/a2l/addr2line"
chmod +x "$tmp/a2l/addr2line"
check_same "... one addr2line for the 400 loads of bsort" \
    "PATH=$tmp/a2l:\$PATH trfilter -l $tmp/loads.txt >/dev/null && grep -c -- '-e $D/bsort\$' $tmp/a2l.log" "echo 1"
