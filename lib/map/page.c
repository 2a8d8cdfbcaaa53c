/* page.c: the access map as one interactive HTML page (trmap -O html):
 * the page of map.html, built in, with a pyramid of the map's cells
 * packed into it, so that the page pans and zooms with detail, as MTV,
 * MapVisual and Ntogkas's viewer do, from one file. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "map.h"

static const char page[] =
#include "map-html.h"
;

#define MAXLEV 15
#define NKEY 3		/* a cell's source line, function and region */

/* A cell of the column being gathered: accesses per op, the key most of
 * them had (MJRTY, as rt_density_vote), the least and greatest byte. */
struct cell {
	uint32_t row, n[4], key[NKEY], votes[NKEY];
	uint64_t lo, hi;
};

struct level {
	uint32_t cols, rows, col;	/* col: the column being gathered */
	struct cell *h;			/* its cells by row, open addressing */
	uint32_t *used;			/* the slots taken, to empty them */
	size_t cap, nused;
	unsigned char *buf;		/* the columns done, packed */
	size_t len, size;
	uint64_t ncells, lastcol, prevlo;
	uint32_t prevrow, prevkey[NKEY];
};

struct rt_mappage {
	const struct rt_fold *fold;
	const struct rt_regions *regs;
	struct rt_plot area;
	double W, H;
	uint64_t n, budget, total;	/* total: bytes packed, all levels */
	int bycount, catkey, nlev, err;
	struct level lev[MAXLEV];
	uint32_t *locidx, *stridx;	/* loc id, string id: index in names + 1 */
	size_t nloc, nstr;
	uint32_t *names;		/* by index: loc id (top bit) or string id */
	size_t nnames, capnames;
	uint64_t *tot[NKEY];		/* by index: accesses as line, func, region */
	size_t captot;
	/* the cache view (rt_mappage_cache): the simulation, its event map,
	 * and per row of it the accesses and L1 misses of each source line
	 * and region */
	struct rt_sim *sim;
	struct rt_ens *ens;
	struct rt_regions *simregs;
	struct rt_evmap *ev;
	uint32_t ckey[2];		/* the access simulated: its line and region */
	struct tally *tal;		/* open addressing */
	size_t ntal, captal;
	int talfull;			/* a pair was not kept */
};

struct tally { uint32_t row, key; uint64_t acc, miss; };	/* key: name index, 0x80000000 a region */

#define MAXTAL (1u << 18)

#define LOCBIT 0x80000000u

struct rt_mappage *
rt_mappage_new(const struct rt_fold *f, const struct rt_regions *g, const struct rt_plot *p,
    double W, double H, uint64_t n, int bycount, int catkey)
{
	struct rt_mappage *m = calloc(1, sizeof *m);
	uint32_t cols = (uint32_t)p->w, rows = (uint32_t)p->h;
	int k;

	if (m == NULL)
		return NULL;
	*m = (struct rt_mappage){ .fold = f, .regs = g, .area = *p, .W = W, .H = H, .n = n,
	    .budget = RT_MAPPAGE_BYTES, .bycount = bycount, .catkey = catkey };
	/* no finer than an access a column, nor rows past 2^31 */
	for (k = 0; k < MAXLEV && (k == 0 || ((uint64_t)cols << (k - 1)) < n) &&
	    ((uint64_t)rows << k) < ((uint64_t)1 << 31); k++) {
		m->lev[k].cols = cols << k;
		m->lev[k].rows = rows << k;
		m->lev[k].col = UINT32_MAX;
		m->lev[k].lastcol = UINT64_MAX;
	}
	m->nlev = k;
	return m;
}

/* Room for len more bytes. */
static int
reserve(struct level *l, size_t len)
{
	unsigned char *b;
	size_t size;

	if (l->len + len <= l->size)
		return 0;
	for (size = l->size ? 2 * l->size : 4096; size < l->len + len;)
		size *= 2;
	if ((b = realloc(l->buf, size)) == NULL)
		return RT_ENOMEM;
	l->buf = b;
	l->size = size;
	return 0;
}

