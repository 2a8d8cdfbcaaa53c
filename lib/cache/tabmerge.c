/* tabmerge.c: cachesim -M: the tables of a trace's partitions added up to
 * the whole's.  Sets are independent, so a partition by block number
 * modulo n simulates exactly when every block and every set of every
 * level lies in one partition; what is checked here is that it does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

struct rt_partset {
	struct rt_part p;		/* the first's */
	char config[RT_CONFIGLEN];
	const char *first;		/* its name; NULL before it */
	uint64_t fp;			/* the trace split, where one said it */
	const char *fpname;		/* the first that said it */
	const char **seen;		/* by partition: the stream that had it */
	uint64_t nseen;
};

struct rt_tabmerge {
	struct rt_cache_table sum;	/* sum.n 0 before the first */
	struct rt_partset *set;
	const char *first;
};

struct rt_partset *
rt_partset_new(void)
{
	return calloc(1, sizeof(struct rt_partset));
}

void
rt_partset_free(struct rt_partset *s)
{
	if (s == NULL)
		return;
	free(s->seen);
	free(s);
}

/* "of partition k/n of b-byte blocks", or "of no partition" */
static const char *
partname(const struct rt_part *p, char *buf, size_t len)
{
	if (p->n == 0)
		snprintf(buf, len, "of no partition");
	else
		snprintf(buf, len, "of partition %llu/%llu of %llu-byte blocks",
		    (unsigned long long)p->k, (unsigned long long)p->n,
		    (unsigned long long)p->bytes);
	return buf;
}

int
rt_partset_add(struct rt_partset *s, const char *name, const struct rt_part *p,
    const char *config, char *why, size_t whylen)
{
	char a[96], b[96];

	if (s->first == NULL) {
		if (p->n && (s->seen = calloc(p->n, sizeof *s->seen)) == NULL) {
			snprintf(why, whylen, "out of memory");
			return RT_ENOMEM;
		}
		s->p = *p;
		snprintf(s->config, sizeof s->config, "%s", config);
		s->first = name;
	} else if (p->n != s->p.n || p->bytes != s->p.bytes) {
		snprintf(why, whylen, "%s is %s, %s %s: not partitions of one split",
		    name, partname(p, a, sizeof a), s->first, partname(&s->p, b, sizeof b));
		return RT_EBAD;
	} else if (p->fp && s->fp && p->fp != s->fp) {
		snprintf(why, whylen, "%s and %s come from different traces (fp=%016llx, "
		    "fp=%016llx): their counts do not add up", s->fpname, name,
		    (unsigned long long)s->fp, (unsigned long long)p->fp);
		return RT_EBAD;
	} else if (strcmp(config, s->config) != 0) {
		snprintf(why, whylen, "%s was made with %s%s%s, %s with %s%s%s: their counts "
		    "do not add up", name, *config ? "'" : "", *config ? config : "no options",
		    *config ? "'" : "", s->first, *s->config ? "'" : "",
		    *s->config ? s->config : "no options", *s->config ? "'" : "");
		return RT_EBAD;
	}
	if (p->fp && !s->fp) {	/* older streams know none */
		s->fp = p->fp;
		s->fpname = name;
	}
	if (p->n == 0)
		return 0;
	if (s->seen[p->k] != NULL) {
		snprintf(why, whylen, "%s and %s are both partition %llu/%llu", s->seen[p->k],
		    name, (unsigned long long)p->k, (unsigned long long)p->n);
		return RT_EBAD;
	}
	s->seen[p->k] = name;
	s->nseen++;
	return 0;
}

int
rt_partset_end(const struct rt_partset *s, char *why, size_t whylen)
{
	size_t n;
	uint64_t k;
	int i;

	if (s->first == NULL) {
		snprintf(why, whylen, "nothing to merge");
		return RT_EUSAGE;
	}
	if (s->nseen == s->p.n)
		return 0;
	n = (size_t)snprintf(why, whylen, "%llu of %llu partitions missing:",
	    (unsigned long long)(s->p.n - s->nseen), (unsigned long long)s->p.n);
	for (k = 0, i = 0; k < s->p.n && i < 8 && n < whylen; k++)
		if (s->seen[k] == NULL)
			n += (size_t)snprintf(why + n, whylen - n, "%s %llu", i++ ? "," : "",
			    (unsigned long long)k);
	if (s->p.n - s->nseen > 8 && n < whylen)
		snprintf(why + n, whylen - n, ", ...");
	return RT_EBAD;
}

