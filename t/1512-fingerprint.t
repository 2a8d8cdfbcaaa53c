#!/bin/sh
# Partitions name their trace (#38 Deliver 3): the fingerprint of the
# trace split (reftrace(5); t/fp.py computes it apart) is in every
# partition's header, kept by trfilter and trsample, written by cachesim
# and reusedist in their tables; -M refuses partitions of two traces and
# still merges one trace's, whatever its encoding, and old streams
# without a fingerprint.
. "$(dirname "$0")/lib.sh"
plan 17

trfilter -t RWM -b "$D/bsort-reversed.lk.gz" >"$tmp/a.rtb"
trfilter -t RWM "$D/bsort-reversed.lk.gz" | gzip >"$tmp/a.txt.gz"
trfilter -t RWM -b "$D/bsort-shuffled.lk.gz" >"$tmp/b.rtb"
FA=$(trfilter "$tmp/a.rtb" | python3 "$(dirname "$0")/fp.py")
FB=$(trfilter "$tmp/b.rtb" | python3 "$(dirname "$0")/fp.py")
trfilter -P 4 -o "$tmp/a%d.rtb" "$tmp/a.rtb"
trfilter -P 4 -O text -z -o "$tmp/z%d.txt.gz" "$tmp/a.txt.gz"
trfilter -P 4 -o "$tmp/b%d.rtb" "$tmp/b.rtb"

stubok 'cachesim reusedist'
check_same "the two traces' fingerprints differ (t/fp.py)" \
    "test $FA != $FB && echo differ" "echo differ"
check_same "every partition's header records its trace's fingerprint, binary or gzip text" \
    "for f in a0.rtb a3.rtb z1.txt.gz b2.rtb; do trfilter $tmp/\$f | sed -n 2p; done" \
    "printf '#partition 0/4:64 fp=$FA\n#partition 3/4:64 fp=$FA\n#partition 1/4:64 fp=$FA\n#partition 2/4:64 fp=$FB\n'"
check_same "the partitions of the binary and the gzip text split are the same traces" \
    "trfilter $tmp/z2.txt.gz" "trfilter $tmp/a2.rtb"
check_same "trfilter -P k/n of one partition records the whole's fingerprint" \
    "trfilter -P 1/4 $tmp/a.txt.gz | sed -n 2p" "echo '#partition 1/4:64 fp=$FA'"
check_same "a partition filtered and sampled keeps it" \
    "trfilter -t RW $tmp/a1.rtb | trsample -s 0+5000 | sed -n 2p" "echo '#partition 1/4:64 fp=$FA'"
check_same "partition 0 of two traces filtered together: the output is of none" \
    "trfilter $tmp/a0.rtb $tmp/b0.rtb | sed -n 2p | cut -c1-10" "trfilter $tmp/a.rtb | sed -n 2p | cut -c1-10"
stubok reusedist
check_fail "cat of partition 0 of two traces, binary: refused, nothing written" 1 \
    "is partition 0/4 of another trace \\(fp=$FB, the first fp=$FA\\)" \
    "cat $tmp/a0.rtb $tmp/b0.rtb | cachesim -c 1K:2:64 >$tmp/cat.out; st=\$?; test ! -s $tmp/cat.out || st=9; exit \$st"
check_fail "... text: refused at its line" 1 \
    "<stdin>:[0-9]*: partition 0/4 of another trace \\(fp=$FB, the first fp=$FA\\)" \
    "{ trfilter $tmp/a0.rtb; trfilter $tmp/b0.rtb; } | cachesim -c 1K:2:64 >$tmp/cat.out; st=\$?; test ! -s $tmp/cat.out || st=9; exit \$st"

# cachesim: each table names its trace; partitions of two traces are
# refused, both files named
for k in 0 1 2 3; do
	cachesim -c 1K:2:64 -c 4K:4:64 "$tmp/a$k.rtb" >"$tmp/ca$k"
	cachesim -c 1K:2:64 -c 4K:4:64 "$tmp/b$k.rtb" >"$tmp/cb$k"
