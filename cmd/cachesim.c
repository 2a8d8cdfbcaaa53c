/* cachesim: trace-driven simulation of multi-level caches. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"

static struct rt_cache_cfg cflag[RT_MAXLEVEL], iflag;
static int nc, hasi, Aflag, dflag, kflag, bflag, zflag, cgflag, misses;
static int incl = RT_NINE, Iflag = RT_FMT_AUTO;
static uint64_t Sflag = 1;
static double lat[RT_MAXLEVEL + 1];
static int nlat;
static const char *oflag;

static FILE *fo;
static struct rt_hier *hier;
static struct rt_cg *cg;
static struct rt_writer *mw;		/* the miss stream */
static struct rt_rec cur;		/* the record being simulated */
static int status;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: cachesim [-Abdkz] [-c size:assoc:block[:policy[:wb|wt[:wa|nwa]]] | -c preset]\n"
	    "                [-i icache] [-I format] [-o file] [-S seed] [--cachegrind]\n"
	    "                [--inclusion nine|inclusive|exclusive] [--latency c1,c2,...,mem]\n"
	    "                [--misses level] [file ...]\n");
	exit(2);
}

static void
diag(const char *msg, int fatal)
{
	warnx("%s", msg);
	if (fatal)
		status = 1;
}

/* -c: a level, or a preset of several. */
static void
addlevel(const char *spec)
{
	static const struct { const char *name, *levels[3]; } presets[] = {
		/* the Core i7 of Choudhury's dissertation */
		{ "i7", { "32K:8:64:lru", "256K:8:64:lru", "8M:16:64:lru" } },
	};
	char why[160];
	size_t p, i;

	for (p = 0; p < sizeof presets / sizeof presets[0]; p++)
		if (strcmp(spec, presets[p].name) == 0) {
			for (i = 0; i < 3 && presets[p].levels[i]; i++)
				addlevel(presets[p].levels[i]);
			return;
		}
	if (nc == RT_MAXLEVEL)
		errx(2, "-c: at most %d levels", RT_MAXLEVEL);
	if (rt_cache_parse(spec, &cflag[nc], why, sizeof why))
		errx(2, "-c %s: %s", spec, why);
	nc++;
}

static void
down(void *ctx, uint64_t addr, int op)
{
	struct rt_rec r = cur;

	(void)ctx;
	r.op = (uint8_t)op;
	r.addr = addr;
	r.size = rt_hier_block(hier, RT_READ);
	if (rt_write(mw, &r)) {
		if (errno != EPIPE)
			warn("%s", oflag ? oflag : "<stdout>");
		exit(1);
	}
}

static int
item(void *ctx, struct rt_rec *rec)
{
	uint64_t a, end, bs, next;
	const uint64_t *ev;
	int k, i, n;

	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		if (mw != NULL && rt_write(mw, rec) && errno != EPIPE)
			warn("%s", oflag ? oflag : "<stdout>");
		return 0;
	}
	if (cg != NULL) {
		rt_cg_access(cg, rec);
		return 0;
	}
	cur = *rec;
	bs = rt_hier_block(hier, rec->op);
	end = rec->addr + (rec->size ? rec->size - 1 : 0);
	for (a = rec->addr; a <= end; a = next) {	/* every first-level block */
		next = (a / bs + 1) * bs;
		k = rt_hier_access(hier, a, rec->op,
		    (uint32_t)((next - 1 < end ? next - 1 : end) - a + 1));
		if (dflag) {
			n = rt_hier_levels(hier);
			fprintf(fo, "%llu ", (unsigned long long)rec->seq);
			if (k == n)
				fputs("mem", fo);
			else
				fprintf(fo, "L%d", k + 1);
			ev = rt_hier_evicted(hier);
			for (i = 0; i < n; i++)
				if (ev[i] == UINT64_MAX)
					fputs(" -", fo);
				else
					fprintf(fo, " 0x%llx", (unsigned long long)ev[i]);
			fputc('\n', fo);
		}
		if (next == 0)
			break;	/* the top of the address space */
	}
	return 0;
}

static double
total(const uint64_t v[3])
{
	return (double)v[0] + (double)v[1] + (double)v[2];
}

