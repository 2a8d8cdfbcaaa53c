/* spiral.c: spiral and circular plots of circular coordinates (the
 * papers' Figs. 1 and 7): theta around; time outwards, or a circle with
 * the stretches where theta stays near its first and last values drawn
 * inside and outside it (pre- and post-amble). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "reftrace.h"
#include "draw.h"

static double
wrap(double d)		/* to (-1/2, 1/2] */
{
	return d - ceil(d - 0.5);
}

/* The angle of point i in turns at morph fraction t. */
static double
angle(const struct rt_spiral *s, size_t i, double t)
{
	double a = s->theta[i * s->stride + s->from], b;

	if (s->to < 0 || t <= 0)
		return a;
	b = s->theta[i * s->stride + (size_t)s->to];
	return a + t * wrap(b - a);
}

static int
put(struct rt_poly *p, double x, double y)
{
	return rt_poly_put(p, x, y);
}

int
rt_spiral_build(struct rt_spiral *s, struct rt_layer *lay, size_t nlay, double t)
{
	double cx = s->x + s->w / 2, cy = s->y + s->h / 2;
	double R = (s->w < s->h ? s->w : s->h) / 2, *rad, tmin, tmax;
	double a0, a1, r0, r1, d, first = NAN, last = NAN;
	size_t i, k, steps, pre = 0, post = 0, prev = SIZE_MAX, n = s->n;
	struct rt_poly *p;
	int e = 0;

	rt_layers_clear(lay, nlay);
	if (n == 0)
		return 0;
	if ((rad = malloc(n * sizeof *rad)) == NULL)
		return RT_ENOMEM;
	tmin = s->time ? s->time[0] : 0;
	tmax = s->time ? s->time[n - 1] : (double)(n - 1);
	if (s->circle) {
		/* pre- and post-amble: from either end while theta stays near it */
		for (i = 0; i < n && isnan(first); i++)
			first = angle(s, i, t);
		for (i = n; i-- > 0 && isnan(last);)
			last = angle(s, i, t);
		while (pre < n && (isnan(angle(s, pre, t)) ||
		    fabs(wrap(angle(s, pre, t) - first)) < s->amble))
			pre++;
		while (post < n - pre && (isnan(angle(s, n - 1 - post, t)) ||
		    fabs(wrap(angle(s, n - 1 - post, t) - last)) < s->amble))
			post++;
	}
	for (i = 0; i < n; i++) {
		double time = s->time ? s->time[i] : (double)i;
		double f = tmax > tmin ? (time - tmin) / (tmax - tmin) : 0;

		if (!s->circle)
			rad[i] = R * (0.08 + 0.92 * f);
		else if (i < pre)	/* inside, rising to the circle */
			rad[i] = R * (0.15 + 0.45 * (double)i / (double)(pre ? pre : 1));
		else if (i >= n - post)	/* outside, rising away from it */
			rad[i] = R * (0.6 + 0.4 * (double)(i - (n - post) + 1) / (double)post);
		else
			rad[i] = R * 0.6;
	}
	for (i = 0; i < n; i++) {
		a1 = angle(s, i, t);
		if (isnan(a1)) {
			prev = SIZE_MAX;
			continue;
		}
		e |= put(&lay[s->layer[i]].dots, cx + rad[i] * cos(2 * M_PI * a1),
		    cy - rad[i] * sin(2 * M_PI * a1));
		if (prev != SIZE_MAX) {
			/* the arc from prev, in polar coordinates, the shorter way */
			p = &lay[s->layer[prev]].line;
			a0 = angle(s, prev, t);
			r0 = rad[prev];
			r1 = rad[i];
			d = wrap(a1 - a0);
			steps = (size_t)ceil(fabs(d) * 48) + 1;
			e |= put(p, RT_PENUP, RT_PENUP);
			for (k = 0; k <= steps; k++) {
				double u = (double)k / (double)steps, a = a0 + u * d;
				double r = r0 + u * (r1 - r0);

				e |= put(p, cx + r * cos(2 * M_PI * a), cy - r * sin(2 * M_PI * a));
			}
		}
		prev = i;
	}
	s->npre = pre;
	s->npost = post;
	free(rad);
	return e ? RT_ENOMEM : 0;
}

size_t
rt_spiral_readable(const double *theta, size_t stride, size_t col, size_t n, double most,
    double *turns)
{
	double sum = 0, prev = NAN, d;
	size_t i, cut = n;

	for (i = 0; i < n; i++) {
		double a = theta[i * stride + col];

		if (isnan(a))
			continue;
		if (!isnan(prev)) {
			d = wrap(a - prev);
			sum += fabs(d);
			if (sum > most && cut == n)
				cut = i;
		}
		prev = a;
	}
	*turns = sum;
	return cut;
}
