/* cloud.c: points streams, identical points merged, and their metrics. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"


static const char *metrics[] = { "levenshtein", "hamming", "euclidean" };

int
rt_metric_parse(const char *name)
{
	int i;

	for (i = 0; i < 3; i++)
		if (strcmp(name, metrics[i]) == 0)
			return i;
	return -1;
}

const char *
rt_metric_name(int m)
{
	return m >= 0 && m < 3 ? metrics[m] : "unknown";
}

/* Growable arrays, one per column kind. */
struct grow { void *p; size_t n, cap, size; };

static void *
grow(struct grow *g, size_t more)
{
	size_t cap;
	void *p;

	if (g->n + more > g->cap) {
		cap = g->cap ? g->cap : 256;
		while (cap < g->n + more)
			cap *= 2;
		if ((p = realloc(g->p, cap * g->size)) == NULL)
			return NULL;
		g->p = p;
		g->cap = cap;
	}
	p = (char *)g->p + g->n * g->size;
	g->n += more;
	return p;
}

/* Identical windows: an open-addressing table of vertex ids by content. */
struct dedup {
	uint32_t *slot;		/* vertex + 1, 0 empty */
	size_t mask, used;
};

static uint64_t
content_hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x84222325cbf29ce4ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return rt_hash64(h);
}

/* The vertex of the content at row (the last row added), merging it with
 * an equal earlier row: returns its vertex id, or -1 out of memory. */
static long
dedup(struct dedup *t, const char *rows, size_t rowlen, size_t row)
{
	uint32_t *old;
	size_t i, j, cap;
	uint64_t h;

	if (2 * (t->used + 1) > t->mask + 1) {
		old = t->slot;
		cap = t->mask ? 2 * (t->mask + 1) : 1024;
		if ((t->slot = calloc(cap, sizeof *t->slot)) == NULL) {
			t->slot = old;
			return -1;
		}
		for (i = 0; old && i <= t->mask; i++)
			if (old[i]) {
				h = content_hash(rows + (old[i] - 1) * rowlen, rowlen);
				for (j = h & (cap - 1); t->slot[j]; j = (j + 1) & (cap - 1))
					;
				t->slot[j] = old[i];
			}
		free(old);
		t->mask = cap - 1;
	}
	h = content_hash(rows + row * rowlen, rowlen);
	for (j = h & t->mask; t->slot[j]; j = (j + 1) & t->mask)
		if (memcmp(rows + (t->slot[j] - 1) * rowlen, rows + row * rowlen, rowlen) == 0)
			return t->slot[j] - 1;
	t->slot[j] = (uint32_t)row + 1;
	t->used++;
	return (long)row;
}

static int
isnum(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && errno != ERANGE && isfinite(*v);
}

static int
oom(char *err, size_t errlen, const char *path)
{
	snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	return -1;
}

