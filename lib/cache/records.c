/* records.c: cachesim's per-access streams: the level that served each
 * access (-d), where two configurations differ (--diff), and the cache
 * temperature over a running window (--temperature). */
#include <stdio.h>
#include <stdlib.h>

#include "cache.h"

struct rt_temp {
	signed char *ring;	/* scores, window x levels */
	long *sum;
	uint64_t w, n;
	int nlevels;
};

static void
served(FILE *f, int k, int n)
{
	if (k == n)
		fputs("mem", f);
	else
		fprintf(f, "L%d", k + 1);
}

static void
magic(FILE *f, int kind)
{
	char buf[64];

	fputs(rt_stream_magic(kind, buf, sizeof buf), f);
}

/* A header whose last columns are one per level: " evicted_L1", " L1". */
static int
header(FILE *f, int kind, const char *cols, const char *prefix, int nlevels)
{
	int k;

	magic(f, kind);
	fputs(cols, f);
	for (k = 1; k <= nlevels; k++)
		fprintf(f, " %sL%d", prefix, k);
	fputc('\n', f);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cacherec_header(FILE *f, int nlevels)
{
	return header(f, RT_STREAM_CACHE_RECORDS, " seq served", "evicted_", nlevels);
}

int
rt_cacherec_write(FILE *f, uint64_t seq, int k, int n, const uint64_t *evicted)
{
	int i;

	fprintf(f, "%llu ", (unsigned long long)seq);
	served(f, k, n);
	for (i = 0; i < n; i++)
		if (evicted[i] == UINT64_MAX)
			fputs(" -", f);
		else
			fprintf(f, " 0x%llx", (unsigned long long)evicted[i]);
	fputc('\n', f);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cachediff_header(FILE *f)
{
	magic(f, RT_STREAM_CACHE_DIFF);
	fputs(" seq served_a served_b\n", f);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cachediff_write(FILE *f, uint64_t seq, int a, int na, int b, int nb)
{
	fprintf(f, "%llu ", (unsigned long long)seq);
	served(f, a, na);
	fputc(' ', f);
	served(f, b, nb);
	fputc('\n', f);
	return ferror(f) ? RT_EIO : 0;
}

struct rt_temp *
rt_temp_new(uint64_t window, int nlevels)
{
	struct rt_temp *t = calloc(1, sizeof *t);

	if (t == NULL || (t->ring = calloc(window, (size_t)nlevels)) == NULL ||
	    (t->sum = calloc((size_t)nlevels, sizeof *t->sum)) == NULL) {
		rt_temp_free(t);
		return NULL;
	}
	t->w = window;
	t->nlevels = nlevels;
	return t;
}

void
rt_temp_free(struct rt_temp *t)
{
	if (t == NULL)
		return;
	free(t->ring);
	free(t->sum);
	free(t);
}

int
rt_temp_header(FILE *f, int nlevels)
{
	return header(f, RT_STREAM_CACHE_TEMPERATURE, " seq", "", nlevels);
}

int
rt_temp_write(struct rt_temp *t, FILE *f, uint64_t seq, int k)
{
	size_t slot = (size_t)(t->n % t->w) * (size_t)t->nlevels;
	signed char v;
	int j;

	fprintf(f, "%llu", (unsigned long long)seq);
	for (j = 0; j < t->nlevels; j++) {
		v = (signed char)(k == j ? 1 : k > j ? -1 : 0);
		t->sum[j] += v - (t->n >= t->w ? t->ring[slot + j] : 0);
		t->ring[slot + j] = v;
		fprintf(f, " %.4f", (double)t->sum[j] / (double)(t->n + 1 < t->w ? t->n + 1 : t->w));
	}
	fputc('\n', f);
	t->n++;
	return ferror(f) ? RT_EIO : 0;
}
