/* reusedist: reuse (LRU stack) distances, histograms and miss-ratio curves. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "util.h"

enum { OUT_HIST, OUT_EXACT, OUT_MRC, OUT_RECORDS, OUT_GROUPS, OUT_WINDOW, OUT_SUMMARY, OUT_STATE };

static struct rt_rdist_cfg cfg = { .block = 64, .rate = 1, .seed = 1 };
static int out = OUT_HIST;
static int gflag;
static uint64_t wflag;
static int Mflag, kflag, Iflag = RT_FMT_AUTO, jflag;
static int states;			/* -M of reuse states */
static uint64_t slicek, slicen;		/* --slice */
static const char *oflag, *cgout;
static uint64_t sizes[RT_MAXLEVEL] = { 32768, 262144, 8388608 };
static int nsizes = 3;
static struct rt_tally *cgt;		/* --cachegrind-out: counts by location */
static char config[RT_CONFIGLEN];	/* options that change the counts, as a histogram names them */

static FILE *fo;
static struct rt_rdist *rd;
static struct rt_regions *regs;
static struct rt_tally *groups;		/* -g: rt_welford by key */
static struct rt_welford win;		/* -w: the window so far */

enum { O_EXACT = U_LONG, O_CGOUT, O_SIZES, O_THREADS, O_SLICE, O_STATE };
static const struct u_opt opts[] = {
	{ 'A', "summary", NULL, "a summary for people, not the table" },
	{ 'B', "block", "bytes", "block size (64)" },
	{ 'C', "mrc", NULL, "the miss-ratio curve of fully associative LRU" },
	{ 'D', "distance", "kind", "reuse (distinct blocks between) or time (accesses)" },
	{ 'd', "records", NULL, "a line per access: its distance" },
	{ 'g', "by", "key", "distance statistics by loc, func or region" },
	{ 'H', "hash", "rate", "spatial sample (SHARDS) at this rate" },
	U_OPT_TRACE,
	U_OPT_KEEP,
	{ 'M', "merge", NULL, "merge the histograms (of samples or partitions) or slices' states named" },
	{ 'N', "reservoir", "blocks", "spatial sample of at most this many blocks" },
	U_OPT_OUTPUT,
	{ 'P', "partition", "k/n[:bytes]", "the blocks of trfilter -P's partition k of n, as a sample" },
	{ 'S', "seed", "seed", "seed of the hash (1)" },
	{ 'w', "window", "n", "the mean distance over every n accesses" },
	{ O_EXACT, "exact", NULL, "a histogram bin per distance, not log2 bins" },
	{ O_CGOUT, "cachegrind-out", "file", "misses of --sizes per source line, as cachegrind's file" },
	{ O_SIZES, "sizes", "s1,s2,...", "--cachegrind-out: LRU cache sizes (32K,256K,8M)" },
	{ O_SLICE, "slice", "k/n", "slice k of n of a binary trace file: its state, for -M" },
	{ O_STATE, "state", NULL, "-M: the merged state of a run of slices, for a further -M" },
	{ O_THREADS, "threads", "n", "a binary trace file's exact distances in n time slices (nproc, at most 4)" },
	{ 0 }
};
static const struct u_prog prog = { "reusedist", "[file ...]", opts,
    "-M [-AC] [--exact | --state] [-B bytes] [-o file] histogram ... | state ..." };

/* --cachegrind-out: per kind (fetch, read or modify, write) the block
 * accesses, and the misses of each size (a cold block, or as many
 * distinct blocks between as the cache holds) */
static void
cgcount(const struct rt_rdsample *s)
{
	uint64_t *r, *c;
	int j;

	if ((r = rt_tally_row(cgt, s->loc)) == NULL)
		u_die(1, "out of memory");
	c = r + (s->op == RT_IFETCH ? 0 : s->op == RT_WRITE ? 2 : 1) * (nsizes + 1);
	c[0]++;
	for (j = 0; j < nsizes; j++)
		if (s->dist == RT_COLD || s->dist >= sizes[j] / cfg.block)
			c[1 + j]++;
}

static void
cgwrite(char **files, int n)
{
	FILE *f = u_open(cgout);
	int k;

	if ((k = rt_cgfile_lru(f, cgt, sizes, nsizes, cfg.block, files, n)) == RT_ENOMEM)
		u_die(1, "out of memory");
	if (k || u_close(f, cgout))
		u_die(1, "%s:", cgout);
}

