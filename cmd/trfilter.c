/* trfilter: select trace records, attach source locations, convert formats. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "util.h"

#define MAXPART 1024	/* -P n: outputs open at once */

static int vflag, lflag, kflag, zflag;
static uint64_t Bflag;
static uint64_t Pk, Pn, Pbytes = 64;
static int Psplit;			/* -P n: every partition, to -o's %d */
static int Iflag = RT_FMT_AUTO, Oflag = -1;
static const char *oflag, *eflag;

static struct rt_writer *w;		/* the output */
static struct rt_wparts *parts;		/* with -P, the partitions' */
static struct rt_sym *sym;
static struct rt_sel *sel;		/* -a, -F, -L, -m, -n, -p, -r, -T, -t */
static int missing;		/* objects of the trace not found here */
static int nobj, ematch;	/* objects the trace loaded; one was -e's */
static char objs[1024];		/* their names, to say */
static struct rt_regions *regs;

static const struct u_opt opts[] = {
	{ 'a', "address", "range", "accesses that touch lo-hi or lo+len" },
	{ 'B', "block", "bytes", "addresses become block numbers" },
	U_OPT_BINARY,
	{ 'e', "program", "program", "symbolize with this executable" },
	{ 'F', "function", "function", "records in this function" },
	U_OPT_TRACE,
	U_OPT_KEEP,
	{ 'L', "line", "file[:lines]", "records of this source file, these lines" },
	{ 'l', "locations", NULL, "attach source locations and regions" },
	{ 'm', "marks", "from[,to]", "records between the marks" },
	{ 'n', "seq", "range", "records whose seq is in the range" },
	{ 'O', "output-format", "format", "write text, binary (binary2, binary-flat), din or pin" },
	U_OPT_OUTPUT,
	{ 'P', "partition", "[k/]n[:bytes]", "the blocks of partition k of n; n: all n, to -o's %d" },
	{ 'p', "pc", "range", "records whose instruction address is in the range" },
	{ 'r', "region", "region", "accesses to this registered region" },
	{ 'T', "thread", "tid", "records of this thread" },
	{ 't', "ops", "ops", "records of these operations (R, W, M, I)" },
	{ 'v', "invert", NULL, "the records that do not pass" },
	U_OPT_GZIP,
	{ 0 }
};
static const struct u_prog prog = { "trfilter", "[file ...]", opts, NULL };
static const char selkeys[] = "tnapTrFLm";	/* by RT_SEL_OPS ... */

static char symlast[512];	/* the symbolizer's error said last */

static void
symwarn(void)
{
	const char *e = rt_sym_error(sym);

	if (*e && strcmp(e, symlast) != 0) {
		u_warn("%s", e);
		snprintf(symlast, sizeof symlast, "%s", e);
	}
}

static const char *
base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The trace names the objects as they were loaded; -e names a copy of
 * the program here, which takes the recorded bias. */
static void
addobject(const struct rt_rec *rec)
{
	const char *path = rt_str(rec->name);
	int r;

	if (eflag && strcmp(base(path), base(eflag)) == 0) {
		path = eflag;
		ematch = 1;
	}
	if (!strstr(objs, base(path)))
		snprintf(objs + strlen(objs), sizeof objs - strlen(objs), "%s%s", nobj++ ? ", " : "",
		    base(path));
	if ((r = rt_sym_add(sym, path, rec->addr, rt_str(rec->var))) == RT_EBAD) {
		if (!kflag)	/* its locations would be another program's */
			u_die(1, path == eflag ? "-e %s" : "%s (give the program that was "
			    "traced with -e)", rt_sym_error(sym));
		u_warn("%s: its accesses have no location", rt_sym_error(sym));
	} else if (r) {
		if (!missing++) {	/* once, with the fix */
			u_warn("%s (a trace recorded elsewhere: give the program with -e)",
			    rt_sym_error(sym));
			snprintf(symlast, sizeof symlast, "%s", rt_sym_error(sym));
		} else if (lflag)
			symwarn();
	}
}

/* A record's source location, from the symbolizer. */
static void
locate(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	rec->loc = rt_sym_lookup(sym, rec->pc);
	symwarn();
}

/* A record out; with -P, every block of the partitions, clipped to it. */
static int
emit(const struct rt_rec *rec)
{
	if (parts == NULL)
		u_write(w, rec, oflag);
	else if (rt_wparts_write(parts, rec, Bflag))
		u_wfail(rt_wparts_name(parts, rt_wparts_failed(parts)));
	return 0;
}

static int
item(void *ctx, struct rt_rec *rec)
{
	uint64_t last;

	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		rt_sel_event(sel, rec);
		if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			u_die(1, "out of memory");
		else if (rec->kind == RT_OBJECT && sym != NULL)
			addobject(rec);
		return emit(rec);
	}
	if (rt_sel_test(sel, rec) == vflag)
		return 0;
	if (lflag) {
		if (rec->loc == 0)
			locate(NULL, rec);
		if (rec->var == 0)
			rec->var = rt_regions_find(regs, rec->addr);
	}
	if (Bflag && parts == NULL) {
		last = rt_last(rec);
		rec->size = last / Bflag - rec->addr / Bflag + 1;
		rec->addr /= Bflag;
	}
	return emit(rec);
}

