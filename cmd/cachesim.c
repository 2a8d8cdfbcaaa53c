/* cachesim: trace-driven simulation of multi-level caches. */
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "util.h"

static struct rt_cache_cfg iflag;
static int hasi, Aflag, dflag, kflag, bflag, zflag, cgflag, misses, threec, diffmode, Mflag;
static int flush, tlb, cores, fixup, jflag;	/* --flush, --tlb, --cores, --fixup, --threads */
static int c3ref = RT_3C_LRU;		/* --3c-ref */
static uint64_t warmup;			/* --warmup: records of seq below it */
static double warmfrac;			/* --warmup-fraction */
static char config[RT_CONFIGLEN];	/* options that change counts, not said by the table's rows */
static int unfold;			/* --unfold: -g rows of every object */
static const char *sortflag;		/* --sort: -g's column */
static int sortcol = -1, gflag = -1;	/* -g: RT_KEY_SET ... */
static int incl = RT_NINE, Iflag = RT_FMT_AUTO;
static const char *const inclnames[] = { "nine", "inclusive", "exclusive", NULL };	/* RT_NINE ... */
static uint64_t Sflag = 1;
static double lat[RT_MAXLEVEL + 1];
static int nlat, nc, nE;		/* nc: -c levels, nE: -E specs */
static const char *oflag, *mapfile, *cgout, *slice;
static struct rt_evmap *evmap;	/* --map */
static uint64_t mapw = 800, tempw;	/* --width, --temperature */

static FILE *fo;
static struct rt_ens *ens;
static struct rt_sim *sim;
static struct rt_writer *mw;		/* the miss stream */
static struct rt_regions *regs;
static struct rt_part part;		/* the trace's, from its header */

enum { O_3CREF = U_LONG, O_CG, O_CGOUT, O_DIFF, O_FLUSH, O_ICACHE, O_INCL, O_LAT, O_MAP, O_MISSES,
	O_TEMP, O_SORT, O_PF, O_TLB, O_ITLB, O_UNFOLD, O_WARMUP, O_WARMFRAC, O_WIDTH, O_CORES, O_SLICE,
	O_FIXUP, O_THREADS };
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
	{ O_FIXUP, "fixup", NULL, "the table from a binary trace and its --slice states, in order" },
	{ O_FLUSH, "flush", NULL, "write back every dirty block at the end, as Dinero IV" },
	{ O_ICACHE, "icache", "spec", "a split first-level instruction cache" },
	{ O_INCL, "inclusion", "policy", "nine, inclusive or exclusive" },
	{ O_LAT, "latency", "c1,...,mem", "cycles per level and memory, for AMAT" },
	{ O_MAP, "map", "file.png", "the level that served each access, as a picture" },
	{ O_MISSES, "misses", "level", "the trace of what level sends below" },
	{ O_PF, "prefetch", "spec", "[level:]d|a|m|t|l|s[:dist][:abort=P], stream[:n], stride[:n[:entries]]" },
	{ O_SLICE, "slice", "k/n", "slice k of n of a binary trace: its counts and caches' state" },
	{ O_SORT, "sort", "column", "-g: rows by this column, largest first (misses)" },
	{ O_TEMP, "temperature", "n", "hit scores over the last n accesses" },
	{ O_THREADS, "threads", "n", "simulate on n threads, read on another (nproc, at most 16)" },
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

	for (nlat = 0, p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save), nlat++)
		if (nlat > RT_MAXLEVEL || rt_parse_double(p, &lat[nlat]) || lat[nlat] < 0)
			u_bad("--latency: want cycles per level and memory, like 3,15,300");
}

/* An option that changes counts the rows do not show: a partition's
 * table names it, so that tables made without it are not merged in. */
static void __attribute__((format(printf, 1, 2)))
configured(const char *fmt, ...)
{
	size_t n = strlen(config);
	va_list ap;

	if (n > 0 && n + 1 < sizeof config)
		config[n++] = ' ';
	va_start(ap, fmt);
	vsnprintf(config + n, sizeof config - n, fmt, ap);
	va_end(ap);
}

