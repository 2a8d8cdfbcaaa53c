/* shards.c: SHARDS spatial sampling of blocks (Waldspurger et al., FAST
 * 2015): at a fixed rate, or at a fixed size (section 4.2), where past
 * the limit the block of largest hash leaves, the threshold drops to its
 * hash, and the counts so far are rescaled to the new rate. */
#include <stdlib.h>

#include "cache.h"

struct hb { uint64_t h, block; };

struct rt_shards {
	uint64_t threshold, seed, size;
	double rate;
	struct hb *heap;	/* fixed size: a max-heap of the sampled hashes */
	size_t n;
};

struct rt_shards *
rt_shards_new(double rate, uint64_t size, uint64_t seed)
{
	struct rt_shards *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->rate = rate;
	s->seed = seed;
	s->size = size;
	/* a fixed size below every block hashes them all */
	s->threshold = rate >= 1 && !size ? UINT64_MAX : rate >= 1 ? UINT64_MAX - 1 :
	    (uint64_t)(rate * 0x1p64);
	if (size && (s->heap = malloc((size + 1) * sizeof *s->heap)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void
rt_shards_free(struct rt_shards *s)
{
	if (s == NULL)
		return;
	free(s->heap);
	free(s);
}

uint64_t
rt_shards_threshold(const struct rt_shards *s)
{
	return s->threshold;
}

double
rt_shards_rate(const struct rt_shards *s)
{
	return s->rate;
}

int
rt_shards_enter(struct rt_shards *s, uint64_t h, uint64_t block)
{
	size_t i = s->n++, p;

	while (i > 0 && s->heap[p = (i - 1) / 2].h < h) {
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i].h = h;
	s->heap[i].block = block;
	return s->n > s->size;
}

static struct hb
pop(struct rt_shards *s)
{
	struct hb top = s->heap[0], last = s->heap[--s->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < s->n) {
		if (c + 1 < s->n && s->heap[c + 1].h > s->heap[c].h)
			c++;
		if (s->heap[c].h <= last.h)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	s->heap[i] = last;
	return top;
}

double
rt_shards_shrink(struct rt_shards *s, struct rt_reuse *r)
{
	struct hb top;
	double old = s->rate;

	while (s->n > s->size) {
		top = pop(s);
		rt_reuse_remove(r, top.block);
		s->threshold = top.h;
		while (s->n > 0 && s->heap[0].h == s->threshold)	/* equal hashes go too */
			rt_reuse_remove(r, pop(s).block);
		s->rate = (double)s->threshold * 0x1p-64;
	}
	return s->rate / old;
}

size_t
rt_shards_memory(const struct rt_shards *s)
{
	return sizeof *s + (s->size ? (s->size + 1) * sizeof *s->heap : 0);
}

int
rt_shards_adjust(struct rt_hist *h, uint64_t accesses, double sampled, double rate)
{
	double expect = (double)accesses * rate;

	if (rate < 1 && rt_hist_add(h, 0, expect - sampled))
		return RT_ENOMEM;
	if (rate < 1)
		rt_hist_scale(h, 1 / rate);
	return 0;
}
