/* lib.c: unit tests of the library internals, as TAP. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "reftrace.h"
#include "tap.h"
#include "cache.h"
#include "base/zout.h"


/* The scanners advance past a number, and leave the pointer alone on
 * none or on an overflow. */
static void
scan_tests(void)
{
	const char *p;
	uint64_t v;
	double d;

	p = "1234 x";
	ok(rt_scan_u64(&p, &v) == 0 && v == 1234 && *p == ' ', "rt_scan_u64: digits, stops at the blank");
	p = "18446744073709551615";
	ok(rt_scan_u64(&p, &v) == 0 && v == UINT64_MAX && *p == '\0', "rt_scan_u64: 2^64 - 1");
	p = "18446744073709551616";
	ok(rt_scan_u64(&p, &v) < 0 && *p == '1', "rt_scan_u64: 2^64 overflows, the pointer stays");
	p = "x1";
	ok(rt_scan_u64(&p, &v) < 0 && *p == 'x', "rt_scan_u64: a non-digit first");
	p = " 1";
	ok(rt_scan_u64(&p, &v) < 0 && *p == ' ', "rt_scan_u64: a leading blank is not skipped");
	p = "fF0,";
	ok(rt_scan_hex(&p, &v) == 0 && v == 0xff0 && *p == ',', "rt_scan_hex: digits of either case");
	p = "11112222333344445";
	ok(rt_scan_hex(&p, &v) < 0, "rt_scan_hex: 17 digits overflow");
	p = "0x1fff000500 ";
	ok(rt_scan_addr(&p, &v) == 0 && v == 0x1fff000500ULL && *p == ' ', "rt_scan_addr: 0x hex");
	p = "4096";
	ok(rt_scan_addr(&p, &v) == 0 && v == 4096, "rt_scan_addr: decimal");
	p = "2.5e3,";
	ok(rt_scan_double(&p, &d) == 0 && d == 2500 && *p == ',', "rt_scan_double: 2.5e3");
	p = "inf";
	ok(rt_scan_double(&p, &d) < 0 && *p == 'i', "rt_scan_double: inf is not finite");
	p = "1e999";
	ok(rt_scan_double(&p, &d) < 0, "rt_scan_double: out of range");
	ok(rt_parse_real("inf", &d, RT_REAL_INF) == 0 && d > 1e308, "rt_parse_real: inf when asked");
	ok(rt_parse_real("inf", &d, 0) < 0 && rt_parse_real("nan", &d, RT_REAL_INF) < 0,
	    "rt_parse_real: not unless asked");
	ok(rt_parse_real("nan", &d, RT_REAL_NAN) == 0 && d != d, "rt_parse_real: nan when asked");
}

static void
parse_tests(void)
{
	uint64_t v, lo, hi;
	unsigned m;

	ok(rt_parse_size("32K", &v) == 0 && v == 32768, "32K is 32768");
	ok(rt_parse_size("8M", &v) == 0 && v == 8u << 20, "8M");
	ok(rt_parse_size("1G", &v) == 0 && v == 1u << 30, "1G");
	ok(rt_parse_size("0x40", &v) < 0, "a size is decimal: 0x refused");
	ok(rt_parse_size("010K", &v) == 0 && v == 10240, "010K is ten K: a leading 0 is not octal");
	ok(rt_parse_u64("010", &v) == 0 && v == 10, "rt_parse_u64: 010 is ten");
	ok(rt_parse_u64("0x10", &v) < 0 && rt_parse_u64(" 1", &v) < 0, "rt_parse_u64: no hex, no blank");
	ok(rt_parse_addr("0x10", &v) == 0 && v == 16 && rt_parse_addr("010", &v) == 0 && v == 10,
	    "rt_parse_addr: 0x hex, else decimal");
	ok(rt_parse_addr("0x", &v) < 0 && rt_parse_addr("0x-1", &v) < 0, "rt_parse_addr: 0x wants digits");
	ok(rt_parse_size("12Q", &v) < 0, "bad suffix refused");
	ok(rt_parse_size("-1", &v) < 0, "negative refused");
	ok(rt_parse_size("99999999999999999999", &v) < 0, "overflow refused");
	ok(rt_parse_size("17179869184T", &v) < 0, "suffix overflow refused");
	ok(rt_parse_arange("0x1000-0x1fff", &lo, &hi) == 0 && lo == 4096 && hi == 8191, "lo-hi");
	ok(rt_parse_arange("0x1000+4K", &lo, &hi) == 0 && lo == 4096 && hi == 8191, "lo+len");
	ok(rt_parse_range("010-012", &lo, &hi) == 0 && lo == 10 && hi == 12, "a range is decimal");
	ok(rt_parse_range("0x10-0x20", &lo, &hi) < 0, "a range that is not of addresses: no hex");
	ok(rt_parse_range("5", &lo, &hi) == 0 && lo == 5 && hi == 5, "single value");
	ok(rt_parse_range("7-", &lo, &hi) == 0 && lo == 7 && hi == UINT64_MAX, "open range");
	ok(rt_parse_range("9-3", &lo, &hi) < 0, "reversed range refused");
	ok(rt_parse_range("3+0", &lo, &hi) < 0, "empty length refused");
	ok(rt_parse_ops("RW", &m) == 0 && m == 3, "ops RW");
	ok(rt_parse_ops("LSMI", &m) == 0 && m == 15, "lackey letters");
	ok(rt_parse_ops("X", &m) < 0, "bad op refused");
}

