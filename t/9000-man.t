#!/bin/sh
# The man pages: lint-clean where mandoc is installed, and every EXAMPLES
# command runs as written on the bundled traces.
. "$(dirname "$0")/lib.sh"
M=$(cd "$(dirname "$0")/../man" && pwd)
C=$(cd "$(dirname "$0")/../contrib" && pwd)

# The example commands: literal lines of the EXAMPLES section.
for f in "$M"/*.[157]; do
	awk -v f="$(basename "$f")" '/^\.Sh/ {ex = ($2 == "EXAMPLES")}
	    ex && /^\.Bd -literal/ {lit = 1; next} /^\.Ed/ {lit = 0}
	    ex && lit {gsub(/\\e/, "\\"); print f "\t" $0}' "$f"
done >"$tmp/examples"
plan $(($(wc -l <"$tmp/examples") + 2))

if command -v mandoc >/dev/null; then
	check "mandoc -Tlint is clean" "mandoc -Tlint -Wwarning $M/*.1 $M/*.5 $M/*.7"
else
	skip "mandoc not installed"
fi
check "there are examples" "test -s $tmp/examples"

# The files the examples name.
mkdir "$tmp/ex"
cp "$D/bsort" "$tmp/ex/bsort"
cp "$D/bsort-reversed.lk.gz" "$tmp/ex/bsort.lk.gz"
cp "$D/matmul-standard.lk.gz" "$tmp/ex/matmul.lk.gz"
cp "$D/matmul4-standard.lk.gz" "$tmp/ex/matmul4.lk.gz"
cp "$D/matmul4" "$tmp/ex/matmul4"
cp "$D/fir2dim.lk.gz" "$tmp/ex/fir2dim.lk.gz"
cp "$D/fir2dim" "$tmp/ex/fir2dim"
mkdir "$tmp/ex/contrib" && cp "$C/rttrace" "$C/mrc.gp" "$tmp/ex/contrib/"
while IFS='	' read -r page cmd; do
	case $cmd in
	*rttrace*) command -v valgrind >/dev/null || { skip "$page: valgrind needed: $cmd"; continue; } ;;
	*gnuplot*) command -v gnuplot >/dev/null || { skip "$page: gnuplot needed: $cmd"; continue; } ;;
	esac
	check "$page: $cmd" "cd $tmp/ex && ($cmd) >/dev/null 2>$tmp/ex.err && test ! -s $tmp/ex.err"
done <"$tmp/examples"
