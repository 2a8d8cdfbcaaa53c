/* cachesim: trace-driven simulation of multi-level caches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "util.h"

static struct rt_cache_cfg cflag[RT_MAXLEVEL], iflag;
static int nc, hasi, Aflag, dflag, kflag, bflag, zflag, cgflag, misses, threec;
static int by = -1;			/* --by: BY_SET ... */
enum { BY_SET, BY_REGION, BY_LOC, BY_FUNC };
static const char *bynames[] = { "set", "region", "loc", "func" };
static int incl = RT_NINE, Iflag = RT_FMT_AUTO;
static uint64_t Sflag = 1;
static double lat[RT_MAXLEVEL + 1];
static int nlat;
static const char *oflag;

static FILE *fo;
static struct rt_hier *hier;		/* the first (or only) configuration */
#define MAXH 256
static struct rt_hier *hiers[MAXH];	/* -E: an ensemble, one pass */
static char *hname[MAXH];
static int nh, served[MAXH];
static const char *mapfile;		/* --map */
static uint64_t mapw = 512, tempw;	/* --width, --temperature */
static int diffmode;
static unsigned char *mapv;		/* the served level of every access */
static size_t nmap, capmap;
static signed char *tring;		/* temperature: scores, window x levels */
static long *tsum;
static uint64_t tn;
static struct rt_cg *cg;
static struct rt_writer *mw;		/* the miss stream */
static struct rt_rec cur;		/* the record being simulated */
static struct rt_regions *regs;
static uint64_t *grp;			/* --by: per key, accesses then misses per level */
static size_t ngrp;

/* OPT and PES: a pass through the levels above records what arrives at
 * an OPT level; rt_future turns that into each arrival's next use. */
static int future;
static uint64_t *fut[RT_MAXLEVEL + 1];	/* by level + 1 (0: the I-cache) */
static size_t nfut[RT_MAXLEVEL + 1];
static uint64_t *arr;
static size_t narr, caparr;
static struct rt_hier *pre;		/* the hierarchy of a pre-pass */
static uint64_t bsi, bsd;		/* first-level block sizes: fetches, data */
static int uniform = 1;			/* every configuration has them */
static int plain;			/* one configuration, no per-access output */
static int batched;			/* an ensemble with table output only */
#define NBATCH 4096
static struct { uint64_t addr; uint32_t bytes; uint8_t op; } batch[NBATCH];
static int nbatch;

enum { O_CG = U_LONG, O_DIFF, O_ICACHE, O_INCL, O_LAT, O_MAP, O_MISSES, O_TEMP, O_WIDTH };
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
	U_OPT_OUTPUT,
	{ 'S', "seed", "seed", "seed of the RANDOM policy (1)" },
	{ 'z', "gzip", NULL, "--misses: compress the trace with gzip" },
	{ O_CG, "cachegrind", NULL, "cachegrind's model and summary line" },
	{ O_DIFF, "diff", NULL, "the accesses two -E configurations serve differently" },
	{ O_ICACHE, "icache", "spec", "a split first-level instruction cache" },
	{ O_INCL, "inclusion", "policy", "nine, inclusive or exclusive" },
	{ O_LAT, "latency", "c1,...,mem", "cycles per level and memory, for AMAT" },
	{ O_MAP, "map", "file.png", "the level that served each access, as a picture" },
	{ O_MISSES, "misses", "level", "the trace of what level sends below" },
	{ O_TEMP, "temperature", "n", "hit scores over the last n accesses" },
	{ O_WIDTH, "width", "pixels", "--map: pixels a row (512)" },
	{ 0 }
};
static const struct u_prog prog = { "cachesim", "[file ...]", opts, NULL };

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
		u_bad("-c: at most %d levels", RT_MAXLEVEL);
	if (rt_cache_parse(spec, &cflag[nc], why, sizeof why))
		u_bad("-c %s: %s", spec, why);
	nc++;
}

/* -E: expand "1K..8M" sizes and "lru,fifo" policies into every
 * combination; levels are separated by '/'. */
