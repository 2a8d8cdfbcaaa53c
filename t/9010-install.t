#!/bin/sh
# make install: the installed pages and README name installed files only,
# and the installed pages' examples run as written from any directory,
# with nothing of the source tree.
. "$(dirname "$0")/lib.sh"
R=$(cd "$(dirname "$0")/.." && pwd)
P=$tmp/p
make -s -C "$R" install PREFIX="$P" >/dev/null 2>"$tmp/ierr"
st=$?
for f in "$P"/share/man/man*/*; do
	awk -v f="$(basename "$f")" '/^\.Sh/ {ex = ($2 == "EXAMPLES")}
	    ex && /^\.Bd -literal/ {lit = 1; next} /^\.Ed/ {lit = 0}
	    ex && lit {gsub(/\\e/, "\\"); print f "\t" $0}' "$f"
done >"$tmp/examples"
plan $(($(wc -l <"$tmp/examples") + 3))
check "make install PREFIX=...: status 0" "test $st = 0"
check "no installed page or README names the source tree's t/data/ or contrib/" \
    "! grep -l -e 't/data/[a-z]' -e 'contrib/' $P/share/man/man*/* $P/share/reftrace/README"
check "every installed file an installed page names is there (and they name some)" \
    "grep -ho '$P/[A-Za-z0-9._/-]*[A-Za-z0-9]' $P/share/man/man*/* | sort -u >$tmp/named &&
     test \$(wc -l <$tmp/named) -ge 10 && while read f; do test -e \"\$f\" || { echo \"no \$f\"; exit 1; }; done <$tmp/named"
mkdir "$tmp/ex"
while IFS='	' read -r page cmd; do
	case $cmd in
	*rttrace*) command -v valgrind >/dev/null || { skip "$page: valgrind needed: $cmd"; continue; } ;;
	*gnuplot*) command -v gnuplot >/dev/null || { skip "$page: gnuplot needed: $cmd"; continue; } ;;
	*cg_annotate*) command -v cg_annotate >/dev/null || { skip "$page: valgrind needed: $cmd"; continue; } ;;
	esac
	check "installed $page: $cmd" \
	    "cd $tmp/ex && (PATH=$P/bin:\$PATH; $cmd) >/dev/null 2>$tmp/ex.err && test ! -s $tmp/ex.err"
done <"$tmp/examples"
