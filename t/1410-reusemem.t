#!/bin/sh
# reusedist -N: a fixed-size sample holds its tables within a bound of the
# sample size alone, at any footprint and length (its own accounting,
# #memory, against the bound of reusedist(1)).
. "$(dirname "$0")/lib.sh"
plan 8

# f distinct 64-byte blocks, first each in turn, then uniform at random,
# n accesses in all: the footprint grows with f, the length with n
gen() {
	awk -v f="$1" -v n="$2" 'BEGIN {srand(7); print "#reftrace trace 1"
	    for (i = 0; i < n; i++) print i, "R", (i < f ? i : int(rand() * f)) * 64, 8}'
}
mem() { awk '/^#memory / {m = $2} END {if (m == "") exit 1; print m}'; }
# the bound for N blocks: 64K + 50 (N+1) (72 with time distances)
# + 16 (66 - m) 2^(m-1), 2^m the least power of two >= N and >= 256
bound() {
	awk -v n="$1" -v b="$2" 'BEGIN {m = 8; while (2 ^ m < n) m++
	    printf "%.0f\n", 65536 + b * (n + 1) + 16 * (66 - m) * 2 ^ (m - 1)}'
}
B=$(bound 1000 50)

gen 100000 200000 | reusedist -N 1000 -C | mem >"$tmp/m5" 2>&1
gen 100000 600000 | reusedist -N 1000 -C | mem >"$tmp/m5long" 2>&1
gen 1000000 2000000 | reusedist -N 1000 -C | mem >"$tmp/m6" 2>&1
echo "# -N 1000: bound $B; 10^5 blocks $(cat "$tmp/m5"), 3x as long $(cat "$tmp/m5long"), 10^6 blocks $(cat "$tmp/m6")"
check "10^5 blocks: #memory within the bound" "[ -s $tmp/m5 ] && [ \$(cat $tmp/m5) -le $B ]"
check "10^6 blocks: #memory within the bound" "[ -s $tmp/m6 ] && [ \$(cat $tmp/m6) -le $B ]"
check "three times as long, same blocks: the same #memory" "[ -s $tmp/m5 ] && cmp -s $tmp/m5long $tmp/m5"
check "ten times the blocks: no more #memory" "[ -s $tmp/m6 ] && [ \$(cat $tmp/m6) -le \$(cat $tmp/m5) ]"
check "-D time, 10^5 blocks: within its bound" \
    "m=\$(gen 100000 200000 | reusedist -D time -N 1000 --exact | mem) && [ \$m -le $(bound 1000 72) ]"
check "-N 10000, 10^6 blocks: within its bound" \
    "m=\$(gen 1000000 2000000 | reusedist -N 10000 | mem) && [ \$m -le $(bound 10000 50) ]"
gen 100000 200000 >"$tmp/t5"
check "-A says the same memory" \
    "[ -s $tmp/m5 ] && [ \"\$(reusedist -A -N 1000 $tmp/t5 | awk '/^memory/ {print \$2}')\" = \$(cat $tmp/m5) ]"
check_same "no #memory without -N (exact and -H tables unchanged)" \
    "reusedist -C $tmp/t5 | awk '/^#memory/ {n++} !/^#/ {h++} END {print h ? n + 0 : \"no table\"}'
     reusedist -H 0.1 --exact $tmp/t5 | awk '/^#memory/ {n++} !/^#/ {h++} END {print h ? n + 0 : \"no table\"}'" \
    "printf '0\n0\n'"