done
check_same "cachesim: a partition's table names its trace" \
    "sed -n 2p $tmp/ca2 | cut -d' ' -f1-3" "echo '#partition 2/4:64 fp=$FA'"
check_fail "cachesim -M: partitions of two traces refused, both named" 1 \
    "^cachesim: -M: .*/ca0 and .*/cb2 come from different traces \\(fp=$FA, fp=$FB\\): their counts do not add up\$" \
    "cachesim -M $tmp/ca0 $tmp/ca1 $tmp/cb2 $tmp/ca3 >$tmp/m.out; st=\$?; test ! -s $tmp/m.out || st=9; exit \$st"
# one trace's partitions through binary, gzip text, a filter that keeps
# all (-t RWM) and standard input merge to the whole's run
cachesim -c 1K:2:64 -c 4K:4:64 "$tmp/z1.txt.gz" >"$tmp/cz1"
trfilter -t RWM -O text "$tmp/a2.rtb" | gzip | cachesim -c 1K:2:64 -c 4K:4:64 >"$tmp/cz2"
check_same_rows "cachesim -M of one trace's partitions, binary, gzip text, filtered = the whole's run" \
    "cachesim -M $tmp/ca0 $tmp/cz1 $tmp/cz2 $tmp/ca3" "cachesim -c 1K:2:64 -c 4K:4:64 $tmp/a.txt.gz"
# a table written before fingerprints (none on its #partition line)
# merges with those that have one
sed '2s/ fp=[0-9a-f]*//' "$tmp/ca1" >"$tmp/old1"
check_same_rows "cachesim -M: a table without a fingerprint still merges" \
    "! grep -q fp= $tmp/old1 && cachesim -M $tmp/ca0 $tmp/old1 $tmp/ca2 $tmp/ca3" \
    "cachesim -c 1K:2:64 -c 4K:4:64 $tmp/a.rtb"

# reusedist: -P k/4 over the whole names the trace as its partitions do
stubok cachesim
for k in 0 1 2 3; do
	reusedist --exact "$tmp/a$k.rtb" >"$tmp/ha$k"
	reusedist --exact "$tmp/b$k.rtb" >"$tmp/hb$k"
	reusedist --exact -P $k/4 "$tmp/a.txt.gz" >"$tmp/ga$k"
done
check_same "reusedist: -P 3/4 over the whole (gzip text) and partition 3's trace name one trace" \
    "grep '^#partition' $tmp/ga3 $tmp/ha3 | sed 's/^[^:]*://'" \
    "printf '#partition 3/4:64 fp=$FA\n#partition 3/4:64 fp=$FA\n'"
check_fail "reusedist -M: partitions of two traces refused, both named" 1 \
    "^reusedist: -M: .*/ha0 and .*/hb1 come from different traces \\(fp=$FA, fp=$FB\\)" \
    "reusedist -M $tmp/ha0 $tmp/hb1 $tmp/ha2 $tmp/ha3 >$tmp/m.out; st=\$?; test ! -s $tmp/m.out || st=9; exit \$st"
check_same "reusedist -M: -P k/4 of the whole (gzip text) with the partitions' own traces = theirs" \
    "reusedist -M $tmp/ga0 $tmp/ha1 $tmp/ga2 $tmp/ha3" \
    "reusedist -M $tmp/ha0 $tmp/ha1 $tmp/ha2 $tmp/ha3"
sed '/^#partition/s/ fp=[0-9a-f]*//' "$tmp/ha2" >"$tmp/hold2"
check_same "reusedist -M: a histogram without a fingerprint still merges" \
    "! grep -q fp= $tmp/hold2 && reusedist -M $tmp/ha0 $tmp/ha1 $tmp/hold2 $tmp/ha3" \
    "reusedist -M $tmp/ha0 $tmp/ha1 $tmp/ha2 $tmp/ha3"
stubok 'cachesim trfilter' check_fail "a bad fingerprint: refused at its line" 1 \
    "old2:[0-9]*: bad #partition" \
    "sed '/^#partition/s/\$/ fp=xyz/' $tmp/hold2 >$tmp/old2 && reusedist -M $tmp/ha0 $tmp/ha1 $tmp/old2 $tmp/ha3"
