/* evmap.c: cachesim's event map (MTV's cache view): time across, the
 * first level's sets up, each cell coloured by the worst that happened
 * there: a hit at a level, memory, a miss's 3C kind, and darker when it
 * evicted a block.  A fixed raster: when time outgrows it, neighbouring
 * columns merge, so memory stays constant however long the trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"

#define EVICT 0x80

struct rt_evmap {
	unsigned char *cell;	/* cols x rows, row 0 the lowest sets */
	uint32_t cols, rows;
	double W, H;
	struct rt_plot p;
	uint64_t nsets, per, n;	/* accesses a column, accesses so far */
	int nlevels, threec;
	uint64_t *cnt;		/* with detail: per cell its events by kind (NCNT) */
	uint64_t *first;	/* with detail: per column the access it starts at */
	uint64_t access;	/* the caller's access now (rt_evmap_at) */
};

/* A cell's counts: served at each level and memory, each 3C kind, evicted */
#define NCNT(m) ((m)->nlevels + 1 + 3 + 1)

/* Categories: L1 hit .. memory, then compulsory, capacity, conflict;
 * their key: its names and colours, then the evictions'. */
static void
catcolour(int k, int nlevels, unsigned char rgb[3])
{
	static const unsigned char hit[][3] = {
		{ 171, 217, 233 }, { 116, 196, 118 }, { 254, 224, 139 }, { 253, 174, 97 },
		{ 244, 165, 130 }, { 230, 145, 110 }, { 210, 130, 100 }, { 190, 120, 95 },
	}, mem[3] = { 215, 48, 39 }, three[][3] = {
		{ 117, 107, 177 }, { 241, 105, 19 }, { 231, 41, 138 },
	};

	if (k < nlevels)
		memcpy(rgb, hit[k], 3);
	else if (k == nlevels)
		memcpy(rgb, mem, 3);
	else
		memcpy(rgb, three[k - nlevels - 1], 3);
}

static void
darker(unsigned char rgb[3])
{
	int c;

	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(rgb[c] * 5 / 9);
}

/* Every colour a map can hold: the categories, those that evicted a block
 * (darker; an L1 hit evicts nothing), and white where nothing happened. */
#define NKEY (2 * (RT_EVMAX + 4) + 1)
struct key {
	char name[NKEY][48];
	const char *np[NKEY];
	unsigned char rgb[NKEY][3];
	int n, ncat;
};

static void
key(struct key *k, int nlevels, int threec)
{
	static const char *kinds[] = { "L1 miss, compulsory", "L1 miss, capacity",
	    "L1 miss, conflict" };
	int c;

	k->ncat = nlevels + 1 + (threec ? 3 : 0);
	for (c = 0; c < k->ncat; c++) {
		if (c == 0)
			snprintf(k->name[c], sizeof k->name[c], "L1 hit");
		else if (c < nlevels)
			snprintf(k->name[c], sizeof k->name[c], "L%d", c + 1);
		else if (c == nlevels)
			snprintf(k->name[c], sizeof k->name[c], "memory");
		else
			snprintf(k->name[c], sizeof k->name[c], "%s", kinds[c - nlevels - 1]);
		catcolour(c, nlevels, k->rgb[c]);
	}
	for (c = 1; c < k->ncat; c++) {	/* index ncat + c - 1 */
		snprintf(k->name[k->ncat + c - 1], sizeof k->name[0], "%s, evicted", k->name[c]);
		memcpy(k->rgb[k->ncat + c - 1], k->rgb[c], 3);
		darker(k->rgb[k->ncat + c - 1]);
	}
	c = 2 * k->ncat - 1;
	snprintf(k->name[c], sizeof k->name[c], "no access");
	memset(k->rgb[c], 255, 3);
	k->n = c + 1;
	for (c = 0; c < k->n; c++)
		k->np[c] = k->name[c];
}

/* The key's entry of a cell's value, or -1 for none */
static int
keyof(const struct key *k, unsigned char v)
{
	int c = (v & ~EVICT) - 1;

	if (c < 0)
		return 2 * k->ncat - 1;
	return v & EVICT && c > 0 ? k->ncat + c - 1 : c;
}

/* The raster has a column per pixel of the plot area of a W x H
 * picture, and a row per set or per pixel, whichever is fewer. */
struct rt_evmap *
rt_evmap_new(double W, double H, uint64_t nsets, int nlevels, int threec)
{
	struct rt_evmap *m = calloc(1, sizeof *m);
	struct key k;

	if (m == NULL || nsets == 0 || nlevels < 1 || nlevels > RT_EVMAX) {
		free(m);
		return NULL;
	}
	key(&k, nlevels, threec);
	rt_plot_layout(&m->p, W, H, rt_legend_width("served by", k.np, (size_t)k.n), 1);
	m->W = W, m->H = H;
	m->cols = (uint32_t)m->p.w;
	m->rows = nsets < (uint64_t)m->p.h ? (uint32_t)nsets : (uint32_t)m->p.h;
	if ((m->cell = calloc((size_t)m->cols * m->rows, 1)) == NULL) {
		free(m);
		return NULL;
	}
	m->nsets = nsets;
	m->per = 1;
	m->nlevels = nlevels;
	m->threec = threec;
	return m;
}

