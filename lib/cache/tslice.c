/* tslice.c: time-partitioned simulation (Heidelberger and Stone, "Parallel
 * trace-driven cache simulation by time partitioning", WSC 1990): a job
 * simulates one slice of the trace from empty caches and writes its counts
 * and its caches' end state; the fix-up, from the true state at the slice's
 * start, simulates the slice again beside a run from empty until the two
 * states are one, then takes the job's counts and state for the rest. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reftrace.h"
#include "cache.h"
#include "hier.h"

#define NSTAT (sizeof(struct rt_cache_stats) / sizeof(uint64_t))

/* The levels of h, the I-cache (-1) first where there is one. */
#define EACHLEVEL(h, k) for ((k) = (h)->i1 != NULL ? -1 : 0; (k) < (h)->n; (k)++)

static uint64_t *
stats(struct rt_hier *h, int k)
{
	return k == h->n ? (uint64_t *)&h->mem : (uint64_t *)&rt_hier_lvl(h, k)->s;
}

static int
stamped(int policy)
{
	return policy == RT_LRU || policy == RT_MRU || policy == RT_FIFO;
}

int
rt_hier_sliceable(const struct rt_hier *h, char *why, size_t whylen)
{
	const struct level *l;
	int k;

	if (h->coh != NULL || h->pfon) {
		snprintf(why, whylen, "a time slice is of caches alone: not cores or prefetchers");
		return RT_EUSAGE;
	}
	EACHLEVEL(h, k) {
		l = rt_hier_lvl((struct rt_hier *)h, k);
		if (l->shadow != NULL || l->fa != NULL || l->tlb) {
			snprintf(why, whylen, "a time slice's counts are exact for the caches "
			    "alone: not 3C (a compulsory miss is one of the whole trace) or TLBs");
			return RT_EUSAGE;
		}
		if (l->c.policy == RT_RANDOM || l->c.policy == RT_OPT || l->c.policy == RT_PES) {
			snprintf(why, whylen, "%s cannot be simulated by time slices exactly (%s)",
			    rt_policy_name(l->c.policy), l->c.policy == RT_RANDOM ?
			    "its generator's state at a slice's start is the whole run's" :
			    "it needs the future past the slice");
			return RT_EUSAGE;
		}
	}
	return 0;
}

int
rt_hier_statewrite(FILE *f, const struct rt_hier *h0, uint64_t k, uint64_t n, uint64_t bytes)
{
	struct rt_hier *h = (struct rt_hier *)h0;
	const struct level *l;
	char magic[64];
	uint64_t i, *s;
	int j, lv;

	fprintf(f, "%s slice %llu/%llu levels %d icache %d bytes %llu\n",
	    rt_stream_magic(RT_STREAM_CACHE_STATE, magic, sizeof magic),
	    (unsigned long long)k, (unsigned long long)n, h->n, h->i1 != NULL,
	    (unsigned long long)bytes);
	for (lv = h->i1 != NULL ? -1 : 0; lv <= h->n; lv++) {
		if (lv < h->n) {
			l = rt_hier_lvl(h, lv);
			fprintf(f, "L %d %llu %u %u %d %d %d", lv + 1, (unsigned long long)l->c.size,
			    l->c.assoc, l->c.block, l->c.policy, l->c.wt, l->c.nwa);
		} else
			fputs("M", f);
		for (s = stats(h, lv), j = 0; j < (int)NSTAT; j++)
			fprintf(f, " %llu", (unsigned long long)s[j]);
		fputc('\n', f);
	}
	EACHLEVEL(h, lv) {
		l = rt_hier_lvl(h, lv);
		for (i = 0; i < l->nsets * l->ways; i++)
			if (l->tag[i] != INVALID)
				fprintf(f, "W %d %llu %llx %llu %d\n", lv + 1, (unsigned long long)i,
				    (unsigned long long)l->tag[i], (unsigned long long)l->st[i],
				    l->dirty[i]);
		for (i = 0; l->tree != NULL && i < l->nsets; i++)
			if (l->tree[i])
				fprintf(f, "T %d %llu %llx\n", lv + 1, (unsigned long long)i,
				    (unsigned long long)l->tree[i]);
	}
	fprintf(f, "E %llu\n", (unsigned long long)h->now);
	return ferror(f) ? RT_EIO : 0;
}

