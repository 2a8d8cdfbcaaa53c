/* reusestat.c: reuse-distance statistics (Welford's running mean and
 * variance) and the streams reusedist writes per access, by key and per
 * running window. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cache.h"

void
rt_welford_add(struct rt_welford *a, uint64_t d)
{
	double delta;

	a->n++;
	if (d == RT_COLD) {
		a->cold++;
		return;
	}
	delta = (double)d - a->mean;
	a->mean += delta / (double)(a->n - a->cold);
	a->m2 += delta * ((double)d - a->mean);
}

static double
rt_welford_sd(const struct rt_welford *a)
{
	return a->n - a->cold > 1 ? sqrt(a->m2 / (double)(a->n - a->cold - 1)) : 0;
}

int
rt_reuserec_header(FILE *f, int timed)
{
	char magic[64];

	fprintf(f, "%s seq block %s\n", rt_stream_magic(RT_STREAM_REUSE, magic, sizeof magic),
	    timed ? "time" : "distance");
	return ferror(f) ? RT_EIO : 0;
}

int
rt_reuserec_write(FILE *f, uint64_t seq, uint64_t block, uint64_t dist)
{
	if (dist == RT_COLD)
		fprintf(f, "%llu %llu -\n", (unsigned long long)seq, (unsigned long long)block);
	else
		fprintf(f, "%llu %llu %llu\n", (unsigned long long)seq,
		    (unsigned long long)block, (unsigned long long)dist);
	return 0;
}

struct byrow { uint64_t key; const struct rt_welford *a; };

static int
bycount(const void *x, const void *y)
{
	const struct byrow *p = x, *q = y;

	if (p->a->n != q->a->n)
		return p->a->n < q->a->n ? 1 : -1;
	if (p->a->cold != q->a->cold)
		return p->a->cold < q->a->cold ? 1 : -1;
	return (p->key > q->key) - (p->key < q->key);
}

/* Rows by accesses, most first; paths relative to the directory they
 * share, named in a #root line. */
int
rt_reuseby_write(FILE *f, int key, const struct rt_tally *t)
{
	const struct rt_welford *a;
	char buf[4096], root[4096];
	struct byrow *v;
	size_t n = 0, i, rl;
	uint64_t g;
	const char *lab;

	if ((v = calloc(rt_tally_keys(t) + 1, sizeof *v)) == NULL)
		return RT_ENOMEM;
	for (g = 0; g < rt_tally_keys(t); g++)
		if ((v[n].a = rt_tally_get(t, g))->n != 0)
			v[n++].key = g;
	qsort(v, n, sizeof *v, bycount);
	rl = rt_tally_root(key, t, sizeof(uint64_t), root, sizeof root);
	fprintf(f, "#reftrace %s%s 1 %s count cold mean sd\n", rt_stream_name(RT_STREAM_REUSE_BY),
	    rt_key_name(key), rt_key_name(key));
	if (rl)
		fprintf(f, "#root %s\n", root);
	for (i = 0; i < n; i++) {
		a = v[i].a;
		lab = rt_key_label(key, v[i].key, buf, sizeof buf);
		fprintf(f, "%s %llu %llu", rl && strncmp(lab, root, rl) == 0 ? lab + rl : lab,
		    (unsigned long long)a->n, (unsigned long long)a->cold);
		if (a->n == a->cold)
			fprintf(f, " - -\n");
		else
			fprintf(f, " %.3f %.3f\n", a->mean, rt_welford_sd(a));
	}
	free(v);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_reusewin_header(FILE *f)
{
	char magic[64];

	fprintf(f, "%s seq accesses cold mean\n", rt_stream_magic(RT_STREAM_REUSE_WINDOW, magic,
	    sizeof magic));
	return ferror(f) ? RT_EIO : 0;
}

int
rt_reusewin_write(FILE *f, uint64_t seq, const struct rt_welford *w)
{
	if (w->n == w->cold)
		fprintf(f, "%llu %llu %llu -\n", (unsigned long long)seq,
		    (unsigned long long)w->n, (unsigned long long)w->cold);
	else
		fprintf(f, "%llu %llu %llu %.3f\n", (unsigned long long)seq,
		    (unsigned long long)w->n, (unsigned long long)w->cold, w->mean);
	return 0;
}
