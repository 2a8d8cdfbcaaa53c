#!/bin/sh
# The trace formats: every reader on real and malformed input, gzip,
# and lossless text <-> binary round trips.
. "$(dirname "$0")/lib.sh"
plan 55

L=$D/bsort-reversed.lk.gz
nrec() { grep -v -c '^#'; }

# lackey, against counts made by awk over the raw file
zcat "$L" >"$tmp/b.lk"
check_same "lackey: one record per I/L/S/M line" \
    "trfilter $L | nrec" "grep -c -E '^(I | [LSM] )' $tmp/b.lk"
check_same "lackey: ops in order (I/L/S/M -> I/R/W/M)" \
    "trfilter $L | awk '!/^#/ {print \$2}'" \
    "awk '/^I /{print \"I\"} /^ L /{print \"R\"} /^ S /{print \"W\"} /^ M /{print \"M\"}' $tmp/b.lk"
check_same "lackey: seq counts records from 0" \
    "trfilter $L | awk '!/^#/ {print \$1}'" \
    "grep -E '^(I | [LSM] )' $tmp/b.lk | awk '{print NR - 1}'"
check_same "lackey: addresses and sizes" \
    "trfilter $L | awk '!/^#/ {print \$3, \$4}'" \
    "grep -E '^(I | [LSM] )' $tmp/b.lk | awk '{split(\$2, a, \",\"); s = a[1]; sub(/^0+/, \"\", s); if (s == \"\") s = \"0\"; print \"0x\" s, a[2]}'"
check_same "lackey: the pc of a data access is the preceding I" \
    "trfilter $L | awk '!/^#/ {print \$6}'" \
    "grep -E '^(I | [LSM] )' $tmp/b.lk | awk '/^I/ {split(\$2, a, \",\"); pc = a[1]; sub(/^0+/, \"\", pc)} {print \"0x\" pc}'"
check_same "lackey -v -v: one object per svma line, bias = avma - svma" \
    "trfilter $L | awk '/^#object/ {print \$3, \$4}'" \
    "awk '$HEX /Reading syms from/ {p = \$NF} /svma 0x/ {printf \"%s 0x%x\\n\", p, hex(\$5) - hex(substr(\$3, 1, length(\$3) - 1))}' $tmp/b.lk"
check_same "lackey: client requests give marks and regions" \
    "trfilter $L | awk '/^#(mark|region)/ {print \$1, \$3}'" \
    "printf '#region a\n#mark sort\n#mark done\n'"
check_same "lackey: a mark carries the seq of the record after it" \
    "trfilter $L | awk '\$1 == \"#mark\" && \$3 == \"sort\" {s = \$2; getline; print s, \$1}' | awk '{print (\$1 == \$2)}'" \
    "echo 1"
check_same "lackey: the region's base and size (5 ints)" \
    "trfilter $L | awk '/^#region/ {print \$5, \$6}'" "echo 20 4"

printf 'I  0401ab70,3\n L 1fff0005c8,8\n L zz,8\n S 10,4\n' >"$tmp/bad.lk"
check_fail "lackey: a bad line is named, exit 1" 1 "bad.lk:3: bad address" \
    "trfilter $tmp/bad.lk"
check_same "lackey -k: the bad line is skipped" \
    "trfilter -k $tmp/bad.lk 2>/dev/null | nrec" "echo 3"
check_fail "lackey -k: with a warning naming it" 0 "bad.lk:3:" \
    "trfilter -k $tmp/bad.lk"
printf 'I  0401ab70,3\n L 1fff0005c8\n' >"$tmp/bad2.lk"
check_fail "lackey: a missing size is an error" 1 "bad2.lk:2: bad address" \
    "trfilter $tmp/bad2.lk"

