/* fold.c: the address axis folded to the segments a trace touched, so
 * that the gaps between stack, heap and globals do not squash the arrays
 * into lines (MTV's and MapVisual's maps show the regions alone). */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "map.h"

#define SPARSE 500	/* a segment of under 0.2% of the touches is near empty */
/* a band's room by extent: none for near-empty ones sharing a band */
#define EXTENT(s) ((s)->y0 ? 0 : (s)->hi - (s)->lo + 1)

struct gran { uint64_t g, lo, hi, n; };	/* granule, its least and greatest byte, touches */

struct rt_fold {
	struct gran *h;		/* open addressing, g UINT64_MAX empty */
	size_t cap, n;
	unsigned shift;
	struct rt_seg *seg;
	size_t nseg;
};

struct rt_fold *
rt_fold_new(unsigned shift)
{
	struct rt_fold *f = calloc(1, sizeof *f);

	if (f == NULL || shift > 40) {
		free(f);
		return NULL;
	}
	f->shift = shift;
	return f;
}

static int
rehash(struct rt_fold *f)
{
	size_t cap = f->cap ? f->cap * 2 : 1024, i, k;
	struct gran *h = malloc(cap * sizeof *h);

	if (h == NULL)
		return RT_ENOMEM;
	for (i = 0; i < cap; i++)
		h[i].g = UINT64_MAX;
	for (i = 0; i < f->cap; i++)
		if (f->h[i].g != UINT64_MAX) {
			for (k = rt_hash64(f->h[i].g) & (cap - 1); h[k].g != UINT64_MAX; k = (k + 1) & (cap - 1))
				;
			h[k] = f->h[i];
		}
	free(f->h);
	f->h = h;
	f->cap = cap;
	return 0;
}

static int
touch1(struct rt_fold *f, uint64_t lo, uint64_t hi)
{
	uint64_t g = lo >> f->shift;
	size_t k;

	if (2 * (f->n + 1) > f->cap && rehash(f))
		return RT_ENOMEM;
	for (k = rt_hash64(g) & (f->cap - 1); f->h[k].g != UINT64_MAX && f->h[k].g != g;
	    k = (k + 1) & (f->cap - 1))
		;
	if (f->h[k].g == UINT64_MAX) {
		f->h[k] = (struct gran){ g, lo, hi, 1 };
		f->n++;
	} else {
		f->h[k].n++;
		if (lo < f->h[k].lo)
			f->h[k].lo = lo;
		if (hi > f->h[k].hi)
			f->h[k].hi = hi;
	}
	return 0;
}

/* The bytes addr .. last, a granule at a time. */
int
rt_fold_touch(struct rt_fold *f, uint64_t addr, uint64_t last)
{
	struct rt_span s;

	rt_span_start(&s, addr, last, (uint64_t)1 << f->shift);
	while (rt_span_next(&s))
		if (touch1(f, s.addr, s.addr + s.len - 1))
			return RT_ENOMEM;
	return 0;
}

static int
bygran(const void *a, const void *b)
{
	const struct gran *x = a, *y = b;

	return x->g < y->g ? -1 : x->g > y->g;
}

/* Segment k - 1 takes in segment k. */
static void
join(struct rt_fold *f, size_t k, int shared)
{
	f->seg[k - 1].hi = f->seg[k].hi;
	f->seg[k - 1].n += f->seg[k].n;
	f->seg[k - 1].y0 = shared;
	if (f->seg[k - 1].obj != f->seg[k].obj)
		f->seg[k - 1].obj = -1;
	memmove(f->seg + k, f->seg + k + 1, (f->nseg - k - 1) * sizeof *f->seg);
	f->nseg--;
}

