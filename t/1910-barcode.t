#!/bin/sh
# plotspiral on a persistence stream: the barcode and the persistence
# diagram drawn bar for bar from the stream, checked against the stream's
# own rows (awk), the geometry against the scale.
. "$(dirname "$0")/lib.sh"
plan 15

T="python3 $(dirname "$0")/topo.py"
trfilter -e "$D/bsort" -l -F bsort -t RWM "$D/bsort-reversed.lk.gz" | tswindow -y opaddr | persist >"$tmp/bs.per"
# the stream's bars and classes, read here independently of the library
awk '/^#reftrace bars/ { t = 1; next } /^#/ { t = 0 } t { print }' "$tmp/bs.per" >"$tmp/bars"
awk '/^#reftrace classes/ { t = 1; next } /^#/ { t = 0 } t { print $1 }' "$tmp/bs.per" >"$tmp/classes"
thr=$(sed -n 's/^# persist .* threshold=\([0-9.]*\).*/\1/p' "$tmp/bs.per")

plotspiral "$tmp/bs.per" >"$tmp/b.svg"
check "the barcode's SVG is well-formed XML" "$T svg $tmp/b.svg"
if command -v rsvg-convert >/dev/null; then
	check "rsvg-convert renders it" "rsvg-convert $tmp/b.svg >$tmp/b.png && $T png $tmp/b.png"
else
	skip "rsvg-convert is not installed"
fi
check "the barcode's PNG decodes at the size asked" \
	"plotspiral -o $tmp/c.png --size 700x600 $tmp/bs.per && test \$($T png $tmp/c.png) = 700x600"
check_same "a bar per row of the stream, each from its birth to its death" \
	"grep -o '<title>H[0-9] bar [^<]*' $tmp/b.svg | sed 's/<title>//'" \
	"awk '{ printf \"H%d bar %d: born %g, \", \$1, \$2, \$3; if (\$4 == \"inf\") print \"alive at the threshold\"; else printf \"dying %g\\n\", \$4 }' $tmp/bars"
stubok plotspiral check "there are bars of both dimensions, and both kinds (persist's stream, the pictures' input)" \
	"test \$(grep -c . $tmp/bars) -gt 100 && grep -q '^1 ' $tmp/bars && grep -q ' inf ' $tmp/bars"

# Geometry: x = x0 + k birth and x + width = x0 + k death for every
# finite bar, one x0 and k for all (to the 0.1 px the SVG keeps)
sed -n 's/.*<rect x="\([0-9.]*\)" y="[0-9.]*" width="\([0-9.]*\)".*<title>H[0-9] bar [0-9]*: born \([0-9.]*\), dying \([0-9.]*\)<.*/\1 \2 \3 \4/p' \
	"$tmp/b.svg" >"$tmp/geo"
check "every finite bar's ends lie on one scale" \
	"test \$(wc -l <$tmp/geo) -gt 100 && awk '{ x[NR] = \$1; w[NR] = \$2; b[NR] = \$3; d[NR] = \$4; if (\$3 == 0) x0 = \$1; if (\$4 - \$3 > dmax) { dmax = \$4 - \$3; k = \$2 / dmax } } END { if (k <= 0) exit 1; for (i = 1; i <= NR; i++) if ((x[i] - x0 - k * b[i]) ^ 2 > 0.04 || (x[i] + w[i] - x0 - k * d[i]) ^ 2 > 0.04) exit 1 }' $tmp/geo"
check "a bar alive at the threshold runs past it, to an arrow" \
	"sed -n 's/.*<rect x=\"\\([0-9.]*\\)\" y=\"[0-9.]*\" width=\"\\([0-9.]*\\)\".*<title>H1 bar 1: born [0-9.]*, alive at the threshold<.*/\\1 \\2/p' $tmp/b.svg >$tmp/inf &&
	 awk 'NR == FNR { x = \$1; w = \$2; next } { if (\$3 == 0) x0 = \$1; if (\$4 - \$3 > dmax) { dmax = \$4 - \$3; k = \$2 / dmax } } END { exit !(x + w > x0 + k * thr + 5) }' thr=$thr $tmp/inf $tmp/geo &&
	 grep -q '>threshold $thr<' $tmp/b.svg && grep -q '>alive at the<' $tmp/b.svg"
check_same "the classes with cocycles labelled by rank, and only they" \
	"grep -o '>class [0-9]*<' $tmp/b.svg | tr -dc '0-9\n'" "cat $tmp/classes"
check "they are drawn in their own colour" \
	"test \$(grep -c 'fill=\"#ff7f0e\"><title>H1 bar' $tmp/b.svg) = \$(grep -c . $tmp/classes)"
check "too many bars for the height: the most persistent, said so" \
	"plotspiral --size 500x300 $tmp/bs.per >$tmp/s.svg && n=\$(grep -o 'H0: the [0-9]* most persistent of [0-9]* bars' $tmp/s.svg | awk '{ print \$3 }') &&
	 test \"\$n\" -gt 10 && test \$(grep -c '<title>H0 bar' $tmp/s.svg) = \$n && grep -q 'most persistent of $(awk '$1 == 0' $tmp/bars | wc -l) bars' $tmp/s.svg"

check "a picture too small for the panels still draws" \
	"plotspiral --size 100x90 -o $tmp/tiny.png $tmp/bs.per && plotspiral --size 100x90 --diagram $tmp/bs.per | $T svg /dev/stdin"

# The diagram: a mark per place, its tooltip and its label the count of
# the bars there
plotspiral --diagram "$tmp/bs.per" >"$tmp/d.svg"
check "the diagram's SVG is well-formed, its PNG decodes" \
	"$T svg $tmp/d.svg && plotspiral --diagram -o $tmp/d.png $tmp/bs.per && $T png $tmp/d.png >/dev/null"
check_same "a mark per (dimension, birth, death), with the count of the bars there" \
	"grep -o '<title>H[0-9]: [^<]*' $tmp/d.svg | sed 's/<title>//' | sort" \
	"awk '{ print \$1, \$3, \$4 }' $tmp/bars | sort | uniq -c | awk '{ printf \"H%d: %d bar%s born %g, \", \$2, \$1, (\$1 > 1 ? \"s\" : \"\"), \$3; if (\$4 == \"inf\") print \"alive at the threshold\"; else printf \"dying %g\\n\", \$4 }' | sort"
check_same "coinciding bars are counted on the picture" \
	"grep -o 'text-anchor=\"start\" fill=\"#000000\">[0-9]*</text>' $tmp/d.svg | sed 's/.*>\([0-9]*\)<.*/\1/' | tr -dc '0-9\n' | sort -n" \
	"awk '{ print \$1, \$3, \$4 }' $tmp/bars | sort | uniq -c | awk '\$1 > 1 { print \$1 }' | sort -n"
check_same "the diagram rings and names the classes" \
	"grep -o '>class[es]* [0-9, ]*<' $tmp/d.svg | tr -c '0-9\n' '\n' | grep . | sort -n" "sort -n $tmp/classes"
