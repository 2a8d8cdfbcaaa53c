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
static int flush, tlb;			/* --flush: write dirty blocks back at the end; --tlb */
static int cores;			/* --cores */
static int c3ref = RT_3C_LRU;		/* --3c-ref */
static uint64_t warmup;			/* --warmup: records of seq below it */
static double warmfrac;			/* --warmup-fraction */
static char config[RT_CONFIGLEN];	/* options that change counts, not said by the table's rows */
static int unfold;			/* --unfold: -g rows of every object */
static const char *sortflag;		/* --sort: -g's column */
static int sortcol = -1;
static int gflag = -1;			/* -g: RT_KEY_SET ... */
static int incl = RT_NINE, Iflag = RT_FMT_AUTO;
static const char *inclnames[] = { "nine", "inclusive", "exclusive" };	/* by RT_NINE ... */
static uint64_t Sflag = 1;
static double lat[RT_MAXLEVEL + 1];
static int nlat, nc, nE;		/* nc: -c levels, nE: -E specs */
static const char *oflag, *mapfile, *cgout;
static struct rt_evmap *evmap;	/* --map */
static char cgdesc[RT_MAXLEVEL + 1][96], cgcmd[512];
static uint64_t mapw = 800, tempw;	/* --width, --temperature */

static FILE *fo;
static struct rt_ens *ens;
static struct rt_sim *sim;
static struct rt_cg *cg;
static struct rt_writer *mw;		/* the miss stream */
static struct rt_regions *regs;
static struct rt_part part;		/* the trace's, from its header */

enum { O_3CREF = U_LONG, O_CG, O_CGOUT, O_DIFF, O_FLUSH, O_ICACHE, O_INCL, O_LAT, O_MAP, O_MISSES, O_TEMP,
	O_SORT, O_TLB, O_ITLB, O_UNFOLD, O_WARMUP, O_WARMFRAC, O_WIDTH, O_CORES };
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
	{ O_3CREF, "3c-ref", "lru|own", "-3's fully associative cache: LRU (Hill), or own policy (Dinero IV)" },
	{ O_CG, "cachegrind", NULL, "cachegrind's model and summary line" },
	{ O_CGOUT, "cachegrind-out", "file", "--cachegrind's counts by source line, as cachegrind's file" },
	{ O_CORES, "cores", "n", "levels above the last private to each of n cores (MSI)" },
	{ O_DIFF, "diff", NULL, "the accesses two -E configurations serve differently" },
	{ O_FLUSH, "flush", NULL, "write back every dirty block at the end, as Dinero IV" },
	{ O_ICACHE, "icache", "spec", "a split first-level instruction cache" },
	{ O_INCL, "inclusion", "policy", "nine, inclusive or exclusive" },
	{ O_LAT, "latency", "c1,...,mem", "cycles per level and memory, for AMAT" },
	{ O_MAP, "map", "file.png", "the level that served each access, as a picture" },
	{ O_MISSES, "misses", "level", "the trace of what level sends below" },
	{ O_SORT, "sort", "column", "-g: rows by this column, largest first (misses)" },
	{ O_TEMP, "temperature", "n", "hit scores over the last n accesses" },
	{ O_TLB, "tlb", "spec", "a TLB level beside the caches: entries:assoc:page[:policy]" },
	{ O_ITLB, "itlb", "spec", "a split first-level instruction TLB" },
	{ O_UNFOLD, "unfold", NULL, "-g loc, func: rows of every object, not one per library" },
	{ O_WARMUP, "warmup", "n", "count nothing of the first n records (seq below n)" },
	{ O_WARMFRAC, "warmup-fraction", "f", "count nothing until f of the last level is filled" },
	{ O_WIDTH, "width", "pixels", "--map: the picture's width (800; 3:5 high)" },
	{ 0 }
};
static const struct u_prog prog = { "cachesim", "[file ...]", opts, NULL };

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

/* An option that changes counts the rows do not show: a partition's
 * table names it, so that tables made without it are not merged in. */
static void
configured(const char *opt)
{
	size_t n = strlen(config);

	snprintf(config + n, sizeof config - n, "%s%s", n ? " " : "", opt);
}

