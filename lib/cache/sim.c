/* sim.c: a cachesim run: records in, a batch at a time, to the
 * hierarchies of an ensemble or to cachegrind's model; what follows each
 * access (-d's records, --diff, --temperature, the caller's watch, the
 * tally by key, the miss stream); the table at the end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "hier.h"

enum { S_OK, S_WRITE, S_NOMEM, S_GROUPS };

static const struct rt_tally *cgtally(const struct rt_sim *s, int *nev, char *names, size_t len);

struct rt_sim {
	struct rt_sim_cfg c;
	struct rt_ens *ens;
	struct rt_hier *hier;		/* the first (or only) configuration */
	struct rt_cg *cg;
	struct rt_regions *regs;
	struct rt_temp *temp;
	struct rt_tally *tally;
	struct rt_tally *bylocs;	/* a hierarchy's counts by location */
	struct rt_sym *objs;		/* -g loc, func: the objects, to fold */
	uint32_t prog;			/* the first object's path: the program */
	uint32_t *folded;		/* by object: the key of its one row */
	size_t nfolded;
	struct rt_writer *mw;		/* the miss stream */
	struct rt_enspool *pool;	/* the configurations on threads, or NULL */
	struct rt_rec cur;		/* with it, the record being simulated */
	double lat[RT_MAXLEVEL + 1];
	int nc, err, errnum;
	int warm;			/* in the warm-up */
	uint64_t slicek, slicen;	/* rt_sim_cfg's slice */
	uint64_t slicebytes;		/* of its trace file */
};

/* The miss stream: what the level sends below, as a trace. */
static void
down(void *ctx, uint64_t addr, int op, uint32_t bytes)
{
	struct rt_sim *s = ctx;
	struct rt_rec r = s->cur;

	if (s->err)
		return;
	r.op = (uint8_t)op;
	r.addr = addr;
	r.size = bytes;
	if (rt_write(s->mw, &r)) {
		s->err = S_WRITE;
		s->errnum = errno;
	}
}

/* The key of an access; by location, the accesses of an object other than
 * the program fold into one row named [object] (the loader, libc). */
static uint64_t
key(struct rt_sim *s, const struct rt_rec *rec, uint64_t addr)
{
	const char *path, *b;
	char name[256];
	uint32_t *p, id;
	int o;

	if (s->objs == NULL || rec->loc == 0 || (o = rt_sym_object(s->objs, rec->pc,
	    &path)) < 0 || (s->prog && strcmp(path, rt_str(s->prog)) == 0))
		return rt_key_of(s->c.key, rec, addr, s->regs, s->hier);
	if ((size_t)o >= s->nfolded) {
		if ((p = realloc(s->folded, (size_t)(o + 1) * sizeof *p)) == NULL)
			return rt_key_of(s->c.key, rec, addr, s->regs, s->hier);
		memset(p + s->nfolded, 0, ((size_t)o + 1 - s->nfolded) * sizeof *p);
		s->folded = p;
		s->nfolded = (size_t)o + 1;
	}
	if (s->folded[o] == 0) {
		b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		snprintf(name, sizeof name, "[%s]", b);
		id = rt_str_intern(name, strlen(name));
		s->folded[o] = s->c.key == RT_KEY_LOC ? rt_loc_intern(0, 0, id) : id;
	}
	return s->folded[o];
}

/* A block access by location: Ir, Dr, Dw, each with the misses per level */
static int
locs(struct rt_sim *s, const struct rt_rec *rec, int lv)
{
	uint64_t *r = rt_tally_row(s->bylocs, rec->loc), *c;
	int k;

	if (r == NULL) {
		s->err = S_GROUPS;
		return -1;
	}
	c = r + (rec->op == RT_IFETCH ? 0 : rec->op == RT_WRITE ? 2 : 1) * (s->nc + 1);
	c[0]++;
	for (k = 0; k < lv && k < s->nc; k++)
		c[1 + k]++;
	if (rec->op == RT_MODIFY)	/* and its write, which hits */
		r[2 * (s->nc + 1)]++;
	return 0;
}

