/* trfilter: select trace records, attach source locations, convert formats. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "util.h"

#define MAXSEL 64
#define MAXPART 1024	/* -P n: outputs open at once */

struct range { uint64_t lo, hi; };

static unsigned tflag = 0xf;		/* ops kept */
static struct range aflag[MAXSEL], pflag[MAXSEL];
static int na, np;
static const char *rflag[MAXSEL], *Fflag[MAXSEL];
static int nr, nF;
static struct { const char *file; uint64_t lo, hi; } Lflag[MAXSEL];
static int nL;
static uint32_t Tflag[MAXSEL];
static int nT;
static struct range nflag = { 0, UINT64_MAX };
static const char *mfrom, *mto;
static int vflag, lflag, kflag, zflag;
static uint64_t Bflag;
static uint64_t Pk, Pn, Pbytes = 64;
static int Psplit;			/* -P n: every partition, to -o's %d */
static int Iflag = RT_FMT_AUTO, Oflag = -1;
static const char *oflag, *eflag;

static struct rt_writer *w;		/* the output */
static struct rt_wparts *parts;		/* with -P, the partitions' */
static struct rt_sym *sym;
static int inmark;		/* between -m markers */
static char hitF[MAXSEL], hitL[MAXSEL], hitr[MAXSEL], hitm;	/* matched a record */
static int missing;		/* objects of the trace not found here */
static int others;		/* selections beyond -t and -n */
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
	{ 'O', "output-format", "format", "write text, binary (binary2, binary1), din or pin" },
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

/* "glStrcArray[0].var1" belongs to the region "glStrcArray". */
static int
varis(uint32_t var, const char *name)
{
	const char *v = rt_str(var);
	size_t n = strlen(name);

	return strncmp(v, name, n) == 0 && (v[n] == '\0' || v[n] == '[' || v[n] == '.');
}

/* A path matches a file named by its tail at a '/' boundary. */
static int
fileis(const char *path, const char *want)
{
	size_t n = strlen(path), m = strlen(want);

	if (m > n || strcmp(path + n - m, want) != 0)
		return 0;
	return m == n || path[n - m - 1] == '/' || want[0] == '/';
}

static int
funcis(const char *f, const char *want)
{
	size_t m = strlen(want);

	return strncmp(f, want, m) == 0 && (f[m] == '\0' || f[m] == '(');
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

	if (eflag && strcmp(base(path), base(eflag)) == 0)
		path = eflag;
	if (rt_sym_add(sym, path, rec->addr)) {
		if (!missing++) {	/* once, with the fix */
			u_warn("%s (a trace recorded elsewhere: give the program with -e)",
			    rt_sym_error(sym));
			snprintf(symlast, sizeof symlast, "%s", rt_sym_error(sym));
		} else if (lflag)
			symwarn();
	}
}

static int
selected(struct rt_rec *rec)
{
	int i, ok;
	const struct rt_loc *l;
	uint64_t end = rec->addr + (rec->size ? rec->size - 1 : 0);

	if (!(tflag >> rec->op & 1) || rec->seq < nflag.lo || rec->seq > nflag.hi)
		return 0;
	if (!others)	/* nothing but ops and seqs asked for */
		return 1;
	if (mfrom != NULL && !inmark)
		return 0;
	if (na) {
		for (ok = i = 0; i < na && !ok; i++)
			ok = rec->addr <= aflag[i].hi && end >= aflag[i].lo;
		if (!ok)
			return 0;
	}
	if (np) {
		for (ok = i = 0; i < np && !ok; i++)
			ok = rec->pc >= pflag[i].lo && rec->pc <= pflag[i].hi;
		if (!ok)
			return 0;
	}
	if (nT) {
		for (ok = i = 0; i < nT && !ok; i++)
			ok = rec->tid == Tflag[i];
		if (!ok)
			return 0;
	}
	if (nr) {
		for (ok = i = 0; i < nr && !ok; i++) {
			ok = (rec->var && varis(rec->var, rflag[i])) ||
			    rt_regions_overlap(regs, rflag[i], rec->addr, end);
			hitr[i] |= ok;
		}
		if (!ok)
			return 0;
	}
	if (nF || nL) {
		if (rec->loc == 0 && sym != NULL) {
			rec->loc = rt_sym_lookup(sym, rec->pc);
			symwarn();
		}
		l = rt_loc_get(rec->loc);
		for (ok = !nF, i = 0; i < nF && !ok; i++)
			hitF[i] |= ok = funcis(rt_str(l->func), Fflag[i]);
		if (!ok)
			return 0;
		for (ok = !nL, i = 0; i < nL && !ok; i++)
			hitL[i] |= ok = fileis(rt_str(l->file), Lflag[i].file) &&
			    l->line >= Lflag[i].lo && l->line <= Lflag[i].hi;
		if (!ok)
			return 0;
	}
	return 1;
}