/* A level's blocks of b bytes lie in partitions of bytes when b divides
 * bytes; its set s (of S, block x) is in partition (x / (bytes/b)) mod n,
 * one partition per set when n * bytes/b divides S. */
const char *
rt_cachetab_exact(const struct rt_cache_table *t, char *why, size_t whylen)
{
	const struct rt_cache_row *r;
	const struct rt_part *p = &t->part;
	uint64_t sets, per;
	int k;

	if (t->pf && p->n > 1) {
		snprintf(why, whylen, "%s", rt_cachetab_pfwhy);
		return why;
	}
	for (k = 0; k < t->n && p->n > 1; k++) {
		r = &t->row[k];
		if (!r->hascfg)
			continue;
		sets = rt_cache_sets(&r->cfg);
		if (r->cfg.policy == RT_RANDOM)
			snprintf(why, whylen, "%s: random replacement draws for every set from "
			    "one generator, so a partition's draws are not the whole's", r->name);
		else if (p->bytes % r->cfg.block != 0)
			snprintf(why, whylen, "%s: %u-byte blocks span partitions of %llu bytes "
			    "(give trfilter -P n:%u or more)", r->name, r->cfg.block,
			    (unsigned long long)p->bytes, r->cfg.block);
		else if (sets % (per = p->n * (p->bytes / r->cfg.block)) != 0)
			snprintf(why, whylen, "%s: %llu %s not divided among %llu partitions of "
			    "%llu bytes (a set would see blocks of several)", r->name,
			    (unsigned long long)sets, sets == 1 ? "set (fully associative) is" :
			    "sets are", (unsigned long long)p->n, (unsigned long long)p->bytes);
		else
			continue;
		return why;
	}
	return NULL;
}

static struct rt_tabmerge *
rt_tabmerge_new(void)
{
	struct rt_tabmerge *m = calloc(1, sizeof *m);

	if (m != NULL && (m->set = rt_partset_new()) == NULL) {
		free(m);
		return NULL;
	}
	return m;
}

static void
rt_tabmerge_free(struct rt_tabmerge *m)
{
	if (m == NULL)
		return;
	rt_partset_free(m->set);
	free(m);
}

static int
samecfg(const struct rt_cache_row *a, const struct rt_cache_row *b)
{
	return strcmp(a->name, b->name) == 0 && a->hascfg == b->hascfg &&
	    (!a->hascfg || (a->cfg.size == b->cfg.size && a->cfg.assoc == b->cfg.assoc &&
	    a->cfg.block == b->cfg.block && a->cfg.policy == b->cfg.policy &&
	    a->cfg.wt == b->cfg.wt && a->cfg.nwa == b->cfg.nwa));
}

/* 1 with why (one sentence naming both) when t, named name, is not of
 * the configuration of s, named first; else 0. */
static int
other(const struct rt_cache_table *s, const char *first, const struct rt_cache_table *t,
    const char *name, char *why, size_t whylen)
{
	static const char *const incl[] = { "nine", "inclusive", "exclusive" };
	const struct rt_cache_table *h = t->threec ? t : s;
	int k;

	for (k = 0; k < t->n && k < s->n && samecfg(&t->row[k], &s->row[k]); k++)
		;
	if (k < t->n && k < s->n)
		snprintf(why, whylen, "%s and %s are tables of other caches: their %s rows differ",
		    first, name, s->row[k].name);
	else if (t->n != s->n)
		snprintf(why, whylen, "%s has %d levels and memory, %s %d", first, s->n - 1, name,
		    t->n - 1);
	else if (t->cores != s->cores)
		snprintf(why, whylen, "%s has the coherence columns of cores, %s has none",
		    t->cores ? name : first, t->cores ? first : name);
	else if (t->threec != s->threec)
		snprintf(why, whylen, "%s has the 3C columns of compulsory, capacity and "
		    "conflict misses, %s has none", h == t ? name : first, h == t ? first : name);
	else if (t->incl != s->incl)
		snprintf(why, whylen, "%s is of a hierarchy of inclusion %s, %s of %s", first,
		    incl[s->incl], name, incl[t->incl]);
	else if (t->nlat != s->nlat || memcmp(t->lat, s->lat, t->nlat * sizeof t->lat[0]) != 0)
		snprintf(why, whylen, "%s and %s were made with other latencies", first, name);
	else
		return 0;
	return 1;
}

