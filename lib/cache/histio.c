/* histio.c: the reuse-distance histogram and the miss-ratio curve as
 * streams (one writer and one reader each), and reusedist's summary for
 * people. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

static const char histcols[] = "lo hi count fraction cumulative";
static const char mrccols[] = "blocks bytes misses ratio";

/* The header line, then what a reader needs to weigh the rows. */
static void
header(FILE *f, int kind, const char *cols, const struct rt_histinfo *in)
{
	char magic[64];

	fprintf(f, "%s %s\n", rt_stream_magic(kind, magic, sizeof magic), cols);
	fprintf(f, "#block %llu\n#accesses %.0f\n#rate %.17g\n",
	    (unsigned long long)in->block, in->accesses, in->rate);
	if (in->memory)
		fprintf(f, "#memory %llu\n", (unsigned long long)in->memory);
	char ps[96];

	if (in->part.n)
		fprintf(f, "#partition %s\n", rt_part_str(ps, sizeof ps, &in->part));
	if (*in->config)
		fprintf(f, "#config %s\n", in->config);
}

/* A count as written: an estimate (a count over a rate) to three
 * decimals, without the noise of its last bits (3706673.0000000005);
 * below half a thousandth, not 0 but six digits (a bin written 0 was
 * lost when read back: fuzz/hist); from 10^12 on, every digit, so that
 * counts read back the same. */
static const char *
shown(double c, char *buf, size_t len)
{
	double r = round(c * 1000) / 1000;

	if (fabs(c) >= 1e12)
		snprintf(buf, len, "%.17g", c);
	else if (r == 0 && c != 0)
		snprintf(buf, len, "%.6g", c);
	else if (r >= 0 && !signbit(r) && r == (double)(uint64_t)r)	/* %.15g's digits */
		rt_fmt_u64(buf, (uint64_t)r);
	else
		snprintf(buf, len, "%.15g", r);
	return buf;
}

/* A row of a histogram or a curve, "a b count x [y]" (y if two), x and
 * y as %.6g, without printf: an exact histogram has a row for every
 * distance. */
static void
row(FILE *f, uint64_t a, uint64_t b, const char *count, double x, double y, int two)
{
	char buf[2 * 21 + 40 + 2 * RT_G6LEN + 8], *p = buf;

	p += rt_fmt_u64(p, a);
	*p++ = ' ';
	p += rt_fmt_u64(p, b);
	*p++ = ' ';
	p = stpcpy(p, count);
	*p++ = ' ';
	p += rt_fmt_g6(p, x);
	if (two) {
		*p++ = ' ';
		p += rt_fmt_g6(p, y);
	}
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), f);
}

int
rt_hist_write(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in,
    int exact)
{
	double cum = 0, c, total = in->accesses;
	char buf[40];
	size_t i = 0;
	uint64_t lo, hi;

	header(f, RT_STREAM_HIST, histcols, in);
	while (i < n && v[i].key != RT_COLD) {
		lo = v[i].key;
		hi = lo;
		if (!exact && lo > 0) {	/* log2 bins: [2^(k-1), 2^k - 1] */
			int k = 64 - __builtin_clzll(lo);

			lo = 1ULL << (k - 1);
			hi = k == 64 ? UINT64_MAX : (1ULL << k) - 1;
		}
		for (c = 0; i < n && v[i].key != RT_COLD && v[i].key <= hi; i++)
			c += v[i].w;
		cum += c;
		row(f, lo, hi, shown(c, buf, sizeof buf), total ? c / total : 0,
		    total ? cum / total : 0, 1);
	}
	if (i < n)
		fprintf(f, "cold cold %s %.6g 1\n", shown(v[i].w, buf, sizeof buf),
		    total ? v[i].w / total : 0);
	return ferror(f) ? RT_EIO : 0;
}

/* A fully associative LRU cache of C blocks misses on the cold accesses
 * and on every distance >= C (Mattson et al., 1970). */
