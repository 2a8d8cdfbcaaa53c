/* rdstate.c: a reuse-distance time slice (rt_rdist_take's) as a stream,
 * so that slices measured by other processes, or on other machines, are
 * merged as the threads' are (reusedist --slice, reusedist -M). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* The header, then a line a histogram key (key, weight), a line a first
 * access (the block in hex), a line a block of the end stack (hex), in
 * that order and as many as the header says. */
#define HEAD " block %llu bytes %llu accesses %llu sampled %llu " \
	"zeros %llu lastseq %llu hist %llu first %llu stack %llu"

/* The last slice of h's run. */
static uint64_t
last(const struct rt_rdslicehead *h)
{
	return h->span > 1 ? h->k + h->span - 1 : h->k;
}

static int
blocks(FILE *f, const uint64_t *v, size_t n)
{
	char buf[18];
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		k = rt_fmt_x64(buf, v[i]);
		buf[k++] = '\n';
		fwrite(buf, 1, (size_t)k, f);
	}
	return ferror(f) ? RT_EIO : 0;
}

int
rt_rdslice_write(FILE *f, const struct rt_rdslice *p, const struct rt_rdslicehead *h)
{
	char magic[64], buf[64];
	size_t i;
	int k;

	fprintf(f, "%s slice %llu", rt_stream_magic(RT_STREAM_REUSE_STATE, magic, sizeof magic),
	    (unsigned long long)h->k);
	if (last(h) != h->k)	/* a run's, merged */
		fprintf(f, "-%llu", (unsigned long long)last(h));
	fprintf(f, "/%llu" HEAD "\n", (unsigned long long)h->n, (unsigned long long)h->block,
	    (unsigned long long)h->bytes, (unsigned long long)p->accesses,
	    (unsigned long long)p->sampled, (unsigned long long)p->zeros,
	    (unsigned long long)p->lastseq, (unsigned long long)p->nhist,
	    (unsigned long long)p->nfirst, (unsigned long long)p->nstack);
	for (i = 0; i < p->nhist; i++) {
		k = rt_fmt_u64(buf, p->hist[i].key);
		buf[k++] = ' ';
		if (p->hist[i].w < 0x1p53 && p->hist[i].w == (double)(uint64_t)p->hist[i].w)
			k += rt_fmt_u64(buf + k, (uint64_t)p->hist[i].w);
		else
			k += snprintf(buf + k, sizeof buf - (size_t)k, "%.17g", p->hist[i].w);
		buf[k++] = '\n';
		fwrite(buf, 1, (size_t)k, f);
	}
	if (blocks(f, p->first, p->nfirst) || blocks(f, p->stack, p->nstack))
		return RT_EIO;
	return 0;
}

int
rt_rdist_save(FILE *f, struct rt_rdist *d, const struct rt_rdslicehead *h)
{
	struct rt_rdslice p;
	int e;

	if (rt_rdist_take(d, &p, last(h) + 1 < h->n))	/* the last's stack: not wanted */
		return -1;
	e = rt_rdslice_write(f, &p, h);
	rt_rdslice_free(&p);
	return e;
}

/* v[*n] = x, v grown as it fills: 0, or RT_ENOMEM. */
static int
push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (rt_grow(v, cap, *n + 1, sizeof **v))
		return RT_ENOMEM;
	(*v)[(*n)++] = x;
	return 0;
}

/* One line of section sec (0 histogram, 1 first accesses, 2 stack). */
static int
line(struct rt_rdslice *p, int sec, const char *s, size_t *cap)
{
	uint64_t x, u;
	const char *t;
	double w;

	if (sec > 0) {
		if (rt_scan_hex(&s, &x) || *s != '\0')
			return RT_EBAD;
		return sec == 1 ? push(&p->first, &p->nfirst, &cap[1], x) :
		    push(&p->stack, &p->nstack, &cap[2], x);
	}
	if (rt_scan_u64(&s, &x) || *s++ != ' ')
		return RT_EBAD;
	t = s;	/* a count as an integer, as written: strtod costs 10 times as much */
	if (rt_scan_u64(&t, &u) == 0 && *t == '\0' && u < (1ULL << 53))
		w = (double)u;
	else if (rt_scan_double(&s, &w) || *s != '\0' || w < 0)
		return RT_EBAD;
	if (rt_grow(&p->hist, &cap[0], p->nhist + 1, sizeof *p->hist))
		return RT_ENOMEM;
	p->hist[p->nhist++] = (struct rt_bin){ x, w };
	return 0;
}

