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
};

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

static unsigned char *
varint(unsigned char *p, uint64_t v)
{
	for (; v >= 128; v >>= 7)
		*p++ = (unsigned char)(v | 128);
	*p++ = (unsigned char)v;
	return p;
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
	p = varint(p, l->col - (l->lastcol + 1));	/* lastcol + 1 wraps to 0 */
	p = varint(p, l->nused - 1);
	for (i = 0; i < l->nused; i++) {
		struct cell *s = &l->h[l->used[i]];

		p = varint(p, i ? s->row - l->prevrow - 1 : zigzag((int64_t)s->row - l->prevrow));
		maskp = p++;
		for (*maskp = 0, op = 0; op < 4; op++)
			if (s->n[op]) {
				*maskp |= 1 << op;
				p = varint(p, s->n[op]);
			}
		for (c = 0; c < NKEY; c++) {
			key = s->key[c];
			if (key == l->prevkey[c])
				*maskp |= 16 << c;
			else
				p = varint(p, key);
			l->prevkey[c] = key;
		}
		p = varint(p, zigzag((int64_t)(s->lo - l->prevlo)));
		p = varint(p, s->hi - s->lo);
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
	unsigned char *raw;
	size_t len = 0, o = 0;
	int lv, rc;

	for (lv = 0; lv < m->nlev; lv++)
		if (flush(m, &m->lev[lv]))
			return RT_ENOMEM;
	prune(m);
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
	rc = rt_page_data(f, raw, len, mark + 6);
	free(raw);
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
	free(m);
}