/* Every first-level block of an access, served: the per-access outputs. */
static void
served(void *ctx, const struct rt_rec *rec, uint64_t addr, const int *lv)
{
	struct rt_sim *s = ctx;
	struct rt_hier *h = s->hier;
	int n = rt_hier_levels(h);

	if (s->err)
		return;
	if (s->c.diff && lv[0] != lv[1])
		rt_cachediff_write(s->c.out, rec->seq, lv[0], n, lv[1],
		    rt_hier_levels(rt_ens_hier(s->ens, 1)));
	if (s->c.watch != NULL)	/* the first level's set; with -3, its kind of miss */
		s->c.watch(s->c.watchctx, rt_hier_set(h, addr, rec->op), lv[0],
		    rt_hier_miss3c(h)[0], rt_hier_evicted(h)[0] != UINT64_MAX);
	if (s->temp != NULL)
		rt_temp_write(s->temp, s->c.out, rec->seq, lv[0]);
	if (s->tally != NULL && rt_tally_access(s->tally, key(s, rec, addr), rec->op, lv[0],
	    s->nc)) {
		s->err = S_GROUPS;
		return;
	}
	if (s->bylocs != NULL && locs(s, rec, lv[0]))
		return;
	if (s->c.records)
		rt_cacherec_write(s->c.out, rec->seq, lv[0], n, rt_hier_evicted(h));
}

static void
item(struct rt_sim *s, struct rt_rec *rec)
{
	if (rec->kind != RT_ACCESS) {
		if (rec->kind == RT_REGION && rt_regions_add(s->regs, rec)) {
			s->err = S_NOMEM;
			return;
		}
		if (rec->kind == RT_OBJECT && s->objs != NULL) {
			if (s->prog == 0)
				s->prog = rec->name;
			rt_sym_add(s->objs, rt_str(rec->name), rec->addr, NULL);	/* else not folded */
		}
		if (s->cg == NULL)	/* a flush: its write-backs go down before it */
			rt_ens_event(s->ens, rec);
		if (s->mw != NULL && !s->err && rt_write(s->mw, rec)) {
			s->err = S_WRITE;
			s->errnum = errno;
		}
	} else if (s->cg != NULL) {
		struct rt_cgstats *row = NULL;

		if (s->tally != NULL && (row = rt_tally_row(s->tally, rec->loc)) == NULL) {
			s->err = S_GROUPS;
			return;
		}
		rt_cg_access(s->cg, rec, row);
	}
	else {
		if (s->mw != NULL)
			s->cur = *rec;
		rt_ens_access(s->ens, rec);
	}
}

/* A batch: the runs of accesses between events go to the caches whole
 * (but for cachegrind's model and the miss stream, which see each record). */
/* Records v[i] .. v[n - 1], accesses batched where nothing follows each. */
static void
run(struct rt_sim *s, struct rt_rec *v, int i, int n)
{
	while (i < n && !s->err) {
		if (s->cg == NULL && s->mw == NULL && (i += rt_ens_run(s->ens, v + i, n - i)) == n)
			break;
		item(s, &v[i++]);
	}
}

/* The warm-up, until it is over (then the counts start again): by seq,
 * the records before the first past it run as others do; to a fraction
 * of the last level, record by record.  The index of the first record
 * counted, or n. */
static int
warmup(struct rt_sim *s, struct rt_rec *v, int n)
{
	int i;

	if (s->c.warmfrac > 0) {
		for (i = 0; i < n && !s->err; i++) {
			if ((s->c.warmup && v[i].kind == RT_ACCESS && v[i].seq >= s->c.warmup) ||
			    rt_hier_filled(s->hier) >= s->c.warmfrac)
				break;
			item(s, &v[i]);
		}
	} else {
		for (i = 0; i < n && !(v[i].kind == RT_ACCESS && v[i].seq >= s->c.warmup); i++)
			;
		run(s, v, 0, i);
	}
	if (i < n && !s->err) {
		rt_ens_zero(s->ens);
		s->warm = 0;
	}
	return i;
}

static int
simbatch(void *ctx, struct rt_rec *v, int n)
{
	struct rt_sim *s = ctx;

	run(s, v, s->warm ? warmup(s, v, n) : 0, n);
	return s->err ? -1 : 0;
}

