#!/bin/sh
# trmap -c -O html: the cache view (cachesim --map's event map) under the
# access map in one page, in headless Chromium: its cells are the static
# cachesim --map picture's; a click on a set gives its hits and misses as
# a naive LRU model of the caches counts them (awk, below); a time
# brushed on one view shows on the other, where the views' shared time
# puts it; the map's time zoom moves the cache view too.
. "$(dirname "$0")/lib.sh"
plan 21

T="python3 $(dirname "$0")/topo.py"
# 4000 reads of 8 bytes, one first-level block each: A (2048 doubles)
# swept by a stride of 5 elements from lines k.c:10 and 11, B (512
# doubles) at random from k.c:20, one access in three
awk 'BEGIN { srand(11); print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 A 0x10000 16384 8"; print "#region 0 B 0x20000 4096 8"
	for (i = 0; i < 4000; i++) { b = i % 3 == 2; a = b ? 131072 + 8 * int(rand() * 512) : 65536 + 8 * ((5 * i) % 2048)
	    printf "%d R 0x%x 8 - - k.c:%d %s -\n", i, a, b ? 20 : 10 + i % 2, b ? "g" : "f" } }' >"$tmp/tr"
C="-c 4K:2:64 -c 16K:4:64"

# the caches as a naive model: LRU sets, each level looked up in turn,
# filled on a miss, none told of another's evictions (reads: nothing is
# written back).  Per access: its seq, L1 set, level (2: memory),
# whether L1 evicted, its line and region.
awk "$HEX"'
function look(L, s, b,   i, k) {
	for (i = 0; i < W[L]; i++)
		if (V[L, s, i] && T[L, s, i] == b) { U[L, s, i] = ++clock; return 1 }
	EV = 0; k = -1
	for (i = 0; i < W[L] && k < 0; i++) if (!V[L, s, i]) k = i
	if (k < 0) { EV = 1; k = 0; for (i = 1; i < W[L]; i++) if (U[L, s, i] < U[L, s, k]) k = i }
	V[L, s, k] = 1; T[L, s, k] = b; U[L, s, k] = ++clock
	return 0
}
BEGIN { W[1] = 2; S[1] = 32; W[2] = 4; S[2] = 64 }
/^#/ { next }
{ a = hex($3); b = int(a / 64); s = b % 32
  if (look(1, s, b)) { lv = 0; ev = 0 } else { ev = EV; lv = look(2, b % 64, b) ? 1 : 2 }
  print $1, s, lv, ev, $7, a < 131072 ? "A" : "B" }' "$tmp/tr" >"$tmp/model"

check_fail "-c without -O html: a usage error" 2 "-c: the page's cache view" "trmap $C $tmp/tr"
check_fail "-c of a bad cache: said" 2 "-c 4K:3:64: " "trmap -c 4K:3:64 -O html $tmp/tr"
check_fail "-c of OPT, which reads the future first: refused" 2 "OPT and PES" "trmap -c 4K:2:64:opt -O html $tmp/tr"

trmap $C -O html "$tmp/tr" >"$tmp/c.html"
check "one file with its cache view, nothing fetched: no src, href or URL" \
	"grep -q '\"cache\":{' $tmp/c.html && grep -q 'id=\"cover\"' $tmp/c.html &&
	 ! sed 's/\"data\":\"[^\"]*\"//' $tmp/c.html | grep -Eiq ' (src|href)=|url\\(|https?:|//[a-z]'"
if ! command -v chromium >/dev/null; then
	while [ "$n" -lt 21 ]; do skip "chromium is not installed (Debian: chromium)"; done
	exit 0
fi

browse "$tmp/c.html" "layout;clayout" >"$tmp/r1"
check "the page with its cache view loads: no error, no console message" \
	"grep -qx 'errors 0' $tmp/r1 && grep -qx done $tmp/r1 && grep -q '^clayout [0-9]' $tmp/r1 && ! test -s $tmp/console"