static uint64_t
zigzag(int64_t d)
{
	return (uint64_t)d << 1 ^ (uint64_t)(d >> 63);
}

/* A name's index in the page's list (0: none), given on first sight. */
static uint32_t
nameof(struct rt_mappage *m, uint32_t id, int loc)
{
	uint32_t **tab = loc ? &m->locidx : &m->stridx, *t;
	size_t *nt = loc ? &m->nloc : &m->nstr, cap;

	if (id == 0)
		return 0;
	if (id >= *nt) {
		for (cap = *nt ? *nt : 256; cap <= id; cap *= 2)
			;
		if ((t = realloc(*tab, cap * sizeof *t)) == NULL)
			return m->err = RT_ENOMEM, 0;
		memset(t + *nt, 0, (cap - *nt) * sizeof *t);
		*tab = t;
		*nt = cap;
	}
	if ((*tab)[id] == 0) {
		if (m->nnames + 1 > m->capnames) {
			cap = m->capnames ? 2 * m->capnames : 256;
			if ((t = realloc(m->names, cap * sizeof *t)) == NULL)
				return m->err = RT_ENOMEM, 0;
			m->names = t;
			m->capnames = cap;
		}
		m->names[m->nnames++] = id | (loc ? LOCBIT : 0);
		(*tab)[id] = (uint32_t)m->nnames;
	}
	return (*tab)[id];
}

static int
byrow(const void *a, const void *b, void *ctx)
{
	const struct cell *h = ctx;
	uint32_t x = h[*(const uint32_t *)a].row, y = h[*(const uint32_t *)b].row;

	return x < y ? -1 : x > y;
}

/* The column gathered, packed: the columns skipped, its cells; a cell
 * its row (from the last), which ops it has, their counts, its keys
 * where they change, its first byte (from the last cell's last, the
 * first cell's from the last column's first) and its span.  Emptied for the next. */
static int
flush(struct rt_mappage *m, struct level *l)
{
	unsigned char *p, *maskp;
	uint32_t first, key;
	size_t i, len0 = l->len;
	int op, c;

	if (l->nused == 0)
		return 0;
	/* at most 10 bytes a varint: 2 a column, 9 and a mask a cell */
	if (reserve(l, 20 + 91 * l->nused))
		return RT_ENOMEM;
	if (l->nused > 1)
		qsort_r(l->used, l->nused, sizeof *l->used, byrow, l->h);
	first = l->h[l->used[0]].row;
	p = l->buf + l->len;
	p = rt_varint(p, l->col - (l->lastcol + 1));	/* lastcol + 1 wraps to 0 */
	p = rt_varint(p, l->nused - 1);
	for (i = 0; i < l->nused; i++) {
		struct cell *s = &l->h[l->used[i]];

		p = rt_varint(p, i ? s->row - l->prevrow - 1 : zigzag((int64_t)s->row - l->prevrow));
		maskp = p++;
		for (*maskp = 0, op = 0; op < 4; op++)
			if (s->n[op]) {
				*maskp |= 1 << op;
				p = rt_varint(p, s->n[op]);
			}
		for (c = 0; c < NKEY; c++) {
			key = s->key[c];
			if (key == l->prevkey[c])
				*maskp |= 16 << c;
			else
				p = rt_varint(p, key);
			l->prevkey[c] = key;
		}
		p = rt_varint(p, zigzag((int64_t)(s->lo - l->prevlo)));
		p = rt_varint(p, s->hi - s->lo);
		l->prevrow = s->row;
		l->prevlo = s->hi;
		s->row = UINT32_MAX;
	}
	l->len = (size_t)(p - l->buf);
	/* the next column starts from this one's first cell */
	l->prevrow = first;
	l->prevlo = l->h[l->used[0]].lo;
	l->ncells += l->nused;
	m->total += l->len - len0;
	l->lastcol = l->col;
	l->nused = 0;
	return m->err;
}

