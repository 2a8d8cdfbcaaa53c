#!/bin/sh
# plotspiral: well-formed SVG, decodable PNG, the geometry it promises.
. "$(dirname "$0")/lib.sh"
plan 24

T="python3 $(dirname "$0")/topo.py"
trfilter -e "$D/bsort" -l -F bsort -t RWM "$D/bsort-reversed.lk.gz" | tswindow |
	persist | circcoord --class 1,2 >"$tmp/bs.cc"

check "the SVG is well-formed XML" "plotspiral $tmp/bs.cc >$tmp/a.svg && $T svg $tmp/a.svg"
if command -v rsvg-convert >/dev/null; then
	check "rsvg-convert renders it" "rsvg-convert $tmp/a.svg >$tmp/a.png && $T png $tmp/a.png"
else
	skip "rsvg-convert is not installed"
fi
check "the PNG decodes (CRC, inflate, filters) at the size asked" \
	"plotspiral -o $tmp/b.png --size 640x480 $tmp/bs.cc && test \$($T png $tmp/b.png) = 640x480"
check_same "a legend entry per source line, with its count" \
	"grep -o '>bsort.c:[0-9]* ([0-9]*)<' $tmp/a.svg | tr -d '<>' | sort" \
	"grep -v '^#' $tmp/bs.cc | awk 'NF == 8 { n[\$4]++ } END { for (l in n) print l, \"(\" n[l] \")\" }' | sort"
check "one arc path and one dot path per source line" \
	"test \$($T svg $tmp/a.svg) = \$((2 * \$(grep -v '^#' $tmp/bs.cc | awk 'NF == 8 { print \$4 }' | sort -u | wc -l)))"
check "colour by time: a continuous ramp, no legend" \
	"plotspiral --colour time $tmp/bs.cc >$tmp/t.svg && $T svg $tmp/t.svg && ! grep -q 'bsort.c' $tmp/t.svg"

# Spiral geometry: the dot of point i lies at angle 2 pi theta_i, radius
# growing with i; check every dot against the coordinates.
check "dots sit at angle theta and radius growing with time" \
	"plotspiral --colour time --size 800x800 --margin 40 $tmp/bs.cc >$tmp/g.svg &&
	 grep -o 'M[0-9.]* [0-9.]*h0' $tmp/g.svg | tr -d 'Mh' >$tmp/dots &&
	 set -- \$(sed -n 's/.*, centre \\([0-9.]*\\) \\([0-9.]*\\)<.*/\\1 \\2/p' $tmp/g.svg) && test \$# = 2 &&
	 grep -v '^#' $tmp/bs.cc | awk 'NF == 8 && \$7 != \"nan\" { print \$7 }' >$tmp/th &&
	 test \$(wc -l <$tmp/dots) = \$(wc -l <$tmp/th) &&
	 awk 'NR == FNR { th[++k] = \$1; next } { x = \$1 - cx; y = cy - \$2; r = sqrt(x * x + y * y); a = atan2(y, x) / 6.283185307; d = a - th[FNR]; d -= int(d + (d < 0 ? -0.5 : 0.5)); if (d > 0.01 || d < -0.01) bad++; if (FNR > 1 && r < last - 0.2) bad++; last = r } END { exit bad }' cx=\$1 cy=\$2 $tmp/th $tmp/dots"

# Pre- and post-amble: 5 points near 0.1, a cycle, 4 points near 0.8.
{
	echo '#reftrace coordinates 1'
	echo '#reftrace theta 1 point vertex seq loc func region theta1'
	for i in 0 1 2 3 4; do echo "$i $i $i a.c:1 f - 0.10$i"; done
	awk 'BEGIN { for (i = 5; i < 45; i++) { t = (0.3 + 0.05 * i) % 1; if (t > 0.75 && t < 0.85) t = 0.5; print i, i, i, "a.c:2 f -", t } }'
	for i in 45 46 47 48; do echo "$i $i $i a.c:3 f - 0.80$((i - 45))"; done
} >"$tmp/amble.cc"
check "circle mode separates a 5-point pre-amble and a 4-point post-amble" \
	"plotspiral --mode circle --amble 0.03 $tmp/amble.cc | grep -q 'pre-amble 5 points, post-amble 4 points'"