# clayout: the plot's x y w h, columns used, rows, accesses a column,
# block accesses, sets, the map's height (the cache view is below it)
set -- $(sed -n 's/^clayout //p' "$tmp/r1") 0 0 0 0 0 0 0 0 0 0
CX=$1 CY=$2 CW=$3 CH=$4 COLS=$5 ROWS=$6 PER=$7 CN=$8 NSETS=$9 shift 9; MH=$1
set -- $(sed -n 's/^layout //p' "$tmp/r1") 0 0 0 0
PX=$1 PY=$2 PW=$3 PH=$4
check_same "its plot and columns are cachesim --map's (the SVG's image and comment)" \
	"echo $CX $CY $CW $CH $COLS $ROWS $NSETS" \
	"cachesim $C --map $tmp/st.svg --width 900 $tmp/tr >/dev/null &&
	 sed -n 's/.*<image x=\"\\([0-9.]*\\)\" y=\"\\([0-9.]*\\)\" width=\"\\([0-9.]*\\)\" height=\"\\([0-9.]*\\)\".*/\\1 \\2 \\3 \\4/p' $tmp/st.svg |
	     awk '{ printf \"%s %s %s %s \", \$1 + 0, \$2 + 0, \$3 + 0, \$4 + 0 }' &&
	 sed -n 's/.*; columns \\([0-9]*\\).*/\\1/p' $tmp/st.svg | tr '\\n' ' ' && echo 32 32"
check "4000 block accesses, 8 a column, a row a set" \
	"test '$CN $PER $NSETS' = '4000 8 32' && test $COLS -eq 500"

# a set's y on the cache figure; x of a column's middle (a mouse event's
# position is whole pixels)
sety() { echo "$CY + $CH - ($1 + 0.5) * $CH / $NSETS" | bc -l | awk '{ printf "%d", $1 + 0.5 }'; }
colx() { echo "$CX + ($1 + 0.5) * $CW / $COLS" | bc -l | awk '{ printf "%d", $1 + 0.5 }'; }
# what the model says of set S (of columns c0 to c1 - 1 alone: a brush
# or a cell), as the page says it
said() {	# set c0 c1 what: set (a click) or cell (a tip)
	awk -v S="$1" -v c0="$2" -v c1="$3" -v what="$4" -v per="$PER" '
	$2 == S && int(NR - 1) >= c0 * per && NR - 1 < c1 * per { t++; lv[$3]++; ev += $4; m += $3 > 0
	    la[$5]++; lm[$5] += $3 > 0; ra[$6]++; rm[$6] += $3 > 0 }
	function served(   s) { s = (t + 0) (t == 1 ? " block access" : " block accesses") (t ? ": " : "")
	    if (lv[0]) s = s "L1 hit " lv[0]
	    if (lv[1]) s = s (lv[0] ? ", " : "") "L2 " lv[1]; if (lv[2]) s = s (lv[0] + lv[1] ? ", " : "") "memory " lv[2]
	    return s " | L1 misses " (m + 0) ", evictions " (ev + 0) }
	function list(h, a, mm,   k, n, i, j, x, o) { n = 0; for (k in a) o[++n] = k
	    for (i = 2; i <= n; i++) for (j = i; j > 1 && (a[o[j]] > a[o[j - 1]] || a[o[j]] == a[o[j - 1]] && o[j] < o[j - 1]); j--) { x = o[j]; o[j] = o[j - 1]; o[j - 1] = x }
	    s = " | " h " (block accesses, L1 misses):"; for (i = 1; i <= n; i++) s = s " |   " o[i] " " a[o[i]] " " mm[o[i]]; return s }
	END { if (what == "cell") print served(); else print "set " S " of 32 (L1 4096:2:64 lru) | " served() list("source lines", la, lm) list("regions", ra, rm) }' "$tmp/model"
}

# the cells of two accesses (the 806th, the 22nd): their column and set
set -- $(awk 'NR == 806 || NR == 22 { print int((NR - 1) / 8), $2 }' "$tmp/model") 0 0 0 0
H1="$1 $2" H2="$3 $4"
browse "$tmp/c.html" "cclick:$(colx 100),$(sety 7);text:set;cclick:$(colx 3),$(sety 30);text:set;key:ArrowDown;text:set;chover:$(colx $1),$(sety $2);chover:$(colx $3),$(sety $4)" >"$tmp/r2"
check_same "a click on set 7: its hits and misses by level, evictions, lines and regions, as the model counts them" \
	"sed -n 's/^text //p' $tmp/r2 | sed -n 1p" "said 7 0 $COLS set"
