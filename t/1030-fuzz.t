#!/bin/sh
# What the fuzzers (fuzz/, make fuzz-smoke) found, kept found: each case
# is the smallest input of a finding, and failed before its fix.
. "$(dirname "$0")/lib.sh"
plan 4

# roundtrip: an event with an empty name (binary item 0x80, name id 0)
# was written to text as '-' and read back as a mark named "-"
printf '\211RTB\r\n\032\n\001\0\0\0\0\0\0\0\006\0\0\0\002\0\0\0\200\0\0\010 \004' >"$tmp/em.rtb"
check_same 'an empty event name: binary to text to binary, the same bytes' \
    "trfilter '$tmp/em.rtb' | trfilter -b | od -c" "od -c '$tmp/em.rtb'"
check_same 'an empty event name: text to text, the same' \
    "trfilter '$tmp/em.rtb' | trfilter" "trfilter '$tmp/em.rtb'"
check 'a mark named - is written %2D and read back as -' \
    "printf '#reftrace trace 1\n#mark 0 %%2D\n' | trfilter | trfilter -b | trfilter | grep -q '^#mark 0 %2D\$'"

# cachespec: an empty -E (no levels) was "cannot allocate the caches", exit 1
check_fail 'cachesim -E with no levels is a usage error' 2 '^cachesim: -E : want SIZE:ASSOC:BLOCK' \
    "cachesim -E '' /dev/null"