static void
setpart(const char *arg)
{
	if (strchr(arg, '/') == NULL) {	/* n[:bytes]: every partition */
		if (rt_parse_part(arg, NULL, &Pn, &Pbytes) || Pn > MAXPART)
			u_bad("-P %s: want n or n:bytes with 1 <= n <= %d", arg, MAXPART);
		Psplit = 1;
	} else if (rt_parse_part(arg, &Pk, &Pn, &Pbytes))
		u_bad("-P %s: want k/n or k/n:bytes with 0 <= k < n", arg);
}

/* The outputs of -P: all n, or partition k; the partition in each
 * header, where its format has room and addresses are still bytes. */
static void
openparts(void)
{
	struct rt_part p = { Pk, Pn, Pbytes, 0 };
	char ebuf[1024];
	int k;

	if (!Psplit)
		parts = rt_wparts_one(w, oflag, &p, !Bflag);
	else if (oflag == NULL || strchr(oflag, '%') == NULL)
		u_bad("-P %llu: name the partitions with -o and a %%d", (unsigned long long)Pn);
	else if ((k = rt_wparts_open(&parts, oflag, &p, !Bflag, Oflag, zflag, ebuf, sizeof ebuf)))
		u_fail(k, "%s%s", k == RT_EUSAGE ? "-o " : "", ebuf);
	if (parts == NULL)
		u_die(1, "out of memory");
	if (rt_wparts_unrecorded(parts))
		u_warn("-P %llu/%llu:%llu: not recorded in the header (the binary format "
		    "records partitions of a power of two bytes, fewer than 2^24)",
		    (unsigned long long)Pk, (unsigned long long)Pn, (unsigned long long)Pbytes);
}

/* A selection no record matched; with objects of the trace missing, a
 * function or line is not known to be empty, and fails. */
static void
unmatched(void *ctx, int kind, const char *arg, const char *why)
{
	int byloc = kind == RT_SEL_FUNC || kind == RT_SEL_LINE;
	char msg[4200];

	(void)ctx;
	snprintf(msg, sizeof msg, "-%c %s: %s%s", selkeys[kind], arg, why, byloc && eflag == NULL ?
	    " (without -e, the objects the trace names)" : "");
	u_diag(msg, byloc && missing);
}

int
main(int argc, char *argv[])
{
	char why[200];
	int c, k;
	uint64_t v;

	if ((regs = rt_regions_new()) == NULL || (sel = rt_sel_new(regs)) == NULL)
		u_die(1, "out of memory");
	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'a': case 'F': case 'L': case 'm': case 'n': case 'p': case 'r': case 'T':
		case 't':
			if ((k = rt_sel_add(sel, (int)(strchr(selkeys, c) - selkeys), optarg, why,
			    sizeof why)) != 0)
				u_fail(k, "-%c %s: %s", c, optarg, why);
			break;
		case 'B':
			Bflag = u_size("-B", optarg, 1, UINT64_MAX, "bad block size");
			break;
		case 'b': Oflag = RT_FMT_BINARY; break;
		case 'e': eflag = optarg; break;
		case 'I': Iflag = u_format(optarg); break;
		case 'k': kflag = 1; break;
		case 'l': lflag = 1; break;
		case 'O':
			if ((Oflag = rt_fmt_parse_out(optarg)) < 0)
				u_bad("-O %s: can write text, binary (binary2, binary-flat), din or pin",
				    optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'P': setpart(optarg); break;
		case 'v': vflag = 1; break;
		case 'z': zflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (lflag || rt_sel_locations(sel) || eflag) {
		if ((sym = rt_sym_new()) == NULL)
			u_die(1, "out of memory");
		if (eflag && rt_sym_add(sym, eflag, UINT64_MAX, NULL))
			u_die(1, "%s", rt_sym_error(sym));
		rt_sel_locate(sel, locate, NULL);
	}
	if (Psplit && Oflag < 0)
		Oflag = RT_FMT_BINARY;	/* the partitions are for programs */
	if (!Psplit) {
		w = u_wopen(oflag, Oflag < 0 ? RT_FMT_TEXT : Oflag, zflag);
		u_keeppart(w, argv, argc);
	}
	if (Pn)
		openparts();
	if (rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag))
		u_status = 1;
	else
		rt_sel_unmatched(sel, unmatched, NULL);
	if (eflag && nobj && !ematch)	/* else it took the place of another */
		u_error("-e %s: the trace loaded no object of that name (it loaded %s): give the "
		    "program that was traced", eflag, objs);
	if (parts == NULL)
		u_wclose(w, oflag);
	if (parts != NULL && !u_status && rt_wparts_flush(parts))	/* the first items, held */
		u_wfail(rt_wparts_name(parts, rt_wparts_failed(parts)));
	for (v = 0; parts != NULL && !u_status && v < rt_wparts_outputs(parts); v++)
		if (rt_wparts_close(parts, v))
			u_wreport(rt_wparts_name(parts, v));
	rt_wparts_free(parts);	/* after a failure, removes them */
	rt_sym_free(sym);
	rt_sel_free(sel);
	rt_regions_free(regs);
	return u_status;
}