/* Every way of h emptied, every count 0. */
static void
clear(struct rt_hier *h)
{
	struct level *l;
	uint64_t i;
	int k;

	EACHLEVEL(h, k) {
		l = rt_hier_lvl(h, k);
		for (i = 0; i < l->nsets * l->ways; i++)
			if (l->tag[i] != INVALID)
				rt_level_drop(l, i / l->ways, i);
		memset(l->st, 0, l->nsets * l->ways * sizeof *l->st);
		memset(l->dirty, 0, l->nsets * l->ways);
		if (l->tree != NULL)
			memset(l->tree, 0, l->nsets * sizeof *l->tree);
		memset(&l->s, 0, sizeof l->s);
	}
	memset(&h->mem, 0, sizeof h->mem);
}

/* Numbers of line s into v (up to max, all of them): how many, or -1. */
static int
nums(const char *s, uint64_t *v, int max, int hexat)
{
	int n = 0;

	while (*s == ' ' && n < max) {
		s++;
		if ((n == hexat ? rt_scan_hex(&s, &v[n]) : rt_scan_u64(&s, &v[n])) < 0)
			return -1;
		n++;
	}
	return *s == '\0' ? n : -1;
}

/* Level v (numbered from 1, the I-cache 0) of h, or NULL. */
static struct level *
levelof(struct rt_hier *h, uint64_t v)
{
	if ((v == 0 && h->i1 == NULL) || v > (uint64_t)h->n)
		return NULL;
	return rt_hier_lvl(h, (int)v - 1);
}

/* A level's line: its configuration must be h's level's; -1 bad, -2 not
 * these caches'. */
static int
levelline(struct rt_hier *h, const char *s)
{
	uint64_t v[7 + NSTAT];
	struct level *l;

	if (nums(s + 1, v, 7 + NSTAT, -1) != 7 + (int)NSTAT)
		return -1;
	if ((l = levelof(h, v[0])) == NULL || v[1] != l->c.size || v[2] != l->c.assoc ||
	    v[3] != l->c.block || v[4] != (uint64_t)l->c.policy ||
	    v[5] != (uint64_t)l->c.wt || v[6] != (uint64_t)l->c.nwa)
		return -2;
	memcpy(&l->s, v + 7, sizeof l->s);
	return 0;
}

/* A way's (W) or a tree's (T) line. */
static int
wayline(struct rt_hier *h, const char *s)
{
	uint64_t v[5];
	struct level *l;
	int n = s[0] == 'W' ? 5 : 3;

	if (nums(s + 1, v, n, 2) != n || (l = levelof(h, v[0])) == NULL)
		return -1;
	if (n == 3) {
		if (l->tree == NULL || v[1] >= l->nsets)
			return -1;
		l->tree[v[1]] = v[2];
		return 0;
	}
	/* an LRU stamp counts accesses: below 2^63, as lruvictim keys it */
	if (v[1] >= l->nsets * l->ways || v[2] == INVALID || v[4] > 1 ||
	    (l->c.policy == RT_LRU && v[3] >> 63) || (l->hash != NULL && rt_level_find(l, ~v[2]) >= 0))
		return -1;
	rt_level_put(l, v[1] / l->ways, v[1], ~v[2]);
	l->st[v[1]] = v[3];
	l->dirty[v[1]] = (uint8_t)v[4];
	if (l->ends != NULL)
		rt_level_order(l, v[1] / l->ways, v[1]);
	return 0;
}