/* A partition's table added: 0, or RT_EBAD (RT_ENOMEM) with why. */
static int
rt_tabmerge_add(struct rt_tabmerge *m, const struct rt_cache_table *t, const char *name,
    char *why, size_t whylen)
{
	char e[200];
	int k, ns;

	if (t->part.n == 0) {
		snprintf(why, whylen, "%s: no partition's table (its trace's header records "
		    "none: split it with trfilter -P)", name);
		return RT_EBAD;
	}
	for (k = ns = 0; k < t->n; k++)
		ns += t->row[k].hascfg && !t->row[k].tlb && !t->row[k].core &&
		    strcmp(t->row[k].name, "L1I") != 0;
	if (t->nlat != ns + 1) {
		snprintf(why, whylen, "%s: %d latencies for %d levels and memory", name, t->nlat, ns);
		return RT_EBAD;
	}
	if (m->sum.n == 0) {
		if (rt_cachetab_exact(t, e, sizeof e) != NULL) {
			snprintf(why, whylen, "%s: %s", name, e);
			return RT_EBAD;
		}
		m->sum = *t;
		m->first = name;
		for (k = 0; k < t->n; k++)
			memset(&m->sum.row[k].s, 0, sizeof m->sum.row[k].s);
	} else if (other(&m->sum, m->first, t, name, why, whylen))
		return RT_EBAD;
	if ((k = rt_partset_add(m->set, name, &t->part, t->config, why, whylen)) != 0)
		return k;
	for (k = 0; k < t->n; k++)
		rt_stats_add(&m->sum.row[k].s, &t->row[k].s);
	return 0;
}

/* The whole, or RT_EBAD with the partitions missing. */
static int
rt_tabmerge_end(struct rt_tabmerge *m, struct rt_cache_table *t, char *why, size_t whylen)
{
	const struct rt_cache_stats *s[RT_MAXLEVEL];
	int i, ns;

	if (m->sum.n == 0) {
		snprintf(why, whylen, "no table to merge");
		return RT_EBAD;
	}
	if ((i = rt_partset_end(m->set, why, whylen)) != 0)
		return i;
	*t = m->sum;
	memset(&t->part, 0, sizeof t->part);	/* the whole */
	*t->config = '\0';
	if (t->threec && m->sum.part.n > 1)	/* each partition's fully associative twin saw its blocks alone */
		t->threec = 2;
	for (i = ns = 0; i < t->n; i++)
		if (t->row[i].hascfg && !t->row[i].tlb && !t->row[i].core &&
		    strcmp(t->row[i].name, "L1I") != 0)
			s[ns++] = &t->row[i].s;
	t->amat = rt_amat(s, ns, t->lat);
	return 0;
}

/* The tables in files, of a trace's partitions, merged into t; -1 with
 * err (naming the files). */
/* Over the tables named: open, read, add, end; "file: why". */
static int
rt_tabmerge_files(char **files, int n, struct rt_cache_table *t, char *err, size_t errlen)
{
	struct rt_tabmerge *m;
	struct rt_reader *r;
	int i, rc = 0;

	if ((m = rt_tabmerge_new()) == NULL) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return RT_ENOMEM;
	}
	for (i = 0; i < n && rc == 0; i++) {
		if ((r = rt_lopen(files[i], err, errlen)) == NULL) {
			rc = RT_EIO;
			break;
		}
		rc = rt_cachetab_read(r, t, err, errlen);
		rt_rclose(r);
		if (rc == 0)
			rc = rt_tabmerge_add(m, t, files[i], err, errlen);
	}
	if (rc == 0)
		rc = rt_tabmerge_end(m, t, err, errlen);
	rt_tabmerge_free(m);
	return rc;
}

/* cachesim -M: the merge of the tables named, written to f (for people
 * with summary); diag hears what the sum cannot give. */
int
rt_tabmerge_write(FILE *f, char **files, int n, int summary, rt_diag_fn *diag, char *err,
    size_t errlen)
{
	struct rt_cache_table t;
	int k;

	if ((k = rt_tabmerge_files(files, n, &t, err, errlen)) != 0)
		return k;
	if (t.threec == 2)
		diag("the 3C compulsory misses add up; capacity and conflict do not (each "
		    "partition's fully associative twin saw only its blocks): written as -", 0);
	rt_cachetab_put(f, &t, summary);	/* a write error is the FILE's */
	return 0;
}
