/* plan.c: which complex stands for a cloud when no threshold is given:
 * all pairs of a few points, the sparse levels of many, or landmarks
 * when the sparse levels grow too dense before the classes show. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* Landmarks as rt_landmarks takes them; c reduced to them when they come
 * within cover of every point (or when must), and then *tri, the points'
 * distances (a point cloud's, read with it), dropped: dense() measures
 * the landmarks'. */
static int
landmarks(struct rt_cloud *c, float **tri, const struct rt_plan *pl, size_t most, double cover,
    int must, struct rt_planned *out)
{
	uint32_t *land, *near;
	float *d;
	size_t nl = most;
	int e = -1;

	land = malloc((most + 1) * sizeof *land);
	near = malloc((c->nv + 1) * sizeof *near);
	d = malloc((c->nv + 1) * sizeof *d);
	if (land != NULL && near != NULL && d != NULL &&
	    rt_landmarks(c, pl->metric, &nl, pl->exact, (float)cover, pl->threads, land,
	    near, d, &out->cover) == 0) {
		e = 0;
		if ((must || out->cover <= cover) && (e = rt_cloud_keep(c, land, nl, near)) == 0) {
			out->landmarks = 1;
			free(*tri);
			*tri = NULL;
		}
	}
	free(land);
	free(near);
	free(d);
	return e;
}

/* The complex at thresh from its pairs e (freed), said to be why. */
static int
edges_complex(struct rt_rips *x, size_t nv, struct rt_edge *e, size_t m, float thresh,
    const char *why, const struct rt_plan *pl, struct rt_planned *out)
{
	memset(x, 0, sizeof *x);
	if (rt_graph_from_edges(&x->g, nv, e, m, thresh)) {
		free(e);
		return RT_ENOMEM;
	}
	free(e);
	out->thresh = thresh;
	out->known = 1;
	snprintf(out->why, sizeof out->why, "%s", why);
	return rt_rips_graph(x, pl->maxdim, pl->p, pl->collapse, pl->threads, &pl->hook);
}

static int
given_pairs(struct rt_rips *x, size_t nv, struct rt_edge *e, size_t m,
    const struct rt_plan *pl, struct rt_planned *out)
{
	return edges_complex(x, nv, e, m, (float)pl->thresh, "given", pl, out);
}

/* All pairs: at a given threshold, windows' pairs within it measured
 * without a triangle (its pages cost more than the pairs), else the
 * triangle. */
static int
dense(struct rt_rips *x, struct rt_cloud *c, float **tri, const struct rt_plan *pl,
    struct rt_planned *out)
{
	struct rt_edge *e;
	size_t m;
	int rc;

	if (*tri == NULL && pl->thresh >= 0 && pl->metric == RT_LEVENSHTEIN &&
	    (rc = rt_cloud_pairs(c, (float)pl->thresh, &e, &m)) != RT_EUSAGE)
		return rc ? rc : given_pairs(x, c->nv, e, m, pl, out);
	if (*tri == NULL && (*tri = rt_cloud_distances(c, pl->metric,
	    pl->thresh >= 0 ? (float)pl->thresh : INFINITY)) == NULL)
		return -1;
	if (pl->thresh >= 0) {
		out->thresh = (float)pl->thresh;
		snprintf(out->why, sizeof out->why, "given");
		out->known = 1;
		return rt_rips_compute(x, *tri, c->nv, out->thresh, pl->maxdim, pl->p,
		    pl->collapse, pl->threads, &pl->hook);
	}
	out->thresh = rt_threshold_resolve(x, *tri, c->nv, pl->classes, pl->maxdim, pl->p,
	    pl->collapse, pl->threads, &pl->hook, out->why, sizeof out->why);
	out->known = 1;
	return isnan(out->thresh) ? -1 : 0;
}

/* A sparse matrix: its pairs are the graph, every one (Ripser's default
 * for sparse input) or those within a given threshold; never a triangle. */
static int
pairs(struct rt_rips *x, const struct rt_cloud *c, const struct rt_plan *pl,
    struct rt_planned *out)
{
	struct rt_edge *e;

	memset(x, 0, sizeof *x);
	if ((e = malloc((c->nedge + 1) * sizeof *e)) == NULL)
		return RT_ENOMEM;
	memcpy(e, c->edge, c->nedge * sizeof *e);
	return edges_complex(x, c->nv, e, c->nedge, pl->thresh >= 0 ? (float)pl->thresh :
	    INFINITY, pl->thresh >= 0 ? "given" :
	    "every pair given (a sparse matrix): every class has died by it", pl, out);
}

