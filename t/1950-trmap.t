#!/bin/sh
# trmap: the density raster against a naive binning in awk, the folded
# axis against the regions touched, the array grid against a count from
# the trace, pictures that decode.
. "$(dirname "$0")/lib.sh"
plan 27

T="python3 $(dirname "$0")/topo.py"
# Two regions far apart: A, 1000 doubles swept (a diagonal), and B, 64
# ints read with a stride of 5 elements; then A swept backwards.
awk 'BEGIN {
	print "#reftrace trace 1 seq op addr size tid pc loc func var"
	print "#region 0 A 0x10000 8000 8"
	print "#region 0 B 0x40000100 256 4"
	s = 0
	for (i = 0; i < 1000; i++) printf "%d %s 0x%x 8 - - - - -\n", s++, i % 3 ? "R" : "W", 65536 + 8 * i
	for (i = 0; i < 300; i++) printf "%d R 0x%x 4 - - - - -\n", s++, 1073741824 + 256 + 4 * ((5 * i) % 64)
	for (i = 999; i >= 0; i--) printf "%d M 0x%x 8 - - - - -\n", s++, 65536 + 8 * i
}' >"$tmp/two"
trmap --counts --size 400x300 "$tmp/two" >"$tmp/cnt"
check "--counts: a header, two segments, pixels" \
    "grep -q '^# trmap: 2300 accesses on [0-9]* x [0-9]* pixels' $tmp/cnt && test \$(grep -c '^#segment' $tmp/cnt) = 2 && test \$(grep -c '^[0-9]' $tmp/cnt) -gt 100"
check_same "the folded axis: one segment per region, from its first byte touched to its last" \
    "awk '/^#segment/ { print \$2, \$3 }' $tmp/cnt" \
    "awk '$HEX !/^#/ { a = hex(\$3); l = a + \$4 - 1; k = a < 2^29 ? 0 : 1; if (!(k in lo) || a < lo[k]) lo[k] = a; if (l > hi[k]) hi[k] = l } END { for (k = 0; k < 2; k++) printf \"0x%x 0x%x\\n\", lo[k], hi[k] }' $tmp/two"
check "the segments are apart: a gap between them, the upper one at the top" \
    "awk '/^#segment/ { j = n++; y0[j] = \$4; y1[j] = \$5 } /^# trmap/ { split(\$7, d, \"x\"); rows = \$8 } END { exit !(y0[0] == 0 && y0[1] > y1[0] + 1 && y1[1] == rows - 1) }' $tmp/cnt"
