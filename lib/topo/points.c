/* points.c: the points stream (tswindow writes it, persist reads it):
 * one window a line, identical windows merged into one vertex. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* The columns before the window's own: seq and where it starts. */
#define POINTS_COLS "seq loc func region"

/* The letters of the views' columns: s1 ... sw, then t1 ... tw. */
static const char viewcol[RT_MAXVIEW] = { 's', 't' };

int
rt_points_head(FILE *f, int numeric, int w, int nview, const char *about)
{
	char magic[64];
	int k, v;

	fprintf(f, "%s %s", rt_stream_magic(RT_STREAM_POINTS, magic, sizeof magic), POINTS_COLS);
	for (v = 0; v < (numeric ? 1 : nview); v++)
		for (k = 1; k <= w; k++)
			fprintf(f, " %c%d", numeric ? 'x' : viewcol[v], k);
	putc('\n', f);
	if (about != NULL)
		fprintf(f, "# %s\n", about);
	return ferror(f) ? RT_EIO : 0;
}

/* A line a window, built in the caller's buffer and written with one
 * call: a stdio call a field was most of tswindow's time. */
char *
rt_points_begin(char *p, uint64_t seq, const char *loc, const char *func, const char *region)
{
	p += rt_fmt_u64(p, seq);
	p = rt_points_text(p, loc, loc ? strlen(loc) : 0);
	p = rt_points_text(p, func, func ? strlen(func) : 0);
	return rt_points_text(p, region, region ? strlen(region) : 0);
}

char *
rt_points_num(char *p, double x)
{
	return p + snprintf(p, RT_POINTS_NUM, " %.17g", x);
}

char *
rt_points_end(char *p)
{
	*p++ = '\n';
	return p;
}

int
rt_pointmap_add(struct rt_pointmap *m, uint32_t vert, uint64_t seq,
    const char *loc, const char *func, const char *region)
{
	size_t c = m->cap ? 2 * m->cap : 1024;
	uint32_t l, f, r;
	void *q;

	if (m->n == m->cap) {
#define GROW(a) if ((q = realloc(a, c * sizeof *(a))) == NULL) return RT_ENOMEM; a = q
		GROW(m->vert);
		GROW(m->seq);
		GROW(m->loc);
		GROW(m->func);
		GROW(m->region);
#undef GROW
		m->cap = c;
	}
	if ((l = rt_str_intern(loc, strlen(loc))) == RT_NOMEM ||
	    (f = rt_str_intern(func, strlen(func))) == RT_NOMEM ||
	    (r = rt_str_intern(region, strlen(region))) == RT_NOMEM)
		return RT_ENOMEM;
	m->vert[m->n] = vert;
	m->seq[m->n] = seq;
	m->loc[m->n] = l;
	m->func[m->n] = f;
	m->region[m->n++] = r;
	return 0;
}

