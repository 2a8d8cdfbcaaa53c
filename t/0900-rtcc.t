#!/bin/sh
# rtcc: the wrapper (compile, link, CC=rtcc make), the runtime (the trace,
# its end by every path, threads, marks, on/off, sampling and partitions
# at the source) and its exactness against lackey on the same binary.
. "$(dirname "$0")/lib.sh"
plan 59

R=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp" || exit 1
need() { command -v "$1" >/dev/null 2>&1; }
for p in clang gcc valgrind setarch objdump; do
	need $p && continue
	i=0; while [ $i -lt 58 ]; do skip "$p needed"; i=$((i + 1)); done
	exit 0
done
# The same run twice: addresses without ASLR.
run() { setarch -R "$@"; }
# The distinct bytes read and written: "R n W n"; no records, an error
bytes() { awk "$HEX"' { a = hex($2); for (i = 0; i < $3; i++) b[$1, a + i] = 1 }
	END { if (NR == 0) exit 1; for (k in b) { split(k, f, SUBSEP); n[f[1]]++ } print "R", n["R"] + 0, "W", n["W"] + 0 }'; }
# Records as "op addr size" lines, a lackey modify as a read and a write.
ras() { awk '!/^#/ { if ($2 == "M") { print "R", $3, $4; print "W", $3, $4 } else print $2, $3, $4 }'; }

cat >hello.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include "reftrace.h"
int a[1000];
int main(int argc, char **argv)
{
	int i, s = 0;
	REFTRACE_REGION("a", a, 1000, sizeof a[0]);
	for (i = 0; i < 1000; i++)
		a[i] = i;
	REFTRACE_MARK("sum");
	for (i = 0; i < 1000; i++)
		s += a[i];
	printf("%d\n", s);
	fprintf(stderr, "to stderr\n");
	if (argc > 1 && strcmp(argv[1], "abort") == 0)
		abort();
	if (argc > 1 && strcmp(argv[1], "segv") == 0)
		*(volatile int *)(argc - 2) = 1;
	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		exit(3);
	if (argc > 1 && strcmp(argv[1], "term") == 0)
		raise(SIGTERM);
	return 0;
}
EOF
check "rtcc compiles and links a program" "rtcc -O1 -g -o hello hello.c && test -x hello"
check_same "the program's standard output and status are its own" \
    "run ./hello 2>/dev/null; echo \$?" "printf '499500\n0\n'"
check "the trace is prog.rtb, a binary trace" "test -s hello.rtb && head -c 4 hello.rtb | od -c | grep -q 'R   T   B'"
check_same "1000 writes then 1000 reads of a, in order, the region and the mark in place" \
    "trfilter -r a hello.rtb | awk '/^#(region|mark)/ {print \$1, \$3; next} !/^#/ {print \$2, \$4}' | uniq -c | awk '{\$1 = \$1} 1'" \
    "printf '1 #region a\n1000 W 4\n1 #mark sum\n1000 R 4\n1 #mark rtcc:exit\n'"
check "... at its addresses, one after the other" \
    "trfilter -r a hello.rtb | awk \"\$HEX\"' \$2 == \"W\" {a = hex(\$3); if (n++ && a != p + 4) exit 1; p = a} END {exit n != 1000}'"
check "the trace ends with the mark rtcc:exit" "trfilter hello.rtb | tail -1 | grep -q '^#mark [0-9]* rtcc:exit\$'"
check "trfilter -l symbolizes the pc (a PIE: its object event)" \
    "trfilter -l -m sum hello.rtb | awk '!/^#/ && \$8 == \"main\" && \$7 ~ /hello.c:15\$/ {n++} END {exit n != 1000}'"
check_same "the program's object event carries its build id, as readelf reads it" \
    "trfilter hello.rtb | awk '/^#object/ && \$3 ~ /\\/hello\$/ {print \$5}'" \
    "readelf -n hello | awk '/Build ID:/ {print \"build-id:\" \$3}' | grep ."
check "RTCC_OUT names the trace" "run ./hello >/dev/null 2>&1 && RTCC_OUT=t.rtb run ./hello >/dev/null 2>&1 && cmp -s t.rtb hello.rtb"
check_same "RTCC_FORMAT=text writes the same records as text" \
    "RTCC_OUT=t.txt RTCC_FORMAT=text run ./hello >/dev/null 2>&1 && cat t.txt" "trfilter hello.rtb"
check_fail "exit(3): status 3" 3 "^to stderr\$" "./hello exit"
check "... the trace complete, ended by rtcc:exit" \
    "trfilter hello.rtb | tail -1 | grep -q 'rtcc:exit' && test \$(trfilter -t R hello.rtb | grep -vc '^#') -ge 1000"
check_same "abort(): the program dies of SIGABRT" "./hello abort >/dev/null 2>&1; echo \$?" "echo 134"
check "... the trace read to its end, ended by rtcc:SIGABRT, every access before it" \
    "trfilter hello.rtb >t.out && tail -1 t.out | grep -q 'rtcc:SIGABRT\$' && test \$(grep -c '^[0-9]* R ' t.out) -ge 1000"
check_same "a segmentation fault: SIGSEGV, the trace ended by rtcc:SIGSEGV" \
    "./hello segv >/dev/null 2>&1; echo \$?; trfilter hello.rtb | tail -1 | cut -d' ' -f3" \
    "printf '139\nrtcc:SIGSEGV\n'"
check_same "SIGTERM: the same" \
    "./hello term >/dev/null 2>&1; echo \$?; trfilter hello.rtb | tail -1 | cut -d' ' -f3" \
    "printf '143\nrtcc:SIGTERM\n'"
mkdir ro && chmod 555 ro
check_same "an unwritable trace: said on standard error, the program unchanged" \
    "RTCC_OUT=ro/x/t.rtb ./hello 2>err; echo \$?; cat err" \
    "printf '499500\n0\nrtcc: ro/x/t.rtb: No such file or directory\nto stderr\n'"
if [ -w /dev/full ]; then
	check_same "a full disk: said once, the program unchanged" \
	    "RTCC_OUT=/dev/full ./hello 2>err; echo \$?; cat err" \
	    "printf '499500\n0\nto stderr\nrtcc: /dev/full: No space left on device\n'"
else
	skip "no /dev/full"
fi

# Compile only, link apart, a Makefile with CC=rtcc; plain cc's objects
# are not traced.
cat >m1.c <<'EOF'
#include <stdio.h>
extern int b[64];
void fill(void);
int main(void) { int i, s = 0; fill(); for (i = 0; i < 64; i++) s += b[i]; printf("%d\n", s); return 0; }
EOF
cat >m2.c <<'EOF'
int b[64];
void fill(void) { int i; for (i = 0; i < 64; i++) b[i] = i; }
EOF
printf 'prog: m1.o m2.o\n\t$(CC) -o prog m1.o m2.o\n' >Makefile
check "rtcc -c makes an object and links nothing" \
    "rtcc -c m1.c && nm m1.o | grep -q ' U __asan_load4_noabort' && ! nm m1.o | grep -q reftrace_mark"
check "CC=rtcc make builds a program of two files" "CC=rtcc make -s >/dev/null && ./prog >out && grep -q '^2016\$' out"
check_same "... both files traced: 64 writes, 64 reads" \
    "trfilter prog.rtb | awk '!/^#/ {print \$2}' | uniq -c | awk '{\$1 = \$1} 1'" "printf '64 W\n64 R\n'"
rm -f m1.o m2.o prog
check "an object of plain cc links with rtcc and is not traced" \
    "cc -c m2.c && rtcc -o prog m1.c m2.o && ./prog >/dev/null"
check_same "... only the reads of the file rtcc compiled" \
    "trfilter prog.rtb | awk '!/^#/ {print \$2}' | uniq -c | awk '{\$1 = \$1} 1'" "printf '64 R\n'"
check "a program compiled by rtcc, linked without its runtime by plain cc, fails to link" \
    "rm -f m1.o m2.o && rtcc -c m1.c m2.c && test -s m1.o && test -s m2.o && ! cc -o prog2 m1.o m2.o 2>/dev/null"
check_fail "rtcc without a file: the usage, status 2" 2 "^usage: rtcc " "rtcc -O2"

# memcpy, memset and memmove as the accesses they make.
cat >cp.c <<'EOF'
#include <string.h>
char s[100], d[100];
int main(void) { memcpy(d, s, 70); memset(d, 1, 40); memmove(d + 1, d, 50); return 0; }
EOF
check_same "memcpy, memset, memmove: 32 bytes read and written at a time, memmove from the end when it overlaps" \
    "rtcc -O1 -fno-pie -no-pie -o cp cp.c && ./cp && trfilter cp.rtb | awk '!/^#/ {print \$2, \$4}' | paste -sd' '" \
    "echo R 32 W 32 R 32 W 32 R 6 W 6 W 32 W 8 R 18 W 18 R 32 W 32"
check_same "... at their addresses" \
    "trfilter cp.rtb | awk '!/^#/ {printf \"%s \", \$3} END {print \"\"}'" \
    "nm cp | awk '\$3 == \"s\" {s = \$1} \$3 == \"d\" {d = \$1} END {print s, d}' | { read s d; s=\$((0x\$s)); d=\$((0x\$d));
     for a in \$s \$d \$((s + 32)) \$((d + 32)) \$((s + 64)) \$((d + 64)) \$d \$((d + 32)) \$((d + 32)) \$((d + 33)) \$d \$((d + 1)); do printf '0x%x ' \$a; done; echo; }"