check_same "counts per pixel and op = a naive binning of the same trace in awk" \
    "grep '^[0-9]' $tmp/cnt | sort -n -k1,1 -k2,2" \
    "awk '$HEX FNR == NR { if (/^# trmap/) { n = \$3; cols = \$6 } if (/^#segment/) { j = ns++; lo[j] = hex(\$2); hi[j] = hex(\$3); y0[j] = \$4; y1[j] = \$5 } next }
	  /^#/ { next }
	  { a = hex(\$3); for (k = 0; k < ns; k++) if (a >= lo[k] && a <= hi[k]) break
	    x = int(i++ * cols / n); y = y0[k] + int((a - lo[k]) * (y1[k] - y0[k] + 1) / (hi[k] - lo[k] + 1))
	    o = \$2 == \"R\" ? 1 : \$2 == \"W\" ? 2 : 3; c[x \" \" y, o]++; seen[x \" \" y] = 1 }
	  END { for (p in seen) print p, c[p, 1] + 0, c[p, 2] + 0, c[p, 3] + 0, 0 }' $tmp/cnt $tmp/two | sort -n -k1,1 -k2,2"
check "the sweep is a diagonal: rows rise with time in A's first third, fall in its last" \
    "awk '/^#segment/ && !s++ { top = \$5 } /^[0-9]/ && \$2 <= top { if (\$1 < 150 && \$2 < last1) bad++; if (\$1 < 150) { last1 = \$2; n++ } } END { exit bad > 0 || n == 0 }' $tmp/cnt"
check_same_rows "standard input reads as a file does (the spool)" "trmap --counts <$tmp/two" "trmap --counts $tmp/two"
check_same "--regions: accesses and bytes per region, counted by awk" \
    "trmap --regions $tmp/two | awk '!/^#/ { print \$1, \$5, \$6 }'" \
    "awk '$HEX !/^#/ { k = hex(\$3) < 2^29 ? \"A\" : \"B\"; n[k]++; b[k] += \$4 } END { print \"A\", n[\"A\"], b[\"A\"]; print \"B\", n[\"B\"], b[\"B\"] }' $tmp/two"
check_fail "--regions of a trace that registers none: said, status 0" 0 \
    "^trmap: --regions: the trace registers no region" "grep -v '^#region' $tmp/two | trmap --regions"
check "--regions with regions: no word on stderr" "trmap --regions $tmp/two 2>$tmp/re >$tmp/ro && sed 1d $tmp/ro | grep -q '^[^#]' && test ! -s $tmp/re"
check_same "--array B:8: each element's accesses = a count from the trace" \
    "trmap --array B:8 -O svg $tmp/two >$tmp/b.svg && python3 -c 'import sys, re, base64, zlib, struct
s = open(sys.argv[1]).read(); d = base64.b64decode(re.search(\"base64,([^\\\"]*)\", s).group(1)); p, idat = 8, b\"\"
while p < len(d):
    n, t = struct.unpack(\">I4s\", d[p:p + 8]); body = d[p + 8:p + 8 + n]
    if t == b\"IHDR\": w, h = struct.unpack(\">II\", body[:8])
    if t == b\"IDAT\": idat += body
    p += 12 + n
raw = zlib.decompress(idat); kx, ky = w // 8, h // 8
for e in range(64):
    r, c = divmod(e, 8); print(e, raw[r * ky * (w + 1) + 1 + c * kx])' $tmp/b.svg" \
    "awk '$HEX !/^#/ && hex(\$3) > 2^29 { n[(hex(\$3) - 1073741824 - 256) / 4]++ } END { for (e = 0; e < 64; e++) if (e in n) { lo = lo == \"\" || n[e] < lo ? n[e] : lo; hi = n[e] > hi ? n[e] : hi } for (e = 0; e < 64; e++) { v = !(e in n) ? 0 : (hi > lo ? 1 + int(254 * (n[e] - lo) / (hi - lo)) : 255); print e, v } }' $tmp/two"
check "the map as PNG decodes at the size asked" \
    "trmap -o $tmp/m.png --size 640x400 $tmp/two && test \$($T png $tmp/m.png) = 640x400"
check "the map as SVG: well-formed, rsvg-convert renders it, titled, axes, key, regions named" \
    "trmap --title 'two arrays' $tmp/two >$tmp/m.svg && $T svg $tmp/m.svg >/dev/null && rsvg-convert $tmp/m.svg >$tmp/m2.png && $T png $tmp/m2.png >/dev/null &&
     for w in 'two arrays' 'time (accesses)' 'folded' '>read<' '>write<' '>A<' '>B<' '0x10000<'; do grep -q \"\$w\" $tmp/m.svg || { echo \"no \$w\"; exit 1; }; done"
check "--recency: a grid with its key" "trmap --array A:40 --recency $tmp/two | grep -q 'last access'"
check_fail "--array of a region never registered" 1 "no region of that name" "trmap --array Q:4 $tmp/two"
check_fail "a missing file" 1 "nosuch" "trmap $tmp/nosuch"
check_fail "a bad option" 2 "usage" "trmap -Q"

# --colour region: A's rows blue (the most accesses get the first
# colour), B's orange; each pixel's palette entry a shade of its
# region's colour.  The image is read from the SVG's embedded PNG.
cat >"$tmp/pix.py" <<'PY'
import sys, re, base64, zlib, struct
s = open(sys.argv[1]).read(); d = base64.b64decode(re.search('base64,([^"]*)', s).group(1)); p, idat = 8, b''
while p < len(d):
    n, t = struct.unpack('>I4s', d[p:p + 8]); body = d[p + 8:p + 8 + n]
    if t == b'IHDR': w, h = struct.unpack('>II', body[:8])
    if t == b'PLTE': pal = body
    if t == b'IDAT': idat += body
    p += 12 + n
raw = zlib.decompress(idat)
for y in range(h):
    for x in range(w):
        k = raw[y * (w + 1) + 1 + x]
        if k: print(x, h - 1 - y, pal[3 * k], pal[3 * k + 1], pal[3 * k + 2])
PY
trmap --colour region --counts --size 500x300 "$tmp/two" >"$tmp/rcnt"
trmap --colour region --size 500x300 -O svg "$tmp/two" >"$tmp/r.svg"
check "--colour region: A's rows a shade of blue, B's of orange, nothing else" \
    "python3 $tmp/pix.py $tmp/r.svg >$tmp/rpix && test \$(wc -l <$tmp/rpix) -gt 200 &&
     awk 'NR == FNR { if (/^#segment/) { y0[n] = \$4; y1[n++] = \$5 } next }
	  { k = \$2 >= y0[0] && \$2 <= y1[0] ? 0 : \$2 >= y0[1] && \$2 <= y1[1] ? 1 : -1
	    if (k < 0 || (k == 0 && !(\$5 > \$3)) || (k == 1 && !(\$3 > \$5))) bad++; seen[k]++ }
	  END { exit bad || !seen[0] || !seen[1] }' $tmp/rcnt $tmp/rpix"
check "--colour region: the legend names each region with its accesses" \
    "grep -q '>A (2000)<' $tmp/r.svg && grep -q '>B (300)<' $tmp/r.svg && grep -q 'region (most in a pixel)' $tmp/r.svg"
# 25 regions, region k accessed k times: the 17 most accessed named, the
# other 8 one grey class with their sum
awk 'BEGIN { print "#reftrace trace 1 seq op addr size tid pc loc func var"
	for (k = 1; k <= 25; k++) printf "#region 0 r%02d 0x%x 64 8\n", k, 65536 * k
	for (k = 1; k <= 25; k++) for (i = 0; i < k; i++) printf "%d R 0x%x 8 - - - - -\n", s++, 65536 * k + 8 * (i % 8) }' >"$tmp/many"
check_same "many regions: the 17 with the most accesses named, in order, the rest as others" \
    "trmap --colour region $tmp/many | grep -o '>r[0-9]* ([0-9]*)<\\|>[0-9]* others ([0-9]*)<' | tr -d '<>'" \
    "awk 'BEGIN { for (k = 9; k <= 25; k++) printf \"r%02d (%d)\\n\", k, k; print \"8 others (36)\" }'"
check_fail "--colour line on a trace without source lines: said" 0 "no access has a source line" \
    "trmap --colour line -o $tmp/l.png $tmp/two"
check_same_rows "--colour op is the default" "trmap --colour op $tmp/two" "trmap $tmp/two"

# Gleipnir's variables (the accesses name them): the metrics per variable
# without registration, each spanning the bytes its accesses touch
# (worked by hand: glScalar is 4 bytes at 0x601070 and 4 at 0x601078).
printf '%s\n' 'START PID 517' 'X THREAD CREATE 0:1' 'S 7ff000490 8 1 S main LV _zzq_result' \
    'L 7ff000490 8 1 S main' 'S 000601070 4 1 G main GV glScalar' 'M 7ff000498 4 2 S main LV i' \
    'S 000601080 8 1 G func GS glStrcArray[0].var1' 'L 000601088 8 1 G func GS glStrcArray[0].var1' \
    'L 000601078 4 1 G main GV glScalar' >"$tmp/g.txt"
check_same "--regions: Gleipnir's variables, their accesses, bytes and ops" \
	"trmap --regions $tmp/g.txt | grep -v '^#'" \
	"printf '%s\n' '_zzq_result 0x7ff000490 8 0 1 8 0 1 0 0' 'glScalar 0x601070 12 0 2 8 1 1 0 0' 'i 0x7ff000498 4 0 1 4 0 0 1 0' 'glStrcArray[0].var1 0x601080 16 0 2 16 1 1 0 0'"

# near-empty segments next to each other (a whole program's loader and
# libc data beside its arrays) share one band of the least height; the
# arrays that are used get the room
awk 'BEGIN { print "#reftrace trace 1"; n = 0; for (i = 0; i < 20000; i++) { printf "%d R 0x%x 8\n", n++, 65536 + 8 * (i % 1000); printf "%d R 0x%x 8\n", n++, 2097152 + 8 * (i % 1000) }
    for (k = 0; k < 20; k++) printf "%d R 0x%x 8\n", n++, 67108864 + k * 65536 }' >"$tmp/sparse"
check_same "20 near-empty segments after two arrays: three bands, not 22" \
    "trmap --counts $tmp/sparse | grep -c '^#segment'" "echo 3"
check "... each array over 40% of the height, the shared band at most 20 rows" \
    "trmap --counts $tmp/sparse | awk '/^#segment/ {h[++n] = \$5 - \$4 + 1} END {exit !(h[1] > 0.4 * 482 && h[2] > 0.4 * 482 && h[3] <= 20)}'"

# the segments of an object other than the program (its loaded extent
# from readelf, at the bias of its #object line) share one band named
# after it, with room by use alone: here bsort's read-only data and its
# data, 8 KiB apart, beside an array of the program's and a heap
set -- $(readelf -lW "$D/bsort" | awk "$HEX"' $1 == "LOAD" {print hex($3)}')
awk -v D="$D" -v ro=$((0x4000000 + $1 + 16)) -v rw=$((0x4000000 + $4 + 16)) 'BEGIN { print "#reftrace trace 1"
    printf "#object 0 %s 0x100000\n#object 0 %s 0x4000000\n", D "/kernels", D "/bsort"; n = 0
    for (i = 0; i < 3000; i++) printf "%d R 0x%x 8\n", n++, 1114112 + 8 * (i % 2000)
    for (i = 0; i < 300; i++) { printf "%d R 0x%x 8\n", n++, ro + 8 * (i % 4); printf "%d W 0x%x 8\n", n++, rw + 8 * (i % 4) }
    for (i = 0; i < 300; i++) printf "%d R 0x%x 8\n", n++, 83886080 + 8 * (i % 8) }' >"$tmp/objs"
check_same "an object's two segments: one band; the program's array and the heap each their own" \
    "trmap --counts $tmp/objs | awk '/^#segment/ {print \$2, \$3}'" \
    "printf '0x110000 0x113e7f\n0x%x 0x%x\n0x5000000 0x500003f\n' $((0x4000000 + $1 + 16)) $((0x4000000 + $4 + 16 + 31))"
# 482 rows: 2 gaps of 5, 3 bands of at least 14, half the 430 left by
# use (600 of 3900 accesses), none by extent
check "... its band has room by use alone: 14 + 215 * 600 / 3900 rows, within one" \
    "trmap --counts $tmp/objs | awk '/^#segment/ {h[++n] = \$5 - \$4 + 1} END {d = h[2] - (14 + 215 * 600 / 3900); exit !(n == 3 && d > -1 && d < 1)}'"
check "... and is named after the object" \
    "trmap -o $tmp/objs.svg $tmp/objs && grep -q '>bsort</text>' $tmp/objs.svg"
