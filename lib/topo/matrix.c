/* matrix.c: distance matrices and point clouds, as Ripser reads them. */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

double
rt_coord_max(size_t dim)
{
	return FLT_MAX / (2 * sqrt((double)(dim ? dim : 1)));
}

/* A distance single precision holds: 0, or RT_EBAD with the line named. */
static int
distance(struct rt_reader *r, double d)
{
	if (d < 0)
		return rt_rbad(r, "a negative distance"), RT_EBAD;
	if (d > FLT_MAX)
		return rt_rbad(r, "a distance of %g, beyond single precision (%g)", d, FLT_MAX), RT_EBAD;
	return 0;
}

/* A point's coordinates, that no distance between two overflows. */
static int
coords(struct rt_reader *r, const double *x, size_t dim)
{
	double big = rt_coord_max(dim);
	size_t i;

	for (i = 0; i < dim; i++)
		if (fabs(x[i]) > big)
			return rt_rbad(r, "a coordinate of %g: distances would exceed single "
			    "precision (at most %g in %zu dimensions)", x[i], big, dim), RT_EBAD;
	return 0;
}

/* Numbers separated by commas or white space, a row a line. */
static int
numbers(struct rt_reader *r, char *s, double **v, size_t *nv, size_t *cap)
{
	const char *end;
	double x;

	*nv = 0;
	for (;;) {
		s += strspn(s, " \t,");
		if (*s == '\0')
			return 0;
		end = s;
		if (rt_scan_double(&end, &x) || (*end && !strchr(" \t,", *end))) {
			rt_rbad(r, "not a number: %.*s", (int)strcspn(s, " \t,"), s);
			return RT_EBAD;
		}
		if (*nv == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			if ((*v = realloc(*v, *cap * sizeof **v)) == NULL)
				return RT_ENOMEM;
		}
		(*v)[(*nv)++] = x;
		s = (char *)end;
	}
}

/* The distances of n points, n(n-1)/2 floats, if they fit in memory. */
static float *
triangle(size_t n, float fill, char *why, size_t whylen)
{
	size_t m = n * (n - 1) / 2 + 1, i;
	float *tri;

	if (n > 1 && (n - 1 > SIZE_MAX / n / sizeof *tri ||
	    (double)m * sizeof *tri > rt_memory())) {
		snprintf(why, whylen, "%zu points: their %.0f distances need %.1f GiB, "
		    "more than the memory here", n, (double)m - 1,
		    (double)m * sizeof *tri / 0x1p30);
		return NULL;
	}
	if ((tri = malloc(m * sizeof *tri)) == NULL)
		return NULL;
	for (i = 0; i < m; i++)
		tri[i] = fill;
	return tri;
}

/* Ripser's lower-distance and upper-distance: the triangle's entries in
 * any line layout (all on one line, or a row a line), so the count alone
 * says how many points there are.  While the lines are rows (of 0 or 1,
 * then one more each; or of n-1, then one fewer each), the first that is
 * not is kept, to name it if the count turns out wrong. */
struct layout {
	size_t want, line, row, got;	/* the next row's length; the first off */
	int lines;			/* rows seen */
};

static void
rows(struct layout *l, int kind, size_t nrow, size_t line)
{
	if (l->line || (l->lines == 0 && nrow == 0 && kind == RT_MATRIX_LOWER))
		return;		/* already off; or the first row, written empty */
	if (l->lines++ == 0)
		l->want = kind == RT_MATRIX_LOWER ? 1 : nrow;
	if (nrow != l->want && l->lines > 1) {
		l->line = line;
		l->row = kind == RT_MATRIX_LOWER ? l->want + 1 : (size_t)l->lines;
		l->got = nrow;
		return;
	}
	l->want = kind == RT_MATRIX_LOWER ? nrow + 1 : nrow - (nrow > 0);
}

static int
flat(struct rt_reader *r, double *row, size_t nrow, float **v, size_t *nv,
    size_t *cap)
{
	size_t i;

	if (rt_grow(v, cap, *nv + nrow + 1, sizeof **v))
		return RT_ENOMEM;
	for (i = 0; i < nrow; i++) {
		if (distance(r, row[i]))
			return RT_EBAD;
		(*v)[(*nv)++] = (float)row[i];
	}
	return 0;
}

