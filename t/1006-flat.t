#!/bin/sh
# Flat blocks (binary version 4, -O binary-flat; reftrace(5), doc/binary.txt):
# round trips of a trace with every field and event against version 3 and
# the text, its blocks cut where doc/binary.txt says (walked and decoded
# by python from the layout, not by our reader), the bundled traces,
# corrupt flat blocks said with their place and skipped by -k, and
# cachesim's and reusedist's tables (slices too) the same as from version 3.
. "$(dirname "$0")/lib.sh"
plan 28

# The blocks of a version 4 file: "block FLAGS ITEMS" for each, and
# after a flat block's its records decoded from the layout, a line each:
# "seq op addr size pc tid" (tid 4294967295 for none)
walk() {
	python3 -c 'import sys, struct
b = open(sys.argv[1], "rb").read(); assert b[8] == 4, "version %d" % b[8]
at = 16; out = []
while True:
	plen, n, cw, z, fl = struct.unpack_from("<5I", b, at)
	if fl == 2: break
	out.append("block %d %d" % (fl, n))
	if fl == 4:
		p = at + 20; base = struct.unpack_from("<8Q", b, p); c = p + 64; col = []
		for k in range(8):
			w = cw >> 4 * k & 15; col.append((c, w)); c += n * w
		assert c + 8 == p + plen and z == 0 and b[c:c + 8] == bytes(8)
		def f(k, i):
			c, w = col[k]
			return (base[k] + int.from_bytes(b[c + i * w:c + i * w + w], "little")) % 2**64
		for i in range(n):
			out.append("%d %s 0x%x %d 0x%x %d" % ((f(4, i) + i) % 2**64, "RWMI"[f(0, i)], f(2, i), f(1, i), f(3, i), f(5, i)))
	at += 20 + plen + 4
print("\n".join(out))' "$1"
}

# The first flat block of 65536 records of file $1: "N OFFSET" (blocks
# counted from 1)
flatat() {
	python3 -c 'import sys, struct
b = open(sys.argv[1], "rb").read(); at = 16; k = 1
while struct.unpack_from("<5I", b, at)[1::3] != (65536, 4):
	at += 24 + struct.unpack_from("<I", b, at)[0]; k += 1
print(k, at)' "$1"
}

# a trace with every field: threads (and none), pcs, locations,
# functions, variables, seq gaps, an address near the top and a size of
# 2^20; every event kind, at records 1, 2, 3 (blocks of one record),
# 70000 and 70000 + 65536 (a block of 65536 ending at an event), after
# which 65537 records make a block of 65536 and one of 1
awk 'BEGIN { srand(3); print "#reftrace trace 1 seq op addr size tid pc loc func var"; s = -1
	split("R W M I", op, " ")
	ev[1] = "#mark %d start"; ev[2] = "#region %d arr 0x10000 4096 8"; ev[3] = "#object %d /bin/x 0x1000 build-id:ab"
	ev[70000] = "#flush %d 0x40 64"; ev[135536] = "#inval %d 0x0 0"
	for (i = 0; i < 201073; i++) {
		if (i in ev) printf ev[i] "\n", s + 1
		s += rand() < 0.05 ? 2 + int(rand() * 1000) : 1
		t = rand() < 0.3 ? "-" : int(rand() * 3) * 7
		a = sprintf("0x%x%08x", int(rand() * 65536), int(rand() * 2^32))
		z = 1 + int(rand() * 16)
		if (i == 500) { a = "0xfffffffffff00000"; z = 8 }
		if (i == 501) z = 1048576
		l = rand() < 0.5 ? "-\t-" : sprintf("f%d.c:%d\tfn%d", int(rand() * 5), int(rand() * 40), int(rand() * 3))
		v = rand() < 0.7 ? "-" : "v" int(rand() * 30)
		printf "%d %s %s %d %s 0x%x %s %s\n", s, op[1 + int(rand() * 4)], a, z, t, 4198400 + int(rand() * 4096), l, v
	} }' >"$tmp/rich.txt"
trfilter -O binary-flat "$tmp/rich.txt" >"$tmp/rich.flat"
check_same "every field: text -> binary-flat -> text as text -> binary -> text" \
    "trfilter $tmp/rich.flat" "trfilter -b $tmp/rich.txt | trfilter"
check_same "and as the text itself" "trfilter $tmp/rich.flat" "trfilter $tmp/rich.txt"
walk "$tmp/rich.flat" >"$tmp/walk"
trfilter "$tmp/rich.txt" >"$tmp/rich.norm"
check_same "flat blocks decoded from the layout by python: the records of the text" \
    "grep -v '^block' $tmp/walk" \
    "awk '!/^#/ { printf \"%s %s %s %s %s %.0f\\n\", \$1, \$2, \$3, \$4, \$6, \$5 == \"-\" ? 4294967295 : \$5 }' $tmp/rich.norm"