static void
rng_tests(void)
{
	struct rt_rng a, b;
	int i, same = 1, hist[10] = { 0 }, okh = 1;
	uint64_t x;

	rt_rng_seed(&a, 42);
	rt_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		if (rt_rng_next(&a) != rt_rng_next(&b))
			same = 0;
	ok(same, "same seed, same stream");
	rt_rng_seed(&b, 43);
	ok(rt_rng_next(&a) != rt_rng_next(&b), "other seed, other stream");
	for (i = 0; i < 100000; i++) {
		x = rt_rng_below(&a, 10);
		if (x >= 10)
			okh = 0;
		else
			hist[x]++;
	}
	for (i = 0; i < 10; i++)	/* 10000 expected, sd 95: 6 sd */
		if (hist[i] < 9430 || hist[i] > 10570)
			okh = 0;
	ok(okh, "rt_rng_below is uniform within 6 sd");
	ok(rt_hash64(1) != rt_hash64(2) && rt_hash64(0) != 0, "hash spreads");
}

static void
str_tests(void)
{
	uint32_t a = rt_str_intern("alpha", 5), b = rt_str_intern("beta", 4);
	uint32_t c = rt_str_intern("alphabet", 5), i, l1, l2;
	char buf[32];
	int good = 1;

	ok(a != 0 && a != b && a == c, "interning: equal strings, equal ids");
	ok(strcmp(rt_str(b), "beta") == 0, "rt_str returns the text");
	ok(rt_str_intern("", 0) == 0, "empty string is id 0");
	for (i = 0; i < 5000; i++) {	/* past several table growths */
		snprintf(buf, sizeof buf, "s%u", i);
		if (strcmp(rt_str(rt_str_intern(buf, strlen(buf))), buf) != 0)
			good = 0;
	}
	ok(good && rt_str_intern("beta", 4) == b, "ids survive growth");
	l1 = rt_loc_intern(a, 12, b);
	l2 = rt_loc_intern(a, 13, b);
	ok(l1 && l1 != l2 && rt_loc_intern(a, 12, b) == l1, "locations intern");
	ok(rt_loc_get(l2)->line == 13 && rt_loc_get(0)->file == 0, "rt_loc_get");
}

