#!/bin/sh
# Limits are errors, not work, and a NUL byte makes a line malformed: in
# every trace format an access over 1 MiB (RT_MAXSIZE), one that runs past
# 2^64, and a line with a NUL are errors naming file:line; -k skips just
# those lines and reads the rest as if they were not there.  The stream
# readers (points, persistence, coordinates, series) refuse NUL lines too.
. "$(dirname "$0")/lib.sh"
plan 42

nul() { printf '%s\000%s\n' "$1" "$2"; }

# FORMAT GOOD1 GOOD2 BIG WRAP NULHEAD: a trace of five lines, the bad in the
# middle, and the same without them
mk() {
	f=$tmp/t.$1
	{ [ "$1" = text ] && echo '#reftrace trace 1 seq op addr size tid pc loc func var'
	  echo "$2"; [ -n "$4" ] && echo "$4"; [ -n "$5" ] && echo "$5"; nul "$6" 'x 1'; echo "$3"; } >"$f"
	{ [ "$1" = text ] && echo '#reftrace trace 1 seq op addr size tid pc loc func var'
	  echo "$2"; echo "$3"; } >"$tmp/good.$1"
}
mk text '0 R 0x1000 8' '4 W 0x2000 4' '1 R 0x1000 1099511627776' \
    '2 R 0xfffffffffffffff8 16' '3 R 0x1000 8'
mk lackey ' L 00001000,8' ' S 00002000,4' ' L 00001000,1048577' \
    ' L fffffffffffffff8,16' ' L 00001000,8'
mk din 'r 1000 8' 'w 2000 4' 'r 1000 10000000000' 'r fffffffffffffff8 10' 'r 1000 8'
mk gleipnir 'L 000001000 8 1' 'S 000002000 4 1' 'L 000001000 1099511627776 1' \
    'L fffffffffffffff8 16 1' 'L 000001000 8 1'
mk mtv 'R 0x1000 8' 'W 0x2000 4' 'R 0x1000 1099511627776' 'R 0xfffffffffffffff8 16' 'R 0x1000 8'
mk addr '0x1000' '0x2000' '' '' '0x1000'

for f in text lackey din gleipnir mtv; do
	line=2; [ $f = text ] && line=3
	check_fail "$f: a size over 1 MiB is an error naming its line" 1 \
	    "^trfilter: .*t\\.$f:$line: size [0-9]+ over the limit of 1048576 bytes" \
	    "trfilter -I $f '$tmp/t.$f'"
	check "$f: -k skips the oversize, wrapping and NUL lines, reads the rest" \
	    "trfilter -k -I $f '$tmp/t.$f' >'$tmp/k' 2>'$tmp/e' && trfilter -I $f '$tmp/good.$f' >'$tmp/g' &&
	     cmp '$tmp/k' '$tmp/g' && test \$(wc -l <'$tmp/e') -eq 3 &&
	     grep -q 'runs past the top of the address space' '$tmp/e' &&
	     grep -q ':$((line + 2)): a NUL byte in the line' '$tmp/e'"
done
check "addr: -k skips a NUL line, reads the rest" \
    "trfilter -k -I addr '$tmp/t.addr' >'$tmp/k' 2>'$tmp/e' && trfilter -I addr '$tmp/good.addr' >'$tmp/g' &&
     cmp '$tmp/k' '$tmp/g' && grep -q 't.addr:2: a NUL byte in the line' '$tmp/e'"
check_fail "addr: a NUL line is an error" 1 't\.addr:2: a NUL byte' "trfilter -I addr '$tmp/t.addr'"

# the same through gzip and a pipe, where the first bytes are read apart
gzip -c "$tmp/t.text" >"$tmp/t.text.gz"
check "gzip: -k names the NUL line and goes on" \
    "trfilter -k '$tmp/t.text.gz' 2>&1 >/dev/null | grep -q 't\.text\.gz:5: a NUL byte'"
check_fail "standard input: the NUL in the first bytes read is seen" 1 '<stdin>:1: a NUL byte' \
    "nul '0x10' '99' | trfilter -"

# a region that runs past 2^64 is refused; one that ends at the top is not
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n#region 0 a 18446744073709551608 16 8\n0 R 0x10 8\n' >"$tmp/reg1"
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n#region 0 a 18446744073709551608 8 8\n0 R 0x10 8\n' >"$tmp/reg2"
check_fail "a region past 2^64 is a bad line" 1 'reg1:2: bad region line' "trfilter '$tmp/reg1'"
check "a region ending at the top is read" "trfilter '$tmp/reg2' | grep -q '^#region 0 a 0xfffffffffffffff8 8 8'"