/* The triangle of flat's entries into *out, n from their count: 0,
 * RT_EBAD (not a triangle; one larger than the memory here) with why,
 * or RT_ENOMEM. */
static int
fromflat(int kind, const struct layout *l, float *v, size_t m, size_t *np, float **out,
    char *why, size_t whylen)
{
	size_t n = (size_t)((1 + sqrt(1 + 8.0 * (double)m)) / 2), i, j, k;
	float *tri;

	while (n > 1 && n * (n - 1) / 2 > m)
		n--;
	while (n * (n - 1) / 2 < m)
		n++;
	if (n * (n - 1) / 2 != m) {
		if (l->line)
			snprintf(why, whylen, ":%zu: row %zu has %zu entries, %s triangle "
			    "wants %zu", l->line, l->row, l->got,
			    kind == RT_MATRIX_LOWER ? "a lower" : "an upper", l->want);
		else
			snprintf(why, whylen, "%zu distances: not a triangle of any size "
			    "(n(n-1)/2 of them for n points: 1, 3, 6, 10, ...)", m);
		return RT_EBAD;
	}
	*np = n;
	if (kind == RT_MATRIX_LOWER) {	/* its order is RT_TRI's */
		*out = v;
		return 0;
	}
	if ((tri = triangle(n, 0, why, whylen)) == NULL)
		return *why ? RT_EBAD : RT_ENOMEM;
	for (i = 0, k = 0; i < n; i++)	/* d(0,1), d(0,2), ..., d(1,2), ... */
		for (j = i + 1; j < n; j++)
			tri[RT_TRI(i, j)] = v[k++];
	free(v);
	*out = tri;
	return 0;
}

/* Ripser's sparse format: "i j d" a line, the pairs not given absent. */
#define VERTEXBYTES 64
static int
sparse(struct rt_reader *r, double *row, size_t nrow, struct rt_edge **v, size_t *nv,
    size_t *cap, size_t *n)
{
	if (nrow == 0)
		return 0;
	if (nrow != 3 || row[0] != floor(row[0]) || row[1] != floor(row[1]) ||
	    row[0] < 0 || row[1] < 0 || row[0] >= UINT32_MAX || row[1] >= UINT32_MAX)
		return rt_rbad(r, "want i j distance, i and j vertices 0, 1, ..."), RT_EBAD;
	if (distance(r, row[2]))
		return RT_EBAD;
	if (row[0] == row[1])
		return 0;	/* as Ripser: no edge */
	if (rt_grow(v, cap, *nv + 1, sizeof **v))
		return RT_ENOMEM;
	(*v)[*nv].i = (uint32_t)(row[0] < row[1] ? row[0] : row[1]);
	(*v)[*nv].j = (uint32_t)(row[0] < row[1] ? row[1] : row[0]);
	(*v)[(*nv)++].d = (float)row[2];
	if ((size_t)(*v)[*nv - 1].j + 1 > *n)
		*n = (size_t)(*v)[*nv - 1].j + 1;
	return 0;
}

static int
byij(const void *a, const void *b)
{
	const struct rt_edge *x = a, *y = b;

	return x->i != y->i ? (x->i > y->i) - (x->i < y->i) : (x->j > y->j) - (x->j < y->j);
}

/* What a read holds until its end. */
struct mread {
	struct rt_reader *r;
	int kind;
	double *row, *pts;	/* a line's numbers; a cloud's points */
	size_t nrow, cap, capp;
	float *tri, *fv;	/* a square matrix's triangle; a triangle's entries */
	struct rt_edge *pv;	/* sparse pairs */
	size_t nflat, capflat;	/* of fv or pv */
	size_t n, width;	/* points (vertices) so far; a square row's length */
	struct layout lay;
	int dim;		/* a cloud's, -1 until its first point */
};

