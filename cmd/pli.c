/* pli: model an integer sequence as nested loops (periodic-linear interpolation). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "loop.h"
#include "util.h"

static uint64_t pflag = 32, dflag = 8, Bflag = 1, fflag = 1, wflag;
static int xflag, sflag, kflag, zflag, series, Iflag = RT_FMT_AUTO;
static int hex = -1;		/* values in hex: addresses; -1: not known yet */
static int byflag = 1;		/* -g pc (1): a stream an instruction, if the trace has pcs; auto (2): or one, the shorter */
static struct rt_loopm *lm;	/* streams, once the first access has a pc */
static int decided;		/* the first access seen */
static const char *oflag;

static FILE *fo, *mf;		/* output; the model (--stats: counted; -z: into fo, gzipped) */
static uint64_t msize;		/* --stats: the model's bytes */
static struct rt_loopb *lb;
static struct rt_loopw *lw;
static struct rt_loopstat *stats;	/* --stats */
static struct rt_valw *vw;	/* -x */

enum { O_DEPTH = U_LONG, O_LOOKBACK, O_PERIOD, O_STATS };
static const struct u_opt opts[] = {
	{ 'B', "block", "bytes", "model addresses as block numbers" },
	{ 'f', "field", "n", "a series: the integers of field n (1)" },
	{ 'g', "by", "key", "pc: a model an instruction (the default), none: one, auto: the shorter" },
	{ 'I', "format", "format", "a trace format, or series: integers a line" },
	U_OPT_KEEP,
	U_OPT_OUTPUT,
	{ 'x', "expand", NULL, "expand models back into their values" },
	U_OPT_GZIP,
	{ O_DEPTH, "depth", "n", "loops nested at most n deep (8)" },
	{ O_LOOKBACK, "lookback", "n", "terms kept where loops can still form (3 * period + 2)" },
	{ O_PERIOD, "period", "n", "loop bodies of at most n terms (32)" },
	{ O_STATS, "stats", NULL, "the model's size beside gzip and xz, not the model" },
	{ 0 }
};
static const struct u_prog prog = { "pli", "[file ...]", opts, "-x [-o file] [model ...]" };

/* The model's writer, opened at its first phase: a series is in hex if
 * its first integer is. */
static void
openmodel(void)
{
	if (lw == NULL && (lw = rt_loopw_open(mf, hex == 1)) == NULL)
		u_wfail(oflag);
}

/* A phase of the model is done: count it, write it. */
static int
phase(void *ctx, const struct rt_term *t)
{
	(void)ctx;
	if (stats != NULL)
		rt_loopstat_term(stats, t);
	if (lm != NULL)		/* the streams' writer writes it */
		return 0;
	openmodel();
	if (rt_loopw_term(lw, t))
		u_wfail(oflag);
	return 0;
}

static void
value(uint64_t v)
{
	static int go;

	if (!go) {	/* a first value read: the model so far stands */
		go = 1;
		u_release();
	}
	if (stats != NULL)
		rt_loopstat_value(stats, v, hex);
	if (rt_loopb_add(lb, v))
		u_die(1, "out of memory");
}

/* A trace: with -g pc and instruction addresses in it (the first
 * access has one), a stream an instruction, fetches one stream. */
static int
item(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	if (rec->kind != RT_ACCESS)
		return 0;
	if (!decided) {
		decided = 1;
		if (byflag && rec->pc != RT_NOPC &&
		    (lm = rt_loopm_new((unsigned)pflag, (unsigned)dflag, (size_t)wflag, 1, byflag == 2,
		    phase, NULL)) == NULL)
			u_die(1, "out of memory");
	}
	if (lm == NULL) {
		value(rec->addr / Bflag);
		return 0;
	}
	if (stats != NULL)
		rt_loopstat_value(stats, rec->addr / Bflag, hex);
	if (rt_loopm_add(lm, rec->pc, rec->op == RT_IFETCH, rec->addr / Bflag))
		u_die(1, "out of memory");	/* its only error */
	return 0;
}

/* A malformed line: said, and skipped with -k (1); else the end (0). */
static int
skip(const char *msg)
{
	u_warn("%s", msg);
	if (kflag)
		return 1;
	u_status = 1;
	return 0;
}

