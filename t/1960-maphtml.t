#!/bin/sh
# trmap -O html: the access map as one page, loaded in headless Chromium:
# its default view is the static picture's pixels, a hover names what a
# known cell holds (worked out from the trace here), keys pan and zoom as
# a model of them says, and zoomed in, a cell is one access.
. "$(dirname "$0")/lib.sh"
plan 20

T="python3 $(dirname "$0")/topo.py"
# 500 accesses, fewer than the 634 columns: each alone in its column.
# A (250 doubles) swept up, then B (64 ints) by a stride of 5 elements;
# source lines k.c:10 to 13, functions f and g, ops R W M in turn
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 A 0x10000 2000 8"; print "#region 0 B 0x40000100 256 4"
	split("R W M", op, " ")
	for (i = 0; i < 500; i++) { a = i < 250 ? 65536 + 8 * i : 1073741824 + 256 + 4 * ((5 * i) % 64)
	    printf "%d %s 0x%x %d - - k.c:%d %s -\n", i, op[1 + i % 3], a, i < 250 ? 8 : 4, 10 + i % 4, i < 250 ? "f" : "g" } }' >"$tmp/small"
# 20000 accesses of A (4000 doubles) swept five times: the finest level
# has more columns than accesses (634 x 32 = 20288)
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 A 0x200000 32000 8"; split("R W M", op, " ")
	for (i = 0; i < 20000; i++)
	    printf "%d %s 0x%x 8 - - z.c:%d g -\n", i, op[1 + i % 3], 2097152 + 8 * (i % 4000), 40 + i % 5 }' >"$tmp/dense"

check "one file, nothing fetched: no src, href or URL" \
	"trmap -O html --title 'two <arrays> & \"more\"' $tmp/small >$tmp/s.html && grep -q '<canvas' $tmp/s.html &&
	 sed 's/\"data\":\"[^\"]*\"//' $tmp/s.html | grep -q '^<html' &&
	 ! sed 's/\"data\":\"[^\"]*\"//' $tmp/s.html | grep -Eiq ' (src|href)=|url\\(|https?:|//[a-z]'"
check "-o NAME.html writes the page; standard input makes the same page" \
	"trmap -o $tmp/o.html $tmp/dense && grep -q '^<!DOCTYPE html>' $tmp/o.html &&
	 trmap -O html <$tmp/dense >$tmp/i.html && cmp $tmp/o.html $tmp/i.html"
check_fail "-O of no known format" 2 "want svg, png or html" "trmap -O jpeg $tmp/small"

if ! command -v chromium >/dev/null; then
	while [ "$n" -lt 20 ]; do skip "chromium is not installed (Debian: chromium)"; done
	exit 0
fi

# shot FILE PNG [ACTIONS]: the page as a 900x560 window shows it
shot() {
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chr" --hide-scrollbars \
	    --virtual-time-budget=30000 --window-size=900,560 --screenshot="$2" "file://$1${3:+#test:$3}" 2>/dev/null
}

# the layout first: the hovers below are placed by it
browse "$tmp/s.html" "layout;view;text:title" >"$tmp/r1"
check "the page loads: no error, no console message" \
	"grep -qx 'errors 0' $tmp/r1 && grep -qx done $tmp/r1 && ! test -s $tmp/console"
check_same "the title is the text given, markup and all" \
	"sed -n 's/^text //p' $tmp/r1" "echo 'two <arrays> & \"more\"'"
# the static SVG's raster: x y width height of its image
check_same "the plot area is the static picture's raster" \
	"awk '/^layout/ { print \$2, \$3, \$4, \$5 }' $tmp/r1" \
	"trmap $tmp/small | sed -n 's/.*<image x=\"\\([0-9.]*\\)\" y=\"\\([0-9.]*\\)\" width=\"\\([0-9.]*\\)\" height=\"\\([0-9.]*\\)\".*/\\1 \\2 \\3 \\4/p' | awk '{ print \$1 + 0, \$2 + 0, \$3 + 0, \$4 + 0 }'"
set -- $(awk '/^layout/ { print $2, $3, $4, $5 }' "$tmp/r1") 0 0 0 0
PX=$1 PY=$2 PW=$3 PH=$4