static void
mrcrow(FILE *f, uint64_t blocks, double miss, const struct rt_histinfo *in)
{
	char buf[40];
	double m = miss < 1e-9 ? 0 : miss;	/* not below 0 by rounding */

	row(f, blocks, blocks * in->block, shown(m, buf, sizeof buf),
	    in->accesses ? m / in->accesses : 0, 0, 0);
}

int
rt_mrc_write(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in)
{
	double miss = 0, total = in->accesses;
	double inv = 1 / in->rate;	/* a read histogram's rate may be tiny */
	uint64_t res = in->rate >= 1 ? 1 : inv < 0x1p62 ? (uint64_t)ceil(inv - 1e-9) : 1ULL << 62;
	char buf[40];
	size_t i;
	int below = 0;

	header(f, RT_STREAM_MRC, mrccols, in);
	/* a sample's distances are multiples of about 1/rate blocks: it
	 * cannot tell a smaller cache from none, so the steps below come
	 * as one, at the resolution */
	if (res > 1)
		fprintf(f, "#resolution %llu\n", (unsigned long long)res);
	for (i = 0; i < n; i++)
		miss += v[i].w;
	fprintf(f, "0 0 %s %.6g\n", shown(miss, buf, sizeof buf), total ? miss / total : 0);
	for (i = 0; i < n && v[i].key != RT_COLD; i++) {
		if (v[i].key + 1 > res && below) {
			mrcrow(f, res, miss, in);
			below = 0;
		}
		miss -= v[i].w;
		if (i + 1 < n && v[i + 1].key == v[i].key)
			continue;
		if (v[i].key + 1 < res)
			below = 1;
		else
			mrcrow(f, v[i].key + 1, miss, in);
	}
	if (below)
		mrcrow(f, res, miss, in);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_hist_summary(FILE *f, const struct rt_bin *v, size_t n, const struct rt_histinfo *in,
    int timed)
{
	static const uint64_t sizes[] = { 32 << 10, 256 << 10, 8 << 20 };
	double cold = 0, sum = 0, fin = 0, miss, med = -1, run = 0, total = in->accesses;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (v[i].key == RT_COLD)
			cold = v[i].w;
		else {
			sum += v[i].w * (double)v[i].key;
			fin += v[i].w;
		}
	}
	for (i = 0; i < n && v[i].key != RT_COLD && med < 0; i++)
		if ((run += v[i].w) >= fin / 2)
			med = (double)v[i].key;
	fprintf(f, "accesses            %.0f (%llu-byte blocks)%s\n", total,
	    (unsigned long long)in->block, in->rate < 1 ? ", estimated from a sample" : "");
	fprintf(f, "distinct blocks     %.0f (cold accesses)\n", cold);
	if (in->memory)
		fprintf(f, "memory              %llu bytes of tables at most\n",
		    (unsigned long long)in->memory);
	if (fin > 0)
		fprintf(f, "%s distance   mean %.1f, median %.0f\n",
		    timed ? "time " : "reuse", sum / fin, med);
	if (timed)
		return ferror(f) ? RT_EIO : 0;
	for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
		uint64_t c = sizes[j] / in->block;

		for (miss = cold, i = 0; i < n; i++)
			if (v[i].key != RT_COLD && v[i].key >= c)
				miss += v[i].w;
		fprintf(f, "LRU %5lluK fully associative: miss ratio %.4f\n",
		    (unsigned long long)(sizes[j] >> 10), total ? miss / total : 0);
	}
	return ferror(f) ? RT_EIO : 0;
}

/* The header and the comment lines of either stream; the first row, or
 * NULL at the end or on an error. */