/* A series: integers (decimal or 0x hex, signed) in field fflag; or the
 * series a stream of another program stands for: after each access of a
 * cache-records stream (cachesim -d) the misses of the first level so far,
 * as Clauss and Kenmei model Dinero IV's count; of a reuse stream
 * (reusedist -d) the access's distance, -1 for a first use. */
static void
readseries(struct rt_reader *r, int kind)
{
	char *s;
	uint64_t u, field, misses = 0, B = Bflag;

	field = kind == RT_STREAM_CACHE_RECORDS ? 2 : kind == RT_STREAM_REUSE ? 3 : fflag;
	if (kind != RT_STREAM_NONE) {
		B = 1;
		hex = 0;
	}
	for (;;) {
		if ((s = rt_rfield(r, (unsigned)field)) == NULL) {
			if (!rt_rmalformed(r) || !skip(rt_rerror(r)))
				break;
			continue;
		}
		if (kind == RT_STREAM_CACHE_RECORDS && *s != '\0') {
			misses += strcmp(s, "L1") != 0;
			value(misses);
			continue;
		}
		if (kind == RT_STREAM_REUSE && strcmp(s, "-") == 0) {
			value(UINT64_MAX);
			continue;
		}
		if (hex < 0)
			hex = s[*s == '-'] == '0' && (s[(*s == '-') + 1] | 0x20) == 'x';
		if (rt_parse_int(s, &u)) {
			if (!skip(rt_rbad(r, "field %" PRIu64 ": %s", field,
			    kind == RT_STREAM_CACHE_RECORDS ? "no level" : "not an integer")))
				break;
			continue;
		}
		value(u / B);
	}
	if (rt_rfailed(r)) {
		u_warn("%s", rt_rerror(r));
		u_status = 1;
	}
}

/* A file: a trace, a series, or a stream that stands for one. */
static void
readfile(const char *file)
{
	char ebuf[1024];
	struct rt_reader *r;
	int kind;

	if ((r = rt_lopen(file, ebuf, sizeof ebuf)) == NULL) {
		u_warn("%s", ebuf);
		u_status = 1;
		return;
	}
	kind = rt_rkind(r);
	if (kind == RT_STREAM_CACHE_RECORDS || kind == RT_STREAM_REUSE)
		readseries(r, kind);
	else if (series)
		readseries(r, RT_STREAM_NONE);
	else if (rt_rtrace(r, Iflag, ebuf, sizeof ebuf)) {
		u_warn("%s", ebuf);
		u_status = 1;
	} else if (rt_foreach_reader(r, kflag, item, NULL, u_diag))
		u_status = 1;
	rt_rclose(r);
}

/* Expansion: each model's values in its radix. */
static int
values(void *ctx, const uint64_t *v, size_t n)
{
	(void)ctx;
	if (rt_valw_put(vw, v, n, hex == 1))
		u_wfail(oflag);
	return 0;
}

static void
expand(const char *file, struct rt_expander *x)
{
	char ebuf[1024];
	struct rt_reader *r;
	struct rt_loopr *lr;
	struct rt_stmt *st;
	int k;

	if ((r = rt_lopen(file, ebuf, sizeof ebuf)) == NULL) {
		u_error("%s", ebuf);
		return;
	}
	if ((lr = rt_loopr_open(r, ebuf, sizeof ebuf)) == NULL)
		u_error("%s", ebuf);
	else {
		u_release();
		/* each model's values in its own radix: none is left
		 * buffered when the next model is read */
		while ((k = rt_loopr_next(lr, &st)) > 0) {
			hex = rt_loopr_hex(lr);
			/* a model of streams is read whole, then run */
			if ((rt_loopr_streams(lr) ? rt_expand_streams(x, lr) :
			    rt_expand(x, st)) != 0)
				break;
		}
		/* the values before an error are written */
		rt_expand_flush(x);
		if (k != 0)
			u_error("%s", k < 0 ? rt_loopr_error(lr) : rt_expand_error(x));
		rt_loopr_close(lr);
	}
	rt_rclose(r);
}

/* Option c given with -x, which expands models as they are and takes -o
 * alone: a usage error. */
static void
notwithx(int c)
{
	if (c == 'k')	/* a line skipped would change what the rest expands to */
		u_bad("-k with -x: a model is a program, a malformed line ends it");
	u_bad("%s with -x: -x expands models and takes only -o", u_optname(&prog, c));
}

