# lib.sh: a tiny TAP helper for the shell tests.
#   plan N; check DESC CMD; check_same DESC CMD1 CMD2; check_fail DESC STATUS REGEX CMD;
#   check_same_rows DESC CMD1 CMD2; check_same_empty DESC CMD; check_rows DESC AWK CMD; stubok PROGS [CHECK ...];
#   browse FILE ACTIONS (a page of ours in headless Chromium)
# Commands are strings run by the shell; $tmp is a scratch directory and
# $D the bundled traces.  A check must fail when the program it tests
# does nothing (t/stubcheck): outputs compared are not both empty, a
# predicate holds over at least one row.
set -u
n=0
tmp=$(mktemp -d)
# a file the watchdog stopped something in fails, whatever its checks said
trap 'st=$?; [ ! -s "$tmp/.hung" ] || cat "$tmp/.hung" >&2; [ ! -e "$tmp/.fired" ] || st=1; rm -rf "$tmp"; exit $st' EXIT
D=$(cd "$(dirname "$0")/data" && pwd)
LC_ALL=C
export LC_ALL

# awk has no hex in POSIX: hex("0x1f") in any awk
HEX='function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }'

plan() { echo "1..$1"; }

# A file still running after RT_TESTLIMIT seconds (900): what it runs is
# stopped and named, its check fails (t/watchdog); a hang fails by name
# where CI would wait out its own limit and say nothing of where.
sh "$(dirname "$0")/watchdog" $$ "$0" "${RT_TESTLIMIT:-900}" "$tmp" </dev/null >/dev/null 2>&1 &
trap 'exit 143' TERM

_ok() {	# status desc
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2$_stubok"; else echo "not ok $n - $2$_stubok"; fi
	if [ -s "$tmp/.hung" ]; then sed 's/^/# /' "$tmp/.hung"; cat "$tmp/.hung" >&2; rm -f "$tmp/.hung"; fi
}

# stubok PROGS CHECK ...: CHECK is meant to pass when one of PROGS does
# nothing (it tests another program of the file, or what a missing one
# does; header:PROG: when a stub writes PROG's header alone); stubok
# PROGS alone marks every check up to stubok ''.
# t/stubcheck counts the marks.
_stubok= _stubsec=
stubok() {
	if [ $# -eq 1 ]; then
		_stubsec=${1:+" # stub-ok: $1"}; _stubok=$_stubsec
	else
		_stubok=" # stub-ok: $1"; shift; "$@"; _stubok=$_stubsec
	fi
}

_show() { sed -n '1,15p' "$1" | sed 's/^/# /'; }

# A skip is counted where make check asks (RT_SKIPS), so that it shows
# in the summary and fails CI (RT_NOSKIP): no test passes by skipping.
skip() {
	n=$((n + 1))
	echo "ok $n # skip $1"
	[ -z "${RT_SKIPS:-}" ] || echo "$(basename "$0"): $1" >>"$RT_SKIPS"
}

# browse FILE ACTIONS: an HTML page of ours in headless Chromium, its
# test hook given the actions (#test:ACTIONS): the page's report, one
# line an action, then "errors N" and "done"; the browser's console
# lines in $tmp/console.
browse() {
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chr" \
	    --enable-logging=stderr --v=0 --virtual-time-budget=30000 \
	    --dump-dom "file://$1#test:$2" 2>"$tmp/chr.err" |
	    sed -n '/<pre id="rt-test"/,/<\/pre>/p' |
	    sed -e 's/<[^>]*>//g' -e '/^$/d' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g'
	grep ':CONSOLE' "$tmp/chr.err" >"$tmp/console" || :
}

# Binary traces: u32 FILE OFFSET, the u32le there; fixcrc FILE OFFSET,
# the block there given its right checksum again (after a byte of it was
# changed on purpose), by python's zlib, not ours.
u32() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '; }
fixcrc() {
	python3 -c 'import sys, zlib, struct
f, at = sys.argv[1], int(sys.argv[2]); b = bytearray(open(f, "rb").read())
n = 20 + struct.unpack_from("<I", b, at)[0]
struct.pack_into("<I", b, at + n, zlib.crc32(bytes(b[at:at + n]))); open(f, "wb").write(b)' "$@"
}

# check DESC CMD: CMD exits 0.
check() {
	if (eval "$2") >"$tmp/.out" 2>&1; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# command: $2"; _show "$tmp/.out"; fi
}

# check_same DESC CMD1 CMD2: both succeed with the same output, which is
# not empty: two empty outputs are not "the same".
check_same() {
	if (eval "$2") >"$tmp/.a" 2>"$tmp/.ae" && (eval "$3") >"$tmp/.b" 2>"$tmp/.be" &&
	    test -s "$tmp/.a" && cmp -s "$tmp/.a" "$tmp/.b"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# got: $2"; _show "$tmp/.ae"
		[ -s "$tmp/.a" ] || echo "# (empty output)"
		diff "$tmp/.a" "$tmp/.b" >"$tmp/.d"; _show "$tmp/.d"; fi
}

# check_same_rows DESC CMD1 CMD2: as check_same, and CMD1's output holds
# a row (a line after its first that is not a # comment): two runs that
# should agree are not shown to by a header alone.
check_same_rows() {
	if (eval "$2") >"$tmp/.a" 2>"$tmp/.ae" && (eval "$3") >"$tmp/.b" 2>"$tmp/.be" &&
	    sed 1d "$tmp/.a" | grep -q -v '^#' && cmp -s "$tmp/.a" "$tmp/.b"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# got: $2"; _show "$tmp/.ae"
		sed 1d "$tmp/.a" | grep -q -v '^#' || echo "# (no rows)"
		diff "$tmp/.a" "$tmp/.b" >"$tmp/.d"; _show "$tmp/.d"; fi
}

# check_same_empty DESC CMD: CMD succeeds and writes nothing, on purpose.
check_same_empty() {
	if (eval "$2") >"$tmp/.a" 2>"$tmp/.ae" && ! test -s "$tmp/.a"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# got: $2"; _show "$tmp/.ae"; _show "$tmp/.a"; fi
}

# check_rows DESC AWK CMD: CMD succeeds and writes at least one line that
# is not a # comment, and AWK (a pattern, e.g. '$3 > 0') holds on each.
check_rows() {
	if (eval "$3") >"$tmp/.r" 2>"$tmp/.re" &&
	    awk "/^#/ { next } { n++ } !($2) { bad = 1; print \"# fails: \" \$0; exit } END { exit bad || n == 0 }" \
	    "$tmp/.r" >"$tmp/.rb"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# command: $3"; _show "$tmp/.re"; _show "$tmp/.rb"
		[ -s "$tmp/.r" ] || echo "# (no rows)"; fi
}

# check_fail DESC STATUS REGEX CMD: CMD exits STATUS with REGEX on stderr.
check_fail() {
	(eval "$4") >"$tmp/.o" 2>"$tmp/.e"
	st=$?
	if [ "$st" -eq "$2" ] && grep -E -q -e "$3" "$tmp/.e"; then _ok 0 "$1"; else
		_ok 1 "$1"; echo "# status $st, want $2; stderr:"; _show "$tmp/.e"; fi
}
