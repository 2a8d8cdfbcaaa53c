/* naivecache: a plain model of one set-associative write-back,
 * write-allocate cache, to check cachesim against (test helper).
 *   naivecache SETS WAYS POLICY [SEED] < lines of "OP BLOCK"
 * OP is R, W or M (a read then a write); prints "misses writebacks".
 * opt and pes look ahead through the input for each way's next use.
 * Each set is a list of ways kept in the most-recent-first order with
 * per-way fill time, use count and RRPV, searched linearly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "cache.h"

struct way { long long blk; int dirty; unsigned long long filled, used, count, rrpv; };

static long sets, ways;
static struct way *w;
static unsigned long long *tree, now, misses, wbacks;
static const char *pol;
static struct rt_rng g;	/* the same generator cachesim seeds, for RANDOM */
static long long *blks;	/* the whole input, for opt and pes */
static long nin, pos;

/* The next position after pos that names block b, or a huge number. */
static long
nextuse(long long b)
{
	long i;

	for (i = pos + 1; i < nin; i++)
		if (blks[i] == b)
			return i;
	return 1L << 62;
}

static long
pick(long s)
{
	struct way *v = w + s * ways;
	long i, best = 0;

	for (i = 0; i < ways; i++)
		if (v[i].blk < 0)
			return i;
	if (!strcmp(pol, "random"))
		return (long)rt_rng_below(&g, (uint64_t)ways);
	if (!strcmp(pol, "plru")) {	/* walk the tree to the older half */
		long lo = 0, hi = ways, node = 1, mid;

		while (hi - lo > 1) {
			mid = (lo + hi) / 2;
			if (tree[s] >> node & 1) { node = 2 * node + 1; lo = mid; }
			else { node = 2 * node; hi = mid; }
		}
		return lo;
	}
	if (!strcmp(pol, "srrip")) {
		for (;;) {
			for (i = 0; i < ways; i++)
				if (v[i].rrpv >= 3)
					return i;
			for (i = 0; i < ways; i++)
				v[i].rrpv++;
		}
	}
	if (!strcmp(pol, "opt") || !strcmp(pol, "pes")) {
		long far = nextuse(v[0].blk), u;

		for (i = 1; i < ways; i++) {
			u = nextuse(v[i].blk);
			if (!strcmp(pol, "opt") ? u > far : u < far) {
				far = u;
				best = i;
			}
		}
		return best;
	}
	for (i = 1; i < ways; i++) {
		if (!strcmp(pol, "lru") && v[i].used < v[best].used) best = i;
		if (!strcmp(pol, "mru") && v[i].used > v[best].used) best = i;
		if (!strcmp(pol, "fifo") && v[i].filled < v[best].filled) best = i;
		if (!strcmp(pol, "lfu") && v[i].count < v[best].count) best = i;
	}
	return best;
}

static void
plru(long s, long way)
{
	long lo = 0, hi = ways, node = 1, mid;

	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (way < mid) { tree[s] |= 1ULL << node; node = 2 * node; hi = mid; }
		else { tree[s] &= ~(1ULL << node); node = 2 * node + 1; lo = mid; }
	}
}

static void
ref(long long b, int write)
{
	long s = (long)(b % sets), i;
	struct way *v = w + s * ways;

	now++;
	for (i = 0; i < ways && v[i].blk != b; i++)
		;
	if (i == ways) {
		misses++;
		i = pick(s);
		if (v[i].blk >= 0 && v[i].dirty)
			wbacks++;
		v[i].blk = b;
		v[i].dirty = 0;
		v[i].filled = now;
		v[i].count = 0;
		v[i].rrpv = 2;
	} else
		v[i].rrpv = 0;
	v[i].used = now;
	v[i].count++;
	if (write)
		v[i].dirty = 1;
	if (tree)
		plru(s, i);
}

int
main(int argc, char *argv[])
{
	char op[8];
	long long b;
	long i;

	if (argc < 4)
		return 2;
	sets = atol(argv[1]);
	ways = atol(argv[2]);
	pol = argv[3];
	rt_rng_seed(&g, argc > 4 ? strtoull(argv[4], NULL, 10) : 1);
	w = calloc(sets * ways, sizeof *w);
	for (i = 0; i < sets * ways; i++)
		w[i].blk = -1;
	if (!strcmp(pol, "plru"))
		tree = calloc(sets, sizeof *tree);
	{
		char *ops = NULL;

		while (scanf("%7s %lld", op, &b) == 2) {
			blks = realloc(blks, (nin + 1) * sizeof *blks);
			ops = realloc(ops, nin + 1);
			blks[nin] = b;
			ops[nin++] = op[0];
		}
		for (pos = 0; pos < nin; pos++) {
			if (ops[pos] == 'M') {
				ref(blks[pos], 0);
				ref(blks[pos], 1);
			} else
				ref(blks[pos], ops[pos] == 'W');
		}
		free(ops);
	}
	printf("%llu %llu\n", misses, wbacks);
	return 0;
}
