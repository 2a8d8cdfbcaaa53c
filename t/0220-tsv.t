#!/bin/sh
# RT_TSV: a table on standard output as tab-separated values, one header
# line of column names, read by a CSV reader as the same table.
. "$(dirname "$0")/lib.sh"
plan 6

trfilter -t RWM "$D/matmul-standard.lk.gz" >"$tmp/m.txt"
# python's csv reader, the columns named by the header: "col=value" per cell
csvcells() { python3 -c 'import csv, sys
r = list(csv.DictReader(sys.stdin, delimiter="\t"))
assert r and all(len(x) == len(r[0]) and None not in x for x in r)
for x in r: print(" ".join("%s=%s" % kv for kv in x.items()))'; }
# the same from the space-separated table, by awk
awkcells() { awk -v skip="$1" '/^#reftrace/ || (skip == 1 && /^# /) {for (i = skip + 1; i <= NF; i++) h[i - skip] = $i; n = NF - skip; next}
    /^#/ {next} {s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") h[i] "=" $i; print s}'; }

check_same "cachesim's table: the same cells" \
    "RT_TSV=1 cachesim $tmp/m.txt | csvcells" "cachesim $tmp/m.txt | awkcells 3"
check_same "cachesim -g region: the same cells" \
    "RT_TSV=1 cachesim -g region $tmp/m.txt | csvcells" "cachesim -g region $tmp/m.txt | awkcells 3"
check_same "reusedist -C: the same cells" \
    "RT_TSV=1 reusedist -C $tmp/m.txt | csvcells" "reusedist -C $tmp/m.txt | awkcells 3"
check_same "trmap --regions (a '# a b c' header): the same cells" \
    "RT_TSV=1 trmap --regions $D/matmul-standard.lk.gz | csvcells" "trmap --regions $D/matmul-standard.lk.gz | awkcells 1"
check "one header line, no comments, a tab between fields" \
    "RT_TSV=1 cachesim -g func $tmp/m.txt | awk 'NR == 1 && \$0 !~ /^func\taccesses\t/ {exit 1} /^#/ || / / {exit 1} END {exit NR < 2}'"
check_same "a terminal gets it too (RT_TSV asked for it)" \
    "script -qc 'RT_TSV=1 cachesim $tmp/m.txt' /dev/null | tr -d '\\r' | head -1" \
    "RT_TSV=1 cachesim $tmp/m.txt | head -1"
