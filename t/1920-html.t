#!/bin/sh
# plotspiral -O html: the page, loaded in headless Chromium, draws and
# answers as the coordinates say; its test hook (#test:ACTIONS) drives
# the controls as a user would and writes what the page then shows.
. "$(dirname "$0")/lib.sh"
plan 21

T="python3 $(dirname "$0")/topo.py"
trfilter -e "$D/bsort" -l -F bsort -t RWM "$D/bsort-reversed.lk.gz" | tswindow |
	persist | circcoord --class 1,2 >"$tmp/bs.cc"
# the points: index, seq, loc, func, theta1, theta2, region
awk '!/^#/ && $1 ~ /^[0-9]+$/ { print $1, $3, $4, $5, $7, $8, $6 }' "$tmp/bs.cc" >"$tmp/pts"

# (base64 aside, which may hold "//x")
check "one file, nothing fetched: no src, href or URL" \
	"plotspiral -O html --title 'b<s>&\"ort' $tmp/bs.cc >$tmp/p.html && grep -q '<canvas' $tmp/p.html &&
	 sed 's/\"data\":\"[^\"]*\"//' $tmp/p.html | grep -q '^<html' &&
	 ! sed 's/\"data\":\"[^\"]*\"//' $tmp/p.html | grep -Eiq ' (src|href)=|url\\(|https?:|//[a-z]'"
check "-o NAME.html writes the page" \
	"plotspiral -o $tmp/o.html $tmp/bs.cc && grep -q '^<!DOCTYPE html>' $tmp/o.html"
check_fail "the page morphs itself: not with --animate" 2 "morphs itself" \
	"plotspiral -O html --morph 1,2 --animate $tmp/bs.cc"
check_fail "a persistence stream has no page" 1 "html" \
	"trfilter -e $D/bsort -l -F bsort -t RWM $D/bsort-reversed.lk.gz | tswindow | persist | plotspiral -O html"

if ! command -v chromium >/dev/null; then
	while [ "$n" -lt 21 ]; do skip "chromium is not installed (Debian: chromium)"; done
	exit 0
fi

all=$(awk '{ printf "%s%s", (NR > 1 ? "," : ""), $1 }' "$tmp/pts")

browse "$tmp/p.html" "layout;state;dots:$all" >"$tmp/r1"
check "the page loads: no error, no console message" \
	"grep -qx 'errors 0' $tmp/r1 && grep -qx done $tmp/r1 && ! test -s $tmp/console"
# the spiral's centre is the static picture's
check_same "the spiral's centre is the SVG's" \
	"awk '/^layout/ { printf \"%.1f %.1f\\n\", \$2, \$3 }' $tmp/r1" \
	"plotspiral --title bsort $tmp/bs.cc | sed -n 's/.*, centre \\([0-9.]*\\) \\([0-9.]*\\)<.*/\\1 \\2/p'"
set -- $(awk '/^layout/ { print $2, $3, $4, $5 }' "$tmp/r1") 0 0 0 0
cx=$1 cy=$2 R=$3 N=$4

# where point i is: theta column c, radius by index over points lo to hi
# (the static spiral's model: 0.08 to 1 of R)
model() {	# col lo hi
	awk -v cx="$cx" -v cy="$cy" -v R="$R" -v c="$1" -v lo="$2" -v hi="$3" \
	    '$1 >= lo && $1 <= hi { r = R * (0.08 + 0.92 * ($1 - lo) / (hi - lo)); a = 2 * 3.14159265358979 * $(4 + c);
	      printf "dot %d %.3f %.3f\n", $1, cx + r * cos(a), cy - r * sin(a) }' "$tmp/pts"
}
# near A B: the same dots within 0.05 pixel, as many as the model has
near() {
	awk 'NR == FNR { x[$2] = $3; y[$2] = $4; m++; next } /^dot/ && ($2 in x) { n++
	    if (($3 - x[$2]) ^ 2 + ($4 - y[$2]) ^ 2 > 0.0025) { bad++; print "# off: " $0 } }
	    END { exit bad || n != m || n < 100 }' "$1" "$2"
}
model 1 0 $((N - 1)) >"$tmp/m1"
check "every point where theta1 and its time put it" "near $tmp/m1 $tmp/r1"

