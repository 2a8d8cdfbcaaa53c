/* trfilter: select trace records, attach source locations, convert formats. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"

#define MAXSEL 64

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
static int Iflag = RT_FMT_AUTO, Oflag = RT_FMT_TEXT;
static const char *oflag, *eflag;

static struct rt_writer *w;
static struct rt_sym *sym;
static int inmark;		/* between -m markers */
static int others;		/* selections beyond -t and -n */
static struct rt_regions *regs;
static int status;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: trfilter [-bklvz] [-a range] [-B bytes] [-e prog] [-F function]\n"
	    "                [-I format] [-L file[:line[-line]]] [-m from[,to]]\n"
	    "                [-n range] [-O format] [-o file] [-P k/n[:bytes]]\n"
	    "                [-p range] [-r region] [-T tid] [-t ops] [file ...]\n");
	exit(2);
}

static void
diag(const char *msg, int fatal)
{
	warnx("%s", msg);
	if (fatal)
		status = 1;
}

static void
symwarn(void)
{
	static char last[512];
	const char *e = rt_sym_error(sym);

	if (*e && strcmp(e, last) != 0) {
		warnx("%s", e);
		snprintf(last, sizeof last, "%s", e);
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
	if (rt_sym_add(sym, path, rec->addr) && lflag)
		symwarn();
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
			ok = funcis(rt_str(l->func), Fflag[i]);
		if (!ok)
			return 0;
		for (ok = !nL, i = 0; i < nL && !ok; i++)
			ok = fileis(rt_str(l->file), Lflag[i].file) &&
			    l->line >= Lflag[i].lo && l->line <= Lflag[i].hi;
		if (!ok)
			return 0;
	}
	return 1;
}

static int
emit(const struct rt_rec *rec)
{
	if (rt_write(w, rec) == 0)
		return 0;
	if (errno != EPIPE)
		warn("%s", oflag ? oflag : "<stdout>");
	exit(1);	/* a closed pipe ends us quietly */
}

static int
item(void *ctx, struct rt_rec *rec)
{
	struct rt_rec piece;
	uint64_t b, first, last, lo, hi;

	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		if (rec->kind == RT_MARK && mfrom != NULL) {
			const char *name = rt_str(rec->name);

			if (strcmp(name, mfrom) == 0)
				inmark = 1;
			else if (mto == NULL || strcmp(name, mto) == 0)
				inmark = 0;
		} else if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			err(1, NULL);
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
	if (Pn) {	/* every block of partition k, clipped to it */
		first = rec->addr / Pbytes;
		last = (rec->addr + (rec->size ? rec->size - 1 : 0)) / Pbytes;
		for (b = first; b <= last; b++) {
			if (b % Pn != Pk)
				continue;
			piece = *rec;
			lo = b * Pbytes > rec->addr ? b * Pbytes : rec->addr;
			hi = (b + 1) * Pbytes - 1;
			if (rec->size && hi > rec->addr + rec->size - 1)
				hi = rec->addr + rec->size - 1;
			piece.addr = lo;
			piece.size = rec->size ? hi - lo + 1 : 0;
			if (Bflag) {
				piece.addr /= Bflag;
				piece.size = 1;
			}
			emit(&piece);
		}
		return 0;
	}
	if (Bflag) {
		last = rec->addr + (rec->size ? rec->size - 1 : 0);
		rec->size = last / Bflag - rec->addr / Bflag + 1;
		rec->addr /= Bflag;
	}
	return emit(rec);
}

static void
setrange(const char *arg, struct range *r, int *n, int opt)
{
	if (*n == MAXSEL)
		errx(2, "-%c: at most %d", opt, MAXSEL);
	if (rt_parse_range(arg, &r[*n].lo, &r[*n].hi))
		errx(2, "-%c %s: bad range (want lo-hi or lo+len)", opt, arg);
	(*n)++;
}