/* --cachegrind-out: the file cg_annotate reads; cmd: names the traces */
static void
cgwrite(char **files, int n)
{
	FILE *f = u_open(cgout);
	int k;

	if ((k = rt_sim_cgfile(sim, f, files, n)) != 0 || u_close(f, cgout))
		u_die(1, k == RT_ENOMEM ? "%s: out of memory" : "%s:", cgout);
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

	rt_hier_stats(h, 0, &l1);
	if ((m = rt_evmap_new((double)mapw, rt_evmap_height((double)mapw), rt_cache_sets(l1),
	    rt_hier_levels(h), threec)) == NULL)
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
	    .slice = slice, .fixup = fixup ? 1 + Aflag : 0,
	    .cores = cores, .threads = jflag ? jflag : u_cpus(16) };
	char why[200];
	int k, guessed;

	if (mapfile != NULL)	/* made once the levels are known, before a record */
		c.watchctx = &evmap;
	if (cgflag) {	/* cachegrind's I1, D1 and LL: --icache, the first and the last -c */
		if ((k = rt_sim_cgnew(&sim, ens, regs, &c, &guessed, why, sizeof why)) != 0)
			u_fail(k, "--cachegrind: %s (give D1 and LL with -c)", why);
		if (guessed)
			u_warn("--cachegrind: I1 %s, D1 32K:8:64, LL 8M:16:64 (give --icache and two -c "
			    "as cachegrind's --I1, --D1 and --LL)", hasi ? "as --icache" : "32K:8:64");
		return;
	}
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

static void
report(void)
{
	FILE *f;

	if (mw != NULL) {
		u_wclose(mw, oflag);
		fo = NULL;
	} else {
		if (rt_sim_report(sim, Aflag, &part, u_diag))
			u_die(1, "out of memory");
		if (rt_sim_missing(sim) != NULL)
			u_warn("-g %s: %s", rt_key_name(gflag), rt_sim_missing(sim));
	}
	if (mapfile != NULL) {
		f = u_outfile(mapfile);
		if (rt_evmap_write(evmap, f, u_pictkind(mapfile) == U_SVG, NULL))
			u_die(1, "%s:", mapfile);
		if (u_close(f, mapfile))
			exit(1);
	}
}

