#!/bin/sh
# What the fuzzers (fuzz/, make fuzz-smoke) found, kept found: each case
# is the smallest input of a finding, and failed before its fix.
. "$(dirname "$0")/lib.sh"
plan 11

# roundtrip: an event with an empty name (binary item 0x80, name id 0)
# was written to text as '-' and read back as a mark named "-"
printf '\211RTB\r\n\032\n\002\0\0\0\0\0\0\0\006\0\0\0\002\0\0\0\002\0\0\0\004\0\0\0\0\0\0\0\360\030\0\0 \004' >"$tmp/em.rtb"
check_same 'an empty event name: binary to text to binary, the same bytes (the block of version 3)' \
    "trfilter '$tmp/em.rtb' | trfilter -O binary2 | od -An -c -j16 -N26" "od -An -c -j16 '$tmp/em.rtb'"
check_same 'an empty event name: text to text, the same' \
    "trfilter '$tmp/em.rtb' | trfilter" "trfilter '$tmp/em.rtb'"
check 'a mark named - is written %2D and read back as -' \
    "printf '#reftrace trace 1\n#mark 0 %%2D\n' | trfilter | trfilter -b | trfilter | grep -q '^#mark 0 %2D\$'"

# cachespec: an empty -E (no levels) was "cannot allocate the caches", exit 1
check_fail 'cachesim -E with no levels is a usage error' 2 '^cachesim: -E : want SIZE:ASSOC:BLOCK' \
    "cachesim -E '' /dev/null"

# trace-binary: a string defined with file id 2^30 - 1 (28 bytes) sized a
# direct map of 4 GiB, written over: 26 s and 4 GB of memory for nothing
printf '\211RTB\r\n\032\n\002\0\0\0\0\0\0\0\010\0\0\0\001\0\0\0\001\0\0\0\007\0\0\0\0\0\0\0\363\377\377\377\377\003\001x' >"$tmp/id.rtb"
lim='ulimit -v 1000000;'
[ -n "${RT_SMALL:-}" ] && lim=	# make asan: ASan reserves more than that
check_same 'a string of file id 2^30 - 1 takes no 4 GiB' "$lim trfilter '$tmp/id.rtb'" \
    "echo '#reftrace trace 1 seq op addr size tid pc loc func var'"
# ids past the direct map are hashed: defined ones found, others corrupt
printf '\211RTB\r\n\032\n\002\0\0\0\0\0\0\0\026\0\0\0\004\0\0\0\004\0\0\0\022\0\0\0\0\0\0\0\363\363\360\360\200\200\100\001a\201\200\100\001b\0\200\200\100\0\202\200\100' >"$tmp/ids.rtb"
check_fail 'a large file id defined is found, one not defined is a corrupt trace' 1 \
    'ids.rtb: corrupt binary trace: block 1 at byte 16: bad record' \
    "trfilter '$tmp/ids.rtb' >'$tmp/o'; st=\$?; grep -q '^#mark 0 a\$' '$tmp/o' && exit \$st"

# trace-mtv: an escaped NUL (%00) in a name interned "a.c\0abg", whose hash
# lands on "a.c": compared with strncmp, "a.c" matched up to the NUL and
# was read past its end (ASan: heap-buffer-overflow); a name is up to its
# first NUL.  Under valgrind where the build is not ASan's.
vg=
[ -z "${RT_SMALL:-}" ] && command -v valgrind >/dev/null && vg='valgrind -q --error-exitcode=9'
printf 'L a.c:1\nR 0x10\nL a.c%%00abg:2\nR 0x20\n' >"$tmp/nul.mtv"
printf '#reftrace trace 1 seq op addr size tid pc loc func var\n0 R 0x10 1 - - a.c:1 - -\n1 R 0x20 1 - - a.c:2 - -\n' >"$tmp/nul.want"
check_same 'MTV: a file name with %00 is read up to it, nothing read past a string' \
    "$vg trfilter -I mtv '$tmp/nul.mtv'" "cat '$tmp/nul.want'"
printf '#reftrace trace 1\n0 R 0x10 1 - - a.c:1 - -\n1 R 0x20 1 - - a.c%%00abg:2 - -\n' >"$tmp/nul.txt"
check_same 'text: the same' "$vg trfilter '$tmp/nul.txt'" "cat '$tmp/nul.want'"

# cachetab: a memory row with a miss figure (the writer has only dashes
# there) was taken, and written back otherwise
U=$(cd "$(dirname "$0")/unit" && pwd)
{ echo '#reftrace cache 1 level size assoc block policy accesses reads writes fetches misses read_misses write_misses fetch_misses miss_ratio evictions writebacks invalidations bytes_in bytes_out'
  echo 'L1 1024 2 64 lru 10 4 0 6 6 2 0 4 0.6 0 0 0 384 0'
  echo 'mem - - - - 6 2 0 4 - 2 - - - - - - - - -'; } >"$tmp/mem.ct"
check_fail 'a cache table whose memory row has misses is refused' 1 'mem.ct:3: bad cache table row' \
    "$U/cachestream cache '$tmp/mem.ct'"

# coords: a point whose seq is 2e14 put the spiral's radius far off the
# canvas, and every segment to it was stepped pixel by pixel (a hang:
# fuzz-smoke's timeout); segments are clipped to the canvas first
trfilter -e "$D/bsort" -F bsort -t RWM "$D/bsort-reversed.lk.gz" | head -200 | tswindow |
    persist | circcoord >"$tmp/s.crd"
awk '/^#reftrace theta/ { t = 1; print; next } t && $1 == 2 { $3 = "200000000000000" } { print }' \
    "$tmp/s.crd" >"$tmp/far.crd"
check "plotspiral --radius seq with a seq of 2e14: drawn in under 10 s" \
    "grep -q ' 200000000000000 ' $tmp/far.crd && timeout -k 5 10 plotspiral --radius seq -o $tmp/far.png $tmp/far.crd && test -s $tmp/far.png"

# roundtrip: a version 2 block whose records were all predicted has an
# empty residual stream: its missing buffer went to memcpy (UBSan)
check_same 'a block of predicted records only: written and read back' \
    "printf '#reftrace trace 1\n0 R 0x0 0\n' | trfilter -b | trfilter | awk '!/^#/'" "echo '0 R 0x0 0 - - - - -'"
