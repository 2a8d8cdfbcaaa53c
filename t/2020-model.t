#!/bin/sh
# pli -x: the loop model's grammar, strictly (every token accounted for,
# the line named), and its limits (nesting) as errors before any work.
. "$(dirname "$0")/lib.sh"
plan 26

# nest D [BOUND]: D loops of indices 0 to BOUND (0) around "emit 5"
nest() {
	awk -v d="$1" -v b="${2:-0}" 'BEGIN { print "#reftrace loops 1"
	    for (i = 1; i <= d; i++) printf "%*sfor t%d = 0 to %s {\n", 2 * i - 2, "", i, b
	    printf "%*semit 5\n", 2 * d, ""
	    for (i = d; i >= 1; i--) printf "%*s}\n", 2 * i - 2, "" }'
}

# The grammar: every token is part of its statement, or the line is
# named with the token left over (before: emit 1 2 emitted 3, a bound of
# "1 2" ran 4 times, t1*t1 was t1, "{garbage" and "} junk" passed).
m() { printf '#reftrace loops 1\n'; printf "$@"; }
check_fail "emit 1 2: an error, not 3" 1 \
	"^pli: <stdin>:2: want '\\+', '-' or the end of the line, not '2'\$" "m 'emit 1 2\\n' | pli -x"
check_fail "a bound of '1 2': an error, not 4 iterations" 1 \
	"^pli: <stdin>:2: want '\\+', '-' or '\\{', not '2'\$" "m 'for t1 = 0 to 1 2 {\\n  emit t1\\n}\\n' | pli -x"
check_fail "garbage after '{'" 1 "^pli: <stdin>:2: want the end of the line after '\\{', not 'garbage'\$" \
	"m 'for t1 = 0 to 1 {garbage\\n  emit t1\\n}\\n' | pli -x"
check_fail "garbage after '}'" 1 "^pli: <stdin>:4: want the end of the line after '}', not 'junk'\$" \
	"m 'for t1 = 0 to 1 {\\n  emit t1\\n} junk\\n' | pli -x"
check_fail "t1*t1: an error, not t1" 1 "^pli: <stdin>:3: 't1' twice in a term" \
	"m 'for t1 = 0 to 2 {\\n  emit t1*t1\\n}\\n' | pli -x"
check "blanks and tabs between any tokens, a sign first: 7 - 3*t1 for t1 = 0, 1, 2" \
	"m 'for t1=0 to 2{\\n\\temit\\t- 3 * t1 +7 \\n}\\t\\n' | pli -x | tr '\\n' ' ' | grep -qx '7 4 1 '"
check "values between -2^63 and 2^63 - 1, a coefficient up to 2^64 - 1 (modulo 2^64)" \
	"m 'values -9223372036854775808 +9223372036854775807\\nemit 18446744073709551615\\n' | pli -x | tr '\\n' ' ' | grep -qx -- '-9223372036854775808 9223372036854775807 -1 '"

# A NUL byte is a malformed line (before: emit 67<NUL>221456 emitted 67),
# a comment's or a blank line's too; what came before is expanded.
check_fail "a NUL byte in an emit: the line, not 67" 1 "^pli: <stdin>:3: a NUL byte in the line\$" \
	"m 'values 1\\nemit 67\\000221456\\n' | pli -x >$tmp/nul.x"
check "and the values before it are written, those of that line not" "test \"\$(cat $tmp/nul.x)\" = 1"
check_fail "a NUL byte in a comment" 1 "^pli: <stdin>:2: a NUL byte in the line\$" \
	"m '# a \\000 comment\\nemit 5\\n' | pli -x"
check_fail "a NUL byte in a loop: its line, the loop not run" 1 "^pli: <stdin>:4: a NUL byte in the line\$" \
	"m 'values 2\\nfor t1 = 0 to 1 {\\n  emit\\000 t1\\n}\\nvalues 3\\n' | pli -x >$tmp/nulloop.x"
check "only the values before the loop are written" "test \"\$(cat $tmp/nulloop.x)\" = 2"
# a line longer than the readers' 1 MiB ends the model, named (4 MiB: the
# reader checks the length only while it has no newline in its buffer)
check_fail "a line of more than 1 MiB: an error at it" 1 "^pli: <stdin>:3: line longer than 1048576 bytes\$" \
	"{ m 'values 1\\n'; printf 'emit '; head -c 4200000 /dev/zero | tr -c 1 1; echo; } | pli -x >$tmp/long.x"
check "the values before it are written" "test \"\$(cat $tmp/long.x)\" = 1"

# Work without output is bounded (before: these ran for ever, emitting
# nothing).  timeout only guards against a hang here; the figures are
# not timed.
T=; command -v timeout >/dev/null && T="timeout -k 5 300"
check "a loop with nothing to emit is not run: 2^63 iterations, nothing, status 0" \
	"m 'for t1 = 0 to 9223372036854775807 {\\n  for t2 = 0 to 5 {\\n  }\\n  values\\n}\\nvalues 3\\n' | $T pli -x >$tmp/empty.x && test \"\$(cat $tmp/empty.x)\" = 3"
check_fail "a loop whose inner loop runs 0 times: an error at the loop, after 2^24 statements without a value" 1 \
	"^pli: <stdin>:3: the loop here runs 16777216 statements without a value\$" \
	"m 'values 4\\nfor t1 = 0 to 9223372036854775807 {\\n  for t2 = 0 to -1 {\\n    emit 1\\n  }\\n}\\n' | $T pli -x >$tmp/idle.x"
check "the values before it are written" "test \"\$(cat $tmp/idle.x)\" = 4"
check "a triangle whose first inner loop runs 0 times is expanded: 0 0 1 0 1 2" \
	"m 'for t1 = 0 to 3 {\\n  for t2 = 0 to t1 - 1 {\\n    emit t2\\n  }\\n}\\n' | pli -x | tr '\\n' ' ' | grep -qx '0 0 1 0 1 2 '"

# -k skips lines of a trace or a series; a model is a program, whose
# malformed line ends it: -k with -x is a usage error (before: ignored),
# as is any option that builds models.
check_fail "-k with -x: a usage error that says why" 2 \
	"^pli: -k with -x: a model is a program, a malformed line ends it\$" "m 'emit 1\\n' | pli -x -k"
check_fail "--stats with -x: a usage error" 2 \
	"^pli: --stats with -x: -x expands models and takes only -o\$" "m 'emit 1\\n' | pli --stats -x"
check_fail "--block 8 with -x: a usage error named by its letter" 2 \
	"^pli: -B with -x: -x expands models and takes only -o\$" "m 'emit 1\\n' | pli -x --block 8"

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
