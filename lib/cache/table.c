/* table.c: the tables cachesim writes: the cache table (and its reader,
 * for merging), the summary for people, the ensemble and by-key tables,
 * cachegrind's summary line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/* The cache table's columns, after "#reftrace cache 1 ". */
static const char cols[] = "level size assoc block policy accesses reads writes fetches"
    " misses read_misses write_misses fetch_misses miss_ratio evictions writebacks"
    " invalidations bytes_in bytes_out";
static const char cols3c[] = " compulsory capacity conflict";
static const char colscoh[] = " coherence downgrades";	/* with cores */
static const char colspf[] = " pf_issued pf_useless pf_useful pf_unused nopf_misses";
static const char *const inclnames[] = { "nine", "inclusive", "exclusive" };	/* RT_NINE ... */
const char rt_cachetab_pfwhy[] = "a prefetching run's table: a prefetch reaches blocks of "
    "other partitions (the next block's set is another's), so the partitions' counts are "
    "not the whole's";

static double
total(const uint64_t v[3])
{
	return (double)v[0] + (double)v[1] + (double)v[2];
}

static double
ratio(const struct rt_cache_stats *s)
{
	return total(s->acc) ? total(s->miss) / total(s->acc) : 0;
}

/* The rows of h's levels named prefix1, prefix2 ... (split: prefix1I,
 * prefix1D), then but for a TLB's memory's. */
static void
rows(struct rt_cache_table *t, const struct rt_hier *h, const char *prefix, int tlb)
{
	const struct rt_cache_cfg *c;
	const struct rt_cache_stats *s;
	struct rt_cache_row *r;
	char name[16];
	int k, n = rt_hier_levels(h), hasi, core;

	rt_hier_stats(h, -1, &c);
	hasi = c != NULL;
	for (k = hasi ? -1 : 0; k <= n - tlb; k++) {
		r = &t->row[t->n++];
		s = rt_hier_stats(h, k, &c);
		if (k == n)
			snprintf(r->name, sizeof r->name, "mem");
		else
			snprintf(r->name, sizeof r->name, "%s%c%s", prefix, '1' + (k < 0 ? 0 : k),
			    k < 0 ? "I" : hasi && k == 0 ? "D" : "");
		if ((r->hascfg = c != NULL))
			r->cfg = *c;
		r->tlb = tlb;
		r->pf = !tlb && rt_hier_pfat(h, k);
		r->s = *s;
		/* a private level's sum, then each core's row: L1.0, L1.1 ... */
		for (core = 0; k < rt_hier_private(h) && core < rt_hier_ncores(h); core++) {
			t->row[t->n] = *r;
			snprintf(name, sizeof name, "%s.%d", r->name, core % RT_MAXCORES);
			memcpy(t->row[t->n].name, name, sizeof r->name);
			t->row[t->n].core = core + 1;
			t->row[t->n++].s = *rt_hier_corestats(h, core, k, &c);
		}
	}
}

void
rt_cachetab_of(struct rt_cache_table *t, const struct rt_hier *h, const double *lat,
    int threec)
{
	memset(t, 0, sizeof *t);
	rows(t, h, "L", 0);
	t->threec = threec;
	t->cores = rt_hier_ncores(h);
	t->pf = rt_hier_prefetching(h);
	t->amat = rt_hier_amat(h, lat);
}

void
rt_cachetab_tlb(struct rt_cache_table *t, const struct rt_hier *tlb)
{
	rows(t, tlb, "TLB", 1);
}

/* A level's prefetch columns, pf as row's; at: the level prefetches */
static void
pfcols(FILE *f, const struct rt_cache_stats *s, int pf, int at)
{
	fprintf(f, " %llu %llu %llu %llu", (unsigned long long)s->pf_issued,
	    (unsigned long long)s->pf_useless, (unsigned long long)s->pf_useful,
	    (unsigned long long)s->pf_unused);
	if ((pf & 3) == 1 && at)
		fprintf(f, " %llu", (unsigned long long)s->nopf_misses);
	else
		fputs(" -", f);
	if (pf & 4)
		fprintf(f, " %llu", (unsigned long long)s->pf_aborted);
}