void
rt_pointmap_free(struct rt_pointmap *m)
{
	free(m->vert);
	free(m->seq);
	free(m->loc);
	free(m->func);
	free(m->region);
	memset(m, 0, sizeof *m);
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

/* Identical windows: vertex ids (row + 1) by content. */
struct rows { const char *p; size_t len; };

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

static uint64_t
rowhash(const void *ctx, uint32_t id)
{
	const struct rows *r = ctx;

	return content_hash(r->p + (id - 1) * r->len, r->len);
}

static int
rowis(const void *ctx, uint32_t id, const void *row)
{
	const struct rows *r = ctx;

	return memcmp(r->p + (id - 1) * r->len, row, r->len) == 0;
}

/* The vertex of the content at row (the last row added), merging it with
 * an equal earlier row: returns its vertex id, or -1 out of memory. */
static long
dedup(struct rt_idtab *t, const char *rows, size_t rowlen, size_t row)
{
	struct rows r = { rows, rowlen };
	const char *p = rows + row * rowlen;
	uint64_t h = content_hash(p, rowlen);
	uint32_t id;

	if ((id = rt_idtab_find(t, h, p, rowis, &r)) != 0)
		return (long)id - 1;
	if (rt_idtab_add(t, h, (uint32_t)row + 1, rowhash, &r))
		return -1;
	return (long)row;
}

static int
oom(char *err, size_t errlen, const char *path)
{
	snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	return -1;
}

/* The header's columns after region: w of the first view's letter, then
 * w of each further view's; 0 and the view count, or -1. */
static int
header(char **f, int nf, int *w, int *nview, int *numeric)
{
	int k, v, n;

	if (nf < 8 || strcmp(f[3], "seq") || (f[7][0] != 's' && f[7][0] != 'x'))
		return -1;
	*numeric = f[7][0] == 'x';
	for (k = 7; k < nf && f[k][0] == f[7][0]; k++)
		;
	*w = k - 7;
	if (*w > 1024 || (nf - 7) % *w != 0 || (n = (nf - 7) / *w) > RT_MAXVIEW ||
	    (*numeric && n > 1))
		return -1;
	for (v = 1; v < n; v++)
		for (k = 0; k < *w; k++)
			if (f[7 + v * *w + k][0] != viewcol[v])
				return -1;
	*nview = n;
	return 0;
}

/* A points stream being read: a cloud a view, its rows and their
 * table of distinct rows. */
struct cread {
	struct grow rows[RT_MAXVIEW];
	struct rt_idtab dd[RT_MAXVIEW];
	struct rt_cloud *view[RT_MAXVIEW];
	size_t rowlen, vrow[RT_MAXVIEW];
	int dim, nview, numeric;
};

/* The header line s: the views' clouds made.  0, RT_EBAD, RT_ENOMEM. */
static int
start(struct cread *st, struct rt_reader *r, char *s)
{
	char *f[2 * 1024 + 8];
	int nf = 0, k;

	for (s = strtok(s, " \t"); s && nf < (int)(sizeof f / sizeof f[0]); s = strtok(NULL, " \t"))
		f[nf++] = s;
	if (header(f, nf, &st->dim, &st->nview, &st->numeric)) {
		rt_rbad(r, "bad points header");
		return RT_EBAD;
	}
	for (k = 1; k < st->nview; k++)
		if ((st->view[k] = st->view[k - 1]->next = calloc(1, sizeof *st->view[k])) == NULL)
			return RT_ENOMEM;
	st->rowlen = (size_t)st->dim * (st->numeric ? sizeof(double) : sizeof(uint32_t));
	for (k = 0; k < st->nview; k++) {
		st->view[k]->numeric = st->numeric;
		st->view[k]->dim = st->dim;
		st->rows[k].size = st->rowlen;
	}
	return 0;
}

/* A point's row in each view, of its nf fields f: its vertex the first
 * equal row's.  0, RT_EBAD (nothing kept), RT_ENOMEM. */
static int
point(struct cread *st, struct rt_reader *r, char **f, int nf)
{
	int i, k, dim = st->dim, want = st->nview * dim + 4;
	uint64_t sq;
	void *row;
	double x;
	long v;

	if (nf != want || rt_parse_u64(f[0], &sq)) {
		rt_rbad(r, nf != want ? "%d columns, the header says %d" : "bad seq", nf, want);
		return RT_EBAD;
	}
	for (k = 0; k < st->nview; k++)
		if (grow(&st->rows[k], 1) == NULL) {
			while (k-- > 0)
				st->rows[k].n--;
			return RT_ENOMEM;
		}
	for (k = 0; k < st->nview; k++) {
		row = (char *)st->rows[k].p + (st->rows[k].n - 1) * st->rowlen;
		for (i = 0; i < dim; i++) {
			if (!st->numeric) {
				((uint32_t *)row)[i] = rt_str_intern(f[4 + k * dim + i],
				    strlen(f[4 + k * dim + i]));
				continue;
			}
			if (rt_parse_double(f[4 + i], &x)) {
				rt_rbad(r, "%s: not a number", f[4 + i]);
				for (k = 0; k < st->nview; k++)	/* the row is not kept */
					st->rows[k].n--;
				return RT_EBAD;
			}
			if (fabs(x) > rt_coord_max((size_t)dim)) {
				rt_rbad(r, "%s: distances would exceed single precision "
				    "(at most %g in %d dimensions)", f[4 + i], rt_coord_max((size_t)dim), dim);
				for (k = 0; k < st->nview; k++)
					st->rows[k].n--;
				return RT_EBAD;
			}
			((double *)row)[i] = x;
		}
	}
	for (k = 0; k < st->nview; k++) {
		if ((v = dedup(&st->dd[k], st->rows[k].p, st->rowlen, st->rows[k].n - 1)) < 0)
			return RT_ENOMEM;
		if ((size_t)v != st->rows[k].n - 1)
			st->rows[k].n--;	/* seen before: keep the first */
		else
			st->vrow[k]++;
		if (rt_pointmap_add(&st->view[k]->pm, (uint32_t)v, sq, f[1], f[2], f[3]))
			return RT_ENOMEM;
	}
	return 0;
}

int
rt_cloud_read(struct rt_cloud *c, struct rt_reader *r, int skipbad,
    rt_diag_fn *diag, char *err, size_t errlen)
{
	struct cread st = { .view = { c }, .dim = -1, .nview = 1 };
	const char *name = rt_rpath(r);
	char *s, *f[2 * 1024 + 8];
	size_t n;
	int nf, k, rc = RT_EBAD;

	memset(c, 0, sizeof *c);
	if (rt_rexpect(r, RT_STREAM_POINTS)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return RT_EBAD;
	}
	for (;;) {
		if ((s = rt_rgetline(r, &n)) == NULL) {
			if (!rt_rmalformed(r))
				break;
			rc = RT_EBAD;	/* a NUL byte in the line */
		} else if (st.dim < 0) {
			if ((rc = start(&st, r, s)) != 0)
				goto fail;
			continue;
		} else if (*s == '#') {
			if (strncmp(s, "# tswindow ", 11) == 0 && c->about == NULL)
				for (k = 0; k < st.nview; k++)
					if ((st.view[k]->about = strdup(s + 2)) == NULL) {
						rc = RT_ENOMEM;
						goto fail;
					}
			continue;
		} else {
			nf = 0;
			for (s = strtok(s, " \t"); s && nf < st.nview * st.dim + 5;
			    s = strtok(NULL, " \t"))
				f[nf++] = s;
			if (nf == 0 || (rc = point(&st, r, f, nf)) == 0)
				continue;
		}
		if (rc != RT_EBAD || !skipbad)
			goto fail;
		diag(rt_rerror(r), 0);	/* the line skipped */
	}
	rc = RT_EBAD;
	if (rt_rfailed(r)) {
		rc = RT_EIO;
		goto fail;
	}
	if (st.dim < 0 || c->pm.n == 0) {
		snprintf(err, errlen, "%s: %s", name, st.dim < 0 ? "empty: no points header" :
		    "no points");
		goto out;
	}
	for (k = 0; k < st.nview; k++) {
		st.view[k]->n = st.view[k]->pm.n;
		st.view[k]->nv = st.vrow[k];
		if (st.numeric)
			st.view[k]->x = st.rows[k].p;
		else
			st.view[k]->sym = st.rows[k].p;
		rt_idtab_free(&st.dd[k]);
	}
	return 0;
fail:
	if (rc == RT_ENOMEM)
		oom(err, errlen, name);
	else
		snprintf(err, errlen, "%s", rt_rerror(r));
out:
	for (k = 0; k < st.nview; k++) {
		free(st.rows[k].p);
		rt_idtab_free(&st.dd[k]);
	}
	rt_cloud_free(c);
	return rc;
}

void
rt_cloud_free(struct rt_cloud *c)
{
	if (c->next != NULL) {
		rt_cloud_free(c->next);
		free(c->next);
	}
	rt_pointmap_free(&c->pm);
	free(c->sym);
	free(c->x);
	free(c->about);
	free(c->edge);
	memset(c, 0, sizeof *c);
}