static void
row(const char *name, const struct rt_cache_cfg *c, const struct rt_cache_stats *s)
{
	double a = total(s->acc), m = total(s->miss);

	if (c != NULL)
		fprintf(fo, "%s %llu %u %u %s%s%s", name, (unsigned long long)c->size,
		    c->assoc, c->block, rt_policy_name(c->policy), c->wt ? ",wt" : "",
		    c->nwa ? ",nwa" : "");
	else
		fprintf(fo, "%s - - - -", name);
	fprintf(fo, " %.0f %llu %llu %llu", a, (unsigned long long)s->acc[0],
	    (unsigned long long)s->acc[1], (unsigned long long)s->acc[2]);
	if (c == NULL) {	/* memory: every access is served */
		fprintf(fo, " - - - - - - - - - - -\n");
		return;
	}
	fprintf(fo, " %.0f %llu %llu %llu %.6f %llu %llu %llu %llu %llu\n", m,
	    (unsigned long long)s->miss[0], (unsigned long long)s->miss[1],
	    (unsigned long long)s->miss[2], a ? m / a : 0,
	    (unsigned long long)s->evictions, (unsigned long long)s->writebacks,
	    (unsigned long long)s->invalidations, (unsigned long long)s->bytes_up,
	    (unsigned long long)s->bytes_down);
}

/* Average access time: the first level's latency plus, at each level,
 * its local miss ratio times the cost of going below. */
static double
amat(void)
{
	const struct rt_cache_cfg *c;
	const struct rt_cache_stats *s;
	double t, mr;
	int k, n = rt_hier_levels(hier);

	t = lat[n];
	for (k = n - 1; k >= 0; k--) {
		s = rt_hier_stats(hier, k, &c);
		mr = total(s->acc) ? total(s->miss) / total(s->acc) : 0;
		t = lat[k] + mr * t;
	}
	return t;
}

static void
report(void)
{
	const struct rt_cache_cfg *c;
	const struct rt_cache_stats *s;
	char name[16];
	int k, n = rt_hier_levels(hier);

	if (Aflag) {
		for (k = hasi ? -1 : 0; k <= n; k++) {
			s = rt_hier_stats(hier, k, &c);
			snprintf(name, sizeof name, k < 0 ? "L1I" : k == n ? "memory" :
			    hasi && k == 0 ? "L1D" : "L%d", k + 1);
			if (c == NULL) {
				fprintf(fo, "%-7s %12.0f accesses\n", name, total(s->acc));
				continue;
			}
			fprintf(fo, "%-7s %12.0f accesses %12.0f misses  miss ratio %.4f  "
			    "(%llu writebacks)\n", name, total(s->acc), total(s->miss),
			    total(s->acc) ? total(s->miss) / total(s->acc) : 0,
			    (unsigned long long)s->writebacks);
		}
		fprintf(fo, "average access time %.2f cycles\n", amat());
		return;
	}
	fprintf(fo, "#reftrace cache 1 level size assoc block policy accesses reads writes"
	    " fetches misses read_misses write_misses fetch_misses miss_ratio"
	    " evictions writebacks invalidations bytes_in bytes_out\n");
	for (k = hasi ? -1 : 0; k <= n; k++) {
		s = rt_hier_stats(hier, k, &c);
		snprintf(name, sizeof name, k < 0 ? "L1I" : k == n ? "mem" :
		    hasi && k == 0 ? "L1D" : "L%d", k + 1);
		row(name, c, s);
	}
	fprintf(fo, "#amat %.4f\n", amat());
}

static void
setlat(char *arg)
{
	char *p, *save = NULL;

	for (nlat = 0, p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (nlat > RT_MAXLEVEL || rt_parse_double(p, &lat[nlat]) || lat[nlat] < 0)
			errx(2, "--latency: want cycles per level and memory, like 3,15,300");
		nlat++;
	}
}