# radians are written with 6 digits, as turns are: the dots agree to the
# rounding of the last one (a tenth of a pixel)
check "theta in radians (circcoord --radians) draws the same picture" \
	"plotspiral $tmp/bs.cc | grep -o 'M[0-9.]* [0-9.]*h0' | tr -d 'Mh' >$tmp/r1 &&
	 trfilter -e $D/bsort -l -F bsort -t RWM $D/bsort-reversed.lk.gz | tswindow | persist | circcoord --radians --class 1,2 |
	     plotspiral | grep -o 'M[0-9.]* [0-9.]*h0' | tr -d 'Mh' >$tmp/r2 &&
	 paste -d' ' $tmp/r1 $tmp/r2 | awk '{ n++; if ((\$1 - \$3) ^ 2 + (\$2 - \$4) ^ 2 > 0.03) bad = 1 } END { exit bad || n < 100 }' &&
	 test \$(wc -l <$tmp/r1) = \$(wc -l <$tmp/r2)"
check_same_rows "a morph at 0 is the first parameterization" \
	"plotspiral --morph 1,2 --at 0 $tmp/bs.cc" "plotspiral --theta 1 $tmp/bs.cc"
check "a morph at 1 puts every dot where the second one does" \
	"plotspiral --colour time --morph 1,2 --at 1 $tmp/bs.cc | grep -o 'M[0-9.]* [0-9.]*h0' >$tmp/m1 &&
	 plotspiral --colour time --theta 2 $tmp/bs.cc | grep -o 'M[0-9.]* [0-9.]*h0' >$tmp/m2 &&
	 paste -d' ' $tmp/m1 $tmp/m2 | tr -d 'Mh' | awk -v want=\$(grep -c '^[0-9]' $tmp/bs.cc) '{ n++; d = (\$1 - \$3) ^ 2 + (\$2 - \$4) ^ 2; if (d > 0.05) bad++ } END { exit bad || n != want || n < 100 }'"
check "a numbered frame series" \
	"plotspiral --morph 1,2 --frames 4 -o $tmp/f.svg $tmp/bs.cc && for k in 0 1 2 3; do $T svg $tmp/f-000\$k.svg >/dev/null || exit 1; done"
check "an animated SVG is well-formed and animates" \
	"plotspiral --morph 1,2 --animate --frames 6 $tmp/bs.cc >$tmp/an.svg && $T svg $tmp/an.svg && grep -q '<animate ' $tmp/an.svg"
# A real program's legend: 20 lines (as many as there are colours) of
# absolute paths in no order, two files named util.c in different
# directories.
{
	echo '#reftrace coordinates 1'
	echo '#reftrace theta 1 point vertex seq loc func region theta1'
	awk 'BEGIN { for (i = 0; i < 200; i++) { k = (i * 7) % 20; f = k < 10 ? "/home/u/src/prog/main.c" : k < 18 ? "/home/u/src/prog/lib/util.c" : "/usr/src/other/util.c"; printf "%d %d %d %s:%d f -\t%.4f\n", i, i, i, f, 100 - 3 * k, (i % 17) / 17 } }'
} >"$tmp/many.cc"
plotspiral --size 700x500 "$tmp/many.cc" >"$tmp/many.svg"
check_same "the legend is sorted by file and line, base names, or a directory more where two files share one" \
	"grep -o '<text x=\"[0-9.]*\" y=\"[0-9.]*\"[^>]*>[^<]*:[0-9]* ([0-9]*)<' $tmp/many.svg | sed 's/.*>//; s/ (.*//'" \
	"grep -v '^#' $tmp/many.cc | awk '{ print \$4 }' | sort -u | sort -t: -k1,1 -k2,2n | sed 's|^/home/u/src/prog/||; s|^/usr/src/||'"
check "the legend is outside the plot: every dot left of its swatches" \
	"grep -o 'M[0-9.]* [0-9.]*h0' $tmp/many.svg | tr -d 'Mh' | sort -n | tail -1 >$tmp/right &&
	 grep -o '<rect x=\"[0-9.]*\" y=\"[0-9.]*\" width=\"10.0\"' $tmp/many.svg | sed 's/<rect x=\"//; s/\".*//' | sort -n | head -1 >$tmp/left &&
	 test -s $tmp/right && test -s $tmp/left && awk 'NR == FNR { r = \$1; next } { exit !(r + 2 < \$1) }' $tmp/right $tmp/left"
