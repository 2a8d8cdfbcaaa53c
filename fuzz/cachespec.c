/* cachespec.c: cache specifications as cachesim takes them, a line
 * each: "-c level|preset", "-E configuration", "--icache level",
 * "--tlb level", "--itlb level" (TLB levels without ranges),
 * "--inclusion nine|inclusive|exclusive", "--cores n" (the fixed trace's
 * records are of threads 0, 1 and 2), "--prefetch spec", "-3", "-d" (an output per
 * access); any other line is a level for rt_cache_parse alone.  Every
 * level parsed is checked; a hierarchy small enough to build quickly is
 * built and run over a fixed trace (its future foreseen for OPT and
 * PES), and its table written and read back. */
#include "table.h"

#define MAXBLOCKS (1u << 18)	/* the most blocks of all the caches built */
#define NACCESS 300

static const char *incls[] = { "nine", "inclusive", "exclusive" };

/* A level parsed is a level: its numbers agree. */
static int
level(const char *spec, struct rt_cache_cfg *c)
{
	char why[256] = "";

	if (rt_cache_parse(spec, c, why, sizeof why)) {
		fuzz_assert(*why, "%s: refused without a reason", spec);
		return -1;
	}
	fuzz_assert(c->size > 0 && c->block > 0 && (c->block & (c->block - 1)) == 0,
	    "%s: size %llu, block %u", spec, (unsigned long long)c->size, c->block);
	fuzz_assert(c->assoc > 0 && c->size % c->block == 0 &&
	    c->size / c->block % c->assoc == 0, "%s: %llu bytes, %u ways of %u", spec,
	    (unsigned long long)c->size, c->assoc, c->block);
	fuzz_assert(c->policy >= RT_LRU && c->policy <= RT_PES, "%s: policy %d", spec,
	    c->policy);
	return 0;
}

/* The blocks of a configuration ("l1/l2/..."), or UINT64_MAX for one
 * too big to build here. */
static uint64_t
blocks(const char *conf)
{
	struct rt_cache_cfg c;
	char buf[512], *p, *save = NULL;
	uint64_t n = 0;

	snprintf(buf, sizeof buf, "%s", conf);
	for (p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save))
		if (level(p, &c) == 0 && (n += c.size / c.block) > MAXBLOCKS)
			return UINT64_MAX;
	return n;
}

/* A fixed trace of reads, writes, modifies and fetches over 16 KB, some
 * across a block boundary, in file 0. */
static const char *
trace(void)
{
	static char buf[NACCESS * 48 + 64];
	static const char *path;
	struct rt_rng g;
	size_t n;
	int i;

	if (path != NULL)
		return path;
	rt_rng_seed(&g, 13);
	n = (size_t)snprintf(buf, sizeof buf, "#reftrace trace 1\n");
	for (i = 0; i < NACCESS; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%d %c %#llx %llu %d\n", i,
		    rt_opchar[rt_rng_below(&g, 4)],
		    (unsigned long long)(i % 3 ? rt_rng_below(&g, 16384) : 64 * (i % 97)),
		    (unsigned long long)(1 + rt_rng_below(&g, 16)), i % 3);
	return path = fuzz_file(0, buf, n);
}

/* The fixed trace's records, read once: the caches take them in one
 * batch (rt_ens_run), as cachesim takes a binary trace's. */
static struct rt_rec recs[NACCESS];
static int nrecs;

static int
collect(void *ctx, struct rt_rec *rec)
{
	(void)ctx;
	if (rec->kind != RT_ACCESS)
		return 0;
	fuzz_assert(nrecs < NACCESS, "the fixed trace: more than %d accesses", NACCESS);
	recs[nrecs++] = *rec;
	return 0;
}

static void
diag(const char *msg, int fatal)
{
	fuzz_assert(0, "the fixed trace: %s%s", msg, fatal ? "" : " (warning)");
}

/* Each level's misses are some of its accesses; the table written reads
 * back as it was. */
static void
check(struct rt_ens *e, int threec)
{
	static const double lat[RT_MAXLEVEL + 2] = { 3, 15, 40, 80, 120, 160, 200, 240, 280, 300 };
	const struct rt_cache_stats *s;
	const struct rt_cache_cfg *c;
	struct rt_cache_table t;
	struct rt_hier *h;
	int i, k, j;

	for (i = 0; i < rt_ens_count(e); i++) {
		h = rt_ens_hier(e, i);
		for (k = -1; k < rt_hier_levels(h); k++) {
			s = rt_hier_stats(h, k, &c);
			if (c == NULL)
				continue;	/* no I-cache */
			for (j = 0; j < 3; j++)
				fuzz_assert(s->miss[j] <= s->acc[j], "configuration %d level %d: "
				    "%llu misses of %llu", i, k, (unsigned long long)s->miss[j],
				    (unsigned long long)s->acc[j]);
			fuzz_assert(!threec || s->compulsory + s->capacity + s->conflict +
			    s->coherence == s->miss[0] + s->miss[1] + s->miss[2],
			    "configuration %d level %d: the 3C classes and coherence misses "
			    "do not add up to the misses", i, k);
			fuzz_assert(s->coherence <= s->miss[0] + s->miss[1] + s->miss[2] &&
			    s->downgrades <= s->writebacks, "configuration %d level %d: more "
			    "coherence misses than misses, or downgrades than writebacks", i, k);
			fuzz_assert(s->pf_useless <= s->pf_issued && s->pf_useful + s->pf_unused <=
			    s->pf_issued && s->nopf_misses <= s->acc[0] + s->acc[1] + s->acc[2] &&
			    s->pf_aborted <= s->acc[0] + s->acc[2],
			    "configuration %d level %d: prefetches useless, useful or unused "
			    "beyond those issued, twin's misses beyond the accesses, or aborts "
			    "beyond the reads", i, k);
		}
	}
	for (i = 0; i < rt_ens_tlbs(e); i++) {
		h = rt_ens_tlbh(e, i);
		for (k = -1; k < rt_hier_levels(h); k++) {
			s = rt_hier_stats(h, k, &c);
			for (j = 0; c != NULL && j < 3; j++)
				fuzz_assert(s->miss[j] <= s->acc[j] && s->bytes_up == 0 &&
				    s->writebacks == 0, "TLB level %d: %llu misses of %llu, "
				    "bytes or write-backs", k, (unsigned long long)s->miss[j],
				    (unsigned long long)s->acc[j]);
		}
	}
	rt_cachetab_of(&t, rt_ens_hier(e, 0), lat, threec != 0);
	if (rt_ens_tlbs(e) > 0)
		rt_cachetab_tlb(&t, rt_ens_tlbh(e, 0));
	if (!t.pf)	/* a prefetching run's table is not read back (it does not merge) */
		fuzz_table_again(&t);
}

