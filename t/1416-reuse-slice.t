#!/bin/sh
# reusedist --slice and -M of reuse states (#36 item 3): a binary trace
# file's time slices measured by separate processes, each writing its
# state, then merged as PARDA merges them, make the single run's
# histogram, curve and summary byte for byte and the naive stack's
# counts; so do runs of slices merged into states (--state) and merged
# again, in a tree of any shape; states of other slicings, traces or
# block sizes, runs with a gap or overlap, and spoilt states, are
# refused with the reason.
. "$(dirname "$0")/lib.sh"
plan 37

U="$(dirname "$0")/unit"
awk -f "$(dirname "$0")/hotsweep.awk" | trfilter -b >"$tmp/r.rtb"
# slices FILE N [OPTIONS]: the states of FILE's N slices, $tmp/s0 ...,
# their names in S
slices() {
	sf=$1 sn=$2 S=
	shift 2
	sk=0
	while [ $sk -lt "$sn" ]; do
		reusedist "$@" --slice $sk/$sn "$sf" >"$tmp/s$sk" || return 1
		S="$S $tmp/s$sk"
		sk=$((sk + 1))
	done
}
for ns in 2 3 5 8; do
	slices "$tmp/r.rtb" $ns
	check_same "--exact, $ns slices merged: the single run's histogram" \
	    "reusedist -M --exact $S" "reusedist --exact --threads 1 $tmp/r.rtb"
done
if command -v parallel >/dev/null; then
	check_same "contrib/tslice -r: 3 slices under GNU parallel, the single run's histogram" \
	    "$(dirname "$0")/../contrib/tslice -r -n 3 $tmp/r.rtb --exact" "reusedist --exact --threads 1 $tmp/r.rtb"
else
	skip "contrib/tslice -r: GNU parallel is not installed"
fi
slices "$tmp/r.rtb" 4
check_same "states named in any order" "reusedist -M --exact $tmp/s3 $tmp/s1 $tmp/s0 $tmp/s2" \
	"reusedist --exact --threads 1 $tmp/r.rtb"
check_same "the log2 histogram" "reusedist -M $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3" "reusedist --threads 1 $tmp/r.rtb"
check_same "-C's curve" "reusedist -M -C $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3" "reusedist -C --threads 1 $tmp/r.rtb"
check_same "-A's summary" "reusedist -M -A $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3" "reusedist -A --threads 1 $tmp/r.rtb"
check_same "-o: the same state as standard output" \
	"reusedist --slice 1/4 -o $tmp/o1 $tmp/r.rtb && cat $tmp/o1" "cat $tmp/s1"
