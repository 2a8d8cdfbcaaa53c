/* trsample: sample a trace: systematic, burst, Bernoulli, reservoir, spatial hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "util.h"

static uint64_t iflag = 1;		/* every i-th */
static int jitter;			/* --jitter: one at random in every i */
static uint64_t jat;			/* the one of this interval */
static struct rt_period *period;	/* the stream's, to warn of aliasing */
static uint64_t uB, uP;			/* burst: B of every P */
static double Rflag = 1;		/* Bernoulli probability */
static uint64_t Nflag;			/* reservoir size */
static double Hflag = 1;		/* spatial hash rate */
static uint64_t Bflag = 64, Sflag = 1;
static uint64_t slo, shi = UINT64_MAX;	/* the slice: positions */
static int kflag, zflag, Oflag = RT_FMT_TEXT, Iflag = RT_FMT_AUTO;
static const char *oflag;

static struct rt_writer *w;
static struct rt_rng rng;
static uint64_t hlimit;			/* hash below this: sampled */
static uint64_t pos;			/* accesses seen so far */

/* the reservoir, and the events to merge back in order */
static struct rt_rec *res, *ev;
static uint64_t *respos, *evpos;
static size_t nres, nev, capev;

enum { O_JITTER = U_LONG };
static const struct u_opt opts[] = {
	{ 'B', "block", "bytes", "-H samples blocks of this size (64)" },
	U_OPT_BINARY,
	{ 'H', "hash", "rate", "spatial sample: the blocks whose hash is below rate" },
	U_OPT_TRACE,
	{ 'i', "interval", "n", "every n-th access (systematic)" },
	U_OPT_KEEP,
	{ 'N', "reservoir", "n", "n accesses uniformly at random (reservoir)" },
	{ 'O', "output-format", "format", "write text, binary (binary2, binary-flat) or din" },
	U_OPT_OUTPUT,
	{ 'R', "bernoulli", "prob", "every access with probability prob" },
	{ 'S', "seed", "seed", "seed of the random choices and of the hash (1)" },
	{ 's', "slice", "range", "the accesses at positions lo-hi or lo+len" },
	{ 'u', "burst", "b/p", "the first b of every p accesses" },
	U_OPT_GZIP,
	{ O_JITTER, "jitter", NULL, "-i n: one access at random in every n (jittered)" },
	{ 0 }
};
static const struct u_prog prog = { "trsample", "[file ...]", opts, NULL };

static int
emit(const struct rt_rec *rec)
{
	u_write(w, rec, oflag);
	return 0;
}

/* Spatial sampling (SHARDS): keep every reference to a block whose hash
 * falls under rate; an access is kept if any block it covers is. */
static int
hashed(const struct rt_rec *rec)
{
	struct rt_span s;

	for (rt_span_start(&s, rec->addr, rt_last(rec), Bflag); rt_span_next(&s);)
		if (rt_hash64(s.block ^ Sflag) < hlimit)
			return 1;
	return 0;
}

static void
pushev(const struct rt_rec *rec)
{
	size_t cap = capev;

	ev = u_grow(ev, &cap, nev + 1, sizeof *ev);
	evpos = u_grow(evpos, &capev, nev + 1, sizeof *evpos);
	ev[nev] = *rec;
	evpos[nev++] = pos;
}

/* Vitter's algorithm R: the i-th candidate replaces a random slot with
 * probability N/i, so every candidate stays with probability N/total. */
static void
reservoir(const struct rt_rec *rec, uint64_t nth)
{
	uint64_t j;

	if (nres < Nflag) {
		res[nres] = *rec;
		respos[nres++] = pos;
		return;
	}
	j = rt_rng_below(&rng, nth);
	if (j < Nflag) {
		res[j] = *rec;
		respos[j] = pos;
	}
}

static int
item(void *ctx, struct rt_rec *rec)
{
	static uint64_t cand;
	uint64_t p;

	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		if (Nflag)
			pushev(rec);
		else
			emit(rec);
		return 0;
	}
	p = pos++;
	if (p < slo)
		return 0;
	if (p > shi)
		return -1;	/* the slice is over: read no further */
	p -= slo;
	if (hlimit != UINT64_MAX && !hashed(rec))
		return 0;
	if (period != NULL)
		rt_period_add(period, rec);
	if (jitter && p % iflag == 0)
		jat = rt_rng_below(&rng, iflag);
	if (p % iflag != (jitter ? jat : 0))
		return 0;
	if (uP && (p / iflag) % uP >= uB)
		return 0;
	if (Rflag < 1 && rt_rng_unit(&rng) >= Rflag)
		return 0;
	if (Nflag) {
		reservoir(rec, ++cand);
		return 0;
	}
	return emit(rec);
}