/* Options that do not go together; in order, the first that applies is said. */
static const struct u_clash clashes[] = {
	{ "merge", "cache ensemble icache latency 3c 3c-ref records misses by cachegrind diff "
	    "map temperature inclusion warmup warmup-fraction tlb itlb cores prefetch",
	    "-M merges tables as they are: only -A and -o with it" },
	{ "misses", "records by 3c 3c-ref temperature diff summary", "the output is the trace "
	    "below the level" },
	{ "cores", "cachegrind cachegrind-out misses map", "each core's levels, kept coherent: "
	    "not cachegrind's model, a core's miss stream or map" },
	{ "tlb itlb prefetch", "cachegrind", "the caches' table, not cachegrind's model" },
	{ "ensemble", "cache", "give the configurations one way" },
	{ "cachegrind-out", "ensemble records misses diff", "one hierarchy's counts" },
	{ "cachegrind", "records misses 3c 3c-ref diff map temperature", "cachegrind's model "
	    "counts its misses, nothing more" },
	{ "ensemble", "records misses by 3c 3c-ref cachegrind", "an ensemble writes one row per "
	    "configuration" },
	{ "warmup warmup-fraction", "ensemble records misses by cachegrind diff map temperature",
	    "the table of one hierarchy" },
	{ NULL, NULL, NULL }
};

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

	switch (c) {
	case '3': threec = 1; break;
	case O_3CREF:
		c3ref = u_word("--3c-ref", optarg, (const char *[]){ "lru", "own", NULL }) ?
		    RT_3C_OWN : RT_3C_LRU;
		if (c3ref == RT_3C_OWN)
			configured("--3c-ref own");
		threec = 1;
		break;
	case 'A': Aflag = 1; break;
	case 'b': bflag = 1; break;
	case 'c':
		u_check(rt_ens_level(ens, optarg, why, sizeof why), "-c", optarg, why);
		nc++;
		break;
	case 'd': dflag = 1; break;
	case 'M': Mflag = 1; break;
	case O_FIXUP: fixup = 1; break;
	case O_SLICE: slice = optarg; break;
	case O_DIFF: diffmode = 1; break;
	case O_FLUSH: flush = 1; configured("--flush"); break;
	case 'E':
		u_check(rt_ens_expand(ens, optarg, why, sizeof why), "-E", optarg, why);
		nE++;
		break;
	case O_MAP:
		if (u_pictkind(optarg) == U_HTML)
			u_bad("--map %s: a picture (.png, .svg); trmap -c pages it under the access map", optarg);
		mapfile = optarg;
		break;
	case O_TEMP:
		tempw = u_size("--temperature", optarg, 1, UINT64_MAX, "a window of accesses");
		break;
	case O_WIDTH: mapw = u_size("--width", optarg, 200, 20000, "200 to 20000 pixels"); break;
	case O_WARMUP:
		warmup = u_count("--warmup", optarg, 0, UINT64_MAX, "a count of records");
		configured("--warmup %llu", (unsigned long long)warmup);	/* said one way */
		break;
	case O_WARMFRAC:
		warmfrac = u_real("--warmup-fraction", optarg, nextafter(0, 1), 1,
		    "a fraction above 0, at most 1");
		break;
	case O_CG: cgflag = 1; break;
	case O_UNFOLD: unfold = 1; break;
	case O_SORT: sortflag = optarg; break;
	case O_PF:
		u_check(rt_ens_prefetch(ens, optarg, why, sizeof why), "--prefetch", optarg, why);
		configured("--prefetch %s", optarg);
		break;
	case O_CGOUT: cgout = optarg; break;
	case 'I': Iflag = u_format(optarg); break;
	case O_TLB:
	case O_ITLB:
		u_check(rt_ens_tlb(ens, optarg, c == O_ITLB, why, sizeof why), u_optname(&prog, c),
		    optarg, why);
		tlb = 1;
		break;
	case O_ICACHE:
		u_check(rt_cache_parse(optarg, &iflag, why, sizeof why), "--icache", optarg, why);
		hasi = 1;
		break;
	case 'k': kflag = 1; break;
	case O_CORES: cores = (int)u_count("--cores", optarg, 1, RT_MAXCORES, "1 to 64"); break;
	case O_THREADS: jflag = (int)u_count("--threads", optarg, 1, RT_MAXTHREADS, "1 to 64"); break;
	case O_LAT: setlat(optarg); break;
	case O_MISSES: misses = (int)u_count("--misses", optarg, 1, RT_MAXLEVEL, "a level"); break;
	case 'o': oflag = optarg; break;
	case 'S': Sflag = u_count("-S", optarg, 0, UINT64_MAX, "bad seed"); break;
	case O_INCL: incl = u_word("--inclusion", optarg, inclnames); break;
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
	exit(u_status);
}

/* What the options ask of each other, once all are known. */
static void
postcheck(void)
{
	char why[200];
	int k;

	if (cgflag && (gflag == RT_KEY_SET || gflag == RT_KEY_REGION))
		u_bad("--cachegrind: -g loc or func");
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

int
main(int argc, char *argv[])
{
	char why[200];
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
	u_clash(&prog, clashes);
	if (Mflag)
		merge(argc, argv);
	postcheck();
	fo = misses ? stdout : u_open(oflag);	/* with --misses, -o names the trace */
	simsetup();
	if (!Aflag && !dflag && !misses && (!cgflag || gflag < 0) && !nE && isatty(fileno(fo)))
		Aflag = 1;
	if (warmfrac > 0)
		u_on_input(warmpart);
	if ((k = rt_sim_run(sim, argv, argc, Iflag, kflag, u_diag, &part, flush, why,
	    sizeof why)) < 0 && rt_sim_failed(sim, why, sizeof why) == RT_EIO)
		u_wfail(oflag);
	if (k < 0)
		u_fail(k, k == RT_EUSAGE && nE ? "-E: %s" : "%s", why);
	if (k == 2)	/* no table of what was not read */
		u_discard();
	if (k)
		u_status = 1;
	if (cgout != NULL)
		cgwrite(argv, argc);
	report();
	if (fo != NULL)
		u_close(fo, oflag);
	rt_sim_free(sim);
	rt_evmap_free(evmap);
	rt_ens_free(ens);
	rt_regions_free(regs);
	return u_status;
}
