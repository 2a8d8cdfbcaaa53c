#!/bin/sh
# pli -g pc (issue 18): a stream per instruction, the interleaving a
# stream of stream numbers; exact on every bundled trace, the loops of
# one instruction found where the interleaved whole has none, and a
# model of streams read strictly.
. "$(dirname "$0")/lib.sh"
plan $((53 + $(ls "$D"/*.lk.gz | wc -l)))	# a round trip per bundled trace

addrs() { trfilter "$@" | awk '!/^#/ { print $3 }'; }

# Exact on every bundled trace, fetches and all (a stream a pc of data,
# a stream a pc of fetches, the order between them).
for t in "$D"/*.lk.gz; do
	name=$(basename "$t" .lk.gz)
	addrs "$t" >"$tmp/$name.addr"
	check "round trip, a stream an instruction: $name" \
	    "test -s $tmp/$name.addr && pli $t >$tmp/$name.pli && grep -q '^stream\$' $tmp/$name.pli &&
	     grep -q '^fetch 0x[0-9a-f]* +[0-9a-f]' $tmp/$name.pli && pli -x $tmp/$name.pli | cmp -s - $tmp/$name.addr"
done
# The streams of a whole trace: one a pc of data, one a pc of fetches,
# counted here from the trace; the model names each once, on its stream
# line or its fetch line.
trfilter "$D/bsort-reversed.lk.gz" >"$tmp/bs.txt"
check "every stream of a whole trace named once, on a stream line or a fetch line" \
	"a=\$(awk '!/^#/ { k[(\$2 == \"I\" ? \"f\" : \"d\") \$6] = 1 } END { print length(k) }' $tmp/bs.txt);
	 b=\$(awk '/^stream( |\$)/ { n++ } /^fetch / { n += NF - 1 } END { print n }' $tmp/bsort-reversed.pli);
	 test \$a -gt 1000 && test \$a -eq \$b"
# The jumps, by a naive model of their rule (reftrace(5)): each stream
# predicts the stream after it the last time, or a new one; a count of
# streams as predicted, then the stream that came instead as its
# difference from the last one; a count last.
check "a whole trace's order is its jumps, the counts and streams the rule gives" \
	"grep -q '^jumps\$' $tmp/bsort-reversed.pli &&
	 awk '!/^#/ { k = (\$2 == \"I\" ? \"f\" : \"d\") \$6; w = (p in pr) ? pr[p] : ns + 1
	     if (!(k in num)) num[k] = ++ns; s = num[k]
	     if (s == w) r++; else { print r; print s - p; r = 0 }; pr[p] = s; p = s } END { print r }' $tmp/bs.txt >$tmp/bs.jumps &&
	 { echo '#reftrace loops 1'; sed '1,/^jumps\$/d' $tmp/bsort-reversed.pli; } | pli -x >$tmp/bs.pj &&
	 test \$(wc -l <$tmp/bs.jumps) -gt 1000 && cmp -s $tmp/bs.pj $tmp/bs.jumps"
check "a whole trace's jumps: fewer than a tenth of its values" \
	"test \$(wc -l <$tmp/bs.pj) -gt 100 && test \$((10 * \$(wc -l <$tmp/bs.pj))) -lt \$(wc -l <$tmp/bsort-reversed.addr)"
check "a whole trace's model under gzip -9 is smaller than its addresses under gzip -9" \
	"a=\$(gzip -9 <$tmp/bsort-reversed.pli | wc -c); b=\$(gzip -9 <$tmp/bsort-reversed.addr | wc -c);
	 test \$a -gt 1000 && test \$a -lt \$b"
check "round trip with -B 64 and a short period" \
	"addrs -B 64 -t RW $D/bsort-shuffled.lk.gz >$tmp/b.addr && test -s $tmp/b.addr &&
	 trfilter -t RW $D/bsort-shuffled.lk.gz | pli -B 64 --period 2 | pli -x | cmp -s - $tmp/b.addr"

# The matrix multiply's data reads (N = 16): one instruction's loads of
# A[i][k] are a nest of i, j, k of 16 each, 128 bytes a row of A, 8 an
# element, which the 16-bit interleaved whole does not show.
trfilter -e "$D/matmul" -F standard -t R "$D/matmul-standard.lk.gz" >"$tmp/mm.txt"
awk '!/^#/ { print $3 }' "$tmp/mm.txt" >"$tmp/mm.addr"
pli -g pc "$tmp/mm.txt" >"$tmp/mm.pli"
check "matmul: a load whose stream is the i, j, k nest of A[i][k]" \
	"awk '/^stream/ { s = \$0; d = 0 } /^for t1 = 0 to 15 /{ d = 1 } d == 1 && /^  for t2 = 0 to 15 /{ d = 2 }
	     d == 2 && /^    for t3 = 0 to 15 /{ d = 3 } d == 3 && /^      emit 128\\*t1 \\+ 8\\*t3 \\+ 0x/ { f = 1 }
	     END { exit !f }' $tmp/mm.pli"
check "matmul: smaller than xz -9 of the addresses" \
	"a=\$(wc -c <$tmp/mm.pli); x=\$(xz -9 <$tmp/mm.addr | wc -c); test \$a -gt 100 && test \$a -lt \$x"
# One stream of all the loads finds the i, j, k nest too, even with loop
# bodies of at most 16 terms (the k loop's body is 9 loads and a loop of
# 3): A[i][k] at 128 i + 8 k, B[k][j] at 8 j + 128 k, inside three loops
# of 16.  The greedy search cut the first k iteration another way, kept
# it out of the k loop and so broke the j and i loops at every turn.
check "matmul, one stream of period 16: the i, j, k nest of A[i][k] and B[k][j], and it expands back" \
	"pli -g none --period 16 $tmp/mm.txt >$tmp/one16.pli && pli -x $tmp/one16.pli | cmp -s - $tmp/mm.addr &&
	 awk '/^for t1 = 0 to 15 /{ d = 1 } d == 1 && /^  for t2 = 0 to 15 /{ d = 2 } d == 2 && /^    for t3 = 0 to 15 /{ d = 3 }
	      d == 3 && /^      emit 128\\*t1 \\+ 8\\*t3 \\+ 0x/ { a = 1 } d == 3 && /^      emit 8\\*t2 \\+ 128\\*t3 \\+ 0x/ { b = 1 }
	      END { exit !(a && b) }' $tmp/one16.pli"
check "-g none: one stream, as before" \
	"pli -g none $tmp/mm.txt >$tmp/one.pli && ! grep -q '^stream' $tmp/one.pli && pli -x $tmp/one.pli | cmp -s - $tmp/mm.addr"
check "a trace without instruction addresses is one stream" \
	"awk '!/^#/ { print \"r\", \$3, \"4\" }' $tmp/mm.txt | sed 's/ 0x/ /' >$tmp/mm.din &&
	 pli -I din $tmp/mm.din >$tmp/din.pli && ! grep -q '^stream' $tmp/din.pli && grep -q '^[^#]' $tmp/din.pli"

# A model of streams written by hand: stream 1 counts up from 10, stream 2
# holds 7 and 9, stream 3 fetches its own address 0x40 as often as the
# order takes it; the order 1 2 3 1 2 1 3 gives 10 7 0x40 11 9 12 0x40.
hand='#reftrace loops 1\nstream 1 0x400\nfor t1 = 0 to 2 {\n  emit t1 + 10\n}\nstream 2 0x404\nvalues 7 9\nstream 3 fetch 0x40\norder\nvalues 1 2 3 1 2 1 3\n'
check "a hand-written model of streams expands in its order" \
	"printf '$hand' | pli -x | tr '\\n' ' ' | grep -qx '10 7 64 11 9 12 64 '"
check_fail "an order naming no stream is an error with the place" 1 \
	"^pli: <stdin>: value 3 of the order is 4, not a stream \\(1 to 3\\)\$" \
	"printf '$hand' | sed 's/values 1 2 3 1/values 1 2 4 1/' | pli -x"
check_fail "a stream spent before the order is" 1 \
	"^pli: <stdin>:6: stream 2 ends before the order does" \
	"printf '$hand' | sed 's/values 7 9/values 7/' | pli -x"
check_fail "values the order never takes are an error" 1 \
	"^pli: <stdin>:2: stream 1 has values the order never takes\$" \
	"printf '$hand' | sed 's/to 2 {/to 3 {/' | pli -x"
# The same as jumps: 1 2 3 come as predicted (new streams: a count of
# 3), then 1 (-2 from 3) where stream 3 predicts a new one; 2 as stream 1
# predicts (1), then 1 (-1 from 2) where 2 predicts 3; 3 (2 from 1) where
# 1 predicts 2 (0); a count of 0.
jh='#reftrace loops 1\nstream 1 0x400\nfor t1 = 0 to 2 {\n  emit t1 + 10\n}\nstream 2 0x404\nvalues 7 9\nstream 3 fetch 0x40\njumps\nvalues 3 -2 1 -1 0 2 0\n'
check "a hand-written model of jumps expands in its order" \
	"printf '$jh' | grep -q '^jumps' && printf '$jh' | pli -x | tr '\\n' ' ' | grep -qx '10 7 64 11 9 12 64 '"
check_fail "a jump to no stream is an error with the place" 1 \
	"^pli: <stdin>: value 2 of the jumps, 4 from stream 3, is not a stream \\(1 to 3\\)\$" \
	"printf '$jh' | sed 's/values 3 -2 1/values 3 4 1/' | pli -x"
check_fail "a count past the last stream" 1 \
	"^pli: <stdin>: value 1 of the jumps counts past the last stream: stream 3 predicts a new one, and there are 3\$" \
	"printf '$jh' | sed 's/values 3 -2 1 -1 0 2 0/values 4/' | pli -x"
check_fail "a stream spent before the jumps are" 1 \
	"^pli: <stdin>:6: stream 2 ends before the order does" \
	"printf '$jh' | sed 's/values 7 9/values 7/' | pli -x"
check_fail "values the jumps never take are an error" 1 \
	"^pli: <stdin>:2: stream 1 has values the order never takes\$" \
	"printf '$jh' | sed 's/values 3 -2 1 -1 0 2 0/values 3 -2 1/' | pli -x"
check_fail "jumps after an order" 1 "^pli: <stdin>:11: a second order \\('jumps'\\)\$" \
	"printf '$hand''jumps\\nvalues 0\\n' | pli -x"
check_fail "streams numbered out of turn" 1 "^pli: <stdin>:6: want 'stream 2' and what it is\$" \
	"printf '$hand' | sed 's/^stream 2/stream 5/' | pli -x"
check_fail "a statement before the first stream" 1 "^pli: <stdin>:3: 'stream' after statements of no stream\$" \
	"printf '#reftrace loops 1\\nvalues 1\\nstream 1 0x4\\nvalues 2\\norder\\nvalues 1\\n' | pli -x"
check_fail "a model of streams without an order" 1 "^pli: <stdin>: a model of 1 streams without an order\$" \
	"printf '#reftrace loops 1\\nstream 1 0x4\\nvalues 2\\n' | pli -x"

# Fetch lines written by hand: streams 1-3 fetch 0x40, 0x44 (0x40 + 4)
# and 0x34 (0x44 - 0x10); stream 4 is data at 0x404; stream 5 fetches
# 0x420 (0x404 + 0x1c).  The order 1 2 3 4 5 4 1 gives 64 68 52 7 1056 9 64.
fh='#reftrace loops 1\nfetch 0x40 +4 -10\nstream 4 0x404\nvalues 7 9\nfetch +1c\norder\nvalues 1 2 3 4 5 4 1\n'
check "fetch lines: addresses absolute and relative to the last, a stream each" \
	"printf '$fh' | pli -x | tr '\\n' ' ' | grep -qx '64 68 52 7 1056 9 64 '"
check_fail "a stream line numbered as if fetch lines named none" 1 "^pli: <stdin>:3: want 'stream 4' and what it is\$" \
	"printf '$fh' | sed 's/^stream 4/stream 2/' | pli -x"
check_fail "a relative address below 0" 1 "^pli: <stdin>:2: want an address not below 0, not '-50'\$" \
	"printf '$fh' | sed 's/-10\$/-50/' | pli -x"
check_fail "a relative address past 2^64" 1 "^pli: <stdin>:5: want an address below 2\\^64, not '\\+fffffffffffffc00'\$" \
	"printf '$fh' | sed 's/+1c/+fffffffffffffc00/' | pli -x"
check_fail "an address that is not one" 1 "^pli: <stdin>:2: want an address: 0x hex, or \\+hex or -hex from the last, not '\\+0x4'\$" \
	"printf '$fh' | sed 's/ +4 / +0x4 /' | pli -x"
check_fail "a fetch line without addresses" 1 "^pli: <stdin>:5: want addresses after 'fetch', not the end of the line\$" \
	"printf '$fh' | sed 's/^fetch +1c/fetch/' | pli -x"
check_fail "statements after a fetch line" 1 "^pli: <stdin>:3: a statement after a fetch line \\(its streams have none\\)\$" \
	"printf '#reftrace loops 1\\nfetch 0x40\\nvalues 1\\norder\\nvalues 1\\n' | pli -x"
check_fail "a fetch line after the order" 1 "^pli: <stdin>:5: a stream after the order\$" \
	"printf '#reftrace loops 1\\nfetch 0x40\\norder\\nvalues 1\\nfetch +4\\n' | pli -x"
check_fail "a fetch line inside a loop" 1 "^pli: <stdin>:5: 'fetch' inside a loop\$" \
	"printf '#reftrace loops 1\\nstream 1 0x4\\nvalues 1\\nfor t1 = 0 to 1 {\\nfetch 0x40\\n}\\norder\\nvalues 1\\n' | pli -x"
check "a model of fetch lines alone" \
	"printf '#reftrace loops 1\\nfetch 0x10 +10\\norder\\nvalues 2 1 2\\n' | pli -x | tr '\\n' ' ' | grep -qx '32 16 32 '"
check_fail "address 0 (no address) on a fetch line" 1 "^pli: <stdin>:2: want an address other than 0 \\(none: 'stream N fetch -'\\), not '0x0'\$" \
	"printf '#reftrace loops 1\\nfetch 0x0\\norder\\nvalues 1\\n' | pli -x"
check_fail "a difference before any address" 1 "^pli: <stdin>:2: want an address in 0x hex before a difference \\(none named yet\\), not '\\+10'\$" \
	"printf '#reftrace loops 1\\nfetch +10\\norder\\nvalues 1\\n' | pli -x"
check "the highest address, and one below it by difference" \
	"printf '#reftrace loops 1\\n#values hex\\nfetch 0xffffffffffffffff -1\\norder\\n2 1\\n' | pli -x | tr '\\n' ' ' |
	 grep -qx '0xfffffffffffffffe 0xffffffffffffffff '"
# Stream lines' addresses as differences: stream 1 fetches 0x40, stream
# 2 is data at 0x44 (0x40 + 4), stream 3 the fetches of 0x38 (0x44 -
# 0xc), stream 4 data at 0x38 (+0).  The order 1 2 3 4 2 gives 64 7 56 5 9.
sh='#reftrace loops 1\nfetch 0x40\nstream 2 +4\nvalues 7 9\nstream 3 fetch -c\nstream 4 +0\nvalues 5\norder\nvalues 1 2 3 4 2\n'
check "stream lines: an address relative to the last named" \
	"printf '$sh' | pli -x | tr '\\n' ' ' | grep -qx '64 7 56 5 9 '"
check_fail "a stream line's difference before any address" 1 "^pli: <stdin>:2: want an address in 0x hex before a difference \\(none named yet\\), not '\\+4'\$" \
	"printf '#reftrace loops 1\\nstream 1 +4\\nvalues 1\\norder\\nvalues 1\\n' | pli -x"
check_fail "a stream line's address below 0" 1 "^pli: <stdin>:5: want an address not below 0, not '-4c'\$" \
	"printf '$sh' | sed 's/fetch -c/fetch -4c/' | pli -x"
check_fail "a stream line's address 0 by difference" 1 "^pli: <stdin>:5: want an address other than 0 \\(none: '-'\\), not '-44'\$" \
	"printf '$sh' | sed 's/fetch -c/fetch -44/' | pli -x"
check_fail "a stream line's difference that is not hex" 1 "^pli: <stdin>:3: want an instruction address \\(0x hex, or \\+hex or -hex from the last\\) or '-', not '\\+4g'\$" \
	"printf '$sh' | sed 's/+4/+4g/' | pli -x"
check "pli writes a stream line's address as its difference from the last where shorter" \
	"trfilter -t RWM $D/bsort-reversed.lk.gz | pli | grep -qx 'stream +bfd'"
# "stream" alone: the next number, the data of the address named last;
# old models' "stream N +0" read the same.
sa='#reftrace loops 1\nfetch 0x40\nstream\nvalues 7 9\nstream fetch -c\nstream\nvalues 5\norder\nvalues 1 2 3 4 2\n'
check "stream lines without a number or an address: the next, at the address named last" \
	"printf '$sa' | pli -x | tr '\\n' ' ' | grep -qx '64 7 52 5 9 ' &&
	 printf '$sa' | sed '3s/.*/stream 2 +0/; 6s/.*/stream 4/' | pli -x | tr '\\n' ' ' | grep -qx '64 7 52 5 9 '"
check_fail "a stream line without an address before any" 1 "^pli: <stdin>:2: want an instruction address \\(0x hex, or \\+hex or -hex from the last\\) or '-', not the end of the line\$" \
	"printf '#reftrace loops 1\\nstream\\nvalues 1\\norder\\nvalues 1\\n' | pli -x"
check_fail "a stream line's number that is not the next" 1 "^pli: <stdin>:3: want 'stream 2' and what it is\$" \
	"printf '$sa' | sed '3s/.*/stream 3/' | pli -x"
# Run-once code, written by hand: each instruction's fetches on a fetch
# line, its data on a "stream" line alone, and back exactly.
printf 'I  00400000,3\n L 00600000,8\nI  00400003,4\n S 00600010,8\nI  00400007,2\nI  00400009,5\n M 1ffefff0,4\n' >$tmp/ro.lk
check "run-once code: a fetch line and 'stream' alone an instruction with data, and back exactly" \
	"pli $tmp/ro.lk >$tmp/ro.pli && grep -c '^stream\$' $tmp/ro.pli | grep -qx 3 && ! grep -q '^stream .' $tmp/ro.pli &&
	 grep -qx 'fetch +4 +2' $tmp/ro.pli && trfilter $tmp/ro.lk | awk '!/^#/ { print \$3 }' >$tmp/ro.addr &&
	 test \$(wc -l <$tmp/ro.addr) -eq 7 && pli -x $tmp/ro.pli | cmp -s - $tmp/ro.addr"
# A stream with a loop keeps its number and its address in 0x hex: the
# lines a reader looks up.
check "streams with a loop keep their number and 0x address; the others have neither" \
	"awk '/^(order|jumps)\$/ { exit } /^stream/ { s = \$0 } /^for / && s != \"\" { if (s !~ /^stream [0-9]+ 0x/) bad++; s = \"\"; l++ }
	      /^stream\$/ { b++ } END { exit !(l > 100 && b > 1000 && bad == 0) }' $tmp/bsort-reversed.pli"
# -z: the model gzipped, read back by pli -x as it is; a whole trace's
# model so is smaller than xz -9 of its addresses (its text is not:
# bench/RESULTS.plistreams says where its bytes go).
for name in bsort-reversed kernels; do
	check "pli -z: $name whole, gzip, back exactly, smaller than xz -9 of the addresses" \
	    "pli -z -o $tmp/$name.pli.gz $D/$name.lk.gz && gzip -dc $tmp/$name.pli.gz | cmp -s - $tmp/$name.pli &&
	     pli -z $D/$name.lk.gz | gzip -dc | cmp -s - $tmp/$name.pli &&
	     pli -x $tmp/$name.pli.gz | cmp -s - $tmp/$name.addr &&
	     a=\$(wc -c <$tmp/$name.pli.gz); x=\$(xz -9 <$tmp/$name.addr | wc -c); test \$a -gt 1000 && test \$a -lt \$x"
done
# A terminal is a person: -z writes no gzip to it (t/0200's other
# programs: util's one refusal), though -o names a file.
check "pli -z to a terminal: refused, status 1; with -o file: written" \
	"script -qec 'timeout --foreground -k 5 120 pli -z $D/kernels.lk.gz; echo status \$?' /dev/null </dev/null >$tmp/tty.out;
	 grep -q '^pli: compressed output is not written to a terminal: give -o file, or a pipe' $tmp/tty.out &&
	 grep -q 'status 1' $tmp/tty.out && test \$(wc -c <$tmp/tty.out) -lt 300 &&
	 script -qec 'timeout --foreground -k 5 120 pli -z -o $tmp/tty.gz $D/kernels.lk.gz; echo status \$?' /dev/null </dev/null >$tmp/tty.out &&
	 grep -q 'status 0' $tmp/tty.out && test -s $tmp/kernels.pli && gzip -dc $tmp/tty.gz | cmp -s - $tmp/kernels.pli"
# --stats sizes the addresses as lines (the text pli -x writes) and
# their gzip member at zlib's level 6, counted, not written: the same
# lines deflated by python's zlib, and gzip -6 within 3%.
check "--stats: text_bytes the addresses' lines, gzip_bytes their level-6 gzip (python's zlib; gzip -6 within 3%)" \
	"pli --stats $D/kernels.lk.gz >$tmp/k.stats && s=\$(awk '!/^#/ { print \$8 }' $tmp/k.stats) &&
	 test \$(awk '!/^#/ { print \$6 }' $tmp/k.stats) -eq \$(wc -c <$tmp/kernels.addr) &&
	 z=\$(python3 -c 'import sys, zlib; c = zlib.compressobj(6, zlib.DEFLATED, 31); d = sys.stdin.buffer.read(); print(len(c.compress(d) + c.flush()))' <$tmp/kernels.addr) &&
	 g=\$(gzip -6 <$tmp/kernels.addr | wc -c) && test \$z -gt 1000 && test \$s -eq \$z &&
	 test \$((100 * (g - s))) -le \$((3 * g)) && test \$((100 * (s - g))) -le \$((3 * g))"
check_fail "-z with --stats is a usage error" 2 "^pli: -z with --stats: --stats writes a table, not a model\$" \
	"pli -z --stats $D/matmul-standard.lk.gz"
# Memory: the 18153 streams of a whole trace, each holding its text until
# the end, in 26 MB (184 MB when each had glibc's 8 KB memory stream
# from its first value; 1 GB under the sanitizers, whose allocator
# touches what it hands out).
lim=65536; [ -z "${RT_SMALL:-}" ] || lim=1048576
check "pli models a whole trace of 18153 streams in under 64 MB" \
	"/usr/bin/time -f %M -o '$tmp/rss' pli $D/bsort-reversed.lk.gz >$tmp/rss.pli &&
	 test \$(grep -c '^stream' $tmp/rss.pli) -gt 1000 && test \$(cat '$tmp/rss') -lt $lim"