static void
setsizes(char *arg)
{
	char *p, *save = NULL;

	for (nsizes = 0, p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (nsizes == RT_MAXLEVEL || rt_parse_size(p, &sizes[nsizes++]) ||
		    sizes[nsizes - 1] == 0)
			u_bad("--sizes: want up to %d cache sizes, like 32K,256K", RT_MAXLEVEL);
}

/* Every access measured: the per-access outputs. */
static void
sample(void *ctx, const struct rt_rdsample *s)
{
	struct rt_rec r = { .addr = s->addr, .loc = s->loc, .var = s->var };
	struct rt_welford *a;

	(void)ctx;
	if (cgt != NULL)
		cgcount(s);
	switch (out) {
	case OUT_RECORDS:
		rt_reuserec_write(fo, s->seq, s->block, s->dist);
		break;
	case OUT_GROUPS:
		if ((a = rt_tally_row(groups, rt_key_of(gflag, &r, s->addr, regs, NULL))) == NULL)
			u_die(1, "out of memory");
		rt_welford_add(a, s->dist);
		break;
	case OUT_WINDOW:
		rt_welford_add(&win, s->dist);
		if (win.n >= wflag) {
			rt_reusewin_write(fo, s->seq, &win);
			memset(&win, 0, sizeof win);
		}
		break;
	}
}

/* An event: regions apply from here on. */
static int
event(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
		u_die(1, "out of memory");
	return 0;
}

/* A partition's trace (trfilter -P) is a sample at rate 1/n. */
static void
partok(const struct rt_part *p)
{
	if (cfg.pn || cfg.rate < 1 || cfg.size)
		u_bad("partition %llu/%llu's trace: not with -P, -H or -N",
		    (unsigned long long)p->k, (unsigned long long)p->n);
	if (p->bytes % cfg.block != 0)
		u_die(1, "partition %llu/%llu: its %llu-byte blocks do not hold -B's %llu-byte "
		    "ones whole (split with trfilter -P n:%llu)", (unsigned long long)p->k,
		    (unsigned long long)p->n, (unsigned long long)p->bytes,
		    (unsigned long long)cfg.block, (unsigned long long)cfg.block);
}

/* The partition the files' headers record, known before they are read
 * (standard input's is known after). */
static void
partfile(char **files, int n, struct rt_part *pf)
{
	if (rt_files_part(files, n, Iflag, pf) == 0 && pf->n) {
		partok(pf);
		rt_rdist_part(rd, pf);
	}
}

/* The trace measured, fingerprinted as trfilter -P does the trace it
 * splits: -P k/n's histogram names the trace as its partitions' do. */
static struct rt_fp fp;

static int
batch(void *ctx, struct rt_rec *v, int n)
{
	rt_fp_add(&fp, v, (size_t)n);
	return rt_rdist_batch(ctx, v, n);
}

/* --threads: one binary trace file's exact distances, a time slice a
 * thread; 1 if so measured (*k as rt_foreach_batch's), 0 if not. */
static int
sliced(char **files, int n, int *k)
{
	char why[256];

	if (jflag == 0)	/* each slice adds a merge and its blocks' memory */
		jflag = u_cpus(4);
	if (jflag < 2 || n != 1 || cgt || out == OUT_RECORDS || out == OUT_GROUPS ||
	    out == OUT_WINDOW || (*k = rt_rdist_threads(rd, &cfg, files[0], Iflag, kflag, jflag,
	    u_diag, why, sizeof why)) == RT_EUSAGE)
		return 0;
	if (*k < 0)
		u_die(1, "%s", why);
	return 1;
}

static void
measure(char **files, int n)
{
	struct rt_part part = { 0 }, pf = { 0 };
	struct rt_rdslicehead h;
	struct rt_histinfo in;
	struct stat st;
	struct rt_bin *v;
	size_t nb;
	const char *what;
	char why[512];
	int k = 0;

	if (cgout != NULL &&
	    (cgt = rt_tally_new(3 * (size_t)(nsizes + 1) * sizeof(uint64_t))) == NULL)
		u_die(1, "out of memory");
	if ((rd = rt_rdist_new(&cfg, out == OUT_RECORDS || out == OUT_GROUPS ||
	    out == OUT_WINDOW || cgt ? sample : NULL, event, NULL)) == NULL ||
	    (regs = rt_regions_new()) == NULL || (groups = rt_tally_new(sizeof win)) == NULL)
		u_die(1, "out of memory");
	if (out == OUT_HIST && isatty(fileno(fo)))
		out = OUT_SUMMARY;
	if (out == OUT_RECORDS)
		rt_reuserec_header(fo, cfg.timed);
	if (out == OUT_WINDOW)
		rt_reusewin_header(fo);
	if (slicen || out == OUT_STATE)	/* first uses kept for the slices before */
		rt_rdist_slice(rd);
	rt_slice_all(slicek, slicen);	/* none when slicen is 0 */
	if (slicen)
		h = (struct rt_rdslicehead){ slicek, slicen,
		    stat(files[0], &st) == 0 ? (uint64_t)st.st_size : 0, cfg.block, 1 };
	if (states && (k = rt_rdist_states(rd, cfg.block, files, n, out != OUT_STATE, &h, why,
	    sizeof why)))
		u_die(1, "-M: %s", why);
	if (!states)
		partfile(files, n, &pf);
	rt_fp_init(&fp);
	if (!states && (pf.n || slicen || !sliced(files, n, &k)) &&
	    (k = rt_foreach_batch(files, n, Iflag, kflag, batch, rd, u_diag, &part)) < 0)
		u_die(1, "%s", rt_rdist_error(rd));
	if (k == 2 || (k && slicen))	/* no histogram or state of what was not read */
		u_discard();
	if (slicen || out == OUT_STATE) {	/* what -M's merge needs of the slice or run */
		if (rt_rdist_save(fo, rd, &h) < 0)
			u_die(1, "%s", rt_rdist_error(rd));
		rt_rdist_free(rd);
		return;
	}
	if (part.n && !pf.n) {	/* standard input: known only now */
		partok(&part);
		rt_rdist_part(rd, &part);
		if (out == OUT_RECORDS || out == OUT_GROUPS || out == OUT_WINDOW)
			u_warn("standard input is partition %llu/%llu: its distances above are "
			    "the partition's (give the file to have them x %llu)",
			    (unsigned long long)part.k, (unsigned long long)part.n,
			    (unsigned long long)part.n);
	}
	if (k)
		u_status = 1;
	if ((v = rt_rdist_finish(rd, &nb, &in)) == NULL)
		u_die(1, "%s", rt_rdist_error(rd));
	in.part = pf.n ? pf : part.n ? part : (struct rt_part){ cfg.pk, cfg.pn, cfg.pbytes,
	    rt_fp_value(&fp) };
	snprintf(in.config, sizeof in.config, "%s", config);
	if (out == OUT_WINDOW && win.n > 0)
		rt_reusewin_write(fo, rt_rdist_lastseq(rd), &win);
	if (cgt != NULL)
		cgwrite(files, n);
	switch (out) {
	case OUT_HIST: rt_hist_write(fo, v, nb, &in, 0); break;
	case OUT_EXACT: rt_hist_write(fo, v, nb, &in, 1); break;
	case OUT_MRC: rt_mrc_write(fo, v, nb, &in); break;
	case OUT_GROUPS:
		if (rt_reuseby_write(fo, gflag, groups))
			u_die(1, "out of memory");
		if ((what = rt_key_missing(gflag, groups)) != NULL)
			u_warn("-g %s: %s", rt_key_name(gflag), what);
		break;
	case OUT_SUMMARY: rt_hist_summary(fo, v, nb, &in, cfg.timed); break;
	}
	free(v);
	rt_rdist_free(rd);
	rt_regions_free(regs);
	rt_tally_free(groups);
	rt_tally_free(cgt);
}

/* -M: histograms of samples or partitions, weighted by their rates (any
 * input that fails fails the merge, with nothing written), or the states
 * of a trace's time slices (measured, then written as a run of it). */
static void
merge(char **files, int n)
{
	struct rt_histinfo in;
	struct rt_reader *r;
	struct rt_bin *v;
	char err[512];
	size_t nb;

	if (strcmp(files[0], "-") != 0 && (r = rt_lopen(files[0], err, sizeof err)) != NULL) {
		states = rt_rkind(r) == RT_STREAM_REUSE_STATE;
		rt_rclose(r);
		if (states) {
			measure(files, n);
			return;
		}
	}
	if (out == OUT_STATE)
		u_bad("--state: -M of slices' states (--slice), not of histograms");
	if ((v = rt_hist_merge(files, n, cfg.block, &nb, &in, err, sizeof err)) == NULL)
		u_die(1, "-M: %s", err);
	u_release();
	if (out == OUT_MRC)
		rt_mrc_write(fo, v, nb, &in);
	else if (out == OUT_SUMMARY)
		rt_hist_summary(fo, v, nb, &in, 0);
	else
		rt_hist_write(fo, v, nb, &in, 1);
	free(v);
}

int
main(int argc, char *argv[])
{
	int c;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'A': out = OUT_SUMMARY; break;
		case 'B': cfg.block = u_size("-B", optarg, 1, UINT64_MAX, "bad block size"); break;
		case 'C': out = OUT_MRC; break;
		case 'D': cfg.timed = u_word("-D", optarg, (const char *const[]){ "reuse", "time", NULL }); break;
		case 'd': out = OUT_RECORDS; break;
		case 'g':
			out = OUT_GROUPS;
			if ((gflag = rt_key_parse(optarg)) < 0 || gflag == RT_KEY_SET)
				u_bad("-g %s: want loc, func or region", optarg);
			break;
		case 'H': cfg.rate = u_real("-H", optarg, nextafter(0, 1), 1, "want a rate in (0, 1]"); break;
		case 'I': Iflag = u_format(optarg); break;
		case 'k': kflag = 1; break;
		case 'M': Mflag = 1; break;
		case 'N':
			cfg.size = u_size("-N", optarg, 1, UINT64_MAX, "bad sample size");
			if (72.0 * cfg.size > rt_memory())	/* bytes a block, at most */
				u_bad("-N %s: a sample of that many blocks needs %.1f GiB, more "
				    "than the %.1f GiB of memory here", optarg,
				    72.0 * cfg.size / 0x1p30, rt_memory() / 0x1p30);
			break;
		case 'o': oflag = optarg; break;
		case 'P':
			if (rt_parse_part(optarg, &cfg.pk, &cfg.pn, &cfg.pbytes))
				u_bad("-P %s: want k/n or k/n:bytes with 0 <= k < n", optarg);
			break;
		case 'S': cfg.seed = u_count("-S", optarg, 0, UINT64_MAX, "bad seed"); break;
		case 'w':
			wflag = u_size("-w", optarg, 1, UINT64_MAX, "bad window");
			out = OUT_WINDOW;
			break;
		case O_EXACT: out = OUT_EXACT; break;
		case O_CGOUT: cgout = optarg; break;
		case O_SIZES: setsizes(optarg); break;
		case O_SLICE:
			if (rt_parse_part(optarg, &slicek, &slicen, NULL))
				u_bad("--slice %s: want k/n, k < n", optarg);
			break;
		case O_STATE: out = OUT_STATE; break;
		case O_THREADS: jflag = (int)u_count("--threads", optarg, 1, RT_MAXTHREADS, "1 to 64"); break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (cfg.timed)	/* another kind of distance */
		snprintf(config, sizeof config, "-D time");
	u_notinput(oflag);	/* before a record is read */
	u_notinput(cgout);
	if (cfg.pn && (cfg.rate < 1 || cfg.size))
		u_bad("-P samples by partition: not with -H or -N");
	if (cfg.pn && cfg.pbytes == 0)	/* trfilter's, or -B's when larger */
		cfg.pbytes = 64 % cfg.block == 0 ? 64 : cfg.block;
	if (cfg.pn && cfg.pbytes % cfg.block != 0)
		u_bad("-P: partition blocks of %llu bytes do not hold -B's %llu-byte blocks whole",
		    (unsigned long long)cfg.pbytes, (unsigned long long)cfg.block);
	if (Mflag && (out == OUT_RECORDS || out == OUT_GROUPS || out == OUT_WINDOW))
		u_bad("-M writes histograms (--exact), curves (-C), summaries (-A) or states (--state)");
	if (out == OUT_STATE && !Mflag)
		u_bad("--state: -M's, the merged state of states named");
	if (slicen && (Mflag || cfg.rate < 1 || cfg.size || cfg.pn || cfg.timed || cgout ||
	    out == OUT_RECORDS || out == OUT_GROUPS || out == OUT_WINDOW || argc != 1))
		u_bad("--slice: a binary trace file's exact reuse distances (not with -M, -H, -N, "
		    "-P, -D time, -d, -g, -w, --cachegrind-out)");
	if (cfg.timed && (out == OUT_MRC || out == OUT_SUMMARY))
		u_bad("-D time: miss-ratio curves come from reuse distances");
	if (cgout && (Mflag || cfg.rate < 1 || cfg.size || cfg.pn || cfg.timed))
		u_bad("--cachegrind-out: exact reuse distances (not with -M, -H, -N, -P, -D time)");
	if (Mflag && argc == 0)
		u_bad("-M: name the histograms to merge");
	fo = u_open(oflag);
	(Mflag ? merge : measure)(argv, argc);
	u_close(fo, oflag);
	return u_status;
}
