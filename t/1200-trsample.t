#!/bin/sh
# trsample: every sampler against positions computed by awk, and the
# random ones against their distributions.
. "$(dirname "$0")/lib.sh"
plan 40

L=$D/bsort-reversed.lk.gz
trfilter "$L" >"$tmp/b.txt"
grep -v '^#' "$tmp/b.txt" | awk '{print $1}' >"$tmp/seqs"
N=$(wc -l <"$tmp/seqs")
seqs() { awk '!/^#/ {print $1}'; }

check_same "-i 7: every 7th record from the first" "trsample -i 7 $L | seqs" "awk 'NR % 7 == 1' $tmp/seqs"
check_same "-i 010: decimal, every 10th (a leading 0 is not octal)" "trsample -i 010 $L | seqs" "awk 'NR % 10 == 1' $tmp/seqs"
check_fail "-i 0x10: a count is decimal, hex refused, exit 2" 2 "-i 0x10: bad number" "trsample -i 0x10 $L"
check_same "-s 100+50: a slice" "trsample -s 100+50 $L | seqs" "sed -n '101,150p' $tmp/seqs"
check_same "-s 0+700: the first 700" "trsample -s 0+700 $L | seqs" "head -700 $tmp/seqs"
check_same "-s 1000+10000 -i 10: 1 in 10 of a segment (the MPM figure)" \
    "trsample -s 1000+10000 -i 10 $L | seqs" "sed -n '1001,11000p' $tmp/seqs | awk 'NR % 10 == 1'"
check_same "-u 3/10: bursts of 3 in every 10" "trsample -u 3/10 $L | seqs" "awk '(NR - 1) % 10 < 3' $tmp/seqs"
check_same "-i 2 -u 2/5: bursts over the systematic sample" "trsample -i 2 -u 2/5 $L | seqs" \
    "awk '(NR - 1) % 2 == 0 { k = (NR - 1) / 2; if (k % 5 < 2) print }' $tmp/seqs"
check_same "seq is kept: records are the input's" \
    "trsample -i 13 $L | grep -v '^#'" "grep -v '^#' $tmp/b.txt | awk 'NR % 13 == 1'"
check_same "marks, regions and objects pass through" \
    "trsample -i 1000 $L | grep '^#'" "grep '^#' $tmp/b.txt"

# Bernoulli
check_same_rows "-R: the same seed gives the same sample" "trsample -R 0.1 -S 5 $L" "trsample -R 0.1 -S 5 $L"
check "-R: another seed gives another sample" "! cmp -s \$(trsample -R 0.1 -S 5 $L >$tmp/r5; echo $tmp/r5) \$(trsample -R 0.1 -S 6 $L >$tmp/r6; echo $tmp/r6)"
check "-R 0.1: the count is within 5 sd of the binomial mean" \
    "trsample -R 0.1 -S 9 $L | seqs | wc -l | awk -v n=$N '{m = n * 0.1; sd = sqrt(n * 0.1 * 0.9); d = \$1 - m; exit !(d < 5 * sd && -d < 5 * sd)}'"
check "-R: a subsequence of the input" \
    "trsample -R 0.3 -S 2 $L | seqs | awk 'NR == FNR {in_[\$1] = 1; next} {n++} !(\$1 in in_) || (n > 1 && \$1 <= last) {bad = 1} {last = \$1} END {exit bad || n == 0}' $tmp/seqs -"

# reservoir
check_same "-N 500: exactly 500" "trsample -N 500 -S 3 $L | seqs | wc -l" "echo 500"
check "-N: in trace order, all from the input" \
    "trsample -N 500 -S 3 $L | seqs | awk 'NR == FNR {in_[\$1] = 1; next} {n++} !(\$1 in in_) || (n > 1 && \$1 <= last) {bad = 1} {last = \$1} END {exit bad || n == 0}' $tmp/seqs -"
check_same "-N larger than the input: all of it" "trsample -N 100000000 $L | seqs | wc -l" "echo $N"
check_same "-N keeps the events, in place" "trsample -N 10 -S 1 $L | grep '^#'" "grep '^#' $tmp/b.txt"
# uniformity: 400 reservoirs of 5 from 20 records; each is kept 100 times on
# average, sd sqrt(400 * .25 * .75) = 8.7; all within 5 sd
printf '#reftrace trace 1\n' >"$tmp/twenty"
seq 0 19 | awk '{print $1, "R", $1 * 64, 4}' >>"$tmp/twenty"
for s in $(seq 1 400); do trsample -N 5 -S $s "$tmp/twenty"; done | seqs | sort -n | uniq -c >"$tmp/hist"
check "-N is uniform: each of 20 records kept 100 +- 44 times in 400 draws of 5" \
    "test \$(wc -l <$tmp/hist) -eq 20 && awk '\$1 < 56 || \$1 > 144 {bad = 1} END {exit bad}' $tmp/hist"