/* pf: the prefetch columns (rt_hier_prefetching); & 2, nopf_misses
 * unknown (and at a level that does not prefetch, r->pf 0): the twin of a level (lib/cache/hier.c, nopf) sees neither an
 * inclusive level's back-invalidations nor what an exclusive one hands
 * down; & 4, pf_aborted. */
static void
row(FILE *f, const struct rt_cache_row *r, int threec, int cores, int pf)
{
	const struct rt_cache_cfg *c = &r->cfg;
	const struct rt_cache_stats *s = &r->s;

	if (r->hascfg)
		fprintf(f, "%s %llu %u %u %s%s%s", r->name, (unsigned long long)c->size,
		    c->assoc, c->block, rt_policy_name(c->policy), c->wt ? ",wt" : "",
		    c->nwa ? ",nwa" : "");
	else
		fprintf(f, "%s - - - -", r->name);
	fprintf(f, " %.0f %llu %llu %llu", total(s->acc), (unsigned long long)s->acc[0],
	    (unsigned long long)s->acc[1], (unsigned long long)s->acc[2]);
	if (!r->hascfg) {	/* memory: every access is served */
		fprintf(f, " - - - - - - - - - -%s%s%s\n", threec ? " - - -" : "", cores ? " - -" : "",
		    pf & 4 ? " - - - - - -" : pf ? " - - - - -" : "");
		return;
	}
	fprintf(f, " %.0f %llu %llu %llu %.6f %llu %llu %llu %llu %llu", total(s->miss),
	    (unsigned long long)s->miss[0], (unsigned long long)s->miss[1],
	    (unsigned long long)s->miss[2], ratio(s),
	    (unsigned long long)s->evictions, (unsigned long long)s->writebacks,
	    (unsigned long long)s->invalidations, (unsigned long long)s->bytes_up,
	    (unsigned long long)s->bytes_down);
	if (threec == 2)	/* a merge's: compulsory alone is known */
		fprintf(f, " %llu - -", (unsigned long long)s->compulsory);
	else if (threec)
		fprintf(f, " %llu %llu %llu", (unsigned long long)s->compulsory,
		    (unsigned long long)s->capacity, (unsigned long long)s->conflict);
	if (cores)
		fprintf(f, " %llu %llu", (unsigned long long)s->coherence,
		    (unsigned long long)s->downgrades);
	if (pf)
		pfcols(f, s, pf, r->pf);
	fputc('\n', f);
}

int
rt_cachetab_write(FILE *f, const struct rt_cache_table *t)
{
	char magic[64], ps[96];
	int k;

	fprintf(f, "%s %s%s%s%s%s\n", rt_stream_magic(RT_STREAM_CACHE, magic, sizeof magic), cols,
	    t->threec ? cols3c : "", t->cores ? colscoh : "", t->pf ? colspf : "",
	    t->pf & 4 ? " pf_aborted" : "");
	if (t->part.n) {
		fprintf(f, "#partition %s %s ", rt_part_str(ps, sizeof ps, &t->part),
		    inclnames[t->incl]);
		for (k = 0; k < t->nlat; k++)
			fprintf(f, "%s%.17g", k ? "," : "", t->lat[k]);
		fputc('\n', f);
		if (*t->config)
			fprintf(f, "#config %s\n", t->config);
	}
	for (k = 0; k < t->n; k++)
		row(f, &t->row[k], t->threec, t->cores, t->pf);
	fprintf(f, "#amat %.4f\n", t->amat);
	return ferror(f) ? RT_EIO : 0;
}