/* A level as cachegrind's desc: line says it */
static void
cgname(int k, const char *name, const struct rt_cache_cfg *c)
{
	uint64_t ways = c->assoc ? c->assoc : c->size / c->block;

	if (ways == 1)
		snprintf(cgdesc[k], sizeof cgdesc[k], "%s cache:         %llu B, %u B, direct-mapped",
		    name, (unsigned long long)c->size, c->block);
	else
		snprintf(cgdesc[k], sizeof cgdesc[k], "%s cache:         %llu B, %u B, %llu-way "
		    "associative", name, (unsigned long long)c->size, c->block,
		    (unsigned long long)ways);
}

/* --cachegrind-out: the file cg_annotate reads; cmd: names the traces */
static void
cgwrite(void)
{
	const char *d[RT_MAXLEVEL + 1];
	const struct rt_cache_cfg *lv;
	const struct rt_tally *t;
	char ev[512], name[8];
	FILE *f;
	int k, n, nev;

	if (!cgflag) {	/* the hierarchy: a line per level */
		lv = rt_ens_levels(ens, &n);
		for (k = 0; k < n && k < RT_MAXLEVEL; k++) {
			snprintf(name, sizeof name, "L%d", k + 1);
			cgname(k, name, &lv[k]);
		}
		if (hasi)
			cgname(k++, "L1I", &iflag);
	} else
		k = 3;
	for (n = 0; n < k; n++)
		d[n] = cgdesc[n];
	t = rt_sim_cgtally(sim, &nev, ev, sizeof ev);
	f = u_open(cgout);
	if ((k = rt_cgfile_write(f, t, nev, ev, d, n, cgcmd)) == RT_ENOMEM)
		u_die(1, "out of memory");
	if (k || u_close(f, cgout))
		u_die(1, "%s:", cgout);
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
	if ((cg = rt_cg_new(&i1, &d1, &ll)) == NULL ||
	    (sim = rt_sim_cg(cg, regs, fo, gflag, cgout != NULL, sortcol)) == NULL)
		u_die(1, "out of memory");
	cgname(0, "I1", &i1);
	cgname(1, "D1", &d1);
	cgname(2, "LL", &ll);
}

/* --map: MTV's cache view of the first configuration. */
static void
mapwatch(void *ctx, uint64_t set, int level, int kind, int evicted)
{
	rt_evmap_add(*(struct rt_evmap **)ctx, set, level, kind, evicted);
}

static struct rt_evmap *
mapnew(void)
{
	const struct rt_cache_cfg *l1;
	struct rt_hier *h = rt_ens_hier(ens, 0);
	struct rt_evmap *m;

	rt_hier_stats(h, 0, &l1);	/* 3 wide by 5 high, never less than 200 high */
	if ((m = rt_evmap_new((double)mapw, mapw < 334 ? 200 : (double)(mapw * 3 / 5),
	    l1->size / ((uint64_t)l1->assoc * l1->block), rt_hier_levels(h), threec)) == NULL)
		u_die(1, "out of memory");
	return m;
}

/* The hierarchies, and what follows each access. */
static void
simsetup(void)
{
	struct rt_sim_cfg c = { .icache = hasi ? &iflag : NULL, .incl = incl, .threec = threec ? c3ref : 0,
	    .ensemble = nE, .seed = Sflag, .lat = lat, .nlat = nlat, .out = fo,
	    .records = dflag, .diff = diffmode, .key = gflag, .tempw = tempw,
	    .config = config, .watch = mapfile ? mapwatch : NULL, .bylocs = cgout != NULL,
	    .fold = !unfold, .sortcol = sortcol, .warmup = warmup, .warmfrac = warmfrac,
	    .cores = cores };
	char why[200];
	int k;

	if (mapfile != NULL)	/* made once the levels are known, before a record */
		c.watchctx = &evmap;
	if ((k = rt_sim_new(&sim, ens, regs, &c, why, sizeof why)) != 0)
		u_fail(k, k != RT_EUSAGE ? "%s" : nlat && nlat != rt_ens_depth(ens) + 1 ?
		    "--latency: %s" : cores ? "--cores: %s" : nE ? "-E: %s" : "%s", why);
	if (mapfile != NULL)
		evmap = mapnew();
	nc = rt_ens_depth(ens);
	if (misses) {
		mw = u_wopen(oflag, bflag ? RT_FMT_BINARY : RT_FMT_TEXT, zflag);
		rt_sim_misses(sim, misses, mw);
	}
}