/* Threads: the caches' counts or --diff's stream their only outputs. */
static int
poolnew(struct rt_sim *s)
{
	const struct rt_sim_cfg *c = &s->c;

	if (c->threads < 2 || s->cg != NULL || s->mw != NULL || s->warm || c->records ||
	    c->watch || c->tempw || c->key >= 0 || c->bylocs)
		return 0;
	if (rt_enspool_new(&s->pool, s->ens, c->threads)) {
		s->err = S_NOMEM;
		return -1;
	}
	return 0;
}

/* A batch to the threads; a region kept as item() keeps it. */
static int
poolbatch(void *ctx, struct rt_rec *v, int n)
{
	struct rt_sim *s = ctx;
	int i;

	for (i = 0; i < n && !s->err; i++)
		if (v[i].kind == RT_REGION && rt_regions_add(s->regs, &v[i]))
			s->err = S_NOMEM;
	if (!s->err && rt_enspool_put(s->pool, v, n))
		s->err = S_NOMEM;
	return s->err ? -1 : 0;
}

/* The threads done with every record, and ended. */
static int
poolend(struct rt_sim *s)
{
	if (s->pool != NULL && rt_enspool_end(s->pool) && !s->err)
		s->err = S_NOMEM;
	rt_enspool_free(s->pool);
	s->pool = NULL;
	return s->err ? -1 : 0;
}

int
rt_sim_new(struct rt_sim **sp, struct rt_ens *e, struct rt_regions *regs,
    const struct rt_sim_cfg *c, char *why, size_t whylen)
{
	static const double deflat[] = { 3, 15, 40, 80, 120, 160, 200, 240 };
	struct rt_sim *s;
	int k, obs = c->records || c->watch || c->tempw || c->key >= 0 || c->diff || c->bylocs;

	*sp = NULL;
	rt_ens_cores(e, c->cores);
	if ((k = rt_ens_build(e, c->icache, c->incl, c->seed, c->threec, obs, why,
	    whylen)) != 0)
		return k;
	if ((s = calloc(1, sizeof *s)) == NULL) {
		snprintf(why, whylen, "out of memory");
		return RT_ENOMEM;
	}
	*sp = s;
	s->c = *c;
	s->ens = e;
	s->regs = regs;
	s->hier = rt_ens_hier(e, 0);
	s->nc = rt_ens_depth(e);
	s->warm = c->warmup > 0 || c->warmfrac > 0;
	for (k = 0; k <= s->nc; k++)
		s->lat[k] = k < c->nlat ? c->lat[k] : k == s->nc ? 300 : deflat[k];
	if (c->nlat && c->nlat != s->nc + 1) {
		snprintf(why, whylen, "%d levels and memory want %d latencies", s->nc,
		    s->nc + 1);
		return RT_EUSAGE;
	}
	if (c->tempw && ((double)c->tempw * rt_hier_levels(s->hier) > rt_memory() ||
	    (s->temp = rt_temp_new(c->tempw, rt_hier_levels(s->hier))) == NULL)) {
		snprintf(why, whylen, "no memory for a window of %llu accesses",
		    (unsigned long long)c->tempw);
		return RT_ENOMEM;
	}
	snprintf(why, whylen, "out of memory");
	if (c->key >= 0 &&
	    (s->tally = rt_tally_new((size_t)(s->nc + 4) * sizeof(uint64_t))) == NULL)
		return RT_ENOMEM;
	if ((c->key == RT_KEY_LOC || c->key == RT_KEY_FUNC) && c->fold &&
	    (s->objs = rt_sym_new()) == NULL)
		return RT_ENOMEM;
	if (c->bylocs &&
	    (s->bylocs = rt_tally_new(3 * (size_t)(s->nc + 1) * sizeof(uint64_t))) == NULL)
		return RT_ENOMEM;
	if (obs)
		rt_ens_observe(e, served, s);
	if (c->tempw)	/* the streams' headers */
		rt_temp_header(c->out, s->nc);
	if (c->diff)
		rt_cachediff_header(c->out);
	if (c->records)
		rt_cacherec_header(c->out, s->nc);
	return 0;
}