static char *
readhead(struct rt_reader *r, int kind, const char *cols, struct rt_histinfo *in, char *err,
    size_t errlen)
{
	char magic[64], *s, *e;
	size_t n, m;

	in->block = 0;
	in->accesses = -1;	/* none said */
	in->rate = 1;
	in->memory = 0;
	memset(&in->part, 0, sizeof in->part);
	*in->config = '\0';
	if (rt_rexpect(r, kind)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return NULL;
	}
	m = strlen(rt_stream_magic(kind, magic, sizeof magic));
	if ((s = rt_rgetline(r, &n)) == NULL || n <= m || strncmp(s, magic, m) != 0 ||
	    s[m] != ' ' || strcmp(s + m + 1, cols) != 0) {
		snprintf(err, errlen, "%s", rt_rbad(r, "want the columns %s", cols));
		return NULL;
	}
	while ((s = rt_rgetline(r, &n)) != NULL) {
		if (*s != '#')
			return s;
		if (strncmp(s, "#block ", 7) == 0 && rt_parse_u64(s + 7, &in->block))
			e = "bad #block";
		else if (strncmp(s, "#accesses ", 10) == 0 &&
		    (rt_parse_double(s + 10, &in->accesses) || in->accesses < 0))
			e = "bad #accesses";
		else if (strncmp(s, "#rate ", 6) == 0 &&
		    (rt_parse_double(s + 6, &in->rate) || !(in->rate > 0 && in->rate <= 1)))
			e = "bad #rate (want a rate in (0, 1])";
		else if (strncmp(s, "#partition ", 11) == 0 && (rt_part_read(s + 11, &in->part) ||
		    strchr(s, ':') == NULL))
			e = "bad #partition (want k/n:bytes [fp=HEX])";
		else if (strncmp(s, "#config ", 8) == 0 && n - 8 >= sizeof in->config)
			e = "#config too long";
		else {
			if (strncmp(s, "#config ", 8) == 0)
				memcpy(in->config, s + 8, n - 8 + 1);
			continue;
		}
		snprintf(err, errlen, "%s", rt_rbad(r, "%s", e));
		return NULL;
	}
	snprintf(err, errlen, "%s", rt_rerror(r));
	return NULL;
}

/* Up to max blank-separated fields of s, in place. */
static int
fields(char *s, char **f, int max)
{
	char *save = NULL;
	int n = 0;

	for (s = strtok_r(s, " \t", &save); s && n < max; s = strtok_r(NULL, " \t", &save))
		f[n++] = s;
	return s ? max + 1 : n;
}

int
rt_hist_read(struct rt_reader *r, struct rt_hist *h, int flags, struct rt_histinfo *in,
    char *err, size_t errlen)
{
	char *s, *f[6];
	uint64_t lo, hi;
	double c, w, sum = 0;
	size_t rows = 0;
	int cold = 0;

	*err = '\0';
	for (s = readhead(r, RT_STREAM_HIST, histcols, in, err, errlen); s != NULL;
	    s = rt_rgetline(r, NULL)) {
		if (*s == '#' || *s == '\0') {
			continue;
		}
		if (fields(s, f, 5) != 5 || rt_parse_double(f[2], &c) || c < 0) {
			snprintf(err, errlen, "%s", rt_rbad(r, "bad histogram line"));
			return RT_EBAD;
		}
		w = flags & RT_HIST_RATE ? c * in->rate : c;
		sum += c;
		rows++;
		if (strcmp(f[0], "cold") == 0 && strcmp(f[1], "cold") == 0 && (cold = 1))
			lo = RT_COLD;
		else if (rt_parse_u64(f[0], &lo) || rt_parse_u64(f[1], &hi) || hi < lo) {
			snprintf(err, errlen, "%s", rt_rbad(r, "bad histogram line"));
			return RT_EBAD;
		} else if (lo != hi && (flags & RT_HIST_EXACT)) {
			snprintf(err, errlen, "%s", rt_rbad(r, "log2 bins do not merge: write "
			    "histograms with --exact"));
			return RT_EUSAGE;
		}
		if (rt_hist_add(h, lo, w)) {
			snprintf(err, errlen, "%s", rt_rbad(r, "out of memory"));
			return RT_ENOMEM;
		}
	}
	if (*err == '\0' && *rt_rerror(r))
		snprintf(err, errlen, "%s", rt_rerror(r));
	if (*err)
		return RT_EBAD;
	/* a stream cut at a line boundary: its header knew; counts are
	 * written to a thousandth, the accesses to a unit */
	if (in->accesses >= 0 && fabs(sum - in->accesses) > 0.5 + 0.0005 * (double)rows +
	    1e-12 * in->accesses) {
		snprintf(err, errlen, "%s: %s: header says %.0f accesses, rows sum to %.0f%s",
		    rt_rpath(r), sum < in->accesses ? "truncated" : "more accesses in the rows "
		    "than in the header", in->accesses, sum, cold ? "" : " (no cold row)");
		return RT_EBAD;
	}
	if (in->accesses < 0)	/* none said: the rows' */
		in->accesses = sum;
	return 0;
}