check "the picture says that time runs outwards" "grep -q 'time runs outwards' $tmp/many.svg"
check "the PNG's text is lower case: the legend drawn in the 6x10 font (pixels of bsort.c differ from BSORT.C)" \
	"plotspiral -o $tmp/lc.png --size 300x200 --no-legend --title bsort.c $tmp/bs.cc && plotspiral -o $tmp/uc.png --size 300x200 --no-legend --title BSORT.C $tmp/bs.cc && ! cmp -s $tmp/lc.png $tmp/uc.png && $T png $tmp/lc.png"
check_fail "another kind of stream: named, with what makes the right one" 1 "bs.pts: a points stream, not a coordinates stream or a persistence stream \\(circcoord or persist makes one\\)" \
	"printf '#reftrace points 1 seq loc func region s1\n' >$tmp/bs.pts && plotspiral $tmp/bs.pts"
check_fail "a bad option" 2 "usage" "plotspiral -Q"
check "PNG arcs are anti-aliased: edge pixels mix a line's colour with white in quarters (none did before)" \
	"plotspiral -o $tmp/aa.png --size 400x400 $tmp/bs.cc && test \$($T blends $tmp/aa.png) -ge 5"

# More source lines than colours: the 19 with most points keep theirs,
# the rest are one legend entry.
awk 'BEGIN { print "#reftrace coordinates 1"; print "# circcoord units=turns"
	print "#reftrace circles 1 column rank birth death scale edges components isolated winding residual"
	print "theta1 1 1 inf 1 10 1 0 12.000 0.1000"
	print "#reftrace theta 1 point vertex seq loc func region theta1"
	for (i = 0; i < 300; i++) { k = i % 25; if (i >= 250) k = i % 19
		printf "%d %d %d f.c:%d f - %.6f\n", i, i, i, k + 1, (i / 25) % 1 } }' >"$tmp/m25.cc"
plotspiral "$tmp/m25.cc" >"$tmp/m25.svg"
check_same "25 source lines: 19 in the legend, the rest as others, counted" \
	"grep -o '>[^<]* ([0-9]*)<' $tmp/m25.svg | tr -d '<>' | sort" \
	"grep -v '^#' $tmp/m25.cc | awk 'NF == 7 { n[\$4]++ } END { for (l in n) print n[l], l }' | sort -k1,1nr -k2,2 |
	 awk 'NR <= 19 { print \$2, \"(\" \$1 \")\"; next } { o += \$1; k++ } END { print k, \"others (\" o \")\" }' | sort"

# Turns closer than the picture shows: the first that it shows apart,
# said on the picture; --range draws a time range.
awk 'BEGIN { print "#reftrace coordinates 1"; print "# circcoord units=turns"
	print "#reftrace theta 1 point vertex seq loc func region theta1"
	for (i = 0; i < 5000; i++) printf "%d %d %d f.c:1 f - %.6f\n", i, i, 10 * i, (i / 10) % 1 }' >"$tmp/turns.cc"
check "500 turns in 800 pixels: the first 90, said on the picture" \
	"plotspiral --size 800x800 --margin 40 $tmp/turns.cc 2>$tmp/e >$tmp/t.svg &&
	 grep -q 'the first 90 of 500 turns, seqs 0-9000 of -49990' $tmp/t.svg &&
	 grep -q '901 points at angle theta1' $tmp/t.svg"
check "--range: the points of those seqs, said on the picture" \
	"plotspiral --range 20000+1000 $tmp/turns.cc 2>$tmp/e >$tmp/t.svg && test ! -s $tmp/e &&
	 grep -q '100 points at angle' $tmp/t.svg && grep -q 'seqs 20000-20990 of 0-49990' $tmp/t.svg"
check_fail "--range of no points: the seqs there are" 1 "--range 1-5: 0 points there \\(the seqs run 0 to 49990\\)" \
	"plotspiral --range 1-5 $tmp/turns.cc"