int
rt_sim_cgnew(struct rt_sim **sp, struct rt_ens *e, struct rt_regions *regs,
    const struct rt_sim_cfg *c, int *guessed, char *why, size_t whylen)
{
	const struct rt_cache_cfg *lv;
	struct rt_cache_cfg d1, ll;
	struct rt_sim *s;
	int n;

	*sp = NULL;
	lv = rt_ens_levels(e, &n);
	if ((*guessed = n == 0)) {
		rt_cache_parse("32K:8:64", &d1, why, whylen);
		rt_cache_parse("8M:16:64", &ll, why, whylen);
	} else if (n == 2) {
		d1 = lv[0];
		ll = lv[1];
	} else {
		snprintf(why, whylen, "cachegrind's model has two levels, D1 and LL, not %d", n);
		return RT_EUSAGE;
	}
	snprintf(why, whylen, "out of memory");
	if ((s = calloc(1, sizeof *s)) == NULL)
		return RT_ENOMEM;
	*sp = s;
	s->c = *c;
	s->regs = regs;
	if ((s->cg = rt_cg_new(c->icache ? c->icache : &d1, &d1, &ll)) == NULL ||
	    ((c->key >= 0 || c->bylocs) &&
	    (s->tally = rt_tally_new(sizeof(struct rt_cgstats))) == NULL))
		return RT_ENOMEM;
	return 0;
}

int
rt_sim_cgfile(const struct rt_sim *s, FILE *f, char *const *files, int nfiles)
{
	static const char *cgname[] = { "I1", "D1", "LL" };
	char desc[RT_MAXLEVEL + 1][96], ev[512], name[8];
	const char *d[RT_MAXLEVEL + 1];
	const struct rt_cache_cfg *lv;
	const struct rt_tally *t;
	int k, n, nev;

	if (s->cg != NULL)
		for (n = 0; n < 3; n++)
			rt_cg_desc(desc[n], sizeof desc[n], cgname[n], rt_cg_cfg(s->cg, n));
	else {	/* the hierarchy: a line per level */
		lv = rt_ens_levels(s->ens, &k);
		for (n = 0; n < k && n < RT_MAXLEVEL; n++) {
			snprintf(name, sizeof name, "L%d", n + 1);
			rt_cg_desc(desc[n], sizeof desc[n], name, &lv[n]);
		}
		if (s->c.icache != NULL)
			rt_cg_desc(desc[n++], sizeof desc[0], "L1I", s->c.icache);
	}
	for (k = 0; k < n; k++)
		d[k] = desc[k];
	t = cgtally(s, &nev, ev, sizeof ev);
	return rt_cgfile_write(f, t, nev, ev, d, n, files, nfiles);
}

static const struct rt_tally *
cgtally(const struct rt_sim *s, int *nev, char *names, size_t len)
{
	static const char kind[] = "IDD", *rw[] = { "r", "r", "w" };
	size_t n = 0;
	int c, k;

	if (s->cg != NULL) {
		*nev = 9;
		snprintf(names, len, "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw");
		return s->tally;
	}
	*nev = 3 * (s->nc + 1);
	for (c = 0; c < 3; c++)
		for (k = 0; k <= s->nc && n < len; k++) {
			if (k == 0)
				n += (size_t)snprintf(names + n, len - n, "%s%c%s", c ? " " : "",
				    kind[c], rw[c]);
			else
				n += (size_t)snprintf(names + n, len - n, " %c%dm%s", kind[c], k,
				    rw[c]);
		}
	return s->bylocs;
}

void
rt_sim_misses(struct rt_sim *s, int level, struct rt_writer *w)
{
	s->mw = w;
	rt_hier_watch(s->hier, level - 1, down, s);
}

/* The code of a failure s->err records (a table's groups past its
 * limit are out of its memory). */
static int
simcode(const struct rt_sim *s)
{
	return s->err == S_WRITE ? RT_EIO : s->err ? RT_ENOMEM : 0;
}