static int
grow(struct level *l)
{
	size_t cap = l->cap ? 2 * l->cap : 64, i, k;
	struct cell *h = malloc(cap * sizeof *h);
	uint32_t *used = malloc(cap / 2 * sizeof *used);

	if (h == NULL || used == NULL) {
		free(h);
		free(used);
		return RT_ENOMEM;
	}
	for (i = 0; i < cap; i++)
		h[i].row = UINT32_MAX;
	for (i = 0; i < l->nused; i++) {
		for (k = rt_hash64(l->h[l->used[i]].row) & (cap - 1); h[k].row != UINT32_MAX;
		    k = (k + 1) & (cap - 1))
			;
		h[k] = l->h[l->used[i]];
		used[i] = (uint32_t)k;
	}
	free(l->h);
	free(l->used);
	l->h = h;
	l->used = used;
	l->cap = cap;
	return 0;
}

static int
tally(struct rt_mappage *m)
{
	size_t cap = m->captot ? 2 * m->captot : 256, c;
	uint64_t *t;

	while (cap < m->nnames + 1)
		cap *= 2;
	for (c = 0; c < NKEY; c++) {
		if ((t = realloc(m->tot[c], cap * sizeof *t)) == NULL)
			return RT_ENOMEM;
		memset(t + m->captot, 0, (cap - m->captot) * sizeof *t);
		m->tot[c] = t;
	}
	m->captot = cap;
	return m->err;
}

/* Levels 0 to k take more than the budget: k and those finer go. */
static void
prune(struct rt_mappage *m)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < m->nlev; k++)
		if ((sum += m->lev[k].len) > m->budget && k > 0)
			break;
	while (m->nlev > k) {
		struct level *l = &m->lev[--m->nlev];

		m->total -= l->len;
		free(l->h);
		free(l->used);
		free(l->buf);
		memset(l, 0, sizeof *l);
	}
}

/* Access i (from 0) of the n: to its cell at every level.  Its row
 * at level k is rt_fold_row's scaled by 2^k, exactly (the quotient is
 * the same, times a power of two), its column too. */