# spatial hash sampling: closure, rate and monotonicity on blocks of B
blocks() {	# B: seq first-block last-block
	awk "$HEX"' !/^#/ {a = hex($3); printf "%d %.0f %.0f\n", $1, int(a / B), int((a + $4 - 1) / B)}' B=$1
}
trfilter "$L" | blocks 64 >"$tmp/all64"
trsample -H 0.25 -S 4 "$L" | blocks 64 >"$tmp/h25"
closed='NR == FNR { if ($2 == $3) keep[$2] = 1; out[$1] = 1; next } {n++} (($2 in keep) || ($3 in keep)) && !($1 in out) {bad = 1} END {exit bad || n == 0}'
check "-H 0.25: every reference to a sampled block is kept" "awk '$closed' $tmp/h25 $tmp/all64"
check "-H 0.25: a quarter of the blocks, within 5 sd" \
    "awk '\$2 != \$3 {next} NR == FNR {k[\$2] = 1; next} {all[\$2] = 1} END {for (b in all) n++; for (b in k) m++; sd = sqrt(n * .25 * .75); d = m - n * .25; exit !(n > 500 && d < 5 * sd && -d < 5 * sd)}' $tmp/h25 $tmp/all64"
trsample -H 0.5 -S 4 "$L" | seqs >"$tmp/h50"
check "-H: the sample at rate 0.25 is inside the one at 0.5 (one hash)" \
    "awk 'NR == FNR {k[\$1] = 1; next} {n++} !(\$1 in k) {bad = 1} END {exit bad || n == 0}' $tmp/h50 $tmp/h25"
trfilter "$L" | blocks 4096 >"$tmp/all4k"
trsample -H 0.3 -B 4K -S 1 "$L" | blocks 4096 >"$tmp/h4k"
check "-H -B 4K: whole pages are sampled" "awk '$closed' $tmp/h4k $tmp/all4k && test -s $tmp/h4k"

# plumbing
check_same_rows "stdin and '-'" "trsample -i 5 <$L" "trsample -i 5 - <$L"
check_same_rows "-b writes binary" "trsample -b -i 5 $L | trfilter" "trsample -i 5 $L"
check_same "-o writes the file" "trsample -i 9 -o $tmp/o.txt $L && cat $tmp/o.txt" "trsample -i 9 $L"
check_same "-z compresses" "trsample -z -i 9 $L | gzip -d" "trsample -i 9 $L"
check_same "-O din" "trsample -O din -i 9 $L" "trsample -i 9 $L | trfilter -O din"
check_same "-I forces a format: bare numbers read as din are labels" \
    "printf '0 10\n1 20\n' | trsample -I din | grep -v -c '^#'" "echo 2"
printf '#reftrace trace 1\n0 R 0x10 4\nbad line\n2 W 0x20 4\n' >"$tmp/bad.txt"
check_fail "a bad line is named, exit 1" 1 "bad.txt:3: bad seq" "trsample $tmp/bad.txt"
check_same "-k skips it with a warning" "trsample -k $tmp/bad.txt 2>/dev/null | seqs" "printf '0\n2\n'"
check_fail "a missing file: named, exit 1" 1 "trsample: nosuch: No such file" "trsample nosuch"
check_fail "a bad option: usage, exit 2" 2 "usage: trsample" "trsample -Q $L"
check_fail "a rate above 1: exit 2" 2 "want a rate" "trsample -R 1.5 $L"

# Aliasing: the multiply's k loop is 14 data records an iteration (its 14
# instructions come once each); every 10th record steps 10 through it.
trfilter -e "$D/matmul" -F standard -t RWM "$D/matmul-standard.lk.gz" >"$tmp/mm.txt"
check_fail "-i 10 on a loop of 14 records: a warning names the period" 0 \
	"dominant period is 14 accesses aliases it: the sample steps 10" "trsample -i 10 $tmp/mm.txt >/dev/null"
check "-i 3 samples it at least twice a period: no warning" \
	"trsample -i 3 $tmp/mm.txt 2>$tmp/w3 | seqs >$tmp/s3 && test ! -s $tmp/w3 && grep -v '^#' $tmp/mm.txt | awk 'NR % 3 == 1 { print \$1 }' | cmp -s - $tmp/s3"
trsample -i 10 --jitter -S 4 "$tmp/mm.txt" >"$tmp/jit"
grep -v '^#' "$tmp/mm.txt" | awk '{ print NR - 1, $1 }' >"$tmp/pos"
check "--jitter: exactly one record in every interval of 10" \
	"awk 'NR == FNR { p[\$2] = \$1; next } !/^#/ { k = int(p[\$1] / 10); if (k != n++) bad = 1 } END { exit bad || n != int(($(wc -l <$tmp/pos) + 9) / 10) }' $tmp/pos $tmp/jit"
check "--jitter: at offsets spread over the interval, not one fixed" \
	"awk 'NR == FNR { p[\$2] = \$1; next } !/^#/ { o[p[\$1] % 10]++ } END { for (i = 0; i < 10; i++) if (!o[i]) exit 1 }' $tmp/pos $tmp/jit"
# what the aliasing does: the systematic sample shows a loop the program
# does not have (hundreds of turns in 500 samples); the jittered one not
head -501 "$tmp/jit" | tswindow | persist 2>/dev/null | circcoord >"$tmp/j.cc" 2>/dev/null
trsample -i 10 "$tmp/mm.txt" 2>/dev/null | head -501 | tswindow | persist 2>/dev/null | circcoord >"$tmp/s.cc" 2>/dev/null
check "every 10th record of the k loop winds a spurious loop" \
	"awk '/^theta1 / { w = \$9 < 0 ? -\$9 : \$9; exit !(w > 50) } END { if (NR == 0) exit 1 }' $tmp/s.cc"
check "a jittered sample of it does not" \
	"awk '/^theta1 / { w = \$9 < 0 ? -\$9 : \$9; found = 1; exit !(w < 5) } END { exit !found }' $tmp/j.cc"

