#!/bin/sh
# Every program's command line: --help and the man page name the same
# options, one letter means one thing across the suite, -V, usage errors,
# a closed pipe.
. "$(dirname "$0")/lib.sh"
M=$(cd "$(dirname "$0")/../man" && pwd)
V=$(sed -n 's/^#define RT_VERSION "\(.*\)"/\1/p' "$(dirname "$0")/../lib/reftrace.h")
progs=$(cd "$M" && ls *.1 | sed 's/\.1$//')
np=$(echo $progs | wc -w)
plan $((np * 8 + 10))

# The options of --help: "-x" for a letter, "--name" for a long one alone.
helpopts() {
	awk '/^  -[^-]/ { o = substr($1, 1, 2); print o; next }
	     /^      --/ { print $1 }' | sort
}
# The options of the man page's SYNOPSIS, the same way.
manopts() {
	awk '/^\.Sh SYNOPSIS/ { s = 1; next } /^\.Sh/ { s = 0 }
	     s && /Fl / {
		for (i = 1; i <= NF; i++) if ($i == "Fl" || $i == ".Fl") {
			f = $(i + 1)
			nx = i + 2 <= NF ? $(i + 2) : ""
			if (f ~ /^-/) print "-" f
			else if (length(f) == 1 || nx == "Ar" || nx == "Cm" || nx ~ /^Ns/)
				print "-" substr(f, 1, 1)
			else for (j = 1; j <= length(f); j++) print "-" substr(f, j, 1)
		}
	     }' "$1" | sort -u
}

for p in $progs; do
	$p --help >"$tmp/$p.help" 2>"$tmp/$p.herr"
	st=$?
	check "$p --help: status 0, usage on standard output, nothing on standard error" \
		"test $st = 0 && head -1 $tmp/$p.help | grep -q '^usage: $p ' && test ! -s $tmp/$p.herr"
	helpopts <"$tmp/$p.help" | sort -u >"$tmp/$p.h"
	manopts "$M/$p.1" >"$tmp/$p.m"
	check "$p: --help has options and a line of help for each" \
		"test \$(wc -l <$tmp/$p.h) -ge 4 && ! awk '/^  -/ && NF < 3' $tmp/$p.help | grep -q ."
	check_same "$p: the man page's SYNOPSIS and --help name the same options" \
		"cat $tmp/$p.m" "cat $tmp/$p.h"
	# every long name of --help is in the man page
	awk '/^  -/ { for (i = 1; i <= 2; i++) if ($i ~ /^--/) { sub(/,$/, "", $i); print $i } }' \
	    "$tmp/$p.help" >"$tmp/$p.long"
	check "$p: the man page describes every long option" \
		"while read -r l; do grep -q \"Fl -\${l#--}\\b\" $M/$p.1 || { echo \"missing \$l\"; exit 1; }; done <$tmp/$p.long; test -s $tmp/$p.long"
	check_same "$p -V: the version" "$p -V" "echo '$p $V'"
	check_fail "$p -Q: a bad option prints the usage, status 2" 2 "^usage: $p " "$p -Q </dev/null"
	check_fail "$p: an option without its argument, status 2" 2 "usage: $p " \
		"$p -o </dev/null"
done

# One letter, one meaning: a letter has the same long name wherever it is.
for p in $progs; do
	awk -v p=$p '/^  -[^-], --/ { sub(/,$/, "", $1); print $1, $2, p }' "$tmp/$p.help"
done | sort >"$tmp/letters"
check "every letter has one long name across the suite" \
	"awk '{ n[\$1]++; if (!((\$1, \$2) in seen)) { seen[\$1, \$2] = 1; k[\$1]++ } } END { for (l in k) if (k[l] > 1) { print l; bad = 1 } exit bad }' $tmp/letters"
check "and there are letters shared by several programs (-o in all)" \
	"test \$(grep -c '^-o --output ' $tmp/letters) = $np"
# a long name is not the long name of two letters either
check "a long name belongs to one letter" \
	"awk '{ if ((\$2 in l) && l[\$2] != \$1) bad = 1; l[\$2] = \$1 } END { exit bad }' $tmp/letters"

# A closed pipe ends a program quietly with status 0, whatever it writes.
L=$D/matmul-standard.lk.gz
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	for (i = 0; i < 30000; i++) printf "%d R 0x%x 4\n", i, 4096 + 4 * (i % 12) }' >"$tmp/per.txt"
tswindow "$tmp/per.txt" >"$tmp/per.pts"
persist "$tmp/per.pts" >"$tmp/per.per"
circcoord "$tmp/per.per" >"$tmp/per.cc"
awk 'BEGIN { print "#reftrace loops 1"; print "for t1 = 0 to 999999 {"; print "  emit 4*t1"; print "}" }' >"$tmp/big.pli"
pipecmd() {
	case $1 in
	trfilter) echo "trfilter $L" ;;
	trsample) echo "trsample -b $L" ;;
	cachesim) echo "cachesim -d $L" ;;
	reusedist) echo "reusedist -d $L" ;;
	tswindow) echo "tswindow $L" ;;
	persist) echo "persist -O lower-distance $tmp/per.pts" ;;
	circcoord) echo "circcoord $tmp/per.per" ;;
	plotspiral) echo "plotspiral $tmp/per.cc" ;;
	pli) echo "pli -x $tmp/big.pli" ;;
	rtcc) echo "rtcc --help" ;;
	*) echo "$1 $L" ;;
	esac
}
for p in $progs; do
	c=$(pipecmd $p)
	check "$p: a closed pipe ends it quietly, status 0 ($c | head -c 10)" \
		"( $c 2>$tmp/pipe.err; echo \$? >$tmp/pipe.st ) | head -c 10 >/dev/null; test \$(cat $tmp/pipe.st) = 0 && test ! -s $tmp/pipe.err"
done

# A terminal is a person: binary or compressed output is not written to
# it (as gzip refuses), and a program reading a terminal says it waits.
# script(1) gives the program a pseudo-terminal.  timeout in the
# foreground: in a process group of its own the program is stopped
# reading the terminal, and its end rests on timeout's TERM and CONT
# (stop 50's CI hung there 900 s); -k: KILL if TERM is not enough.
L=$D/bsort-reversed.lk.gz
for c in "trfilter -b $L" "trsample -b $L" "trfilter -z $L" "cachesim --misses 1 -b -c 1K:1:64 $L"; do
	check "$c to a terminal: refused, status 1" \
	    "script -qec '$c; echo status \$?' /dev/null </dev/null >$tmp/tty.out;
	     grep -q 'output is not written to a terminal: give -o file, or a pipe' $tmp/tty.out &&
	     grep -q 'status 1' $tmp/tty.out && test \$(wc -c <$tmp/tty.out) -lt 300"
done
check "trfilter -b into a pipe on a terminal: written" \
    "script -qec 'trfilter -b $L | wc -c' /dev/null </dev/null | grep -q '^ *[1-9][0-9]*'"
check "a terminal as standard input: said, once" \
    "script -qec 'timeout --foreground -k 5 2 cachesim -c 1K:1:64' /dev/null </dev/null >$tmp/tty.out;
     test \$(grep -c 'reading standard input, a terminal: name a file or pipe one in' $tmp/tty.out) -eq 1"
check "standard input not a terminal: nothing said" \
    "cachesim -c 1K:1:64 </dev/null >/dev/null 2>$tmp/e && test ! -s $tmp/e"
