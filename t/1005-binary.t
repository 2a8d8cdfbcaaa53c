#!/bin/sh
# The binary format (reftrace(5)): a hand-worked file of version 2 (read)
# and 3 (written: checksums and a trailer, computed here by python's
# zlib), round trips of every bundled trace and of every reader's output,
# version 1 (never released) refused, block errors with their place, -k
# past a bad block, blocks that decode alone, truncated traces said,
# concatenated traces and partitions, the size against gzip -9 of the
# lackey text.
. "$(dirname "$0")/lib.sh"
plan 46

nrec() { grep -v -c '^#'; }
nitem() { grep -v -c '^#reftrace'; }	# records and events
# the output of fir2dim cut after k whole blocks: the first lines of the
# whole trace, near all that k blocks hold (2^18 items each, a few
# definitions of strings and locations among them)
prefix() {	# file k
	trfilter -k "$1" 2>/dev/null >"$tmp/prefix.txt"
	l=$(wc -l <"$tmp/prefix.txt")
	test "$l" -gt $(($2 * 262144 - 100)) && head -n "$l" "$tmp/fir2dim.txt" | cmp -s - "$tmp/prefix.txt"
}

# A hand-worked file: four reads 8 apart, pc unknown.  The model starts at
# zero: the first misses address (residual 0x100 from 0, zigzag 0x200 =
# 80 04) and size (8); the second and third miss the address by 8 (stride
# 0, then 8 seen once: zigzag 16); the third sees 8 twice, so the fourth
# is predicted: a run of one (0x80).  Control 18 08 08 80, residuals
# 80 04 08 10 10.
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n0 R 0x100 8 - - - - -\n1 R 0x108 8 - - - - -\n2 R 0x110 8 - - - - -\n3 R 0x118 8 - - - - -\n' >"$tmp/h.txt"
printf '\211RTB\r\n\032\n\002\0\0\0\0\0\0\0\011\0\0\0\004\0\0\0\004\0\0\0\005\0\0\0\0\0\0\0\030\010\010\200\200\004\010\020\020' >"$tmp/h.rtb"
check_same "a hand-worked version 2 file reads as worked out (older files read)" "trfilter $tmp/h.rtb" "cat $tmp/h.txt"
# version 3: the same block followed by the CRC-32 of its header and
# payload, then a trailer (flags 2, payload: 4 items as u64le, the CRC-32
# of the 16 + 29 + 4 bytes before it) and its own CRC
python3 -c 'import sys, zlib, struct
v2 = open(sys.argv[1], "rb").read(); h = b"\211RTB\r\n\032\n\003" + v2[9:16]; blk = v2[16:]
s = h + blk + struct.pack("<I", zlib.crc32(blk))
t = struct.pack("<IIIIIQI", 12, 0, 0, 0, 2, 4, zlib.crc32(s))
sys.stdout.buffer.write(s + t + struct.pack("<I", zlib.crc32(t)))' "$tmp/h.rtb" >"$tmp/h3.rtb"
check_same "the writer makes version 3 of it (-O binary2; -b too, as deflate would not shrink it)" \
    "trfilter -O binary2 $tmp/h.txt | od -An -c; trfilter -b $tmp/h.txt | od -An -c" \
    "od -An -c $tmp/h3.rtb; od -An -c $tmp/h3.rtb"
check_same "which reads as worked out" "trfilter $tmp/h3.rtb" "cat $tmp/h.txt"

# an object with its identity is item 0x87 (reftrace(5)); without, 0x82
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n#object 0 /bin/x 0x1000 build-id:ab12\n#object 0 /bin/y 0x2000\n0 R 0x100 8 - - - - -\n' >"$tmp/o.txt"
check_same "objects with and without an identity: text -> binary2, deflated or not -> text the same" \
    "trfilter -O binary2 $tmp/o.txt | trfilter; trfilter -b $tmp/o.txt | trfilter" "cat $tmp/o.txt $tmp/o.txt"

