#!/bin/sh
# circcoord: circular coordinates against known angles and windings.
. "$(dirname "$0")/lib.sh"
plan 11

T="python3 $(dirname "$0")/topo.py"

$T circle 200 0.05 3 >"$tmp/circ.pts"
persist "$tmp/circ.pts" >"$tmp/circ.per"
circcoord "$tmp/circ.per" >"$tmp/circ.cc"
check "a noisy circle: theta within 0.05 turns of the true angle (rotation, direction aside)" \
	"test \$($T circerr $tmp/circ.cc 200 | awk '{print (\$1 < 0.05)}') = 1"
check "a noisy circle winds once" \
	"awk '\$1 == \"theta1\" { w = \$9 < 0 ? -\$9 : \$9; exit !(w > 0.99 && w < 1.01) }' $tmp/circ.cc"
$T shuffle "$tmp/circ.pts" 11 | persist | circcoord >"$tmp/shuf.cc"
check "theta does not depend on the order of the points (up to rotation)" \
	"test \$($T rotinv $tmp/circ.cc $tmp/shuf.cc | awk '{print (\$1 < 0.001)}') = 1"
circcoord --radians "$tmp/circ.per" >"$tmp/rad.cc"
check "radians are turns times 2 pi" \
	"paste $tmp/circ.cc $tmp/rad.cc | awk '!/^#/ && NF == 14 { d = \$7 * 6.283185307 - \$14; if (d > 1e-4 || d < -1e-4) bad = 1 } END { exit bad }'"

# A strictly periodic stream of r repetitions of q symbols: windows of 10
# span (rq - 9) / q turns along time, r minus a fraction.
for qr in 12:20 16:10; do
	q=${qr%:*} r=${qr#*:}
	$T periodic $q $r | tswindow | persist | circcoord >"$tmp/p.cc"
	check "period $q, $r repetitions: winding number $r within 1" \
		"awk -v r=$r '\$1 == \"theta1\" { w = \$9 < 0 ? -\$9 : \$9; exit !(w > r - 1 && w < r + 1) }' $tmp/p.cc"
done

$T periodic 12 20 | tswindow | persist >"$tmp/p.per"
check_fail "no edge at the scale: reported, theta nan" 0 "no edge at scale 1" \
	"circcoord --scale 1 $tmp/p.per >$tmp/o"
check "... and the points' theta are nan" "grep -v '^#' $tmp/o | awk 'NF == 7 && \$7 != \"nan\" { exit 1 }'"
check_fail "a class persist wrote no cocycle for" 1 "class 9: persist wrote no cocycle" \
	"circcoord --class 9 $tmp/p.per"
check_fail "not a persistence stream, named by line" 1 "circ.pts:1: not a persistence stream" \
	"circcoord $tmp/circ.pts"
check_fail "a bad option" 2 "usage" "circcoord -Q"