/* A selection that matched nothing is said so: a misspelt function, a
 * trace without locations or the wrong -e would otherwise pass as an
 * empty answer. */
static void
unmatched(void)
{
	const char *why = eflag ? "" : " (without -e, the objects the trace names)";
	int i;

	if (mfrom != NULL && !hitm)
		u_warn("-m %s: no mark of that name in the trace", mfrom);
	for (i = 0; i < nF; i++)
		if (!hitF[i]) {
			u_warn("-F %s: no record in a function of that name%s", Fflag[i], why);
			if (missing)	/* the answer is not known to be empty */
				u_status = 1;
		}
	for (i = 0; i < nL; i++)
		if (!hitL[i]) {
			u_warn("-L %s: no record of that file and those lines%s", Lflag[i].file, why);
			if (missing)
				u_status = 1;
		}
	for (i = 0; i < nr; i++)
		if (!hitr[i])
			u_warn("-r %s: no access to a region of that name", rflag[i]);
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
		if (rec->kind == RT_MARK && mfrom != NULL) {
			const char *name = rt_str(rec->name);

			if (strcmp(name, mfrom) == 0)
				hitm = inmark = 1;
			else if (mto == NULL || strcmp(name, mto) == 0)
				inmark = 0;
		} else if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			u_die(1, "out of memory");
		else if (rec->kind == RT_OBJECT && sym != NULL)
			addobject(rec);
		return emit(rec);
	}
	if (selected(rec) == vflag)
		return 0;
	if (lflag) {
		if (rec->loc == 0) {
			rec->loc = rt_sym_lookup(sym, rec->pc);
			symwarn();
		}
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
setrange(const char *arg, struct range *r, int *n, int opt)
{
	if (*n == MAXSEL)
		u_bad("-%c: at most %d", opt, MAXSEL);
	if (rt_parse_range(arg, &r[*n].lo, &r[*n].hi))
		u_bad("-%c %s: bad range (want lo-hi or lo+len)", opt, arg);
	(*n)++;
}

static void
setstr(const char *arg, const char **v, int *n, int opt)
{
	if (*n == MAXSEL)
		u_bad("-%c: at most %d", opt, MAXSEL);
	v[(*n)++] = arg;
}

static void
setloc(char *arg)
{
	char *c = strrchr(arg, ':');

	if (nL == MAXSEL)
		u_bad("-L: at most %d", MAXSEL);
	Lflag[nL].lo = 0;
	Lflag[nL].hi = UINT64_MAX;
	if (c != NULL && c[1] >= '0' && c[1] <= '9') {
		if (rt_parse_range(c + 1, &Lflag[nL].lo, &Lflag[nL].hi))
			u_bad("-L %s: bad line range", arg);
		*c = '\0';
	}
	Lflag[nL++].file = arg;
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
	struct rt_part p = { Pk, Pn, Pbytes };
	char ebuf[1024];

	if (!Psplit)
		parts = rt_wparts_one(w, oflag, &p, !Bflag);
	else if (oflag == NULL || strchr(oflag, '%') == NULL)
		u_bad("-P %llu: name the partitions with -o and a %%d", (unsigned long long)Pn);
	else if ((parts = rt_wparts_open(oflag, &p, !Bflag, Oflag, zflag, ebuf, sizeof ebuf)) == NULL) {
		if (errno == EINVAL)
			u_bad("-o %s: one %%d, and no other %%", oflag);
		u_die(1, "%s", ebuf);
	}
	if (parts == NULL)
		u_die(1, "out of memory");
	if (rt_wparts_unrecorded(parts))
		u_warn("-P %llu/%llu:%llu: not recorded in the header (the binary format "
		    "records partitions of a power of two bytes, fewer than 2^24)",
		    (unsigned long long)Pk, (unsigned long long)Pn, (unsigned long long)Pbytes);
}

int
main(int argc, char *argv[])
{
	int c;
	uint64_t v;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'a': setrange(optarg, aflag, &na, c); break;
		case 'B':
			if (rt_parse_size(optarg, &Bflag) || Bflag == 0)
				u_bad("-B %s: bad block size", optarg);
			break;
		case 'b': Oflag = RT_FMT_BINARY; break;
		case 'e': eflag = optarg; break;
		case 'F': setstr(optarg, Fflag, &nF, c); break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				u_bad("-I %s: unknown format", optarg);
			break;
		case 'k': kflag = 1; break;
		case 'L': setloc(optarg); break;
		case 'l': lflag = 1; break;
		case 'm':
			mfrom = optarg;
			if ((mto = strchr(optarg, ',')) != NULL)
				*(char *)mto++ = '\0';
			break;
		case 'n':
			if (rt_parse_range(optarg, &nflag.lo, &nflag.hi))
				u_bad("-n %s: bad range", optarg);
			break;
		case 'O':
			if ((Oflag = rt_fmt_parse_out(optarg)) < 0)
				u_bad("-O %s: can write text, binary (binary1, binary2), din or pin", optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'P': setpart(optarg); break;
		case 'p': setrange(optarg, pflag, &np, c); break;
		case 'r': setstr(optarg, rflag, &nr, c); break;
		case 'T':
			if (nT == MAXSEL)
				u_bad("-T: at most %d", MAXSEL);
			if (rt_parse_u64(optarg, &v) || v >= RT_NOTID)
				u_bad("-T %s: bad thread id", optarg);
			Tflag[nT++] = (uint32_t)v;
			break;
		case 't':
			if (rt_parse_ops(optarg, &tflag))
				u_bad("-t %s: ops are R, W, M, I", optarg);
			break;
		case 'v': vflag = 1; break;
		case 'z': zflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if ((regs = rt_regions_new()) == NULL)
		u_die(1, "out of memory");
	others = mfrom || na || np || nT || nr || nF || nL;
	if (lflag || nF || nL || eflag) {
		if ((sym = rt_sym_new()) == NULL)
			u_die(1, "out of memory");
		if (eflag && rt_sym_add(sym, eflag, UINT64_MAX))
			u_die(1, "%s", rt_sym_error(sym));
	}
	if (Psplit && Oflag < 0)
		Oflag = RT_FMT_BINARY;	/* the partitions are for programs */
	if (!Psplit)
		w = u_wopen(oflag, Oflag < 0 ? RT_FMT_TEXT : Oflag, zflag);
	if (Pn)
		openparts();
	if (rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag))
		u_status = 1;
	else
		unmatched();
	if (parts == NULL)
		u_wclose(w, oflag);
	for (v = 0; parts != NULL && v < rt_wparts_outputs(parts); v++)
		if (rt_wparts_close(parts, v))
			u_wreport(rt_wparts_name(parts, v));
	rt_wparts_free(parts);
	rt_sym_free(sym);
	rt_regions_free(regs);
	return u_status;
}