# where access i is drawn, zoomed by 2^k about the view X0 Y0 (level 0
# cells, rows from the bottom) with cells of level k a pixel each: its
# column floor(i * cols / n * 2^k), its row y0 * 2^k + floor((a - lo) *
# rows / extent * 2^k) in its segment (trmap --counts), to the pixel's
# centre; and what the tip says of it, one access alone
where() {	# trace k X0 Y0
	trmap --counts "$1" >"$tmp/cnt"
	awk -v px="$PX" -v py="$PY" -v pw="$PW" -v ph="$PH" -v k="$2" -v X0="$3" -v Y0="$4" "$HEX"'
	    FNR == NR { if (/^# trmap/) { n = $3; cols = $6 } if (/^#segment/) { j = ns++; lo[j] = hex($2); hi[j] = hex($3); y0[j] = $4; y1[j] = $5 } next }
	    /^#region/ { rn[++nr] = $3; rb[nr] = hex($4); rs[nr] = $5; next } /^#/ { next }
	    { a = hex($3); for (s = 0; s < ns; s++) if (a >= lo[s] && a <= hi[s]) break
	      f = 2 ^ k; c = int(i++ * cols * f / n); r = y0[s] * f + int((a - lo[s]) * (y1[s] - y0[s] + 1) / (hi[s] - lo[s] + 1) * f)
	      x = int(c - X0 * f + 0.5); y = int(r - Y0 * f + 0.5)
	      if (x < 0 || x >= pw || y < 0 || y >= ph) next
	      reg = "-"; for (q = 1; q <= nr; q++) if (a >= rb[q] && a < rb[q] + rs[q]) reg = rn[q]
	      o = $2 == "R" ? "read" : $2 == "W" ? "write" : "modify"
	      printf "%s %s|address: 0x%x-0x%x (%d bytes) | 1 access: %s 1 | op: %s | region: %s | source line: %s | function: %s\n",
		  px + x + 0.5, py + ph - 1 - y + 0.5, a, a + $4 - 1, $4, o, o, reg, $7, $8 }' "$tmp/cnt" "$1"
}
# hovers SPOTS: hover actions at the first field of each line
hovers() { awk -F'|' '{ split($1, p, " "); printf "hover:%s,%s;", p[1], p[2] }' "$1"; }
tips() { grep '^hover' "$1" | sed -e 's/^hover [^:]*: //' -e 's/^time: [^|]*| //'; }

where "$tmp/small" 0 0 0 | awk 'NR % 37 == 1' >"$tmp/w1"
# then Enter (the centre pixel inspected), a hover there, a click on a
# cell of A (kept, its region's metrics shown), the source lines in view
browse "$tmp/s.html" "$(hovers "$tmp/w1")key:Enter;text:here;hover:$((PX + PW / 2)).5,$((PY + PH / 2)).5;click:$(sed -n 3p "$tmp/w1" | cut -d'|' -f1 | tr ' ' ,);text:var;text:lines" >"$tmp/r2"
check_same "hover over single accesses: address, op, region, source line, function" \
	"tips $tmp/r2 | sed '\$d'" "cut -d'|' -f2- $tmp/w1"
check "... and the time of each: its column's accesses" \
	"grep '^hover' $tmp/r2 | awk -v n=500 -v c=$PW '{ x = \$2 - $PX - 0.5; a = int(x * n / c); b = int((x + 1) * n / c - 1e-9)
	    if (\$0 !~ \"time: accesses \" a \"-\" b \" \") bad++; m++ } END { exit bad || m < 10 }'"

# the keys: + five times (32x about the centre), right (a tenth on), ]
# (time 2x), [ (back), } (addresses 2x), { (back), down, - (out 2x),
# r (all): the view after each, as the model says; then + five times
# again and hovers: zoomed 32x, each cell of the finest level one
# access, a hover names it
where "$tmp/dense" 5 "$(echo "$PW / 2 - $PW / 64" | bc -l)" "$(echo "$PH / 2 - $PH / 64" | bc -l)" |
	awk 'NR % 7 == 1' >"$tmp/w5"
browse "$tmp/o.html" "view;key:+;key:+;key:+;key:+;key:+;view;key:ArrowRight;view;key:];view;key:[;view;key:};view;key:{;view;key:ArrowDown;view;key:-;view;key:r;view;key:+;key:+;key:+;key:+;key:+;$(hovers "$tmp/w5")" >"$tmp/rk"
check_same "keys pan and zoom the view as the model says" \
	"grep '^view' $tmp/rk | awk '{ printf \"%.6f %.6f %.6f %.6f %d\\n\", \$2, \$3, \$4, \$5, \$7 }'" \
	"awk -v C=$PW -v R=$PH 'function v() { printf \"%.6f %.6f %.6f %.6f %d\\n\", x0, x1, y0, y1, lv }
	    function z(fx, fy,  cx, cy) { cx = (x0 + x1) / 2; cy = (y0 + y1) / 2; w = (x1 - x0) / fx; h = (y1 - y0) / fy
		x0 = cx - w / 2; x1 = cx + w / 2; y0 = cy - h / 2; y1 = cy + h / 2 }
	    BEGIN { x0 = 0; x1 = C; y0 = 0; y1 = R; lv = 0; v()
		for (k = 0; k < 5; k++) z(2, 2); lv = 5; v()
		d = (x1 - x0) / 10; x0 += d; x1 += d; v()
		z(2, 1); v(); z(0.5, 1); v(); z(1, 2); v(); z(1, 0.5); v()
		d = (y1 - y0) / 10; y0 -= d; y1 -= d; v()
		z(0.5, 0.5); lv = 4; v()
		x0 = 0; x1 = C; y0 = 0; y1 = R; lv = 0; v() }'"
check "no error in the driven page" "grep -qx 'errors 0' $tmp/rk && ! test -s $tmp/console"

check_same "zoomed 32x: a hover names the one access of its cell" \
	"tips $tmp/rk" "cut -d'|' -f2- $tmp/w5"
check "... some ten accesses, none missed" "test \$(wc -l <$tmp/w5) -ge 10 && grep -qx 'errors 0' $tmp/rk"

check_same "Enter inspects the centre pixel" \
	"sed -n 's/^text //p' $tmp/r2 | sed -n 1p" "grep '^hover' $tmp/r2 | tail -1 | sed 's/^hover [^:]*: //'"
check_same "a click shows the region's metrics, as --regions counts them" \
	"sed -n 's/^text //p' $tmp/r2 | sed -n 2p | sed 's/^\\(A\\): .*| \\([0-9]*\\) accesses (read \\([0-9]*\\), write \\([0-9]*\\), modify \\([0-9]*\\), fetch \\([0-9]*\\)), \\([0-9]*\\) bytes.*/\\1 \\2 \\7 \\3 \\4 \\5 \\6/'" \
	"trmap --regions $tmp/small | awk '\$1 == \"A\" { print \$1, \$5, \$6, \$7, \$8, \$9, \$10 }'"

# the default view against the static PNG of the same trace and size:
# the plot's pixels the same colours (its frame aside); by op, then by
# count (key c against --colour count)
trfilter -l -e "$D/matmul" -m matmul,done -t RWM "$D/matmul-blocked.lk.gz" >"$tmp/mm"
trmap -o "$tmp/mm.html" "$tmp/mm"
check "the page's map is the static PNG's, pixel for pixel" \
	"trmap -o $tmp/mm.png $tmp/mm && shot $tmp/mm.html $tmp/h.png &&
	 $T samepix $tmp/mm.png $tmp/h.png $((PX + 1)) $((PY + 1)) $((PW - 2)) $((PH - 2)) >$tmp/px &&
	 awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.999 { ok = 1 } END { exit !ok }' $tmp/px"
check "colour by count (key c) is --colour count's, pixel for pixel" \
	"trmap --colour count -o $tmp/mc.png $tmp/mm && shot $tmp/mm.html $tmp/hc.png key:c &&
	 $T samepix $tmp/mc.png $tmp/hc.png $((PX + 1)) $((PY + 1)) $((PW - 2)) $((PH - 2)) >$tmp/pc &&
	 awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.999 { ok = 1 } END { exit !ok }' $tmp/pc"
# by region and by source line (trmap --colour): the legend's classes
# in the same colours; a pixel's class is its fullest cell's, where the
# picture's is a vote over classes: by line, a few pixels of the stack's
# mixed lines differ
for k in region line; do
	trmap --colour $k -o "$tmp/c$k.png" "$tmp/mm"
	trmap --colour $k -o "$tmp/c$k.html" "$tmp/mm"
	shot "$tmp/c$k.html" "$tmp/h$k.png"
	set -- $(browse "$tmp/c$k.html" layout | awk '/^layout/ { print $2 + 1, $3 + 1, $4 - 2, $5 - 2 }') 0 0 0 0
	$T samepix "$tmp/c$k.png" "$tmp/h$k.png" $1 $2 $3 $4 >"$tmp/p$k" || :
done
check "--colour region: the page's map is the static PNG's, pixel for pixel" \
	"awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.999 { ok = 1 } END { exit !ok }' $tmp/pregion"
check "--colour line: the page's map is the static PNG's but for 2% of its pixels" \
	"awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.98 { ok = 1 } END { exit !ok }' $tmp/pline"

# a cell an access: the source lines in view are the trace's, counted
check_same "the source lines in view and their accesses, as the trace counts them" \
	"sed -n 's/^text //p' $tmp/r2 | sed -n 3p | tr '|' '\\n' | awk 'NF { print \$1, \$2 }' | sort" \
	"awk '!/^#/ { n[\$7]++ } END { for (l in n) print n[l], l }' $tmp/small | sort"

# the bound: levels go, finest first, while all take more than 8 MiB;
# 400000 accesses at random over 64 MiB keep level 0 and fewer than all
awk 'BEGIN { srand(7); print "#reftrace trace 1"; for (i = 0; i < 400000; i++) printf "%d R 0x%x 8\n", i, 1048576 + 8 * int(rand() * 8388608) }' >"$tmp/rand"
check "the packed cells of a large trace stay within 8 MiB" \
	"trmap -O html $tmp/rand >$tmp/rand.html && browse $tmp/rand.html layout >$tmp/rr &&
	 awk '/^layout/ { print \"# \" \$0; if (\$7 < 2 || \$7 >= 10) exit 1 } END { if (!NR) exit 1 }' $tmp/rr &&
	 grep -o '\"levels\":[^\"]*' $tmp/rand.html | tr '[]' '\\n\\n' |
	     awk -F, 'NF == 4 { s += \$4; m++ } END { print \"# \" s; exit !(m >= 2 && s <= 8 * 1048576) }' &&
	 grep -qx 'errors 0' $tmp/rr"