int
rt_mappage_add(struct rt_mappage *m, uint64_t i, const struct rt_rec *r)
{
	long row0 = rt_fold_row(m->fold, r->addr);
	const struct rt_seg *s;
	uint32_t key[NKEY], col, row;
	double qc, qr;
	size_t seg, k, lo, hi, mid;
	int lv, c;

	if (row0 < 0 || i >= m->n)
		return 0;
	for (lo = 0, hi = rt_fold_count(m->fold); lo < hi;) {	/* its segment */
		mid = lo + (hi - lo) / 2;
		if (rt_fold_seg(m->fold, mid)->hi < r->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	seg = lo;
	s = rt_fold_seg(m->fold, seg);
	qr = (double)(r->addr - s->lo) * (s->y1 - s->y0 + 1) / (double)(s->hi - s->lo + 1);
	qc = (double)i * m->lev[0].cols / (double)m->n;
	/* the keys as names' indices, and their accesses counted */
	key[0] = nameof(m, r->loc, 1);
	key[1] = nameof(m, (uint32_t)rt_key_of(RT_KEY_FUNC, r, r->addr, m->regs, NULL), 0);
	key[2] = nameof(m, (uint32_t)rt_key_of(RT_KEY_REGION, r, r->addr, m->regs, NULL), 0);
	if (m->nnames + 1 > m->captot && tally(m))
		return RT_ENOMEM;
	for (c = 0; c < NKEY; c++)
		m->tot[c][key[c]]++;
	if (m->sim != NULL) {
		struct rt_rec t = *r;

		rt_evmap_at(m->ev, i);
		m->ckey[0] = key[0];
		m->ckey[1] = key[2];
		if (rt_sim_records(m->sim, &t, 1) || m->err)
			return RT_ENOMEM;
	}
	for (lv = 0; lv < m->nlev; lv++) {
		struct level *l = &m->lev[lv];
		struct cell *e;

		col = (uint32_t)(qc * (double)(1u << lv));
		row = (s->y0 << lv) + (uint32_t)(qr * (double)(1u << lv));
		if (col >= l->cols || row >= l->rows)
			continue;
		if (col != l->col) {
			if (flush(m, l))
				return RT_ENOMEM;
			l->col = col;
			if (m->total > m->budget) {
				prune(m);
				if (lv >= m->nlev)
					break;
			}
		}
		if (2 * (l->nused + 1) > l->cap && grow(l))
			return RT_ENOMEM;
		for (k = rt_hash64(row) & (l->cap - 1); l->h[k].row != UINT32_MAX && l->h[k].row != row;
		    k = (k + 1) & (l->cap - 1))
			;
		e = &l->h[k];
		if (e->row == UINT32_MAX) {
			memset(e, 0, sizeof *e);
			e->row = row;
			e->lo = r->addr;
			e->hi = rt_last(r);
			l->used[l->nused++] = (uint32_t)k;
		}
		e->n[r->op & 3]++;
		for (c = 0; c < NKEY; c++)
			rt_mjrty(&e->key[c], &e->votes[c], key[c]);
		if (r->addr < e->lo)
			e->lo = r->addr;
		if (rt_last(r) > e->hi)
			e->hi = rt_last(r);
	}
	return 0;
}

/* One access's count to the row's tally of key (a line, or a region
 * with the top bit); past MAXTAL pairs, new ones are not kept. */
static void
count(struct rt_mappage *m, uint32_t row, uint32_t key, int miss)
{
	struct tally *t, *old;
	size_t k, cap, j;

	if (2 * (m->ntal + 1) > m->captal) {
		if (m->ntal >= MAXTAL)
			goto find;
		cap = m->captal ? 2 * m->captal : 1024;
		if ((t = malloc(cap * sizeof *t)) == NULL) {
			m->err = RT_ENOMEM;
			return;
		}
		for (k = 0; k < cap; k++)
			t[k].row = UINT32_MAX;
		for (old = m->tal, j = 0; j < m->captal; j++)
			if (old[j].row != UINT32_MAX) {
				for (k = rt_hash64((uint64_t)old[j].row << 32 | old[j].key) & (cap - 1);
				    t[k].row != UINT32_MAX; k = (k + 1) & (cap - 1))
					;
				t[k] = old[j];
			}
		free(m->tal);
		m->tal = t;
		m->captal = cap;
	}
find:
	for (k = rt_hash64((uint64_t)row << 32 | key) & (m->captal - 1);
	    m->tal[k].row != UINT32_MAX && (m->tal[k].row != row || m->tal[k].key != key);
	    k = (k + 1) & (m->captal - 1))
		;
	t = &m->tal[k];
	if (t->row == UINT32_MAX) {
		if (m->ntal >= MAXTAL) {
			m->talfull = 1;
			return;
		}
		*t = (struct tally){ .row = row, .key = key };
		m->ntal++;
	}
	t->acc++;
	t->miss += miss != 0;
}

/* Each first-level block an access touched: to the event map and the
 * tallies of its row. */
static void
served(void *ctx, uint64_t set, int level, int kind, int evicted)
{
	struct rt_mappage *m = ctx;
	uint32_t row = (uint32_t)rt_evmap_row(m->ev, set);

	rt_evmap_add(m->ev, set, level, kind, evicted);
	if (m->ckey[0])
		count(m, row, m->ckey[0], level > 0);
	if (m->ckey[1])
		count(m, row, m->ckey[1] | LOCBIT, level > 0);
}

int
rt_mappage_cache(struct rt_mappage *m, struct rt_ens *e, char *why, size_t whylen)
{
	struct rt_sim_cfg c = { .incl = RT_NINE, .seed = 1, .key = -1, .sortcol = -1, .fold = 1,
	    .watch = served, .watchctx = m };
	const struct rt_cache_cfg *l1;
	struct rt_hier *h;
	int k;

	if ((m->simregs = rt_regions_new()) == NULL) {
		snprintf(why, whylen, "out of memory");
		return RT_ENOMEM;
	}
	if ((k = rt_sim_new(&m->sim, e, m->simregs, &c, why, whylen)) != 0)
		return k;
	if (rt_ens_needs_future(e)) {
		snprintf(why, whylen, "OPT and PES read the future first: not in a page's cache view");
		return RT_EUSAGE;
	}
	m->ens = e;
	h = rt_ens_hier(e, 0);
	rt_hier_stats(h, 0, &l1);
	snprintf(why, whylen, "out of memory");
	if ((m->ev = rt_evmap_new(m->W, rt_evmap_height(m->W), rt_cache_sets(l1), rt_hier_levels(h),
	    0)) == NULL || rt_evmap_detail(m->ev))
		return RT_ENOMEM;
	return 0;
}

/* The cache view's members of the page's data, its bytes at *buf. */
static int
cacheview(FILE *f, struct rt_mappage *m, unsigned char **buf, size_t *len)
{
	const struct rt_cache_cfg *cf;
	unsigned char *b, *p;
	size_t k, n = 0, lv;
	int e;

	if (m->err)
		return RT_ENOMEM;
	fputs(",\"cache\":{", f);
	if ((e = rt_evmap_page(m->ev, f, buf, len)) != 0)
		return e;
	fputs(",\"config\":[", f);
	for (lv = 0; lv < (size_t)rt_hier_levels(rt_ens_hier(m->ens, 0)); lv++) {
		rt_hier_stats(rt_ens_hier(m->ens, 0), (int)lv, &cf);
		fprintf(f, "%s\"%llu:%u:%u %s\"", lv ? "," : "", (unsigned long long)cf->size,
		    cf->assoc, cf->block, rt_policy_name(cf->policy));
	}
	if ((b = realloc(*buf, *len + 40 * m->ntal + 1)) == NULL)
		return RT_ENOMEM;
	*buf = b;
	p = b + *len;
	/* the tallies: row, key, accesses, misses */
	for (k = 0; k < m->captal; k++)
		if (m->tal[k].row != UINT32_MAX) {
			p = rt_varint(p, m->tal[k].row);
			p = rt_varint(p, m->tal[k].key);
			p = rt_varint(p, m->tal[k].acc);
			p = rt_varint(p, m->tal[k].miss);
			n++;
		}
	fprintf(f, "],\"ntal\":%zu,\"talfull\":%d,\"len\":%zu}", n, m->talfull, (size_t)(p - b));
	*len = (size_t)(p - b);
	return 0;
}

static void
header(FILE *f, const struct rt_mappage *m, const char *title, const char *const *names,
    const struct rt_varstat *vs, size_t nvs)
{
	unsigned char pal[3 * 256];
	char buf[512];
	size_t k;
	int lv, npal, c;

	fprintf(f, "{\"w\":%g,\"h\":%g,\"plot\":[%g,%g,%g,%g],\"keyx\":%g,\"n\":%llu,"
	    "\"bycount\":%d,\"catkey\":%d,\"budget\":%llu,\"title\":", m->W, m->H, m->area.x,
	    m->area.y, m->area.w, m->area.h, m->area.keyx, (unsigned long long)m->n, m->bycount,
	    m->catkey,
	    (unsigned long long)m->budget);
	rt_json_str(f, title ? title : "");
	fputs(",\"levels\":[", f);
	for (lv = 0; lv < m->nlev; lv++)
		fprintf(f, "%s[%u,%u,%llu,%zu]", lv ? "," : "", m->lev[lv].cols, m->lev[lv].rows,
		    (unsigned long long)m->lev[lv].ncells, m->lev[lv].len);
	fputs("],\"segs\":[", f);
	for (k = 0; k < rt_fold_count(m->fold); k++) {
		const struct rt_seg *s = rt_fold_seg(m->fold, k);

		fprintf(f, "%s[\"%llx\",\"%llx\",%u,%u,", k ? "," : "", (unsigned long long)s->lo,
		    (unsigned long long)s->hi, s->y0, s->y1);
		if (names != NULL && names[k] != NULL)
			rt_json_str(f, names[k]);
		else
			fputs("null", f);
		fputc(']', f);
	}
	fputs("],\"names\":[\"\"", f);
	for (k = 0; k < m->nnames; k++) {
		fputc(',', f);
		rt_json_str(f, m->names[k] & LOCBIT ? rt_key_label(RT_KEY_LOC, m->names[k] & ~LOCBIT, buf,
		    sizeof buf) : rt_str(m->names[k]));
	}
	fputs("],\"vars\":[", f);
	for (k = 0; k < nvs; k++) {
		fprintf(f, "%s[", k ? "," : "");
		rt_json_str(f, rt_str(vs[k].name));
		fprintf(f, ",\"%llx\",%llu,%llu,%llu,%llu,%llu,%llu,%llu]",
		    (unsigned long long)vs[k].base, (unsigned long long)vs[k].size,
		    (unsigned long long)vs[k].elem, (unsigned long long)vs[k].acc[0],
		    (unsigned long long)vs[k].acc[1], (unsigned long long)vs[k].acc[2],
		    (unsigned long long)vs[k].acc[3], (unsigned long long)vs[k].bytes);
	}
	fputs("],\"tot\":[", f);
	for (c = 0; c < NKEY; c++) {
		fputs(c ? ",[" : "[", f);
		for (k = 0; k <= m->nnames; k++)
			fprintf(f, "%s%llu", k ? "," : "",
			    (unsigned long long)(k < m->captot ? m->tot[c][k] : 0));
		fputc(']', f);
	}
	fputs("],\"cat\":[", f);
	for (k = 0; k < RT_NCATEGORY; k++) {
		rt_colour_category(k, pal);
		fprintf(f, "%s[%d,%d,%d]", k ? "," : "", pal[0], pal[1], pal[2]);
	}
	npal = rt_map_palette(pal, NULL, 0);
	fputs("],\"palette\":[", f);
	for (k = 0; k < (size_t)npal; k++)
		fprintf(f, "%s[%d,%d,%d]", k ? "," : "", pal[3 * k], pal[3 * k + 1], pal[3 * k + 2]);
	fputc(']', f);
}

int
rt_mappage_html(FILE *f, struct rt_mappage *m, const char *title, const char *const *names,
    const struct rt_varstat *vs, size_t nvs)
{
	const char *mark = strstr(page, "@DATA@");
	unsigned char *raw, *cbuf = NULL, *b;
	size_t len = 0, o = 0, clen = 0;
	int lv, rc = 0;

	for (lv = 0; lv < m->nlev; lv++)
		if (flush(m, &m->lev[lv]))
			return RT_ENOMEM;
	prune(m);
	if (m->sim != NULL && rt_sim_finish(m->sim))
		return RT_ENOMEM;
	for (lv = 0; lv < m->nlev; lv++)
		len += m->lev[lv].len;
	if ((raw = malloc(len + 1)) == NULL)
		return RT_ENOMEM;
	for (lv = 0; lv < m->nlev; lv++) {
		if (m->lev[lv].len)
			memcpy(raw + o, m->lev[lv].buf, m->lev[lv].len);
		o += m->lev[lv].len;
	}
	fwrite(page, 1, (size_t)(mark - page), f);
	header(f, m, title, names, vs, nvs);
	/* the cache view's bytes after the levels' */
	if (m->sim != NULL && (rc = cacheview(f, m, &cbuf, &clen)) == 0 &&
	    (b = realloc(raw, len + clen + 1)) != NULL) {
		raw = b;
		memcpy(raw + len, cbuf, clen);
		len += clen;
	} else if (m->sim != NULL)
		rc = RT_ENOMEM;
	if (m->sim == NULL || rc == 0)
		rc = rt_page_data(f, raw, len, mark + 6);
	free(raw);
	free(cbuf);
	return rc;
}

int
rt_mappage_levels(const struct rt_mappage *m)
{
	return m->nlev;
}

void
rt_mappage_free(struct rt_mappage *m)
{
	int k;

	if (m == NULL)
		return;
	for (k = 0; k < MAXLEV; k++) {
		free(m->lev[k].h);
		free(m->lev[k].used);
		free(m->lev[k].buf);
	}
	free(m->locidx);
	free(m->stridx);
	free(m->names);
	for (k = 0; k < NKEY; k++)
		free(m->tot[k]);
	rt_sim_free(m->sim);
	rt_regions_free(m->simregs);
	rt_evmap_free(m->ev);
	free(m->tal);
	free(m);
}