int
rt_hier_stateread(struct rt_hier *h, const char *path, uint64_t *k, uint64_t *n,
    uint64_t *bytes, char *why, size_t whylen)
{
	char magic[64], err[300];
	struct rt_reader *r;
	uint64_t now, v[5] = { 0 };
	const char *s;
	size_t len;
	int e = 0, end = 0;

	if ((r = rt_lopen(path, why, whylen)) == NULL)
		return RT_EIO;
	clear(h);
	rt_stream_magic(RT_STREAM_CACHE_STATE, magic, sizeof magic);
	if (rt_rexpect(r, RT_STREAM_CACHE_STATE))
		e = RT_EBAD;
	else if ((s = rt_rgetline(r, &len)) == NULL || strncmp(s, magic, strlen(magic)) != 0 ||
	    sscanf(s + strlen(magic), " slice %llu/%llu levels %llu icache %llu bytes %llu",
	    (unsigned long long *)&v[0], (unsigned long long *)&v[1],
	    (unsigned long long *)&v[2], (unsigned long long *)&v[3],
	    (unsigned long long *)&v[4]) != 5)
		e = (rt_rbad(r, "not a cache state's header"), RT_EBAD);
	else if (v[2] != (uint64_t)h->n || v[3] != (h->i1 != NULL))
		e = (rt_rbad(r, "a state of %llu levels%s, not of these caches",
		    (unsigned long long)v[2], v[3] ? " and an I-cache" : ""), RT_EUSAGE);
	*k = v[0];
	*n = v[1];
	*bytes = v[4];
	while (e == 0 && !end && (s = rt_rgetline(r, &len)) != NULL) {
		if (s[0] == 'L' && (e = levelline(h, s)) == -2)
			e = (rt_rbad(r, "a level not of these caches"), RT_EUSAGE);
		else if (s[0] == 'M')
			e = nums(s + 1, stats(h, h->n), NSTAT, -1) == (int)NSTAT ? 0 : -1;
		else if (s[0] == 'W' || s[0] == 'T')
			e = wayline(h, s);
		else if (s[0] == 'E' && (e = nums(s + 1, &now, 1, -1) == 1 ? 0 : -1) == 0)
			end = 1, h->now = now;
		else if (s[0] != 'L')
			e = -1;
		if (e == -1)
			e = (rt_rbad(r, "bad cache state line"), RT_EBAD);
	}
	if (e == 0 && !end && *rt_rerror(r) == '\0')
		e = (rt_rbad(r, "truncated: no end line"), RT_EBAD);
	if (e != 0 || *rt_rerror(r)) {
		snprintf(err, sizeof err, "%s", *rt_rerror(r) ? rt_rerror(r) : "bad header");
		snprintf(why, whylen, "%s", err);
		e = e ? e : RT_EBAD;
	}
	rt_rclose(r);
	return e;
}

/* The valid ways of the set whose first way is b, in o in their policy's
 * order: by state, the first way on ties, as victims are taken (an
 * insertion sort: ways are met in order, and sets are small). */
static int
ordered(const struct level *l, uint64_t b, uint64_t *o)
{
	uint64_t i;
	int n = 0, j;

	for (i = b; i < b + l->ways; i++) {
		if (l->tag[i] == INVALID)
			continue;
		for (j = n++; j > 0 && l->st[o[j - 1]] > l->st[i]; j--)
			o[j] = o[j - 1];
		o[j] = i;
	}
	return n;
}

/* Whether levels a and b will do the same from here: the same blocks,
 * dirty alike, in the same order where the policy keeps one by time
 * stamps (whose values differ between runs), else way for way with the
 * same policy state.  o, p: room for a set's ways. */
static int
samelevel(const struct level *a, const struct level *b, uint64_t *o, uint64_t *p)
{
	uint64_t set, i, n = a->nsets * a->ways;
	int k, m;

	if (!stamped(a->c.policy))
		return memcmp(a->tag, b->tag, n * sizeof *a->tag) == 0 &&
		    memcmp(a->st, b->st, n * sizeof *a->st) == 0 &&
		    memcmp(a->dirty, b->dirty, n) == 0 && (a->tree == NULL ||
		    memcmp(a->tree, b->tree, a->nsets * sizeof *a->tree) == 0);
	for (set = 0; set < a->nsets; set++) {
		i = set * a->ways;
		if ((m = ordered(a, i, o)) != ordered(b, i, p))
			return 0;
		for (k = 0; k < m; k++)
			if (a->tag[o[k]] != b->tag[p[k]] || a->dirty[o[k]] != b->dirty[p[k]])
				return 0;
	}
	return 1;
}

static int
samestate(struct rt_hier *a, struct rt_hier *b, uint64_t *o, uint64_t *p)
{
	int k;

	EACHLEVEL(a, k)
		if (!samelevel(rt_hier_lvl(a, k), rt_hier_lvl(b, k), o, p))
			return 0;
	return 1;
}

/* The accesses of v, and its flushes and invalidations, into h. */
static void
feed(struct rt_hier *h, const struct rt_rec *v, int n)
{
	int i = 0;

	while (i < n) {
		i += (int)rt_hier_run(h, v + i, (size_t)(n - i));
		if (i < n)
			rt_hier_event(h, &v[i++]);
	}
}

/* A hierarchy of h's configuration, empty. */
static struct rt_hier *
twin(const struct rt_hier *h)
{
	struct rt_cache_cfg c[RT_MAXLEVEL];
	int k;

	for (k = 0; k < h->n; k++)
		c[k] = h->lv[k].c;
	return rt_hier_new(c, h->n, h->i1 != NULL ? &h->i1->c : NULL, h->incl, h->seed);
}