check_same "... and on set 30" "sed -n 's/^text //p' $tmp/r2 | sed -n 2p" "said 30 0 $COLS set"
check_same "the down key chooses the set below" "sed -n 's/^text //p' $tmp/r2 | sed -n 3p" "said 29 0 $COLS set"
check_same "a hover names a cell's time, set and counts" \
	"sed -n 's/^chover [^:]*: //p' $tmp/r2 | sed 's/ | the worst: [^|]*|/ |/'" \
	"for c in '$H1' '$H2'; do set -- \$c; echo \"time: accesses \$((\$1 * 8))-\$((\$1 * 8 + 7)) (block accesses \$((\$1 * 8))-\$((\$1 * 8 + 7))) | set \$2 | \$(said \$2 \$1 \$((\$1 + 1)) cell)\"; done"
check "no error in the driven page" "grep -qx 'errors 0' $tmp/r2 && ! test -s $tmp/console"

# a drag on the cache view from column 100's middle to 240's: the
# whole columns under it (100 to 240), accesses 800 to 1927 (a column 8
# accesses); the map shows them at their time; a shift-drag on the map
# from x = a to b: accesses t(a) to t(b) (rounded out), at columns t / 8
# of the cache view.  Then the set's counts in the brush.
Y=$(sety 7) X1=$(colx 100) X2=$(colx 240)
browse "$tmp/c.html" "cbrush:$X1,$X2,$Y;brush;cclick:$(colx 50),$Y;text:set;mbrush:$((PX + 100)),$((PX + 300)),$((PY + 50));brush" >"$tmp/r3"
check_same "brushed on the cache view: the same accesses shown on the map" \
	"grep '^brush' $tmp/r3 | sed -n 1p" \
	"awk -v px=$PX -v pw=$PW -v cx=$CX -v cw=$CW 'BEGIN { c0 = int(($X1 - cx) * 500 / cw); c1 = ($X2 - cx) * 500 / cw; c1 = c1 == int(c1) ? c1 : int(c1) + 1
	    if (c0 != 100 || c1 != 241) exit 1; a = 8 * c0; b = 8 * c1
	    printf \"brush %d %d map %.2f %.2f cache %.2f %.2f\\n\", a, b, px + a * pw / 4000, px + b * pw / 4000, cx + c0 * cw / 500, cx + c1 * cw / 500 }'"
check_same "brushed on the map: the same accesses shown on the cache view" \
	"grep '^brush' $tmp/r3 | sed -n 2p" \
	"awk -v px=$PX -v pw=$PW -v cx=$CX -v cw=$CW 'BEGIN { a = int(100 * 4000 / pw); b = 300 * 4000 / pw; b = b == int(b) ? b : int(b) + 1
	    printf \"brush %d %d map %.2f %.2f cache %.2f %.2f\\n\", a, b, px + a * pw / 4000, px + b * pw / 4000, cx + a / 8 * cw / 500, cx + b / 8 * cw / 500 }'"
check_same "a set's counts in the brush, as the model counts them" \
	"sed -n 's/^text //p' $tmp/r3 | sed 's/.*brushed, columns 100-240 (accesses 800-1927): //; s/; / | /; s/ | source lines.*//'" \
	"said 7 100 241 cell"

# the brush drawn: MTV's yellow over each view, 0.3 of (255, 200, 0)
# over what was there, the same accesses (b: the middle third)
MX=$((PX + PW / 2)) MY=$((PY + PH / 2)) KX=$(colx 250) KY=$(sety 7)
browse "$tmp/c.html" "pixel:$MX,$MY;cpixel:$KX,$KY;key:b;pixel:$MX,$MY;cpixel:$KX,$KY;brush" >"$tmp/r4"
check "the brush shows on both views, blended over their pixels" \
	"grep -E '^c?pixel' $tmp/r4 | awk '{ k = \$1; if (!(k in a)) { a[k] = \$4 \" \" \$5 \" \" \$6; next } split(a[k], o, \" \")
	    for (i = 1; i <= 3; i++) { e = 0.7 * o[i] + 0.3 * (i == 1 ? 255 : i == 2 ? 200 : 0); d = \$(3 + i) - e; if (d < -1.5 || d > 1.5) bad++ } m++ }
	    END { exit bad || m != 2 }' && grep -q '^brush 1333 2667 ' $tmp/r4"