check "blocks of one record between the first events, flat (flag 4) between version 2 ones" \
    "grep '^block' $tmp/walk | sed -n 1,4p | tr '\n' ' ' | grep -q '^block 4 1 block 0 [0-9]* block 4 1 block 0 [0-9]* '"
check "a flat block of 65536 records ends at an event, then 65536 and 1 at the end" \
    "grep '^block 4' $tmp/walk | awk '\$3 == 65536 { n++ } END { exit n != 2 }' &&
     grep '^block' $tmp/walk | tail -n 2 | tr '\n' ' ' | grep -q '^block 4 65536 block 4 1 \$'"
check "definitions end a flat block: more blocks than events and 65536s account for" \
    "test \$(grep -c '^block 4' $tmp/walk) -gt 10"

# the bundled traces, and trsample's writer
for t in fir2dim kernels matmul-blocked; do trfilter "$D/$t.lk.gz" >"$tmp/$t.txt"; done
check_same "fir2dim, kernels and matmul: lackey -> binary-flat -> text as lackey -> text, every access line" \
    "for t in fir2dim kernels matmul-blocked; do trfilter -O binary-flat $D/\$t.lk.gz | trfilter >$tmp/rt.txt
	cksum <$tmp/rt.txt; grep -vc '^#' $tmp/rt.txt; done" \
    "for t in fir2dim kernels matmul-blocked; do cksum <$tmp/\$t.txt; zcat $D/\$t.lk.gz | grep -c '^ *[ILSM]  *[0-9a-f]*,'; done"
check_same "trsample -O binary-flat: the same sample" \
    "trsample -i 7 -O binary-flat $tmp/rich.txt | trfilter" "trsample -i 7 $tmp/rich.txt"
check_same "binary-flat of a binary-flat file, and binary2 of it: the same trace" \
    "trfilter -O binary-flat $tmp/rich.flat | trfilter -O binary2 | trfilter" "trfilter $tmp/rich.txt"

# cachesim and reusedist: the tables from flat as from version 3
F=$tmp/fir.flat V=$tmp/fir.rtb
trfilter -O binary-flat "$tmp/fir2dim.txt" >"$F"
trfilter -b "$tmp/fir2dim.txt" >"$V"
check_same_rows "cachesim one L1 and three levels: flat as version 3 and as the lackey trace" \
    "cachesim -c 32K:8:64 $F; cachesim -c i7 $F; cachesim -c i7 $V" \
    "cachesim -c 32K:8:64 $V; cachesim -c i7 $V; cachesim -c i7 $D/fir2dim.lk.gz"
check_same_rows "cachesim with the rich trace's events (flush, invalidate): flat as text" \
    "cachesim -c 4K:4:64 $tmp/rich.flat" "cachesim -c 4K:4:64 $tmp/rich.txt"
check_same_rows "reusedist --exact -B 64: flat as version 3" \
    "reusedist --exact -B 64 $F" "reusedist --exact -B 64 $V"
check_same_rows "reusedist --exact --threads 3 (slices entered at flat blocks): the single run's" \
    "reusedist --exact -B 64 --threads 3 $F" "reusedist --exact -B 64 $V"
for k in 0 1 2; do cachesim -c 8K:4:64 --slice $k/3 "$F" >"$tmp/s$k" || :; done
check_same_rows "cachesim --slice k/3 of a flat file, fixed up: the single run's table" \
    "cachesim -c 8K:4:64 --fixup $F $tmp/s0 $tmp/s1 $tmp/s2" "cachesim -c 8K:4:64 $V"

# corrupt flat blocks: the first flat block of 65536 records of fir2dim's
# (block k at byte b2)
set -- $(flatat "$F")
k=$1 b2=$2
b3=$((b2 + 24 + $(u32 "$F" "$b2")))
check "fir2dim's block $k is flat, of 65536 records, after its object events' block" \
    "test $k -ge 2 && test \$(u32 $F \$((b2 + 16))) = 4 && test \$(u32 $F \$((b2 + 4))) = 65536"
{ head -c $b2 "$F"; tail -c +$((b3 + 1)) "$F"; } >"$tmp/no2.flat"
cp "$F" "$tmp/bad.flat"
printf '\377' | dd of="$tmp/bad.flat" bs=1 seek=$((b2 + 100)) conv=notrunc 2>/dev/null
check_fail "a changed byte in a flat block: its checksum does not match, said with its place, exit 1" 1 \
    "bad.flat: corrupt binary trace: block $k at byte $b2: its checksum does not match" "trfilter $tmp/bad.flat"
