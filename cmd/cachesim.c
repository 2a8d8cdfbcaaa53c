/* cachesim: trace-driven simulation of multi-level caches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "util.h"

static struct rt_cache_cfg iflag;
static int hasi, Aflag, dflag, kflag, bflag, zflag, cgflag, misses, threec, diffmode, Mflag;
static int flush;			/* --flush: write dirty blocks back at the end */
static int gflag = -1;			/* -g: RT_KEY_SET ... */
static int incl = RT_NINE, Iflag = RT_FMT_AUTO;
static const char *inclnames[] = { "nine", "inclusive", "exclusive" };	/* by RT_NINE ... */
static uint64_t Sflag = 1;
static double lat[RT_MAXLEVEL + 1];
static int nlat, nc;
static const char *oflag, *mapfile;
static uint64_t mapw = 800, tempw;	/* --width, --temperature */

static FILE *fo;
static struct rt_ens *ens;
static struct rt_hier *hier;		/* the first (or only) configuration */
static struct rt_evmap *map;
static struct rt_temp *temp;
static struct rt_tally *tally;
static struct rt_cg *cg;
static struct rt_writer *mw;		/* the miss stream */
static struct rt_rec cur;		/* --misses: the record being simulated */
static struct rt_regions *regs;
static struct rt_part part;		/* the trace's, from its header */

enum { O_CG = U_LONG, O_DIFF, O_FLUSH, O_ICACHE, O_INCL, O_LAT, O_MAP, O_MISSES, O_TEMP, O_WIDTH };
static const struct u_opt opts[] = {
	{ '3', "3c", NULL, "classify misses: compulsory, capacity, conflict" },
	{ 'A', "summary", NULL, "a summary for people, not the table" },
	{ 'b', "binary", NULL, "--misses: write the binary trace format" },
	{ 'c', "cache", "spec", "a level: size:assoc:block[:policy[:wb|wt[:wa|nwa]]], or i7" },
	{ 'd', "records", NULL, "a line per access: the level that served it, evictions" },
	{ 'E', "ensemble", "spec", "configurations: sizes lo..hi, policy lists, levels a/b" },
	{ 'g', "by", "key", "misses by set, region, loc or func" },
	U_OPT_TRACE,
	U_OPT_KEEP,
	{ 'M', "merge", NULL, "merge the tables named, of a trace's partitions" },
	U_OPT_OUTPUT,
	{ 'S', "seed", "seed", "seed of the RANDOM policy (1)" },
	{ 'z', "gzip", NULL, "--misses: compress the trace with gzip" },
	{ O_CG, "cachegrind", NULL, "cachegrind's model and summary line" },
	{ O_DIFF, "diff", NULL, "the accesses two -E configurations serve differently" },
	{ O_FLUSH, "flush", NULL, "write back every dirty block at the end, as Dinero IV" },
	{ O_ICACHE, "icache", "spec", "a split first-level instruction cache" },
	{ O_INCL, "inclusion", "policy", "nine, inclusive or exclusive" },
	{ O_LAT, "latency", "c1,...,mem", "cycles per level and memory, for AMAT" },
	{ O_MAP, "map", "file.png", "the level that served each access, as a picture" },
	{ O_MISSES, "misses", "level", "the trace of what level sends below" },
	{ O_TEMP, "temperature", "n", "hit scores over the last n accesses" },
	{ O_WIDTH, "width", "pixels", "--map: the picture's width (800; 3:5 high)" },
	{ 0 }
};
static const struct u_prog prog = { "cachesim", "[file ...]", opts, NULL };

/* --misses: what the level sends below, as a trace. */
static void
down(void *ctx, uint64_t addr, int op)
{
	struct rt_rec r = cur;

	(void)ctx;
	r.op = (uint8_t)op;
	r.addr = addr;
	r.size = rt_hier_block(hier, RT_READ);
	if (rt_write(mw, &r))
		u_wfail(oflag);
}

