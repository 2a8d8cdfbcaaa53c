# profile bench: 2026-11-28 21:49 UTC, commit e4ba480
# command: bench/profile 1000000
# machine: 2 cores, AMD EPYC; valgrind 3.19.0
# instructions a record (cachegrind --cache-sim=no), N = 1000000 records; each case, then its
# functions over 2% of it (file:function; an inlined function counts where its code is)
case                                     instr/rec
read alone, deflated (trfilter -v -t RWMI)    337.8
  rtb.h:rt_bin_batch                         79.9
  rtb_dec.c:rt_bin_batch                     73.2
  select.c:rt_sel_test                       36.0
  trfilter.c:item                            19.0
  ???:adler32_z                              12.7
  drive.c:each                                8.1
  ???:crc32_z                                 7.6
read alone, not deflated                    237.5
  rtb.h:rt_bin_batch                         79.9
  rtb_dec.c:rt_bin_batch                     73.2
  select.c:rt_sel_test                       36.0
  trfilter.c:item                            19.0
  ???:crc32_z                                13.7
  drive.c:each                                8.1
  reftrace.h:rt_bin_batch                     4.9
cachesim -c 32K:8:64, deflated              378.3
  rtb.h:rt_bin_batch                         79.9
  rtb_dec.c:rt_bin_batch                     73.2
  hier.c:rt_hier_run                         56.5
  hier.c:serve                               22.5
  ???:adler32_z                              12.7
  reftrace.h:rt_hier_run                      8.0
  ???:crc32_z                                 7.6
cachesim -c 32K:8:64, not deflated          278.0
  rtb.h:rt_bin_batch                         79.9
  rtb_dec.c:rt_bin_batch                     73.2
  hier.c:rt_hier_run                         56.5
  hier.c:serve                               22.5
  ???:crc32_z                                13.7
  reftrace.h:rt_hier_run                      8.0
  hier.c:fill                                 7.2
cachesim -c i7, deflated                    456.7
  rtb.h:rt_bin_batch                         79.9
  hier.c:serve                               75.9
  rtb_dec.c:rt_bin_batch                     73.2
  hier.c:rt_hier_run                         56.5
  hier.c:fill                                19.1
  ???:adler32_z                              12.7
reusedist --exact -A (a summary)            777.0
  rdist.c:drain                              79.1
  reuse.c:rt_reuse_access_at                 74.8
  rtb.h:rt_bin_batch                         72.1
  rtb_dec.c:rt_bin_batch                     71.3
  reuse.c:clearslot                          60.8
  rdist.c:rt_rdist_batch                     59.2
  hist.c:rt_hist_add                         28.7
  reuse.c:rt_reuse_prefetch2                 20.6
  ???:adler32_z                              16.8
reusedist --exact (the histogram)           912.9
  rdist.c:drain                              79.1
  reuse.c:rt_reuse_access_at                 74.8
  rtb.h:rt_bin_batch                         72.1
  rtb_dec.c:rt_bin_batch                     71.3
  reuse.c:clearslot                          60.8
  rdist.c:rt_rdist_batch                     59.2
  util.c:rt_fmt_g6                           59.1
  util.c:rt_fmt_u64                          29.4
  hist.c:rt_hist_add                         28.7
  reuse.c:rt_reuse_prefetch2                 20.6
# Reading (by hand, for #36 item 1's unmet figures): on the synthetic trace the v2 decoder
# costs 153 instructions a record (rt_bin_batch: its miss path, the varint reads and slot
# hashing of a record whose prediction failed), its block check (crc32) 8-14 and inflate's
# adler32 13: about 175 of cachesim one L1's 378, where 100 M refs/s would need about 25
# in all.  No tuning of this decoder gets there: a record that misses its prediction is
# read field by field.  What would: a block form the writer picks when prediction fails
# (fixed-width fields, read without branches), at the cost of size (v2 is 1.9 bytes a
# record here; fixed width 12-16).  The simulate loop (rt_hier_run 57 + serve 23 a record
# for one 8-way L1) is the other half.  reusedist at 10^6 accesses carries its start-up
# (tables for the blocks), and on random blocks its time is memory stalls that
# instructions do not show: 10^7 random accesses over 10^6 blocks took 1.58 s CPU with -A
# and 1.95 s with the full histogram (the build before: 2.67 s, its rows by printf).