int
rt_cloud_read(struct rt_cloud *c, struct rt_reader *r, int skipbad,
    rt_diag_fn *diag, char *err, size_t errlen)
{
	struct grow rows = { 0 }, seq = { .size = 8 }, loc = { .size = 4 },
	    func = { .size = 4 }, reg = { .size = 4 }, vert = { .size = 4 };
	struct dedup dd = { 0 };
	const char *name = rt_rpath(r);
	char *s, *f[1100];
	size_t n, rowlen = 0, k, vrow = 0;
	int nf, dim = -1, i;
	long v;
	double x;
	uint64_t sq;
	void *row;

	memset(c, 0, sizeof *c);
	while ((s = rt_rgetline(r, &n)) != NULL) {
		if (dim < 0) {
			if (strncmp(s, RT_POINTS_MAGIC, strlen(RT_POINTS_MAGIC)) != 0) {
				snprintf(err, errlen, "%s", rt_rbad(r, "not a points stream "
				    "(first line must be '%s...', as tswindow writes)",
				    RT_POINTS_MAGIC));
				goto fail;
			}
			nf = 0;
			for (s = strtok(s, " \t"); s && nf < 1100; s = strtok(NULL, " \t"))
				f[nf++] = s;
			dim = nf - 7;
			if (dim < 1 || dim > 1024 || strcmp(f[3], "seq") ||
			    (f[7][0] != 's' && f[7][0] != 'x')) {
				snprintf(err, errlen, "%s", rt_rbad(r, "bad points header"));
				goto fail;
			}
			c->numeric = f[7][0] == 'x';
			c->dim = dim;
			rowlen = (size_t)dim * (c->numeric ? sizeof(double) : sizeof(uint32_t));
			rows.size = rowlen;
			continue;
		}
		if (*s == '#') {
			if (strncmp(s, "# tswindow ", 11) == 0 && c->about == NULL &&
			    (c->about = strdup(s + 2)) == NULL)
				goto nomem;
			continue;
		}
		nf = 0;
		for (s = strtok(s, " \t"); s && nf < dim + 5; s = strtok(NULL, " \t"))
			f[nf++] = s;
		if (nf == 0)
			continue;
		if (nf != dim + 4 || rt_parse_u64(f[0], &sq)) {
			rt_rbad(r, nf != dim + 4 ? "%d columns, the header says %d" :
			    "bad seq", nf, dim + 4);
			goto bad;
		}
		if ((row = grow(&rows, 1)) == NULL)
			goto nomem;
		for (i = 0; i < dim; i++) {
			if (!c->numeric) {
				((uint32_t *)row)[i] = rt_str_intern(f[4 + i], strlen(f[4 + i]));
				continue;
			}
			if (!isnum(f[4 + i], &x)) {
				rows.n--;
				rt_rbad(r, "%s: not a number", f[4 + i]);
				goto bad;
			}
			((double *)row)[i] = x;
		}
		if ((v = dedup(&dd, rows.p, rowlen, rows.n - 1)) < 0)
			goto nomem;
		if ((size_t)v != rows.n - 1)
			rows.n--;	/* seen before: keep the first */
		else
			vrow++;
		if (grow(&seq, 1) == NULL || grow(&loc, 1) == NULL ||
		    grow(&func, 1) == NULL || grow(&reg, 1) == NULL || grow(&vert, 1) == NULL)
			goto nomem;
		k = seq.n - 1;
		((uint64_t *)seq.p)[k] = sq;
		((uint32_t *)loc.p)[k] = rt_str_intern(f[1], strlen(f[1]));
		((uint32_t *)func.p)[k] = rt_str_intern(f[2], strlen(f[2]));
		((uint32_t *)reg.p)[k] = rt_str_intern(f[3], strlen(f[3]));
		((uint32_t *)vert.p)[k] = (uint32_t)v;
		continue;
bad:
		if (!skipbad) {
			snprintf(err, errlen, "%s", rt_rerror(r));
			goto fail;
		}
		diag(rt_rerror(r), 0);
	}
	if (*rt_rerror(r)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		goto fail;
	}
	if (dim < 0) {
		snprintf(err, errlen, "%s: empty: no points header", name);
		goto fail;
	}
	if (seq.n == 0) {
		snprintf(err, errlen, "%s: no points", name);
		goto fail;
	}
	c->n = seq.n;
	c->nv = vrow;
	c->seq = seq.p;
	c->loc = loc.p;
	c->func = func.p;
	c->region = reg.p;
	c->vert = vert.p;
	if (c->numeric)
		c->x = rows.p;
	else
		c->sym = rows.p;
	free(dd.slot);
	return 0;
nomem:
	oom(err, errlen, name);
fail:
	free(rows.p);
	free(seq.p);
	free(loc.p);
	free(func.p);
	free(reg.p);
	free(vert.p);
	free(dd.slot);
	free(c->about);
	c->about = NULL;
	return -1;
}

void
rt_cloud_free(struct rt_cloud *c)
{
	free(c->vert);
	free(c->sym);
	free(c->x);
	free(c->seq);
	free(c->loc);
	free(c->func);
	free(c->region);
	free(c->about);
	memset(c, 0, sizeof *c);
}