/* Every first-level block of an access, served: the per-access outputs. */
static void
served(void *ctx, const struct rt_rec *rec, uint64_t addr, const int *lv)
{
	struct rt_hier *b;
	int n = rt_hier_levels(hier);

	(void)ctx;
	if (diffmode && lv[0] != lv[1]) {
		b = rt_ens_hier(ens, 1);
		rt_cachediff_write(fo, rec->seq, lv[0], n, lv[1], rt_hier_levels(b));
	}
	if (map != NULL)	/* the first level's set; with -3, its kind of miss */
		rt_evmap_add(map, rt_hier_set(hier, addr, rec->op), lv[0],
		    rt_hier_miss3c(hier)[0], rt_hier_evicted(hier)[0] != UINT64_MAX);
	if (temp != NULL)
		rt_temp_write(temp, fo, rec->seq, lv[0]);
	if (tally != NULL && rt_tally_access(tally, rt_key_of(gflag, rec, addr, regs, hier),
	    rec->op, lv[0], nc))
		u_die(1, "--by: too many groups");
	if (dflag)
		rt_cacherec_write(fo, rec->seq, lv[0], n, rt_hier_evicted(hier));
}

static int
item(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			u_die(1, "out of memory");
		if (cg == NULL)	/* a flush: its write-backs go down before it */
			rt_ens_event(ens, rec);
		if (mw != NULL && rt_write(mw, rec))
			u_wfail(oflag);
	} else if (cg != NULL)
		rt_cg_access(cg, rec);
	else {
		if (mw != NULL)
			cur = *rec;
		rt_ens_access(ens, rec);
	}
	return 0;
}

/* A batch: the runs of accesses between events go to the caches whole
 * (but for --cachegrind and --misses, which see each record). */
static int
items(void *ctx, struct rt_rec *v, int n)
{
	int i, j;

	if (cg != NULL || mw != NULL) {
		for (i = 0; i < n; i++)
			item(ctx, &v[i]);
		return 0;
	}
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && v[j].kind == RT_ACCESS; j++)
			;
		if (j > i)
			rt_ens_run(ens, v + i, j - i);
		else
			item(ctx, &v[j++]);
	}
	return 0;
}

static void
setlat(char *arg)
{
	char *p, *save = NULL;

	for (nlat = 0, p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (nlat > RT_MAXLEVEL || rt_parse_double(p, &lat[nlat]) || lat[nlat] < 0)
			u_bad("--latency: want cycles per level and memory, like 3,15,300");
		nlat++;
	}
}

/* cachegrind's I1, D1 and LL: --icache, the first and the last -c */
static void
cgsetup(void)
{
	const struct rt_cache_cfg *lv;
	struct rt_cache_cfg d1, i1, ll;
	char why[160];
	int n;

	lv = rt_ens_levels(ens, &n);
	if (n == 0) {	/* cachegrind asks the CPU; a trace cannot */
		rt_cache_parse("32K:8:64", &d1, why, sizeof why);
		rt_cache_parse("8M:16:64", &ll, why, sizeof why);
		u_warn("--cachegrind: I1 %s, D1 32K:8:64, LL 8M:16:64 (give --icache and two -c "
		    "as cachegrind's --I1, --D1 and --LL)", hasi ? "as --icache" : "32K:8:64");
	} else if (n == 2) {
		d1 = lv[0];
		ll = lv[1];
	} else
		u_bad("--cachegrind: give D1 and LL with -c (and I1 with -i)");
	i1 = hasi ? iflag : d1;
	if ((cg = rt_cg_new(&i1, &d1, &ll)) == NULL)
		u_die(1, "out of memory");
}

static struct rt_evmap *
mapnew(void)
{
	const struct rt_cache_cfg *cfg;

	rt_hier_stats(hier, 0, &cfg);
	/* 3 wide by 5 high, the height never less than 200 */
	return rt_evmap_new((double)mapw, mapw < 334 ? 200 : (double)(mapw * 3 / 5),
	    cfg->size / ((uint64_t)cfg->assoc * cfg->block), rt_hier_levels(hier), threec);
}

/* The hierarchies, and what follows each access. */
static void
simsetup(int nE)
{
	static const double deflat[] = { 3, 15, 40, 80, 120, 160, 200, 240 };
	char why[200];
	int k, obs = dflag || mapfile || tempw || gflag >= 0 || diffmode;

	if ((k = rt_ens_build(ens, hasi ? &iflag : NULL, incl, Sflag, threec, obs, why,
	    sizeof why)) != 0) {
		if (k == -2)
			u_die(1, "%s", why);
		u_bad(nE ? "-E: %s" : "%s", why);
	}
	hier = rt_ens_hier(ens, 0);
	nc = rt_ens_depth(ens);
	for (k = 0; k <= nc; k++)
		lat[k] = k < nlat ? lat[k] : k == nc ? 300 : deflat[k];
	if (nlat && nlat != nc + 1)
		u_bad("--latency: %d levels and memory want %d numbers", nc, nc + 1);
	if (tempw && ((double)tempw * rt_hier_levels(hier) > rt_memory() ||
	    (temp = rt_temp_new(tempw, rt_hier_levels(hier))) == NULL))
		u_die(1, "--temperature: no memory for the window");
	if (mapfile && (map = mapnew()) == NULL)
		u_die(1, "out of memory");
	if (gflag >= 0 && (tally = rt_tally_new((size_t)(nc + 1) * sizeof(uint64_t))) == NULL)
		u_die(1, "out of memory");
	if (misses) {
		mw = u_wopen(oflag, bflag ? RT_FMT_BINARY : RT_FMT_TEXT, zflag);
		rt_hier_watch(hier, misses - 1, down, NULL);
	}
	if (obs)
		rt_ens_observe(ens, served, NULL);
}

