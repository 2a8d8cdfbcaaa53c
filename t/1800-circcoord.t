#!/bin/sh
# circcoord: circular coordinates against known angles and windings.
. "$(dirname "$0")/lib.sh"
plan 26

T="python3 $(dirname "$0")/topo.py"

$T circle 200 0.05 3 >"$tmp/circ.pts"
persist "$tmp/circ.pts" >"$tmp/circ.per"
circcoord "$tmp/circ.per" >"$tmp/circ.cc"
check "a noisy circle: theta within 0.05 turns of the true angle (rotation, direction aside)" \
	"test \$($T circerr $tmp/circ.cc 200 | awk '{print (\$1 < 0.05)}') = 1"
check "a noisy circle winds once" \
	"awk '\$1 == \"theta1\" { w = \$9 < 0 ? -\$9 : \$9; ok = w > 0.99 && w < 1.01; n++ } END { exit !(n == 1 && ok) }' $tmp/circ.cc"
$T shuffle "$tmp/circ.pts" 11 | persist | circcoord >"$tmp/shuf.cc"
check "theta does not depend on the order of the points (up to rotation)" \
	"test \$($T rotinv $tmp/circ.cc $tmp/shuf.cc | awk '{print (\$1 < 0.001)}') = 1"
circcoord --radians "$tmp/circ.per" >"$tmp/rad.cc"
check "radians are turns times 2 pi" \
	"paste $tmp/circ.cc $tmp/rad.cc | awk '!/^#/ && NF == 14 { n++; d = \$7 * 6.283185307 - \$14; if (d > 1e-4 || d < -1e-4) bad = 1 } END { exit bad || n != 200 }'"

