/* persistence.c: the persistence stream (persist writes it, circcoord
 * reads it): the barcode ranked, the classes chosen for cocycles and their
 * cocycles, the points' vertices, and the edges the coordinates need. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* The tables of the stream, in order, and their columns: defined here once
 * for the writer and the reader. */
enum { T_BARS, T_CLASSES, T_COCYCLES, T_POINTMAP, T_EDGES, NTABLES };
static const char *const tables[NTABLES] = {
	"#reftrace bars 1 dim rank birth death persistence tie",
	"#reftrace classes 1 rank birth death scale edges bar winding first last",
	"#reftrace cocycles 1 rank i j coef",
	"#reftrace pointmap 1 vertex seq loc func region",
	"#reftrace edges 1 i j distance",
};
#define META "# persist "

/* The persistence of a bar; of one alive at the threshold t, what it has
 * there, a lower bound. */
static double
persistence(double birth, double death, double t)
{
	return isinf(death) ? t - birth : death - birth;
}

struct rank { const struct rt_bar *bar; double t; };

/* Dimension, then persistence (a class alive at the threshold by what it
 * has there, and before one that died with as much), then birth, then
 * the vertices that gave birth: ties are the rule with integer distances,
 * and the order must not depend on the sort. */
static int
byrank(const void *a, const void *b, void *ctx)
{
	const struct rank *k = ctx;
	const struct rt_bar *p = &k->bar[*(const size_t *)a], *q = &k->bar[*(const size_t *)b];
	double x = persistence(p->birth, p->death, k->t), y = persistence(q->birth, q->death, k->t);
	int i;

	if (p->dim != q->dim)
		return p->dim - q->dim;
	if (x != y)
		return x > y ? -1 : 1;
	if (isinf(p->death) != isinf(q->death))
		return isinf(p->death) ? -1 : 1;
	if (p->birth != q->birth)
		return p->birth < q->birth ? -1 : 1;
	for (i = 0; i < 3; i++)
		if (p->v[i] != q->v[i])
			return p->v[i] < q->v[i] ? -1 : 1;
	return 0;
}

/* The largest scale at which a class is alive: the largest edge value
 * below its death, or the threshold. */
static float
alive(const struct rt_graph *g, const struct rt_bar *b)
{
	float best = b->birth;
	size_t k;

	if (isinf(b->death))
		return g->thresh;
	for (k = 0; k < g->off[g->n]; k++)
		if (g->d[k] < b->death && g->d[k] > best)
			best = g->d[k];
	return best;
}

/* The replays at the scales met so far (a few: distances are mostly
 * integers), the oldest given up when they are NPLAN. */
#define NPLAN 8
static const struct rt_replay *
replay(struct rt_replay *plan, const struct rt_graph *g, const struct rt_collapse *col,
    float eps)
{
	size_t i;

	for (i = 0; i < NPLAN && plan[i].uvd != NULL; i++)
		if (plan[i].eps == eps)
			return &plan[i];
	if (i == NPLAN) {
		rt_replay_free(&plan[0]);
		memmove(plan, plan + 1, (NPLAN - 1) * sizeof *plan);
		i = NPLAN - 1;
		memset(&plan[i], 0, sizeof plan[i]);
	}
	return rt_replay_plan(&plan[i], g, col, eps) ? NULL : &plan[i];
}

