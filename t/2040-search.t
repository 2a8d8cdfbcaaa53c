#!/bin/sh
# pli's search: a model is never longer than its values as text (a loop
# only where it is shorter than its literals), runs of equal values, and
# loop bodies longer than the old search's 16 terms.  Every expected
# model below is written from the construction of its series.
. "$(dirname "$0")/lib.sh"
plan 40

# The model less its header (comment lines): bytes of statements.
body() { grep -v '^#' "$1" | wc -c; }
# a size is compared only where there is a model: pli's header, statements
model() { grep -q '^#reftrace loops ' "$1" && test "$(body "$1")" -gt 0; }
rt() {	# series model: the model expands back to the series
	pli -x "$2" | cmp -s - "$1"
}

# Random series (awk's %d and %x may stop at 2^31: smaller values): no loop fits, every value is a literal; a line of
# literals is the numbers alone, as long as the values one a line.
awk 'BEGIN { srand(11); for (i = 0; i < 4000; i++) printf "%d\n", int(rand() * 2^30) - 2^29 }' >"$tmp/rand"
pli -I series "$tmp/rand" >"$tmp/rand.pli"
check "random decimal series: round trip" "rt $tmp/rand $tmp/rand.pli"
check "random decimal series: the model's statements no longer than the text" \
	"model $tmp/rand.pli && test \$(body $tmp/rand.pli) -le \$(wc -c <$tmp/rand)"
awk 'BEGIN { srand(12); for (i = 0; i < 4000; i++) printf "0x%x\n", 2^28 + int(rand() * 2^27) }' >"$tmp/randx"
pli -I series "$tmp/randx" >"$tmp/randx.pli"
check "random addresses: round trip" "rt $tmp/randx $tmp/randx.pli"
# each hex literal is written without its 0x: 2 bytes less a value
check "random addresses: the model's statements 2 bytes a value shorter than the text" \
	"model $tmp/randx.pli && test \$(body $tmp/randx.pli) -le \$((\$(wc -c <$tmp/randx) - 2 * 4000))"

# A trace of random addresses from 50 instructions at random: the
# order of streams costs bytes a value, and no stream has a loop, so the
# model of streams is longer than the values less their 0x; -g auto
# writes them as one stream's literals instead.
awk 'BEGIN { srand(5); for (i = 0; i < 3000; i++) { printf "I  %08x,4\n", 4194304 + 4 * int(rand() * 50); printf " L %08x,8\n", 2^28 + 8 * int(rand() * 2^20) } }' >"$tmp/rl.lk"
trfilter "$tmp/rl.lk" | awk '!/^#/ { print $3 }' >"$tmp/rl.addr"
pli -g auto "$tmp/rl.lk" >"$tmp/rl.pli"
check "random trace: round trip" "test \$(wc -l <$tmp/rl.addr) = 6000 && rt $tmp/rl.addr $tmp/rl.pli"
check "random trace: the model's statements 2 bytes a value shorter than the text" \
	"model $tmp/rl.pli && test \$(body $tmp/rl.pli) -le \$((\$(wc -c <$tmp/rl.addr) - 2 * 6000))"

# 1 2 3 is a loop of 3 values, but "for t1 = 0 to 2 {" and its emit are
# longer than "1 2 3": literals.
printf '5\n1\n2\n3\n9\n' >"$tmp/short"
printf '#reftrace loops 1\n# pli: a loop model (pli -x expands it)\n5 1 2 3 9\n' >"$tmp/short.want"
check "a loop longer than its values is written as its values" \
	"pli -I series $tmp/short | cmp -s - $tmp/short.want"
# ... and inside a model of addresses, in hex digits alone
printf '0x10\n0x7\n0x8\n0x9\n0x20\n' | pli -I series >"$tmp/shortx"
check "a model of addresses: literals in hex digits, no 0x" \
	"grep -v '^#' $tmp/shortx | grep -qx '10 7 8 9 20'"

# Runs of equal values are one term each: 100 values 1000, 1001, ...
# each 8 times is the nest for t1 < 100 { for t2 < 8 { emit t1 + 1000 } };
# runs one longer each time, a triangular nest.
awk 'BEGIN { for (v = 0; v < 100; v++) for (r = 0; r < 8; r++) print v + 1000 }' >"$tmp/runs"
printf 'for t1 = 0 to 99 {\n  for t2 = 0 to 7 {\n    emit t1 + 1000\n  }\n}\n' >"$tmp/runs.want"
pli -I series "$tmp/runs" >"$tmp/runs.pli"
check "runs of 8: a nest of the values and the runs" \
	"grep -v '^#' $tmp/runs.pli | cmp -s - $tmp/runs.want && rt $tmp/runs $tmp/runs.pli"
