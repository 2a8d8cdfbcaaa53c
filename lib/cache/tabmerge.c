/* tabmerge.c: cachesim -M: the tables of a trace's partitions added up to
 * the whole's.  Sets are independent, so a partition by block number
 * modulo n simulates exactly when every block and every set of every
 * level lies in one partition; what is checked here is that it does. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

struct rt_tabmerge {
	struct rt_cache_table sum;	/* sum.n 0 before the first */
	unsigned char *seen;		/* by partition */
	uint64_t nseen;
};

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

	for (k = 0; k < t->n && p->n > 1; k++) {
		r = &t->row[k];
		if (!r->hascfg)
			continue;
		sets = r->cfg.size / ((uint64_t)r->cfg.assoc * r->cfg.block);
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

struct rt_tabmerge *
rt_tabmerge_new(void)
{
	return calloc(1, sizeof(struct rt_tabmerge));
}

void
rt_tabmerge_free(struct rt_tabmerge *m)
{
	if (m == NULL)
		return;
	free(m->seen);
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

/* Why t is not of the configuration and partitioning of the first, or NULL. */
static const char *
other(const struct rt_cache_table *s, const struct rt_cache_table *t)
{
	int k;

	if (t->part.n != s->part.n || t->part.bytes != s->part.bytes)
		return "another partitioning";
	if (t->n != s->n)
		return "another number of levels";
	for (k = 0; k < t->n; k++)
		if (!samecfg(&t->row[k], &s->row[k]))
			return "another configuration";
	if (t->threec != s->threec)
		return t->threec ? "-3, where the first is not" : "no -3, where the first has it";
	if (t->incl != s->incl)
		return "another inclusion";
	if (t->nlat != s->nlat || memcmp(t->lat, s->lat, t->nlat * sizeof t->lat[0]) != 0)
		return "other latencies";
	return NULL;
}

static void
add(struct rt_cache_stats *a, const struct rt_cache_stats *b)
{
	int i;

	for (i = 0; i < 3; i++) {
		a->acc[i] += b->acc[i];
		a->miss[i] += b->miss[i];
	}
	a->evictions += b->evictions;
	a->writebacks += b->writebacks;
	a->invalidations += b->invalidations;
	a->compulsory += b->compulsory;
	a->capacity += b->capacity;
	a->conflict += b->conflict;
	a->bytes_up += b->bytes_up;
	a->bytes_down += b->bytes_down;
}

int
rt_tabmerge_add(struct rt_tabmerge *m, const struct rt_cache_table *t, char *why,
    size_t whylen)
{
	const char *o;
	int k, ns;

	if (t->part.n == 0) {
		snprintf(why, whylen, "no partition's table (its trace's header records "
		    "none: split it with trfilter -P)");
		return -1;
	}
	for (k = ns = 0; k < t->n; k++)
		ns += t->row[k].hascfg && strcmp(t->row[k].name, "L1I") != 0;
	if (t->nlat != ns + 1) {
		snprintf(why, whylen, "%d latencies for %d levels and memory", t->nlat, ns);
		return -1;
	}
	if (m->sum.n == 0) {
		if (rt_cachetab_exact(t, why, whylen) != NULL)
			return -1;
		if ((m->seen = calloc(t->part.n, 1)) == NULL) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		m->sum = *t;
		for (k = 0; k < t->n; k++)
			memset(&m->sum.row[k].s, 0, sizeof m->sum.row[k].s);
	} else if ((o = other(&m->sum, t)) != NULL) {
		snprintf(why, whylen, "%s than the first table's (%llu partitions of "
		    "%llu bytes)", o, (unsigned long long)m->sum.part.n,
		    (unsigned long long)m->sum.part.bytes);
		return -1;
	}
	if (m->seen[t->part.k]) {
		snprintf(why, whylen, "partition %llu/%llu again", (unsigned long long)t->part.k,
		    (unsigned long long)t->part.n);
		return -1;
	}
	m->seen[t->part.k] = 1;
	m->nseen++;
	for (k = 0; k < t->n; k++)
		add(&m->sum.row[k].s, &t->row[k].s);
	return 0;
}

int
rt_tabmerge_end(struct rt_tabmerge *m, struct rt_cache_table *t, char *why, size_t whylen)
{
	const struct rt_cache_stats *s[RT_MAXLEVEL];
	size_t n;
	uint64_t k;
	int i, ns;

	if (m->sum.n == 0) {
		snprintf(why, whylen, "no table to merge");
		return -1;
	}
	if (m->nseen < m->sum.part.n) {
		n = (size_t)snprintf(why, whylen, "%llu of %llu partitions missing:",
		    (unsigned long long)(m->sum.part.n - m->nseen),
		    (unsigned long long)m->sum.part.n);
		for (k = 0, i = 0; k < m->sum.part.n && i < 8 && n < whylen; k++)
			if (!m->seen[k])
				n += (size_t)snprintf(why + n, whylen - n, "%s %llu", i++ ? "," : "",
				    (unsigned long long)k);
		if (m->sum.part.n - m->nseen > 8 && n < whylen)
			snprintf(why + n, whylen - n, ", ...");
		return -1;
	}
	*t = m->sum;
	memset(&t->part, 0, sizeof t->part);	/* the whole */
	if (t->threec && m->sum.part.n > 1)	/* each partition's fully associative twin saw its blocks alone */
		t->threec = 2;
	for (i = ns = 0; i < t->n; i++)
		if (t->row[i].hascfg && strcmp(t->row[i].name, "L1I") != 0)
			s[ns++] = &t->row[i].s;
	t->amat = rt_amat(s, ns, t->lat);
	return 0;
}

/* The tables in files, of a trace's partitions, merged into t; -1 with
 * err ("file: why", or why alone when partitions are missing). */
int
rt_tabmerge_files(char **files, int n, struct rt_cache_table *t, char *err, size_t errlen)
{
	struct rt_tabmerge *m;
	struct rt_reader *r;
	char why[300];
	int i, rc = -1;

	if ((m = rt_tabmerge_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if ((r = rt_lopen(files[i], err, errlen)) == NULL)
			goto out;
		rc = rt_cachetab_read(r, t, err, errlen);
		rt_rclose(r);
		if (rc)
			goto out;
		rc = -1;
		if (rt_tabmerge_add(m, t, why, sizeof why)) {
			snprintf(err, errlen, "%s: %s", files[i], why);
			goto out;
		}
	}
	if (rt_tabmerge_end(m, t, err, errlen) == 0)
		rc = 0;
out:
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

	if (rt_tabmerge_files(files, n, &t, err, errlen))
		return -1;
	if (t.threec == 2)
		diag("-M: -3's compulsory misses add up; capacity and conflict do not (each "
		    "partition's fully associative twin saw only its blocks): written as -", 0);
	rt_cachetab_put(f, &t, summary);
	return 0;
}