# hover the exact spot of points across the spiral: the tip names that
# point, its seq, source line and function
sel="10 50 101 150 199 250 $((N - 1))"
spots=$(for i in $sel; do awk -v i="$i" '$2 == i { printf "hover:%s,%s;", $3, $4 }' "$tmp/m1"; done)
for i in $sel; do awk -v i="$i" '$1 == i { printf "point %d, seq %s (its window'"'"'s first record) | source line: %s | function: %s%s\n", $1, $2, $3, $4, $7 == "-" ? "" : " | region: " $7 }' "$tmp/pts"; done >"$tmp/want"
# then the morph, played as a user plays it, a click on the barcode's
# second bar, a click on the legend's fifth line
browse "$tmp/p.html" "${spots}range:30,200;state;dots:$all;key:ArrowRight;state;key:r;state;text:title;play;state;dots:$all;bar:2;state;dots:$all;legend:5;state" >"$tmp/r2"
check_same "hover names each point's seq, source line and function" \
	"grep '^hover' $tmp/r2 | sed -e 's/^hover [^:]*: //' -e 's/ | theta1.*//'" "cat $tmp/want"
check_same "the title is the text given, markup and all" \
	"sed -n 's/^text //p' $tmp/r2" "echo 'b<s>&\"ort'"

# the time sliders at 30-200: those points alone, at the radius of that range
check_same "the time sliders show points 30 to 200 alone" \
	"grep '^state' $tmp/r2 | sed -n 1p" \
	"awk '\$1 >= 30 && \$1 <= 200 && \$5 != \"nan\" { n++ } END { print \"state shown\", n, \"first 30 last 200 class 1 to 2 at 0\" }' $tmp/pts"
model 1 30 200 >"$tmp/m30"
# state k: the lines from the k-th state on to the next
after() { awk -v k="$1" '/^state/ { s++ } s == k' "$tmp/r2"; }
check "points 30 to 200 are where a spiral of them puts them; the others hidden" \
	"after 1 >$tmp/r30 && near $tmp/m30 $tmp/r30 &&
	 test \$(grep -c 'hidden\$' $tmp/r30) = \$(awk '\$1 < 30 || \$1 > 200' $tmp/pts | wc -l)"
check "keys: right arrow moves the range a tenth on, r shows all" \
	"grep '^state' $tmp/r2 | sed -n 2p | grep -q 'shown 171 first 47 last 217 ' &&
	 grep '^state' $tmp/r2 | sed -n 3p | grep -q \"shown $N first 0 last $((N - 1)) \""

model 2 0 $((N - 1)) >"$tmp/m2"
check "the morph plays to 1 and every point reaches theta2's place" \
	"grep '^state' $tmp/r2 | sed -n 4p | grep -q 'class 1 to 2 at 1\$' &&
	 after 4 >$tmp/rm && near $tmp/m2 $tmp/rm"
check "a click on the barcode's second bar draws theta2" \
	"grep '^state' $tmp/r2 | sed -n 5p | grep -q ' class 2 .* at 0\$' &&
	 after 5 >$tmp/rb && near $tmp/m2 $tmp/rb"
# the legend's fifth line, bsort.c:18 (sorted by line), hidden
check_same "a click on a legend line hides that source line's points" \
	"grep '^state' $tmp/r2 | sed -n 6p | awk '{ print \$3 }'" \
	"awk '\$3 != \"bsort.c:18\" { n++ } END { print n }' $tmp/pts"
check "no error in the driven page" "grep -qx 'errors 0' $tmp/r2 && ! test -s $tmp/console"

# sameas SVG REPORT: the page's dots are the SVG's (M x y h0, to 0.1 px),
# one for one, within 0.1 pixel
sameas() {
	grep -o 'M[0-9.]* [0-9.]*h0' "$1" | tr -d 'Mh' >"$tmp/svgdots"
	awk 'NR == FNR { x[++m] = $1; y[m] = $2; next } /^dot/ && $3 != "hidden" { n++; best = 1e9
	    for (k = 1; k <= m; k++) { d = ($3 - x[k]) ^ 2 + ($4 - y[k]) ^ 2; if (d < best) best = d }
	    if (best > 0.01) { bad++; print "# far: " $0 } } END { exit bad || n != m || n < 40 }' "$tmp/svgdots" "$2"
}
# the static picture's other modes, drawn by the page: a circle with
# pre- and post-amble and a point whose theta is undefined; the radius
# by seq (a sampled trace's gaps), theta2, coloured by function
# 6 points near 0.2, 40 round the circle (point 20 undefined), 3 near 0.7
awk 'BEGIN { print "#reftrace coordinates 1"; print "#reftrace theta 1 point vertex seq loc func region theta1"
	for (i = 0; i < 49; i++) { t = i < 6 ? 0.2 + i / 1000 : i >= 46 ? 0.7 + i / 1000 : (0.45 + i / 40) % 1
	    if (i >= 6 && i < 46 && (t < 0.25 && t > 0.15 || t > 0.65 && t < 0.75)) t = 0.45
	    print i, i, 3 * i, "a.c:" (i < 6 ? 1 : i < 46 ? 2 : 3), "f -", i == 20 ? "nan" : t } }' >"$tmp/amble.cc"
