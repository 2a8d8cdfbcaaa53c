/* cfg.c: a cache level's configuration from its spec,
 * SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]], and the policies' names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cache.h"

static const char *polnames[] = { "lru", "fifo", "random", "mru", "plru", "srrip", "lfu",
	"opt", "pes" };

int
rt_policy_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof polnames / sizeof polnames[0]; i++)
		if (strcasecmp(s, polnames[i]) == 0)
			return (int)i;
	if (strcasecmp(s, "nru") == 0)	/* SRRIP with one bit */
		return RT_SRRIP;
	return -1;
}

uint64_t
rt_cache_sets(const struct rt_cache_cfg *c)
{
	return c->size / ((uint64_t)c->assoc * c->block);
}

const char *
rt_policy_name(int p)
{
	return p >= 0 && p < (int)(sizeof polnames / sizeof polnames[0]) ? polnames[p] : "?";
}

/* SIZE, ASSOC ("full": one set) and BLOCK, and how they fit together;
 * a TLB's is ENTRIES, ASSOC and PAGE (a block of up to 1G). */
static int
geometry(struct rt_cache_cfg *c, char *const *f, int tlb, char *why, size_t whylen)
{
	uint64_t v, n;

	if (rt_parse_size(f[2], &v) || v == 0 || (v & (v - 1)) || v > (tlb ? 1u << 30 : 1u << 20)) {
		snprintf(why, whylen, "%s size '%s': want a power of two up to %s",
		    tlb ? "page" : "block", f[2], tlb ? "1G" : "1M");
		return RT_EUSAGE;
	}
	if (rt_parse_size(f[0], &n) || n == 0 || (tlb && n > UINT64_MAX / v)) {
		snprintf(why, whylen, "bad %s '%s'", tlb ? "number of entries" : "size", f[0]);
		return RT_EUSAGE;
	}
	c->size = tlb ? n * v : n;
	c->block = (uint32_t)v;
	if (strcasecmp(f[1], "full") == 0)
		c->assoc = 0;
	else if (rt_parse_size(f[1], &v) || v == 0 || v > RT_MAXWAYS) {
		snprintf(why, whylen, "bad associativity '%s'", f[1]);
		return RT_EUSAGE;
	} else
		c->assoc = (uint32_t)v;
	if (c->size % c->block) {
		snprintf(why, whylen, "size %llu is not a multiple of the block size %u",
		    (unsigned long long)c->size, c->block);
		return RT_EUSAGE;
	}
	if (c->assoc == 0 && c->size / c->block > RT_MAXWAYS) {
		snprintf(why, whylen, "fully associative with %llu blocks: a set has at "
		    "most %u ways", (unsigned long long)(c->size / c->block), RT_MAXWAYS);
		return RT_EUSAGE;
	}
	if (c->assoc == 0)
		c->assoc = (uint32_t)(c->size / c->block);
	if ((c->size / c->block) % c->assoc && tlb) {
		snprintf(why, whylen, "%llu entries are not a multiple of the associativity %u",
		    (unsigned long long)(c->size / c->block), c->assoc);
		return RT_EUSAGE;
	}
	if ((c->size / c->block) % c->assoc) {
		snprintf(why, whylen, "size %llu is not a multiple of associativity x block (%u x %u)",
		    (unsigned long long)c->size, c->assoc, c->block);
		return RT_EUSAGE;
	}
	return 0;
}

/* POLICY, and what the policy and the tags' memory allow. */
static int
policy(struct rt_cache_cfg *c, const char *name, char *why, size_t whylen)
{
	if (name != NULL && (c->policy = rt_policy_parse(name)) < 0) {
		snprintf(why, whylen, "unknown policy '%s' (lru, fifo, random, mru, plru, srrip, nru, lfu, opt, pes)", name);
		return RT_EUSAGE;
	}
	if (c->policy == RT_PLRU && (c->assoc & (c->assoc - 1))) {
		snprintf(why, whylen, "pseudo-LRU needs a power-of-two associativity, not %u", c->assoc);
		return RT_EUSAGE;
	}
	if (c->policy == RT_PLRU && c->assoc > 64) {
		snprintf(why, whylen, "pseudo-LRU keeps at most 64 ways");
		return RT_EUSAGE;
	}
	if (rt_cache_bytes(c) > rt_memory()) {
		snprintf(why, whylen, "needs %.1f GiB for its tags, more than the %.1f GiB "
		    "of memory here", rt_cache_bytes(c) / 1073741824.0,
		    rt_memory() / 1073741824.0);
		return RT_EUSAGE;
	}
	return 0;
}

