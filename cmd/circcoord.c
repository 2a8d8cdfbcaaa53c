/* circcoord: circular coordinates from persistent cocycles (de Silva et al.). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "topo.h"
#include "util.h"

static double eflag = -1, fflag = 0.5;
static int rflag, Wflag;
static const char *oflag;

static FILE *fo;

/* What persist wrote. */
struct cls { long rank; double birth, death, scale; };
struct edge { uint32_t i, j; double d; };
struct pt { uint32_t vert; char *rest; };	/* rest: "seq loc func region" */
struct coc { long rank; uint32_t i, j; uint32_t c; };

static struct cls *cls;
static struct edge *edges;
static struct pt *pts;
static struct coc *cocs;
static size_t ncls, nedges, npts, ncocs, nvert;
static size_t capcls, capedges, cappts, capcocs;
static unsigned modulus;

enum { O_CLASS = U_LONG, O_FRACTION, O_RADIANS, O_SCALE };
static const struct u_opt opts[] = {
	U_OPT_OUTPUT,
	{ 'W', "weighted", NULL, "weight edges by the points their vertices stand for" },
	{ O_CLASS, "class", "ranks", "the classes, by rank: 1,2,... (1)" },
	{ O_FRACTION, "fraction", "f", "the scale, this far from birth to death (0.5)" },
	{ O_RADIANS, "radians", NULL, "angles in radians, not turns" },
	{ O_SCALE, "scale", "eps", "the scale of every class" },
	{ 0 }
};
static const struct u_prog prog = { "circcoord", "[file]", opts, NULL };

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? 2 * *cap : 256;
	if ((p = realloc(p, *cap * size)) == NULL)
		u_die(1, "out of memory");
	return p;
}

static int
parsenum(const char *s, double *v)
{
	char *end;

	if (strcmp(s, "inf") == 0) {
		*v = INFINITY;
		return 0;
	}
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno == ERANGE;
}