int
rt_mrc_read(struct rt_reader *r, struct rt_mrc_point **v, size_t *n, struct rt_histinfo *in,
    char *err, size_t errlen)
{
	struct rt_mrc_point *p, *nv;
	size_t cap = 0;
	char *s, *f[5];

	*v = NULL;
	*n = 0;
	*err = '\0';
	for (s = readhead(r, RT_STREAM_MRC, mrccols, in, err, errlen); s != NULL;
	    s = rt_rgetline(r, NULL)) {
		if (*s == '#' || *s == '\0')
			continue;
		if (*n == cap) {
			if ((nv = realloc(*v, (cap ? cap * 2 : 64) * sizeof *nv)) == NULL) {
				snprintf(err, errlen, "%s", rt_rbad(r, "out of memory"));
				return RT_ENOMEM;
			}
			*v = nv;
			cap = cap ? cap * 2 : 64;
		}
		p = &(*v)[*n];
		if (fields(s, f, 4) != 4 || rt_parse_u64(f[0], &p->blocks) ||
		    rt_parse_u64(f[1], &p->bytes) || rt_parse_double(f[2], &p->misses) ||
		    rt_parse_double(f[3], &p->ratio) || p->misses < 0 || p->ratio < 0) {
			snprintf(err, errlen, "%s", rt_rbad(r, "bad miss-ratio curve line"));
			return RT_EBAD;
		}
		(*n)++;
	}
	if (*err == '\0' && *rt_rerror(r))
		snprintf(err, errlen, "%s", rt_rerror(r));
	if (in->accesses < 0)
		in->accesses = 0;
	return *err ? RT_EBAD : 0;
}

struct rt_bin *
rt_hist_merge(char *const *paths, int n, uint64_t block, size_t *nb, struct rt_histinfo *in,
    char *why, size_t whylen)
{
	struct rt_partset *ps = rt_partset_new();
	struct rt_hist *h = rt_hist_new();
	struct rt_bin *v = NULL;
	struct rt_reader *r;
	double sumr = 0;
	size_t k;
	int i, e = 0;

	*in = (struct rt_histinfo){ .block = block, .rate = 1 };
	if (h == NULL || ps == NULL) {
		snprintf(why, whylen, "out of memory");
		e = RT_ENOMEM;
	}
	for (i = 0; i < n && e == 0; i++) {
		if ((r = rt_lopen(paths[i], why, whylen)) == NULL)
			break;
		if ((e = rt_hist_read(r, h, RT_HIST_RATE | RT_HIST_EXACT, in, why, whylen)) == 0 &&
		    in->block != block) {
			snprintf(why, whylen, "%s: %llu-byte blocks, not %llu", paths[i],
			    (unsigned long long)in->block, (unsigned long long)block);
			e = RT_EUSAGE;
		}
		rt_rclose(r);
		if (e == 0)
			e = rt_partset_add(ps, paths[i], &in->part, in->config, why, whylen);
		sumr += in->rate;
	}
	if (i == n && e == 0 && rt_partset_end(ps, why, whylen) == 0) {
		if (sumr > 0)
			rt_hist_scale(h, 1 / sumr);
		if ((v = rt_hist_sorted(h, nb)) == NULL)
			snprintf(why, whylen, "out of memory");
		memset(&in->part, 0, sizeof in->part);	/* the whole, of the inputs' configuration */
		in->memory = 0, in->block = block, in->rate = 1;
		for (in->accesses = 0, k = 0; v != NULL && k < *nb; k++)
			in->accesses += v[k].w;
	}
	rt_hist_free(h);
	rt_partset_free(ps);
	return v;
}
