#!/bin/sh
# cachesim: levels of many ways (a hash of their blocks, lists of their
# ways) against naive models, every policy; and text input read in
# batches: bad lines and events on a batch's edges keep their place.
. "$(dirname "$0")/lib.sh"
plan 30

U=$(cd "$(dirname "$0")/unit" && pwd)
col() { awk -v l="$1" '$1 == l {print $10, $16}'; }	# misses, writebacks

# 12000 accesses of 32-byte blocks, skewed over 4000 blocks: 2048- and
# 1024-block caches hit and miss
awk 'BEGIN {srand(7); for (i = 0; i < 12000; i++) print (rand() < .15 ? "M" : rand() < .3 ? "W" : "R"), int(rand() * rand() * 4000)}' >"$tmp/a.in"
awk 'BEGIN {print "#reftrace trace 1"} {print NR - 1, $1, $2 * 32, 4}' "$tmp/a.in" >"$tmp/a.txt"

# The naive LRU, FIFO and MRU: a set's blocks with the time of their last
# use (LRU, MRU) or fill (FIFO), the victim searched; a modify is a read
# then a write.  din's v lines (invalidations) drop their blocks unwritten.
cat >"$tmp/naive.awk" <<'EOF'
function use(b, w,  s, j, v) {
	s = b % sets; now++
	if ((s, b) in pos) {
		j = pos[s, b]
		if (pol != "fifo") t[s, j] = now
		if (w) d[s, j] = 1
		return
	}
	miss++
	if (n[s] < ways)
		for (j = 1; (s, j) in blk; j++) ;	# an empty way
	else {
		v = 1
		for (j = 2; j <= ways; j++)
			if (pol == "mru" ? t[s, j] > t[s, v] : t[s, j] < t[s, v]) v = j
		j = v; wb += d[s, j]; delete pos[s, blk[s, j]]; n[s]--
	}
	blk[s, j] = b; pos[s, b] = j; t[s, j] = now; d[s, j] = w; n[s]++
}
function inval(a, len,  b, s) {
	for (b = int(a / bs); b <= int((a + len - 1) / bs); b++) {
		s = b % sets
		if ((s, b) in pos) { delete blk[s, pos[s, b]]; delete pos[s, b]; n[s]-- }
	}
}
function hex(s,  i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
din && $1 == "v" { inval(hex($2), hex($3)); next }
din { use(int(hex($2) / bs), $1 == "w"); next }
$1 == "R" || $1 == "M" { use($2, 0) }
$1 == "W" || $1 == "M" { use($2, 1) }
END { print miss + 0, wb + 0 }
EOF
naive() { awk -v sets="$1" -v ways="$2" -v pol="$3" -v bs=32 -v din="${4:+1}" -f "$tmp/naive.awk" "${4:-$tmp/a.in}"; }

for p in lru fifo mru; do
	check_same "$p, 2 sets x 1024 ways = the naive awk $p" \
	    "cachesim -c 64K:1024:32:$p $tmp/a.txt | col L1" "naive 2 1024 $p"
done
check_same "lru, fully associative 1024 ways = the naive awk lru" \
    "cachesim -c 32K:full:32 $tmp/a.txt | col L1" "naive 1 1024 lru"
# every policy against naivecache (t/unit), above the hashed threshold
# (OPT and PES, whose naive look-ahead is slow, over the first 4000)
head -n 4000 "$tmp/a.in" >"$tmp/a4.in"
sed -n 1,4001p "$tmp/a.txt" >"$tmp/a4.txt"
for p in lru fifo random mru srrip lfu opt pes; do
	a=a c=64K:1024:32 g="2 1024"
	case $p in opt|pes) a=a4 c=16K:128:32 g="4 128" ;; esac
	check_same "$p, $g ways = naivecache" \
	    "cachesim -S 3 -c $c:$p $tmp/$a.txt | col L1" "$U/naivecache $g $p 3 <$tmp/$a.in"
	check_same "$p, fully associative 512 ways = naivecache" \
	    "cachesim -S 3 -c 16K:full:32:$p $tmp/$a.txt | col L1" "$U/naivecache 1 512 $p 3 <$tmp/$a.in"
done
check_same "plru, 4 sets x 64 ways = naivecache" \
    "cachesim -c 8K:64:32:plru $tmp/a.txt | col L1" "$U/naivecache 4 64 plru <$tmp/a.in"

# din, Dinero IV's text: reads and writes (a modify as both), and
# invalidations on and beside the edges of 256-item batches
awk '{a = sprintf("%x", $2 * 32); if ($1 != "W") print "r", a, 4; if ($1 != "R") print "w", a, 4}' "$tmp/a.in" |
    awk 'NR == 256 || NR == 257 || NR == 512 || NR == 1500 {printf "v %x %x\n", (NR % 7) * 4096, 8192} {print}' >"$tmp/ev.din"
naive 1 1024 lru "$tmp/ev.din" >"$tmp/ev.lru"
naive 2 1024 fifo "$tmp/ev.din" >"$tmp/ev.fifo"
check_same "din with invalidations on batch edges, fully associative 1024 = the naive awk lru" \
    "cachesim -c 32K:full:32 $tmp/ev.din | col L1" "cat $tmp/ev.lru"
check_same "din with invalidations, 2 sets x 1024 fifo = the naive awk fifo" \
    "cachesim -c 64K:1024:32:fifo $tmp/ev.din | col L1" "cat $tmp/ev.fifo"
stubok cachesim check_same "trfilter: events keep their place among the records (din written back as read)" \
    "trfilter -O din $tmp/ev.din" "cat $tmp/ev.din"

# bad lines: the first of a batch (257), the last of one and the next
# (512, 513), two in a row, the last line
awk 'NR == 257 || NR == 512 || NR == 513 || NR == 1000 || NR == 1001 {print "zz " NR} {print} END {print "zz end"}' \
    "$tmp/ev.din" >"$tmp/bad.din"
check_fail "a bad line that starts a batch is named, without -k" 1 \
    "^cachesim: $tmp/bad.din:257: bad din label" "cachesim -c 32K:full:32 $tmp/bad.din"
check_same "-k: each bad line named at its place, in order" \
    "cachesim -k -c 32K:full:32 $tmp/bad.din 2>&1 >/dev/null | sed 's/^cachesim: .*bad.din:\([0-9]*\): bad din label.*/\1/'" \
    "awk '/^zz/ {print NR}' $tmp/bad.din"
check_same "-k: the table of the records around them = the naive awk lru's" \
    "cachesim -k -c 32K:full:32 $tmp/bad.din 2>/dev/null | col L1" "cat $tmp/ev.lru"
check_same "-k from a pipe, gzip: the same" \
    "gzip -c $tmp/bad.din | cachesim -k -c 64K:1024:32:fifo 2>/dev/null | col L1" "cat $tmp/ev.fifo"
stubok cachesim check_same "trfilter: the 256 records before the first bad line come out first" \
    "trfilter -O din $tmp/bad.din 2>/dev/null; :" "head -n 256 $tmp/ev.din"
stubok cachesim check_same "trfilter -k: every good line, in order" \
    "trfilter -k -O din $tmp/bad.din 2>/dev/null" "cat $tmp/ev.din"
