#!/bin/sh
# Bad input never crashes a reader: mutated inputs of every format (byte
# flips, truncations, garbage lines) end with status 0, or 1 and an error
# naming the file. Under make asan a sanitizer report exits 86.
. "$(dirname "$0")/lib.sh"
plan 16

zcat "$D/bsort-reversed.lk.gz" | head -4000 >"$tmp/s.lk"
trfilter "$tmp/s.lk" >"$tmp/s.txt"
trfilter -b "$tmp/s.lk" >"$tmp/s.rtb"
trfilter -e "$D/bsort" -l "$tmp/s.lk" >"$tmp/s.loc.txt"
trfilter -b "$tmp/s.loc.txt" >"$tmp/s.loc.rtb"
printf 'START PID 1\nS 7ff000490 8 1 S main LV x\nL 000601070 4 2 G f GS a[0].b\nX THREAD EXIT 0\nM 7ff000498 4 1 S main\n' >"$tmp/s.gl"
printf '0 1000\n1 2004 8\n2 400000\n4 0\n3 30\n' >"$tmp/s.din"
printf 'r 1000 8\nw 2004 8\ni 400000 4\nc 0 0\nm 30 1\nv 1000 40\n' >"$tmp/s.xdin"
printf 'L /a/b.cpp:47\nR 0x7000ffa0\nW 0x7000ffa2 4\nL c.c:1\nR 0x10\n' >"$tmp/s.mtv"
printf '4096\n0x2000\n17\n' >"$tmp/s.addr"

# mutate SEED N: N variants of SEED as $tmp/m.SEED.K
cat >"$tmp/mutate.pl" <<'P'
my ($in, $n, $seed) = @ARGV;
srand($seed);
open(my $f, '<:raw', $in) or die; local $/; my $s = <$f>; close $f;
for my $k (1 .. $n) {
	my $t = $s;
	my $m = $k % 4;
	if ($m == 0) {		# flip bytes
		for (1 .. 1 + int(rand(6))) { my $i = int(rand(length $t)); substr($t, $i, 1) = chr(int(rand(256))); }
	} elsif ($m == 1) {	# truncate
		$t = substr($t, 0, int(rand(length $t)));
	} elsif ($m == 2) {	# a garbage line
		my $i = index($t, "\n", int(rand(length $t))); $i = length $t if $i < 0;
		substr($t, $i, 0) = "\n" . join('', map { chr(32 + int(rand(95))) } 1 .. int(rand(40)));
	} else {		# bytes past the binary header, or anywhere
		my $i = length($t) > 16 ? 16 + int(rand(length($t) - 16)) : 0;
		substr($t, $i, 1 + int(rand(4))) = pack('C*', map { int(rand(256)) } 1 .. 1 + int(rand(4)));
	}
	open(my $o, '>:raw', "$in.m$k") or die; print $o $t; close $o;
}
P
# Under make asan the 1800 runs below check memory errors, not leaks: a
# leak check costs 80 ms a process, two thirds of this file's time, and
# the readers' leaks on bad input are the fuzz targets' to find.
leaks=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# named NAME: a line of standard input says "trfilter: ...NAME": grep -q
# "^trfilter: .*NAME" in the shell's own read and case, a process less
# for each of the 1800 runs (NAME's dots match only dots here)
named() {
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in "trfilter: "*"$1"*) return 0 ;; esac
	done
	return 1
}
for s in s.lk s.txt s.rtb s.loc.txt s.loc.rtb s.gl s.din s.xdin s.mtv s.addr; do
	perl "$tmp/mutate.pl" "$tmp/$s" 60 7 || exit 1
	bad= errs=0
	for k in $(seq 1 60); do
		f=$tmp/$s.m$k
		for opt in "" -k -b; do
			ASAN_OPTIONS=$leaks trfilter $opt "$f" >/dev/null 2>"$tmp/err"
			st=$?
			case $st in
			0) ;;
			1) errs=$((errs + 1))
			   named "$s.m$k" <"$tmp/err" || bad="$bad $k$opt(no file named)" ;;
			*) bad="$bad $k$opt(status $st)" ;;
			esac
		done
	done
	check "$s: 60 mutants x 3 option sets end cleanly ($errs named errors)" \
	    "test -z '$bad' && test $errs -gt 0 || { echo 'bad:$bad'; false; }"
done

# An event line with a field too many or too few is malformed, not a
# comment: the flush, region, mark or object would be lost.  With -k, a
# warning and the rest of the trace.
H='#reftrace trace 1 seq op addr size tid pc loc func var'
for l in '#flush 1 0x1000' '#region 40 arr 0x1000 64' '#mark 45 a b' '#object 0 /bin/true' '#inval 3 0x40 8 9'; do
	w=${l%% *}
	check_fail "'$l': an error at line 2 that says what a ${w#\#} line wants" 1 \
	    "^trfilter: <stdin>:2: ${w#\#} line of [0-9]+ fields: want $w seq " \
	    "printf '%s\n%s\n0 R 0x10 4\n' '$H' '$l' | trfilter"
done
check_same "a comment that only begins with an event's word stays a comment; -k skips a bad event" \
    "printf '%s\n#marks are fine\n#mark 45 a b\n0 R 0x10 4\n' '$H' | trfilter -k 2>/dev/null" \
    "printf '%s\n0 R 0x10 4 - - - - -\n' '$H'"
