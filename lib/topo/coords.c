/* coords.c: the coordinates stream (circcoord writes it, plotspiral reads
 * it): a row per class, then every point with its angles. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

static const char circles[] = "#reftrace circles 1 column rank birth death scale "
    "edges components isolated winding residual first last";
static const char thetas[] = "#reftrace theta 1 point vertex seq loc func region";
#define UNITS "# circcoord units="
#define MAXCIRC 64

int
rt_coords_write(FILE *f, const struct rt_coords *c)
{
	char magic[64];
	size_t i, v;
	const struct rt_circle *k;

	fprintf(f, "%s\n" UNITS "%s\n", rt_stream_magic(RT_STREAM_COORDINATES, magic,
	    sizeof magic), c->radians ? "radians" : "turns");
	fprintf(f, "%s\n", circles);
	for (i = 0; i < c->ncirc; i++) {
		k = &c->circ[i];
		fprintf(f, "theta%zu %zu %g %g %g %zu %zu %zu %.3f %.4f %" PRIu64 " %" PRIu64 "\n",
		    i + 1, k->rank, k->birth, k->death, k->scale, k->edges, k->components,
		    k->isolated, k->winding, k->residual, k->first, k->last);
	}
	fputs(thetas, f);
	for (i = 0; i < c->ncirc; i++)
		fprintf(f, " theta%zu", i + 1);
	putc('\n', f);
	for (v = 0; v < c->pm.n; v++) {
		fprintf(f, "%zu %" PRIu32 " %" PRIu64 " %s %s %s", v, c->pm.vert[v],
		    c->pm.seq[v], rt_str(c->pm.loc[v]), rt_str(c->pm.func[v]),
		    rt_str(c->pm.region[v]));
		for (i = 0; i < c->ncirc; i++) {
			double t = c->theta[v * c->ncirc + i];

			if (isnan(t))
				fputs(" nan", f);
			else
				fprintf(f, " %.6f", c->radians ? 2 * M_PI * t : t);
		}
		putc('\n', f);
	}
	return ferror(f) ? RT_EIO : 0;
}

void
rt_coords_free(struct rt_coords *c)
{
	if (c->owned) {
		free(c->circ);
		rt_pointmap_free(&c->pm);
		free(c->theta);
	}
	memset(c, 0, sizeof *c);
}

static int
number(const char *s, double *v)
{
	return rt_parse_real(s, v, RT_REAL_INF | RT_REAL_NAN);
}

static int
split(char *s, char **f, int max)
{
	char *save = NULL, *p;
	int n = 0;

	for (p = strtok_r(s, " \t", &save); p && n < max; p = strtok_r(NULL, " \t", &save))
		f[n++] = p;
	return p ? max + 1 : n;
}

/* A theta row: point vertex seq loc func region theta... */
static int
point(struct rt_coords *c, struct rt_reader *r, char **f, int nf, size_t *cap)
{
	uint64_t u[3];
	double x;
	size_t k;

	if ((size_t)nf != 6 + c->ncirc)
		return rt_rbad(r, "%d columns, the header says %zu", nf, 6 + c->ncirc), RT_EBAD;
	if (rt_parse_u64(f[0], &u[0]) || u[0] != c->pm.n || rt_parse_u64(f[1], &u[1]) ||
	    u[1] > UINT32_MAX - 1 || rt_parse_u64(f[2], &u[2]))
		return rt_rbad(r, "bad point, vertex or seq (points are numbered 0, 1, ...)"), RT_EBAD;
	if (rt_grow(&c->theta, cap, (c->pm.n + 1) * c->ncirc, sizeof *c->theta) ||
	    rt_pointmap_add(&c->pm, (uint32_t)u[1], u[2], f[3], f[4], f[5]))
		return RT_ENOMEM;
	for (k = 0; k < c->ncirc; k++) {
		if (number(f[6 + k], &x) || isinf(x))
			return rt_rbad(r, "bad theta: %s", f[6 + k]), RT_EBAD;
		c->theta[(c->pm.n - 1) * c->ncirc + k] = c->radians ? x / (2 * M_PI) : x;
	}
	return 0;
}

