#!/bin/sh
# make demo: every step runs and says nothing on standard error, what it
# says it wrote exists, and a program that fails anywhere fails the demo.
. "$(dirname "$0")/lib.sh"
progs="trfilter trsample cachesim reusedist tswindow persist circcoord plotspiral pli"
plan $((4 + $(echo $progs | wc -w)))
C=$(cd "$(dirname "$0")/../contrib" && pwd)
B=$(cd "$(dirname "$0")/../cmd" && pwd)

RT_DEMO=$tmp/demo sh "$C/demo.sh" >"$tmp/out" 2>"$tmp/err"
st=$?
check "the demo exits 0" "test $st -eq 0"
check "... with nothing on standard error" "test ! -s $tmp/err || { cat $tmp/err; false; }"
check "... and a cache-simulation row for both matrix multiplies" \
    "awk '/^  (standard|blocked) +L1 misses +[0-9]+ of [0-9]+ \\(ratio/ {n++} END {exit n != 2}' $tmp/out"
check "every file it says it wrote is there, not empty" \
    "grep '^written:' $tmp/out | grep -o '$tmp/demo/[A-Za-z0-9._-]*' >$tmp/files &&
     test \$(wc -l <$tmp/files) -ge 12 && while read f; do test -s \"\$f\" || { echo \"no \$f\"; exit 1; }; done <$tmp/files"
# A program of the demo replaced by one that fails: the demo fails too.
mkdir "$tmp/bin"
for p in $progs; do
	for q in $progs; do ln -sf "$B/$q" "$tmp/bin/$q"; done
	rm "$tmp/bin/$p"
	printf '#!/bin/sh\necho "%s: failing on purpose" >&2\nexit 1\n' "$p" >"$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
	check_fail "$p failing fails the demo" 1 "^$p: failing on purpose" \
	    "RT_BIN=$tmp/bin RT_DEMO=$tmp/d-$p sh $C/demo.sh"
done
