# lib.sh: a tiny TAP helper for the shell tests.
#   plan N; check DESC CMD; check_same DESC CMD1 CMD2; check_fail DESC STATUS REGEX CMD
# Commands are strings run by the shell; $tmp is a scratch directory and
# $D the bundled traces.
set -u
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=$(cd "$(dirname "$0")/data" && pwd)
LC_ALL=C
export LC_ALL

# awk has no hex in POSIX: hex("0x1f") in any awk
HEX='function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }'

plan() { echo "1..$1"; }

_ok() {	# status desc
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

_show() { sed -n '1,15p' "$1" | sed 's/^/# /'; }

# A skip is counted where make check asks (RT_SKIPS), so that it shows
# in the summary and fails CI (RT_NOSKIP): no test passes by skipping.
skip() {
	n=$((n + 1))
	echo "ok $n # skip $1"
	[ -z "${RT_SKIPS:-}" ] || echo "$(basename "$0"): $1" >>"$RT_SKIPS"
}

# check DESC CMD: CMD exits 0.
check() {
	if (eval "$2") >"$tmp/.out" 2>&1; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# command: $2"; _show "$tmp/.out"; fi
}

# check_same DESC CMD1 CMD2: both succeed with the same output.
check_same() {
	if (eval "$2") >"$tmp/.a" 2>"$tmp/.ae" && (eval "$3") >"$tmp/.b" 2>"$tmp/.be" &&
	    cmp -s "$tmp/.a" "$tmp/.b"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# got: $2"; _show "$tmp/.ae"
		diff "$tmp/.a" "$tmp/.b" >"$tmp/.d"; _show "$tmp/.d"; fi
}

# check_fail DESC STATUS REGEX CMD: CMD exits STATUS with REGEX on stderr.
check_fail() {
	(eval "$4") >"$tmp/.o" 2>"$tmp/.e"
	st=$?
	if [ "$st" -eq "$2" ] && grep -E -q -e "$3" "$tmp/.e"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# status $st, want $2; stderr:"; _show "$tmp/.e"; fi
}
