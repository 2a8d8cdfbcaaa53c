/* rdslice.c: the exact reuse distances of a binary trace file on
 * threads, by time slices: each thread measures one slice from an empty
 * stack (rt_rdist_slice), entered by seeking (rt_rslice), and the slices
 * are merged in order (rt_rdist_merge), pairwise in a tree. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

struct job {
	struct rt_rdist *d;
	const char *path;
	int fmt, skipbad;
	uint64_t k, n;
	int status;		/* 0, 1 its input failed, -1 d failed */
	char err[1024];		/* why, said once the slices before it are */
	rt_diag_fn *diag;
	pthread_mutex_t *mu;	/* the warnings of -k, one at a time */
};

static void *
run(void *arg)
{
	struct job *j = arg;
	struct rt_reader *r;
	struct rt_rec *v;
	int k;

	if ((r = rt_ropen(j->path, j->fmt, j->err, sizeof j->err)) == NULL) {
		j->status = 1;
		return NULL;
	}
	if ((k = rt_rslice(r, j->k, j->n)) != 0)
		j->status = 1;
	while (k == 0 && (k = rt_readv(r, &v)) != 0) {
		if (k == RT_EBAD && j->skipbad) {
			pthread_mutex_lock(j->mu);
			j->diag(rt_rerror(r), 0);
			pthread_mutex_unlock(j->mu);
			k = 0;
		} else if (k < 0)
			j->status = 1;
		else if ((k = rt_rdist_batch(j->d, v, k)) != 0)
			j->status = -1;
	}
	if (j->status > 0)
		snprintf(j->err, sizeof j->err, "%s", rt_rerror(r));
	else if (j->status < 0)
		snprintf(j->err, sizeof j->err, "%s", rt_rdist_error(j->d));
	rt_rclose(r);
	return NULL;
}

/* fn on each of n jobs of size bytes, nth threads at once (or here). */
static void
waves(void *(*fn)(void *), void *jobs, size_t size, int n, int nth)
{
	pthread_t th[RT_MAXTHREADS];
	int i, j, m, started[RT_MAXTHREADS];

	nth = nth < 1 ? 1 : nth > RT_MAXTHREADS ? RT_MAXTHREADS : nth;
	for (i = 0; i < n; i += m) {
		m = n - i < nth ? n - i : nth;
		for (j = 0; j < m; j++)	/* a thread not had: the job here */
			if (!(started[j] = m > 1 &&
			    pthread_create(&th[j], NULL, fn, (char *)jobs + (size_t)(i + j) * size) == 0))
				fn((char *)jobs + (size_t)(i + j) * size);
		for (j = 0; j < m; j++)
			if (started[j])
				pthread_join(th[j], NULL);
	}
}

struct pair {
	struct rt_rdist *a, *b;
	int stack, e;
	char err[128];
};

/* Slice b after slice a, into a: b's first uses measured on a's end
 * stack, where a's engine left it (those that miss stay first uses),
 * then b's end stack taken over it; b spent. */
static void *
pair(void *arg)
{
	struct pair *j = arg;
	struct rt_rdslice p;

	if ((j->e = rt_rdist_take(j->b, &p, j->stack)) != 0)
		snprintf(j->err, sizeof j->err, "%s", rt_rdist_error(j->b));
	else if ((j->e = rt_rdist_merge(j->a, &p)) != 0)
		snprintf(j->err, sizeof j->err, "%s", rt_rdist_error(j->a));
	rt_rdslice_free(&p);
	return NULL;
}

/* The slices' d merged in order into v[0], pairwise: log2 n rounds, each
 * round's pairs at once, where the serial merge took n in a row. */
static int
tree(struct rt_rdist **v, int n, char *why, size_t whylen)
{
	struct pair *j;
	int step, i, m, e = 0;

	if ((j = calloc((size_t)n, sizeof *j)) == NULL)
		return snprintf(why, whylen, "out of memory"), -1;
	for (step = 1; step < n && e == 0; step *= 2) {
		for (i = m = 0; i + step < n; i += 2 * step, m++)	/* b's stack: not of the last */
			j[m] = (struct pair){ v[i], v[i + step], i + 2 * step < n, 0, "" };
		waves(pair, j, sizeof *j, m, n);
		for (i = 0; i < m && e == 0; i++)
			if ((e = j[i].e) != 0)
				snprintf(why, whylen, "%s", j[i].err);
	}
	free(j);
	return e;
}

/* Whether path is a binary trace file whose slices can be entered. */
static int
sliceable(const char *path, int fmt, int n)
{
	char err[1024];
	struct rt_reader *r;
	int k;

	if (!rt_rereadable(path))	/* standard input, a pipe: not to be read twice */
		return 0;
	if ((r = rt_ropen(path, fmt, err, sizeof err)) == NULL)
		return 0;
	k = rt_rslice(r, 0, (uint64_t)n);
	rt_rclose(r);
	return k == 0;
}

int
rt_rdist_threads(struct rt_rdist *d, const struct rt_rdist_cfg *c, const char *path,
    int fmt, int skipbad, int n, rt_diag_fn *diag, char *why, size_t whylen)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_t th[RT_MAXTHREADS];
	struct rt_rdist **v;
	struct rt_rdslice p;
	struct job *j;
	int i, e = 0, started[RT_MAXTHREADS] = { 0 };

	if (n < 2 || n > RT_MAXTHREADS || c->rate < 1 || c->size || c->pn || c->timed ||
	    !sliceable(path, fmt, n))
		return snprintf(why, whylen, "exact reuse distances of a binary trace file only"), RT_EUSAGE;
	if ((j = calloc((size_t)n, sizeof *j)) == NULL || (v = calloc((size_t)n, sizeof *v)) == NULL)
		return free(j), snprintf(why, whylen, "out of memory"), -1;
	for (i = 0; i < n; i++) {
		j[i] = (struct job){ rt_rdist_new(c, NULL, NULL, NULL), path, fmt, skipbad,
		    (uint64_t)i, (uint64_t)n, 0, "", diag, &mu };
		if (j[i].d == NULL)
			e = -1;
		else
			rt_rdist_slice(j[i].d);
	}
	rt_str_shared(1);
	for (i = 0; i < n && e == 0; i++)	/* a thread not had: the slice here */
		if (!(started[i] = pthread_create(&th[i], NULL, run, &j[i]) == 0))
			run(&j[i]);
	for (i = 0; i < n; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	rt_str_shared(0);
	if (e)
		snprintf(why, whylen, "out of memory");
	for (i = 0; i < n && e == 0; i++) {
		if (j[i].status > 0) {	/* as one thread would: said, nothing stands */
			diag(j[i].err, 1);
			e = 2;
		} else if (j[i].status < 0) {
			snprintf(why, whylen, "%s", j[i].err);
			e = -1;
		}
		v[i] = j[i].d;
	}
	if (e == 0 && (e = tree(v, n, why, whylen)) == 0 && rt_rdist_take(v[0], &p, 0) != 0)
		e = -1, snprintf(why, whylen, "%s", rt_rdist_error(v[0]));
	else if (e == 0) {	/* the whole trace's first uses: cold */
		if ((e = rt_rdist_merge(d, &p)) != 0)
			snprintf(why, whylen, "%s", rt_rdist_error(d));
		rt_rdslice_free(&p);
	}
	for (i = 0; i < n; i++)
		rt_rdist_free(j[i].d);
	free(j);
	free(v);
	return e;
}