static void
expand(const char *prefix, char *rest)
{
	char lvl[128], *slash, *f[6], *save = NULL, *p, buf[512], alt[128];
	char *pols[16], *psave = NULL;
	uint64_t lo, hi, sz;
	int n = 0, np = 0, i;

	if (rest == NULL || *rest == '\0') {
		if (nh == MAXH)
			u_bad("-E: at most %d configurations", MAXH);
		if ((hname[nh++] = strdup(prefix)) == NULL)
			u_die(1, "out of memory");
		return;
	}
	slash = strchr(rest, '/');
	snprintf(lvl, sizeof lvl, "%.*s", slash ? (int)(slash - rest) : (int)strlen(rest), rest);
	for (p = strtok_r(lvl, ":", &save); p && n < 6; p = strtok_r(NULL, ":", &save))
		f[n++] = p;
	if (n < 3)
		u_bad("-E %s: want SIZE:ASSOC:BLOCK[:POLICY...] per level", rest);
	if ((p = strstr(f[0], "..")) != NULL) {
		*p = '\0';
		if (rt_parse_size(f[0], &lo) || rt_parse_size(p + 2, &hi) || lo == 0 || hi < lo)
			u_bad("-E: bad size range %s..%s", f[0], p + 2);
	} else if (rt_parse_size(f[0], &lo))
		u_bad("-E: bad size %s", f[0]);
	else
		hi = lo;
	if (n > 3)
		for (p = strtok_r(f[3], ",", &psave); p && np < 16; p = strtok_r(NULL, ",", &psave))
			pols[np++] = p;
	if (np == 0)
		pols[np++] = "lru";
	for (sz = lo; sz <= hi; sz *= 2)
		for (i = 0; i < np; i++) {
			snprintf(alt, sizeof alt, "%llu:%s:%s:%s%s%s%s%s",
			    (unsigned long long)sz, f[1], f[2], pols[i],
			    n > 4 ? ":" : "", n > 4 ? f[4] : "", n > 5 ? ":" : "", n > 5 ? f[5] : "");
			snprintf(buf, sizeof buf, "%s%s%s", prefix, *prefix ? "/" : "", alt);
			expand(buf, slash ? slash + 1 : NULL);
		}
}

