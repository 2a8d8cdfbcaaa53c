#!/bin/sh
# contrib/cgparity: a program under lackey and under cachegrind the same
# way; cachesim --cachegrind of the trace equals cachegrind's summary, and
# a program that differs run to run is said to.
. "$(dirname "$0")/lib.sh"
plan 5
C=$(cd "$(dirname "$0")/../contrib" && pwd)
if ! command -v valgrind >/dev/null || ! command -v cc >/dev/null; then
	for i in 1 2 3 4 5; do skip "no valgrind or no C compiler"; done
	exit 0
fi
check_fail "no program: usage, status 2" 2 "^usage: cgparity" "$C/cgparity"
(cd "$C/examples" && cc -g -O0 -o "$tmp/bsort" bsort.c)
check "bsort: equal, status 0, at a geometry of our choosing" \
    "$C/cgparity -d $tmp/p -D 4K:2:64 -L 64K:8:64 $tmp/bsort reversed >$tmp/out && grep -q '^equal ' $tmp/out"
check_same "... the two summaries it printed are the files'" \
    "sed -n 's/^cachegrind: //p; s/^cachesim: *//p' $tmp/out" \
    "sed -n 's/^summary: //p' $tmp/p/cachegrind.out; cachesim --cachegrind --icache 32K:8:64 -c 4K:2:64 -c 64K:8:64 $tmp/p/trace.lk.gz | awk '!/^#/'"
cat >"$tmp/rnd.c" <<'EOF2'
#include <stdio.h>
int main(void) { unsigned char b[2] = { 0 }; volatile int x = 0; FILE *f = fopen("/dev/urandom", "rb");
	if (f) { fread(b, 1, 2, f); fclose(f); } for (int i = 0; i < b[0] * 256 + b[1]; i++) x += i; return 0; }
EOF2
cc -O0 -o "$tmp/rnd" "$tmp/rnd.c"
check "a program that reads random numbers: differ, status 1" \
    "$C/cgparity -d $tmp/r $tmp/rnd >$tmp/rout; test \$? = 1 && grep -q '^differ ' $tmp/rout"
check "... and it wrote the trace and cachegrind's file" "test -s $tmp/r/trace.lk.gz && test -s $tmp/r/cachegrind.out"