# the largest access, 1 MiB, is read and spans 16384 blocks of 64 bytes
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n0 R 0x100000 1048576\n' >"$tmp/max"
check "an access of exactly 1 MiB is read: 16384 blocks of 64 bytes from 0x4000" \
    "trfilter -B 64 '$tmp/max' | grep -q '^0 R 0x4000 16384 '"

# The programs over these readers: a limit is not work.  cachesim and
# reusedist end at once with the error.
check_fail "cachesim: the 2^40-byte access is refused" 1 't\.lackey:2: size' \
    "cachesim -c i7 '$tmp/t.lackey'"
check_fail "reusedist: likewise" 1 't\.lackey:2: size' "reusedist '$tmp/t.lackey'"

# Caches: a set has at most 2^20 ways, fully associative ones included
# (256G:full:64 is 2^32 blocks: it divided by zero), and a cache whose
# tags need more memory than there is is refused before it is allocated,
# saying how much: 256T:8:64 is 2^42 blocks of 17 bytes (tag, policy
# state, dirty byte) and 2^39 sets of a 4-byte hint: 71680.0 GiB.
for o in -c --icache; do
	check_fail "cachesim $o 256G:full:64: too many ways, a usage error" 2 \
	    "$o 256G:full:64: fully associative with 4294967296 blocks: a set has at most 1048576 ways" \
	    "cachesim $o 256G:full:64 </dev/null"
done
check_fail "cachesim -E 64G:full:16: likewise" 2 'fully associative with 4294967296 blocks' \
    "cachesim -E 64G:full:16 </dev/null"
check_fail "cachesim -c 256T:8:64: the memory its tags need" 2 \
    '256T:8:64: needs 71680\.0 GiB for its tags, more than the [0-9.]+ GiB of memory here' \
    "cachesim -c 256T:8:64 </dev/null"
printf '0x1000\n0x2000\n0x1008\n' >"$tmp/three"
check "cachesim: 1M:full:64 (16384 ways) is allowed: 3 accesses, 2 misses" \
    "cachesim -c 1M:full:64 '$tmp/three' | awk '\$1 == \"L1\" { print \$3, \$6, \$10 }' | grep -qx '16384 3 2'"
# a 32 GiB cache over two accesses touches two sets: its tags cost pages,
# not 9 GiB (it took 4.2 GB and 31 s)
check_fail "reusedist -N 10^11: refused before reading, with what it needs" 2 \
    "^reusedist: -N 100000000000: a sample of that many blocks needs 6705.5 GiB, more than the .* GiB of memory here\$" \
    "reusedist -N 100000000000 /dev/null"
check_fail "trsample -N 10^11: said, before any allocation" 1 \
    "^trsample: -N 100000000000: no memory for the reservoir\$" "trsample -N 100000000000 /dev/null"
check_fail "cachesim --temperature 10^11: said, before any allocation" 1 \
    "^cachesim: no memory for a window of 100000000000 accesses\$" "cachesim --temperature 100000000000 /dev/null"
# (1 GB under the sanitizers, whose allocator touches what it hands out)
lim=65536; [ -z "${RT_SMALL:-}" ] || lim=1048576
check "cachesim --icache 32G:4:64 over two accesses stays under 64 MB" \
    "/usr/bin/time -f %M -o '$tmp/rss' cachesim --icache 32G:4:64 -c 32G:4:64 '$tmp/good.lackey' >/dev/null &&
     test \$(cat '$tmp/rss') -lt $lim"

# stream readers
zcat "$D/matmul4-standard.lk.gz" | head -2000 | tswindow -w 4 >"$tmp/p.pts"
persist "$tmp/p.pts" >"$tmp/p.per"
circcoord "$tmp/p.per" >"$tmp/p.crd"
for s in pts per crd; do
	perl -pe 's/$/\0junk/ if $. == 6' "$tmp/p.$s" >"$tmp/n.$s"