static struct rt_hier *
build(char *spec, struct rt_cache_cfg *lv, int *nlv)
{
	char why[160], *p, *save = NULL;
	struct rt_hier *h;

	*nlv = 0;
	for (p = strtok_r(spec, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (*nlv == RT_MAXLEVEL)
			u_bad("-E: at most %d levels", RT_MAXLEVEL);
		if (rt_cache_parse(p, &lv[*nlv], why, sizeof why))
			u_bad("-E %s: %s", p, why);
		if (lv[*nlv].policy >= RT_OPT && *nlv > 0)
			u_bad("-E: OPT and PES are simulated at the first level only");
		(*nlv)++;
	}
	if ((h = rt_hier_new(lv, *nlv, hasi ? &iflag : NULL, incl, Sflag)) == NULL)
		u_die(1, "cannot allocate the caches");
	return h;
}

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

static double total(const uint64_t v[3]);
static double amat(void);

static void
mapput(unsigned char k)
{
	if (nmap == capmap) {
		capmap = capmap ? capmap * 2 : 1 << 20;
		if ((mapv = realloc(mapv, capmap)) == NULL)
			u_die(1, "--map: no memory for %zu accesses", nmap);
	}
	mapv[nmap++] = k;
}

/* L1 blue ... memory red; the levels between, in order. */
static void
writemap(void)
{
	static const unsigned char pal[][3] = {
		{ 44, 123, 182 }, { 171, 217, 233 }, { 255, 255, 191 }, { 253, 174, 97 },
		{ 244, 109, 67 }, { 215, 48, 39 }, { 165, 0, 38 }, { 120, 0, 30 }, { 80, 0, 20 },
	};
	unsigned char palette[3 * 10], *row;
	int n = rt_hier_levels(hier), k;
	size_t i, y, h = nmap ? (nmap + mapw - 1) / mapw : 1;
	FILE *f;
	struct rt_png *p;

	for (k = 0; k < n; k++)
		memcpy(palette + 3 * k, pal[k], 3);
	memcpy(palette + 3 * n, pal[5 + (n > 3)], 3);	/* memory: red */
	palette[3 * (n + 1)] = palette[3 * (n + 1) + 1] = palette[3 * (n + 1) + 2] = 255;
	if ((f = fopen(mapfile, "wb")) == NULL)
		u_die(1, "%s:", mapfile);
	if ((row = malloc(mapw)) == NULL || (p = rt_png_open(f, (uint32_t)mapw, (uint32_t)h, palette, n + 2)) == NULL)
		u_die(1, "%s: cannot start the picture", mapfile);
	for (y = 0; y < h; y++) {
		for (i = 0; i < mapw; i++)
			row[i] = y * mapw + i < nmap ? mapv[y * mapw + i] : (unsigned char)(n + 1);
		rt_png_row(p, row);
	}
	if (rt_png_close(p) || fclose(f))
		u_die(1, "%s:", mapfile);
	free(row);
}

/* Cache temperature (Choudhury, 5.2.4): per level, over the last tempw
 * accesses, +1 for a hit there, -1 for a miss, 0 when it was not asked. */
static void
temperature(uint64_t seq, int k)
{
	int j, n = rt_hier_levels(hier);
	size_t slot = (size_t)(tn % tempw) * (size_t)n;
	signed char v;

	fprintf(fo, "%llu", (unsigned long long)seq);
	for (j = 0; j < n; j++) {
		v = (signed char)(k == j ? 1 : k > j ? -1 : 0);
		tsum[j] += v - (tn >= tempw ? tring[slot + j] : 0);
		tring[slot + j] = v;
		fprintf(fo, " %.4f", (double)tsum[j] / (double)(tn + 1 < tempw ? tn + 1 : tempw));
	}
	fputc('\n', fo);
	tn++;
}

static void
write_ensemble(void)
{
	const struct rt_cache_cfg *c;
	const struct rt_cache_stats *st;
	int i, k;

	fprintf(fo, "#reftrace cache-ensemble 1 config accesses");
	for (k = 1; k <= RT_MAXLEVEL && k <= nc; k++)
		fprintf(fo, " L%d_misses L%d_ratio", k, k);
	fprintf(fo, " amat\n");
	for (i = 0; i < nh; i++) {
		hier = hiers[i];
		st = rt_hier_stats(hier, 0, &c);
		fprintf(fo, "%s %.0f", hname[i], total(st->acc));
		for (k = 0; k < rt_hier_levels(hier); k++) {
			st = rt_hier_stats(hier, k, &c);
			fprintf(fo, " %.0f %.6f", total(st->miss),
			    total(st->acc) ? total(st->miss) / total(st->acc) : 0);
		}
		for (; k < nc; k++)
			fprintf(fo, " - -");
		fprintf(fo, " %.4f\n", amat());
	}
	hier = hiers[0];
}

static void
arrived(void *ctx, uint64_t block)
{
	(void)ctx;
	if (narr == caparr) {
		caparr = caparr ? caparr * 2 : 1 << 16;
		if ((arr = realloc(arr, caparr * sizeof *arr)) == NULL)
			u_die(1, "OPT/PES: no memory for %zu accesses", narr);
	}
	arr[narr++] = block;
}

static int
prepass(void *ctx, struct rt_rec *rec)
{
	uint64_t a, end, bs, next;

	(void)ctx;
	if (rec->kind != RT_ACCESS)
		return 0;
	bs = rt_hier_block(pre, rec->op);
	end = rec->addr + (rec->size ? rec->size - 1 : 0);
	for (a = rec->addr; a <= end; a = next) {
		next = (a / bs + 1) * bs;
		rt_hier_access(pre, a, rec->op, (uint32_t)((next - 1 < end ? next - 1 : end) - a + 1));
		if (next == 0)
			break;
	}
	return 0;
}

static int
spool(void *ctx, struct rt_rec *rec)
{
	if (rt_write(ctx, rec))
		u_die(1, "spooling standard input:");
	return 0;
}

/* OPT/PES need the future: read the input once to learn it (standard
 * input goes to a temporary file first), then again to simulate. */
static void
foresee(char ***argvp, int *argcp, char *tmpname)
{
	const struct rt_cache_cfg *c;
	struct rt_writer *sw;
	int i, fd, k, spooled = *argcp == 0;
	static char *one[1];

	for (i = 0; i < *argcp; i++)
		spooled |= strcmp((*argvp)[i], "-") == 0;
	if (spooled) {
		const char *dir = getenv("TMPDIR");

		snprintf(tmpname, 4096, "%s/cachesimXXXXXX", dir && *dir ? dir : "/tmp");
		if ((fd = mkstemp(tmpname)) < 0)
			u_die(1, "%s:", tmpname);
		close(fd);
		if ((sw = rt_wopen(tmpname, RT_FMT_BINARY, 0)) == NULL)
			u_die(1, "%s:", tmpname);
		if (rt_foreach(*argvp, *argcp, Iflag, kflag, spool, sw, u_diag))
			u_status = 1;
		if (rt_wclose(sw))
			u_die(1, "%s:", tmpname);
		one[0] = tmpname;
		*argvp = one;
		*argcp = 1;
		Iflag = RT_FMT_BINARY;
	}
	/* Top down: what reaches level k is decided by the levels above it
	 * (their own OPT futures already known), never by k or below. */
	for (k = hasi ? -1 : 0; k < nc; k++) {
		int lv = k < 0 ? 1 : k + 1, j, h;

		for (h = 0, j = 0; h < nh; h++) {
			rt_hier_stats(hiers[h], k, &c);
			if (c != NULL && c->policy >= RT_OPT) {
				if (c->block != (k < 0 ? iflag.block : cflag[k].block))
					u_bad("-E: OPT and PES in an ensemble need one first-level block size");
				j = 1;
			}
		}
		if (!j)
			continue;
		if ((pre = rt_hier_new(cflag, lv, hasi ? &iflag : NULL, incl, Sflag)) == NULL)
			u_die(1, "cannot allocate the caches");
		for (j = hasi ? -1 : 0; j < k; j++)
			if (fut[j + 1] != NULL)
				rt_hier_future(pre, j, fut[j + 1], nfut[j + 1]);
		narr = 0;
		rt_hier_arrivals(pre, k, arrived, NULL);
		if (rt_foreach(*argvp, *argcp, Iflag, kflag, prepass, NULL, u_diag))
			u_status = 1;
		rt_hier_free(pre);
		if (narr && rt_future(arr, narr))
			u_die(1, "OPT/PES: no memory for %zu accesses", narr);
		fut[k + 1] = arr;
		nfut[k + 1] = narr;
		arr = NULL;
		caparr = 0;
		for (h = 0; h < nh; h++)
			rt_hier_future(hiers[h], k, fut[k + 1], nfut[k + 1]);
	}
}

static void
runbatch(void)
{
	int i, j;

	for (i = 0; i < nh; i++)
		for (j = 0; j < nbatch; j++)
			rt_hier_access(hiers[i], batch[j].addr, batch[j].op, batch[j].bytes);
	nbatch = 0;
}

/* --by: count an access and the levels it missed under its key. */
static void
tally(uint64_t key, int level)
{
	size_t n, w = (size_t)nc + 1;
	int k;

	if (key >= ngrp) {
		for (n = ngrp ? ngrp : 64; n <= key; n *= 2)
			;
		if (key > (1u << 28) || (grp = realloc(grp, n * w * sizeof *grp)) == NULL)
			u_die(1, "--by: too many groups");
		memset(grp + ngrp * w, 0, (n - ngrp) * w * sizeof *grp);
		ngrp = n;
	}
	grp[key * w] += cur.op == RT_MODIFY ? 2 : 1;	/* a read and a write */
	for (k = 0; k < level && k < nc; k++)
		grp[key * w + 1 + k]++;
}

static uint64_t
keyof(const struct rt_rec *rec, uint64_t addr)
{
	switch (by) {
	case BY_SET: return rt_hier_set(hier, addr, rec->op);
	case BY_REGION: return rec->var ? rec->var : rt_regions_find(regs, addr);
	case BY_LOC: return rec->loc;
	default: return rt_loc_get(rec->loc)->func;
	}
}

static void
write_by(void)
{
	size_t g, w = (size_t)nc + 1;
	int k;
	const struct rt_loc *l;

	fprintf(fo, "#reftrace cache-by-%s 1 %s accesses", bynames[by], bynames[by]);
	for (k = 1; k <= nc; k++)
		fprintf(fo, " L%d_misses", k);
	fputc('\n', fo);
	for (g = 0; g < ngrp; g++) {
		if (grp[g * w] == 0)
			continue;
		if (by == BY_SET)
			fprintf(fo, "%zu", g);
		else if (by == BY_LOC && g) {
			l = rt_loc_get((uint32_t)g);
			if (l->file || l->line)
				fprintf(fo, "%s:%u", *rt_str(l->file) ? rt_str(l->file) : "?", l->line);
			else
				fprintf(fo, "%s", rt_str(l->func));
		} else
			fprintf(fo, "%s", g ? rt_str((uint32_t)g) : "-");
		for (k = 0; k <= nc; k++)
			fprintf(fo, " %llu", (unsigned long long)grp[g * w + k]);
		fputc('\n', fo);
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
		if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			u_die(1, "out of memory");
		if (mw != NULL && rt_write(mw, rec))
			u_wfail(oflag);
		return 0;
	}
	if (cg != NULL) {
		rt_cg_access(cg, rec);
		return 0;
	}
	cur = *rec;
	end = rec->addr + (rec->size ? rec->size - 1 : 0);
	if (plain && ((rec->addr ^ end) & ~((rec->op == RT_IFETCH ? bsi : bsd) - 1)) == 0) {
		/* one configuration, nothing per access, one block */
		rt_hier_access(hier, rec->addr, rec->op, (uint32_t)(end - rec->addr + 1));
		return 0;
	}
	if (batched && uniform) {
		/* Each configuration takes a batch in turn: 24 interleaved
		 * access by access would evict each other from the machine's
		 * own caches. */
		bs = rec->op == RT_IFETCH ? bsi : bsd;
		for (a = rec->addr; a <= end; a = next) {
			next = (a & ~(bs - 1)) + bs;
			if (nbatch == NBATCH)
				runbatch();
			batch[nbatch].addr = a;
			batch[nbatch].op = rec->op;
			batch[nbatch++].bytes = (uint32_t)((next - 1 < end ? next - 1 : end) - a + 1);
			if (next == 0)
				break;
		}
		return 0;
	}
	if (!uniform) {	/* an ensemble of block sizes: each splits its own way */
		for (i = 0; i < nh; i++) {
			bs = rt_hier_block(hiers[i], rec->op);
			end = rec->addr + (rec->size ? rec->size - 1 : 0);
			for (a = rec->addr; a <= end; a = next) {
				next = (a & ~(bs - 1)) + bs;
				rt_hier_access(hiers[i], a, rec->op,
				    (uint32_t)((next - 1 < end ? next - 1 : end) - a + 1));
				if (next == 0)
					break;
			}
		}
		return 0;
	}
	bs = rec->op == RT_IFETCH ? bsi : bsd;
	end = rec->addr + (rec->size ? rec->size - 1 : 0);
	for (a = rec->addr; a <= end; a = next) {	/* every first-level block */
		next = (a & ~(bs - 1)) + bs;
		for (i = 0; i < nh; i++)
			served[i] = rt_hier_access(hiers[i], a, rec->op,
			    (uint32_t)((next - 1 < end ? next - 1 : end) - a + 1));
		k = served[0];
		if (diffmode && served[0] != served[1])
			fprintf(fo, "%llu %s%.0d %s%.0d\n", (unsigned long long)rec->seq,
			    served[0] == rt_hier_levels(hiers[0]) ? "mem" : "L", served[0] == rt_hier_levels(hiers[0]) ? 0 : served[0] + 1,
			    served[1] == rt_hier_levels(hiers[1]) ? "mem" : "L", served[1] == rt_hier_levels(hiers[1]) ? 0 : served[1] + 1);
		if (mapfile)
			mapput((unsigned char)k);
		if (tempw)
			temperature(rec->seq, k);
		if (by >= 0)
			tally(keyof(rec, a), k);
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
		fprintf(fo, " - - - - - - - - - - -%s\n", threec ? " - - -" : "");
		return;
	}
	fprintf(fo, " %.0f %llu %llu %llu %.6f %llu %llu %llu %llu %llu", m,
	    (unsigned long long)s->miss[0], (unsigned long long)s->miss[1],
	    (unsigned long long)s->miss[2], a ? m / a : 0,
	    (unsigned long long)s->evictions, (unsigned long long)s->writebacks,
	    (unsigned long long)s->invalidations, (unsigned long long)s->bytes_up,
	    (unsigned long long)s->bytes_down);
	if (threec)
		fprintf(fo, " %llu %llu %llu", (unsigned long long)s->compulsory,
		    (unsigned long long)s->capacity, (unsigned long long)s->conflict);
	fputc('\n', fo);
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
			if (threec)
				fprintf(fo, "%-7s %12llu compulsory %10llu capacity %10llu conflict\n", "",
				    (unsigned long long)s->compulsory, (unsigned long long)s->capacity,
				    (unsigned long long)s->conflict);
		}
		fprintf(fo, "average access time %.2f cycles\n", amat());
		return;
	}
	fprintf(fo, "#reftrace cache 1 level size assoc block policy accesses reads writes"
	    " fetches misses read_misses write_misses fetch_misses miss_ratio"
	    " evictions writebacks invalidations bytes_in bytes_out%s\n",
	    threec ? " compulsory capacity conflict" : "");
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
			u_bad("--latency: want cycles per level and memory, like 3,15,300");
		nlat++;
	}
}