# a slice's state against an awk model: its accesses and the blocks it
# touches, each once among its first accesses and once on its stack
check "the state's counts: the header's, the lines', the slice's blocks" \
	"awk 'NR == 1 { for (i = 2; i < NF; i++) v[\$i] = \$(i + 1); h = v[\"hist\"]; f = v[\"first\"]; next }
	     NR - 1 <= h { w += \$2; next } NR - 1 <= h + f { if (seen[\$1]++) exit 1; nf++; next }
	     { if (!(\$1 in seen) || stk[\$1]++) exit 1; ns++ }
	     END { if (NR < 2 || nf != f || ns != v[\"stack\"] || ns != nf || v[\"accesses\"] != w + nf + v[\"zeros\"]) exit 1 }' $tmp/s1"
check "the last slice's state: no stack, not wanted" "head -1 $tmp/s3 | grep -q ' stack 0\$' && head -1 $tmp/s2 | grep -qv ' stack 0\$'"

# 8 slices merged in pairs (--state), the pairs in pairs, then the last
# two, as 8 machines would in 3 rounds
slices "$tmp/r.rtb" 8
for p in 01 23 45 67; do
	reusedist -M --state $tmp/s$(echo $p | cut -c1) $tmp/s$(echo $p | cut -c2) >$tmp/m$p
done
reusedist -M --state $tmp/m01 $tmp/m23 >$tmp/m0123
reusedist -M --state $tmp/m67 $tmp/m45 >$tmp/m4567
check_same "--state: a tree of merges, the single run's histogram" \
	"reusedist -M --exact $tmp/m0123 $tmp/m4567" "reusedist --exact --threads 1 $tmp/r.rtb"
check_same "--state: a run's state the same bytes merged from its slices as from its pairs" \
	"reusedist -M --state $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3" "cat $tmp/m0123"
check "--state: a run's header names its slices; the last run's stack is not kept" \
	"head -1 $tmp/m0123 | grep -q ' slice 0-3/8 .* stack [1-9][0-9]*\$' &&
	 head -1 $tmp/m4567 | grep -q ' slice 4-7/8 .* stack 0\$'"
check_same "runs of any length with slices, in any order" \
	"reusedist -M --exact $tmp/m4567 $tmp/s2 $tmp/m01 $tmp/s3" "reusedist --exact --threads 1 $tmp/r.rtb"
check_same "runs: -C's curve" "reusedist -M -C $tmp/m01 $tmp/m23 $tmp/m4567" "reusedist -C --threads 1 $tmp/r.rtb"
check_fail "a slice missing between runs" 1 "-M: slice 2 of 8: no state named\$" \
	"reusedist -M --exact $tmp/m01 $tmp/s3 $tmp/m4567"
check_fail "runs that overlap" 1 "m0123 and .*s2: both slice 2/8\$" "reusedist -M $tmp/m0123 $tmp/s2 $tmp/m4567"
check_fail "a run short of the whole, not --state: refused" 1 \
	"2 states named, of slices 0 to 3 of 8: every slice is needed" "reusedist -M $tmp/m01 $tmp/m23"
check_fail "--state without -M: refused" 2 "--state: -M's" "reusedist --state $tmp/r.rtb"
reusedist --exact "$tmp/r.rtb" >"$tmp/rh"
check_fail "--state of histograms: refused" 2 "--state: -M of slices' states" "reusedist -M --state $tmp/rh $tmp/rh"

# 600000 accesses over 400 blocks of 64 bytes: the naive stack's counts
awk 'BEGIN { srand(5); for (i = 0; i < 600000; i++) printf "R 0x%x 8\n", int(rand() * rand() * 400) * 64 }' |
    trfilter -b >"$tmp/n.rtb"
slices "$tmp/n.rtb" 3
check_same "3 slices: the naive stack's counts by distance" \
	"reusedist -M --exact $tmp/s0 $tmp/s1 $tmp/s2 | awk '!/^#/ { print \$1, \$3 }'" \
	"trfilter $tmp/n.rtb | awk '$HEX !/^#/ { printf \"%.0f\\n\", int(hex(\$3) / 64) }' | $U/naive stack |
	 awk '{ c[\$1]++ } END { for (k in c) if (k != \"-\") print k, c[k] | \"sort -n\"; close(\"sort -n\"); print \"cold\", c[\"-\"] }'"
slices "$tmp/n.rtb" 2 -B 128
check_same "-B 128 at the slices and the merge" "reusedist -B 128 -M --exact $tmp/s0 $tmp/s1" \
	"reusedist -B 128 --exact $tmp/n.rtb"
check_fail "another block size at the merge: refused" 1 "s0: a slice in 128-byte blocks, not 64\$" \
	"reusedist -M --exact $tmp/s0 $tmp/s1"

# more slices than blocks: empty slices; strings defined once
trfilter -t RWM -b "$D/matmul-blocked.lk.gz" >"$tmp/m.rtb"
slices "$tmp/m.rtb" 4
check_same "one block in 4 slices, three of them empty" \
	"reusedist -M --exact $tmp/s0 $tmp/s1 $tmp/s2 $tmp/s3" "reusedist --exact --threads 1 $tmp/m.rtb"

# states that are not one trace's slices, or spoilt
slices "$tmp/r.rtb" 3
cp "$tmp/s0" "$tmp/r0"
slices "$tmp/n.rtb" 3
check_fail "a state of another trace" 1 "s1: a slice of a trace of [0-9]* bytes, not of .*r0's" \
	"reusedist -M $tmp/r0 $tmp/s1 $tmp/s2"
check_fail "a slice twice" 1 "s1 and .*s1: both slice 1/3\$" "reusedist -M $tmp/s0 $tmp/s1 $tmp/s1"
check_fail "a slice missing" 1 "-M: slice 1 of 3: no state named\$" \
	"reusedist -M $tmp/s0 $tmp/s2"
head -n 100 "$tmp/s1" >"$tmp/cut"
check_fail "a state cut short: nothing written" 1 "cut:[0-9]*: truncated: fewer lines than the header counts\$" \
	"reusedist -M $tmp/s0 $tmp/cut $tmp/s2 >$tmp/cut.out; test ! -s $tmp/cut.out && false"
sed '50s/^/z/' "$tmp/s1" >"$tmp/bad"
check_fail "a bad line: its place" 1 "bad:50: bad reuse state line\$" "reusedist -M $tmp/s0 $tmp/bad $tmp/s2"
reusedist --exact "$tmp/n.rtb" >"$tmp/hist"
check_fail "a histogram among states: which kind, and who makes it" 1 \
	"hist: a reuse-distance histogram, not a time slice's reuse state \\(reusedist --slice makes one\\)\$" \
	"reusedist -M $tmp/s0 $tmp/hist $tmp/s2"

# what --slice cannot do
check_fail "--slice of standard input: refused" 2 "--slice: a binary trace file's exact" \
	"reusedist --slice 0/2 <$tmp/r.rtb"
check_fail "--slice with -H: refused" 2 "--slice: .*not with -M, -H" "reusedist -H 0.1 --slice 0/2 $tmp/r.rtb"
gzip -c "$tmp/r.rtb" >"$tmp/r.rtb.gz"
check_fail "--slice of a compressed file: said, nothing written" 1 "r.rtb.gz: .*compressed" \
	"reusedist --slice 0/2 $tmp/r.rtb.gz >$tmp/gz.out; test ! -s $tmp/gz.out && false"

# a byte of the fourth of five blocks spoilt: the slice that holds it
# (the first of two) says what the single run says and writes nothing;
# with -k the merge of the slices is the single run's -k histogram
cp "$tmp/r.rtb" "$tmp/bad.rtb"
size=$(wc -c <"$tmp/r.rtb")
printf 'Z' | dd of="$tmp/bad.rtb" bs=1 seek=$((size * 7 / 10)) conv=notrunc 2>/dev/null
reusedist --exact "$tmp/bad.rtb" 2>"$tmp/b1.err" >/dev/null
check "a spoilt block: the single run's message, status 1, no state" \
	"reusedist --slice 0/2 $tmp/bad.rtb >$tmp/b.out 2>$tmp/b.err; test \$? -eq 1 && test -s $tmp/b1.err &&
	 cmp $tmp/b1.err $tmp/b.err && test ! -s $tmp/b.out"
slices "$tmp/bad.rtb" 2 -k 2>/dev/null
check_same "-k: the block skipped, the single run's histogram" "reusedist -M --exact $S" \
	"reusedist -k --exact $tmp/bad.rtb 2>/dev/null"