/* The simulation failed on the way: a write, or memory. */
static void
simfail(const char *tmp)
{
	char why[200];

	if (*tmp)
		unlink(tmp);
	if (rt_sim_failed(sim, why, sizeof why) == RT_EIO)
		u_wfail(oflag);
	u_die(1, "%s", why);
}

static void
report(void)
{
	FILE *f;
	size_t n;

	if (mw != NULL) {
		u_wclose(mw, oflag);
		fo = NULL;
	} else {
		if (rt_sim_report(sim, Aflag, &part, u_diag))
			u_die(1, "out of memory");
		if (rt_sim_missing(sim) != NULL)
			u_warn("-g %s: %s", rt_key_name(gflag), rt_sim_missing(sim));
	}
	if (mapfile != NULL && cg == NULL) {
		f = u_outfile(mapfile);
		if (rt_evmap_write(evmap, f, (n = strlen(mapfile)) > 4 &&
		    strcmp(mapfile + n - 4, ".svg") == 0, NULL))
			u_die(1, "%s:", mapfile);
		if (u_close(f, mapfile))
			exit(1);
	}
}

/* Options that do not go together: with any of first, none of then; the
 * message says why.  In order: the first that applies is said. */
enum { F_3C = 1, F_D = 2, F_MISSES = 4, F_BY = 8, F_CG = 16, F_DIFF = 32, F_MAP = 64,
	F_TEMP = 128, F_E = 256, F_C = 512, F_ICACHE = 1024, F_LAT = 2048, F_INCL = 4096,
	F_CGOUT = 8192, F_M = 16384, F_WARM = 32768, F_TLB = 65536, F_CORES = 131072 };
static const struct clash { int first, then; const char *why; } clashes[] = {
	{ F_M, F_C | F_E | F_ICACHE | F_LAT | F_3C | F_D | F_MISSES | F_BY | F_CG | F_DIFF |
	    F_MAP | F_TEMP | F_INCL | F_WARM | F_TLB | F_CORES, "-M merges tables as they are: only -A and -o with it" },
	{ F_CORES, F_CG | F_CGOUT | F_MISSES | F_MAP | F_TLB, "--cores: not with --cachegrind, "
	    "--cachegrind-out, --misses, --map, --tlb" },
	{ F_TLB, F_CG, "--tlb: the caches' table, not cachegrind's model" },
	{ F_E, F_C, "-E and -c: give the configurations one way" },
	{ F_CGOUT, F_E | F_D | F_MISSES | F_DIFF,
	    "--cachegrind-out: one hierarchy, not with -E, -d, --misses, --diff" },
	{ F_CG, F_D | F_MISSES | F_3C | F_DIFF | F_MAP | F_TEMP,
	    "--cachegrind: not with -d, --misses, -3, --diff, --map, --temperature" },
	{ F_E, F_D | F_MISSES | F_BY | F_3C | F_CG, "-E: an ensemble writes one row per "
	    "configuration (not with -d, --misses, --by, -3, --cachegrind)" },
	{ F_WARM, F_E | F_D | F_MISSES | F_BY | F_CG | F_DIFF | F_MAP | F_TEMP, "--warmup: "
	    "the table of one hierarchy (not with -E, -d, --misses, -g, --cachegrind, --diff, "
	    "--map, --temperature)" },
	{ 0, 0, NULL }
};

/* The options given, as F_ bits. */
static int
given(void)
{
	return (threec ? F_3C : 0) | (dflag ? F_D : 0) | (misses ? F_MISSES : 0) |
	    (gflag >= 0 ? F_BY : 0) | (cgflag ? F_CG : 0) | (diffmode ? F_DIFF : 0) |
	    (mapfile ? F_MAP : 0) | (tempw ? F_TEMP : 0) | (nE ? F_E : 0) | (nc ? F_C : 0) |
	    (hasi ? F_ICACHE : 0) | (nlat ? F_LAT : 0) | (incl != RT_NINE ? F_INCL : 0) |
	    (cgout ? F_CGOUT : 0) | (Mflag ? F_M : 0) | (warmup || warmfrac > 0 ? F_WARM : 0) |
	    (tlb ? F_TLB : 0) | (cores ? F_CORES : 0);
}