/* A partition's table says what a merge needs, and warns when the sum of
 * the partitions' tables would not be the whole's. */
static void
partof(struct rt_cache_table *t)
{
	char why[200];

	if (part.n == 0)
		return;
	t->part = part;
	t->incl = incl;
	t->nlat = nc + 1;
	memcpy(t->lat, lat, sizeof t->lat);
	if (rt_cachetab_exact(t, why, sizeof why) != NULL)
		u_warn("partition %llu/%llu: %s: the partitions will not merge",
		    (unsigned long long)part.k, (unsigned long long)part.n, why);
}

/* -M: the partitions' tables, added up to the whole's. */
static void
merge(char **files, int n)
{
	struct rt_cache_table t;
	char err[600];

	if (rt_tabmerge_files(files, n, &t, err, sizeof err))
		u_die(1, "-M: %s", err);
	if (t.threec == 2)
		u_warn("-M: -3's compulsory misses add up; capacity and conflict do not (each "
		    "partition's fully associative twin saw only its blocks): written as -");
	if (!Aflag && isatty(fileno(fo)))
		Aflag = 1;
	if (Aflag)
		rt_cachetab_summary(fo, &t);
	else
		rt_cachetab_write(fo, &t);
}

static void
report(int nE)
{
	struct rt_cache_table t;
	size_t n;
	FILE *f;

	if (cg != NULL)
		rt_cgtab_write(fo, rt_cg_stats(cg));
	else if (mw != NULL) {
		u_wclose(mw, oflag);
		fo = NULL;
	} else if (tally != NULL) {
		const char *why = rt_key_missing(gflag, tally);

		rt_bytab_write(fo, gflag, tally, nc);
		if (why != NULL)
			u_warn("-g %s: %s", rt_key_name(gflag), why);
	}
	else if (diffmode || tempw)
		;	/* the stream was the output */
	else if (nE)
		rt_enstab_write(fo, ens, lat);
	else if (!dflag) {
		rt_cachetab_of(&t, hier, lat, threec);
		partof(&t);
		if (Aflag)
			rt_cachetab_summary(fo, &t);
		else
			rt_cachetab_write(fo, &t);
	}
	if (map != NULL) {
		if ((f = fopen(mapfile, "wb")) == NULL)
			u_die(1, "%s:", mapfile);
		if (rt_evmap_write(map, f, (n = strlen(mapfile)) > 4 &&
		    strcmp(mapfile + n - 4, ".svg") == 0, NULL) || fclose(f))
			u_die(1, "%s:", mapfile);
	}
}