plotspiral --mode circle --amble 0.03 "$tmp/amble.cc" >"$tmp/c.svg"
plotspiral --mode circle --amble 0.03 -O html "$tmp/amble.cc" >"$tmp/c.html"
browse "$tmp/c.html" "text:sub;dots:$(seq -s, 0 48)" >"$tmp/rc"
check "a circle, its pre- and post-amble and an undefined point as in the SVG" \
	"grep -q 'inside it before (6), outside after (3)' $tmp/rc && grep -qx 'dot 20 hidden' $tmp/rc &&
	 sameas $tmp/c.svg $tmp/rc && grep -qx 'errors 0' $tmp/rc"
plotspiral --radius seq --theta 2 --colour func "$tmp/bs.cc" >"$tmp/q.svg"
plotspiral --radius seq --theta 2 --colour func -O html "$tmp/bs.cc" >"$tmp/q.html"
# then the keys and a drag on the time strip (300 px for the 285 points)
browse "$tmp/q.html" "dots:$all;key:a;state;key:z;key:1;state;key:ArrowDown;state;key:ArrowUp;key:m;state;drag:60,150;state" >"$tmp/rq"
check "radius by seq, theta2, colour by function as in the SVG" \
	"awk '/^state/ { exit } { print }' $tmp/rq >$tmp/rq0 && sameas $tmp/q.svg $tmp/rq0 && grep -qx 'errors 0' $tmp/rq"
check_same "keys a, z, 1, down, up, m; a drag over the time strip" \
	"grep '^state' $tmp/rq | awk '{ print \$3, \$5, \$7, \$9, \$11, \$13 }'" \
	"awk -v n=$N 'BEGIN { w = n - 1; g = int(w / 10 + 0.5)
	    print n, 0, w, 2, 1, 0.1	# a: the morph a tenth on, theta2 to theta1
	    print n, 0, w, 1, 2, 0	# z back, 1: theta1 (to theta2)
	    print w - 2 * g + 1, g, w - g, 1, 2, 0	# down: a tenth in at each end
	    u = int((w - 2 * g) / 10 + 0.5)	# up: a tenth of that out; m: the morph played
	    print w - 2 * g + 2 * u + 1, g - u, w - g + u, 1, 2, 1
	    lo = int(n * 60 / 300 + 0.5); hi = int(n * 150 / 300 + 0.5)
	    print hi - lo + 1, lo, hi, 1, 2, 1 }'"

# past 20000 points drawn, a pixel each: all drawn, no error
awk 'BEGIN { print "#reftrace coordinates 1"; print "#reftrace theta 1 point vertex seq loc func region theta1"
	for (i = 0; i < 30000; i++) printf "%d %d %d big.c:%d f - %.6f\n", i, i, 2 * i, 1 + i % 7, (i / 97) % 1 }' >"$tmp/big.cc"
plotspiral -O html "$tmp/big.cc" >"$tmp/big.html"
check "30000 points drawn at once, as pixels, without error" \
	"browse $tmp/big.html 'range:0,29999;state' >$tmp/rbig &&
	 grep -q '^state shown 30000 first 0 last 29999 ' $tmp/rbig && grep -qx 'errors 0' $tmp/rbig"

# the page's spiral against the static SVG of the same data and size, as
# rsvg-convert renders it: the same pixels inked, in the same colours
plotspiral --size 400x400 --title bsort "$tmp/bs.cc" >"$tmp/s.svg"
plotspiral --size 400x400 --title bsort -O html "$tmp/bs.cc" >"$tmp/s.html"
check "the page's picture is the SVG's: ink within 2 px both ways, colours alike" \
	"rsvg-convert $tmp/s.svg >$tmp/s.png &&
	 chromium --headless --no-sandbox --disable-gpu --user-data-dir=$tmp/chr --hide-scrollbars \
	     --virtual-time-budget=30000 --window-size=400,400 --screenshot=$tmp/h.png file://$tmp/s.html 2>/dev/null &&
	 set -- \$(browse $tmp/s.html layout | awk '/^layout/ { print \$2 - \$4, \$3 - \$4, 2 * \$4 }') && test \$# = 3 &&
	 $T inkmatch $tmp/s.png $tmp/h.png \$1 \$2 \$3 >$tmp/ink &&
	 awk '{ print \"# \" \$0 } \$1 > 1000 && \$3 >= 0.95 && \$4 >= 0.95 && \$5 >= 0.9 { ok = 1 } END { exit !ok }' $tmp/ink"