/* A header's fields after the magic: "slice k/n" or a run's "slice
 * k-l/n", then HEAD's into v[2..10]. */
static int
header(const char *s, struct rt_rdslicehead *h, unsigned long long *v)
{
	unsigned long long lo, hi;
	int at = 0, at2 = 0;

	if (sscanf(s, " slice %llu%n-%llu%n", &lo, &at, &hi, &at2) < 1)
		return -1;
	if (at2 == 0)
		hi = lo;
	if (hi < lo || sscanf(s + (at2 ? at2 : at), "/%llu" HEAD, &v[1], &v[2], &v[3], &v[4],
	    &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 10 || v[1] == 0 || hi >= v[1] ||
	    v[2] == 0)
		return -1;
	*h = (struct rt_rdslicehead){ lo, v[1], v[3], v[2], hi - lo + 1 };
	return 0;
}

/* The state at path, or with head only its header. */
static int
readstate(const char *path, struct rt_rdslice *p, struct rt_rdslicehead *h, int head,
    char *why, size_t whylen)
{
	unsigned long long v[11] = { 0 };
	size_t cap[3] = { 0 }, len, *have[3];
	uint64_t want[3];
	struct rt_reader *r;
	char magic[64];
	const char *s;
	int e = 0, sec = 0;

	memset(p, 0, sizeof *p);
	if ((r = rt_lopen(path, why, whylen)) == NULL)
		return RT_EIO;
	rt_stream_magic(RT_STREAM_REUSE_STATE, magic, sizeof magic);
	if (rt_rexpect(r, RT_STREAM_REUSE_STATE))
		e = RT_EBAD;
	else if ((s = rt_rgetline(r, &len)) == NULL || strncmp(s, magic, strlen(magic)) != 0 ||
	    header(s + strlen(magic), h, v))
		e = (rt_rbad(r, "not a reuse state's header"), RT_EBAD);
	else
		p->accesses = v[4], p->sampled = v[5], p->zeros = v[6], p->lastseq = v[7];
	want[0] = v[8], want[1] = v[9], want[2] = v[10];
	have[0] = &p->nhist, have[1] = &p->nfirst, have[2] = &p->nstack;
	while (e == 0 && !head && (s = rt_rgetline(r, &len)) != NULL) {
		while (sec < 3 && *have[sec] == want[sec])
			sec++;
		if (sec == 3)
			e = (rt_rbad(r, "more lines than the header counts"), RT_EBAD);
		else if ((e = line(p, sec, s, cap)) == RT_EBAD)
			rt_rbad(r, "bad reuse state line");
	}
	if (e == 0 && !head && *rt_rerror(r) == '\0' && (p->nhist != want[0] || p->nfirst != want[1] ||
	    p->nstack != want[2]))
		e = (rt_rbad(r, "truncated: fewer lines than the header counts"), RT_EBAD);
	if (e == RT_ENOMEM)
		snprintf(why, whylen, "out of memory");
	else if (e != 0 || *rt_rerror(r)) {
		snprintf(why, whylen, "%s", rt_rerror(r));
		e = e ? e : RT_EIO;
	}
	rt_rclose(r);
	if (e)
		rt_rdslice_free(p);
	return e;
}

int
rt_rdslice_read(const char *path, struct rt_rdslice *p, struct rt_rdslicehead *h,
    char *why, size_t whylen)
{
	return readstate(path, p, h, 0, why, whylen);
}

/* The states' headers, to merge them in order and see that they are
 * one trace's and make a run of its slices (with whole, all of them),
 * each once: 0 with at[] the paths in order and *run the run, or as
 * rt_rdist_states. */
static int
order(char *const *paths, int n, int whole, int *at, struct rt_rdslicehead *run,
    uint64_t block, char *why, size_t whylen)
{
	struct rt_rdslicehead *h;
	struct rt_rdslice p;
	uint64_t a, b;
	int i, j, e = 0;

	if ((h = calloc((size_t)n, sizeof *h)) == NULL)
		return snprintf(why, whylen, "out of memory"), -1;
	for (i = 0; i < n && e == 0; i++) {
		if ((e = readstate(paths[i], &p, &h[i], 1, why, whylen)) != 0)
			break;
		at[i] = i;
		if (h[i].block != block)
			e = snprintf(why, whylen, "%s: a slice in %llu-byte blocks, not %llu", paths[i],
			    (unsigned long long)h[i].block, (unsigned long long)block);
		else if (h[i].n != h[0].n)
			e = snprintf(why, whylen, "%s: a slice of %llu, %s's of %llu", paths[i],
			    (unsigned long long)h[i].n, paths[0], (unsigned long long)h[0].n);
		else if (h[i].bytes != h[0].bytes)
			e = snprintf(why, whylen, "%s: a slice of a trace of %llu bytes, not of %s's "
			    "(%llu)", paths[i], (unsigned long long)h[i].bytes, paths[0],
			    (unsigned long long)h[0].bytes);
		for (j = i; e == 0 && j > 0 && h[at[j - 1]].k > h[i].k; j--)	/* by first slice */
			at[j] = at[j - 1], at[j - 1] = i;
	}
	for (i = 1; i < n && e == 0; i++) {	/* each next where the one before ends */
		a = last(&h[at[i - 1]]) + 1, b = h[at[i]].k;
		if (b < a)
			e = snprintf(why, whylen, "%s and %s: both slice %llu/%llu", paths[at[i - 1]],
			    paths[at[i]], (unsigned long long)b, (unsigned long long)h[0].n);
		else if (b == a + 1)
			e = snprintf(why, whylen, "slice %llu of %llu: no state named",
			    (unsigned long long)a, (unsigned long long)h[0].n);
		else if (b > a)
			e = snprintf(why, whylen, "slices %llu to %llu of %llu: no state named",
			    (unsigned long long)a, (unsigned long long)b - 1, (unsigned long long)h[0].n);
	}
	if (e == 0) {
		*run = h[at[0]];
		run->span = last(&h[at[n - 1]]) - run->k + 1;
		if (whole && run->span != run->n)
			e = snprintf(why, whylen, "%d states named, of slices %llu to %llu of %llu: "
			    "every slice is needed (--state: their merged state)", n,
			    (unsigned long long)run->k, (unsigned long long)last(run),
			    (unsigned long long)run->n);
	}
	free(h);
	return e > 0 ? RT_EUSAGE : e;
}

int
rt_rdist_states(struct rt_rdist *d, uint64_t block, char *const *paths, int n, int whole,
    struct rt_rdslicehead *run, char *why, size_t whylen)
{
	struct rt_rdslicehead h;
	struct rt_rdslice p;
	int *at, k, e;

	if ((at = malloc((size_t)n * sizeof *at)) == NULL)
		return snprintf(why, whylen, "out of memory"), -1;
	e = order(paths, n, whole, at, run, block, why, whylen);
	for (k = 0; k < n && e == 0; k++) {	/* a run of slices: each once */
		if ((e = rt_rdslice_read(paths[at[k]], &p, &h, why, whylen)) != 0)
			break;
		if (k == n - 1 && last(run) + 1 == run->n)	/* no slice after: no stack wanted */
			p.nstack = 0;
		if ((e = rt_rdist_merge(d, &p)) != 0)
			snprintf(why, whylen, "%s", rt_rdist_error(d));
		rt_rdslice_free(&p);
	}
	free(at);
	return e == RT_ENOMEM ? -1 : e;
}