done
check_fail "persist: a NUL in a points line" 1 'n\.pts:6: a NUL byte in the line' "persist '$tmp/n.pts'"
check_fail "circcoord: a NUL in a persistence line" 1 'n\.per:6: a NUL byte in the line' "circcoord '$tmp/n.per'"
check_fail "plotspiral: a NUL in a coordinates line" 1 'n\.crd:6: a NUL byte in the line' "plotspiral -o '$tmp/x.svg' '$tmp/n.crd'"
# the header's counts size the tables: they must be the stream's (a
# header of 4e9 points over 287 rows asked for gigabytes: ENOMEM)
sed 's/points=[0-9]*/points=4000000000/; s/vertices=[0-9]*/vertices=4000000000/' \
    "$tmp/p.per" >"$tmp/big.per"
check_fail "circcoord: a header's point count not the pointmap's" 1 \
    "big\\.per: the '# persist' line says 4000000000 points, the pointmap table has [0-9]*\$" \
    "circcoord '$tmp/big.per'"
awk '/^#reftrace pointmap/ { t = 1 } /^#reftrace edges/ { t = 0 } !(t && ++n == 3)' \
    "$tmp/p.per" >"$tmp/short.per"
check_fail "circcoord: a pointmap row missing" 1 \
    "short\\.per: the '# persist' line says [0-9]* points, the pointmap table has [0-9]*\$" \
    "circcoord '$tmp/short.per'"
# histograms: a count below 0 or a rate outside (0, 1] weighed the merge
# (before: merged, exit 0)
printf '#reftrace hist 1 lo hi count fraction cumulative\n#block 64\n#accesses 10\n#rate 1\n0 0 15 1.5 1.5\n1 1 -5 -0.5 1\n' >"$tmp/neg.hist"
check_fail "reusedist -M: a negative count" 1 'neg\.hist:6: bad histogram line' "reusedist -M '$tmp/neg.hist'"
sed 's/^#rate 1$/#rate 2/; s/-5/5/' "$tmp/neg.hist" >"$tmp/rate.hist"
check_fail "reusedist -M: a rate above 1" 1 'rate\.hist:4: bad #rate' "reusedist -M '$tmp/rate.hist'"
# a lag whose window cannot be held is said so (before: "out of memory")
check_fail "tswindow: a window of 10^12 values" 1 \
    '^tswindow: -w 2 -j 1000000000000: a window spans 1000000000001 values, more than there is memory for$' \
    "tswindow -I series -w 2 -j 1000000000000 /dev/null"
{ echo 1; echo 2; nul 3 4; echo 5; } >"$tmp/series"
check_fail "tswindow: a NUL in a series is an error" 1 'series:3: a NUL byte in the line' \
    "tswindow -I series -w 2 '$tmp/series'"
check "tswindow -k: the NUL line skipped, once, exit 0" \
    "tswindow -k -I series -w 2 '$tmp/series' >'$tmp/o' 2>'$tmp/e' &&
     test \"\$(grep -v '^#' '$tmp/o' | awk '{ print \$5 \",\" \$6 }' | tr '\n' ' ')\" = '1,2 2,5 ' &&
     test \$(wc -l <'$tmp/e') -eq 1"
{ echo 1; echo x; echo 5; } >"$tmp/series2"
check "tswindow -k: a line that is not a number warned once, exit 0" \
    "tswindow -k -I series -w 2 '$tmp/series2' >/dev/null 2>'$tmp/e' && test \$(wc -l <'$tmp/e') -eq 1"
check_fail "tswindow: without -k, the error once, exit 1" 1 'series2:2: not a number' \
    "tswindow -I series -w 2 '$tmp/series2' 2>&1 >/dev/null | sort | uniq -d | grep -q . && exit 3; tswindow -I series -w 2 '$tmp/series2' >/dev/null"
check_fail "pli: a NUL in a column of numbers" 1 'series:3: a NUL byte in the line' "pli -f 1 '$tmp/series'"
# a line over 1 MiB is refused however the reads fall: it was taken when
# the buffer, grown for a long line before it, held it whole
{ echo '#reftrace trace 1 seq op addr size'; printf '#'; head -c 1000000 /dev/zero | tr '\0' a; echo
  printf '#'; head -c 1048600 /dev/zero | tr '\0' b; echo; echo '0 R 0x10 4'; } >"$tmp/long"
check_fail "a comment of 1048601 bytes after one of 1000001: refused at its line" 1 \
    "long:3: line longer than 1048576 bytes" "trfilter '$tmp/long'"
