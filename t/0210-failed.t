#!/bin/sh
# A program that fails writes nothing that looks like a complete result:
# given no input it recognises, nothing on standard output (a pipe or a
# file) and no -o file; a good input among bad ones is still written.
. "$(dirname "$0")/lib.sh"
progs="trfilter trsample cachesim reusedist tswindow trmap pli"
plan $((2 * $(echo $progs | wc -w) + 35))

trfilter -t RWM "$D/bsort-reversed.lk.gz" >"$tmp/t.txt"
reusedist -H 1 "$tmp/t.txt" >"$tmp/hist.tsv"
for p in $progs; do
	check_fail "$p given a histogram: status 1, said, nothing on standard output" 1 \
	    "^$p: .*hist.tsv: a reuse-distance histogram, not a trace" \
	    "$p $tmp/hist.tsv >$tmp/$p.out; st=\$?; test ! -s $tmp/$p.out || st=9; exit \$st"
	check "... and with -o, no file left" "! $p -o $tmp/$p.o $tmp/hist.tsv 2>/dev/null && test ! -e $tmp/$p.o"
done
check_same "a missing file then a good one: the good one's records are written (status 1)" \
    "trfilter $tmp/nosuch $tmp/t.txt 2>/dev/null; echo \$?" "cat $tmp/t.txt; echo 1"
check_same "cachesim: a histogram then a trace: the trace's table (status 1)" \
    "cachesim $tmp/hist.tsv $tmp/t.txt 2>/dev/null; echo \$?" "cachesim $tmp/t.txt; echo 1"
check_same "a long stream passes whole through the hold" \
    "trfilter $D/matmul-standard.lk.gz | cksum" "RT_NOHOLD=1 trfilter $D/matmul-standard.lk.gz | cksum"
check_same "... and ends quietly when the reader stops" \
    "trfilter $D/matmul-standard.lk.gz 2>&1 | head -n 3" "RT_NOHOLD=1 trfilter $D/matmul-standard.lk.gz | head -n 3"
# Released (its first records read), a program writes to its standard
# output itself, not through the hold's pipe (which cost a quarter of
# tswindow's CPU): while the rest of the input waits, the file is its fd 1
mkfifo "$tmp/fifo"
zcat "$D/matmul-standard.lk.gz" >"$tmp/mm.lk"
{ head -n 20000 "$tmp/mm.lk"; while [ ! -e "$tmp/go" ]; do sleep 0.1; done
    tail -n +20001 "$tmp/mm.lk"; } >"$tmp/fifo" &