/* Random records through a writer and back through a reader. */
static void
roundtrip(int fmt, const char *name)
{
	char path[] = "/tmp/rtunitXXXXXX", err[256], desc[128];
	struct rt_rec *v = calloc(300000, sizeof *v), got;
	struct rt_writer *w;
	struct rt_reader *r;
	struct rt_rng g;
	int fd, i, k, good = 1, z;

	for (z = 0; z < 2; z++) {
		rt_rng_seed(&g, 7);
		fd = mkstemp(path);
		close(fd);
		w = rt_wopen(path, fmt, z);
		for (i = 0; i < 300000; i++) {
			struct rt_rec *x = &v[i];

			memset(x, 0, sizeof *x);
			x->kind = RT_ACCESS;
			if (rt_rng_below(&g, 1000) == 0) {
				x->kind = 1 + rt_rng_below(&g, 3);
				x->name = rt_str_intern("ev ent%", 7);
				x->addr = x->kind != RT_MARK ? rt_rng_next(&g) : 0;
				x->size = x->kind == RT_REGION ? rt_rng_below(&g, 1 << 20) : 0;
				x->elem = x->kind == RT_REGION ? 8 : 0;
				x->tid = RT_NOTID;
				x->seq = i ? v[i - 1].seq + 1 : 0;
			} else {
				x->seq = i ? v[i - 1].seq + 1 + (rt_rng_below(&g, 4) == 0) * rt_rng_below(&g, 100) : 5;
				x->op = rt_rng_below(&g, 4);
				x->addr = rt_rng_below(&g, 2) ? rt_rng_next(&g) : (i ? v[i - 1].addr + 8 : 0);
				x->size = 1 + rt_rng_below(&g, 64);
				x->pc = rt_rng_below(&g, 3) ? 0x400000 + rt_rng_below(&g, 64) : 0;
				x->tid = rt_rng_below(&g, 2) ? (uint32_t)rt_rng_below(&g, 4) : RT_NOTID;
				x->loc = rt_rng_below(&g, 2) ? rt_loc_intern(rt_str_intern("f 1.c", 5),
				    (uint32_t)rt_rng_below(&g, 50), rt_str_intern("fn", 2)) : 0;
				x->var = rt_rng_below(&g, 5) == 0 ? rt_str_intern("x[1]", 4) : 0;
			}
			if (rt_write(w, x))
				good = 0;
		}
		if (rt_wclose(w))
			good = 0;
		r = rt_ropen(path, RT_FMT_AUTO, err, sizeof err);
		if (r == NULL) {
			good = 0;
		} else {
			for (i = 0; (k = rt_read(r, &got)) == 1; i++) {
				if (i >= 300000 || got.kind != v[i].kind || got.seq != v[i].seq ||
				    got.addr != v[i].addr || got.size != v[i].size ||
				    (got.kind == RT_ACCESS && (got.op != v[i].op || got.pc != v[i].pc ||
				    got.tid != v[i].tid || got.loc != v[i].loc || got.var != v[i].var)) ||
				    got.name != v[i].name || got.elem != v[i].elem) {
					if (good)
						printf("# item %d differs\n", i);
					good = 0;
					break;
				}
			}
			if (k != 0 || i != 300000)
				good = 0;
			rt_rclose(r);
		}
		unlink(path);
		snprintf(desc, sizeof desc, "%s%s round trip of 300000 random items", name,
		    z ? " gzip" : "");
		ok(good, desc);
	}
	free(v);
}

/* The engine against a plain array stack, with removals, across table
 * growth, slot compactions and slot-space growth.  hint: 0 none, 1 the
 * place rt_reuse_prefetch2 gave LAG operations before (stale across the
 * accesses, growth and removals between), 2 a random place. */
#define LAG 8
/* rt_reuse_run in runs of every length against an independent model:
 * a Fenwick tree over access times marking each block's last access,
 * the distance the marks after it (Bennett and Kruskal), no slots, no
 * compaction. */