int
rt_pers_build(struct rt_pers *p, const struct rt_ph *ph, const struct rt_graph *g,
    const struct rt_collapse *col, unsigned modulus, size_t ncand, double minpers,
    const struct rt_pointmap *pm)
{
	size_t *ord = NULL, i, rank = 0, tie = 0, nclasses = ncand;
	struct rt_replay plan[NPLAN] = { { 0 } };
	const struct rt_replay *r;
	const struct rt_bar *b, *prev = NULL;
	struct rt_pclass *c;
	struct rank k = { ph->bar, g->thresh };
	double per;

	if ((ord = malloc((ph->nbar + 1) * sizeof *ord)) == NULL ||
	    (p->bar = malloc((ph->nbar + 1) * sizeof *p->bar)) == NULL)
		goto fail;
	for (i = 0; i < ph->nbar; i++)
		ord[i] = i;
	qsort_r(ord, ph->nbar, sizeof *ord, byrank, &k);
	/* past ncand, those that tie with the last, up to 4 ncand */
	for (i = 0, rank = 0; i < ph->nbar && rank < 4 * ncand; i++) {
		b = &ph->bar[ord[i]];
		if (b->dim != 1)
			continue;
		per = persistence(b->birth, b->death, k.t);
		if (++rank > ncand && (per != persistence(prev->birth, prev->death, k.t) ||
		    isinf(b->death) != isinf(prev->death)))
			break;
		prev = b;
		nclasses = rank;
	}
	prev = NULL;
	rank = 0;
	if ((p->cls = calloc(nclasses + 1, sizeof *p->cls)) == NULL)
		goto fail;
	p->modulus = modulus;
	p->upto = -1;
	for (i = 0; i < ph->nbar; i++) {
		b = &ph->bar[ord[i]];
		per = persistence(b->birth, b->death, k.t);
		rank = prev == NULL || prev->dim != b->dim ? 1 : rank + 1;
		if (rank == 1 || per != persistence(prev->birth, prev->death, k.t) ||
		    isinf(b->death) != isinf(prev->death))
			tie = rank;	/* the first of a group of equals */
		prev = b;
		p->bar[i] = (struct rt_pbar){ b->dim, rank, b->birth, b->death, tie };
		if (b->dim != 1 || rank > nclasses || per < minpers || !(per > 0))
			continue;
		/* cocycles of the collapsed complex go back to the whole one */
		c = &p->cls[p->ncls++];
		c->rank = p->ncls;
		c->bar = rank;
		c->birth = b->birth;
		c->death = b->death;
		c->scale = alive(g, b);
		if (c->scale > p->upto)
			p->upto = c->scale;
		if (col == NULL) {
			if ((c->z = malloc((b->ncocycle + 1) * sizeof *c->z)) == NULL)
				goto fail;
			memcpy(c->z, ph->cocycle + b->cocycle, b->ncocycle * sizeof *c->z);
			c->nz = b->ncocycle;
		} else if ((r = replay(plan, g, col, (float)c->scale)) == NULL ||
		    rt_replay_apply(r, col, modulus, ph->cocycle + b->cocycle, b->ncocycle,
		    &c->z, &c->nz))
			goto fail;
		if (pm != NULL && pm->n > 1 &&
		    rt_class_walk(c, modulus, pm->vert, pm->seq, pm->n))
			goto fail;
	}
	p->nbar = ph->nbar;
	p->g = *g;
	free(ord);
	for (i = 0; i < NPLAN; i++)
		rt_replay_free(&plan[i]);
	return 0;
fail:
	free(ord);
	for (i = 0; i < NPLAN; i++)
		rt_replay_free(&plan[i]);
	rt_pers_free(p);
	return -1;
}

static void
value(FILE *f, double v)
{
	if (isinf(v))
		fputs(" inf", f);
	else
		fprintf(f, " %.9g", v);
}

int
rt_pers_write(FILE *f, const struct rt_pers *p)
{
	char magic[64];
	size_t i, j, k, ne;

	for (i = ne = 0; p->ncls && i < p->g.n; i++)	/* the edges table's rows, said ahead */
		for (k = p->g.off[i]; k < p->g.off[i + 1]; k++)
			ne += p->g.nb[k] > i && p->g.d[k] <= p->upto;
	fprintf(f, "%s\n", rt_stream_magic(RT_STREAM_PERSISTENCE, magic, sizeof magic));
	fprintf(f, META "points=%zu vertices=%zu metric=%s modulus=%u dim=%d threshold=%.9g "
	    "edges=%zu", p->npoints, p->nvert, p->metric, p->modulus, p->dim, p->threshold, ne);
	if (*p->view)
		fprintf(f, " view=%s", p->view);
	if (p->distinct > p->nvert)	/* the vertices are landmarks */
		fprintf(f, " distinct=%zu cover=%.9g", p->distinct, p->cover);
	putc('\n', f);
	fprintf(f, "# threshold %.9g: %s\n", p->threshold, p->why);
	if (*p->about)
		fprintf(f, "# %s\n", p->about);
	fprintf(f, "%s\n", tables[T_BARS]);
	for (i = 0; i < p->nbar; i++) {
		fprintf(f, "%d %zu", p->bar[i].dim, p->bar[i].rank);
		value(f, p->bar[i].birth);
		value(f, p->bar[i].death);
		value(f, persistence(p->bar[i].birth, p->bar[i].death, p->threshold));
		fprintf(f, " %zu\n", p->bar[i].tie);
	}
	fprintf(f, "%s\n", tables[T_CLASSES]);
	for (i = 0; i < p->ncls; i++) {
		fprintf(f, "%zu", p->cls[i].rank);
		value(f, p->cls[i].birth);
		value(f, p->cls[i].death);
		value(f, p->cls[i].scale);
		fprintf(f, " %zu %zu %ld %" PRIu64 " %" PRIu64 "\n", p->cls[i].nz, p->cls[i].bar,
		    p->cls[i].wind, p->cls[i].first, p->cls[i].last);
	}
	fprintf(f, "%s\n", tables[T_COCYCLES]);
	for (i = 0; i < p->ncls; i++)
		for (j = 0; j < p->cls[i].nz; j++)
			fprintf(f, "%zu %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", p->cls[i].rank,
			    p->cls[i].z[j].i, p->cls[i].z[j].j, p->cls[i].z[j].coef);
	fprintf(f, "%s\n", tables[T_POINTMAP]);
	for (i = 0; i < p->npoints; i++) {
		if (p->pm.n == 0)
			fprintf(f, "%zu %zu - - -\n", i, i);
		else
			fprintf(f, "%" PRIu32 " %" PRIu64 " %s %s %s\n", p->pm.vert[i],
			    p->pm.seq[i], rt_str(p->pm.loc[i]), rt_str(p->pm.func[i]),
			    rt_str(p->pm.region[i]));
	}
	fprintf(f, "%s\n", tables[T_EDGES]);
	for (i = 0; p->ncls && i < p->g.n; i++)
		for (k = p->g.off[i]; k < p->g.off[i + 1]; k++)
			if (p->g.nb[k] > i && p->g.d[k] <= p->upto)
				fprintf(f, "%zu %" PRIu32 " %.9g\n", i, p->g.nb[k], (double)p->g.d[k]);
	return ferror(f) ? RT_EIO : 0;
}