/* The options: the last that -x does not take, or 0. */
static int
options(int argc, char *argv[])
{
	int c, building = 0;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		if (c != 'o' && c != 'x')
			building = c;
		switch (c) {
		case 'B':
			Bflag = u_size("-B", optarg, 1, UINT64_MAX, "bad block size");
			break;
		case O_DEPTH:
			if (rt_parse_u64(optarg, &dflag) || dflag < 1 || dflag > RT_LOOP_MAXDEPTH)
				u_bad("--depth %s: want a depth from 1 to %d", optarg, RT_LOOP_MAXDEPTH);
			break;
		case 'f':
			fflag = u_count("-f", optarg, 1, UINT64_MAX, "bad field");
			series = 1;
			break;
		case 'g':
			byflag = u_word("-g", optarg, (const char *const[]){ "none", "pc", "auto",
			    NULL });
			break;
		case 'I':
			if (strcmp(optarg, "series") == 0)
				series = 1;
			else
				Iflag = u_format(optarg);
			break;
		case 'k': kflag = 1; break;
		case 'o': oflag = optarg; break;
		case O_PERIOD:
			pflag = u_count("--period", optarg, 1, 4096, "want a period from 1 to 4096");
			break;
		case O_STATS: sflag = 1; break;
		case O_LOOKBACK:
			wflag = u_count("--lookback", optarg, 5, 1 << 20, "want 5 to 2^20 terms");
			break;
		case 'x': xflag = 1; break;
		case 'z': zflag = 1; break;
		default: u_usage(&prog);
		}
	}
	return building;
}

/* -x: the models' values. */
static void
expandall(int argc, char *argv[])
{
	struct rt_expander *x;
	int i;

	if ((x = rt_expander_new(values, NULL)) == NULL || (vw = rt_valw_new(fo)) == NULL)
		u_die(1, "out of memory");
	if (argc == 0)
		expand("-", x);
	for (i = 0; i < argc; i++)
		expand(argv[i], x);
	rt_expander_free(x);
	if (rt_valw_flush(vw))
		u_wfail(oflag);
	rt_valw_free(vw);
}

/* The model of the values of the files (of the streams, once the first
 * access has a pc), written to mf. */
static void
build(int argc, char *argv[])
{
	int rc;

	if ((lb = rt_loopb_new((unsigned)pflag, (unsigned)dflag, (size_t)wflag, phase, NULL)) == NULL)
		u_die(1, "out of memory");
	if (!series)	/* addresses, or block numbers */
		hex = 1;
	u_files(argc, argv, readfile);
	if (rt_loopb_end(lb))
		u_die(1, "out of memory");
	rt_loopb_free(lb);
	if (lm != NULL) {
		if ((rc = rt_loopm_end(lm, mf)) == RT_ENOMEM)	/* the streams' text */
			u_die(1, "out of memory");
		else if (rc != 0)
			u_wfail(oflag);
		rt_loopm_free(lm);
	} else {
		openmodel();	/* an empty model has its header */
		if (rt_loopw_close(lw))
			u_wfail(oflag);
	}
}

int
main(int argc, char *argv[])
{
	int building = options(argc, argv);

	argc -= optind;
	argv += optind;
	if (xflag && building)
		notwithx(building);
	if (zflag && sflag)
		u_bad("-z with --stats: --stats writes a table, not a model");
	fo = u_open(oflag);
	if (xflag) {
		expandall(argc, argv);
		u_close(fo, oflag);
		return u_status;
	}
	mf = fo;
	if (zflag)
		u_notterminal(oflag, "compressed");
	if (sflag && (mf = rt_loop_countopen(&msize)) == NULL)
		u_die(1, "out of memory");
	if (zflag && (mf = rt_loop_gzopen(fo, 9)) == NULL)
		u_die(1, "out of memory");
	if (sflag && (stats = rt_loopstat_new()) == NULL)
		u_die(1, "a temporary file:");
	build(argc, argv);
	if (zflag && fclose(mf) == EOF)	/* the gzip member's end */
		u_wfail(oflag);
	if (sflag) {
		fclose(mf);	/* counted: nothing to fail */
		if (rt_loopstat_write(stats, fo, msize, u_xzsize(rt_loopstat_text(stats))))
			u_wfail(oflag);
		rt_loopstat_free(stats);
	}
	u_close(fo, oflag);
	return u_status;
}