/* The detail's two columns become one, as the cells' */
static void
merge(struct rt_evmap *m)
{
	size_t K = (size_t)NCNT(m), r, c, k;
	uint64_t *p;

	for (r = 0; r < m->rows; r++) {
		p = m->cnt + r * m->cols * K;
		for (c = 0; c < m->cols / 2; c++)
			for (k = 0; k < K; k++)
				p[c * K + k] = p[2 * c * K + k] + p[(2 * c + 1) * K + k];
		memset(p + m->cols / 2 * K, 0, (m->cols - m->cols / 2) * K * sizeof *p);
	}
	for (c = 0; c < m->cols / 2; c++)
		m->first[c] = m->first[2 * c];
}

static unsigned char
worse(unsigned char a, unsigned char b)
{
	return (unsigned char)(((a & ~EVICT) > (b & ~EVICT) ? a & ~EVICT : b & ~EVICT) |
	    ((a | b) & EVICT));
}

/* An access to set, served at level (nlevels: memory), a miss of 3C kind
 * (0: none or not classified), that evicted a block or not. */
void
rt_evmap_add(struct rt_evmap *m, uint64_t set, int level, int kind, int evicted)
{
	uint64_t col, row;
	uint32_t c, r;
	unsigned char v, *p;

	if (m->n / m->per >= m->cols) {	/* two columns become one */
		for (r = 0; r < m->rows; r++) {
			p = m->cell + (size_t)r * m->cols;
			for (c = 0; c < m->cols / 2; c++)
				p[c] = worse(p[2 * c], p[2 * c + 1]);
			memset(p + m->cols / 2, 0, m->cols - m->cols / 2);
		}
		if (m->cnt != NULL)
			merge(m);
		m->per *= 2;
	}
	if (m->first != NULL && m->n % m->per == 0)
		m->first[m->n / m->per] = m->access;
	col = m->n++ / m->per;
	row = set % m->nsets * m->rows / m->nsets;
	v = (unsigned char)(kind > 0 && m->threec ? m->nlevels + 1 + kind : level + 1);
	if (evicted)
		v |= EVICT;
	p = m->cell + (size_t)row * m->cols + col;
	*p = worse(*p, v);
	if (m->cnt != NULL) {
		uint64_t *q = m->cnt + ((size_t)row * m->cols + col) * NCNT(m);

		q[level]++;
		if (kind > 0 && kind <= 3)
			q[m->nlevels + kind]++;
		if (evicted)
			q[m->nlevels + 4]++;
	}
}

int
rt_evmap_write(const struct rt_evmap *m, FILE *f, int svg, const char *title)
{
	char sub[300];
	const char *subp[1] = { sub }, *np[NKEY];
	unsigned char pal[3 * 256], *img, rgb[NKEY][3], used_[NKEY] = { 0 };
	uint32_t used = (uint32_t)((m->n + m->per - 1) / m->per), x, y;
	struct rt_axis ax, ay;
	struct rt_fig *fig;
	struct key k;
	size_t nk = 0;
	int c, e;

	key(&k, m->nlevels, m->threec);
	if (used == 0)
		used = 1;
	memset(pal, 255, 3);		/* 0: nothing happened there */
	for (c = 0; c < k.ncat; c++) {
		memcpy(pal + 3 * (c + 1), k.rgb[c], 3);
		memcpy(pal + 3 * (c + 1 + k.ncat), k.rgb[c], 3);
		darker(pal + 3 * (c + 1 + k.ncat));
	}
	if ((img = malloc((size_t)used * m->rows)) == NULL)
		return RT_ENOMEM;
	for (y = 0; y < m->rows; y++)		/* the highest set on top */
		for (x = 0; x < used; x++) {
			unsigned char v = m->cell[(size_t)(m->rows - 1 - y) * m->cols + x];

			used_[keyof(&k, v)] = 1;
			img[(size_t)y * used + x] = (unsigned char)(v & EVICT ?
			    (v & ~EVICT) + k.ncat : v);
		}
	for (c = 0; c < k.n; c++)	/* the key: the colours the map holds */
		if (used_[c]) {
			np[nk] = k.np[c];
			memcpy(rgb[nk++], k.rgb[c], 3);
		}
	if ((fig = rt_fig_new(m->W, m->H)) == NULL) {
		free(img);
		return RT_ENOMEM;
	}
	snprintf(sub, sizeof sub, "%llu accesses (first-level blocks), %llu a column; "
	    "a cell shows the worst in it", (unsigned long long)m->n, (unsigned long long)m->per);
	rt_plot_title(fig, m->W, title ? title : "cache events: where each access was served",
	    subp, 1);
	/* the columns used fill the plot: time ends where the trace does */
	rt_fig_image(fig, m->p.x, m->p.y, used, m->rows, m->p.w, m->p.h, img, pal, 1 + 2 * k.ncat);
	ax = (struct rt_axis){ 0, (double)used * (double)m->per, RT_AX_NUM, "time (accesses)" };
	/* a set's band from k - 0.5 to k + 0.5: its label at its middle */
	ay = (struct rt_axis){ -0.5, (double)m->nsets - 0.5, RT_AX_INT, "L1 set" };
	rt_plot_axes(fig, &m->p, &ax, &ay);
	rt_legend(fig, m->p.keyx, m->p.y, m->p.h, "served by", np, (const unsigned char (*)[3])rgb,
	    nk);
	/* where the cells are, for whoever reads the picture back */
	snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "; plot %.0f %.0f %.0f %.0f; columns %u",
	    m->p.x, m->p.y, m->p.w, m->p.h, used);
	e = svg ? rt_fig_svg(fig, f, NULL, sub) : rt_fig_png(fig, f);
	rt_fig_free(fig);
	free(img);
	return e;
}