/* A circles row: column rank birth death scale edges components isolated
 * winding residual [first last]. */
static int
circle(struct rt_coords *c, struct rt_reader *r, char **f, int nf, size_t *cap)
{
	struct rt_circle *k;
	uint64_t u[6] = { 0 };
	double a[5];
	char want[32];

	snprintf(want, sizeof want, "theta%zu", c->ncirc + 1);
	if ((nf != 10 && nf != 12) || strcmp(f[0], want) ||
	    (nf == 12 && (rt_parse_u64(f[10], &u[4]) || rt_parse_u64(f[11], &u[5]))) || rt_parse_u64(f[1], &u[0]) ||
	    number(f[2], &a[0]) || number(f[3], &a[1]) || number(f[4], &a[2]) ||
	    rt_parse_u64(f[5], &u[1]) || rt_parse_u64(f[6], &u[2]) ||
	    rt_parse_u64(f[7], &u[3]) || number(f[8], &a[3]) || number(f[9], &a[4]))
		return rt_rbad(r, "bad circle row (theta1, theta2, ... in order)"), RT_EBAD;
	if (c->ncirc == MAXCIRC)
		return rt_rbad(r, "more than %d circles", MAXCIRC), RT_EBAD;
	if (rt_grow(&c->circ, cap, c->ncirc + 1, sizeof *c->circ))
		return RT_ENOMEM;
	k = &c->circ[c->ncirc++];
	*k = (struct rt_circle){ u[0], a[0], a[1], a[2], u[1], u[2], u[3], a[3], a[4], u[4],
	    u[5] };
	return 0;
}

int
rt_coords_read(struct rt_coords *c, struct rt_reader *r, char *err, size_t errlen)
{
	char *s, *f[MAXCIRC + 8];
	size_t n, capc = 0, capp = 0;
	int nf, t = -1, k, rc = RT_EBAD;

	memset(c, 0, sizeof *c);
	c->owned = 1;
	if (rt_rexpect(r, RT_STREAM_COORDINATES)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return RT_EBAD;
	}
	rt_rgetline(r, &n);
	while ((s = rt_rgetline(r, &n)) != NULL) {
		if (strncmp(s, UNITS, strlen(UNITS)) == 0) {
			c->radians = strcmp(s + strlen(UNITS), "radians") == 0;
			continue;
		}
		if (strncmp(s, circles, sizeof circles - 1) == 0) {
			t = 0;
			continue;
		}
		if (strncmp(s, thetas, sizeof thetas - 1) == 0) {
			nf = split(s + sizeof thetas - 1, f, MAXCIRC + 1);
			if (c->ncirc == 0 && nf > 0 && nf <= MAXCIRC) {
				/* no circles table: the angles alone */
				if ((c->circ = calloc((size_t)nf, sizeof *c->circ)) == NULL)
					goto nomem;
				c->ncirc = (size_t)nf;
			}
			if ((size_t)nf != c->ncirc || c->ncirc == 0) {
				rt_rbad(r, "%d theta columns for %zu circles", nf, c->ncirc);
				goto bad;
			}
			t = 1;
			continue;
		}
		if (*s == '#' || t < 0)
			continue;
		if ((nf = split(s, f, MAXCIRC + 7)) == 0)
			continue;
		k = t == 0 ? circle(c, r, f, nf, &capc) : point(c, r, f, nf, &capp);
		if (k == RT_ENOMEM)
			goto nomem;
		if (k)
			goto bad;
	}
	if (*rt_rerror(r))
		goto bad;
	if (c->pm.n == 0) {
		snprintf(err, errlen, "%s: no points", rt_rpath(r));
		goto fail;
	}
	return 0;
nomem:
	snprintf(err, errlen, "%s: %s", rt_rpath(r), strerror(ENOMEM));
	rc = RT_ENOMEM;
	goto fail;
bad:
	snprintf(err, errlen, "%s", rt_rerror(r));
fail:
	rt_coords_free(c);
	return rc;
}
