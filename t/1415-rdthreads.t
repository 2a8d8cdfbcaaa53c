#!/bin/sh
# reusedist --threads (#36 items 2 and 3): a binary trace file's exact
# distances measured a time slice a thread and merged as PARDA merges
# them make the single run's histogram, curve and summary byte for byte,
# and the naive stack's histogram; inputs that cannot be sliced are read
# on one thread; a failure is said as the single run says it.
. "$(dirname "$0")/lib.sh"
plan 21

U="$(dirname "$0")/unit"
awk -f "$(dirname "$0")/hotsweep.awk" | trfilter -b >"$tmp/r.rtb"
for ns in 2 3 5 8; do
	check_same "--exact, $ns slices: the single run's histogram" \
	    "reusedist --exact --threads $ns $tmp/r.rtb" "reusedist --exact --threads 1 $tmp/r.rtb"
done
check_same "the log2 histogram, 3 slices" "reusedist --threads 3 $tmp/r.rtb" "reusedist --threads 1 $tmp/r.rtb"
check_same "-C's curve, 4 slices" "reusedist -C --threads 4 $tmp/r.rtb" "reusedist -C --threads 1 $tmp/r.rtb"
check_same "-A's summary, 2 slices" "reusedist -A --threads 2 $tmp/r.rtb" "reusedist -A --threads 1 $tmp/r.rtb"
check_same "no --threads (nproc's, at most 4): the single run's histogram" \
	"reusedist --exact $tmp/r.rtb" "reusedist --exact --threads 1 $tmp/r.rtb"

# 600000 accesses over 400 blocks of 64 bytes, three blocks of the trace:
# the naive stack's counts by distance
awk 'BEGIN { srand(5); for (i = 0; i < 600000; i++) printf "R 0x%x 8\n", int(rand() * rand() * 400) * 64 }' |
    trfilter -b >"$tmp/n.rtb"
check_same "3 slices: the naive stack's counts by distance" \
	"reusedist --exact --threads 3 $tmp/n.rtb | awk '!/^#/ { print \$1, \$3 }'" \
	"trfilter $tmp/n.rtb | awk '$HEX !/^#/ { printf \"%.0f\\n\", int(hex(\$3) / 64) }' | $U/naive stack |
	 awk '{ c[\$1]++ } END { for (k in c) if (k != \"-\") print k, c[k] | \"sort -n\"; close(\"sort -n\"); print \"cold\", c[\"-\"] }'"

# more slices than blocks: slices without records; strings defined once
trfilter -t RWM -b "$D/matmul-blocked.lk.gz" >"$tmp/m.rtb"
check_same "one block in 6 slices, five of them empty" \
	"reusedist --exact --threads 6 $tmp/m.rtb" "reusedist --exact --threads 1 $tmp/m.rtb"
for i in 1 2 3 4 5 6; do trfilter "$D/kernels.lk.gz"; done | trfilter -b >"$tmp/k.rtb" 2>/dev/null
check_same "a trace whose strings are defined in its first slice, 4 slices" \
	"reusedist --exact --threads 4 $tmp/k.rtb" "reusedist --exact --threads 1 $tmp/k.rtb"

# what cannot be sliced is read on one thread, to the same histogram
check_same "standard input: one thread" "reusedist --exact --threads 3 <$tmp/r.rtb" \
	"reusedist --exact --threads 1 $tmp/r.rtb"
gzip -c "$tmp/r.rtb" >"$tmp/r.rtb.gz"
check_same "standard input named -, compressed: read once, on one thread" \
	"reusedist --exact --threads 3 - <$tmp/r.rtb.gz" "reusedist --exact --threads 1 $tmp/r.rtb"
# a pipe or FIFO by name is opened once: read to see whether it slices (or
# what partition it is), it was spent, and a FIFO opened again waited for
# a writer that had gone
for t in 1 3; do
	check_same "a pipe named /dev/stdin, --threads $t: read once" \
	    "cat $tmp/r.rtb | reusedist --exact --threads $t /dev/stdin" "reusedist --exact --threads 1 $tmp/r.rtb"
done
# (the writer's open under timeout too: a program that never opens the
# FIFO leaves no writer waiting for it)
mkfifo "$tmp/ff"
check_same "a FIFO: read once, on one thread" \
	"(timeout -k 5 60 sh -c 'cat \"\$1\" >\"\$2\"' sh $tmp/r.rtb $tmp/ff 2>/dev/null &);
	 timeout -k 5 60 reusedist --exact $tmp/ff" "reusedist --exact --threads 1 $tmp/r.rtb"
check_same "a compressed file: one thread" "reusedist --exact --threads 3 $tmp/r.rtb.gz" \
	"reusedist --exact --threads 1 $tmp/r.rtb"

# a byte of the fourth block spoilt: said as the single run says it
cp "$tmp/r.rtb" "$tmp/bad.rtb"
size=$(wc -c <"$tmp/r.rtb")
printf 'Z' | dd of="$tmp/bad.rtb" bs=1 seek=$((size * 7 / 10)) conv=notrunc 2>/dev/null
reusedist --exact --threads 1 "$tmp/bad.rtb" >"$tmp/b1.out" 2>"$tmp/b1.err"; echo $? >"$tmp/b1.st"
check "a spoilt block: the single run's message and status, nothing written" \
	"reusedist --exact --threads 3 $tmp/bad.rtb >$tmp/b3.out 2>$tmp/b3.err; test \$? -eq \$(cat $tmp/b1.st) && test \$(cat $tmp/b1.st) -ne 0 &&
	 test -s $tmp/b1.err && cmp $tmp/b1.err $tmp/b3.err && cmp $tmp/b1.out $tmp/b3.out && grep -q bad.rtb $tmp/b3.err"
check_same "-k: the block skipped, the single run's histogram" \
	"reusedist -k --exact --threads 3 $tmp/bad.rtb 2>/dev/null" "reusedist -k --exact --threads 1 $tmp/bad.rtb 2>/dev/null"
check_same "-k: the single run's warning" \
	"reusedist -k --exact --threads 3 $tmp/bad.rtb 2>&1 >/dev/null" "reusedist -k --exact --threads 1 $tmp/bad.rtb 2>&1 >/dev/null"
check_fail "--threads 0 is refused" 2 "--threads 0: 1 to 64" "reusedist --threads 0 $tmp/r.rtb"
