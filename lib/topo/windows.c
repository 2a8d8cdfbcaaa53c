/* windows.c: a points stream's lines made on threads: the items in
 * chunks, the windows complete in a chunk cut into ranges, a thread's
 * lines into a buffer of its own, the buffers put in order.  Windows are
 * independent once their items' symbols are known: the caller makes
 * those (they touch its tables), the threads only read the chunk.  With
 * threads, two chunks: the caller fills one and the lines of the one
 * before are put while the threads make this one's. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "topo.h"

/* A chunk holds about this many bytes of lines at their longest: a
 * thread's start and join are paid once a chunk, its buffers stay small
 * beside the caches of today's machines. */
#define CHUNKLINES (16 << 20)

/* A thread's windows: n of them, the first starting at item first of
 * the chunk, stride items apart; their lines in buf. */
struct range {
	const struct rt_win *x;
	const char *items;
	size_t first, n;
	char *buf;
	size_t len, cap;
	int e;
};

/* A chunk's lines: nrange ranges, made (or under way) and not put. */
struct batch {
	struct range *r;
	pthread_t *th;
	int *started;
	unsigned nrange;
	int made;
};

struct rt_win {
	size_t w, lag, span, stride;
	int nview;		/* 0: numbers */
	size_t size;		/* an item's bytes */
	size_t maxline;		/* a line's at most */
	size_t cap;		/* items a chunk holds */
	char *chunk[2];		/* with threads, one filled while the other's lines are made */
	struct batch b[2];	/* their lines */
	int cur;
	size_t n;		/* items in the current chunk */
	uint64_t base;		/* the stream's index of its first */
	uint64_t points;	/* windows begun */
	unsigned threads;
	rt_win_put *put;
	void *ctx;
};

struct rt_win *
rt_win_new(size_t w, uint64_t lag, uint64_t stride, int nview, unsigned threads,
    rt_win_put *put, void *ctx)
{
	struct rt_win *x;
	size_t per, k;
	int c;

	if ((x = calloc(1, sizeof *x)) == NULL)
		return NULL;
	x->w = w;
	x->lag = lag;
	x->span = (w - 1) * lag + 1;
	x->stride = stride;
	x->nview = nview;
	x->threads = threads < 1 ? 1 : threads;
	x->put = put;
	x->ctx = ctx;
	x->size = nview ? sizeof(struct rt_winsym) : sizeof(struct rt_winnum);
	/* the last RT_WINSYM: rt_points_sym copies a whole symbol */
	x->maxline = 22 + 4 * RT_WINSYM + w * (nview ? nview * RT_WINSYM : RT_POINTS_NUM);
	/* at least a span of new items a chunk: what is carried over (the
	 * span's last items but one) is never copied more than once an item */
	per = CHUNKLINES / x->maxline;
	if (per < x->span)
		per = x->span;
	x->cap = x->span - 1 + per;
	if ((double)x->cap * x->size * (x->threads > 1 ? 2 : 1) > rt_memory()) {
		free(x);
		return NULL;
	}
	for (c = 0; c < (x->threads > 1 ? 2 : 1); c++)
		if ((x->chunk[c] = malloc(x->cap * x->size)) == NULL ||
		    (x->b[c].r = calloc(x->threads, sizeof *x->b[c].r)) == NULL ||
		    (x->b[c].th = calloc(x->threads, sizeof *x->b[c].th)) == NULL ||
		    (x->b[c].started = calloc(x->threads, sizeof *x->b[c].started)) == NULL) {
			rt_win_free(x);
			return NULL;
		} else
			for (k = 0; k < x->threads; k++)
				x->b[c].r[k].x = x;
	return x;
}

void *
rt_win_next(struct rt_win *x)
{
	return x->chunk[x->cur] + x->n * x->size;
}

uint64_t
rt_win_points(const struct rt_win *x)
{
	return x->points;
}

/* Room for one more line: 0, or -1. */
static int
room(struct range *r, size_t need)
{
	size_t cap = r->cap ? r->cap : 64 * need;
	char *p;

	if (r->cap - r->len >= need)
		return 0;
	while (cap - r->len < need)
		cap *= 2;
	if ((p = realloc(r->buf, cap)) == NULL)
		return -1;
	r->buf = p;
	r->cap = cap;
	return 0;
}