static void
reuse_run_vs_marks(int nblocks, int nops, const char *desc)
{
	struct rt_reuse *r = rt_reuse_new(0);
	uint32_t *fw = calloc((size_t)nops + 1, sizeof *fw);
	int64_t *last = malloc(nblocks * sizeof *last);
	uint64_t b[RT_REUSE_RUN], d[RT_REUSE_RUN], want;
	struct rt_rng g;
	int k = 0, m, i, j, good = 1, t;

	rt_rng_seed(&g, (uint64_t)nblocks + 7);
	for (i = 0; i < nblocks; i++)
		last[i] = -1;
	while (k < nops && good) {
		m = 1 + (int)rt_rng_below(&g, RT_REUSE_RUN);
		m = m > nops - k ? nops - k : m;
		for (i = 0; i < m; i++) {	/* sweeps, a hot set, random blocks */
			uint64_t x = rt_rng_below(&g, 10);

			b[i] = x < 4 ? (uint64_t)(k + i) % nblocks : x < 7 ? rt_rng_below(&g, 16) :
			    rt_rng_below(&g, nblocks);
		}
		if (rt_reuse_run(r, b, (size_t)m, d))
			good = 0;
		for (i = 0; i < m && good; i++, k++) {
			want = RT_COLD;
			if (last[b[i]] >= 0) {	/* marks after last: all less those up to it */
				for (want = 0, t = k; t > 0; t -= t & -t)
					want += fw[t];
				for (t = (int)last[b[i]] + 1; t > 0; t -= t & -t)
					want -= fw[t];
				for (t = (int)last[b[i]] + 1; t <= nops; t += t & -t)
					fw[t]--;
			}
			for (t = k + 1; t <= nops; t += t & -t)
				fw[t]++;
			last[b[i]] = k;
			if (d[i] != want) {
				printf("# op %d block %llu: got %llu, want %llu\n", k,
				    (unsigned long long)b[i], (unsigned long long)d[i],
				    (unsigned long long)want);
				good = 0;
			}
		}
	}
	for (i = j = 0; i < nblocks; i++)
		j += last[i] >= 0;
	ok(good && rt_reuse_blocks(r) == (uint64_t)j, desc);
	rt_reuse_free(r);
	free(fw);
	free(last);
}

static void
reuse_vs_naive(int nblocks, int nops, int remove_every, int hint, const char *desc)
{
	struct rt_reuse *r = rt_reuse_new(1);
	uint64_t *st = malloc(nblocks * sizeof *st), *last = calloc(nblocks, sizeof *last);
	uint64_t *seq = malloc((nops + LAG) * sizeof *seq);
	unsigned char *seen = calloc(nblocks, 1);
	size_t at[LAG];
	struct rt_rng g, gr;
	size_t depth = 0, i, j;
	uint64_t b, d, td, t = 0;
	int k, good = 1;

	rt_rng_seed(&g, (uint64_t)nblocks);
	rt_rng_seed(&gr, (uint64_t)nblocks + 1);
	for (k = 0; k < nops + LAG; k++) {
		/* sweeps, a hot set and random blocks */
		uint64_t x = rt_rng_below(&g, 10);

		b = x < 4 ? (uint64_t)k % nblocks : x < 7 ? rt_rng_below(&g, 16) :
		    rt_rng_below(&g, nblocks);
		seq[k] = b * 7919 + 3;	/* not consecutive numbers */
	}
	for (k = 0; k < LAG; k++)
		at[k] = rt_reuse_prefetch2(r, seq[k]);
	for (k = 0; k < nops && good; k++) {
		size_t h = hint == 1 ? at[k % LAG] : hint == 2 ?
		    (size_t)rt_rng_below(&gr, 4 * (uint64_t)nblocks) : SIZE_MAX;

		at[k % LAG] = rt_reuse_prefetch2(r, seq[k + LAG]);
		b = seq[k];
		if (remove_every && k % remove_every == 0 && depth > 0) {
			uint64_t v = st[rt_rng_below(&gr, depth)];

			for (i = 0; st[i] != v; i++)
				;
			memmove(st + i, st + i + 1, (depth - i - 1) * sizeof *st);
			depth--;
			seen[(v - 3) / 7919] = 0;
			if (rt_reuse_remove(r, v) != 1)
				good = 0;
			continue;
		}
		for (i = 0; i < depth && st[i] != b; i++)
			;
		if ((hint ? rt_reuse_access_at(r, b, h, &d, &td) : rt_reuse_access(r, b, &d, &td)))
			good = 0;
		if (i == depth) {
			if (d != RT_COLD)
				good = 0;
			depth++;
		} else if (d != i || td != t - last[(b - 3) / 7919] - 1)
			good = 0;
		if (!good)
			printf("# op %d block %llu: got %llu, want %zu\n", k,
			    (unsigned long long)b, (unsigned long long)d, i);
		for (j = i; j > 0; j--)
			st[j] = st[j - 1];
		st[0] = b;
		last[(b - 3) / 7919] = t++;
	}
	ok(good && rt_reuse_blocks(r) == depth, desc);
	rt_reuse_free(r);
	free(seq);
	free(st);
	free(last);
	free(seen);
}