# Gleipnir, after the example of Janjusic and Kavi
cat >"$tmp/g.txt" <<'G'
START PID 517
X THREAD CREATE 0:1
S 7ff000490 8 1 S main LV _zzq_result
L 7ff000490 8 1 S main
S 000601070 4 1 G main GV glScalar
M 7ff000498 4 2 S main LV i
S 000601080 8 1 G func GS glStrcArray[0].var1
G
check_same "Gleipnir: records, ops, threads, functions, variables" \
    "trfilter $tmp/g.txt | awk '!/^#/ {print \$1, \$2, \$3, \$4, \$5, \$8, \$9}'" \
    "printf '%s\n' '0 W 0x7ff000490 8 1 main _zzq_result' '1 R 0x7ff000490 8 1 main -' '2 W 0x601070 4 1 main glScalar' '3 M 0x7ff000498 4 2 main i' '4 W 0x601080 8 1 func glStrcArray[0].var1'"
printf 'START PID 1\nS 7ff000490 8\n' >"$tmp/gbad.txt"
check_fail "Gleipnir: a short line is named" 1 "gbad.txt:2: not a Gleipnir line" \
    "trfilter $tmp/gbad.txt"

# din, as Dinero IV reads it (its d4.1, TRACE RECORDS): traditional lines
# are 4 bytes at the address rounded down to 4, the rest of the line
# ignored; extended lines take a hex size; 4 / c flush, 5 / v invalidate
printf '0 1000\n1 2006\n2 400000 extra\n3 31\n4 1001\n5 0\n2 130 4\ti1\n0x0 0x1008 8\n' >"$tmp/t.din"
check_same "din (traditional): labels 0-5, 4 bytes aligned, rest ignored" \
    "trfilter $tmp/t.din | awk '!/^#reftrace/ {print \$1, \$2, \$3, \$4}'" \
    "printf '%s\n' '0 R 0x1000 4' '1 W 0x2004 4' '2 I 0x400000 4' '3 R 0x30 4' '#flush 4 0x1000 4' '#inval 4 0x0 4' '4 I 0x130 4' '5 R 0x1008 4'"
printf 'r 1000 8\nW 0x2003 0x10 a comment\ni 400 4\nm 31 3\nc 0 0\nV 1000 20\n' >"$tmp/x.din"
check_same "din (extended): r w i m c v, hex sizes, either case" \
    "trfilter $tmp/x.din | awk '!/^#reftrace/ {print \$1, \$2, \$3, \$4}'" \
    "printf '%s\n' '0 R 0x1000 8' '1 W 0x2003 16' '2 I 0x400 4' '3 R 0x31 3' '#flush 4 0x0 0' '#inval 4 0x1000 32'"
printf '0 1000\n9 2000\n' >"$tmp/bad.din"
check_fail "din: a bad label is named" 1 "bad.din:2: bad din label" "trfilter $tmp/bad.din"
printf 'r 1000 8\nw 2000\n' >"$tmp/bad.din"
check_fail "din: an extended line without its size is named" 1 "bad.din:2: bad size" "trfilter $tmp/bad.din"
printf 'r 1000 0\n' >"$tmp/bad.din"
check_fail "din: an access of size 0 is refused" 1 "bad.din:1: size 0" "trfilter $tmp/bad.din"
check_same "din writer: extended din, a modify a read then a write, flushes c" \
    "printf '0 M 0x10 4\n#flush 1 0x0 0\n1 W 0x20 17\n#inval 2 0x40 8\n' | sed '1i #reftrace trace 1' | trfilter -O din" \
    "printf 'r 10 4\nw 10 4\nc 0 0\nw 20 11\nv 40 8\n'"
check_same "din writer: accesses past Dinero's 16-bit size in pieces" \
    "printf '0 R 0x10 70000\n' | sed '1i #reftrace trace 1' | trfilter -O din" \
    "printf 'r 10 8000\nr 8010 8000\nr 10010 1170\n'"
check_same "din round trip: din -> din" "trfilter -O din $L | trfilter -O din" "trfilter -O din $L"
cols() { awk '/^#flush/ {print $1, $3, $4} !/^#/ {print $2, $3, $4} END {exit NR < 100}'; }
check_same "din round trip: text -> din -> text keeps every access and flush" \
    "trfilter -t RWI $L | sed '3i #flush 2 0x40 64' | trfilter -O din | trfilter | cols" \
    "trfilter -t RWI $L | sed '3i #flush 2 0x40 64' | cols"