static void
readstream(const char *path)
{
	char ebuf[1024], *s, *f[8], *p;
	struct rt_reader *r;
	size_t len;
	int nf, table = -1, seen = 0;
	double a[4];
	uint64_t u[3];
	enum { T_CLASSES, T_COCYCLES, T_POINTMAP, T_EDGES, T_OTHER };

	if ((r = rt_ropen(path, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	while ((s = rt_rgetline(r, &len)) != NULL) {
		if (!seen) {
			if (strncmp(s, "#reftrace persistence 1", 23) != 0)
				u_die(1, "%s", rt_rbad(r, "not a persistence stream "
				    "(want '#reftrace persistence 1', as persist writes)"));
			seen = 1;
			continue;
		}
		if (strncmp(s, "# persist ", 10) == 0 && (p = strstr(s, " modulus=")) != NULL)
			modulus = (unsigned)strtoul(p + 9, NULL, 10);
		if (strncmp(s, "#reftrace ", 10) == 0) {
			table = strncmp(s + 10, "classes ", 8) == 0 ? T_CLASSES :
			    strncmp(s + 10, "cocycles ", 9) == 0 ? T_COCYCLES :
			    strncmp(s + 10, "pointmap ", 9) == 0 ? T_POINTMAP :
			    strncmp(s + 10, "edges ", 6) == 0 ? T_EDGES : T_OTHER;
			continue;
		}
		if (*s == '#' || table < 0 || table == T_OTHER)
			continue;
		if (table == T_POINTMAP) {
			p = s + strcspn(s, " \t");
			if (*p)
				*p++ = '\0';
			if (rt_parse_u64(s, &u[0]) || u[0] >= UINT32_MAX)
				u_die(1, "%s", rt_rbad(r, "bad vertex"));
			pts = grow(pts, &cappts, npts + 1, sizeof *pts);
			pts[npts].vert = (uint32_t)u[0];
			if ((pts[npts++].rest = strdup(p)) == NULL)
				u_die(1, "out of memory");
			if (u[0] + 1 > nvert)
				nvert = u[0] + 1;
			continue;
		}
		nf = 0;
		for (p = strtok(s, " \t"); p && nf < 8; p = strtok(NULL, " \t"))
			f[nf++] = p;
		switch (table) {
		case T_CLASSES:
			if (nf != 5 || parsenum(f[0], &a[0]) || parsenum(f[1], &a[1]) ||
			    parsenum(f[2], &a[2]) || parsenum(f[3], &a[3]))
				u_die(1, "%s", rt_rbad(r, "bad class row"));
			cls = grow(cls, &capcls, ncls + 1, sizeof *cls);
			cls[ncls].rank = (long)a[0];
			cls[ncls].birth = a[1];
			cls[ncls].death = a[2];
			cls[ncls++].scale = a[3];
			break;
		case T_COCYCLES:
			if (nf != 4 || rt_parse_u64(f[0], &u[0]) || rt_parse_u64(f[1], &u[1]) ||
			    rt_parse_u64(f[2], &u[2]) || parsenum(f[3], &a[0]) ||
			    u[1] >= u[2] || u[2] >= UINT32_MAX)
				u_die(1, "%s", rt_rbad(r, "bad cocycle row"));
			cocs = grow(cocs, &capcocs, ncocs + 1, sizeof *cocs);
			cocs[ncocs].rank = (long)u[0];
			cocs[ncocs].i = (uint32_t)u[1];
			cocs[ncocs].j = (uint32_t)u[2];
			cocs[ncocs++].c = (uint32_t)a[0];
			break;
		case T_EDGES:
			if (nf != 3 || rt_parse_u64(f[0], &u[0]) || rt_parse_u64(f[1], &u[1]) ||
			    parsenum(f[2], &a[0]) || u[0] >= u[1] || u[1] >= UINT32_MAX)
				u_die(1, "%s", rt_rbad(r, "bad edge row"));
			edges = grow(edges, &capedges, nedges + 1, sizeof *edges);
			edges[nedges].i = (uint32_t)u[0];
			edges[nedges].j = (uint32_t)u[1];
			edges[nedges++].d = a[0];
			if (u[1] + 1 > nvert)
				nvert = u[1] + 1;
			break;
		}
	}
	if (*rt_rerror(r))
		u_die(1, "%s", rt_rerror(r));
	if (!seen)
		u_die(1, "%s: empty: not a persistence stream", rt_rpath(r));
	if (modulus < 2 || !rt_prime(modulus))
		u_die(1, "%s: no modulus in the '# persist' line", rt_rpath(r));
	if (npts == 0)
		u_die(1, "%s: no pointmap table: no points", rt_rpath(r));
	rt_rclose(r);
}

/* The 1-skeleton at the scale: rows of neighbours with the edge's index. */
struct graph { size_t *off; uint32_t *nb, *eid; };

static size_t
skeleton(struct graph *g, double eps)
{
	size_t i, k = 0, *fill;

	if ((g->off = calloc(nvert + 1, sizeof *g->off)) == NULL ||
	    (fill = malloc((nvert + 1) * sizeof *fill)) == NULL)
		u_die(1, "out of memory");
	for (i = 0; i < nedges; i++)
		if (edges[i].d <= eps) {
			g->off[edges[i].i + 1]++;
			g->off[edges[i].j + 1]++;
			k++;
		}
	for (i = 0; i < nvert; i++)
		g->off[i + 1] += g->off[i];
	if ((g->nb = malloc((g->off[nvert] + 1) * sizeof *g->nb)) == NULL ||
	    (g->eid = malloc((g->off[nvert] + 1) * sizeof *g->eid)) == NULL)
		u_die(1, "out of memory");
	memcpy(fill, g->off, nvert * sizeof *fill);
	/* persist writes edges with i ascending, j ascending: rows sorted */
	for (i = 0; i < nedges; i++)
		if (edges[i].d <= eps) {
			g->nb[fill[edges[i].i]] = edges[i].j;
			g->eid[fill[edges[i].i]++] = (uint32_t)i;
		}
	for (i = 0; i < nedges; i++)
		if (edges[i].d <= eps) {
			g->nb[fill[edges[i].j]] = edges[i].i;
			g->eid[fill[edges[i].j]++] = (uint32_t)i;
		}
	free(fill);
	return k;
}

static int
byij(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;

	if (p->i != q->i)
		return p->i < q->i ? -1 : 1;
	return p->j < q->j ? -1 : p->j > q->j;
}

/* Triangles i < j < k of the skeleton: for each, the edge ids. */
typedef void trifn(uint32_t e1, uint32_t e2, uint32_t e3, void *ctx);

static void
triangles(const struct graph *g, trifn *fn, void *ctx)
{
	size_t a, b, c, ea, eb;
	uint32_t i, j;

	for (i = 0; i < nvert; i++)
		for (a = g->off[i]; a < g->off[i + 1]; a++) {
			if ((j = g->nb[a]) < i)
				continue;
			/* common neighbours k > j of i and j */
			b = g->off[i], eb = g->off[i + 1];
			c = g->off[j], ea = g->off[j + 1];
			while (b < eb && c < ea) {
				if (g->nb[b] < g->nb[c])
					b++;
				else if (g->nb[b] > g->nb[c])
					c++;
				else {
					if (g->nb[b] > j)
						fn(g->eid[a], g->eid[c], g->eid[b], ctx);
					b++, c++;
				}
			}
		}
}

struct lift { long *z; size_t bad; long p; };

/* z(ij) + z(jk) - z(ik) over the integers */
static void
countbad(uint32_t ij, uint32_t jk, uint32_t ik, void *ctx)
{
	struct lift *l = ctx;

	if (l->z[ij] + l->z[jk] - l->z[ik] != 0)
		l->bad++;
}

/* DREiMac's repair, greedily: move an edge of a failing triangle to its
 * other lift (c - p or c + p) when that fixes the triangle. */
static void
repair(uint32_t ij, uint32_t jk, uint32_t ik, void *ctx)
{
	struct lift *l = ctx;
	long s = l->z[ij] + l->z[jk] - l->z[ik];

	if (s == 0 || s % l->p)
		return;
	if (labs(l->z[ik] + s) <= l->p)
		l->z[ik] += s;
	else if (labs(l->z[ij] - s) <= l->p)
		l->z[ij] -= s;
	else if (labs(l->z[jk] - s) <= l->p)
		l->z[jk] -= s;
}

static uint32_t
root(uint32_t *up, uint32_t v)
{
	while (up[v] != v)
		v = up[v] = up[up[v]];
	return v;
}

struct result {
	double *theta;		/* per vertex, turns; NAN if isolated */
	double winding, residual;
	size_t components, isolated, edges, badlift;
	double eps;
};

/* Least squares min |z - df|_W by conjugate gradients on the weighted
 * graph Laplacian with a Jacobi preconditioner; theta = f mod 1. */
static int
solve(const struct graph *g, const double *z, const double *w, double *f)
{
	size_t n = nvert, v, k, it;
	double *b, *r, *pp, *q, *dg, *zz, rz, rz1, alpha, bn = 0, pq;

	if ((b = calloc(n, sizeof *b)) == NULL || (r = calloc(n, sizeof *r)) == NULL ||
	    (pp = calloc(n, sizeof *pp)) == NULL || (q = calloc(n, sizeof *q)) == NULL ||
	    (dg = calloc(n, sizeof *dg)) == NULL || (zz = calloc(n, sizeof *zz)) == NULL)
		u_die(1, "out of memory");
	for (v = 0; v < n; v++)
		for (k = g->off[v]; k < g->off[v + 1]; k++) {
			uint32_t e = g->eid[k];
			/* edge i -> j: (df)_e = f_j - f_i; d^T y at j is +y, at i -y */
			b[v] += w[e] * (edges[e].j == v ? z[e] : -z[e]);
			dg[v] += w[e];
		}
	for (v = 0; v < n; v++) {
		f[v] = 0;
		r[v] = b[v];
		bn += b[v] * b[v];
		zz[v] = dg[v] > 0 ? r[v] / dg[v] : 0;
		pp[v] = zz[v];
	}
	rz = 0;
	for (v = 0; v < n; v++)
		rz += r[v] * zz[v];
	for (it = 0; it < 10 * n + 100 && rz > 0; it++) {
		double rn = 0;

		for (v = 0; v < n; v++) {
			q[v] = dg[v] * pp[v];
			for (k = g->off[v]; k < g->off[v + 1]; k++)
				q[v] -= w[g->eid[k]] * pp[g->nb[k]];
		}
		for (pq = 0, v = 0; v < n; v++)
			pq += pp[v] * q[v];
		if (pq <= 0)
			break;
		alpha = rz / pq;
		for (v = 0; v < n; v++) {
			f[v] += alpha * pp[v];
			r[v] -= alpha * q[v];
			rn += r[v] * r[v];
		}
		if (rn <= 1e-24 * bn)
			break;
		for (rz1 = 0, v = 0; v < n; v++) {
			zz[v] = dg[v] > 0 ? r[v] / dg[v] : 0;
			rz1 += r[v] * zz[v];
		}
		for (v = 0; v < n; v++)
			pp[v] = zz[v] + rz1 / rz * pp[v];
		rz = rz1;
	}
	free(b);
	free(r);
	free(pp);
	free(q);
	free(dg);
	free(zz);
	return 0;
}

static void
coordinate(const struct cls *c, struct result *res)
{
	struct graph g;
	struct lift l;
	double *z, *w, *f, num = 0, den = 0, d, prev;
	size_t i, v, mult;
	size_t *count;
	uint32_t *up;
	int pass;

	memset(res, 0, sizeof *res);
	if (eflag >= 0)
		res->eps = eflag;
	else {	/* fflag of the way from birth to death, down to an edge value;
		 * alive at the threshold, its death is unknown: its birth */
		double top = isinf(c->death) ? c->scale : c->death, want;

		want = isinf(c->death) ? c->birth : c->birth + fflag * (top - c->birth);
		res->eps = c->birth;
		for (i = 0; i < nedges; i++)
			if (edges[i].d <= want && edges[i].d < top && edges[i].d > res->eps)
				res->eps = edges[i].d;
	}
	if (res->eps < c->birth || (!isinf(c->death) && res->eps >= c->death))
		u_warn("class %ld: scale %g is outside [%g, %g), where the cocycle is a "
		    "nonzero class", c->rank, res->eps, c->birth, c->death);
	if (res->eps > c->scale)
		u_warn("class %ld: scale %g is beyond %g, the largest persist gave "
		    "edges for", c->rank, res->eps, c->scale);
	res->edges = skeleton(&g, res->eps);
	if ((l.z = calloc(nedges + 1, sizeof *l.z)) == NULL ||
	    (z = calloc(nedges + 1, sizeof *z)) == NULL ||
	    (w = calloc(nedges + 1, sizeof *w)) == NULL ||
	    (f = calloc(nvert + 1, sizeof *f)) == NULL ||
	    (res->theta = malloc((nvert + 1) * sizeof *res->theta)) == NULL ||
	    (count = calloc(nvert + 1, sizeof *count)) == NULL ||
	    (up = malloc((nvert + 1) * sizeof *up)) == NULL)
		u_die(1, "out of memory");
	/* the lift: coefficients in (-p/2, p/2] */
	l.p = modulus;
	for (i = 0; i < ncocs; i++) {
		struct edge key = { cocs[i].i, cocs[i].j, 0 }, *e;

		if (cocs[i].rank != c->rank)
			continue;
		if ((e = bsearch(&key, edges, nedges, sizeof *edges, byij)) == NULL)
			u_die(1, "class %ld: cocycle edge %" PRIu32 "-%" PRIu32
			    " is not in the edges table", c->rank, key.i, key.j);
		if (e->d <= res->eps)
			l.z[e - edges] = cocs[i].c > modulus / 2 ? (long)cocs[i].c - modulus :
			    (long)cocs[i].c;
	}
	for (pass = 0; pass < 20; pass++) {
		l.bad = 0;
		triangles(&g, countbad, &l);
		if (l.bad == 0)
			break;
		triangles(&g, repair, &l);
	}
	res->badlift = l.bad;
	for (v = 0; v < npts; v++)
		count[pts[v].vert]++;
	for (i = 0; i < nedges; i++) {
		z[i] = (double)l.z[i];
		mult = Wflag ? count[edges[i].i] * count[edges[i].j] : 1;
		w[i] = edges[i].d <= res->eps ? (double)mult : 0;
	}
	solve(&g, z, w, f);
	for (i = 0; i < nedges; i++)
		if (w[i] > 0) {
			d = z[i] - (f[edges[i].j] - f[edges[i].i]);
			num += w[i] * d * d;
			den += w[i] * z[i] * z[i];
		}
	res->residual = den > 0 ? sqrt(num / den) : 0;
	for (v = 0; v < nvert; v++)
		up[v] = (uint32_t)v;
	for (i = 0; i < nedges; i++)
		if (w[i] > 0)
			up[root(up, edges[i].i)] = root(up, edges[i].j);
	for (v = 0; v < nvert; v++) {
		if (g.off[v] == g.off[v + 1]) {
			res->theta[v] = NAN;
			if (count[v])
				res->isolated++;
			continue;
		}
		if (root(up, (uint32_t)v) == v)
			res->components++;
		res->theta[v] = f[v] - floor(f[v]);
	}
	/* the winding number along time: wrapped increments summed */
	prev = NAN;
	for (v = 0; v < npts; v++) {
		double t = res->theta[pts[v].vert];

		if (isnan(t))
			continue;
		if (!isnan(prev)) {
			d = t - prev;
			res->winding += d - floor(d + 0.5);
		}
		prev = t;
	}
	free(l.z);
	free(z);
	free(w);
	free(f);
	free(count);
	free(up);
	free(g.off);
	free(g.nb);
	free(g.eid);
}

int
main(int argc, char *argv[])
{
	long *want = NULL, k;
	size_t nwant = 0, i, j, v;
	struct result *res;
	char *s, *end;
	int ch;

	while ((ch = u_getopt(argc, argv, &prog)) != -1) {
		switch (ch) {
		case O_CLASS:
			for (s = strtok(optarg, ","); s; s = strtok(NULL, ",")) {
				errno = 0;
				k = strtol(s, &end, 10);
				if (*end || k < 1 || errno)
					u_bad("--class %s: want ranks like 1,2", s);
				if ((want = realloc(want, (nwant + 1) * sizeof *want)) == NULL)
					u_die(1, "out of memory");
				want[nwant++] = k;
			}
			break;
		case O_SCALE:
			if (rt_parse_double(optarg, &eflag) || eflag < 0)
				u_bad("--scale %s: bad scale", optarg);
			break;
		case O_FRACTION:
			if (rt_parse_double(optarg, &fflag) || fflag < 0 || fflag >= 1)
				u_bad("--fraction %s: want a fraction in [0, 1)", optarg);
			break;
		case 'o': oflag = optarg; break;
		case O_RADIANS: rflag = 1; break;
		case 'W': Wflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	readstream(argc ? argv[0] : "-");
	qsort(edges, nedges, sizeof *edges, byij);
	if (nwant == 0) {
		if ((want = malloc(sizeof *want)) == NULL)
			u_die(1, "out of memory");
		want[nwant++] = 1;
	}
	if ((res = calloc(nwant, sizeof *res)) == NULL)
		u_die(1, "out of memory");
	for (i = 0; i < nwant; i++) {
		for (j = 0; j < ncls && cls[j].rank != want[i]; j++)
			;
		if (j == ncls)
			u_die(1, "class %ld: persist wrote no cocycle for it (%zu classes; "
			    "persist --classes gives more)", want[i], ncls);
		coordinate(&cls[j], &res[i]);
		if (res[i].badlift) {
			u_warn("class %ld: the cocycle does not lift to an integer cocycle "
			    "at scale %g (%zu triangles fail); try another scale (--scale, --fraction) "
			    "or another prime (persist --modulus)", want[i], res[i].eps, res[i].badlift);
			u_status = 1;
		}
		if (res[i].components > 1)
			u_warn("class %ld: the skeleton at scale %g has %zu components: "
			    "theta is fixed only up to a rotation in each", want[i],
			    res[i].eps, res[i].components);
		if (res[i].isolated)
			u_warn("class %ld: %zu vertices have no edge at scale %g: their "
			    "theta is nan", want[i], res[i].isolated, res[i].eps);
	}
	fo = u_open(oflag);
	fprintf(fo, "#reftrace coordinates 1\n# circcoord units=%s\n",
	    rflag ? "radians" : "turns");
	fprintf(fo, "#reftrace circles 1 column rank birth death scale edges "
	    "components isolated winding residual\n");
	for (i = 0; i < nwant; i++) {
		for (j = 0; cls[j].rank != want[i]; j++)
			;
		fprintf(fo, "theta%zu %ld %g %g %g %zu %zu %zu %.3f %.4f\n", i + 1, want[i],
		    cls[j].birth, cls[j].death, res[i].eps, res[i].edges,
		    res[i].components, res[i].isolated, res[i].winding, res[i].residual);
	}
	fprintf(fo, "#reftrace theta 1 point vertex seq loc func region");
	for (i = 0; i < nwant; i++)
		fprintf(fo, " theta%zu", i + 1);
	fputc('\n', fo);
	for (v = 0; v < npts; v++) {
		fprintf(fo, "%zu %" PRIu32 " %s", v, pts[v].vert, pts[v].rest);
		for (i = 0; i < nwant; i++) {
			double t = res[i].theta[pts[v].vert];

			if (isnan(t))
				fprintf(fo, " nan");
			else
				fprintf(fo, " %.6f", rflag ? 2 * M_PI * t : t);
		}
		fputc('\n', fo);
	}
	u_close(fo, oflag);
	for (i = 0; i < nwant; i++)
		free(res[i].theta);
	free(res);
	free(want);
	return u_status;
}