/* A writer writes what it is given; the readers refuse an access over
 * RT_MAXSIZE or one that wraps past 2^64: the binary reader as a corrupt
 * block (it cannot resynchronise), the text reader as a bad line that the
 * caller may skip. */
static void
limits(int fmt, const char *name)
{
	static const struct {
		uint64_t addr, size;
		const char *why;
	} bad[] = {
		{ 0x1000, (uint64_t)1 << 40, "a size of 2^40" },
		{ 0x1000, RT_MAXSIZE + 1, "a size of RT_MAXSIZE + 1" },
		{ 0xfffffffffffffff8ull, 16, "an access past 2^64" },
	};
	char path[] = "/tmp/rtunitXXXXXX", err[256], desc[160];
	struct rt_rec x, got;
	struct rt_writer *w;
	struct rt_reader *r;
	int fd, k, e, ngood;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fd = mkstemp(path);
		close(fd);
		w = rt_wopen(path, fmt, 0);
		memset(&x, 0, sizeof x);
		x.tid = RT_NOTID;
		x.addr = 0x40, x.size = RT_MAXSIZE;	/* the largest allowed */
		rt_write(w, &x);
		x.seq = 1, x.addr = bad[i].addr, x.size = bad[i].size;
		rt_write(w, &x);
		x.seq = 2, x.addr = 0xfffffffffffffff8ull, x.size = 8;	/* ends at the top */
		rt_write(w, &x);
		rt_wclose(w);
		r = rt_ropen(path, RT_FMT_AUTO, err, sizeof err);
		ngood = 0, e = 0;
		while (r != NULL && (k = rt_read(r, &got)) != 0) {
			if (k == 1)
				ngood++;
			else if (e++ || k == RT_EIO)
				break;
		}
		if (fmt != RT_FMT_TEXT)	/* the good one, the block's error, the end */
			ok(r && ngood == 1 && e == 1 && k == 0 && strstr(rt_rerror(r),
			    ": corrupt binary trace: block 1 at byte 16: bad record"),
			    (snprintf(desc, sizeof desc, "%s: %s is a corrupt block, "
			    "the rest of it skipped", name, bad[i].why), desc));
		else
			ok(r && ngood == 2 && e == 1 && strstr(rt_rerror(r), ":3: "),
			    (snprintf(desc, sizeof desc, "%s: %s is a bad line 3, the others read",
			    name, bad[i].why), desc));
		if (r)
			rt_rclose(r);
		unlink(path);
	}
}

/* rt_crc32 (by carry-less multiplication where it can) against zlib's
 * crc32: every length to 1100 at offsets 0 to 15, from random CRCs. */
uint32_t rt_crc32(uint32_t crc, const unsigned char *p, size_t n);
static void
crc_tests(void)
{
	static unsigned char b[1200];
	struct rt_rng g;
	uint32_t c;
	size_t len, o, bad = 0;

	rt_rng_seed(&g, 3);
	for (o = 0; o < sizeof b; o++)
		b[o] = (unsigned char)rt_rng_below(&g, 256);
	for (len = 0; len <= 1100; len++)
		for (o = 0; o < 16; o++) {
			c = (uint32_t)rt_rng_below(&g, 1ull << 32);
			bad += rt_crc32(c, b + o, len) != (uint32_t)crc32(c, b + o, (uInt)len);
		}
	ok(bad == 0, "rt_crc32 is zlib's crc32 at every length to 1100, every offset to 15");
}

/* rt_fmt_g6 against printf's %.6g: fractions of counts (what tables
 * write), values near rounding ties and powers of ten, log-uniform values
 * across and beyond its fast range, and the special ones. */
static int
g6same(double x, char *why, size_t len)
{
	char a[RT_G6LEN], b[64];
	int k = rt_fmt_g6(a, x);

	snprintf(b, sizeof b, "%.6g", x);
	if (strcmp(a, b) == 0 && k == (int)strlen(b))
		return 1;
	snprintf(why, len, "%.17g: %s, printf %s", x, a, b);
	return 0;
}