/* Slice k of n of trace into a (its true state at the slice's start) and
 * b (empty) in step, until their states are one (looked at every `every'
 * records): 1 then, 0 if they never were, or an error. */
static int
lockstep(struct rt_hier *a, struct rt_hier *b, const char *trace, uint64_t k, uint64_t n,
    uint64_t every, uint64_t *o, uint64_t *p, struct rt_tsfix *fx, char *why, size_t whylen)
{
	struct rt_reader *r;
	struct rt_rec *v;
	uint64_t since = 0;
	int m, same = 0;

	if ((r = rt_ropen(trace, RT_FMT_AUTO, why, whylen)) == NULL)
		return RT_EBAD;
	if ((m = rt_rslice(r, k, n)) != 0) {
		snprintf(why, whylen, "%s", rt_rerror(r));
		rt_rclose(r);
		return m;
	}
	while (!same && (m = rt_readv(r, &v)) > 0) {
		feed(a, v, m);
		feed(b, v, m);
		fx->resim += (uint64_t)m;
		if ((since += (uint64_t)m) >= every) {
			since = 0;
			same = samestate(a, b, o, p);
		}
	}
	if (m < 0)
		snprintf(why, whylen, "%s", rt_rerror(r));
	rt_rclose(r);
	return m < 0 ? m : same;
}

/* The ways of h's levels, and the most of a set. */
static uint64_t
ways(struct rt_hier *h, uint64_t *most)
{
	struct level *l;
	uint64_t w = 0;
	int k;

	*most = 1;
	EACHLEVEL(h, k) {
		l = rt_hier_lvl(h, k);
		w += l->nsets * l->ways;
		if (l->ways > *most)
			*most = l->ways;
	}
	return w;
}

/* A slice's fix-up done ahead, on a thread, from the end state of the
 * job before it: the true state at the slice's start whenever the
 * fix-up before it converged, when its d (the true counts over the
 * resimulated records less the job's) is the sequential fix-up's. */
struct ahead {
	int ok;				/* converged, d good */
	uint64_t d[RT_MAXLEVEL + 2][NSTAT];
};

struct pool {
	struct rt_hier *a;		/* the configuration */
	const char *trace;
	char *const *states;
	int n, next;			/* slices; the next to take */
	uint64_t every, most, resim;
	struct ahead *ah;
	pthread_mutex_t mu;
};

static void
zerostats(struct rt_hier *h)
{
	int k;

	for (k = h->i1 != NULL ? -1 : 0; k <= h->n; k++)
		memset(stats(h, k), 0, NSTAT * sizeof(uint64_t));
}

/* Slice i's fix-up from job i-1's end state; anything that fails leaves
 * it to the sequential pass, which says why. */
static void
ahead1(struct pool *pl, int i, uint64_t *o, uint64_t *p)
{
	struct rt_hier *a = twin(pl->a), *b = twin(pl->a);
	struct rt_tsfix fx = { 0 };
	uint64_t sk, sn, sb;
	char why[512];
	int k, j;

	if (a != NULL && b != NULL &&
	    rt_hier_stateread(a, pl->states[i - 1], &sk, &sn, &sb, why, sizeof why) == 0) {
		zerostats(a);
		if (lockstep(a, b, pl->trace, (uint64_t)i, (uint64_t)pl->n, pl->every, o, p, &fx,
		    why, sizeof why) == 1) {
			for (k = a->i1 != NULL ? -1 : 0; k <= a->n; k++)
				for (j = 0; j < (int)NSTAT; j++)
					pl->ah[i].d[k + 1][j] = stats(a, k)[j] - stats(b, k)[j];
			pl->ah[i].ok = 1;
		}
	}
	pthread_mutex_lock(&pl->mu);
	pl->resim += fx.resim;
	pthread_mutex_unlock(&pl->mu);
	rt_hier_free(a);
	rt_hier_free(b);
}

static void *
aheadwork(void *arg)
{
	struct pool *pl = arg;
	uint64_t *o = malloc(2 * pl->most * sizeof *o);
	int i;

	for (;;) {
		pthread_mutex_lock(&pl->mu);
		i = pl->next++;
		pthread_mutex_unlock(&pl->mu);
		if (i >= pl->n || o == NULL)
			break;
		ahead1(pl, i, o, o + pl->most);
	}
	free(o);
	return NULL;
}

/* Slices 1 to n-1's fix-ups on nthreads threads at once (the calling
 * one too); slice 1's start, job 0's end, is always the true one. */