check_same "-k: that block left out, the others read" \
    "trfilter -k $tmp/bad.flat 2>/dev/null" "trfilter -k $tmp/no2.flat 2>/dev/null"
check "-k: the records of blocks 1 and 3 on, 65536 fewer" \
    "test \$(trfilter -k $tmp/bad.flat 2>/dev/null | grep -vc '^#') = \$((\$(grep -vc '^#' $tmp/fir2dim.txt) - 65536))"
cp "$F" "$tmp/len.flat"
printf '\377\377\0\0' | dd of="$tmp/len.flat" bs=1 seek=$((b2 + 4)) conv=notrunc 2>/dev/null
fixcrc "$tmp/len.flat" $b2
check_fail "a flat block whose length does not match its count (65535): said, exit 1" 1 \
    "len.flat: corrupt binary trace: block $k at byte $b2: a flat block's length does not match its count" \
    "trfilter $tmp/len.flat"
check_same "-k past it: the others read" \
    "trfilter -k $tmp/len.flat 2>/dev/null" "trfilter -k $tmp/no2.flat 2>/dev/null"
cp "$F" "$tmp/flag.flat"
printf '\014' | dd of="$tmp/flag.flat" bs=1 seek=$((b2 + 16)) conv=notrunc 2>/dev/null
fixcrc "$tmp/flag.flat" $b2
check_fail "an unknown flag (8) beside flat's: refused, said, exit 1" 1 \
    "flag.flat: corrupt binary trace: block $k at byte $b2: bad block header or deflate data" \
    "trfilter $tmp/flag.flat"
check_same "-k past it: the others read" \
    "trfilter -k $tmp/flag.flat 2>/dev/null" "trfilter -k $tmp/no2.flat 2>/dev/null"
cp "$F" "$tmp/v3.flat"
printf '\003' | dd of="$tmp/v3.flat" bs=1 seek=8 conv=notrunc 2>/dev/null
check_fail "flat blocks in a version 3 file: corrupt, the first said" 1 \
    "v3.flat: corrupt binary trace: block [0-9]* at byte [0-9]*: bad block header or deflate data" \
    "trfilter $tmp/v3.flat"
# an op of 9: the op column (width 1, base 0) is the payload's after 64
# bytes of bases; its 300th record: the 299 before it handed out
cp "$F" "$tmp/op.flat"
printf '\011' | dd of="$tmp/op.flat" bs=1 seek=$((b2 + 20 + 64 + 299)) conv=notrunc 2>/dev/null
fixcrc "$tmp/op.flat" $b2
check_fail "a record of op 9 in a flat block: a bad record, said, exit 1" 1 \
    "op.flat: corrupt binary trace: block $k at byte $b2: bad record" "trfilter $tmp/op.flat"
check "the 299 records before it stand: with -k, 65536 - 299 fewer records than the whole" \
    "test \$(trfilter -k $tmp/op.flat 2>/dev/null | grep -vc '^#') = \$((\$(grep -vc '^#' $tmp/fir2dim.txt) - 65237))"
head -c $((b3 - 9)) "$F" >"$tmp/cut.flat"
check_fail "a flat block cut short: truncated, said, exit 1" 1 \
    "cut.flat: truncated trace: the input ends inside a block at byte $b2, after [0-9]* items" \
    "trfilter $tmp/cut.flat"
# a flat block of one record whose payload (8 bytes) is shorter than its
# bases (64): its length said, not read past (made by python's zlib)
python3 -c 'import sys, zlib, struct
h = b"\211RTB\r\n\032\n\004" + bytes(7); blk = struct.pack("<5I", 8, 1, 0, 0, 4) + bytes(8)
s = h + blk + struct.pack("<I", zlib.crc32(blk))
t = struct.pack("<IIIIIQI", 12, 0, 0, 0, 2, 1, zlib.crc32(s))
sys.stdout.buffer.write(s + t + struct.pack("<I", zlib.crc32(t)))' >"$tmp/short.flat"
check_fail "a flat block shorter than its bases: its length does not match, said, exit 1" 1 \
    "short.flat: corrupt binary trace: block 1 at byte 16: a flat block's length does not match its count" \
    "trfilter $tmp/short.flat"
check_fail "version 4 is not version 5: a header of 5 refused by its version" 1 \
    "unknown version; this reader knows 2 to 4" \
    "{ head -c 8 $F; printf '\\005'; tail -c +10 $F; } | trfilter"