static void
g6ok(int bad, const char *why, const char *desc)
{
	ok(!bad, desc);
	if (bad)
		printf("# %s\n", why);
}

static void
g6_tests(void)
{
	static const double special[] = { 0, -0.0, 1, 1e6, 999999.5, 999999.4999, 9.999995,
	    0.000099999951, 0.0001, 0.00001, 1e-5 * 1.0000005, 123456.5, 0.5, 1e-22, 1e-23,
	    -0.25, 1.0 / 3, 2.0 / 3, 1e300, 5e-324 };
	struct rt_rng g;
	char why[128] = "";
	int i, bad = 0, j;
	double x;

	for (i = 0; i < (int)(sizeof special / sizeof special[0]) && !bad; i++)
		bad = !g6same(special[i], why, sizeof why);
	bad = bad || !g6same(INFINITY, why, sizeof why) || !g6same(NAN, why, sizeof why);
	g6ok(bad, why, "rt_fmt_g6 = printf's %.6g: 0, -0, powers of ten, ties, inf, nan");
	rt_rng_seed(&g, 5);
	for (i = 0, bad = 0; i < 2000000 && !bad; i++) {
		uint64_t den = 1 + rt_rng_below(&g, (uint64_t)1 << (1 + i % 40));

		bad = !g6same((double)rt_rng_below(&g, den + 1) / (double)den, why, sizeof why);
	}
	g6ok(bad, why, "rt_fmt_g6 = printf's %.6g: 2*10^6 fractions c/n");
	for (i = 0, bad = 0; i < 1000000 && !bad; i++) {
		x = pow(10, -26 + 34 * rt_rng_unit(&g));
		bad = !g6same(x, why, sizeof why) || !g6same(nextafter(x, 0), why, sizeof why);
	}
	g6ok(bad, why, "rt_fmt_g6 = printf's %.6g: 10^6 values from 10^-26 to 10^8");
	for (i = 0, bad = 0; i < 200000 && !bad; i++) {	/* d.ddddd5 x 10^j and next to it */
		j = (int)rt_rng_below(&g, 30) - 24;
		x = ((double)(100000 + rt_rng_below(&g, 900000)) + 0.5) * pow(10, j - 5);
		bad = !g6same(x, why, sizeof why) || !g6same(nextafter(x, 0), why, sizeof why) ||
		    !g6same(nextafter(x, 1), why, sizeof why);
	}
	g6ok(bad, why, "rt_fmt_g6 = printf's %.6g: 2*10^5 ties and their neighbours");
	for (i = 0, bad = 0; i < 1000000 && !bad; i++) {	/* every length, 0 and 2^64 - 1 */
		uint64_t v = i < 2 ? (uint64_t)0 - (uint64_t)i : rt_rng_next(&g) >> rt_rng_below(&g, 64);
		char a[24], b[24];

		snprintf(b, sizeof b, i % 2 ? "%" PRIu64 : "%" PRIx64, v);
		bad = (i % 2 ? rt_fmt_u64(a, v) : rt_fmt_x64(a, v)) != (int)strlen(b) || strcmp(a, b);
		snprintf(why, sizeof why, "%s, printf %s", a, b);
	}
	g6ok(bad, why, "rt_fmt_u64 and rt_fmt_x64 = printf's %llu and %llx: 10^6 values");
}

/* rt_zout: what is given in pieces of any size comes back whole from
 * zlib's inflate, whether the stream is gzip or zlib; counting alone
 * counts what a sink is given; a sink's error sticks. */
struct zbuf {
	unsigned char *p;
	size_t n, cap;
	int calls, failat;
};

static int
zsink(void *arg, const void *p, size_t k)
{
	struct zbuf *b = arg;

	if (++b->calls == b->failat)
		return ENOSPC;
	if (b->n + k > b->cap && (b->p = realloc(b->p, b->cap = 2 * (b->n + k))) == NULL)
		abort();
	memcpy(b->p + b->n, p, k);
	b->n += k;
	return 0;
}