int
rt_levenshtein(const uint32_t *a, const uint32_t *b, int w)
{
	uint64_t top = 1ULL << (w - 1), mask = top | (top - 1);
	uint64_t pv = mask, mv = 0, eq, xv, xh, ph, mh;
	int i, k, score = w;

	for (k = 0; k < w; k++) {
		eq = 0;
		for (i = 0; i < w; i++)
			eq |= (uint64_t)(a[i] == b[k]) << i;
		xv = eq | mv;
		xh = (((eq & pv) + pv) ^ pv) | eq;
		ph = mv | ~(xh | pv);
		mh = pv & xh;
		if (ph & top)
			score++;
		else if (mh & top)
			score--;
		ph = (ph << 1) | 1;
		mh <<= 1;
		pv = (mh | ~(xv | ph)) & mask;
		mv = ph & xv & mask;
	}
	return score;
}

/* Edit distance for windows longer than a machine word: two DP rows. */
static int
levenshtein_long(const uint32_t *a, const uint32_t *b, int w, int *row)
{
	int i, k, diag, up, best;

	for (i = 0; i <= w; i++)
		row[i] = i;
	for (k = 1; k <= w; k++) {
		diag = row[0];
		row[0] = k;
		for (i = 1; i <= w; i++) {
			up = row[i];
			best = diag + (a[i - 1] != b[k - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[i - 1] + 1 < best)
				best = row[i - 1] + 1;
			row[i] = best;
			diag = up;
		}
	}
	return row[w];
}

float *
rt_cloud_distances(const struct rt_cloud *c, int metric)
{
	size_t i, j, n = c->nv;
	int k, w = c->dim, *row = NULL;
	float *tri;
	double s, t;
	const uint32_t *a, *b;

	if ((tri = malloc((n * (n - 1) / 2 + 1) * sizeof *tri)) == NULL)
		return NULL;
	if (w > 64 && (row = malloc((w + 1) * sizeof *row)) == NULL) {
		free(tri);
		return NULL;
	}
	for (j = 1; j < n; j++) {
		float *out = tri + RT_TRI(0, j);

		for (i = 0; i < j; i++) {
			if (c->numeric) {
				s = 0;
				for (k = 0; k < w; k++) {
					t = c->x[i * w + k] - c->x[j * w + k];
					s += metric == RT_HAMMING ? (t != 0) : t * t;
				}
				out[i] = (float)(metric == RT_HAMMING ? s : sqrt(s));
				continue;
			}
			a = c->sym + i * w;
			b = c->sym + j * w;
			if (metric == RT_HAMMING) {
				for (s = 0, k = 0; k < w; k++)
					s += a[k] != b[k];
				out[i] = (float)s;
			} else if (w <= 64)
				out[i] = (float)rt_levenshtein(a, b, w);
			else
				out[i] = (float)levenshtein_long(a, b, w, row);
		}
	}
	free(row);
	return tri;
}

int
rt_graph_build(struct rt_graph *g, const float *tri, size_t n, float thresh)
{
	size_t i, j, *fill;

	memset(g, 0, sizeof *g);
	g->n = n;
	g->thresh = thresh;
	if ((g->off = calloc(n + 1, sizeof *g->off)) == NULL)
		return -1;
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++)
			if (tri[RT_TRI(i, j)] <= thresh) {
				g->off[i + 1]++;
				g->off[j + 1]++;
			}
	for (i = 0; i < n; i++)
		g->off[i + 1] += g->off[i];
	if ((g->nb = malloc((g->off[n] + 1) * sizeof *g->nb)) == NULL ||
	    (g->d = malloc((g->off[n] + 1) * sizeof *g->d)) == NULL ||
	    (fill = malloc((n + 1) * sizeof *fill)) == NULL) {
		rt_graph_free(g);
		return -1;
	}
	memcpy(fill, g->off, n * sizeof *fill);
	/* j ascending, then i ascending: every row comes out sorted */
	for (j = 1; j < n; j++)
		for (i = 0; i < j; i++) {
			float d = tri[RT_TRI(i, j)];

			if (d > thresh)
				continue;
			g->nb[fill[i]] = (uint32_t)j;
			g->d[fill[i]++] = d;
			g->nb[fill[j]] = (uint32_t)i;
			g->d[fill[j]++] = d;
		}
	free(fill);
	return 0;
}

void
rt_graph_free(struct rt_graph *g)
{
	free(g->off);
	free(g->nb);
	free(g->d);
	memset(g, 0, sizeof *g);
}