int
main(int argc, char *argv[])
{
	static const double deflat[] = { 3, 15, 40, 80, 120, 160, 200, 240 };
	char why[160], tmpname[4096] = "";
	uint64_t v;
	int c, k;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case '3': threec = 1; break;
		case 'A': Aflag = 1; break;
		case 'b': bflag = 1; break;
		case 'c': addlevel(optarg); break;
		case 'd': dflag = 1; break;
		case O_DIFF: diffmode = 1; break;
		case 'E': expand("", optarg); break;
		case O_MAP: mapfile = optarg; break;
		case O_TEMP:
			if (rt_parse_size(optarg, &tempw) || tempw == 0)
				u_bad("--temperature %s: a window of accesses", optarg);
			break;
		case O_WIDTH:
			if (rt_parse_size(optarg, &mapw) || mapw == 0 || mapw > 65536)
				u_bad("--width %s: 1 to 65536 pixels", optarg);
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
			if (strcmp(optarg, "nine") == 0)
				incl = RT_NINE;
			else if (strcmp(optarg, "inclusive") == 0)
				incl = RT_INCLUSIVE;
			else if (strcmp(optarg, "exclusive") == 0)
				incl = RT_EXCLUSIVE;
			else
				u_bad("--inclusion %s: nine, inclusive or exclusive", optarg);
			break;
		case 'g':
			for (by = 0; by < 4 && strcmp(optarg, bynames[by]) != 0; by++)
				;
			if (by == 4)
				u_bad("-g %s: set, region, loc or func", optarg);
			break;
		case 'z': zflag = 1; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (nh && nc)
		u_bad("-E and -c: give the configurations one way");
	if (diffmode && nh != 2)
		u_bad("--diff compares two configurations: give -E twice");
	if (nh && (dflag || misses || by >= 0 || threec || cgflag))
		u_bad("-E: an ensemble writes one row per configuration (not with -d, --misses, --by, -3, --cachegrind)");
	if (nc == 0 && !cgflag && !nh)
		addlevel("i7");
	if ((regs = rt_regions_new()) == NULL)
		u_die(1, "out of memory");
	if (misses > nc)
		u_bad("--misses %d: there are %d levels", misses, nc);
	if (oflag == NULL || misses)
		fo = stdout;	/* with --misses, -o names the trace */
	else if ((fo = fopen(oflag, "w")) == NULL)
		u_die(1, "%s:", oflag);
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
			u_bad("--cachegrind: give D1 and LL with -c (and I1 with -i)");
		i1 = hasi ? iflag : d1;
		if ((cg = rt_cg_new(&i1, &d1, &ll)) == NULL)
			u_die(1, "out of memory");
	} else {
		if (nh) {
			int nlv;

			for (k = 0; k < nh; k++) {
				char *spec = strdup(hname[k]);

				hiers[k] = build(spec, k == 0 ? cflag : (struct rt_cache_cfg[RT_MAXLEVEL]){ 0 }, &nlv);
				if (k == 0)
					nc = nlv;
				else if (nlv > nc)
					nc = nlv;
				free(spec);
			}
			hier = hiers[0];
		} else {
			if ((hier = rt_hier_new(cflag, nc, hasi ? &iflag : NULL, incl, Sflag)) == NULL ||
			    (threec && rt_hier_3c(hier)))
				u_die(1, "cannot allocate the caches");
			hiers[nh++] = hier;
		}
		if (tempw && ((tring = calloc(tempw, (size_t)nc)) == NULL ||
		    (tsum = calloc((size_t)nc, sizeof *tsum)) == NULL))
			u_die(1, "--temperature: no memory for the window");
		for (k = 0; k <= nc; k++)
			lat[k] = k < nlat ? lat[k] : k == nc ? 300 : deflat[k];
		if (nlat && nlat != nc + 1)
			u_bad("--latency: %d levels and memory want %d numbers", nc, nc + 1);
		if (misses) {
			if ((mw = rt_wopen(oflag, bflag ? RT_FMT_BINARY : RT_FMT_TEXT, zflag)) == NULL)
				u_die(1, "%s:", oflag ? oflag : "<stdout>");
			rt_hier_watch(hier, misses - 1, down, NULL);
		}
	}
	if (hier != NULL) {
		bsi = rt_hier_block(hier, RT_IFETCH);
		bsd = rt_hier_block(hier, RT_READ);
		for (k = 1; k < nh; k++)
			uniform &= rt_hier_block(hiers[k], RT_IFETCH) == bsi &&
			    rt_hier_block(hiers[k], RT_READ) == bsd;
		plain = nh == 1 && !dflag && !mapfile && !tempw && by < 0 && !diffmode;
		batched = nh > 1 && !diffmode && !mapfile && !tempw;
		if (!uniform && (diffmode || mapfile || tempw || future))
			u_bad("-E: --diff, --map, --temperature and OPT need one first-level block size");
	}
	if (tempw) {
		fprintf(fo, "#reftrace cache-temperature 1 seq");
		for (k = 1; k <= nc; k++)
			fprintf(fo, " L%d", k);
		fputc('\n', fo);
	}
	if (diffmode)
		fprintf(fo, "#reftrace cache-diff 1 seq served_a served_b\n");
	if (dflag && !misses) {
		fprintf(fo, "#reftrace cache-records 1 seq served");
		for (k = 1; k <= nc; k++)
			fprintf(fo, " evicted_L%d", k);
		fputc('\n', fo);
	}
	if (!Aflag && !dflag && !misses && !cgflag && !nh && isatty(fileno(fo)))
		Aflag = 1;
	for (k = 0; !cgflag && k < nh; k++) {
		const struct rt_cache_cfg *c0, *ci;
		int j;

		for (j = 1; j < rt_hier_levels(hiers[k]); j++) {
			rt_hier_stats(hiers[k], j, &c0);
			if (c0->policy < RT_OPT)
				continue;
			/* Belady below the first level needs that level's own
			 * future: the levels above decide it, unless the lower
			 * levels reach back up (inclusion) or there are many
			 * configurations to foresee. */
			if (incl != RT_NINE || nh > 1)
				u_bad("OPT and PES below the first level: one non-inclusive configuration only");
			future = 1;
		}
		rt_hier_stats(hiers[k], 0, &c0);
		rt_hier_stats(hiers[k], -1, &ci);
		if (c0->policy >= RT_OPT || (ci != NULL && ci->policy >= RT_OPT))
			future = 1;
	}
	if (future && !cgflag)
		foresee(&argv, &argc, tmpname);
	else
		future = 0;
	k = rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag);
	if (nbatch)
		runbatch();
	if (*tmpname)
		unlink(tmpname);
	if (k)
		u_status = 1;
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
		u_wclose(mw, oflag);
		fo = NULL;
	} else if (by >= 0)
		write_by();
	else if (diffmode || tempw)
		;	/* the stream was the output */
	else if (nh > 1 || (nh == 1 && hname[0] != NULL))
		write_ensemble();
	else if (!dflag)
		report();
	if (mapfile && !cgflag)
		writemap();
	if (fo != NULL)
		u_close(fo, oflag);
	for (k = 0; k < nh; k++) {
		rt_hier_free(hiers[k]);
		free(hname[k]);
	}
	rt_cg_free(cg);
	free(mapv);
	free(tring);
	free(tsum);
	for (k = 0; k <= nc; k++)
		free(fut[k]);
	free(arr);
	free(grp);
	rt_regions_free(regs);
	return u_status;
}
