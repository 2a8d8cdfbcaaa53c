/* rdslice.c: the exact reuse distances of a binary trace file on
 * threads, by time slices: each thread measures one slice from an empty
 * stack (rt_rdist_slice), entered by seeking (rt_rslice), and the slices
 * are merged in order (rt_rdist_merge). */
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

/* Whether path is a binary trace file whose slices can be entered. */
static int
sliceable(const char *path, int fmt, int n)
{
	char err[1024];
	struct rt_reader *r;
	int k;

	if (strcmp(path, "-") == 0)	/* standard input: not to be read twice */
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
	struct rt_rdslice p;
	struct job *j;
	int i, e = 0, started[RT_MAXTHREADS] = { 0 };

	if (n < 2 || n > RT_MAXTHREADS || c->rate < 1 || c->size || c->pn || c->timed ||
	    !sliceable(path, fmt, n))
		return snprintf(why, whylen, "exact reuse distances of a binary trace file only"), RT_EUSAGE;
	if ((j = calloc((size_t)n, sizeof *j)) == NULL)
		return snprintf(why, whylen, "out of memory"), -1;
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
		} else if (j[i].status < 0 || rt_rdist_take(j[i].d, &p, i < n - 1)) {
			snprintf(why, whylen, "%s", j[i].status ? j[i].err : rt_rdist_error(j[i].d));
			e = -1;
		} else {
			e = rt_rdist_merge(d, &p);
			rt_rdslice_free(&p);
			if (e)
				snprintf(why, whylen, "%s", rt_rdist_error(d));
		}
	}
	for (i = 0; i < n; i++)
		rt_rdist_free(j[i].d);
	free(j);
	return e;
}