/* A given threshold over many points: its pairs from the join, or
 * landmarks when they are too many. */
#define BRUTE 4096
static int
given(struct rt_rips *x, struct rt_cloud *c, float **tri, const struct rt_plan *pl,
    struct rt_planned *out)
{
	struct rt_edge *e;
	size_t m;
	uint64_t cand;
	int rc = RT_ELIMIT, brute;

	/* every pair is taken unless landmarks were asked for: up to BRUTE
	 * windows, each pair measured (or bounded) costs less than the join
	 * where most pairs are its candidates (random windows at a threshold
	 * near w), and not much more where few are (bench/RESULTS.persist) */
	brute = !pl->asked && !c->numeric && pl->metric == RT_LEVENSHTEIN && c->dim <= 64 &&
	    c->nv <= BRUTE;

	if (!brute && !c->numeric && (rc = rt_join(c, pl->metric, (int)floor(pl->thresh),
	    pl->threads, pl->maxedges, &e, &m, &cand)) == 0)
		return given_pairs(x, c->nv, e, m, pl, out);
	if (rc != RT_ELIMIT)	/* too many pairs: landmarks */
		return rc;
	if (!pl->asked && c->nv <= RT_WHOLE) {
		struct rt_plan whole = *pl;

		whole.exact = 0;
		return dense(x, c, tri, &whole, out);
	}
	if (landmarks(c, tri, pl, pl->exact, 0, 1, out))
		return -1;
	return dense(x, c, tri, pl, out);
}

/* Has ph a class of dimension 1 of some persistence at threshold t? */
static int
persists(const struct rt_ph *ph, float t)
{
	size_t i;

	for (i = 0; i < ph->nbar; i++)
		if (ph->bar[i].dim == 1 && (isinf(ph->bar[i].death) ? t : ph->bar[i].death) >
		    ph->bar[i].birth)
			return 1;
	return 0;
}

static int
plan(struct rt_rips *x, struct rt_cloud *c, float **tri, const struct rt_plan *pl,
    struct rt_planned *out)
{
	struct rt_rips sx;
	char why[512];
	float t;
	int known, rc;

	memset(out, 0, sizeof *out);
	out->distinct = c->nv;
	if (c->edge != NULL)
		return pairs(x, c, pl, out);
	/* distances alone (a matrix) have no points to join or to take
	 * landmarks among: all pairs, as Ripser takes them */
	if (c->nv <= pl->exact || pl->exact == 0 || (c->sym == NULL && c->x == NULL))
		return dense(x, c, tri, pl, out);
	if (pl->thresh >= 0)
		return given(x, c, tri, pl, out);
	if (c->numeric) {	/* no join for numbers: landmarks */
		if (landmarks(c, tri, pl, pl->exact, 0, 1, out))
			return -1;
		return dense(x, c, tri, pl, out);
	}
	rc = rt_threshold_sparse(&sx, c, pl->metric, pl->classes, pl->maxdim, pl->p,
	    pl->collapse, pl->threads, pl->maxedges, &pl->hook, &t, &known, why, sizeof why);
	if (rc == RT_ENOMEM)
		return rc;
	if (rc == RT_ELIMIT)	/* level 1 too dense: no sparse levels */
		t = NAN;
	else if (known) {
		*x = sx;
		out->thresh = t;
		out->known = 1;
		snprintf(out->why, sizeof out->why, "%s", why);
		return 0;
	}
	/* too dense before the classes show: landmarks, if they come near
	 * enough to every point to stand for it; farther when the sparse
	 * levels hold no class yet, unless the cover was asked for (a
	 * threshold where nothing persists is a dead end) */
	if (landmarks(c, tri, pl, pl->exact, pl->cover, isnan(t) || (!pl->coverasked &&
	    !persists(&sx.ph, t)), out)) {
		if (!isnan(t))
			rt_rips_free(&sx);
		return -1;
	}
	if (out->landmarks) {
		if (!isnan(t))
			rt_rips_free(&sx);
		return dense(x, c, tri, pl, out);
	}
	/* they do not: the sparse levels stay */
	*x = sx;
	out->thresh = t;
	snprintf(out->why, sizeof out->why, "%.300s; landmarks would leave a point %g "
	    "from the nearest, more than %g", why, (double)out->cover, pl->cover);
	return 0;
}

int
rt_rips_auto(struct rt_rips *x, struct rt_cloud *c, float **tri, const struct rt_plan *pl,
    struct rt_planned *out)
{
	/* every failure below the join's limit is out of memory */
	return plan(x, c, tri, pl, out) ? RT_ENOMEM : 0;
}