double
rt_evmap_height(double W)
{
	return W < 334 ? 200 : (double)((uint64_t)W * 3 / 5);
}

int
rt_evmap_detail(struct rt_evmap *m)
{
	if ((m->cnt = calloc((size_t)m->cols * m->rows * NCNT(m), sizeof *m->cnt)) == NULL ||
	    (m->first = calloc(m->cols + 1, sizeof *m->first)) == NULL)
		return RT_ENOMEM;
	return 0;
}

void
rt_evmap_at(struct rt_evmap *m, uint64_t access)
{
	m->access = access;
}

uint64_t
rt_evmap_row(const struct rt_evmap *m, uint64_t set)
{
	return set % m->nsets * m->rows / m->nsets;
}

/* The page's cache view: its geometry, key and palette as a JSON
 * object's members; its cells (a byte each, rows from the lowest, the
 * columns used), then with detail each cell's counts and each column's
 * first access, as varints, packed at *buf. */
int
rt_evmap_page(const struct rt_evmap *m, FILE *f, unsigned char **buf, size_t *len)
{
	uint32_t used = (uint32_t)((m->n + m->per - 1) / m->per), x, y;
	size_t K = m->cnt ? (size_t)NCNT(m) : 0, k;
	unsigned char *p;
	struct key kk;
	int c;

	key(&kk, m->nlevels, m->threec);
	fprintf(f, "\"w\":%g,\"h\":%g,\"plot\":[%g,%g,%g,%g],\"keyx\":%g,\"cols\":%u,"
	    "\"rows\":%u,\"per\":%llu,\"n\":%llu,\"nsets\":%llu,\"nlev\":%d,\"threec\":%d,"
	    "\"ncat\":%d,\"key\":[", m->W, m->H, m->p.x, m->p.y, m->p.w, m->p.h, m->p.keyx, used,
	    m->rows, (unsigned long long)m->per, (unsigned long long)m->n,
	    (unsigned long long)m->nsets, m->nlevels, m->threec, kk.ncat);
	for (c = 0; c < kk.n; c++) {
		fprintf(f, "%s[", c ? "," : "");
		rt_json_str(f, kk.name[c]);
		fprintf(f, ",%d,%d,%d]", kk.rgb[c][0], kk.rgb[c][1], kk.rgb[c][2]);
	}
	fputc(']', f);
	/* 10 bytes a varint at most */
	if ((*buf = p = malloc((size_t)used * m->rows * (1 + 10 * K) + 10 * ((size_t)used + 1))) == NULL)
		return RT_ENOMEM;
	for (y = 0; y < m->rows; y++)
		for (x = 0; x < used; x++)
			*p++ = (unsigned char)keyof(&kk, m->cell[(size_t)y * m->cols + x]);
	for (y = 0; K && y < m->rows; y++)
		for (x = 0; x < used; x++)
			for (k = 0; k < K; k++)
				p = rt_varint(p, m->cnt[((size_t)y * m->cols + x) * K + k]);
	for (x = 0; K && x < used; x++)
		p = rt_varint(p, m->first[x]);
	*len = (size_t)(p - *buf);
	return 0;
}

void
rt_evmap_free(struct rt_evmap *m)
{
	if (m == NULL)
		return;
	free(m->cnt);
	free(m->first);
	free(m->cell);
	free(m);
}