trfilter "$tmp/fifo" >"$tmp/direct.out" &
pid=$!
i=0
while [ $i -lt 600 ] && [ "$(readlink /proc/$pid/fd/1)" != "$tmp/direct.out" ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the output file is the program's own standard output once released" \
    "test \"\$(readlink /proc/$pid/fd/1)\" = $tmp/direct.out ||
     { echo \"fd 1 after $((i / 10)) s: \$(readlink /proc/$pid/fd/1)\" >&2; false; }"
touch "$tmp/go"
wait $pid
check_same "... and what was held and what came after are whole, in order" \
    "cksum <$tmp/direct.out" "RT_NOHOLD=1 trfilter $tmp/mm.lk | cksum"
check_same "... and a gzip output to standard output (a copy of its fd) ends whole" \
    "timeout -k 5 120 trfilter -z -b $tmp/mm.lk | gzip -dc | cksum" \
    "RT_NOHOLD=1 trfilter -z -b $tmp/mm.lk | gzip -dc | cksum"
check_same "a program that succeeds writes all of a small output" \
    "cachesim $tmp/t.txt | wc -l" "echo 6"
check "--help still writes to standard output, status 0" "cachesim --help | grep -q '^usage: cachesim'"
# A summary written at the end is not written when no input was read
# (#38: a table of zeros, exit 1, on a bad first line), nor when one was
# read in part (its counts stand for no input)
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n1 X 0x40 4\n' >"$tmp/bad1.txt"
for p in "cachesim -c i7" reusedist trmap; do
	check_fail "$p on a bad first line: status 1, the line named, nothing written" 1 \
	    "bad1.txt:2: bad op 'X'" "$p $tmp/bad1.txt >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
done
check "... nor an -o file left" "! cachesim -o $tmp/s.o $tmp/bad1.txt 2>/dev/null && test ! -e $tmp/s.o"
# A stream's header is no result either: a bad first record gives none
# (#38: pli wrote its model's header, the filters theirs, then exit 1)
for p in pli "pli --stats" "trfilter" "trfilter -b" "trsample -s 0+9" "tswindow -w 2" \
    "cachesim -d" "reusedist -d" "reusedist -C"; do
	check_fail "$p on a bad first line: status 1, the line named, nothing written" 1 \
	    "bad1.txt:2: bad op 'X'" "$p $tmp/bad1.txt >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
done
check "... pli -o: no file left" "! pli -o $tmp/s.o $tmp/bad1.txt 2>/dev/null && test ! -e $tmp/s.o"
check "... trfilter -o: no file left" "! trfilter -o $tmp/s.o $tmp/bad1.txt 2>/dev/null && test ! -e $tmp/s.o"
printf 'x1\n2\n3\n' >"$tmp/bad1.series"
check_fail "pli -f 1 on a series whose first number is bad: nothing written" 1 \
    "bad1.series:1: field 1: not an integer" \
    "pli -f 1 $tmp/bad1.series >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
check_fail "tswindow -I series, likewise" 1 "bad1.series:1: not a number" \
    "tswindow -I series -w 2 $tmp/bad1.series >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
printf '1\n2\n3\n' >"$tmp/good.series"
check_same "... a good series is still written whole" \
    "pli -f 1 $tmp/good.series" "pli -f 1 <$tmp/good.series"
check_rows "... and tswindow's points of it" '$1 ~ /^[0-9]+$/' "tswindow -I series -w 2 $tmp/good.series"
check_same "a good first record and a bad later one: the stream so far stays (status 1)" \
    "{ cat $tmp/t.txt; echo '99999 X 0x40 4'; } | trfilter >$tmp/so 2>/dev/null; echo \$?; cksum <$tmp/so" \
    "echo 1; trfilter $tmp/t.txt | cksum"
# the other streams' readers: a bad first row, nothing written
trfilter -t R,W -B 64 "$tmp/t.txt" | head -n 150 | tswindow -w 4 | head -n 40 >"$tmp/pts"
persist --threshold 4 "$tmp/pts" >"$tmp/pers"
circcoord "$tmp/pers" >"$tmp/coords"
awk '!/^#/ && !d { $1 = "zz"; d = 1 } { print }' "$tmp/pts" >"$tmp/pts.bad"
awk '/^#reftrace bars/ { b = 1 } b && !/^#/ && !d { $3 = "zz"; d = 1 } { print }' "$tmp/pers" >"$tmp/pers.bad"
awk '/^#reftrace theta/ { c = 1 } c && !/^#/ && !d { $7 = "zz"; d = 1 } { print }' "$tmp/coords" >"$tmp/coords.bad"
check_fail "persist on a bad first point: nothing written" 1 "pts.bad:3: bad seq" \
    "persist $tmp/pts.bad >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
check_fail "circcoord on a bad first bar: nothing written" 1 "pers.bad:[0-9]+: bad bar row" \
    "circcoord $tmp/pers.bad >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
check_fail "plotspiral on a bad first bar: nothing written" 1 "pers.bad:[0-9]+: bad bar row" \
    "plotspiral --diagram $tmp/pers.bad >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
check_fail "plotspiral on a bad first coordinate: nothing written" 1 "coords.bad:[0-9]+: bad theta" \
    "plotspiral $tmp/coords.bad >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
{ cat "$tmp/t.txt"; echo '9 X 0x40 4'; } >"$tmp/cut.txt"
check_fail "cachesim on a trace bad after good records: that line named, no table" 1 "cut.txt:[0-9]*: bad op" \
    "cachesim $tmp/cut.txt >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"
# U2: a truncated gzip histogram is named as such, and -M writes nothing
reusedist --exact "$tmp/t.txt" | gzip -c >"$tmp/h.gz"
head -c $(($(wc -c <"$tmp/h.gz") / 2)) "$tmp/h.gz" >"$tmp/hcut.gz"
check_fail "reusedist -M on a truncated gzip histogram: the truncation named, nothing written" 1 \
    "^reusedist: .*hcut.gz: truncated gzip input\$" \
    "reusedist -M $tmp/hcut.gz $tmp/h.gz >$tmp/s.out; st=\$?; test ! -s $tmp/s.out || st=9; exit \$st"

