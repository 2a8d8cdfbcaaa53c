/* rank.c: which classes are loops.  A class that follows a loop turns
 * once an iteration, so its cocycle summed along the points in time
 * order (consecutive windows are joined by short edges) advances
 * steadily; one that winds about 0 is a local knot of the cloud, however
 * persistent.  Classes are ranked so, across the views of the windows,
 * and two that advance together are one loop. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

struct zkey { uint64_t ij; long v; };

static int
byij(const void *a, const void *b)
{
	const struct zkey *x = a, *y = b;

	return x->ij < y->ij ? -1 : x->ij > y->ij;
}

/* The cocycle on the edge a b (0 where it has no entry), lifted to the
 * integers in (-p/2, p/2]. */
static long
zat(const struct zkey *z, size_t nz, uint32_t a, uint32_t b)
{
	struct zkey k = { (uint64_t)(a < b ? a : b) << 32 | (a < b ? b : a), 0 }, *f;

	if ((f = bsearch(&k, z, nz, sizeof *z, byij)) == NULL)
		return 0;
	return a < b ? f->v : -f->v;
}

int
rt_class_walk(struct rt_pclass *c, unsigned p, const uint32_t *path, const uint64_t *seq,
    size_t n)
{
	struct zkey *z;
	size_t i, k;
	long s, w = 0, tv = 0;

	if ((z = malloc((c->nz + 1) * sizeof *z)) == NULL)
		return RT_ENOMEM;
	for (i = 0; i < c->nz; i++) {
		s = (long)c->z[i].coef;
		z[i] = (struct zkey){ (uint64_t)c->z[i].i << 32 | c->z[i].j,
		    s > (long)p / 2 ? s - (long)p : s };
	}
	qsort(z, c->nz, sizeof *z, byij);
	c->first = c->last = 0;
	c->kbeg = c->kend = 0;
	for (i = 1, k = 0; i < n; i++) {
		if (path[i] != path[i - 1] && (s = zat(z, c->nz, path[i - 1], path[i])) != 0) {
			if (tv == 0) {
				c->first = seq[i - 1];
				c->kbeg = k ? k - 1 : 0;
			}
			c->last = seq[i];
			c->kend = k < RT_TRAJ ? k : RT_TRAJ - 1;
			w += s;
			tv += labs(s);
		}
		while (k < RT_TRAJ && (k + 1) * (n - 1) <= i * RT_TRAJ)
			c->traj[k++] = w;
	}
	while (k < RT_TRAJ)
		c->traj[k++] = w;
	c->wind = w;
	c->steady = tv ? (double)labs(w) / (double)tv : 0;
	free(z);
	return 0;
}

/* Two classes that advance together: over the shorter's span of time,
 * their running windings (one turned over if they run opposite ways)
 * never part by more than 0.4 of the larger winding there.  A loop's
 * class may turn at every iteration or miss the turn at each entry (r or
 * r - m turns for r iterations in m entries), under 1.5 apart when its
 * entries run three iterations or more; loops nested so run 3 times as
 * many turns or more.  The span makes a class that turns only in part
 * of a loop's time (its first entry, say) the same loop as the whole. */
static int
same(const struct rt_pclass *a, const struct rt_pclass *b)
{
	const struct rt_pclass *s = a->kend - a->kbeg < b->kend - b->kbeg ? a : b;
	size_t k0 = s->kbeg, k1 = s->kend, k;
	long d, most = 0, ra = a->traj[k1] - a->traj[k0], rb = b->traj[k1] - b->traj[k0];
	long sa = ra < 0 ? -1 : 1, sb = rb < 0 ? -1 : 1;

	if (a->wind == 0 || b->wind == 0)
		return 0;
	for (k = k0; k <= k1; k++)
		if ((d = labs(sa * (a->traj[k] - a->traj[k0]) - sb * (b->traj[k] - b->traj[k0]))) > most)
			most = d;
	return 5 * most <= 2 * (labs(ra) > labs(rb) ? labs(ra) : labs(rb));
}

struct cand { struct rt_pclass *c; size_t view; double per; };

/* A class that recurs (two turns or more), then one that turns once
 * (a local knot, or a loop entered once), then the rest; then
 * persistence, how steadily, how many turns; the view and the barcode's
 * order settle the rest. */
static int
recurs(long w)
{
	return labs(w) >= 2 ? 2 : labs(w);
}

static int
bylooks(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int wa = recurs(a->c->wind), wb = recurs(b->c->wind);

	if (wa != wb)
		return wb - wa;
	if (a->per != b->per)
		return a->per > b->per ? -1 : 1;
	if (fabs(a->c->steady - b->c->steady) > 0.05)
		return a->c->steady > b->c->steady ? -1 : 1;
	if (labs(a->c->wind) != labs(b->c->wind))
		return labs(a->c->wind) > labs(b->c->wind) ? -1 : 1;
	if (a->view != b->view)
		return a->view < b->view ? -1 : 1;
	return a->c->bar < b->c->bar ? -1 : a->c->bar > b->c->bar;
}

int
rt_pers_rank(struct rt_pers *p, size_t nview, size_t nclasses)
{
	struct cand *cd;
	struct rt_pclass *keep;
	size_t v, i, j, n = 0, rank = 0, *nk;

	for (v = 0; v < nview; v++)
		n += p[v].ncls;
	if ((cd = malloc((n + 1) * sizeof *cd)) == NULL ||
	    (nk = calloc(nview, sizeof *nk)) == NULL) {
		free(cd);
		return RT_ENOMEM;
	}
	for (n = 0, v = 0; v < nview; v++)
		for (i = 0; i < p[v].ncls; i++) {
			struct rt_pclass *c = &p[v].cls[i];

			cd[n++] = (struct cand){ c, v, isinf(c->death) ? p[v].threshold -
			    c->birth : c->death - c->birth };
		}
	qsort(cd, n, sizeof *cd, bylooks);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && (cd[j].c->rank == 0 || !same(cd[i].c, cd[j].c)); j++)
			;
		cd[i].c->rank = j == i && rank < nclasses ? ++rank : 0;
		if (cd[i].c->rank)
			nk[cd[i].view]++;
	}
	/* each view keeps its ranked classes, in rank order */
	for (v = 0; v < nview; v++) {
		if ((keep = calloc(nk[v] + 1, sizeof *keep)) == NULL) {
			free(cd);
			free(nk);
			return RT_ENOMEM;
		}
		for (j = 0, i = 0; i < n; i++)
			if (cd[i].view == v && cd[i].c->rank)
				keep[j++] = *cd[i].c;
		for (i = 0; i < p[v].ncls; i++)
			if (p[v].cls[i].rank == 0)
				free(p[v].cls[i].z);
		free(p[v].cls);
		p[v].cls = keep;
		p[v].ncls = nk[v];
		for (p[v].upto = -1, i = 0; i < nk[v]; i++)
			if (keep[i].scale > p[v].upto)
				p[v].upto = keep[i].scale;
	}
	free(cd);
	free(nk);
	return 0;
}
