#!/bin/sh
# contrib: the marker header and the tracing script, on a fresh build of
# the bubble sort example (skipped without valgrind or a C compiler).
. "$(dirname "$0")/lib.sh"
plan 18

C=$(cd "$(dirname "$0")/../contrib" && pwd)
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null; then
	for i in $(seq 1 18); do skip "no C compiler"; done
	exit 0
fi
check "the example builds without valgrind's header (REFTRACE_OFF)" \
    "$cc -DREFTRACE_OFF -o $tmp/bs0 $C/examples/bsort.c && $tmp/bs0 shuffled | grep -q '^1 2 3 4 5\$'"
(cd "$C/examples" && $cc -g -O0 -o "$tmp/bsort" bsort.c)
check "with valgrind's header, it runs natively and sorts" "$tmp/bsort reversed | grep -q '^1 2 3 4 5\$'"
if ! command -v valgrind >/dev/null; then
	for i in $(seq 3 18); do skip "no valgrind"; done
	exit 0
fi
check "rttrace writes a gzipped lackey trace" "$C/rttrace -o $tmp/t.lk.gz $tmp/bsort reversed 2>/dev/null && gzip -t $tmp/t.lk.gz"
check_same "the marks and the region arrive in the trace" \
    "trfilter $tmp/t.lk.gz | awk '/^#(mark|region)/ {print \$1, \$3}'" \
    "printf '#region a\n#mark sort\n#mark done\n'"
zcat "$tmp/t.lk.gz" >"$tmp/t.lk"
bias=$(awk "$HEX"' /Reading syms from/ {p = $NF} /svma 0x/ && p ~ /\/bsort$/ {printf "%d", hex($5) - hex(substr($3, 1, length($3) - 1)); exit}' "$tmp/t.lk")
set -- $(nm -S "$tmp/bsort" | awk "$HEX"' $4 == "bsort" {printf "%d %d", hex($1), hex($2)}')
awk "$HEX"' /^I  / {split($2, a, ","); pc = hex(a[1])} /^ [LSM] / && pc >= lo && pc < hi {n++} END {print n}' \
    lo=$(($1 + bias)) hi=$(($1 + bias + $2)) "$tmp/t.lk" >"$tmp/want"
check_same "a fresh trace: data references in bsort, symbolized from the -v -v lines" \
    "trfilter -F bsort -t RWM $tmp/t.lk.gz | grep -v -c '^#'" "cat $tmp/want"
check_same "the PIE was loaded at valgrind's 0x108000" "echo $bias" "echo $((0x108000))"
# The program's own output stays on standard output (before: on standard
# error); one that cannot start leaves no trace file, status 127.
check_same "rttrace: the program's standard output is standard output" \
    "$C/rttrace -o $tmp/t2.lk.gz $tmp/bsort reversed 2>/dev/null" "$tmp/bsort reversed"
check_fail "rttrace: a program that cannot start: said, status 127" 127 \
    "rttrace: $tmp/nosuch did not run: no trace written" "$C/rttrace -o $tmp/no.lk.gz $tmp/nosuch"
check "... and no trace file left" "test ! -e $tmp/no.lk.gz"
# The trace names the program it ran by its build id (readelf's); a
# rebuilt program of that name is refused, at its recorded path and with
# -e; with -k its accesses go without locations.
objid() { trfilter "$1" | awk '/^#object/ && $3 ~ /\/bsort$/ {print $5}'; }
check_same "rttrace records the program's build id, as readelf reads it" \
    "objid $tmp/t.lk.gz" "readelf -n $tmp/bsort | awk '/Build ID:/ {print \"build-id:\" \$3}' | grep ."
mkdir "$tmp/orig" && cp "$tmp/bsort" "$tmp/orig/"
(cd "$C/examples" && $cc -g -O1 -o "$tmp/bsort" bsort.c)
check_fail "the program rebuilt since: refused with both build ids" 1 \
    "^trfilter: $tmp/bsort: not the object traced: its build-id:[0-9a-f]+, the trace's \
$(objid $tmp/t.lk.gz) \\(give the program that was traced with -e\\)\$" "trfilter -l $tmp/t.lk.gz >/dev/null"
check_fail "... and given with -e: refused" 1 "^trfilter: -e bsort: not the object traced" \
    "cd $tmp && trfilter -l -e bsort $tmp/t.lk.gz >/dev/null"
check_same "... with -k: warned, bsort's accesses without a location; the traced copy with -e: with" \
    "trfilter -k -l $tmp/t.lk.gz 2>/dev/null | awk '\$7 ~ /bsort[.]c:/' | wc -l" \
    "trfilter -l -e $tmp/orig/bsort $tmp/t.lk.gz | awk '\$7 ~ /bsort[.]c:/ {n++} END {print (n > 0 ? 0 : -1)}'"
# without a build id, cksum(1)'s CRC and size
(cd "$C/examples" && $cc -g -O0 -Wl,--build-id=none -o "$tmp/bsort" bsort.c)
$C/rttrace -o $tmp/t3.lk.gz $tmp/bsort reversed >/dev/null 2>&1
check_same "a program without a build id: cksum(1)'s CRC and size" \
    "objid $tmp/t3.lk.gz" "cksum <$tmp/bsort | awk '{print \"cksum:\" \$1 \":\" \$2}'"
check_fail "... changed since: refused" 1 ": not the object traced: its cksum:[0-9]+:[0-9]+, the trace's cksum:" \
    "echo >>$tmp/bsort && trfilter -l $tmp/t3.lk.gz >/dev/null"
# make install puts the recorder, the marker header and the gnuplot script
# beside the programs and pages; make uninstall takes every file back
R=$(cd "$(dirname "$0")/.." && pwd)
check "make install: rttrace, reftrace.h, mrc.gp and the programs; uninstall: none left" \
    "make -s -C $R install DESTDIR=$tmp/inst PREFIX=/usr >/dev/null &&
     test -x $tmp/inst/usr/bin/rttrace && test -x $tmp/inst/usr/bin/trfilter &&
     test -f $tmp/inst/usr/include/reftrace.h && test -f $tmp/inst/usr/share/reftrace/mrc.gp &&
     test -f $tmp/inst/usr/share/man/man7/reftrace.7 &&
     make -s -C $R uninstall DESTDIR=$tmp/inst PREFIX=/usr >/dev/null &&
     test \$(find $tmp/inst -type f | wc -l) -eq 0"
# contrib/needs, which make check, make demo and CI ask first: without
# root or apt-get it names what is missing and the one line that installs it
mkdir "$tmp/bin"
for c in sh cc make gzip prove python3 valgrind addr2line nm rsvg-convert mandoc gnuplot script xz parallel clang chromium ps; do
	p=$(command -v $c) && ln -s "$p" "$tmp/bin/$c"
done
printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id" && chmod +x "$tmp/bin/id"
check_fail "contrib/needs check: ripser missing, said with the apt-get line" 1 \
    "^    sudo apt-get install -y ripser\$" "PATH=$tmp/bin sh $R/contrib/needs check"
check "contrib/needs build: nothing missing there" "PATH=$tmp/bin sh $R/contrib/needs build"