void
rt_pers_free(struct rt_pers *p)
{
	size_t i;

	for (i = 0; p->cls != NULL && i < p->ncls; i++)
		free(p->cls[i].z);
	free(p->bar);
	free(p->cls);
	if (p->owned) {
		rt_pointmap_free(&p->pm);
		rt_graph_free(&p->g);
	}
	memset(p, 0, sizeof *p);
}

/* Reading.  Every number that sizes or indexes something is checked
 * against what the stream declared before it is used. */

struct rd {
	struct rt_reader *r;
	struct rt_pers *p;
	struct rt_edge *e;
	size_t ne, cape, capbar, capcls, *capz;
	int seen[NTABLES];
	uint64_t edges;		/* the edges the '# persist' line says, or UINT64_MAX */
	size_t *nz;		/* the cocycle entries each class row says */
	size_t capnz;
};

static int
num(const char *s, double *v)
{
	return rt_parse_real(s, v, RT_REAL_INF);
}

static int
count(const char *s, uint64_t max, uint64_t *v)
{
	return rt_parse_u64(s, v) || *v > max ? -1 : 0;
}

/* "# persist points=N vertices=N metric=M modulus=P dim=D threshold=T" */
static int
meta(struct rd *d, char *s)
{
	struct rt_pers *p = d->p;
	char *f, *save = NULL, *v;
	uint64_t u;
	double x;

	for (f = strtok_r(s + strlen(META), " \t", &save); f; f = strtok_r(NULL, " \t", &save)) {
		if ((v = strchr(f, '=')) == NULL)
			continue;
		*v++ = '\0';
		if (strcmp(f, "points") == 0 && count(v, UINT32_MAX, &u) == 0)
			p->npoints = u;
		else if (strcmp(f, "vertices") == 0 && count(v, UINT32_MAX, &u) == 0)
			p->nvert = u;
		else if (strcmp(f, "metric") == 0)
			snprintf(p->metric, sizeof p->metric, "%s", v);
		else if (strcmp(f, "modulus") == 0 && count(v, 65521, &u) == 0 && rt_prime(u))
			p->modulus = (unsigned)u;
		else if (strcmp(f, "dim") == 0 && count(v, 2, &u) == 0)
			p->dim = (int)u;
		else if (strcmp(f, "threshold") == 0 && num(v, &x) == 0)
			p->threshold = x;
		else if (strcmp(f, "distinct") == 0 && count(v, UINT32_MAX, &u) == 0)
			p->distinct = u;
		else if (strcmp(f, "cover") == 0 && num(v, &x) == 0)
			p->cover = x;
		else if (strcmp(f, "view") == 0)
			snprintf(p->view, sizeof p->view, "%s", v);
		else if (strcmp(f, "edges") == 0 && count(v, UINT64_MAX - 1, &u) == 0)
			d->edges = u;
		else if (!strcmp(f, "points") || !strcmp(f, "vertices") || !strcmp(f, "metric") ||
		    !strcmp(f, "modulus") || !strcmp(f, "dim") || !strcmp(f, "threshold") ||
		    !strcmp(f, "distinct") || !strcmp(f, "cover") || !strcmp(f, "edges")) {
			rt_rbad(d->r, "bad %s in the '# persist' line", f);
			return RT_EBAD;
		}	/* and keys of later versions are left alone */
	}
	if (p->modulus == 0 || p->nvert == 0 || p->npoints == 0 || p->nvert > p->npoints) {
		rt_rbad(d->r, "the '# persist' line needs points, vertices (at most the "
		    "points) and a prime modulus");
		return RT_EBAD;
	}
	return 0;
}