int
main(int argc, char *argv[])
{
	static const struct option lo[] = {
		{ "cachegrind", no_argument, NULL, 'G' },
		{ "inclusion", required_argument, NULL, 'X' },
		{ "latency", required_argument, NULL, 'L' },
		{ "misses", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 }
	};
	static const double deflat[] = { 3, 15, 40, 80, 120, 160, 200, 240 };
	char why[160];
	uint64_t v;
	int c, k;

	while ((c = getopt_long(argc, argv, "Abc:dhI:i:ko:S:Vz", lo, NULL)) != -1) {
		switch (c) {
		case 'A': Aflag = 1; break;
		case 'b': bflag = 1; break;
		case 'c': addlevel(optarg); break;
		case 'd': dflag = 1; break;
		case 'G': cgflag = 1; break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				errx(2, "-I %s: unknown format", optarg);
			break;
		case 'i':
			if (rt_cache_parse(optarg, &iflag, why, sizeof why))
				errx(2, "-i %s: %s", optarg, why);
			hasi = 1;
			break;
		case 'k': kflag = 1; break;
		case 'L': setlat(optarg); break;
		case 'M':
			if (rt_parse_u64(optarg, &v) || v == 0 || v > RT_MAXLEVEL)
				errx(2, "--misses %s: a level, 1 for the first", optarg);
			misses = (int)v;
			break;
		case 'o': oflag = optarg; break;
		case 'S':
			if (rt_parse_u64(optarg, &Sflag))
				errx(2, "-S %s: bad seed", optarg);
			break;
		case 'V': printf("cachesim %s\n", RT_VERSION); return 0;
		case 'X':
			if (strcmp(optarg, "nine") == 0)
				incl = RT_NINE;
			else if (strcmp(optarg, "inclusive") == 0)
				incl = RT_INCLUSIVE;
			else if (strcmp(optarg, "exclusive") == 0)
				incl = RT_EXCLUSIVE;
			else
				errx(2, "--inclusion %s: nine, inclusive or exclusive", optarg);
			break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (nc == 0 && !cgflag)
		addlevel("i7");
	if (misses > nc)
		errx(2, "--misses %d: there are %d levels", misses, nc);
	if (oflag == NULL || misses)
		fo = stdout;	/* with --misses, -o names the trace */
	else if ((fo = fopen(oflag, "w")) == NULL)
		err(1, "%s", oflag);
	if (cgflag) {
		/* cachegrind's I1, D1 and LL: -i, the first and the last -c */
		struct rt_cache_cfg d1, i1, ll;

		if (nc == 0) {
			rt_cache_parse("32K:8:64", &d1, why, sizeof why);
			rt_cache_parse("8M:16:64", &ll, why, sizeof why);
		} else if (nc == 2) {
			d1 = cflag[0];
			ll = cflag[1];
		} else
			errx(2, "--cachegrind: give D1 and LL with -c (and I1 with -i)");
		i1 = hasi ? iflag : d1;
		if ((cg = rt_cg_new(&i1, &d1, &ll)) == NULL)
			err(1, NULL);
	} else {
		if ((hier = rt_hier_new(cflag, nc, hasi ? &iflag : NULL, incl, Sflag)) == NULL)
			errx(1, "cannot allocate the caches");
		for (k = 0; k <= nc; k++)
			lat[k] = k < nlat ? lat[k] : k == nc ? 300 : deflat[k];
		if (nlat && nlat != nc + 1)
			errx(2, "--latency: %d levels and memory want %d numbers", nc, nc + 1);
		if (misses) {
			if ((mw = rt_wopen(oflag, bflag ? RT_FMT_BINARY : RT_FMT_TEXT, zflag)) == NULL)
				err(1, "%s", oflag ? oflag : "<stdout>");
			rt_hier_watch(hier, misses - 1, down, NULL);
		}
	}
	if (dflag && !misses) {
		fprintf(fo, "#reftrace cache-records 1 seq served");
		for (k = 1; k <= nc; k++)
			fprintf(fo, " evicted_L%d", k);
		fputc('\n', fo);
	}
	if (!Aflag && !dflag && !misses && !cgflag && isatty(fileno(fo)))
		Aflag = 1;
	k = rt_foreach(argv, argc, Iflag, kflag, item, NULL, diag);
	if (k)
		status = 1;
	if (cg != NULL) {
		const struct rt_cgstats *s = rt_cg_stats(cg);

		fprintf(fo, "#reftrace cachegrind 1 Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n");
		fprintf(fo, "%llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
		    (unsigned long long)s->ir, (unsigned long long)s->i1mr,
		    (unsigned long long)s->ilmr, (unsigned long long)s->dr,
		    (unsigned long long)s->d1mr, (unsigned long long)s->dlmr,
		    (unsigned long long)s->dw, (unsigned long long)s->d1mw,
		    (unsigned long long)s->dlmw);
	} else if (mw != NULL) {
		if (rt_wclose(mw) && errno != EPIPE) {
			warn("%s", oflag ? oflag : "<stdout>");
			status = 1;
		}
		fo = NULL;
	} else if (!dflag)
		report();
	if (fo != NULL && (fflush(fo) || ferror(fo) || (fo != stdout && fclose(fo)))) {
		if (errno != EPIPE)
			warn("%s", oflag ? oflag : "<stdout>");
		status = 1;
	}
	rt_hier_free(hier);
	rt_cg_free(cg);
	return status;
}
