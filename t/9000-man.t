#!/bin/sh
# The man pages: lint-clean where mandoc is installed, and every EXAMPLES
# command runs as written, from the repository root, on the bundled traces.
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

# The examples run as written from the repository root: in a directory
# of their own whose t/ and contrib/ are the repository's, so that what
# they write lands there.
R=$(cd "$(dirname "$0")/.." && pwd)
mkdir "$tmp/ex"
ln -s "$R/t" "$tmp/ex/t"
ln -s "$R/contrib" "$tmp/ex/contrib"
while IFS='	' read -r page cmd; do
	case $cmd in
	*rttrace*) command -v valgrind >/dev/null || { skip "$page: valgrind needed: $cmd"; continue; } ;;
	*gnuplot*) command -v gnuplot >/dev/null || { skip "$page: gnuplot needed: $cmd"; continue; } ;;
	*cg_annotate*) command -v cg_annotate >/dev/null || { skip "$page: valgrind needed: $cmd"; continue; } ;;
	esac
	check "$page: $cmd" "cd $tmp/ex && ($cmd) >/dev/null 2>$tmp/ex.err && test ! -s $tmp/ex.err"
done <"$tmp/examples"