/* The table for people: a line a level, aligned. */
static int
rt_cachetab_summary(FILE *f, const struct rt_cache_table *t)
{
	const struct rt_cache_row *r;
	const struct rt_cache_stats *s;
	int k;

	for (k = 0; k < t->n; k++) {
		r = &t->row[k];
		s = &r->s;
		if (!r->hascfg) {
			fprintf(f, "%-7s %12.0f accesses\n", "memory", total(s->acc));
			continue;
		}
		fprintf(f, "%-7s %12.0f accesses %12.0f misses  miss ratio %.4f  "
		    "(%llu writebacks)\n", r->name, total(s->acc), total(s->miss), ratio(s),
		    (unsigned long long)s->writebacks);
		if (t->threec == 2)
			fprintf(f, "%-7s %12llu compulsory\n", "", (unsigned long long)s->compulsory);
		else if (t->threec)
			fprintf(f, "%-7s %12llu compulsory %10llu capacity %10llu conflict\n", "",
			    (unsigned long long)s->compulsory, (unsigned long long)s->capacity,
			    (unsigned long long)s->conflict);
		if (t->cores)
			fprintf(f, "%-7s %12llu coherence %9llu downgrades\n", "",
			    (unsigned long long)s->coherence, (unsigned long long)s->downgrades);
	}
	fprintf(f, "average access time %.2f cycles\n", t->amat);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cachetab_put(FILE *f, const struct rt_cache_table *t, int summary)
{
	return summary ? rt_cachetab_summary(f, t) : rt_cachetab_write(f, t);
}

/* Fields of a row: the numbers, "-" where memory has none. */
static int
num(const char *s, uint64_t *v)
{
	if (strcmp(s, "-") == 0) {
		*v = 0;
		return 0;
	}
	return rt_parse_u64(s, v);
}

/* A row of nf fields, with the three columns of -3 or without, and the
 * two of cores or without. */
static int
readrow(struct rt_cache_row *r, char **f, int nf, int cols3, int coh)
{
	uint64_t *v[] = { &r->s.acc[0], &r->s.acc[1], &r->s.acc[2], NULL, &r->s.miss[0],
		&r->s.miss[1], &r->s.miss[2], NULL, &r->s.evictions, &r->s.writebacks,
		&r->s.invalidations, &r->s.bytes_up, &r->s.bytes_down, &r->s.compulsory,
		&r->s.capacity, &r->s.conflict, &r->s.coherence, &r->s.downgrades };
	int ext = 3 * cols3 + 2 * coh;
	uint64_t x, a;
	char *p, *save = NULL;
	int i;

	/* the memory row of tables before 0.2 had a dash more than the header */
	if (nf < 2 || (nf != 19 + ext && nf != 20 + ext + (strcmp(f[1], "-") != 0) * 99) ||
	    strlen(f[0]) >= sizeof r->name)
		return -1;
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", f[0]);
	/* memory misses nothing: its figures past the accesses are dashes */
	for (i = 9; strcmp(f[1], "-") == 0 && i < nf; i++)
		if (strcmp(f[i], "-") != 0)
			return -1;
	if ((r->hascfg = strcmp(f[1], "-") != 0)) {
		if (rt_parse_u64(f[1], &r->cfg.size) || num(f[2], &x) || (r->cfg.assoc = (uint32_t)x) != x ||
		    num(f[3], &x) || (r->cfg.block = (uint32_t)x) != x)
			return -1;
		for (p = strtok_r(f[4], ",", &save), i = 0; p; p = strtok_r(NULL, ",", &save), i++)
			if (i == 0 && (r->cfg.policy = rt_policy_parse(p)) < 0)
				return -1;
			else if (i > 0 && strcmp(p, "wt") == 0)
				r->cfg.wt = 1;
			else if (i > 0 && strcmp(p, "nwa") == 0)
				r->cfg.nwa = 1;
			else if (i > 0)
				return -1;
	}
	for (i = 0; i < 13 + ext; i++)	/* -3's columns, then the cores' */
		if (v[i + (i >= 13 && !cols3) * 3] != NULL &&
		    num(f[6 + i], v[i + (i >= 13 && !cols3) * 3]))
			return -1;
	/* the totals are the sums of their parts */
	if (rt_parse_u64(f[5], &a) || a != r->s.acc[0] + r->s.acc[1] + r->s.acc[2])
		return -1;
	return 0;
}

/* "k/n:bytes [fp=HEX] inclusion lat,...,lat", as rt_cachetab_write has
 * it (a table written before fingerprints has none). */
static int
readpart(struct rt_cache_table *t, char *s)
{
	char *f[5], *p, *save = NULL, ps[96];
	int nf;

	for (nf = 0, p = strtok_r(s, " \t", &save); p && nf < 5; p = strtok_r(NULL, " \t", &save))
		f[nf++] = p;
	if (nf != 3 && nf != 4)
		return -1;
	/* the fingerprint is one field of the partition */
	snprintf(ps, sizeof ps, "%s%s%s", f[0], nf == 4 ? " " : "", nf == 4 ? f[1] : "");
	if (rt_part_read(ps, &t->part) || strchr(f[0], ':') == NULL)
		return -1;
	if (nf == 4) {
		f[1] = f[2];
		f[2] = f[3];
	}
	for (t->incl = RT_NINE; t->incl <= RT_EXCLUSIVE && strcmp(f[1], inclnames[t->incl]);)
		t->incl++;
	if (t->incl > RT_EXCLUSIVE)
		return -1;
	save = NULL;
	for (t->nlat = 0, p = strtok_r(f[2], ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (t->nlat > RT_MAXLEVEL || rt_parse_double(p, &t->lat[t->nlat++]) ||
		    t->lat[t->nlat - 1] < 0)
			return -1;
	return 0;
}

/* The table's first line: its magic and columns (with -3's or not). */
static int
tabhead(struct rt_reader *r, struct rt_cache_table *t, const char *s, size_t n)
{
	char magic[64];
	size_t m = strlen(rt_stream_magic(RT_STREAM_CACHE, magic, sizeof magic));

	if (n <= m || strncmp(s, magic, m) != 0 || s[m] != ' ')
		return rt_rbad(r, "not version 1 of a cache table"), RT_EBAD;
	s += m + 1;
	if (strncmp(s, cols, strlen(cols)) != 0)
		return rt_rbad(r, "not the columns of a cache table"), RT_EBAD;
	s += strlen(cols);
	if ((t->threec = strncmp(s, cols3c, strlen(cols3c)) == 0))
		s += strlen(cols3c);
	if ((t->cores = strncmp(s, colscoh, strlen(colscoh)) == 0))
		s += strlen(colscoh);
	if (strncmp(s, colspf, strlen(colspf)) == 0)
		return rt_rbad(r, "%s", rt_cachetab_pfwhy), RT_EBAD;
	if (*s != '\0')
		return rt_rbad(r, "not the columns of a cache table"), RT_EBAD;
	return 0;
}

/* A #partition, #config or #amat line: 1 when s is one, read; else 0 or
 * RT_EBAD. */
static int
tabmeta(struct rt_reader *r, struct rt_cache_table *t, char *s, size_t n, int *amat)
{
	if (strncmp(s, "#partition ", 11) == 0) {
		if (readpart(t, s + 11))
			return rt_rbad(r, "bad partition line (want #partition k/n:bytes "
			    "[fp=HEX] inclusion latency,...)"), RT_EBAD;
		return 1;
	}
	if (strncmp(s, "#config ", 8) == 0) {
		if (n - 8 >= sizeof t->config)
			return rt_rbad(r, "a #config line over %d bytes", RT_CONFIGLEN - 1), RT_EBAD;
		memcpy(t->config, s + 8, n - 8 + 1);
		return 1;
	}
	if (strncmp(s, "#amat ", 6) == 0) {
		if (rt_parse_double(s + 6, &t->amat))
			return rt_rbad(r, "bad average access time"), RT_EBAD;
		*amat = 1;
		return 1;
	}
	return 0;
}

/* A level's row: the caches' levels, memory, then the TLBs'. */
static int
tabrow(struct rt_reader *r, struct rt_cache_table *t, char *s, int *mem, int *levels)
{
	struct rt_cache_row *row = &t->row[t->n];
	char *f[26], *save = NULL, *dot;
	int nf, dash, full = t->n == (int)(sizeof t->row / sizeof t->row[0]);

	for (nf = 0, s = strtok_r(s, " \t", &save); s && nf < 26; s = strtok_r(NULL, " \t", &save))
		f[nf++] = s;
	/* a name after blanks that starts with '#' would be read back as a
	 * comment, the row lost (found by fuzzing) */
	if (nf > 0 && f[0][0] == '#')
		return rt_rbad(r, "a level named '%s': a name may not start with '#'", f[0]),
		    RT_EBAD;
	if (full || readrow(row, f, nf, t->threec != 0, t->cores))
		return rt_rbad(r, full ? "too many levels" : "bad cache table row"), RT_EBAD;
	row->tlb = strncmp(row->name, "TLB", 3) == 0;
	if ((dot = strchr(row->name, '.')) != NULL) {	/* a core's row: L1.3 */
		if (!t->cores || !row->hascfg || dot[1] < '0' || dot[1] > '9' ||
		    strspn(dot + 1, "0123456789") != strlen(dot + 1) || strlen(dot + 1) > 2)
			return rt_rbad(r, "a core's row '%s' without coherence columns or not "
			    "LEVEL.CORE", row->name), RT_EBAD;
		row->core = atoi(dot + 1) + 1;
	}
	if (row->tlb != *mem || (*mem && !row->hascfg))
		return rt_rbad(r, "%s row %s the memory row", row->tlb ? "a TLB's" :
		    row->hascfg ? "a cache level's" : "a second memory",
		    row->tlb ? "before" : "after"), RT_EBAD;
	*mem |= !row->hascfg;
	/* a merge's table has capacity and conflict unknown in every
	 * level's row, a run's in none: its first level's row says which */
	if (t->threec && row->hascfg) {
		dash = strcmp(f[20], "-") == 0;
		if (dash != (strcmp(f[21], "-") == 0) || (*levels > 0 && dash != (t->threec == 2)))
			return rt_rbad(r, "capacity and conflict misses in some levels' rows and "
			    "not in others"), RT_EBAD;
		t->threec = dash ? 2 : 1;
	}
	*levels += row->hascfg;
	t->n++;
	return 0;
}

int
rt_cachetab_read(struct rt_reader *r, struct rt_cache_table *t, char *err, size_t errlen)
{
	char *s;
	size_t n;
	int k = 0, head = 1, levels = 0, amat = 0, mem = 0;

	memset(t, 0, sizeof *t);
	if (rt_rexpect(r, RT_STREAM_CACHE))
		k = RT_EBAD;
	while (k == 0 && (s = rt_rgetline(r, &n)) != NULL) {
		if (head)
			k = tabhead(r, t, s, n);
		else if ((k = tabmeta(r, t, s, n, &amat)) == 0 && *s != '#' && *s != '\0')
			k = tabrow(r, t, s, &mem, &levels);
		head = 0;
		k = k < 0 ? k : 0;
	}
	if (k != 0 || *rt_rerror(r)) {
		snprintf(err, errlen, "%s", rt_rerror(r));
		return RT_EBAD;
	}
	/* the memory row, then #amat, end every table: a table cut at a
	 * line boundary lacks them */
	if (t->n == 0 || !mem || !amat) {
		snprintf(err, errlen, "%s: truncated: %s", rt_rpath(r), t->n == 0 ? "no rows" :
		    !mem ? "no memory row after the levels' rows" :
		    "no #amat line after the rows");
		return RT_EBAD;
	}
	for (k = 0; t->threec == 2 && k < t->n; k++)
		t->row[k].s.capacity = t->row[k].s.conflict = 0;
	return 0;
}

/* A configuration's levels in -E's words: "32768:8:64:lru/..." */
static const char *
levelnames(const struct rt_hier *h, char *buf, size_t len)
{
	const struct rt_cache_cfg *c;
	size_t n = 0;
	int k;

	for (k = 0, *buf = '\0'; k < rt_hier_levels(h) && n < len; k++) {
		rt_hier_stats(h, k, &c);
		n += (size_t)snprintf(buf + n, len - n, "%s%llu:%u:%u:%s%s%s", k ? "/" : "",
		    (unsigned long long)c->size, c->assoc, c->block, rt_policy_name(c->policy),
		    c->wt ? ":wt" : c->nwa ? ":wb" : "", c->nwa ? ":nwa" : "");
	}
	return buf;
}

/* A row: the first level's accesses, each level's misses and ratio
 * (dashes to depth), the AMAT (a TLB's: -), with pf (the ensemble's
 * rt_hier_prefetching) each level's prefetch columns. */
static void
ensrow(FILE *f, const char *prefix, const char *name, const struct rt_hier *h, int depth,
    const double *lat, int pf)
{
	const struct rt_cache_cfg *c;
	const struct rt_cache_stats *s = rt_hier_stats(h, 0, &c);
	int k;

	fprintf(f, "%s%s %.0f", prefix, name, total(s->acc));
	for (k = 0; k < rt_hier_levels(h); k++) {
		s = rt_hier_stats(h, k, &c);
		fprintf(f, " %.0f %.6f", total(s->miss), ratio(s));
	}
	for (; k < depth; k++)
		fprintf(f, " - -");
	if (lat != NULL)
		fprintf(f, " %.4f", rt_hier_amat(h, lat));
	else
		fprintf(f, " -");
	for (k = 0; pf && k < depth; k++)
		if (k < rt_hier_levels(h))
			pfcols(f, rt_hier_stats(h, k, &c), pf, rt_hier_pfat(h, k));
		else
			fputs(pf & 4 ? " - - - - - -" : " - - - - -", f);
	fputc('\n', f);
}

int
rt_enstab_write(FILE *f, const struct rt_ens *e, const double *lat)
{
	char magic[64], name[RT_CONFIGLEN * 2];
	int i, k, nc = rt_ens_depth(e), pf = rt_hier_prefetching(rt_ens_hier(e, 0));

	for (i = 0; i < rt_ens_tlbs(e); i++)
		if (rt_hier_levels(rt_ens_tlbh(e, i)) > nc)
			nc = rt_hier_levels(rt_ens_tlbh(e, i));
	fprintf(f, "%s config accesses", rt_stream_magic(RT_STREAM_CACHE_ENSEMBLE, magic,
	    sizeof magic));
	for (k = 1; k <= RT_MAXLEVEL && k <= nc; k++)
		fprintf(f, " L%d_misses L%d_ratio", k, k);
	fprintf(f, " amat");
	for (k = 1; pf && k <= RT_MAXLEVEL && k <= nc; k++)
		if (fprintf(f, " L%d_pf_issued L%d_pf_useless L%d_pf_useful L%d_pf_unused "
		    "L%d_nopf_misses", k, k, k, k, k) > 0 && (pf & 4))
			fprintf(f, " L%d_pf_aborted", k);
	fputc('\n', f);
	for (i = 0; i < rt_ens_count(e); i++)
		ensrow(f, "", rt_ens_name(e, i) ? rt_ens_name(e, i) :
		    levelnames(rt_ens_hier(e, i), name, sizeof name), rt_ens_hier(e, i), nc, lat, pf);
	for (i = 0; i < rt_ens_tlbs(e); i++)
		ensrow(f, "tlb:", rt_ens_tlbname(e, i), rt_ens_tlbh(e, i), nc, NULL, pf);
	return ferror(f) ? RT_EIO : 0;
}

struct byrow { uint64_t key; const uint64_t *r; int folded; double sk; };

static int
bymisses(const void *a, const void *b)
{
	const struct byrow *x = a, *y = b;

	if (x->folded != y->folded)	/* the program's rows first */
		return x->folded - y->folded;
	if (x->sk != y->sk)	/* a column asked for */
		return x->sk < y->sk ? 1 : -1;
	if (x->r[1] != y->r[1])
		return x->r[1] < y->r[1] ? 1 : -1;
	if (x->r[0] != y->r[0])
		return x->r[0] < y->r[0] ? 1 : -1;
	return (x->key > y->key) - (x->key < y->key);
}

/* Rows by L1 misses, most first (sets in their order), an object's folded
 * row ([libc.so.6]) after the program's; paths relative to the directory
 * they share, named in a #root line. */
int
rt_bytab_column(const char *name, int nlevels, int cg)
{
	static const char *cgcols[] = { "Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw",
	    "DLmw", "I1_ratio", "D1_ratio", "LL_ratio", "share" };
	static const char *tail[] = { "fetches", "reads", "writes", "L1_ratio", "share" };
	char b[32];
	int k;

	for (k = 0; cg && k < 13; k++)
		if (strcmp(name, cgcols[k]) == 0)
			return k;
	if (cg)
		return -1;
	if (strcmp(name, "accesses") == 0)
		return 0;
	for (k = 1; k <= nlevels; k++)
		if (snprintf(b, sizeof b, "L%d_misses", k) > 0 && strcmp(name, b) == 0)
			return k;
	for (k = 0; k < 5; k++)
		if (strcmp(name, tail[k]) == 0)
			return nlevels + 1 + k;
	return -1;
}

int
rt_bytab_write(FILE *f, int key, const struct rt_tally *t, int nlevels, int col)
{
	struct byrow *v;
	char buf[4096], root[4096];
	uint64_t g, all = 0;
	size_t n = 0, i, rl;
	int k;

	if ((v = calloc(rt_tally_keys(t) + 1, sizeof *v)) == NULL)
		return RT_ENOMEM;
	for (g = 0; g < rt_tally_keys(t); g++)
		if ((v[n].r = rt_tally_get(t, g))[0] != 0) {
			v[n].folded = key != RT_KEY_SET && g &&
			    *rt_key_label(key, g, buf, sizeof buf) == '[';
			v[n++].key = g;
			all += v[n - 1].r[1];
		}
	for (i = 0; col >= 0 && i < n; i++)	/* the ratios after the counts */
		v[i].sk = col <= nlevels + 3 ? (double)v[i].r[col] : col == nlevels + 4 ?
		    (double)v[i].r[1] / (double)v[i].r[0] : (double)v[i].r[1] / (double)(all ? all : 1);
	if (key != RT_KEY_SET || col >= 0)
		qsort(v, n, sizeof *v, bymisses);
	rl = rt_tally_root(key, t, sizeof(uint64_t), root, sizeof root);
	fprintf(f, "#reftrace %s%s 1 %s accesses", rt_stream_name(RT_STREAM_CACHE_BY),
	    rt_key_name(key), rt_key_name(key));
	for (k = 1; k <= nlevels; k++)
		fprintf(f, " L%d_misses", k);
	fprintf(f, " fetches reads writes L1_ratio share\n");
	if (rl)
		fprintf(f, "#root %s\n", root);
	for (i = 0; i < n; i++) {
		const uint64_t *r = v[i].r;
		const char *lab = rt_key_label(key, v[i].key, buf, sizeof buf);

		fputs(rl && strncmp(lab, root, rl) == 0 ? lab + rl : lab, f);
		for (k = 0; k <= nlevels + 3; k++)
			fprintf(f, " %llu", (unsigned long long)r[k]);
		fprintf(f, " %.6f %.6f\n", r[0] ? (double)r[1] / (double)r[0] : 0,
		    all ? (double)r[1] / (double)all : 0);
	}
	free(v);
	return ferror(f) ? RT_EIO : 0;
}

int
rt_cgtab_write(FILE *f, const struct rt_cgstats *s)
{
	char magic[64];

	fprintf(f, "%s Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n",
	    rt_stream_magic(RT_STREAM_CACHEGRIND, magic, sizeof magic));
	fprintf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
	    (unsigned long long)s->ir, (unsigned long long)s->i1mr,
	    (unsigned long long)s->ilmr, (unsigned long long)s->dr,
	    (unsigned long long)s->d1mr, (unsigned long long)s->dlmr,
	    (unsigned long long)s->dw, (unsigned long long)s->d1mw,
	    (unsigned long long)s->dlmw);
	return ferror(f) ? RT_EIO : 0;
}
