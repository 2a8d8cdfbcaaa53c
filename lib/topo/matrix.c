/* matrix.c: distance matrices and point clouds, as Ripser reads them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

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
			return -1;
		}
		if (*nv == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			if ((*v = realloc(*v, *cap * sizeof **v)) == NULL)
				return -2;
		}
		(*v)[(*nv)++] = x;
		s = (char *)end;
	}
}

/* A distance matrix (lower triangle, or full and symmetric) or a plain
 * point cloud (rows of coordinates), as Ripser reads them. */
int
rt_matrix_read(struct rt_reader *r, int kind, struct rt_cloud *c, float **trip,
    char *err, size_t errlen)
{
	char *s, *q;
	double *row = NULL, *pts = NULL;
	size_t nrow = 0, cap = 0, n = 0, i, capp = 0, len;
	float *tri = NULL;
	int dim = -1, k;

	memset(c, 0, sizeof *c);
	while ((s = rt_rgetline(r, &len)) != NULL) {
		if (*s == '#')
			continue;
		if ((k = numbers(r, s, &row, &nrow, &cap)) == -2)
			goto nomem;
		if (k)
			goto bad;
		if (kind == RT_MATRIX_CLOUD) {
			if (nrow == 0)
				continue;
			if (dim < 0)
				dim = (int)nrow;
			if (nrow != (size_t)dim) {
				rt_rbad(r, "a point of dimension %zu, the first had %d", nrow, dim);
				goto bad;
			}
			if ((n + 1) * dim > capp) {
				capp = capp ? 2 * capp : 1024;
				while (capp < (n + 1) * dim)
					capp *= 2;
				if ((q = realloc(pts, capp * sizeof *pts)) == NULL)
					goto nomem;
				pts = (double *)(void *)q;
			}
			memcpy(pts + n * dim, row, dim * sizeof *row);
			n++;
			continue;
		}
		if (kind == RT_MATRIX_LOWER && nrow == 0 && n == 0)
			continue;	/* the first row may be written, empty */
		if (kind == RT_MATRIX_LOWER && n == 0)
			n = 1;		/* ... or left out */
		if (kind == RT_MATRIX_DISTANCE && nrow == 0)
			continue;
		if (kind == RT_MATRIX_LOWER ? nrow != n : nrow != (n ? c->n : nrow)) {
			rt_rbad(r, "row %zu has %zu entries, %s wants %zu", n + 1, nrow,
			    kind == RT_MATRIX_LOWER ? "a lower-triangular matrix" :
			    "a square matrix", kind == RT_MATRIX_LOWER ? n : c->n);
			goto bad;
		}
		if (kind == RT_MATRIX_DISTANCE && n == 0)
			c->n = nrow;	/* the row length fixes the size */
		if ((q = realloc(tri, ((n + 1) * n / 2 + 1) * sizeof *tri)) == NULL)
			goto nomem;
		tri = (float *)(void *)q;
		for (i = 0; i < n; i++) {
			if (row[i] < 0) {
				rt_rbad(r, "a negative distance");
				goto bad;
			}
			tri[RT_TRI(i, n)] = (float)row[i];
		}
		n++;
	}
	if (*rt_rerror(r))
		goto bad;
	free(row);
	row = NULL;
	if (kind == RT_MATRIX_DISTANCE && n != c->n) {
		snprintf(err, errlen, "%s: %zu rows of %zu entries: not a square matrix",
		    rt_rpath(r), n, c->n);
		goto fail;
	}
	c->nv = c->n = n;
	if (n == 0) {
		snprintf(err, errlen, "%s: no points", rt_rpath(r));
		goto fail;
	}
	if (kind == RT_MATRIX_CLOUD) {
		c->numeric = 1;
		c->dim = dim;
		c->x = pts;
		pts = NULL;
		if ((tri = rt_cloud_distances(c, RT_EUCLIDEAN)) == NULL)
			goto nomem;
	}
	if (tri == NULL && (tri = malloc(sizeof *tri)) == NULL)
		goto nomem;
	*trip = tri;
	return 0;
nomem:
	snprintf(err, errlen, "%s: %s", rt_rpath(r), strerror(ENOMEM));
	goto fail;
bad:
	snprintf(err, errlen, "%s", rt_rerror(r));
fail:
	free(row);
	free(pts);
	free(tri);
	rt_cloud_free(c);
	return -1;
}

static const char *const names[] = {
	[RT_MATRIX_LOWER] = "lower-distance", [RT_MATRIX_DISTANCE] = "distance",
	[RT_MATRIX_CLOUD] = "point-cloud",
};

/* Ripser's names, and this suite's older short ones. */
int
rt_matrix_parse(const char *name)
{
	int k;

	for (k = 0; k < 3; k++)
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
	return ferror(f) ? -1 : 0;
}