static int
bypos(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The reservoir comes out in trace order, events where they were. */
static void
flushres(void)
{
	uint64_t (*ix)[2];
	size_t i, e = 0;

	ix = u_reallocarray(NULL, nres + 1, sizeof *ix);
	for (i = 0; i < nres; i++) {
		ix[i][0] = respos[i];
		ix[i][1] = i;
	}
	qsort(ix, nres, sizeof *ix, bypos);
	for (i = 0; i < nres; i++) {
		while (e < nev && evpos[e] <= ix[i][0])
			emit(&ev[e++]);
		emit(&res[ix[i][1]]);
	}
	while (e < nev)
		emit(&ev[e++]);
	free(ix);
}

/* Every i-th access of a loop of p accesses, p < 2i, steps i mod p
 * through the loop: the sample shows a loop of its own (Nyquist), or with
 * i a multiple of p none at all. */
static void
aliasing(void)
{
	uint64_t p;

	if (period == NULL)
		return;
	p = rt_period_get(period);
	rt_period_free(period);
	if (p >= 2 && p < 2 * iflag)
		u_warn("every %llu%s access of a stream whose dominant period is %llu "
		    "accesses aliases it: the sample steps %llu through each period "
		    "and shows a loop that is not the program's (--jitter samples at "
		    "random within each interval)", (unsigned long long)iflag,
		    iflag % 10 == 1 && iflag % 100 != 11 ? "st" : iflag % 10 == 2 &&
		    iflag % 100 != 12 ? "nd" : iflag % 10 == 3 && iflag % 100 != 13 ? "rd" :
		    "th", (unsigned long long)p, (unsigned long long)(iflag % p));
}

static uint64_t
num(const char *arg, int opt, int zero)
{
	uint64_t v;

	if (rt_parse_size(arg, &v) || (!zero && v == 0))
		u_bad("-%c %s: bad number", opt, arg);
	return v;
}

static double
rate(const char *arg, int opt)
{
	double v;

	if (rt_parse_double(arg, &v) || v <= 0 || v > 1)
		u_bad("-%c %s: want a rate in (0, 1]", opt, arg);
	return v;
}

int
main(int argc, char *argv[])
{
	int c;
	char *slash;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'B': Bflag = num(optarg, c, 0); break;
		case 'b': Oflag = RT_FMT_BINARY; break;
		case 'H': Hflag = rate(optarg, c); break;
		case 'I': Iflag = u_format(optarg); break;
		case 'i': iflag = num(optarg, c, 0); break;
		case 'k': kflag = 1; break;
		case 'N': Nflag = num(optarg, c, 0); break;
		case 'O':
			if ((Oflag = rt_fmt_parse_out(optarg)) < 0)
				u_bad("-O %s: can write text, binary (binary2, binary-flat), din or pin",
				    optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'R': Rflag = rate(optarg, c); break;
		case 'S':
			if (rt_parse_u64(optarg, &Sflag))
				u_bad("-S %s: bad seed", optarg);
			break;
		case 's':
			if (rt_parse_range(optarg, &slo, &shi))
				u_bad("-s %s: want positions lo-hi, lo+len or lo-", optarg);
			break;
		case 'u':
			if ((slash = strchr(optarg, '/')) == NULL)
				u_bad("-u %s: want burst/period", optarg);
			*slash = '\0';
			uB = num(optarg, c, 0);
			uP = num(slash + 1, c, 0);
			if (uB > uP)
				u_bad("-u: burst longer than its period");
			break;
		case 'z': zflag = 1; break;
		case O_JITTER: jitter = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	rt_rng_seed(&rng, Sflag);
	hlimit = Hflag >= 1 ? UINT64_MAX : (uint64_t)(Hflag * 0x1p64);
	if (iflag > 1 && !jitter && (period = rt_period_new(1 << 16)) == NULL)
		u_die(1, "out of memory");
	if (Nflag && ((res = u_trycalloc(Nflag, sizeof *res)) == NULL ||
	    (respos = u_trycalloc(Nflag, sizeof *respos)) == NULL))
		u_die(1, "-N %llu: no memory for the reservoir", (unsigned long long)Nflag);
	w = u_wopen(oflag, Oflag, zflag);
	u_keeppart(w, argv, argc);
	if (rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag) > 0)
		u_status = 1;
	if (Nflag)
		flushres();
	aliasing();
	u_wclose(w, oflag);
	free(res);
	free(respos);
	free(ev);
	free(evpos);
	return u_status;
}