static struct ahead *
ahead(struct rt_hier *a, const char *trace, char *const *states, int n, int nthreads,
    uint64_t every, uint64_t most, struct rt_tsfix *fx)
{
	struct pool pl = { a, trace, states, n, 1, every, most, 0, NULL,
	    PTHREAD_MUTEX_INITIALIZER };
	pthread_t th[RT_MAXTHREADS];
	int i, m = 0;

	if (nthreads < 2 || n < 3 || (pl.ah = calloc((size_t)n, sizeof *pl.ah)) == NULL)
		return NULL;
	rt_str_shared(1);	/* the readers may define strings */
	for (i = 0; i < nthreads - 1 && i < RT_MAXTHREADS && i < n - 2; i++)
		if (pthread_create(&th[m], NULL, aheadwork, &pl) == 0)
			m++;
	aheadwork(&pl);	/* the calling thread too */
	for (i = 0; i < m; i++)
		pthread_join(th[i], NULL);
	rt_str_shared(0);
	fx->resim += pl.resim;
	return pl.ah;
}

int
rt_hier_fixup(struct rt_hier *a, const char *trace, char *const *states, int n, int nthreads,
    struct rt_tsfix *fx, char *why, size_t whylen)
{
	struct rt_hier *b = NULL;
	uint64_t sk, sn, sb, most, every, *o, *p, d[RT_MAXLEVEL + 2][NSTAT];
	struct ahead *ah;
	struct stat st;
	int i, k, e, j, prev = 1;	/* prev: slice i-1's fix-up converged */

	memset(fx, 0, sizeof *fx);
	if ((e = rt_hier_sliceable(a, why, whylen)) != 0)
		return e;
	if (stat(trace, &st) != 0)
		return snprintf(why, whylen, "%s: %s", trace, strerror(errno)), RT_EIO;
	every = ways(a, &most);
	every = every < 4096 ? 4096 : every;	/* a look costs about the ways */
	if ((o = malloc(2 * most * sizeof *o)) == NULL)
		return snprintf(why, whylen, "out of memory"), RT_ENOMEM;
	p = o + most;
	ah = ahead(a, trace, states, n, nthreads, every, most, fx);
	for (i = 0, e = 0; i < n && e >= 0; i++) {
		if (i > 0 && prev && ah != NULL && ah[i].ok) {	/* done ahead, from the true state */
			fx->converged++;
			for (k = a->i1 != NULL ? -1 : 0; k <= a->n; k++)
				for (j = 0; j < (int)NSTAT; j++)
					d[k + 1][j] = stats(a, k)[j] + ah[i].d[k + 1][j];
		} else if (i > 0) {
			rt_hier_free(b);
			if ((b = twin(a)) == NULL) {
				e = RT_ENOMEM;
				snprintf(why, whylen, "out of memory");
				break;
			}
			if ((e = lockstep(a, b, trace, (uint64_t)i, (uint64_t)n, every, o, p,
			    fx, why, whylen)) <= 0) {
				fx->whole += e == 0;
				prev = 0;
				continue;	/* a's state is the slice's end's */
			}
			fx->converged++;
			for (k = a->i1 != NULL ? -1 : 0; k <= a->n; k++)
				for (j = 0; j < (int)NSTAT; j++)
					d[k + 1][j] = stats(a, k)[j] - stats(b, k)[j];
		}
		prev = 1;
		if ((e = rt_hier_stateread(a, states[i], &sk, &sn, &sb, why, whylen)) == 0 &&
		    (sk != (uint64_t)i || sn != (uint64_t)n)) {
			snprintf(why, whylen, "%s: the state of slice %llu/%llu, not of %d/%d",
			    states[i], (unsigned long long)sk, (unsigned long long)sn, i, n);
			e = RT_EUSAGE;
		} else if (e == 0 && sb != (uint64_t)st.st_size) {
			snprintf(why, whylen, "%s: the state of a slice of a trace of %llu bytes, "
			    "not of %s (%llu)", states[i], (unsigned long long)sb, trace,
			    (unsigned long long)st.st_size);
			e = RT_EUSAGE;
		}
		for (k = a->i1 != NULL ? -1 : 0; i > 0 && e == 0 && k <= a->n; k++)
			for (j = 0; j < (int)NSTAT; j++)
				stats(a, k)[j] += d[k + 1][j];
	}
	rt_hier_free(b);
	free(ah);
	free(o);
	return e < 0 ? e : 0;
}