awk 'BEGIN { for (v = 0; v < 50; v++) for (r = 0; r < v + 3; r++) print 7 * v + 100 }' >"$tmp/tri"
printf 'for t1 = 0 to 49 {\n  for t2 = 0 to t1 + 2 {\n    emit 7*t1 + 100\n  }\n}\n' >"$tmp/tri.want"
pli -I series "$tmp/tri" >"$tmp/tri.pli"
check "runs one longer each time: a triangular nest" \
	"grep -v '^#' $tmp/tri.pli | cmp -s - $tmp/tri.want && rt $tmp/tri $tmp/tri.pli"
# block numbers of a byte-by-byte walk: runs of 64 (-B 64)
awk 'BEGIN { for (a = 4096; a < 4096 + 64 * 300; a += 4) printf "0x%x\n", a }' >"$tmp/walk"
pli -I series -B 64 "$tmp/walk" >"$tmp/walk.pli"
check "-B 64 on a walk of 4-byte steps: 300 blocks of 16" \
	"grep -v '^#' $tmp/walk.pli | tr -d '\\n' | grep -qx 'for t1 = 0 to 299 {  for t2 = 0 to 15 {    emit t1 + 0x40  }}'"

# A body of 20 terms: rows of i*1000 + j*j, j < 20 (no 3 in a row in
# arithmetic progression, so no shorter loop).  A search of 16 terms
# found no loop; the default 32 finds the row loop.
awk 'BEGIN { for (i = 0; i < 30; i++) for (j = 0; j < 20; j++) print 1000 * i + j * j }' >"$tmp/rows"
awk 'BEGIN { print "for t1 = 0 to 29 {"; for (j = 0; j < 20; j++) print "  emit 1000*t1" (j ? " + " j * j : ""); print "}" }' >"$tmp/rows.want"
pli -I series "$tmp/rows" >"$tmp/rows.pli"
check "a body of 20 terms: the row loop" \
	"grep -v '^#' $tmp/rows.pli | cmp -s - $tmp/rows.want && rt $tmp/rows $tmp/rows.pli"
check "with --period 16, none" \
	"pli -I series --period 16 $tmp/rows >$tmp/p16 && rt $tmp/rows $tmp/p16 && ! grep -q '^for' $tmp/p16"

# Hand-written models: lines of numbers alone.
check "a line of numbers alone in a decimal model: signed integers" \
	"printf '#reftrace loops 1\\n-1 +2 3\\nvalues 4\\n' | pli -x | tr '\\n' ' ' | grep -qx -- '-1 2 3 4 '"
check "in a model of addresses: hex digits, 16 at most" \
	"printf '#reftrace loops 1\\n#values hex\\nff fee ffffffffffffffff\\n' | pli -x | tr '\\n' ' ' | grep -qx '0xff 0xfee 0xffffffffffffffff '"
check_fail "17 hex digits are an error with the place" 1 "^pli: <stdin>:3: want at most 16 hex digits, not '10000000000000000'\$" \
	"printf '#reftrace loops 1\\n#values hex\\n1 10000000000000000\\n' | pli -x"

# Literals in hex after the first of a line: the difference from the one
# before where that is shorter (reftrace(5)).  By hand: 4033b80, -50 and
# +258 are 4033b80 4033b30 4033d88.
check "differences on a line of hex literals, by hand" \
	"printf '#reftrace loops 1\\n#values hex\\n4033b80 -50 +258\\n' | pli -x | tr '\\n' ' ' | grep -qx '0x4033b80 0x4033b30 0x4033d88 '"
