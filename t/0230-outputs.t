#!/bin/sh
# An output that names an input is refused before anything is read or
# written: the input stays as it was (before, trfilter -o in in cut the
# trace to nothing with status 0).  Each program's output, the input named
# directly and through a symbolic link.
. "$(dirname "$0")/lib.sh"
plan 9

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