static void
zout_tests(void)
{
	size_t len = 3000000, i, k, got;
	unsigned char *in = malloc(len), *back = malloc(len + 1);
	struct rt_zout z, c;
	struct zbuf b = { 0 };
	z_stream inf;
	uint64_t x = 88172645463325252ULL;
	int kind, e;

	for (i = 0; i < len; i++) {	/* runs of text, then noise */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		in[i] = i < len / 2 ? "loop 0x4005d0 3 1\n"[i % 18] : (unsigned char)x;
	}
	for (kind = 0; kind < 2; kind++) {
		b.n = 0;
		b.calls = 0;
		b.failat = 0;
		rt_zout_init(&z, 6 | (kind ? RT_ZGZIP : 0), 4096, zsink, &b);
		rt_zout_init(&c, 6 | (kind ? RT_ZGZIP : 0), 0, NULL, NULL);
		for (i = 0, k = 1; i < len; i += k, k = k * 7 % 100003 + 1) {
			if (k > len - i)
				k = len - i;
			rt_zout_write(&z, in + i, k);
			rt_zout_write(&c, in + i, k);
		}
		rt_zout_end(&c);
		e = rt_zout_end(&z);
		memset(&inf, 0, sizeof inf);
		inflateInit2(&inf, kind ? 15 + 16 : 15);
		inf.next_in = b.p;
		inf.avail_in = (uInt)b.n;
		inf.next_out = back;
		inf.avail_out = (uInt)len + 1;
		got = inflate(&inf, Z_FINISH) == Z_STREAM_END && inf.avail_in == 0 ?
		    len + 1 - inf.avail_out : 0;
		inflateEnd(&inf);
		ok(e == 0 && got == len && memcmp(in, back, len) == 0 && b.n < len / 2 + len / 10,
		    kind ? "rt_zout: a gzip member given in pieces inflates to them" :
		    "rt_zout: a zlib stream given in pieces inflates to them");
		ok(z.bytes == b.n && c.bytes == b.n, "rt_zout: counting alone counts what a sink gets");
	}
	b.n = b.calls = 0;
	b.failat = 3;
	rt_zout_init(&z, 1, 1024, zsink, &b);
	for (i = 0; i < len; i += 65536)
		e = rt_zout_write(&z, in + len / 2 + i % (len / 2), 65536);
	ok(e < 0 && errno == ENOSPC && b.calls == 3 && rt_zout_end(&z) < 0 && errno == ENOSPC,
	    "rt_zout: a sink's error stops the stream and sticks");
	free(b.p);
	free(in);
	free(back);
}

int
main(void)
{
	parse_tests();
	scan_tests();
	rng_tests();
	str_tests();
	g6_tests();
	roundtrip(RT_FMT_BINARY, "binary");
	roundtrip(RT_FMT_BINARY2, "binary version 2 not deflated");
	roundtrip(RT_FMT_BINFLAT, "binary version 4, flat blocks");
	crc_tests();
	zout_tests();
	roundtrip(RT_FMT_TEXT, "text");
	limits(RT_FMT_BINARY, "binary");
	limits(RT_FMT_BINFLAT, "binary-flat");
	limits(RT_FMT_TEXT, "text");
	reuse_vs_naive(1000, 300000, 0, 0, "reuse engine = naive stack: 300000 accesses, compactions");
	reuse_vs_naive(1000, 300000, 7, 0, "reuse engine = naive stack with removals");
	reuse_vs_naive(40000, 120000, 0, 0, "reuse engine = naive stack: 40000 blocks, slot space grows");
	reuse_vs_naive(40000, 120000, 0, 1,
	    "reuse engine = naive stack, places found 8 accesses ahead, across growth");
	reuse_vs_naive(1000, 300000, 7, 1, "reuse engine = naive stack, places found ahead, removals");
	reuse_vs_naive(1000, 100000, 5, 2, "reuse engine = naive stack, random places given");
	reuse_run_vs_marks(1000, 300000, "rt_reuse_run = marks by time: 1000 blocks, compactions");
	reuse_run_vs_marks(300000, 3000000,
	    "rt_reuse_run = marks by time: 300000 blocks, slots past 1024 chunks");
	printf("1..%d\n", n);
	return failed != 0;
}
