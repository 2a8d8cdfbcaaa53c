/* cgfile.c: counts by source location written as cachegrind writes
 * them: its output file (read by cg_annotate, cg_diff, cg_merge,
 * KCachegrind), for cachegrind's model or any hierarchy; a table of
 * cachegrind's counts by line or function; its summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "cache.h"
#include "hier.h"

#define NEV 9
static const char *events = "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw";

struct row {
	double sk;		/* the column sorted on */
	uint64_t key;
	const char *file, *func, *label;
	uint32_t line;
	const uint64_t *v;
};

static const uint64_t *
counts(const struct rt_tally *t, uint64_t k)
{
	return rt_tally_get(t, k);
}

static int
used(const uint64_t *v, int nev)
{
	int i;

	for (i = 0; i < nev; i++)
		if (v[i])
			return 1;
	return 0;
}

static int
byplace(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->file, y->file)) != 0 || (c = strcmp(x->func, y->func)) != 0)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

/* The rows in use, one per location, named as cachegrind names them. */
static struct row *
rows(const struct rt_tally *t, int nev, size_t *n)
{
	const struct rt_loc *l;
	struct row *r;
	uint64_t k;

	if ((r = calloc(rt_tally_keys(t) + 1, sizeof *r)) == NULL)
		return NULL;
	for (*n = 0, k = 0; k < rt_tally_keys(t); k++) {
		if (!used(counts(t, k), nev))
			continue;
		l = rt_loc_get((uint32_t)k);
		r[*n].key = k;
		r[*n].file = l->file && *rt_str(l->file) ? rt_str(l->file) : "???";
		r[*n].func = l->func ? rt_str(l->func) : "???";
		r[*n].line = l->file ? l->line : 0;
		r[*n].v = counts(t, k);
		(*n)++;
	}
	return r;
}

static void
putv(FILE *f, const uint64_t *v, int nev)
{
	int i;

	for (i = 0; i < nev; i++)
		fprintf(f, " %llu", (unsigned long long)v[i]);
	fputc('\n', f);
}

void
rt_cg_desc(char *buf, size_t len, const char *name, const struct rt_cache_cfg *c)
{
	uint64_t ways = c->assoc ? c->assoc : c->size / c->block;

	if (ways == 1)
		snprintf(buf, len, "%s cache:         %llu B, %u B, direct-mapped", name,
		    (unsigned long long)c->size, c->block);
	else
		snprintf(buf, len, "%s cache:         %llu B, %u B, %llu-way associative", name,
		    (unsigned long long)c->size, c->block, (unsigned long long)ways);
}

int
rt_cgfile_write(FILE *f, const struct rt_tally *t, int nev, const char *evnames,
    const char *const *desc, int ndesc, char *const *files, int nfiles)
{
	const char *fl = NULL, *fn = NULL;
	uint64_t *sum;
	struct row *r;
	size_t n, i;
	int k;

	if (evnames == NULL)
		evnames = events;
	if ((sum = calloc((size_t)nev, sizeof *sum)) == NULL)
		return RT_ENOMEM;
	if ((r = rows(t, nev, &n)) == NULL) {
		free(sum);
		return RT_ENOMEM;
	}
	qsort(r, n, sizeof *r, byplace);
	for (k = 0; k < ndesc; k++)
		fprintf(f, "desc: %s\n", desc[k]);
	fputs("cmd:", f);	/* the traces read, - for standard input */
	for (k = 0; k < nfiles || (k == 0 && nfiles == 0); k++)
		fprintf(f, " %s", nfiles ? files[k] : "-");
	fprintf(f, "\nevents: %s \n", evnames);	/* cachegrind's space */
	for (i = 0; i < n; i++) {
		if (fl == NULL || strcmp(fl, r[i].file) != 0) {
			fprintf(f, "fl=%s\n", r[i].file);
			fn = NULL;
		}
		if (fn == NULL || strcmp(fn, r[i].func) != 0)
			fprintf(f, "fn=%s\n", r[i].func);
		fl = r[i].file;
		fn = r[i].func;
		fprintf(f, "%u", r[i].line);
		putv(f, r[i].v, nev);
		for (k = 0; k < nev; k++)
			sum[k] += r[i].v[k];
	}
	fprintf(f, "summary:");
	putv(f, sum, nev);
	free(r);
	free(sum);
	return ferror(f) ? RT_EIO : 0;
}