# A strictly periodic stream of r repetitions of q symbols: windows of 10
# span (rq - 9) / q turns along time, r minus a fraction.
for qr in 12:20 16:10; do
	q=${qr%:*} r=${qr#*:}
	$T periodic $q $r | tswindow | persist | circcoord >"$tmp/p.cc"
	check "period $q, $r repetitions: winding number $r within 1" \
		"awk -v r=$r '\$1 == \"theta1\" { w = \$9 < 0 ? -\$9 : \$9; ok = w > r - 1 && w < r + 1; n++ } END { exit !(n == 1 && ok) }' $tmp/p.cc"
done

$T periodic 12 20 | tswindow | persist >"$tmp/p.per"
# a scale where the cocycle is no class: no coordinates at all (before: a
# warning, theta nan everywhere, status 0)
check_fail "--scale below the class's birth: refused, with the class's interval, nothing written" 1 \
	"class 1: --scale 1 is outside \\[2, 8\\)" \
	"circcoord --scale 1 $tmp/p.per >$tmp/o; st=\$?; test -s $tmp/o && exit 9; exit \$st"
check_fail "a class past those there are: how many there are" 1 \
	"class 9: persist found 1 class of dimension 1" "circcoord --class 9 $tmp/p.per"
# D5 (#38): a stream cut at a line boundary inside its last table, or
# short of a class's cocycle rows, is refused with the counts (before:
# other coordinates, exit 0); the numbers counted here by awk
awk '/^#reftrace/ {in1 = /^#reftrace edges/ && !e++} in1 && !/^#/ {n++} END {print n}' "$tmp/p.per" >"$tmp/ne"
awk -v n=$(cat "$tmp/ne") '/^#reftrace/ {in1 = /^#reftrace edges/ && !e++} in1 && !/^#/ && ++k > n - 3 {next} {print}' \
    "$tmp/p.per" >"$tmp/p.cut"
check_fail "edge rows missing: truncated, both counts said" 1 \
    "p.cut: truncated: the '# persist' line says $(cat $tmp/ne) edges, the edges table has $(($(cat $tmp/ne) - 3))\$" \
    "circcoord $tmp/p.cut >$tmp/cut.out; st=\$?; test ! -s $tmp/cut.out || st=9; exit \$st"
awk '/^#reftrace cocycles/ {c = 1; print; next} c && !/^#/ && !done {done = 1; next} /^#/ {c = 0} {print}' \
    "$tmp/p.per" >"$tmp/p.cut2"
check_fail "a cocycle row missing: the class's count against the table's" 1 \
    "p.cut2: truncated: class 1's row says $(awk '/^#reftrace classes/ {c = 1; next} c && !/^#/ {print $5; exit}' $tmp/p.per) cocycle edges" \
    "circcoord $tmp/p.cut2"
check_fail "a class persist wrote no cocycle for: how many it wrote, of how many, and what gives more" 1 \
	"class 3: persist wrote cocycles for 2 classes \\(of [0-9]* bars of dimension 1\\); persist --classes 3 gives more" \
	"persist --classes 2 $tmp/circ.pts | circcoord --class 3"
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"; for (i = 0; i < 40; i++) printf "%d R 0x%x 4\n", i, 4096 + 4 * i }' |
    tswindow -y opaddr | persist >"$tmp/line.per" 2>/dev/null
check_fail "windows that never come back: no class, said so" 1 \
	"class 1: persist found no class of dimension 1 up to its threshold [0-9.]*: the windows never come back" \
	"circcoord $tmp/line.per"
check_fail "an empty input: what a failed stage upstream leaves" 1 \
	"<stdin>: empty, not a persistence stream \\(persist makes one; a stage that failed upstream leaves nothing\\)" \
	"circcoord </dev/null"
check_fail "another kind of stream: named, with what makes the right one" 1 "circ.pts: a points stream, not a persistence stream \\(persist makes one\\)" \
	"circcoord $tmp/circ.pts"
check_fail "a bad option" 2 "usage" "circcoord -Q"

# A persistence stream is checked before anything is sized by it: a
# valid one, then each number that could size an allocation or index an
# array made wrong in turn.
cat >"$tmp/ok.per" <<'EOF2'
#reftrace persistence 1
# persist points=4 vertices=4 metric=matrix modulus=3 dim=1 threshold=1
#reftrace bars 1 dim rank birth death persistence
1 1 1 inf inf
#reftrace classes 1 rank birth death scale edges
1 1 inf 1 1
#reftrace cocycles 1 rank i j coef
1 0 3 1
#reftrace pointmap 1 vertex seq loc func region
0 0 - - -
1 1 - - -
2 2 - - -
3 3 - - -
#reftrace edges 1 i j distance
0 1 1
1 2 1
2 3 1
0 3 1
EOF2
# a fifth point alone, no edge at the scale: said, its theta nan, the
# square's four numbers
sed 's/points=4 vertices=4/points=5 vertices=5/; s/^3 3 - - -$/3 3 - - -\
4 4 - - -/' "$tmp/ok.per" >"$tmp/lone.per"
check_fail "a vertex with no edge at the scale: reported" 0 "1 vertices have no edge at scale 1" \
	"circcoord $tmp/lone.per >$tmp/o"
check "... its theta nan, the others numbers" \
	"grep -v '^#' $tmp/o | awk 'NF == 7 { n++; if ((\$1 == 4) != (\$7 == \"nan\")) bad = 1 } END { exit bad || n != 5 }'"
# theta must step a quarter turn from point to point: three steps along
# time wind 0.75 (the fourth closes the loop, after the last point)
check "a square, hand-made: a quarter turn a point, 0.75 along time" \
	"circcoord $tmp/ok.per | awk '\$1 == \"theta1\" { w = \$9 < 0 ? -\$9 : \$9; okw = w > 0.749 && w < 0.751 }
	    !/^#/ && NF == 7 { if (n++) { d = \$7 - p; d -= int(d + 1.5) - 1; if (d < 0) d = -d; if (d < 0.249 || d > 0.251) bad = 1 } p = \$7 }
	    END { exit !(okw && n == 4 && !bad) }'"
bad() {	# DESC PATTERN SED-EXPRESSION
	sed "$3" "$tmp/ok.per" >"$tmp/bad.per"
	check_fail "$1" 1 "$2" "circcoord $tmp/bad.per"
}
bad "an edge to a vertex past the count: named by line" "bad.per:18: bad edge row" 's/^0 3 1$/0 1222222221 1/'
bad "a vertex count past the points" "bad.per:2: .*at most the points" 's/vertices=4/vertices=4000000000/'
bad "a coefficient that is not an integer" "bad.per:8: bad cocycle row" 's/^1 0 3 1$/1 0 3 2.5/'
bad "a coefficient of the modulus or more" "bad.per:8: bad cocycle row" 's/^1 0 3 1$/1 0 3 3/'
bad "a coefficient that is nan" "bad.per:8: bad cocycle row" 's/^1 0 3 1$/1 0 3 nan/'
bad "a class rank of 0" "bad.per:6: bad class row" 's/^1 1 inf 1 1$/0 1 inf 1 1/'
bad "no edges table" "bad.per: no edges table" '/^#reftrace edges/,$d'
bad "a cocycle edge that is not an edge" "class 1: cocycle edge 0-2 is not an edge" 's/^1 0 3 1$/1 0 2 1/'

