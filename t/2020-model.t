#!/bin/sh
# pli -x: the loop model's grammar, strictly (every token accounted for,
# the line named), and its limits (nesting) as errors before any work.
. "$(dirname "$0")/lib.sh"
plan 5

# nest D [BOUND]: D loops of indices 0 to BOUND (0) around "emit 5"
nest() {
	awk -v d="$1" -v b="${2:-0}" 'BEGIN { print "#reftrace loops 1"
	    for (i = 1; i <= d; i++) printf "%*sfor t%d = 0 to %s {\n", 2 * i - 2, "", i, b
	    printf "%*semit 5\n", 2 * d, ""
	    for (i = d; i >= 1; i--) printf "%*s}\n", 2 * i - 2, "" }'
}

# Nesting: 16 deep is read and run, deeper is refused at the loop that
# goes past the limit, with the limit, whatever the depth (32 asked for
# 2^32 coefficients of each statement).
check "16 loops deep: read and run" "nest 16 | pli -x | grep -qx 5"
check_fail "17 loops deep: the 17th loop's line and the limit" 1 \
	"^pli: <stdin>:18: loops nested more than 16 deep\$" "nest 17 | pli -x"
check_fail "32 loops deep: the same, not out of memory" 1 \
	"^pli: <stdin>:18: loops nested more than 16 deep\$" "nest 32 | pli -x"
# every index of 16 in one monomial: t1*...*t16 is 1 at the last of the
# 2^16 values alone, t16 is 1 at every other one: 2^16 values, sum 2^15 + 1
check "a monomial of all 16 indices: 65536 values, their sum 32769" \
	"nest 16 1 | sed 's/emit 5/emit t1*t2*t3*t4*t5*t6*t7*t8*t9*t10*t11*t12*t13*t14*t15*t16 + t16/' |
	    pli -x | awk '{ n++; s += \$1 } END { exit !(n == 65536 && s == 32769) }'"
check_fail "--depth past the limit is a usage error that says the limit" 2 \
	"^pli: --depth 17: want a depth from 1 to 16\$" "pli --depth 17 </dev/null"