/* A range's lines, as rt_points_begin and its friends make them. */
static void *
lines(void *arg)
{
	struct range *r = arg;
	const struct rt_win *x = r->x;
	const struct rt_winsym *s;
	const struct rt_winnum *v;
	size_t j, k;
	char *p;
	int y;

	r->len = 0;
	for (j = 0; j < r->n; j++) {
		if (room(r, x->maxline)) {
			r->e = RT_ENOMEM;
			return NULL;
		}
		p = r->buf + r->len;
		if (x->nview == 0) {
			v = (const struct rt_winnum *)r->items + r->first + j * x->stride;
			p = rt_points_begin(p, v->seq, NULL, NULL, NULL);
			for (k = 0; k < x->w; k++)
				p = rt_points_num(p, v[k * x->lag].x);
		} else {
			s = (const struct rt_winsym *)r->items + r->first + j * x->stride;
			p = rt_points_begin(p, s->seq, s->meta[0], s->meta[1], s->meta[2]);
			for (y = 0; y < x->nview; y++)
				for (k = 0; k < x->w; k++)
					p = rt_points_sym(p, s[k].sym[y], s[k].len[y]);
		}
		r->len = (size_t)(rt_points_end(p) - r->buf);
	}
	return NULL;
}

/* The lines of the windows complete in the current chunk begun: on the
 * threads, or made here with one. */
static void
start(struct rt_win *x)
{
	struct batch *b = &x->b[x->cur];
	uint64_t first, nwin;
	unsigned k, m;

	b->nrange = 0;
	b->made = 1;
	if (x->n < x->span)
		return;
	/* the windows that start on the stride, from the chunk's first item
	 * to the last whose window it holds whole */
	first = (x->stride - x->base % x->stride) % x->stride;
	if (first > x->n - x->span)
		return;
	nwin = (x->n - x->span - first) / x->stride + 1;
	x->points += nwin;
	m = nwin < x->threads ? (unsigned)nwin : x->threads;
	for (k = 0; k < m; k++) {
		b->r[k].items = x->chunk[x->cur];
		b->r[k].first = (size_t)(first + nwin * k / m * x->stride);
		b->r[k].n = (size_t)(nwin * (k + 1) / m - nwin * k / m);
		b->r[k].e = 0;
		if (!(b->started[k] = m > 1 &&
		    pthread_create(&b->th[k], NULL, lines, &b->r[k]) == 0))
			lines(&b->r[k]);	/* no thread had: made here */
	}
	b->nrange = m;
}

static void
join(struct batch *b)
{
	unsigned k;

	for (k = 0; k < b->nrange; k++)
		if (b->started[k]) {
			pthread_join(b->th[k], NULL);
			b->started[k] = 0;
		}
}

/* A batch's lines, joined, put in order. */
static int
finish(struct rt_win *x, struct batch *b)
{
	unsigned k;
	int e = 0;

	if (!b->made)
		return 0;
	join(b);
	b->made = 0;
	for (k = 0; k < b->nrange && e == 0; k++)
		if ((e = b->r[k].e) == 0 && b->r[k].len > 0)
			e = x->put(x->ctx, b->r[k].buf, b->r[k].len);
	return e;
}

/* A chunk full: its lines begun, the lines of the one before put
 * meanwhile, and its last items but one of a span carried to the next
 * chunk, the one before's. */
static int
full(struct rt_win *x)
{
	size_t keep = x->span - 1;
	int e, to = x->threads > 1 ? !x->cur : x->cur;

	join(&x->b[to]);	/* its items are to be overwritten */
	start(x);
	if ((e = finish(x, &x->b[to])) != 0)
		return e;
	memmove(x->chunk[to], x->chunk[x->cur] + (x->n - keep) * x->size, keep * x->size);
	x->base += x->n - keep;
	x->n = keep;
	x->cur = to;
	return 0;
}

int
rt_win_push(struct rt_win *x)
{
	return ++x->n < x->cap ? 0 : full(x);
}

int
rt_win_end(struct rt_win *x)
{
	int e;

	if (x->threads > 1 && (e = finish(x, &x->b[!x->cur])) != 0)
		return e;
	start(x);
	return finish(x, &x->b[x->cur]);
}

void
rt_win_free(struct rt_win *x)
{
	unsigned k;
	int c;

	if (x == NULL)
		return;
	for (c = 0; c < 2; c++) {
		if (x->b[c].started != NULL)
			join(&x->b[c]);
		for (k = 0; x->b[c].r != NULL && k < x->threads; k++)
			free(x->b[c].r[k].buf);
		free(x->b[c].r);
		free(x->b[c].th);
		free(x->b[c].started);
		free(x->chunk[c]);
	}
	free(x);
}