static double
ratio(uint64_t m, uint64_t a)
{
	return a ? (double)m / (double)a : 0;
}

static uint64_t
first(const uint64_t *v)
{
	return v[1] + v[4] + v[7];	/* I1mr + D1mr + D1mw */
}

static int
bymisses(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	uint64_t p = first(x->v), q = first(y->v);

	if (x->sk != y->sk)
		return x->sk < y->sk ? 1 : -1;
	if (p != q)
		return p < q ? 1 : -1;
	if (x->v[0] + x->v[3] + x->v[6] != y->v[0] + y->v[3] + y->v[6])
		return x->v[0] + x->v[3] + x->v[6] < y->v[0] + y->v[3] + y->v[6] ? 1 : -1;
	return strcmp(x->label, y->label);
}

static double
cgratio(const uint64_t *v, int col, uint64_t all)
{
	switch (col) {
	case 9: return ratio(v[1], v[0]);
	case 10: return ratio(v[4] + v[7], v[3] + v[6]);
	case 11: return ratio(v[2] + v[5] + v[8], v[0] + v[3] + v[6]);
	case 12: return ratio(first(v), all);
	default: return (double)v[col];
	}
}

int
rt_cgby_write(FILE *f, int key, const struct rt_tally *t, int col)
{
	struct row *r, *g;
	uint64_t *sums, all = 0;
	size_t n, ng = 0, i, j, rl;
	char buf[4096], root[4096];
	int k;

	if ((r = rows(t, NEV, &n)) == NULL)
		return RT_ENOMEM;
	/* a row per key: per location, or the locations of a function summed */
	g = calloc(n + 1, sizeof *g);
	sums = calloc((n + 1) * NEV, sizeof *sums);
	if (g == NULL || sums == NULL) {
		free(r);
		free(g);
		free(sums);
		return RT_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const char *lab = key == RT_KEY_FUNC ? r[i].func :
		    (r[i].label = strdup(rt_key_label(RT_KEY_LOC, r[i].key, buf, sizeof buf)));

		if (lab == NULL)
			lab = "-";
		for (j = 0; j < ng && strcmp(g[j].label, lab) != 0; j++)
			;
		if (j == ng) {
			g[ng].label = lab;
			g[ng].v = sums + ng * NEV;
			ng++;
		}
		for (k = 0; k < NEV; k++)
			sums[j * NEV + k] += r[i].v[k];
		all += first(r[i].v);
	}
	for (i = 0; col >= 0 && i < ng; i++)
		g[i].sk = cgratio(g[i].v, col, all);
	qsort(g, ng, sizeof *g, bymisses);
	rl = rt_tally_root(key, t, sizeof(struct rt_cgstats), root, sizeof root);
	fprintf(f, "#reftrace %s%s 1 %s %s I1_ratio D1_ratio LL_ratio share\n",
	    rt_stream_name(RT_STREAM_CACHE_BY), rt_key_name(key), rt_key_name(key), events);
	if (rl)
		fprintf(f, "#root %s\n", root);
	for (i = 0; i < ng; i++) {
		const uint64_t *v = g[i].v;

		fputs(strcmp(g[i].label, "???") == 0 ? "-" : rl && strncmp(g[i].label, root, rl) ==
		    0 ? g[i].label + rl : g[i].label, f);
		for (k = 0; k < NEV; k++)
			fprintf(f, " %llu", (unsigned long long)v[k]);
		fprintf(f, " %.6f %.6f %.6f %.6f\n", ratio(v[1], v[0]), ratio(v[4] + v[7], v[3] + v[6]),
		    ratio(v[2] + v[5] + v[8], v[0] + v[3] + v[6]), ratio(first(v), all));
	}
	for (i = 0; i < n; i++)
		free((char *)r[i].label);
	free(r);
	free(g);
	free(sums);
	return ferror(f) ? RT_EIO : 0;
}

/* valgrind's ULong_width and percentify: digits with commas; a ratio
 * truncated to d decimals, right-aligned in w */
static int
width(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n + (n - 1) / 3;
}

static char *
commas(uint64_t v, int w, char *buf)
{
	char d[32], o[48];
	int n, i, j = 0;

	n = snprintf(d, sizeof d, "%llu", (unsigned long long)v);
	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			o[j++] = ',';
		o[j++] = d[i];
	}
	o[j] = '\0';
	sprintf(buf, "%*s", w, o);
	return buf;
}