static void
run(struct rt_ens *e, const struct rt_cache_cfg *icache, int incl, int threec, int observed)
{
	char why[512] = "", tmp[256] = "", *files[1];
	int k;

	if ((k = rt_ens_build(e, icache, incl, 1, threec, observed, why, sizeof why)) != 0) {
		fuzz_assert(k == RT_EUSAGE && *why, "a small ensemble not built: %d %s", k, why);
		return;
	}
	files[0] = (char *)trace();
	if (rt_ens_needs_future(e)) {
		k = rt_ens_foresee(e, files, 1, RT_FMT_TEXT, 0, diag, tmp, sizeof tmp, why,
		    sizeof why);
		fuzz_assert(*tmp == '\0', "a file named was spooled");
		if (k == RT_EUSAGE)
			return;	/* cannot be foreseen together: a usage error */
		fuzz_assert(k == 0, "the future of the fixed trace: %s", why);
	}
	fuzz_assert(nrecs > 0 || rt_foreach(files, 1, RT_FMT_TEXT, 0, collect, NULL, diag) == 0,
	    "the fixed trace not read");
	fuzz_assert(rt_ens_run(e, recs, nrecs) == nrecs, "a run of accesses not taken whole");
	rt_ens_flush(e);
	check(e, threec);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_cache_cfg ic, c;
	struct rt_ens *e;
	char *buf, *line, *save = NULL, why[512];
	int nc = 0, nE = 0, hasi = 0, incl = RT_NINE, threec = 0, observed = 0, bad = 0, i;
	uint64_t nb = 0, cores = 1;

	if ((buf = malloc(size + 1)) == NULL || (e = rt_ens_new()) == NULL)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "-c ", 3) == 0) {
			bad |= rt_ens_level(e, line + 3, why, sizeof why) != 0;
			nc++;
		} else if (strncmp(line, "-E ", 3) == 0) {
			bad |= rt_ens_expand(e, line + 3, why, sizeof why) != 0;
			nE++;
		} else if (strncmp(line, "--tlb ", 6) == 0 || strncmp(line, "--itlb ", 7) == 0) {
			i = line[2] == 'i';
			/* one configuration, whose entries count as blocks */
			if (strpbrk(line, ".,/") != NULL || rt_tlb_parse(line + 6 + i, &c, why,
			    sizeof why) != 0)
				bad = 1;
			else {
				nb += c.size / c.block;
				fuzz_assert(rt_ens_tlb(e, line + 6 + i, i, why, sizeof why) == 0,
				    "%s: parsed, refused: %s", line, why);
			}
		} else if (strncmp(line, "--icache ", 9) == 0)
			bad |= !(hasi = level(line + 9, &ic) == 0);
		else if (strncmp(line, "--inclusion ", 12) == 0) {
			for (incl = 0; incl < 3 && strcmp(line + 12, incls[incl]); incl++)
				;
			bad |= incl == 3;
		} else if (strcmp(line, "-3") == 0)
			threec = threec ? threec : RT_3C_LRU;
		else if (strcmp(line, "--3c-ref own") == 0)
			threec = RT_3C_OWN;
		else if (strcmp(line, "-d") == 0)
			observed = 1;
		else if (strncmp(line, "--prefetch ", 11) == 0)
			bad |= rt_ens_prefetch(e, line + 11, why, sizeof why) != 0;
		else if (strncmp(line, "--cores ", 8) == 0) {
			bad |= rt_parse_u64(line + 8, &cores) || cores < 1 || cores > RT_MAXCORES;
			rt_ens_cores(e, bad ? 0 : (int)cores);
		}
		else
			level(line, &c);
	}
	/* what cachesim refuses as usage, and what is too big for here */
	if (nc == 0 && nE == 0)
		rt_ens_level(e, "i7", why, sizeof why);
	for (i = 0; i < rt_ens_count(e) && nb <= MAXBLOCKS; i++)
		nb += blocks(rt_ens_name(e, i));
	if (nE == 0) {
		const struct rt_cache_cfg *lv = rt_ens_levels(e, &i);

		while (i-- > 0)
			nb += lv[i].size / lv[i].block;
	}
	if (hasi)
		nb += ic.size / ic.block;
	nb *= cores;	/* each core's private levels (the shared counted as many) */
	if (!bad && !(nE && nc) && !(nE && (threec || observed)) && nb <= MAXBLOCKS)
		run(e, hasi ? &ic : NULL, incl, threec, observed);
	rt_ens_free(e);
	free(buf);
	return 0;
}
