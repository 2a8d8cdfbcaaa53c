#!/bin/sh
# An output that names an input is refused before anything is read or
# written: the input stays as it was (before, trfilter -o in in cut the
# trace to nothing with status 0).  Each program's output, the input named
# directly and through a symbolic link.  Then outputs written safely:
# renamed into place when complete, nothing left by a signal or a failure.
. "$(dirname "$0")/lib.sh"
plan 21

trfilter -n 0-2999 "$D/fir2dim.lk.gz" >"$tmp/in"
tswindow -w 8 "$tmp/in" >"$tmp/pts"
persist "$tmp/pts" >"$tmp/pers" 2>/dev/null
circcoord "$tmp/pers" >"$tmp/co" 2>/dev/null

# refused: status 2 with the message, and the input the same bytes after
refused() {	# desc input cmd...
	desc=$1 in=$2
	shift 2
	cp "$in" "$tmp/copy"
	check_fail "$desc: refused, the input unchanged" 2 \
	    "^[a-z]+: .*: an input, not written over: name another output\$" \
	    "$*; st=\$?; cmp -s $in $tmp/copy || exit 9; exit \$st"
}
ln -s "$tmp/in" "$tmp/link"
refused "trfilter -o the input" "$tmp/in" trfilter -o "$tmp/in" "$tmp/in"
refused "trsample -o a link to the input" "$tmp/in" trsample -i 2 -o "$tmp/link" "$tmp/in"
refused "cachesim --map the input" "$tmp/in" cachesim -c 4K:2:64 --map "$tmp/in" "$tmp/in"
refused "reusedist -o the input" "$tmp/in" reusedist -o "$tmp/in" "$tmp/in"
refused "tswindow -o the input" "$tmp/in" tswindow -o "$tmp/in" "$tmp/in"
refused "persist -o the input" "$tmp/pts" persist -o "$tmp/pts" "$tmp/pts"
refused "circcoord -o the input" "$tmp/pers" circcoord -o "$tmp/pers" "$tmp/pers"
refused "plotspiral -o the input" "$tmp/co" plotspiral -o "$tmp/co" "$tmp/co"
check_same "an output that is another file is written: trfilter -o" \
    "trfilter -o $tmp/out $tmp/in && cat $tmp/out" "trfilter $tmp/in"

# Outputs written safely (#38 D2): under a temporary name beside the
# file, renamed once complete; an interrupted run (SIGINT, SIGTERM,
# SIGHUP) or a failed one leaves nothing under the name, and a file that
# was there stays as it was.  The input stalls on a pipe that sleeps,
# the program is signalled mid-run.
O=$tmp/o
mkdir "$O"
# (12 s: longer than run waits for the file, 10 s, which a loaded machine
# running the sanitized build needed more than 3 s for)
stall() { { cat "$tmp/in"; sleep 12; }; }
# A job started in the background of a script ignores SIGINT, and under
# nohup SIGHUP (the programs keep an ignored signal ignored): CMD is given
# the default dispositions back, as a job in the foreground has them.
printf '%s\n' '#!/usr/bin/env python3' 'import os, signal, sys' \
    'for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM): signal.signal(s, signal.SIG_DFL)' \
    'os.execvp(sys.argv[1], sys.argv[1:])' >"$tmp/fg"