/* wb|wt, then wa|nwa. */
static int
writes(struct rt_cache_cfg *c, char *const *f, int n, char *why, size_t whylen)
{
	if (n > 4) {
		if (strcasecmp(f[4], "wt") == 0)
			c->wt = 1;
		else if (strcasecmp(f[4], "wb") != 0) {
			snprintf(why, whylen, "write policy '%s': wb or wt", f[4]);
			return RT_EUSAGE;
		}
	}
	if (n > 5) {
		if (strcasecmp(f[5], "nwa") == 0)
			c->nwa = 1;
		else if (strcasecmp(f[5], "wa") != 0) {
			snprintf(why, whylen, "write-miss policy '%s': wa or nwa", f[5]);
			return RT_EUSAGE;
		}
	}
	return 0;
}

/* sb=BYTES, the last field: Dinero IV's sub-blocks (-lN-Tsbsize), a power
 * of two that divides the block in 32 at most, as Dinero IV */
static int
subblocks(struct rt_cache_cfg *c, const char *f, char *why, size_t whylen)
{
	uint64_t v;

	if (rt_parse_size(f + 3, &v) || v == 0 || (v & (v - 1)) || v > c->block ||
	    c->block / v > 32) {
		snprintf(why, whylen, "sub-block size '%s': a power of two, at most the block "
		    "and at least a 32nd of it", f + 3);
		return RT_EUSAGE;
	}
	c->sub = v < c->block ? (uint32_t)v : 0;
	return 0;
}

/* SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]][:sb=BYTES]; ASSOC may be
 * "full"; a TLB's ENTRIES:ASSOC:PAGE[:POLICY]. */
static int
parse(const char *spec, struct rt_cache_cfg *c, int tlb, char *why, size_t whylen)
{
	char buf[128], *f[7], *p, *save = NULL;
	int n = 0, sb;

	memset(c, 0, sizeof *c);
	c->policy = RT_LRU;
	if (strlen(spec) >= sizeof buf) {
		snprintf(why, whylen, "too long");
		return RT_EUSAGE;
	}
	strcpy(buf, spec);
	for (p = strtok_r(buf, ":", &save); p && n < 7; p = strtok_r(NULL, ":", &save))
		f[n++] = p;
	sb = !tlb && n > 3 && strncasecmp(f[n - 1], "sb=", 3) == 0;
	n -= sb;
	if (n < 3 || n > 6 || p != NULL || (tlb && n > 4)) {
		snprintf(why, whylen, tlb ? "want ENTRIES:ASSOC:PAGE[:POLICY]" :
		    "want SIZE:ASSOC:BLOCK[:POLICY[:wb|wt[:wa|nwa]]][:sb=BYTES]");
		return RT_EUSAGE;
	}
	if (geometry(c, f, tlb, why, whylen) || policy(c, n > 3 ? f[3] : NULL, why, whylen))
		return RT_EUSAGE;
	if (tlb && c->policy >= RT_OPT) {	/* the future is read per data level */
		snprintf(why, whylen, "a TLB's policy: not opt or pes");
		return RT_EUSAGE;
	}
	if (writes(c, f, n, why, whylen))
		return RT_EUSAGE;
	return sb ? subblocks(c, f[n], why, whylen) : 0;
}

int
rt_cache_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen)
{
	return parse(spec, c, 0, why, whylen);
}

int
rt_tlb_parse(const char *spec, struct rt_cache_cfg *c, char *why, size_t whylen)
{
	return parse(spec, c, 1, why, whylen);
}