check_same "-static: a program that runs, its copies not recorded (the C library's would be)" \
    "rtcc -O1 -static -o cps cp.c && ./cps && trfilter cps.rtb | grep -v '^#' | awk '\$4 == 32' | wc -l" "echo 0"

# Threads: each its own buffer; trfilter -T selects one.
cat >th.c <<'EOF'
#include <pthread.h>
#include <stdio.h>
int x[4][100000];
static void *work(void *p) { int t = *(int *)p, i; for (i = 0; i < 100000; i++) x[t][i] = i; return 0; }
int main(void)
{
	pthread_t th[3]; int id[4] = { 0, 1, 2, 3 }, i;
	for (i = 0; i < 3; i++) pthread_create(&th[i], 0, work, &id[i + 1]);
	work(&id[0]);
	for (i = 0; i < 3; i++) pthread_join(th[i], 0);
	printf("%d\n", x[3][99999]);
	return 0;
}
EOF
check "a program of four threads runs" "rtcc -O1 -fno-pie -no-pie -o th th.c -lpthread && ./th | grep -q 99999"
x=0x$(nm th | awk '$3 == "x" {print $1}')
for t in 0 1 2 3; do
	check "thread $t: its 100000 writes, in its order, in one array" \
	    "trfilter -T $t -t W -a $x+1600000 th.rtb | awk \"\$HEX\"' !/^#/ {a = hex(\$3); if (n++ && a != p + 4) bad = 1; p = a} END {exit bad || n != 100000}'"