chmod +x "$tmp/fg"
# run SIG CMD...: CMD (its input the stalled pipe) signalled once a file
# is made in $O (or after 10 s); what is in $O then and after, one name a
# line (a temporary as TMP), and its status
run() {
	sig=$1
	shift
	was=$(ls -A "$O" | wc -l)
	stall | "$tmp/fg" "$@" & pid=$!
	i=0
	while [ $i -lt 100 ] && [ "$(ls -A "$O" | wc -l)" -le "$was" ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.2
	ls -A "$O" | sed 's/^\..*\.[A-Za-z0-9]\{6\}$/TMP/'
	kill -"$sig" $pid
	wait $pid 2>/dev/null
	echo "status $?"
	ls -A "$O"
}
check_same "trfilter -b -o, SIGINT mid-run: a temporary beside it, then no file at all" \
    "run INT trfilter -b -o $O/t.rtb" "echo TMP; echo status 130"
echo old >"$O/t.rtb"
check_same "SIGTERM: the file that was there stays as it was" \
    "run TERM trfilter -b -o $O/t.rtb; cat $O/t.rtb" "echo TMP; echo t.rtb; echo status 143; echo t.rtb; echo old"
rm -f "$O/t.rtb"
check_same "cachesim -o (a table), SIGHUP: no file left" \
    "run HUP cachesim -c 4K:2:64 -o $O/c.tab" "echo TMP; echo status 129"
mkdir "$tmp/T"
check_same "cachesim's OPT spool in TMPDIR: removed on SIGTERM" \
    "TMPDIR=$tmp/T run TERM cachesim -c 4K:2:64:opt -o $O/c.tab; ls -A $tmp/T" \
    "echo TMP; echo status 143"
check_same "... and on SIGINT" \
    "TMPDIR=$tmp/T run INT cachesim -c 4K:2:64:opt -o $O/c.tab; ls -A $tmp/T" \
    "echo TMP; echo status 130"
check_same "a run that ends: its file complete under its name, mode 0666 less the umask" \
    "(umask 027; trfilter -b -o $O/t.rtb $tmp/in) && ls -l $O/t.rtb | cut -c1-10 && trfilter $O/t.rtb" \
    "echo -rw-r-----; cat $tmp/in"
chmod 600 "$O/t.rtb"
check_same "a file written again keeps its mode" \
    "trfilter -b -o $O/t.rtb $tmp/in && ls -l $O/t.rtb | cut -c1-10" "echo -rw-------"
check_fail "a failed run (an input missing) leaves no file, the old one as it was" 1 \
    "nosuch: No such file" \
    "echo old >$O/f.txt; trfilter -o $O/f.txt $tmp/in $tmp/nosuch; st=\$?; test \"\$(cat $O/f.txt)\" = old || exit 9; exit \$st"
check_same "a failed run's binary standard output has no trailer: read as truncated" \
    "trfilter -b $tmp/in $tmp/nosuch 2>/dev/null | trfilter 2>&1 >/dev/null | sed 's/at byte [0-9]*/at byte B/'" \
    "echo \"trfilter: <stdin>: truncated trace: the input ends at byte B, after \$(grep -v -c '^#reftrace' $tmp/in) items, without its trailer\""
check_same "a device is written in place (-o /dev/null), a link to a file not made yet makes it" \
    "trfilter -o /dev/null $tmp/in && ls -l /dev/null | cut -c1 && ln -s made.txt $O/link && trfilter -o $O/link $tmp/in && cat $O/made.txt" \
    "echo c; cat $tmp/in"
check_same "a file named by its descriptor is written in place: -o /dev/stdout, and a removed file's /proc/self/fd/N (no temporary, no file made under its link's text)" \
    "mkdir $O/D && trfilter -o /dev/stdout $tmp/in >$O/D/out && (exec 3>$O/D/gone && rm $O/D/gone && trfilter -o /proc/self/fd/3 $tmp/in && cat /proc/self/fd/3) && cat $O/D/out && ls -A $O/D" \
    "cat $tmp/in $tmp/in; echo out"
# U6: 1024 partitions under 256 descriptors: the 250-odd opened removed
mkdir "$O/P"
check_fail "trfilter -P 1024 under ulimit -n 256: said, exit 1, no partial file left" 1 \
    "Too many open files" \
    "(ulimit -n 256; trfilter -P 1024 -o $O/P/p%d.rtb $tmp/in); st=\$?; test -z \"\$(ls -A $O/P)\" || exit 9; exit \$st"