check_same "flushes survive text -> binary -> text" \
    "trfilter $tmp/x.din | trfilter -b | trfilter" "trfilter $tmp/x.din"

# MTV
printf 'L /src/a.cpp:47\nR 0x7000ffa0\nW 0x7000ffa2\nL b.cpp:3\nR 0x10\n' >"$tmp/t.mtv"
check_same "MTV: L lines set the location of the records after them" \
    "trfilter $tmp/t.mtv | awk '!/^#/ {print \$2, \$3, \$7}'" \
    "printf '%s\n' 'R 0x7000ffa0 /src/a.cpp:47' 'W 0x7000ffa2 /src/a.cpp:47' 'R 0x10 b.cpp:3'"
printf 'R 0x10\nQ 0x20\n' >"$tmp/bad.mtv"
check_fail "MTV: a bad line is named" 1 "bad.mtv:2: not an MTV line" "trfilter $tmp/bad.mtv"

# Pin's pinatrace: "PC: R|W ADDR" as %p writes them, a size in some variants
printf '0x7f85d3b852d3: W 0x7fffc7177908\n0x7f85d3b852e0: R 0x7fffc7177900\n0x400010: R (nil) 8\n#eof\n' >"$tmp/t.pin"
check_same "pin: op, address, size (1 without one), the pc; (nil) is 0; #eof a comment" \
    "trfilter $tmp/t.pin | awk '!/^#/ {print \$1, \$2, \$3, \$4, \$6}'" \
    "printf '%s\n' '0 W 0x7fffc7177908 1 0x7f85d3b852d3' '1 R 0x7fffc7177900 1 0x7f85d3b852e0' '2 R 0x0 8 0x400010'"
printf '0x10: R 0x20\n0x10 R 0x30\n0x10: X 0x30\n0x10: R 0x30 0\n0x14: W 0x40 4\n' >"$tmp/bad.pin"
check_fail "pin: a pc without its colon is named" 1 "bad.pin:2: bad pc" "trfilter $tmp/bad.pin"
check_same "pin -k: the three bad lines skipped, the good ones kept" \
    "trfilter -k $tmp/bad.pin 2>/dev/null | awk '!/^#/ {print \$2, \$3, \$4, \$6}'" \
    "printf '%s\n' 'R 0x20 1 0x10' 'W 0x40 4 0x14'"
check_same "pin writer: data accesses with pc and size, a modify a read and a write, #eof" \
    "printf '0 M 0x10 4 - 0x400\n1 I 0x400 4\n2 W 0x20 8\n' | sed '1i #reftrace trace 1 seq op addr size tid pc' | trfilter -O pin" \
    "printf '0x400: R 0x10 4\n0x400: W 0x10 4\n0x0: W 0x20 8\n#eof\n'"
check_same "pin round trip of a lackey trace's data accesses" \
    "trfilter -t RWM -O pin $L | trfilter -O pin" "trfilter -t RWM -O pin $L"
check_same "cachesim on pin equals cachesim on the same accesses as text" \
    "trfilter -t RW -O pin $L | cachesim -c 4K:2:64" "trfilter -t RW $L | cachesim -c 4K:2:64"

# bare addresses
printf '4096\n0x2000\n  17\n' >"$tmp/t.addr"
check_same "addresses: decimal and hex, one a line" \
    "trfilter $tmp/t.addr | awk '!/^#/ {print \$3}'" "printf '0x1000\n0x2000\n0x11\n'"
printf '4096\n40x96\n' >"$tmp/bad.addr"
check_fail "addresses: a bad one is named" 1 "bad.addr:2: bad address" "trfilter $tmp/bad.addr"

# reftrace text
trfilter $L >"$tmp/b.txt"
check_same "text -> text is the identity" "trfilter $tmp/b.txt" "cat $tmp/b.txt"
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n0 R 0x10 4 - - - - -\n1 X 0x10 4\n' >"$tmp/bad.txt"
check_fail "text: a bad op is named" 1 "bad.txt:3: bad op" "trfilter $tmp/bad.txt"
check_fail "text forced on something else: the header is asked for" 1 \
    "not a reftrace text trace" "trfilter -I text $tmp/t.din"