done
check "seq counts the records in the trace's order" \
    "trfilter th.rtb | awk '!/^#/ {if (\$1 != n) exit 1; n++} END {exit n < 400000}'"

# Recording on and off, by the program or by marks; sampling at the source.
cat >onoff.c <<'EOF'
#include "reftrace.h"
int a[300];
int main(void)
{
	int i;
	for (i = 0; i < 100; i++) a[i] = i;
	REFTRACE_OFF();
	for (i = 100; i < 200; i++) a[i] = i;
	REFTRACE_ON();
	REFTRACE_MARK("third");
	for (i = 200; i < 300; i++) a[i] = i;
	REFTRACE_MARK("end");
	return 0;
}
EOF
check "REFTRACE_ON/OFF compile with rtcc" "rtcc -O1 -o onoff onoff.c && test -x onoff"
check_same "REFTRACE_OFF() stops, REFTRACE_ON() starts: seq stays true" \
    "./onoff && trfilter onoff.rtb | awk '!/^#/ {print \$1, \$3}' | sed -n '1p;100p;101p;200p' | awk '{print \$1}'" \
    "printf '0\n99\n200\n299\n'"
check_same "... and says so with marks" \
    "trfilter onoff.rtb | awk '/^#mark/ {print \$3}' | paste -sd' '" \
    "echo reftrace:off reftrace:on third end rtcc:exit"
check_same "RTCC_START and RTCC_STOP: the records between two marks" \
    "RTCC_START=third RTCC_STOP=end ./onoff && trfilter onoff.rtb | grep -vc '^#'" "echo 100"
stubok rtcc check "REFTRACE_ON/OFF under valgrind (no rtcc): marks" \
    "cc -O1 -o onoffv onoff.c -I$R/contrib && valgrind --tool=lackey --trace-mem=yes --log-file=v.lk ./onoffv && trfilter v.lk | grep -q '^#mark [0-9]* reftrace:on'"
check "REFTRACE_DISABLE, and REFTRACE_OFF defined as before, compile them away" \
    "rtcc -DREFTRACE_DISABLE -o n1 onoff.c && rtcc -DREFTRACE_OFF -o n2 onoff.c && test -x n2 && nm n1 >n1.nm && ! grep -q ' U reftrace_mark' n1.nm"