int
main(int argc, char *argv[])
{
	char why[200], tmp[4096] = "", *spooled[1] = { tmp };
	uint64_t v;
	int c, k, nE = 0;

	if ((ens = rt_ens_new()) == NULL || (regs = rt_regions_new()) == NULL)
		u_die(1, "out of memory");
	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case '3': threec = 1; break;
		case 'A': Aflag = 1; break;
		case 'b': bflag = 1; break;
		case 'c':
			if (rt_ens_level(ens, optarg, why, sizeof why))
				u_bad("-c %s: %s", optarg, why);
			nc++;
			break;
		case 'd': dflag = 1; break;
		case 'M': Mflag = 1; break;
		case O_DIFF: diffmode = 1; break;
		case O_FLUSH: flush = 1; break;
		case 'E':
			if ((k = rt_ens_expand(ens, optarg, why, sizeof why)) != 0) {
				if (k == -2)
					u_die(1, "%s", why);
				u_bad("-E %s: %s", optarg, why);
			}
			nE++;
			break;
		case O_MAP: mapfile = optarg; break;
		case O_TEMP:
			if (rt_parse_size(optarg, &tempw) || tempw == 0)
				u_bad("--temperature %s: a window of accesses", optarg);
			break;
		case O_WIDTH:
			if (rt_parse_size(optarg, &mapw) || mapw < 200 || mapw > 20000)
				u_bad("--width %s: 200 to 20000 pixels", optarg);
			break;
		case O_CG: cgflag = 1; break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				u_bad("-I %s: unknown format", optarg);
			break;
		case O_ICACHE:
			if (rt_cache_parse(optarg, &iflag, why, sizeof why))
				u_bad("--icache %s: %s", optarg, why);
			hasi = 1;
			break;
		case 'k': kflag = 1; break;
		case O_LAT: setlat(optarg); break;
		case O_MISSES:
			if (rt_parse_u64(optarg, &v) || v == 0 || v > RT_MAXLEVEL)
				u_bad("--misses %s: a level, 1 for the first", optarg);
			misses = (int)v;
			break;
		case 'o': oflag = optarg; break;
		case 'S':
			if (rt_parse_u64(optarg, &Sflag))
				u_bad("-S %s: bad seed", optarg);
			break;
		case O_INCL:
			for (incl = RT_NINE; incl <= RT_EXCLUSIVE &&
			    strcmp(optarg, inclnames[incl]) != 0; incl++)
				;
			if (incl > RT_EXCLUSIVE)
				u_bad("--inclusion %s: nine, inclusive or exclusive", optarg);
			break;
		case 'g':
			if ((gflag = rt_key_parse(optarg)) < 0)
				u_bad("-g %s: set, region, loc or func", optarg);
			break;
		case 'z': zflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (Mflag) {
		if (nc || nE || hasi || nlat || threec || dflag || misses || gflag >= 0 ||
		    cgflag || diffmode || mapfile || tempw || incl != RT_NINE)
			u_bad("-M merges tables as they are: only -A and -o with it");
		if (argc == 0)
			u_bad("-M: name the tables to merge");
		fo = u_open(oflag);
		merge(argv, argc);
		u_close(fo, oflag);
		rt_ens_free(ens);
		rt_regions_free(regs);
		return u_status;
	}
	if (nE && nc)
		u_bad("-E and -c: give the configurations one way");
	if (diffmode && rt_ens_count(ens) != 2)
		u_bad("--diff compares two configurations: give -E twice");
	if (nE && (dflag || misses || gflag >= 0 || threec || cgflag))
		u_bad("-E: an ensemble writes one row per configuration (not with -d, --misses, --by, -3, --cachegrind)");
	if (nc == 0 && !cgflag && !nE)
		rt_ens_level(ens, "i7", why, sizeof why);
	rt_ens_levels(ens, &k);
	if (misses > k)
		u_bad("--misses %d: there are %d levels", misses, k);
	fo = misses ? stdout : u_open(oflag);	/* with --misses, -o names the trace */
	if (cgflag)
		cgsetup();
	else
		simsetup(nE);
	if (tempw)
		rt_temp_header(fo, nc);
	if (diffmode)
		rt_cachediff_header(fo);
	if (dflag && !misses)
		rt_cacherec_header(fo, nc);
	if (!Aflag && !dflag && !misses && !cgflag && !nE && isatty(fileno(fo)))
		Aflag = 1;
	if (!cgflag && rt_ens_needs_future(ens)) {
		k = rt_ens_foresee(ens, argv, argc, Iflag, kflag, u_diag, tmp, sizeof tmp, why,
		    sizeof why);
		if (k == -2)
			u_bad("-E: %s", why);
		if (k < 0) {
			if (*tmp)
				unlink(tmp);
			u_die(1, "%s", why);
		}
		if (k)
			u_status = 1;
		if (*tmp) {
			argv = spooled;
			argc = 1;
			Iflag = RT_FMT_BINARY;
		}
	}
	k = rt_foreach_batch(argv, argc, Iflag, kflag, items, NULL, u_diag, &part);
	if (!cgflag)
		rt_ens_flush(ens);
	if (!cgflag && flush)
		rt_ens_event(ens, &(struct rt_rec){ .kind = RT_FLUSH });	/* size 0: all */
	if (*tmp)
		unlink(tmp);
	if (k)
		u_status = 1;
	report(nE);
	if (fo != NULL)
		u_close(fo, oflag);
	rt_ens_free(ens);
	rt_cg_free(cg);
	rt_evmap_free(map);
	rt_temp_free(temp);
	rt_tally_free(tally);
	rt_regions_free(regs);
	return u_status;
}