static int
integer(const char *s, int64_t *v)
{
	uint64_t u;

	if (rt_parse_u64(s + (*s == '-'), &u) || u > INT64_MAX)
		return -1;
	*v = *s == '-' ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* The index of the class of this rank, or -1. */
static long
rankat(const struct rt_pers *p, uint64_t rank)
{
	size_t lo = 0, hi = p->ncls, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (p->cls[m].rank < rank)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < p->ncls && p->cls[lo].rank == rank ? (long)lo : -1;
}

static int
row(struct rd *d, int t, char *s)
{
	struct rt_pers *p = d->p;
	char *f[10], *save = NULL, *q;
	int nf = 0;
	uint64_t u[4], sq;
	int64_t w = 0;
	double a[4];
	long k;
	struct rt_pclass *c;

	for (q = strtok_r(s, " \t", &save); q && nf < 10; q = strtok_r(NULL, " \t", &save))
		f[nf++] = q;
	if (nf == 0)
		return 0;
	switch (t) {
	case T_BARS:
		if ((nf != 5 && nf != 6) || count(f[0], 2, &u[0]) ||
		    count(f[1], UINT32_MAX, &u[1]) || num(f[2], &a[0]) || num(f[3], &a[1]) ||
		    num(f[4], &a[2]) || (nf == 6 && count(f[5], u[1], &u[2])) ||
		    !(a[1] >= a[0]) || a[0] < 0)
			return rt_rbad(d->r, "bad bar row (0 <= birth <= death)"), RT_EBAD;
		if (rt_grow(&p->bar, &d->capbar, p->nbar + 1, sizeof *p->bar))
			return RT_ENOMEM;
		p->bar[p->nbar++] = (struct rt_pbar){ (int)u[0], u[1], a[0], a[1],
		    nf == 6 ? u[2] : u[1] };
		return 0;
	case T_CLASSES:
		if ((nf != 5 && nf != 9) || count(f[0], UINT32_MAX, &u[0]) || u[0] == 0 ||
		    (p->ncls && u[0] <= p->cls[p->ncls - 1].rank) ||
		    num(f[1], &a[0]) || num(f[2], &a[1]) || num(f[3], &a[2]) ||
		    isinf(a[2]) || a[2] < 0 || !(a[1] >= a[0]) || a[0] < 0 ||
		    count(f[4], UINT32_MAX, &u[1]) ||
		    (nf == 9 && (count(f[5], UINT32_MAX, &u[2]) || integer(f[6], &w) ||
		    rt_parse_u64(f[7], &u[3]) || rt_parse_u64(f[8], &sq))))
			return rt_rbad(d->r, "bad class row (ranks rising, 0 <= birth <= death, "
			    "a finite scale)"), RT_EBAD;
		if (rt_grow(&p->cls, &d->capcls, p->ncls + 1, sizeof *p->cls) ||
		    rt_grow(&d->nz, &d->capnz, p->ncls + 1, sizeof *d->nz))
			return RT_ENOMEM;
		d->nz[p->ncls] = u[1];
		c = &p->cls[p->ncls++];
		memset(c, 0, sizeof *c);
		c->rank = u[0];
		c->birth = a[0];
		c->death = a[1];
		c->scale = a[2];
		if (nf == 9) {
			c->bar = u[2];
			c->wind = (long)w;
			c->first = u[3];
			c->last = sq;
		}
		if (a[2] > p->upto)
			p->upto = a[2];
		return 0;
	case T_COCYCLES:
		if (nf != 4 || count(f[0], UINT32_MAX, &u[0]) || (k = rankat(p, u[0])) < 0 ||
		    count(f[1], p->nvert - 1, &u[1]) || count(f[2], p->nvert - 1, &u[2]) ||
		    u[1] >= u[2] || count(f[3], p->modulus - 1, &u[3]) || u[3] == 0)
			return rt_rbad(d->r, "bad cocycle row (want rank i j coef: a class "
			    "above, vertices i < j below %zu, 0 < coef < %u)", p->nvert,
			    p->modulus), RT_EBAD;
		c = &p->cls[k];
		if (rt_grow(&c->z, &d->capz[k], c->nz + 1, sizeof *c->z))
			return RT_ENOMEM;
		c->z[c->nz++] = (struct rt_cocycle_entry){ (uint32_t)u[1], (uint32_t)u[2],
		    (uint32_t)u[3] };
		return 0;
	case T_POINTMAP:
		if (nf != 5 || count(f[0], p->nvert - 1, &u[0]) || rt_parse_u64(f[1], &u[1]))
			return rt_rbad(d->r, "bad pointmap row (want vertex seq loc func "
			    "region, the vertex below %zu)", p->nvert), RT_EBAD;
		if (rt_pointmap_add(&p->pm, (uint32_t)u[0], u[1], f[2], f[3], f[4]))
			return RT_ENOMEM;
		p->npoints = p->pm.n;
		return 0;
	case T_EDGES:
		if (nf != 3 || count(f[0], p->nvert - 1, &u[0]) || count(f[1], p->nvert - 1, &u[1]) ||
		    u[0] >= u[1] || num(f[2], &a[0]) || isinf(a[0]) || a[0] < 0)
			return rt_rbad(d->r, "bad edge row (want i j distance, vertices "
			    "i < j below %zu)", p->nvert), RT_EBAD;
		if (rt_grow(&d->e, &d->cape, d->ne + 1, sizeof *d->e))
			return RT_ENOMEM;
		d->e[d->ne++] = (struct rt_edge){ (uint32_t)u[0], (uint32_t)u[1], (float)a[0] };
		return 0;
	}
	return 0;
}

/* "#reftrace bars 1 ...": the same table and version, whatever columns
 * follow (later versions may add some at the end). */
static int
sametable(const char *line, const char *table)
{
	size_t n = strcspn(table + 10, " ");

	n += 10 + 1 + strcspn(table + 10 + n + 1, " ");
	return strncmp(line, table, n) == 0 && (line[n] == ' ' || line[n] == '\0');
}

/* The counts the stream declared against the rows it holds: 0, or
 * RT_EBAD with the reason in err. */
static int
declared(const struct rd *d, size_t said, char *err, size_t errlen)
{
	const struct rt_pers *p = d->p;
	const char *path = rt_rpath(d->r);
	size_t i;
	int k;

	for (k = 0; k < NTABLES; k++)
		if (!d->seen[k])
			return snprintf(err, errlen, "%s: no %.*s table", path,
			    (int)strcspn(tables[k] + 10, " "), tables[k] + 10), RT_EBAD;
	if (p->npoints == 0)
		return snprintf(err, errlen, "%s: no points in the pointmap table", path), RT_EBAD;
	if (p->npoints != said)	/* before nvert sizes anything */
		return snprintf(err, errlen, "%s: the '# persist' line says %zu points, the "
		    "pointmap table has %zu", path, said, p->npoints), RT_EBAD;
	for (i = 0; i < p->ncls; i++)
		if (p->cls[i].nz == 0)
			return snprintf(err, errlen, "%s: class %zu has no cocycle", path, i + 1),
			    RT_EBAD;
		else if (p->cls[i].nz != d->nz[i])
			return snprintf(err, errlen, "%s: truncated: class %zu's row says %zu "
			    "cocycle edges, the cocycles table has %zu", path, p->cls[i].rank,
			    d->nz[i], p->cls[i].nz), RT_EBAD;
	if (d->edges != UINT64_MAX && d->edges != d->ne)	/* cut in its last table */
		return snprintf(err, errlen, "%s: truncated: the '# persist' line says %" PRIu64
		    " edges, the edges table has %zu", path, d->edges, d->ne), RT_EBAD;
	return 0;
}

/* A "#reftrace TABLE" line: the table that starts (NTABLES: one this
 * version does not know, skipped), or RT_EBAD, RT_ENOMEM. */
static int
table(struct rd *d, const char *s, int t)
{
	struct rt_pers *p = d->p;
	int k;

	for (k = 0; k < NTABLES && !sametable(s, tables[k]); k++)
		;
	if (k < NTABLES && (p->modulus == 0 || k <= t || d->seen[k]))
		return rt_rbad(d->r, "%s", p->modulus == 0 ? "a table before the '# persist' "
		    "line" : "tables out of order"), RT_EBAD;
	if (k == T_COCYCLES) {	/* a cocycle's capacity per class */
		free(d->capz);
		if ((d->capz = calloc(p->ncls + 1, sizeof *d->capz)) == NULL)
			return RT_ENOMEM;
	}
	if (k < NTABLES)
		d->seen[k] = 1;
	return k;
}

/* One view's stream: 0, or RT_EBAD, RT_ENOMEM with the reason in err
 * and nothing to free. */
static int
readview(struct rt_pers *p, struct rt_reader *r, char *err, size_t errlen)
{
	struct rd d = { .r = r, .p = p, .edges = UINT64_MAX };
	size_t i, n, said = 0;
	char *s;
	int t = -1, e = 0;

	memset(p, 0, sizeof *p);
	p->owned = 1;
	p->upto = -1;
	if (rt_rexpect(r, RT_STREAM_PERSISTENCE)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return RT_EBAD;
	}
	rt_rgetline(r, &n);	/* the header */
	/* another view's stream may follow: it is the next call's */
	while (!(d.seen[T_EDGES] && rt_rpeek(r, "#reftrace persistence ")) &&
	    (s = rt_rgetline(r, &n)) != NULL) {
		if (strncmp(s, META, strlen(META)) == 0 && t < 0) {
			if ((e = meta(&d, s)) != 0)
				goto bad;
			said = p->npoints;
			p->npoints = 0;	/* the pointmap's rows count them */
		} else if (strncmp(s, "#reftrace ", 10) == 0) {
			if ((e = t = table(&d, s, t)) < 0)
				goto bad;
		} else if (*s != '#' && t >= 0 && t != NTABLES && (e = row(&d, t, s)) != 0)
			goto bad;
	}
	if (*rt_rerror(r)) {
		e = RT_EBAD;
		goto bad;
	}
	if ((e = declared(&d, said, err, errlen)) != 0)
		goto fail;
	if (rt_graph_from_edges(&p->g, p->nvert, d.e, d.ne, INFINITY)) {
		e = RT_ENOMEM;
		goto bad;
	}
	for (i = 1; i < d.ne; i++)	/* sorted now: a repeat is a neighbour */
		if (d.e[i].i == d.e[i - 1].i && d.e[i].j == d.e[i - 1].j) {
			snprintf(err, errlen, "%s: the edge %" PRIu32 " %" PRIu32 " twice",
			    rt_rpath(r), d.e[i].i, d.e[i].j);
			e = RT_EBAD;
			goto fail;
		}
	p->g.thresh = (float)p->threshold;
	free(d.e);
	free(d.capz);
	free(d.nz);
	return 0;
bad:
	if (e == RT_ENOMEM)
		snprintf(err, errlen, "%s: %s", rt_rpath(r), strerror(ENOMEM));
	else
		snprintf(err, errlen, "%s", rt_rerror(r));
fail:
	free(d.e);
	free(d.capz);
	free(d.nz);
	rt_pers_free(p);
	return e;
}

int
rt_pers_readall(struct rt_pers *p, size_t *nview, struct rt_reader *r, char *err,
    size_t errlen)
{
	size_t k, i, j, m;
	int e = 0;

	for (*nview = 0; *nview == 0 || rt_rpeek(r, "#reftrace persistence "); (*nview)++) {
		if (*nview == RT_MAXVIEW) {
			snprintf(err, errlen, "%s: more than %d views", rt_rpath(r), RT_MAXVIEW);
			goto fail;
		}
		if ((e = readview(&p[*nview], r, err, errlen)) != 0)
			goto fail;
	}
	for (k = 1; k < *nview; k++)	/* one rank, one class, in any view */
		for (i = 0; i < p[k].ncls; i++)
			for (m = 0; m < k; m++)
				for (j = 0; j < p[m].ncls; j++)
					if (p[k].cls[i].rank == p[m].cls[j].rank) {
						snprintf(err, errlen, "%s: class %zu in two views",
						    rt_rpath(r), p[k].cls[i].rank);
						goto fail;
					}
	return 0;
fail:
	for (k = 0; k < *nview; k++)
		rt_pers_free(&p[k]);
	*nview = 0;
	return e ? e : RT_EBAD;
}