static void
setstr(const char *arg, const char **v, int *n, int opt)
{
	if (*n == MAXSEL)
		errx(2, "-%c: at most %d", opt, MAXSEL);
	v[(*n)++] = arg;
}

static void
setloc(char *arg)
{
	char *c = strrchr(arg, ':');

	if (nL == MAXSEL)
		errx(2, "-L: at most %d", MAXSEL);
	Lflag[nL].lo = 0;
	Lflag[nL].hi = UINT64_MAX;
	if (c != NULL && c[1] >= '0' && c[1] <= '9') {
		if (rt_parse_range(c + 1, &Lflag[nL].lo, &Lflag[nL].hi))
			errx(2, "-L %s: bad line range", arg);
		*c = '\0';
	}
	Lflag[nL++].file = arg;
}

static void
setpart(const char *arg)
{
	char *end;

	errno = 0;
	Pk = strtoull(arg, &end, 10);
	if (*end != '/' || errno)
		errx(2, "-P %s: want k/n or k/n:bytes", arg);
	Pn = strtoull(end + 1, &end, 10);
	if (errno || Pn == 0 || Pk >= Pn || (*end != '\0' && *end != ':'))
		errx(2, "-P %s: want k/n with 0 <= k < n", arg);
	if (*end == ':' && (rt_parse_size(end + 1, &Pbytes) || Pbytes == 0))
		errx(2, "-P %s: bad block size", arg);
}

int
main(int argc, char *argv[])
{
	int c, k;
	uint64_t v;

	while ((c = getopt(argc, argv, "a:B:bF:hI:kL:lm:n:O:o:P:p:r:T:t:Vve:z")) != -1) {
		switch (c) {
		case 'a': setrange(optarg, aflag, &na, c); break;
		case 'B':
			if (rt_parse_size(optarg, &Bflag) || Bflag == 0)
				errx(2, "-B %s: bad block size", optarg);
			break;
		case 'b': Oflag = RT_FMT_BINARY; break;
		case 'e': eflag = optarg; break;
		case 'F': setstr(optarg, Fflag, &nF, c); break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				errx(2, "-I %s: unknown format", optarg);
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
				errx(2, "-n %s: bad range", optarg);
			break;
		case 'O':
			if ((Oflag = rt_fmt_parse_out(optarg)) < 0)
				errx(2, "-O %s: can write text, binary or din", optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'P': setpart(optarg); break;
		case 'p': setrange(optarg, pflag, &np, c); break;
		case 'r': setstr(optarg, rflag, &nr, c); break;
		case 'T':
			if (nT == MAXSEL)
				errx(2, "-T: at most %d", MAXSEL);
			if (rt_parse_u64(optarg, &v) || v >= RT_NOTID)
				errx(2, "-T %s: bad thread id", optarg);
			Tflag[nT++] = (uint32_t)v;
			break;
		case 't':
			if (rt_parse_ops(optarg, &tflag))
				errx(2, "-t %s: ops are R, W, M, I", optarg);
			break;
		case 'V': printf("trfilter %s\n", RT_VERSION); return 0;
		case 'v': vflag = 1; break;
		case 'z': zflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((regs = rt_regions_new()) == NULL)
		err(1, NULL);
	others = mfrom || na || np || nT || nr || nF || nL;
	if (lflag || nF || nL || eflag) {
		if ((sym = rt_sym_new()) == NULL)
			err(1, NULL);
		if (eflag && rt_sym_add(sym, eflag, UINT64_MAX))
			errx(1, "%s", rt_sym_error(sym));
	}
	if ((w = rt_wopen(oflag, Oflag, zflag)) == NULL)
		err(1, "%s", oflag ? oflag : "<stdout>");
	k = rt_foreach(argv, argc, Iflag, kflag, item, NULL, diag);
	if (k)
		status = 1;
	if (rt_wclose(w)) {
		if (errno != EPIPE)
			warn("%s", oflag ? oflag : "<stdout>");
		status = 1;
	}
	rt_sym_free(sym);
	rt_regions_free(regs);
	return status;
}