static void
clashcheck(void)
{
	const struct clash *c;
	int g = given();

	for (c = clashes; c->why != NULL; c++)
		if ((g & c->first) && (g & c->then))
			u_bad("%s", c->why);
}

/* --warmup n, --warmup-fraction f */
static void
setwarm(int c, const char *arg)
{
	char opt[64];

	if (c == O_WARMUP && rt_parse_u64(arg, &warmup))
		u_bad("--warmup %s: a count of records", arg);
	if (c == O_WARMUP) {
		snprintf(opt, sizeof opt, "--warmup %llu", (unsigned long long)warmup);
		configured(opt);
	}
	if (c == O_WARMFRAC && (rt_parse_double(arg, &warmfrac) || !(warmfrac > 0 && warmfrac <= 1)))
		u_bad("--warmup-fraction %s: a fraction above 0, at most 1", arg);
}

/* --warmup-fraction on a partition's trace: its sets fill apart from the
 * whole's, so its tables would not merge into the whole's; refused
 * before anything is written. */
static void
warmpart(const struct rt_reader *r)
{
	struct rt_part p;

	if (rt_rpart(r, &p) && p.n > 0)
		u_bad("--warmup-fraction: %s is partition %llu/%llu, whose warm-up is not the "
		    "whole trace's; give --warmup n, which is", rt_rpath(r),
		    (unsigned long long)p.k, (unsigned long long)p.n);
}