printf '#reftrace trace 1\n0 R 0x10 4\n1 W 32 8 3 0x400 a%%20b.c:7 f%%25 -\n' >"$tmp/min.txt"
check_same "text: short records, decimal addresses, escapes" \
    "trfilter $tmp/min.txt | awk '!/^#/'" \
    "printf '0 R 0x10 4 - - - - -\n1 W 0x20 8 3 0x400 a%%20b.c:7 f%%25 -\n'"

# binary
check_same "text -> binary -> text is the identity" "trfilter -b $tmp/b.txt | trfilter" "cat $tmp/b.txt"
for t in matmul-blocked fir2dim; do
	check_same "$t: lackey -> binary -> text = lackey -> text" \
	    "trfilter -b $D/$t.lk.gz | trfilter" "trfilter $D/$t.lk.gz"
done
trfilter -b $L >"$tmp/b.rtb"
check "binary is at least 5x smaller than text" \
    "test \$(wc -c <$tmp/b.rtb) -lt \$((\$(wc -c <$tmp/b.txt) / 5))"
head -c 40000 "$tmp/b.rtb" >"$tmp/cut.rtb"
check_fail "binary: truncated input is an error" 1 "cut.rtb: truncated trace: the input ends inside a block" \
    "trfilter $tmp/cut.rtb"
check_same "binary: concatenated files read as one" \
    "cat $tmp/b.rtb $tmp/b.rtb | trfilter | nrec" "echo \$((2 * \$(nrec <$tmp/b.txt)))"
trfilter -b </dev/null >"$tmp/e.rtb"
check_same "binary: empty files' headers between and after are skipped" \
    "cat $tmp/e.rtb $tmp/b.rtb $tmp/e.rtb $tmp/e.rtb $tmp/b.rtb $tmp/e.rtb | trfilter | nrec" \
    "echo \$((2 * \$(nrec <$tmp/b.txt)))"

# gzip
gzip -c "$tmp/b.txt" >"$tmp/b.txt.gz"
check_same "gzip text input" "trfilter $tmp/b.txt.gz" "cat $tmp/b.txt"
cat "$tmp/b.txt.gz" "$tmp/t.din.gz" 2>/dev/null >/dev/null
zcat "$L" | head -100000 | gzip -c >"$tmp/p1.gz"
zcat "$L" | tail -n +100001 | gzip -c >"$tmp/p2.gz"
check_same "multi-member gzip reads as one stream" \
    "cat $tmp/p1.gz $tmp/p2.gz | trfilter" "trfilter $L"
check_same "gzip binary input" "gzip -c $tmp/b.rtb | trfilter" "cat $tmp/b.txt"
check_same "-z compresses the output" "trfilter -z -b $L | gzip -d | trfilter" "cat $tmp/b.txt"
head -c 30000 "$tmp/b.txt.gz" >"$tmp/cut.gz"
check_fail "truncated gzip is an error, not a short trace" 1 "truncated gzip input" \
    "trfilter $tmp/cut.gz"

# what is not a trace
printf 'hello world, this is prose\n' >"$tmp/prose"
check_fail "an unknown format is refused" 1 "prose: unknown trace format" "trfilter $tmp/prose"
printf '#reftrace trace 2 seq op addr size tid pc loc func var\n0 R 0x10 4\n' >"$tmp/v2"
check_fail "a text trace of another version: said so, with the header this version reads" 1 \
    "v2:1: a trace header of another version \\(reftrace [0-9.]+ reads '#reftrace trace 1'\\)\$" \
    "trfilter $tmp/v2"
check_same "empty input is an empty trace" "trfilter </dev/null" "echo '#reftrace trace 1 seq op addr size tid pc loc func var'"
check_same "an empty binary trace is its 16-byte header and a 36-byte trailer, and reads back empty" \
    "trfilter -b </dev/null | wc -c | tr -d ' '; trfilter -b </dev/null | trfilter" \
    "echo 52; echo '#reftrace trace 1 seq op addr size tid pc loc func var'"