int
rt_sim_failed(const struct rt_sim *s, char *why, size_t whylen)
{
	if (s->err == S_OK)
		return 0;
	if (s->err == S_WRITE) {
		errno = s->errnum;
		snprintf(why, whylen, "%s", strerror(errno));
		return RT_EIO;
	}
	snprintf(why, whylen, "%s", s->err == S_GROUPS ? "too many groups for a table" :
	    "out of memory");
	return simcode(s);
}

static int
simend(struct rt_sim *s, int flush)
{
	int k;

	if (s->cg != NULL)
		return 0;
	rt_ens_flush(s->ens);
	if (flush && !s->err)
		rt_ens_event(s->ens, &(struct rt_rec){ .kind = RT_FLUSH });	/* size 0: all */
	if (s->warm)	/* it lasted the whole trace: nothing counted */
		rt_ens_zero(s->ens);
	for (k = 0; k < rt_ens_count(s->ens) && !s->err; k++)
		if (rt_hier_failed(rt_ens_hier(s->ens, k)))
			s->err = S_NOMEM;	/* a coherence miss not told */
	return s->err ? -1 : 0;
}

int
rt_sim_records(struct rt_sim *s, struct rt_rec *v, int n)
{
	simbatch(s, v, n);
	return simcode(s);
}

int
rt_sim_finish(struct rt_sim *s)
{
	simend(s, 0);
	return simcode(s);
}

/* Whether the run's output can be made from time slices. */
static int
sliceable(const struct rt_sim *s, char *why, size_t whylen)
{
	if (s->cg != NULL || rt_ens_count(s->ens) != 1 || rt_ens_tlbs(s->ens) || s->mw != NULL ||
	    s->c.records || s->c.key >= 0 || s->c.diff || s->c.tempw || s->c.watch != NULL ||
	    s->c.bylocs || s->c.warmup || s->c.warmfrac > 0 || s->c.ensemble) {
		snprintf(why, whylen, "time slices make one hierarchy's table, nothing more");
		return RT_EUSAGE;
	}
	return rt_hier_sliceable(s->hier, why, whylen);
}

/* rt_sim_run of a time slice's job, or of the fix-up (rt_sim_cfg). */
static int
sliced(struct rt_sim *s, char **files, int n, int flush, rt_diag_fn *diag, char *why,
    size_t whylen)
{
	struct rt_tsfix fx;
	struct stat st;
	char msg[200];
	int e;

	if ((e = sliceable(s, why, whylen)) != 0)
		return e;
	if (s->c.slice && rt_parse_part(s->c.slice, &s->slicek, &s->slicen, NULL))
		return snprintf(why, whylen, "slice %s: want k/n, k < n", s->c.slice), RT_EUSAGE;
	if (s->c.slice && n != 1)
		return snprintf(why, whylen, "a slice is of one trace: name one"), RT_EUSAGE;
	if (s->c.slice) {
		s->slicebytes = stat(files[0], &st) == 0 ? (uint64_t)st.st_size : 0;
		rt_slice_all(s->slicek, s->slicen);
		e = rt_foreach_batch(files, n, RT_FMT_AUTO, 0, simbatch, s, diag,
		    &(struct rt_part){ 0 });
		rt_slice_all(0, 0);
		return e < 0 || simend(s, 0) ? rt_sim_failed(s, why, whylen) : e;
	}
	if (n < 2)
		return snprintf(why, whylen, "name the trace, then its slices' states in "
		    "order"), RT_EUSAGE;
	if ((e = rt_hier_fixup(s->hier, files[0], files + 1, n - 1, s->c.threads, &fx, why,
	    whylen)) == 0 &&
	    simend(s, flush))
		e = rt_sim_failed(s, why, whylen);
	snprintf(msg, sizeof msg, "the fix-up simulated %llu records again; %llu of %d "
	    "slices converged", (unsigned long long)fx.resim, (unsigned long long)fx.converged,
	    n - 2);
	if (e == 0 && s->c.fixup > 1)
		diag(msg, 0);
	return e;
}

int
rt_sim_run(struct rt_sim *s, char **files, int n, int fmt, int skipbad, rt_diag_fn *diag,
    struct rt_part *part, int flush, char *why, size_t whylen)
{
	char tmp[4096] = "", *spooled[1];
	int k = 0, seen = 0;