/* One option of the command line. */
static void
option(int c)
{
	char why[200];
	uint64_t v;
	int k;

	switch (c) {
	case '3': threec = 1; break;
	case O_3CREF:
		if (strcmp(optarg, "lru") != 0 && strcmp(optarg, "own") != 0)
			u_bad("--3c-ref %s: lru or own", optarg);
		c3ref = strcmp(optarg, "own") == 0 ? RT_3C_OWN : RT_3C_LRU;
		if (c3ref == RT_3C_OWN)
			configured("--3c-ref own");
		threec = 1;
		break;
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
	case O_FLUSH: flush = 1; configured("--flush"); break;
	case 'E':
		if ((k = rt_ens_expand(ens, optarg, why, sizeof why)) != 0)
			u_fail(k, "-E %s: %s", optarg, why);
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
	case O_WARMUP:
	case O_WARMFRAC: setwarm(c, optarg); break;
	case O_CG: cgflag = 1; break;
	case O_UNFOLD: unfold = 1; break;
	case O_SORT: sortflag = optarg; break;
	case O_CGOUT: cgout = optarg; break;
	case 'I':
		if ((Iflag = rt_fmt_parse(optarg)) < 0)
			u_bad("-I %s: unknown format", optarg);
		break;
	case O_TLB:
	case O_ITLB:
		if (rt_ens_tlb(ens, optarg, c == O_ITLB, why, sizeof why))
			u_bad("--%s %s: %s", c == O_TLB ? "tlb" : "itlb", optarg, why);
		tlb = 1;
		break;
	case O_ICACHE:
		if (rt_cache_parse(optarg, &iflag, why, sizeof why))
			u_bad("--icache %s: %s", optarg, why);
		hasi = 1;
		break;
	case 'k': kflag = 1; break;
	case O_CORES:
		if (rt_parse_u64(optarg, &v) || v < 1 || v > RT_MAXCORES)
			u_bad("--cores %s: 1 to %d", optarg, RT_MAXCORES);
		cores = (int)v;
		break;
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

/* -M: the partitions' tables merged, and the program ends. */
static void
merge(int argc, char *argv[])
{
	char err[600];

	if (argc == 0)
		u_bad("-M: name the tables to merge");
	fo = u_open(oflag);
	if (rt_tabmerge_write(fo, argv, argc, Aflag || isatty(fileno(fo)), u_diag, err,
	    sizeof err))
		u_die(1, "-M: %s", err);
	u_close(fo, oflag);
	rt_ens_free(ens);
	rt_regions_free(regs);
	exit(u_status);
}

/* What the options ask of each other, once all are known. */
static void
postcheck(int argc, char *argv[])
{
	char why[200];
	int k;

	if (cgflag && (gflag == RT_KEY_SET || gflag == RT_KEY_REGION))
		u_bad("--cachegrind: -g loc or func");
	for (k = 0; k < argc || (k == 0 && argc == 0); k++)
		snprintf(cgcmd + strlen(cgcmd), sizeof cgcmd - strlen(cgcmd), "%s%s", k ? " " : "",
		    argc ? argv[k] : "-");
	if (diffmode && rt_ens_count(ens) != 2)
		u_bad("--diff compares two configurations: give -E twice");
	if (nc == 0 && !cgflag && !nE)
		rt_ens_level(ens, "i7", why, sizeof why);
	rt_ens_levels(ens, &k);
	if (misses > k)
		u_bad("--misses %d: there are %d levels", misses, k);
	if (sortflag && (gflag < 0 || (sortcol = rt_bytab_column(sortflag, cgflag ? 2 : k,
	    cgflag)) < 0))
		u_bad("--sort %s: a column of the -g table", sortflag);
}

/* OPT and PES: the future, read before the simulation; standard input
 * spooled to tmp, which then replaces the inputs. */
static void
foresee(int *argc, char ***argv, char *tmp, size_t tmplen)
{
	static char *spooled[1];
	char why[200];
	int k;

	k = rt_ens_foresee(ens, *argv, *argc, Iflag, kflag, u_diag, tmp, tmplen, why,
	    sizeof why);
	if (k < 0) {
		if (*tmp)
			unlink(tmp);
		u_fail(k, k == RT_EUSAGE ? "-E: %s" : "%s", why);
	}
	if (k)
		u_status = 1;
	if (*tmp) {
		spooled[0] = tmp;
		*argv = spooled;
		*argc = 1;
		Iflag = RT_FMT_BINARY;
	}
}

int
main(int argc, char *argv[])
{
	char tmp[4096] = "";
	int c, k;

	if ((ens = rt_ens_new()) == NULL || (regs = rt_regions_new()) == NULL)
		u_die(1, "out of memory");
	while ((c = u_getopt(argc, argv, &prog)) != -1)
		option(c);
	argc -= optind;
	argv += optind;
	u_notinput(oflag);	/* before a record is read, and the table written */
	u_notinput(mapfile);
	u_notinput(cgout);
	clashcheck();
	if (Mflag)
		merge(argc, argv);
	postcheck(argc, argv);
	fo = misses ? stdout : u_open(oflag);	/* with --misses, -o names the trace */
	if (cgflag)
		cgsetup();
	else
		simsetup();
	if (tempw)
		rt_temp_header(fo, nc);
	if (diffmode)
		rt_cachediff_header(fo);
	if (dflag && !misses)
		rt_cacherec_header(fo, nc);
	if (!Aflag && !dflag && !misses && (!cgflag || gflag < 0) && !nE && isatty(fileno(fo)))
		Aflag = 1;
	if (warmfrac > 0)
		u_on_input(warmpart);
	if (!cgflag && rt_ens_needs_future(ens))
		foresee(&argc, &argv, tmp, sizeof tmp);
	if ((k = rt_foreach_batch(argv, argc, Iflag, kflag, rt_sim_items, sim, u_diag, &part)) < 0 ||
	    rt_sim_end(sim, flush))
		simfail(tmp);
	if (*tmp)
		unlink(tmp);
	if (k == 2)	/* no table of what was not read */
		u_discard();
	if (k)
		u_status = 1;
	if (cgout != NULL)
		cgwrite();
	report();
	if (fo != NULL)
		u_close(fo, oflag);
	rt_sim_free(sim);
	rt_evmap_free(evmap);
	rt_ens_free(ens);
	rt_cg_free(cg);
	rt_regions_free(regs);
	return u_status;
}