static char *
pct(uint64_t n, uint64_t m, int d, int w, char *buf)
{
	char s[48];
	uint64_t ex = d == 1 ? 10 : 100;

	if (m == 0)
		m = 1;
	snprintf(s, sizeof s, "%llu.%0*llu%%", (unsigned long long)(100 * n / m), d,
	    (unsigned long long)(100 * n * ex / m % ex));
	sprintf(buf, "%*s", w, s);
	return buf;
}

int
rt_cgsum_write(FILE *f, const struct rt_cgstats *s)
{
	uint64_t d = s->dr + s->dw, ir = s->ir;
	int l1 = width(s->ir), l2 = width(s->dr), l3 = width(s->dw);
	char a[48], b[48], c[48];

#define ROW(lab, x, y, z) fprintf(f, "%s %s  (%s rd   + %s wr)\n", lab, commas(x, l1, a), \
	commas(y, l2, b), commas(z, l3, c))
	fprintf(f, "I   refs:      %s\n", commas(s->ir, l1, a));
	fprintf(f, "I1  misses:    %s\n", commas(s->i1mr, l1, a));
	fprintf(f, "LLi misses:    %s\n", commas(s->ilmr, l1, a));
	fprintf(f, "I1  miss rate: %s\n", pct(s->i1mr, ir, 2, l1 + 1, a));
	fprintf(f, "LLi miss rate: %s\n\n", pct(s->ilmr, ir, 2, l1 + 1, a));
	ROW("D   refs:     ", d, s->dr, s->dw);
	ROW("D1  misses:   ", s->d1mr + s->d1mw, s->d1mr, s->d1mw);
	ROW("LLd misses:   ", s->dlmr + s->dlmw, s->dlmr, s->dlmw);
	fprintf(f, "D1  miss rate: %s (%s     + %s  )\n", pct(s->d1mr + s->d1mw, d, 1, l1 + 1, a),
	    pct(s->d1mr, s->dr, 1, l2 + 1, b), pct(s->d1mw, s->dw, 1, l3 + 1, c));
	fprintf(f, "LLd miss rate: %s (%s     + %s  )\n\n", pct(s->dlmr + s->dlmw, d, 1, l1 + 1, a),
	    pct(s->dlmr, s->dr, 1, l2 + 1, b), pct(s->dlmw, s->dw, 1, l3 + 1, c));
	ROW("LL refs:      ", s->d1mr + s->d1mw + s->i1mr, s->d1mr + s->i1mr, s->d1mw);
	ROW("LL misses:    ", s->dlmr + s->dlmw + s->ilmr, s->dlmr + s->ilmr, s->dlmw);
	fprintf(f, "LL miss rate:  %s (%s     + %s  )\n",
	    pct(s->dlmr + s->dlmw + s->ilmr, ir + d, 1, l1 + 1, a),
	    pct(s->dlmr + s->ilmr, ir + s->dr, 1, l2 + 1, b), pct(s->dlmw, s->dw, 1, l3 + 1, c));
#undef ROW
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cgfile_lru(FILE *f, const struct rt_tally *t, const uint64_t *sizes, int nsizes,
    uint64_t block, char *const *files, int nfiles)
{
	char desc[RT_MAXLEVEL][96], ev[1024];
	const char *d[RT_MAXLEVEL];
	size_t m = 0;
	int j, k;

	if (nsizes > RT_MAXLEVEL)
		return RT_EUSAGE;
	for (j = 0; j < nsizes; j++) {
		snprintf(desc[j], sizeof desc[j], "LRU%d cache:       %llu B, %llu B, fully "
		    "associative", j + 1, (unsigned long long)sizes[j], (unsigned long long)block);
		d[j] = desc[j];
	}
	/* Ir I1mr .. Dr D1mr .. Dw D1mw ..: per kind, accesses then each size's misses */
	for (k = 0; k < 3; k++)
		for (j = 0; j <= nsizes && m < sizeof ev; j++)
			m += (size_t)(j ? snprintf(ev + m, sizeof ev - m, " %c%dm%c", "IDD"[k], j,
			    "rrw"[k]) : snprintf(ev + m, sizeof ev - m, "%s%c%c", k ? " " : "",
			    "IDD"[k], "rrw"[k]));
	return rt_cgfile_write(f, t, 3 * (nsizes + 1), ev, d, nsizes, files, nfiles);
}
