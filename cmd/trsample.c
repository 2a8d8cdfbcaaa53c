/* trsample: sample a trace: systematic, burst, Bernoulli, reservoir, spatial hash. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"

static uint64_t iflag = 1;		/* every i-th */
static uint64_t uB, uP;			/* burst: B of every P */
static double Rflag = 1;		/* Bernoulli probability */
static uint64_t Nflag;			/* reservoir size */
static double Hflag = 1;		/* spatial hash rate */
static uint64_t Bflag = 64, Sflag = 1;
static uint64_t sflag, cflag = UINT64_MAX;
static int kflag, zflag, Oflag = RT_FMT_TEXT, Iflag = RT_FMT_AUTO;
static const char *oflag;

static struct rt_writer *w;
static struct rt_rng rng;
static uint64_t hlimit;			/* hash below this: sampled */
static uint64_t pos;			/* accesses seen so far */
static int status;

/* the reservoir, and the events to merge back in order */
static struct rt_rec *res, *ev;
static uint64_t *respos, *evpos;
static size_t nres, nev, capev;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: trsample [-kz] [-B bytes] [-b] [-c count] [-H rate] [-I format]\n"
	    "                [-i interval] [-N size] [-O format] [-o file] [-R prob]\n"
	    "                [-S seed] [-s skip] [-u burst/period] [file ...]\n");
	exit(2);
}

static void
diag(const char *msg, int fatal)
{
	warnx("%s", msg);
	if (fatal)
		status = 1;
}

static int
emit(const struct rt_rec *rec)
{
	if (rt_write(w, rec) == 0)
		return 0;
	if (errno != EPIPE)
		warn("%s", oflag ? oflag : "<stdout>");
	exit(1);
}

/* Spatial sampling (SHARDS): keep every reference to a block whose hash
 * falls under rate; an access is kept if any block it covers is. */
static int
hashed(const struct rt_rec *rec)
{
	uint64_t b = rec->addr / Bflag;
	uint64_t last = (rec->addr + (rec->size ? rec->size - 1 : 0)) / Bflag;

	for (; b <= last; b++)
		if (rt_hash64(b ^ Sflag) < hlimit)
			return 1;
	return 0;
}

static void
pushev(const struct rt_rec *rec)
{
	if (nev == capev) {
		capev = capev ? capev * 2 : 64;
		if ((ev = realloc(ev, capev * sizeof *ev)) == NULL ||
		    (evpos = realloc(evpos, capev * sizeof *evpos)) == NULL)
			err(1, NULL);
	}
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
	if (p < sflag)
		return 0;
	p -= sflag;
	if (p >= cflag)
		return -1;	/* the slice is over: read no further */
	if (hlimit != UINT64_MAX && !hashed(rec))
		return 0;
	if (p % iflag != 0)
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

	if ((ix = malloc((nres + 1) * sizeof *ix)) == NULL)
		err(1, NULL);
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

static uint64_t
num(const char *arg, int opt, int zero)
{
	uint64_t v;

	if (rt_parse_size(arg, &v) || (!zero && v == 0))
		errx(2, "-%c %s: bad number", opt, arg);
	return v;
}

static double
rate(const char *arg, int opt)
{
	double v;

	if (rt_parse_double(arg, &v) || v <= 0 || v > 1)
		errx(2, "-%c %s: want a rate in (0, 1]", opt, arg);
	return v;
}

int
main(int argc, char *argv[])
{
	int c, k;
	char *slash;

	while ((c = getopt(argc, argv, "B:bc:H:hI:i:kN:O:o:R:S:s:u:Vz")) != -1) {
		switch (c) {
		case 'B': Bflag = num(optarg, c, 0); break;
		case 'b': Oflag = RT_FMT_BINARY; break;
		case 'c': cflag = num(optarg, c, 1); break;
		case 'H': Hflag = rate(optarg, c); break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				errx(2, "-I %s: unknown format", optarg);
			break;
		case 'i': iflag = num(optarg, c, 0); break;
		case 'k': kflag = 1; break;
		case 'N': Nflag = num(optarg, c, 0); break;
		case 'O':
			if ((Oflag = rt_fmt_parse_out(optarg)) < 0)
				errx(2, "-O %s: can write text, binary or din", optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'R': Rflag = rate(optarg, c); break;
		case 'S':
			if (rt_parse_u64(optarg, &Sflag))
				errx(2, "-S %s: bad seed", optarg);
			break;
		case 's': sflag = num(optarg, c, 1); break;
		case 'u':
			if ((slash = strchr(optarg, '/')) == NULL)
				errx(2, "-u %s: want burst/period", optarg);
			*slash = '\0';
			uB = num(optarg, c, 0);
			uP = num(slash + 1, c, 0);
			if (uB > uP)
				errx(2, "-u: burst longer than its period");
			break;
		case 'V': printf("trsample %s\n", RT_VERSION); return 0;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	rt_rng_seed(&rng, Sflag);
	hlimit = Hflag >= 1 ? UINT64_MAX : (uint64_t)(Hflag * 0x1p64);
	if (Nflag && ((res = calloc(Nflag, sizeof *res)) == NULL ||
	    (respos = calloc(Nflag, sizeof *respos)) == NULL))
		errx(1, "reservoir of %llu records: %s", (unsigned long long)Nflag,
		    strerror(ENOMEM));
	if ((w = rt_wopen(oflag, Oflag, zflag)) == NULL)
		err(1, "%s", oflag ? oflag : "<stdout>");
	k = rt_foreach(argv, argc, Iflag, kflag, item, NULL, diag);
	if (k > 0)
		status = 1;
	if (Nflag)
		flushres();
	if (rt_wclose(w)) {
		if (errno != EPIPE)
			warn("%s", oflag ? oflag : "<stdout>");
		status = 1;
	}
	free(res);
	free(respos);
	free(ev);
	free(evpos);
	return status;
}
