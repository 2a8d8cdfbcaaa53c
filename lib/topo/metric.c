/* metric.c: distances between windows: edit (Levenshtein), Hamming and
 * Euclidean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

static const char *const metrics[] = { "levenshtein", "hamming", "euclidean" };

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
int
rt_levenshtein_long(const uint32_t *a, const uint32_t *b, int w, int *row)
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
				out[i] = (float)rt_levenshtein_long(a, b, w, row);
		}
	}
	free(row);
	return tri;
}