int
rt_fold_layout(struct rt_fold *f, uint32_t height, uint32_t minh, uint32_t gap,
    rt_fold_owner *owner, void *ctx)
{
	size_t i, n = 0, k, best;
	uint64_t total = 0, touches = 0, d, bestd;
	double avail, share;
	uint32_t y;

	free(f->seg);
	f->nseg = 0;
	if ((f->seg = malloc((f->n + 1) * sizeof *f->seg)) == NULL)
		return RT_ENOMEM;
	for (i = 0; i < f->cap; i++)	/* the hash packed and sorted */
		if (f->h[i].g != UINT64_MAX)
			f->h[n++] = f->h[i];
	if (n)
		qsort(f->h, n, sizeof *f->h, bygran);
	for (i = 0; i < n; i++) {
		if (f->nseg && f->h[i].g == (f->seg[f->nseg - 1].hi >> f->shift) + 1) {
			f->seg[f->nseg - 1].hi = f->h[i].hi;
			f->seg[f->nseg - 1].n += f->h[i].n;
		} else
			f->seg[f->nseg++] = (struct rt_seg){ f->h[i].lo, f->h[i].hi, 0, 0, f->h[i].n, -1 };
	}
	for (k = 0; owner != NULL && k < f->nseg; k++)	/* an object's: room by use */
		f->seg[k].y0 = (f->seg[k].obj = owner(ctx, f->seg[k].lo, f->seg[k].hi)) >= 0;
	for (k = 1; k < f->nseg;)	/* an object's segments: one band */
		if (f->seg[k].obj >= 0 && f->seg[k].obj == f->seg[k - 1].obj)
			join(f, k, 1);
		else
			k++;
	for (i = 0; i < f->cap; i++)	/* the hash is spent: make it empty again */
		f->h[i].g = UINT64_MAX;
	f->n = 0;
	/* segments next to each other that are near empty (under 1/SPARSE of
	 * the touches: the loader's and libc's data of a whole program) share
	 * one band, so that the arrays that are used get the room */
	for (k = 0; k < f->nseg; k++)
		touches += f->seg[k].n;
	for (k = 1; k < f->nseg;)
		if (f->seg[k].n * SPARSE < touches && f->seg[k - 1].n * SPARSE < touches &&
		    f->seg[k].obj == f->seg[k - 1].obj)
			join(f, k, 1);	/* shared: its extent is mostly gaps */
		else
			k++;
	touches = 0;
	/* too many to show: the two closest in address become one */
	while (f->nseg > 1 && (uint64_t)f->nseg * (minh + gap) > height) {
		for (best = 1, bestd = UINT64_MAX, k = 1; k < f->nseg; k++)
			if ((d = f->seg[k].lo - f->seg[k - 1].hi) < bestd)
				bestd = d, best = k;
		join(f, best, f->seg[best - 1].y0 & f->seg[best].y0);
	}
	for (k = 0; k < f->nseg; k++) {
		total += EXTENT(&f->seg[k]);
		touches += f->seg[k].n;
	}
	avail = (double)height - (double)gap * (f->nseg ? f->nseg - 1 : 0) - (double)minh * f->nseg;
	if (avail < 0)
		avail = 0;
	for (y = 0, k = 0; k < f->nseg; k++) {
		/* half by extent, half by use: a hot array gets room */
		share = total ? avail / 2 * ((double)EXTENT(&f->seg[k]) / (double)total +
		    (double)f->seg[k].n / (double)touches) : 0;
		f->seg[k].y0 = y;
		f->seg[k].y1 = y + minh + (uint32_t)share - 1;
		if (k == f->nseg - 1 && f->seg[k].y1 < height - 1)
			f->seg[k].y1 = height - 1;	/* rounding's leftovers to the last */
		y = f->seg[k].y1 + 1 + gap;
	}
	return 0;
}

size_t
rt_fold_count(const struct rt_fold *f)
{
	return f->nseg;
}

const struct rt_seg *
rt_fold_seg(const struct rt_fold *f, size_t k)
{
	return &f->seg[k];
}

long
rt_fold_row(const struct rt_fold *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nseg, mid;
	const struct rt_seg *s;

	while (lo < hi) {	/* the first segment ending at or after addr */
		mid = lo + (hi - lo) / 2;
		if (f->seg[mid].hi < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->nseg || (s = &f->seg[lo])->lo > addr)
		return -1;
	return (long)(s->y0 + (uint64_t)((double)(addr - s->lo) * (s->y1 - s->y0 + 1) /
	    (double)(s->hi - s->lo + 1)));
}

void
rt_fold_free(struct rt_fold *f)
{
	if (f == NULL)
		return;
	free(f->h);
	free(f->seg);
	free(f);
}