# every bundled lackey trace: text -> v2 -> text, deflated (-b) and not
# (-O binary2), and smaller than gzip -9 of the lackey text
big=1
for f in "$D"/*.lk.gz; do
	t=$(basename "$f" .lk.gz)
	trfilter "$f" >"$tmp/$t.txt"
	trfilter -b "$tmp/$t.txt" >"$tmp/$t.rtb"
	if cmp -s "$tmp/$t.txt" "$tmp/$t.rtb" || ! trfilter "$tmp/$t.rtb" | cmp -s - "$tmp/$t.txt" ||
	    ! trfilter -O binary2 "$tmp/$t.txt" | trfilter | cmp -s - "$tmp/$t.txt"; then
		echo "# $t: not the same"; big=0
	fi
	zcat "$f" | gzip -9 >"$tmp/$t.gz9"
	[ "$(wc -c <"$tmp/$t.rtb")" -lt "$(wc -c <"$tmp/$t.gz9")" ] || { echo "# $t: not below gzip -9"; big=0; }
done
check "every bundled lackey trace: text -> binary -> text and -> binary2 -> text the same" "test $big = 1"
check "every bundled lackey trace: binary smaller than gzip -9 of the lackey text" \
    "for f in $D/*.lk.gz; do t=\$(basename \$f .lk.gz); test \$(wc -c <$tmp/\$t.rtb) -lt \$(wc -c <$tmp/\$t.gz9) || exit 1; done"
check "the fir2dim trace (3.6 M records) is under a quarter of a byte a record not deflated" \
    "test \$((4 * \$(trfilter -O binary2 $tmp/fir2dim.txt | wc -c))) -lt \$(nrec <$tmp/fir2dim.txt)"

# every reader's output (din with flushes, the fuzz seeds' shapes)
trfilter "$D/dinero/mix.din" >"$tmp/mix.txt"
trfilter "$D/dinero/trad.din" >"$tmp/trad.txt"
trfilter -O pin "$tmp/matmul4-blocked.txt" >"$tmp/m.pin"
trfilter -O din "$tmp/matmul4-blocked.txt" >"$tmp/m.din"
awk '!/^#/ { op = $2 == "W" ? "S" : $2 == "R" ? "L" : $2 == "M" ? "M" : "X";
    if (op == "X") next; sub(/^0x/, "", $3);
    printf "%s %s %s 1 S main GV v%d\n", op, $3, $4, NR % 7 }' "$tmp/bsort-sorted.txt" >"$tmp/b.gl"
awk '!/^#/ && ($2 == "R" || $2 == "W") { if (NR % 50 == 0) print "L f.c:" NR; print $2, $3 }' \
    "$tmp/interchange-rowwise.txt" >"$tmp/b.mtv"
awk '!/^#/ { print $3 }' "$tmp/matmul-standard.txt" | head -100000 >"$tmp/b.addr"
for x in "$D/dinero/bsort.din.gz" "$tmp/mix.txt" "$tmp/trad.txt" "$tmp/m.pin" "$tmp/m.din" "$tmp/b.gl" "$tmp/b.mtv" "$tmp/b.addr"; do
	check_same "$(basename "$x"): reader -> binary -> text = reader -> text" \
	    "trfilter -b $x | trfilter" "trfilter $x"
done

# version 1, written before 0.2 and never released: refused, alone or
# after a version 2 file (a header, one block of one read)
printf '\211RTB\r\n\032\n\001\0\0\0\0\0\0\0\003\0\0\0\001\0\0\0\010\040\004' >"$tmp/v1.rtb"
check_fail "a version 1 file is refused, its version said" 1 \
    "v1.rtb: binary trace version 1: written before 0.2; this reader knows 2" "trfilter $tmp/v1.rtb"
check_fail "a version 1 file after a version 2 one: refused" 1 \
    "binary trace version 1: written before 0.2; this reader knows 2" \
    "trfilter -b $tmp/h.txt | cat - $tmp/v1.rtb | trfilter"

# concatenated files, deflated or not, read as one trace
trfilter -O binary2 "$tmp/matmul-standard.txt" >"$tmp/m2.rtb"
trfilter -b "$tmp/matmul-standard.txt" >"$tmp/mz.rtb"
check_same "plain and deflated files concatenated read as one trace" \
    "cat $tmp/m2.rtb $tmp/mz.rtb | trfilter" \
    "trfilter $tmp/matmul-standard.txt $tmp/matmul-standard.txt"
check "deflated blocks (-b) are smaller than plain ones (-O binary2) on matmul" \
    "test \$(wc -c <$tmp/mz.rtb) -lt \$(wc -c <$tmp/m2.rtb)"

# blocks: fir2dim has 14; each decodes alone.  Block 1 at 16, its header
# 20 bytes (payload, items, control, residuals, flags), its CRC after it
F=$tmp/fir2dim.rtb2
trfilter -O binary2 "$tmp/fir2dim.txt" >"$F"
p1=$(u32 "$F" 16); c1=$(u32 "$F" 20)
b2=$((16 + 24 + p1)); p2=$(u32 "$F" "$b2"); c2=$(u32 "$F" $((b2 + 4)))
b3=$((b2 + 24 + p2)); p3=$(u32 "$F" "$b3"); c3=$(u32 "$F" $((b3 + 4)))
check "block 1 holds 2^18 items, its streams' lengths add up to its payload" \
    "test $c1 = 262144 && test \$(( \$(u32 $F 24) + \$(u32 $F 28) )) = $p1"
{ head -c 16 "$F"; tail -c +$((b3 + 1)) "$F" | head -c $((24 + p3)); } >"$tmp/b3.rtb"
trfilter -k "$tmp/b3.rtb" 2>/dev/null | awk '!/^#/' >"$tmp/b3.txt"
at=$(grep -n -x -F "$(head -n 1 "$tmp/b3.txt")" "$tmp/fir2dim.txt" | cut -d: -f1)
check_same "block 3 alone decodes to the records in its place (the model restarts each block)" \
    "cat $tmp/b3.txt" "sed -n $at,$((at + $(wc -l <"$tmp/b3.txt") - 1))p $tmp/fir2dim.txt"
check "block 3 holds 2^18 records" "test \$(wc -l <$tmp/b3.txt) = 262144 && test $c3 = 262144"

# a corrupt block: its number and byte said; -k goes on at the next
cp "$F" "$tmp/bad.rtb"
printf '\377' | dd of="$tmp/bad.rtb" bs=1 seek=$((b2 + 20)) conv=notrunc 2>/dev/null
check_fail "a changed byte: the block's checksum does not match, the block and its byte said, exit 1" 1 \
    "bad.rtb: corrupt binary trace: block 2 at byte $b2: its checksum does not match" \
    "trfilter $tmp/bad.rtb"
cp "$tmp/bad.rtb" "$tmp/badrec.rtb"
fixcrc "$tmp/badrec.rtb" $b2
check_fail "a bad control byte under a right checksum: said, exit 1" 1 \
    "badrec.rtb: corrupt binary trace: block 2 at byte $b2: bad record" "trfilter $tmp/badrec.rtb"
{ head -c $b2 "$F"; tail -c +$((b3 + 1)) "$F"; } >"$tmp/no2.rtb"
check_same "-k: that block left out, the others read: the file without block 2" \
    "trfilter -k $tmp/bad.rtb 2>/dev/null" "trfilter -k $tmp/no2.rtb 2>/dev/null"
check_fail "a block left out: the trailer's checksum says so" 1 \
    "no2.rtb: corrupt binary trace: the trailer at byte $(( $(wc -c <"$tmp/no2.rtb") - 36 )): the trace's checksum does not match" \
    "trfilter $tmp/no2.rtb"
check_same "-k: the blocks after the bad one are the same records" \
    "trfilter -k $tmp/bad.rtb 2>/dev/null | tail -n 1000" "tail -n 1000 $tmp/fir2dim.txt"
check_fail "-k: the warning says where" 0 \
    "corrupt binary trace: block 2 at byte $b2: its checksum does not match" "trfilter -k $tmp/bad.rtb >/dev/null"
cp "$F" "$tmp/long.rtb"
printf '\005\0\0\0' | dd of="$tmp/long.rtb" bs=1 seek=$((b2 + 4)) conv=notrunc 2>/dev/null
fixcrc "$tmp/long.rtb" $b2
check_fail "a block with fewer items than its streams hold: said" 1 \
    "block 2 at byte $b2: its streams are longer than its items" "trfilter $tmp/long.rtb"
# a count past 2^18: refused before decoding (runs make counts cheap)
cp "$F" "$tmp/many.rtb"
printf '\001\0\004\0' | dd of="$tmp/many.rtb" bs=1 seek=$((b2 + 4)) conv=notrunc 2>/dev/null
check_fail "a block that counts 2^18 + 1 items: refused, said" 1 \
    "many.rtb: corrupt binary trace: a block of more than 262144 items" "trfilter $tmp/many.rtb"
trfilter -b "$tmp/fir2dim.txt" >"$tmp/z.rtb"
z2=$((16 + 24 + $(u32 "$tmp/z.rtb" 16)))
cp "$tmp/z.rtb" "$tmp/badz.rtb"
printf '\125\252' | dd of="$tmp/badz.rtb" bs=1 seek=$((z2 + 20 + 40)) conv=notrunc 2>/dev/null
fixcrc "$tmp/badz.rtb" $z2
check_fail "a deflated block that does not inflate: said" 1 \
    "block 2 at byte $z2: bad block header or deflate data" "trfilter $tmp/badz.rtb"
check_same "-k past it: the other blocks read" \
    "trfilter -k $tmp/badz.rtb 2>/dev/null | cksum" "trfilter -k $tmp/no2.rtb 2>/dev/null | cksum"
head -c $((b3 - 7)) "$F" >"$tmp/cut.rtb"
check_fail "a truncated block: said, exit 1" 1 \
    "cut.rtb: truncated trace: the input ends inside a block at byte $b2, after [0-9]* items, without its trailer" \
    "trfilter $tmp/cut.rtb"
check "a truncated block: the blocks before it read" "prefix $tmp/cut.rtb 1"
# cut at a block's end: version 2 could not tell; the trailer's absence does
head -c $b3 "$F" >"$tmp/cut3.rtb"
check_fail "a trace cut between blocks: truncated, said, exit 1" 1 \
    "cut3.rtb: truncated trace: the input ends at byte $b3, after [0-9]* items, without its trailer" \
    "trfilter $tmp/cut3.rtb >/dev/null"
check_fail "with -k a warning, exit 0" 0 "cut3.rtb: truncated trace: the input ends at byte $b3" \
    "trfilter -k $tmp/cut3.rtb >/dev/null"
check "and the records before the cut" "prefix $tmp/cut3.rtb 2"
check_fail "a file header alone: an empty trace cut short" 1 \
    "truncated trace: the input ends at byte 16, after 0 items" "head -c 16 $F | trfilter"
check_same "an empty trace: the header, the trailer (0 items, the CRC of the header)" \
    "trfilter -O binary2 </dev/null | od -An -tx1" \
    "python3 -c 'import sys, zlib, struct
h = b\"\\211RTB\\r\\n\\032\\n\\003\" + bytes(7); t = struct.pack(\"<IIIIIQI\", 12, 0, 0, 0, 2, 0, zlib.crc32(h))
sys.stdout.buffer.write(h + t + struct.pack(\"<I\", zlib.crc32(t)))' | od -An -tx1"
check_same "the trailer counts the items: records and events" \
    "od -An -tu4 -j\$((\$(wc -c <$F) - 16)) -N4 $F | tr -d ' '" "nitem <$tmp/fir2dim.txt"

# partitions: recorded in the header
trfilter -t RWM -b "$D/bsort-reversed.lk.gz" >"$tmp/all.rtb"
trfilter -P 2/4 -b -o "$tmp/p2.rtb" "$tmp/all.rtb"
check_same "-P 2/4: a version 3 header with the partition (bytes 8-15)" \
    "od -An -tu1 -j8 -N8 $tmp/p2.rtb | tr -s ' '" "echo ' 3 134 2 0 0 4 0 0'"
# concatenated partitions are not one: refused (cachesim -M read them as
# partition 0/4 holding both, and double counted); the same partition
# twice, or whole traces, read on
trfilter -P 3/4 -b -o "$tmp/p3.rtb" "$tmp/all.rtb"
check_fail "cat of partitions 2/4 and 3/4: refused, the second's place said" 1 \
    "<stdin>: a second trace at byte $(wc -c <"$tmp/p2.rtb") records partition 3/4:64, the first partition 2/4:64: concatenated partitions are not one trace" \
    "cat $tmp/p2.rtb $tmp/p3.rtb | trfilter >/dev/null"
check_fail "a partition after a whole trace: refused" 1 \
    "records partition 2/4:64, the first no partition" "cat $tmp/all.rtb $tmp/p2.rtb | cachesim -c 1K:1:64 >/dev/null"
check_same "partition 2/4 twice: read as one, its partition kept" \
    "cat $tmp/p2.rtb $tmp/p2.rtb | trfilter" "trfilter $tmp/p2.rtb; trfilter $tmp/p2.rtb | awk 'NR > 2'"
check_fail "a cut trace followed by another: truncated, said" 1 \
    "truncated trace: another trace's header begins at byte $b3, after [0-9]* items" \
    "cat $tmp/cut3.rtb $F | trfilter >/dev/null"
check_same "with -k: the records of both" "cat $tmp/cut3.rtb $F | trfilter -k 2>/dev/null | nrec" \
    "{ trfilter -k $tmp/cut3.rtb 2>/dev/null | nrec; nrec <$tmp/fir2dim.txt; } | awk '{ s += \$1 } END { print s }'"