	if (s->c.slice || s->c.fixup)
		return sliced(s, files, n, flush, diag, why, whylen);

	if (s->cg == NULL && rt_ens_needs_future(s->ens)) {
		k = rt_ens_foresee(s->ens, files, n, fmt, skipbad, diag, tmp, sizeof tmp, why,
		    whylen);
		if (k >= 0 && *tmp) {	/* standard input, spooled: read again from there */
			spooled[0] = tmp;
			files = spooled;
			n = 1;
			fmt = RT_FMT_BINARY;
		}
		seen = k;
	}
	if (k >= 0 && poolnew(s) == 0) {
		k = rt_foreach_batch(files, n, fmt, skipbad, s->pool ? poolbatch : simbatch, s,
		    diag, part);
		if (poolend(s) || k < 0 || simend(s, flush))
			k = rt_sim_failed(s, why, whylen);
	} else if (k >= 0)
		k = rt_sim_failed(s, why, whylen);
	if (*tmp)
		unlink(tmp);
	return k == 0 ? seen : k;
}

/* A partition's table says what a merge needs, and warns when the sum of
 * the partitions' tables would not be the whole's. */
static void
partof(const struct rt_sim *s, struct rt_cache_table *t, const struct rt_part *part,
    rt_diag_fn *diag)
{
	char why[200], msg[300];

	if (part->n == 0)
		return;
	t->part = *part;
	t->incl = s->c.incl;
	t->nlat = s->nc + 1;
	memcpy(t->lat, s->lat, sizeof t->lat);
	snprintf(t->config, sizeof t->config, "%s", s->c.config ? s->c.config : "");
	if (rt_cachetab_exact(t, why, sizeof why) != NULL) {
		snprintf(msg, sizeof msg, "partition %llu/%llu: %s: the partitions will not merge",
		    (unsigned long long)part->k, (unsigned long long)part->n, why);
		diag(msg, 0);
	}
}

int
rt_sim_report(const struct rt_sim *s, int summary, const struct rt_part *part,
    rt_diag_fn *diag)
{
	struct rt_cache_table t;
	FILE *f = s->c.out;
	int k = 0;

	if (s->c.slice)	/* an error of f is its close's */
		return rt_hier_statewrite(f, s->hier, s->slicek, s->slicen, s->slicebytes), 0;
	if (s->cg != NULL && s->c.key >= 0)
		k = rt_cgby_write(f, s->c.key, s->tally, s->c.sortcol);
	else if (s->cg != NULL && summary)
		rt_cgsum_write(f, rt_cg_stats(s->cg));
	else if (s->cg != NULL)
		rt_cgtab_write(f, rt_cg_stats(s->cg));
	else if (s->tally != NULL)
		k = rt_bytab_write(f, s->c.key, s->tally, s->nc, s->c.sortcol);
	else if (s->c.diff || s->c.tempw)
		;	/* the stream was the output */
	else if (s->c.ensemble || rt_ens_tlbs(s->ens) > 1)
		rt_enstab_write(f, s->ens, s->lat);
	else if (!s->c.records) {
		if (s->warm && diag != NULL)
			diag("the warm-up lasted the whole trace: nothing was counted", 0);
		rt_cachetab_of(&t, s->hier, s->lat, s->c.threec != 0);
		if (rt_ens_tlbs(s->ens))
			rt_cachetab_tlb(&t, rt_ens_tlbh(s->ens, 0));
		partof(s, &t, part, diag);
		rt_cachetab_put(f, &t, summary);
	}
	return k < 0 ? RT_ENOMEM : 0;
}

const char *
rt_sim_missing(const struct rt_sim *s)
{
	return s->c.key >= 0 && s->tally != NULL ? rt_key_missing(s->c.key, s->tally) : NULL;
}

void
rt_sim_free(struct rt_sim *s)
{
	if (s == NULL)
		return;
	rt_enspool_free(s->pool);
	rt_cg_free(s->cg);
	rt_temp_free(s->temp);
	rt_tally_free(s->tally);
	rt_tally_free(s->bylocs);
	if (s->objs != NULL)
		rt_sym_free(s->objs);
	free(s->folded);
	free(s);
}