RTCC_OUT=f.rtb run ./hello >/dev/null 2>&1
check_same "RTCC_SAMPLE=10 on one thread: trsample -i 10's records" \
    "RTCC_SAMPLE=10 run ./hello >/dev/null 2>&1; trfilter hello.rtb | grep -v '^#'" \
    "trsample -i 10 f.rtb | grep -v '^#'"
check "... and says so in a mark" "trfilter hello.rtb | grep -q '^#mark 0 rtcc:interval=10\$'"
check_same "RTCC_BURST=5/50: trsample -u 5/50's records" \
    "RTCC_BURST=5/50 run ./hello >/dev/null 2>&1; trfilter hello.rtb | grep -v '^#'" \
    "trsample -u 5/50 f.rtb | grep -v '^#'"
check_same "RTCC_HASH=0.25:64: trsample -H 0.25 -B 64's records" \
    "RTCC_HASH=0.25:64 run ./hello >/dev/null 2>&1; trfilter hello.rtb | grep -v '^#'" \
    "trsample -H 0.25 -B 64 f.rtb | grep -v '^#'"
check_same "RTCC_PARTS=4:64: the four partitions trfilter -P 4:64 makes" \
    "RTCC_PARTS=4:64 RTCC_OUT=p%d.rtb run ./hello >/dev/null 2>&1; for k in 0 1 2 3; do trfilter p\$k.rtb; done" \
    "for k in 0 1 2 3; do trfilter -P \$k/4:64 f.rtb; done"
check_same "... each header says which" \
    "for k in 0 1 2 3; do od -A n -t x1 -j 9 -N 7 p\$k.rtb; done" \
    "for k in 0 1 2 3; do echo \" 86 0\$k 00 00 04 00 00\"; done"
check_same "... whose cachesim tables merge (-M) to the whole trace's" \
    "for k in 0 1 2 3; do cachesim -c 1K:2:64 p\$k.rtb >c\$k; done; cachesim -M c0 c1 c2 c3 | grep -v '^#amat'" \
    "cachesim -c 1K:2:64 f.rtb | grep -v '^#amat'"

cat >fn.c <<'EOF'
#include <stdio.h>
int a[1000], b[1000];
__attribute__((noinline)) static void f(void) { for (int i = 0; i < 1000; i++) a[i] = i; }
__attribute__((noinline)) void g(void) { for (int i = 0; i < 1000; i++) b[i] = a[i] + 1; }
int main(void) { f(); g(); f(); printf("%d\n", b[999]); return 0; }
EOF
rtcc -O1 -g -o fn fn.c && RTCC_OUT=fnall.rtb run ./fn >/dev/null
check_same "RTCC_FUNCS=f: the records trfilter -F f keeps, a static function too" \
    "RTCC_FUNCS=f run ./fn >/dev/null && trfilter fn.rtb | grep -v '^#' | cut -d' ' -f1-6" \
    "trfilter -l -F f fnall.rtb | grep -v '^#' | cut -d' ' -f1-6"
check_fail "... a name not in the program said, the others kept" 0 \
    "^rtcc: RTCC_FUNCS: nosuch: no such function in the program\$" \
    "RTCC_FUNCS=nosuch,g ./fn >/dev/null && test \$(trfilter fn.rtb | grep -vc '^#') = 2000"

# Exactness: lackey on the same binary, run again with the recording off
# (the arrays at a fixed address, without PIE: the same addresses).
cat >ex.c <<'EOF'
#include <string.h>
#include "reftrace.h"
#define N 16
#define D __attribute__((section(".rtdata"), aligned(64)))
D double A[N][N], B[N][N], C[N][N];
D float G[N + 2][N + 2], H[N + 2][N + 2];
D int hist[16];
D short s16[64];
D unsigned char bytes[256];
D long total;
D struct pt { int x, y; double w; } pts[32], pts2[32];

__attribute__((noinline)) static void
init(void)
{
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			A[i][j] = i + j;
			B[i][j] = i - j;
		}
	for (i = 0; i < N + 2; i++)
		for (j = 0; j < N + 2; j++)
			G[i][j] = (float)(i * j);
	for (i = 0; i < 256; i++)
		bytes[i] = (unsigned char)(i * 7);
}

__attribute__((noinline)) static void
matmul(void)
{
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < N; k++)
				C[i][j] += A[i][k] * B[k][j];
}