static int
cloudrow(struct mread *m)
{
	double *q;

	if (m->nrow == 0)
		return 0;
	if (m->dim < 0)
		m->dim = (int)m->nrow;
	if (m->nrow != (size_t)m->dim)
		return rt_rbad(m->r, "a point of dimension %zu, the first had %d", m->nrow,
		    m->dim), RT_EBAD;
	if (coords(m->r, m->row, m->nrow))
		return RT_EBAD;
	if ((m->n + 1) * m->dim > m->capp) {
		m->capp = m->capp ? 2 * m->capp : 1024;
		while (m->capp < (m->n + 1) * m->dim)
			m->capp *= 2;
		if ((q = realloc(m->pts, m->capp * sizeof *q)) == NULL)
			return RT_ENOMEM;
		m->pts = q;
	}
	memcpy(m->pts + m->n * m->dim, m->row, m->dim * sizeof *m->row);
	m->n++;
	return 0;
}

/* A row of a full square matrix: its lower triangle's part kept. */
static int
squarerow(struct mread *m)
{
	float *q;
	size_t i, n = m->n;

	if (m->nrow == 0)
		return 0;
	if (m->nrow != (n ? m->width : m->nrow))
		return rt_rbad(m->r, "row %zu has %zu entries, a square matrix wants %zu",
		    n + 1, m->nrow, m->width), RT_EBAD;
	if (n == 0)
		m->width = m->nrow;	/* the row length fixes the size */
	if ((q = realloc(m->tri, ((n + 1) * n / 2 + 1) * sizeof *q)) == NULL)
		return RT_ENOMEM;
	m->tri = q;
	for (i = 0; i < n; i++) {
		if (distance(m->r, m->row[i]))
			return RT_EBAD;
		m->tri[RT_TRI(i, n)] = (float)m->row[i];
	}
	m->n++;
	return 0;
}

/* A line that is not a comment: 0, RT_EBAD or RT_ENOMEM. */
static int
dataline(struct mread *m, char *s, size_t line)
{
	int k;

	if ((k = numbers(m->r, s, &m->row, &m->nrow, &m->cap)) != 0)
		return k;
	switch (m->kind) {
	case RT_MATRIX_LOWER:
	case RT_MATRIX_UPPER:
		rows(&m->lay, m->kind, m->nrow, line);
		return flat(m->r, m->row, m->nrow, &m->fv, &m->nflat, &m->capflat);
	case RT_MATRIX_SPARSE:
		return sparse(m->r, m->row, m->nrow, &m->pv, &m->nflat, &m->capflat, &m->n);
	case RT_MATRIX_CLOUD:
		return cloudrow(m);
	default:
		return squarerow(m);
	}
}

/* The whole read: checked against its kind and the memory here, into c
 * and m->tri; 0, or RT_EBAD, RT_ENOMEM with the reason in err or why
 * (the part after the path). */
static int
finish(struct mread *m, struct rt_cloud *c, char *err, size_t errlen, char *why, size_t whylen)
{
	const char *path = rt_rpath(m->r);
	size_t i;
	int k;

	if (m->kind == RT_MATRIX_LOWER || m->kind == RT_MATRIX_UPPER) {
		if ((k = fromflat(m->kind, &m->lay, m->fv, m->nflat, &m->n, &m->tri, why,
		    whylen)) != 0)
			return k;
		m->fv = NULL;
	}
	/* a sparse matrix stays its pairs: memory follows them, not n^2
	 * (Ripser keeps its neighbours likewise); each vertex costs its row
	 * of the graph, its union-find entries, its pointmap row: some 64
	 * bytes, however few its pairs */
	if (m->kind == RT_MATRIX_SPARSE && (double)m->n * VERTEXBYTES > rt_memory())
		return snprintf(err, errlen, "%s: %zu points: their vertices need %.1f GiB (the "
		    "largest vertex number sizes them), more than the memory here", path,
		    m->n, (double)m->n * VERTEXBYTES / 0x1p30), RT_EBAD;
	if (m->kind == RT_MATRIX_SPARSE && m->nflat > 1) {
		qsort(m->pv, m->nflat, sizeof *m->pv, byij);
		for (i = 1; i < m->nflat; i++)
			if (m->pv[i].i == m->pv[i - 1].i && m->pv[i].j == m->pv[i - 1].j)
				return snprintf(err, errlen, "%s: the pair %" PRIu32 " %" PRIu32
				    " twice", path, m->pv[i].i, m->pv[i].j), RT_EBAD;
	}
	if (m->kind == RT_MATRIX_DISTANCE && m->n != m->width)
		return snprintf(err, errlen, "%s: %zu rows of %zu entries: not a square matrix",
		    path, m->n, m->width), RT_EBAD;
	c->nv = c->n = m->n;
	if (m->n == 0)
		return snprintf(err, errlen, "%s: no points", path), RT_EBAD;
	if (m->kind == RT_MATRIX_CLOUD) {
		c->numeric = 1;
		c->dim = m->dim;
		c->x = m->pts;
		m->pts = NULL;
		if ((m->tri = rt_cloud_distances(c, RT_EUCLIDEAN, INFINITY)) == NULL)
			return RT_ENOMEM;
	}
	if (m->kind == RT_MATRIX_SPARSE) {
		c->edge = m->pv;
		c->nedge = m->nflat;
		m->pv = NULL;
	} else if (m->tri == NULL && (m->tri = malloc(sizeof *m->tri)) == NULL)
		return RT_ENOMEM;
	return 0;
}