# the map zoomed in time (]) and panned: the cache view follows, its
# columns the map's accesses over 8
browse "$tmp/c.html" "key:];key:ArrowRight;view;brush;key:b;brush" >"$tmp/r5"
check_same "the map's time zoom and pan move the cache view: b brushes the middle third of the time in view" \
	"grep '^brush' $tmp/r5 | sed -n 2p | awk '{ print \$2, \$3 }'" \
	"sed -n 's/^view //p' $tmp/r5 | awk -v c=$PW '{ t0 = \$1 * 4000 / c; t1 = \$2 * 4000 / c; w = t1 - t0; a = int(t0 + w / 3); b = t1 - w / 3; b = b == int(b) ? b : int(b) + 1; print a, b }'"
check "... shown at the same time on both views, the cache view's columns its accesses over 8" \
	"sed -n 's/^view //p' $tmp/r5 >$tmp/v5 && grep '^brush' $tmp/r5 | sed -n 2p | awk -v px=$PX -v pw=$PW -v cx=$CX -v cw=$CW -v c=$PW '
	    NR == FNR { t0 = \$1 * 4000 / c; t1 = \$2 * 4000 / c; next }
	    { for (k = 0; k < 2; k++) { f = (\$(2 + k) - t0) / (t1 - t0); if (f < 0.2 || f > 0.8) bad++
		d = \$(5 + k) - (px + f * pw); e = \$(8 + k) - (cx + f * cw); if (d * d > 1e-4 || e * e > 1e-4) bad++ }
	      ok = \$4 == \"map\" && \$7 == \"cache\" }
	    END { exit bad || !ok }' $tmp/v5 -"

# the cells against the static picture of cachesim --map, the same
# trace, caches and width, where the page puts them: under the map
shot() {
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chr" --hide-scrollbars \
	    --virtual-time-budget=30000 --window-size=900,1120 --screenshot="$2" "file://$1${3:+#test:$3}" 2>/dev/null
}
check "the page's cache view is cachesim --map's PNG, pixel for pixel" \
	"cachesim $C --map $tmp/st.png --width 900 $tmp/tr >/dev/null && shot $tmp/c.html $tmp/h.png &&
	 $T samepix $tmp/st.png $tmp/h.png $((CX + 1)) $((CY + 1)) $((CW - 2)) $((CH - 2)) $((CX + 1)) $((CY + MH + 1)) >$tmp/px &&
	 awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.99 { ok = 1 } END { exit !ok }' $tmp/px"
# matmul (a loop nest), an i7's two levels: a page's cache view of a
# real trace, and its map as the page without -c draws it
trfilter -l -e "$D/matmul" -m matmul,done -t RWM "$D/matmul-blocked.lk.gz" >"$tmp/mm"
check "matmul's cache view is cachesim --map's PNG but for 1% of its pixels" \
	"trmap -c 32K:8:64 -c 256K:4:64 -o $tmp/mm.html $tmp/mm && cachesim -c 32K:8:64 -c 256K:4:64 --map $tmp/mm.png --width 900 $tmp/mm >/dev/null &&
	 shot $tmp/mm.html $tmp/mh.png && set -- \$(browse $tmp/mm.html clayout | sed -n 's/^clayout //p') &&
	 $T samepix $tmp/mm.png $tmp/mh.png \$((\$1 + 1)) \$((\$2 + 1)) \$((\$3 - 2)) \$((\$4 - 2)) \$((\$1 + 1)) \$((\$2 + \${10} + 1)) >$tmp/pm &&
	 awk '{ print \"# \" \$0 } \$2 > 5000 && \$3 >= 0.99 { ok = 1 } END { exit !ok }' $tmp/pm"
check "... and its access map is the page's without -c, pixel for pixel" \
	"trmap -o $tmp/m0.html $tmp/mm && shot $tmp/m0.html $tmp/m0.png &&
	 $T samepix $tmp/m0.png $tmp/mh.png 0 0 900 560 >$tmp/p0 && awk '{ print \"# \" \$0 } \$3 == 1 { ok = 1 } END { exit !ok }' $tmp/p0"