__attribute__((noinline)) static void
stencil(void)
{
	int i, j;

	for (i = 1; i <= N; i++)
		for (j = 1; j <= N; j++)
			H[i][j] = 0.2f * (G[i][j] + G[i - 1][j] + G[i + 1][j] + G[i][j - 1] + G[i][j + 1]);
}

__attribute__((noinline)) static void
mixed(void)
{
	int i;

	for (i = 0; i < 256; i++)
		hist[bytes[i] & 15]++;
	for (i = 0; i < 64; i++)
		s16[i] = (short)(s16[i] + bytes[i]);
	for (i = 0; i < 32; i++) {
		pts[i].x = i;
		pts[i].y = 2 * i;
		pts[i].w = pts[i].x * 0.5;
	}
	for (i = 0; i < 16; i++)
		total += hist[i];
}

__attribute__((noinline)) static void
copies(void)
{
	int i;

	for (i = 0; i < 32; i++)
		pts2[31 - i] = pts[i];
	memcpy(B, A, sizeof A);
	memset(hist, 0, sizeof hist);
}

int
main(void)
{
	REFTRACE_MARK("start");
	init();
	matmul();
	stencil();
	mixed();
	REFTRACE_MARK("copies");
	copies();
	REFTRACE_MARK("end");
	return (int)(total & 1);
}
EOF
# valgrind 3.19 reads no DWARF 5: -gdwarf-4
for x in clang-O0 clang-O2 gcc-O0 gcc-O2; do
	RTCC_CC=${x%-*} rtcc -${x#*-} -gdwarf-4 -fno-pie -no-pie -Wl,--section-start=.rtdata=0x20000000 \
	    -o ex$x ex.c 2>ex.err &&
	RTCC_OUT=ex$x.rtb ./ex$x && RTCC_OFF=1 RTCC_OUT=/dev/null \
	    valgrind --tool=lackey --trace-mem=yes --log-file=ex$x.lk ./ex$x ||
	    echo "# ex$x: $(cat ex.err)"
	sz=0x$(objdump -h ex$x | awk '$2 == ".rtdata" {print $3}')
	trfilter -m start,copies -a 0x20000000+$sz ex$x.lk >ex$x.lk.sel
	trfilter -m start,copies -a 0x20000000+$sz ex$x.rtb >ex$x.sel
	trfilter -m copies,end -a 0x20000000+$sz ex$x.lk | ras >ex$x.lk.cp
	trfilter -m copies,end -a 0x20000000+$sz ex$x.rtb | ras >ex$x.cp
done
for x in clang-O0 clang-O2; do
	check_same "$x: the kernels' accesses to the globals are lackey's, record for record" \
	    "ras <ex$x.lk.sel" "ras <ex$x.sel"
	check "... 4000 of them and more" "test \$(grep -vc '^#' ex$x.sel) -gt 4000"
	check_same "$x: memcpy, memset and struct copies: the bytes lackey sees read and written" \
	    "bytes <ex$x.lk.cp" "bytes <ex$x.cp"
done
check_same "clang -O2: cachesim's table is lackey's" \
    "cachesim -c 2K:2:64 -c 16K:4:64 exclang-O2.lk.sel" "grep -q '^[0-9]' exclang-O2.sel && cachesim -c 2K:2:64 -c 16K:4:64 exclang-O2.sel"
check_same "clang -O2: reusedist's histogram is lackey's" \
    "reusedist exclang-O2.lk.sel" "grep -q '^[0-9]' exclang-O2.sel && reusedist exclang-O2.sel"
# gcc drops the check of a store to what a check of the same address and
# size dominates (at -O0, in the same basic block): the store of a
# read-modify-write; and it does not check a global at a constant address.
# What rtcc records is lackey's with those writes removed.
for x in gcc-O0 gcc-O2; do
	check "$x: lackey's records less the writes of read-modify-writes and to 'total'" \
	    "ras <ex$x.lk.sel >l; ras <ex$x.sel >r; total=\$(nm ex$x | awk '\$3 == \"total\" {print \"0x\" \$1}' | sed 's/0x0*/0x/');
	     awk -v t=\$total 'NR == FNR {r[FNR] = \$0; nr = FNR; next}
	        { if (j < nr && \$0 == r[j + 1]) j++
	          else if (\$2 == t || FNR - last[\$2 \" \" \$3] <= 100) drop++
	          else { print \"unexplained: \" \$0; bad = 1; exit }
	          last[\$2 \" \" \$3] = FNR }
	        END { print drop, \"dropped\"; exit bad || j != nr || drop == 0 }' r l"
done