/* A distance matrix or a plain point cloud, as Ripser reads them. */
int
rt_matrix_read(struct rt_reader *r, int kind, struct rt_cloud *c, float **trip,
    char *err, size_t errlen)
{
	struct mread m = { .r = r, .kind = kind, .dim = -1 };
	char *s, why[160] = "";
	size_t len, line = 0;
	int k = 0;

	memset(c, 0, sizeof *c);
	while ((s = rt_rgetline(r, &len)) != NULL) {
		line++;
		if (*s != '#' && (k = dataline(&m, s, line)) != 0)
			break;
	}
	if (k == 0 && *rt_rerror(r))
		k = RT_EBAD;
	if (k == RT_EBAD)
		snprintf(err, errlen, "%s", rt_rerror(r));
	else if (k == 0 && line == 0) {	/* not one line: no matrix, not a matrix of nothing */
		snprintf(err, errlen, "%s: empty: no points (a stage that failed upstream "
		    "leaves nothing)", rt_rpath(r));
		k = RT_EBAD;
	} else if (k == 0)
		k = finish(&m, c, err, errlen, why, sizeof why);
	if (*why || k == RT_ENOMEM)
		snprintf(err, errlen, "%s%s%s", rt_rpath(r), *why == ':' ? "" : ": ",
		    *why ? why : strerror(ENOMEM));
	free(m.row);
	free(m.pts);
	free(m.fv);
	free(m.pv);
	if (k != 0) {
		free(m.tri);
		rt_cloud_free(c);
		return k;
	}
	*trip = m.tri;
	return 0;
}

static const char *const names[] = {
	[RT_MATRIX_LOWER] = "lower-distance", [RT_MATRIX_DISTANCE] = "distance",
	[RT_MATRIX_CLOUD] = "point-cloud", [RT_MATRIX_UPPER] = "upper-distance",
	[RT_MATRIX_SPARSE] = "sparse",
};

/* Ripser's names, and this suite's older short ones. */
int
rt_matrix_parse(const char *name)
{
	int k;

	for (k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
		if (strcmp(name, names[k]) == 0)
			return k;
	if (strcmp(name, "lower") == 0)
		return RT_MATRIX_LOWER;
	if (strcmp(name, "cloud") == 0)
		return RT_MATRIX_CLOUD;
	return -1;
}

/* The lower triangle, Ripser's lower-distance format. */
int
rt_matrix_write_lower(FILE *f, const float *tri, size_t n)
{
	size_t i, j;

	for (j = 0; j < n; j++) {
		for (i = 0; i < j; i++)
			fprintf(f, i ? ",%.9g" : "%.9g", (double)tri[RT_TRI(i, j)]);
		putc('\n', f);
	}
	return ferror(f) ? RT_EIO : 0;
}