# 16 addresses near one another, at random: pli writes a line with
# differences; awk resolves them by the rule and finds the addresses.
awk 'BEGIN { srand(7); for (i = 0; i < 16; i++) printf "0x%x\n", 67320704 + int(rand() * 1024) * 8 }' >"$tmp/near"
pli -I series "$tmp/near" >"$tmp/near.pli"
check "near addresses: differences written, each resolved by the rule gives the addresses" \
	"grep -q '^[0-9a-f]* .*[+-][0-9a-f]' $tmp/near.pli &&
	 grep -v '^#' $tmp/near.pli | tr ' ' '\\n' | awk '{ if (\$0 ~ /^[+-]/) v = v + (substr(\$0, 1, 1) \"1\") * hex(substr(\$0, 2)); else v = hex(\$0); printf \"0x%x\\n\", v }
	     function hex(s,  i, n) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index(\"0123456789abcdef\", substr(s, i, 1)) - 1; return n }' |
	 cmp -s - $tmp/near && rt $tmp/near $tmp/near.pli"
check "near addresses: shorter than the addresses less their 0x" \
	"model $tmp/near.pli && test \$(body $tmp/near.pli) -lt \$((\$(wc -c <$tmp/near) - 2 * 16))"
# A line's first literal may be a difference from the last literal before
# it in the model (reftrace(5)), a stream's section's too: 0x10, then
# 0x10 + 8 on the next line; stream 2's first is stream 1's last (0x18)
# + 8.  With no literal before it, it is an error.
check "a difference first on a line: from the last literal of the lines before" \
	"printf '#reftrace loops 1\\n#values hex\\n10\\n+8 4\\n' | pli -x | tr '\\n' ' ' | grep -qx '0x10 0x18 0x4 '"
check "a stream's first literal: from the last literal of the sections before" \
	"printf '#reftrace loops 1\\n#values hex\\nstream 1 0x40\\n10 +8\\nstream 2 0x44\\n+8\\norder\\n1 1 2\\n' | pli -x | tr '\\n' ' ' |
	 grep -qx '0x10 0x18 0x20 '"
check_fail "a difference first in the model" 1 "^pli: <stdin>:3: want a value in hex digits before a difference \\(none yet\\), not '\\+8'\$" \
	"printf '#reftrace loops 1\\n#values hex\\n+8 4\\n' | pli -x"
check "pli writes a stream's first literal as a difference from the sections before it" \
	"pli $D/bsort-reversed.lk.gz | grep -A1 '^stream ' | grep -q '^[+-][0-9a-f]'"
check_fail "a difference below 0" 1 "^pli: <stdin>:3: want a value not below 0, not '-11'\$" \
	"printf '#reftrace loops 1\\n#values hex\\n10 -11\\n' | pli -x"
check_fail "a difference past 2^64 - 1" 1 "^pli: <stdin>:3: want a value below 2\\^64, not '\\+1'\$" \
	"printf '#reftrace loops 1\\n#values hex\\nffffffffffffffff +1\\n' | pli -x"
check_fail "a difference that is not hex" 1 "^pli: <stdin>:3: want at most 16 hex digits, or \\+hex or -hex, not '\\+x'\$" \
	"printf '#reftrace loops 1\\n#values hex\\n10 +x\\n' | pli -x"
# A loop runs its last index + 1 times modulo 2^64 (reftrace(5)): -1 is
# no times, as the inner loop of this triangle at t1 = 0; so in a model
# of streams.
check "a last index of -1 runs a loop no times, in both expanders" \
	"printf '#reftrace loops 1\\nfor t1 = 0 to 3 {\\n  for t2 = 0 to t1 - 1 {\\n    emit t2\\n  }\\n}\\n' | pli -x | tr '\\n' ' ' | grep -qx '0 0 1 0 1 2 ' &&
	 printf '#reftrace loops 1\\nstream 1 0x4\\nfor t1 = 0 to 3 {\\n  for t2 = 0 to t1 - 1 {\\n    emit t2\\n  }\\n}\\norder\\nvalues 1 1 1 1 1 1\\n' | pli -x | tr '\\n' ' ' | grep -qx '0 0 1 0 1 2 '"
check "in a decimal model a sign is a negative literal, as before" \
	"printf '#reftrace loops 1\\n5 -3 +2\\n' | pli -x | tr '\\n' ' ' | grep -qx '5 -3 2 '"

# Two hypotheses, a stream an instruction and one stream: the blocked
# multiply's data has 40 instructions whose order is long as streams,
# while one stream with bodies of 32 terms finds the loop nest: the
# -g auto writes the shorter, smaller than xz -9 of the addresses.
trfilter -e "$D/matmul" -F blocked -t RWM "$D/matmul-blocked.lk.gz" >"$tmp/mb.txt"
awk '!/^#/ { print $3 }' "$tmp/mb.txt" >"$tmp/mb.addr"
pli -g auto "$tmp/mb.txt" >"$tmp/mb.pli"
check "blocked multiply: the shorter hypothesis, and it expands back" \
	"a=\$(wc -c <$tmp/mb.pli); s=\$(pli -g pc $tmp/mb.txt | wc -c); o=\$(pli -g none $tmp/mb.txt | wc -c);
	 test \$a -le \$s && test \$a -le \$o && rt $tmp/mb.addr $tmp/mb.pli"
check "blocked multiply: smaller than xz -9 of the addresses" \
	"model $tmp/mb.pli && test \$(wc -c <$tmp/mb.pli) -lt \$(xz -9 <$tmp/mb.addr | wc -c)"

# A search that does not commit early.  A loop's first iteration whose
# first term is a run that the value before it goes on: 9, then 20 times
# 10..15 and 16..27 four times and 99.  The greedy search made the run
# 9..27 and kept the first iteration out of the loop; the run is split
# where the loop's iterations break, and the model is the one the
# series was made from.
awk 'BEGIN { print 9; for (i = 0; i < 20; i++) { for (a = 10; a < 16; a++) print a; for (r = 0; r < 4; r++) for (c = 16; c < 28; c++) print c; print 99 } }' >"$tmp/trap"
printf '9\nfor t1 = 0 to 19 {\n  for t2 = 0 to 5 {\n    emit t2 + 10\n  }\n  for t2 = 0 to 3 {\n    for t3 = 0 to 11 {\n      emit t3 + 16\n    }\n  }\n  emit 99\n}\n' >"$tmp/trap.want"
pli -I series "$tmp/trap" >"$tmp/trap.pli"
check "a run into a loop's first iteration: the loop of 20" \
	"grep -v '^#' $tmp/trap.pli | cmp -s - $tmp/trap.want && rt $tmp/trap $tmp/trap.pli"
# The blocked multiply's order, a nest: 1..6, then 5 times 7 8 9, 4
# times (10..15, 16..27 four times, 16 17 18, 28..35), 10 11 12, 36.
# Runs go on across the boundaries of every level (7..27, 1..27); the
# model is the nest, each level's body once.
awk 'BEGIN { for (v = 1; v < 7; v++) print v; for (i = 0; i < 5; i++) { print 7; print 8; print 9; for (j = 0; j < 4; j++) { for (a = 10; a < 16; a++) print a; for (r = 0; r < 4; r++) for (c = 16; c < 28; c++) print c; print 16; print 17; print 18; for (a = 28; a < 36; a++) print a } print 10; print 11; print 12; print 36 } }' >"$tmp/nest"
cat >"$tmp/nest.want" <<'EOF2'
1 2 3 4 5 6
for t1 = 0 to 4 {
  for t2 = 0 to 2 {
    emit t2 + 7
  }
  for t2 = 0 to 3 {
    for t3 = 0 to 5 {
      emit t3 + 10
    }
    for t3 = 0 to 3 {
      for t4 = 0 to 11 {
        emit t4 + 16
      }
    }
    for t3 = 0 to 2 {
      emit t3 + 16
    }
    for t3 = 0 to 7 {
      emit t3 + 28
    }
  }
  for t2 = 0 to 2 {
    emit t2 + 10
  }
  emit 36
}
EOF2
pli -I series "$tmp/nest" >"$tmp/nest.pli"
check "runs across every level of a nest: the nest" \
	"grep -v '^#' $tmp/nest.pli | cmp -s - $tmp/nest.want && rt $tmp/nest $tmp/nest.pli"
# The loop that takes the last value of a run before it: 1 3 5 7 9, then
# 10 ... 29: the run of steps of 2 gives its 9 to the run of 1s.
awk 'BEGIN { for (v = 1; v < 10; v += 2) print v; for (v = 10; v < 30; v++) print v }' >"$tmp/steal"
pli -I series "$tmp/steal" >"$tmp/steal.pli"
check "a run's last value, the first of the next run's loop: round trip" "rt $tmp/steal $tmp/steal.pli"
# The loop turns: 7 8 9, then 4 times (10..27, 99, 98), then 10 11 12
# 36.  The greedy search made the run 7..27 and the loop of (99, 98,
# 10..27) three times, and the last iteration, cut at 12, stood after
# it; the loop begins with the run where the series does, 4 times.
awk 'BEGIN { print 7; print 8; print 9; for (i = 0; i < 4; i++) { for (a = 10; a < 28; a++) print a; print 99; print 98 } print 10; print 11; print 12; print 36 }' >"$tmp/turn"
printf '7 8 9\nfor t1 = 0 to 3 {\n  for t2 = 0 to 17 {\n    emit t2 + 10\n  }\n  emit 99\n  emit 98\n}\n10 11 12 36\n' >"$tmp/turn.want"
pli -I series "$tmp/turn" >"$tmp/turn.pli"
check "a loop turned to begin where the run before it breaks" \
	"grep -v '^#' $tmp/turn.pli | cmp -s - $tmp/turn.want && rt $tmp/turn $tmp/turn.pli"
check "blocked multiply, a stream an instruction (-g pc): smaller than xz -9" \
	"pli -g pc $tmp/mb.txt >$tmp/mbpc.pli && rt $tmp/mb.addr $tmp/mbpc.pli &&
	 test \$(wc -c <$tmp/mbpc.pli) -lt \$(xz -9 <$tmp/mb.addr | wc -c)"
# Random runs of random lengths and steps, 3 to 40 values each, some
# going on where the last ended: every model expands back.
awk 'BEGIN { srand(21); v = 0; for (r = 0; r < 3000; r++) { n = 3 + int(rand() * 38); s = int(rand() * 5) - 2; if (rand() < 0.5) v = int(rand() * 100); for (i = 0; i < n; i++) { print v; v += s } } }' >"$tmp/runsr"
pli -I series "$tmp/runsr" >"$tmp/runsr.pli"
check "random runs: round trip" "rt $tmp/runsr $tmp/runsr.pli"
# The other readings of values kept open (settle, predict): a loop's
# iterations are compared with the values before and after it value by
# value, whatever terms the greedy search made of them.
# 10 times (a run of 4 from 10 i, then 20 i + 4): the first iteration
# is the run 0 1 2 3 4, one term of five, which a loop of a run of four
# and a value cannot take whole; cut after its 3, it is the loop's first.
awk 'BEGIN { for (i = 0; i < 10; i++) { for (j = 0; j < 4; j++) print 10 * i + j; print 20 * i + 4 } }' >"$tmp/cutrun"
printf 'for t1 = 0 to 9 {\n  for t2 = 0 to 3 {\n    emit 10*t1 + t2\n  }\n  emit 20*t1 + 4\n}\n' >"$tmp/cutrun.want"
pli -I series "$tmp/cutrun" >"$tmp/cutrun.pli"
check "a run the first iteration's loop and value make: the loop of 10" \
	"grep -v '^#' $tmp/cutrun.pli | cmp -s - $tmp/cutrun.want && rt $tmp/cutrun $tmp/cutrun.pli"
# A triangular nest from one value: 1000, then 1000 1004, ... 10 rows.
# Its first two rows are too short to be loops of three, but they are
# the loop's rows at t1 = 0 and 1.
awk 'BEGIN { for (i = 0; i < 10; i++) for (j = 0; j <= i; j++) print 1000 + 4 * j }' >"$tmp/tri1"
printf 'for t1 = 0 to 9 {\n  for t2 = 0 to t1 {\n    emit 4*t2 + 1000\n  }\n}\n' >"$tmp/tri1.want"
pli -I series "$tmp/tri1" >"$tmp/tri1.pli"
check "a triangular nest from a row of one: every row in the loop" \
	"grep -v '^#' $tmp/tri1.pli | cmp -s - $tmp/tri1.want && rt $tmp/tri1 $tmp/tri1.pli"
# ... and one that ends in a row of one, each row then 7: the last two
# rows (1000 1004 7, 1000 7) are not loops of three either, but they are
# the loop's next iterations, value by value.
awk 'BEGIN { for (i = 0; i < 12; i++) { for (j = 0; j < 12 - i; j++) print 1000 + 4 * j; print 7 } }' >"$tmp/trid"
printf 'for t1 = 0 to 11 {\n  for t2 = 0 to -t1 + 11 {\n    emit 4*t2 + 1000\n  }\n  emit 7\n}\n' >"$tmp/trid.want"
pli -I series "$tmp/trid" >"$tmp/trid.pli"
check "a triangular nest down to a row of one: every row in the loop" \
	"grep -v '^#' $tmp/trid.pli | cmp -s - $tmp/trid.want && rt $tmp/trid $tmp/trid.pli"
# A loop whose last body term is a nest (its last value before its
# first iteration is looked up through two loops: under make asan, the
# blocked multiply above showed that index vector copied onto itself).
awk 'BEGIN { for (i = 0; i < 5; i++) { print 1000 + i; for (j = 0; j < 4; j++) for (k = 0; k < 3; k++) print 100 * i + 10 * j + k } }' >"$tmp/n3"
printf 'for t1 = 0 to 4 {\n  emit t1 + 1000\n  for t2 = 0 to 3 {\n    for t3 = 0 to 2 {\n      emit 100*t1 + 10*t2 + t3\n    }\n  }\n}\n' >"$tmp/n3.want"
pli -I series "$tmp/n3" >"$tmp/n3.pli"
check "a value and a nest of two, five times: the nest of three" \
	"grep -v '^#' $tmp/n3.pli | cmp -s - $tmp/n3.want && rt $tmp/n3 $tmp/n3.pli"
