/* str.c: the process's interned strings and source locations. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

struct strtab {
	char **s;		/* id -> string */
	uint32_t n, cap;
	uint32_t *slot;		/* open addressing, id+1; 0 = empty */
	uint32_t nslot;
};

static struct strtab strs;

static uint64_t
hashbytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

static void
xfail(void)
{
	/* Out of memory while interning: nothing sensible remains to do. */
	abort();
}

static void
strs_grow(void)
{
	uint32_t i, j, ns = strs.nslot ? strs.nslot * 2 : 1024;
	uint32_t *slot = calloc(ns, sizeof *slot);

	if (slot == NULL)
		xfail();
	for (i = 0; i < strs.n; i++) {
		j = hashbytes(strs.s[i], strlen(strs.s[i])) & (ns - 1);
		while (slot[j])
			j = (j + 1) & (ns - 1);
		slot[j] = i + 1;
	}
	free(strs.slot);
	strs.slot = slot;
	strs.nslot = ns;
}

uint32_t
rt_str_intern(const char *s, size_t len)
{
	uint32_t j;
	char *c;

	if (strs.n == 0) {
		strs.n = 0;
		strs_grow();
		if ((strs.s = malloc(64 * sizeof *strs.s)) == NULL)
			xfail();
		strs.cap = 64;
		strs.s[0] = "";
		strs.n = 1;
		j = hashbytes("", 0) & (strs.nslot - 1);
		strs.slot[j] = 1;
	}
	if (len == 0)
		return 0;
	j = hashbytes(s, len) & (strs.nslot - 1);
	while (strs.slot[j]) {
		c = strs.s[strs.slot[j] - 1];
		if (strncmp(c, s, len) == 0 && c[len] == '\0')
			return strs.slot[j] - 1;
		j = (j + 1) & (strs.nslot - 1);
	}
	if ((c = malloc(len + 1)) == NULL)
		xfail();
	memcpy(c, s, len);
	c[len] = '\0';
	if (strs.n == strs.cap) {
		strs.cap *= 2;
		if ((strs.s = realloc(strs.s, strs.cap * sizeof *strs.s)) == NULL)
			xfail();
	}
	strs.s[strs.n] = c;
	strs.slot[j] = ++strs.n;
	if (strs.n * 2 > strs.nslot)
		strs_grow();
	return strs.n - 1;
}

const char *
rt_str(uint32_t id)
{
	return id < strs.n ? strs.s[id] : "";
}

uint32_t
rt_str_count(void)
{
	return strs.n ? strs.n : 1;
}

static struct {
	struct rt_loc *v;
	uint32_t n, cap;
	uint32_t *slot;
	uint32_t nslot;
} locs;

static uint32_t
lochash(uint32_t f, uint32_t l, uint32_t fn, uint32_t mask)
{
	return rt_hash64(((uint64_t)f << 32 | l) ^ ((uint64_t)fn << 17)) & mask;
}

static void
locs_grow(void)
{
	uint32_t i, j, ns = locs.nslot ? locs.nslot * 2 : 1024;
	uint32_t *slot = calloc(ns, sizeof *slot);

	if (slot == NULL)
		xfail();
	for (i = 1; i < locs.n; i++) {
		j = lochash(locs.v[i].file, locs.v[i].line, locs.v[i].func, ns - 1);
		while (slot[j])
			j = (j + 1) & (ns - 1);
		slot[j] = i;
	}
	free(locs.slot);
	locs.slot = slot;
	locs.nslot = ns;
}

uint32_t
rt_loc_intern(uint32_t file, uint32_t line, uint32_t func)
{
	uint32_t j;
	struct rt_loc *l;

	if (file == 0 && line == 0 && func == 0)
		return 0;
	if (locs.n == 0) {
		locs_grow();
		if ((locs.v = calloc(64, sizeof *locs.v)) == NULL)
			xfail();
		locs.cap = 64;
		locs.n = 1;	/* id 0: unknown */
	}
	j = lochash(file, line, func, locs.nslot - 1);
	while (locs.slot[j]) {
		l = &locs.v[locs.slot[j]];
		if (l->file == file && l->line == line && l->func == func)
			return locs.slot[j];
		j = (j + 1) & (locs.nslot - 1);
	}
	if (locs.n == locs.cap) {
		locs.cap *= 2;
		if ((locs.v = realloc(locs.v, locs.cap * sizeof *locs.v)) == NULL)
			xfail();
	}
	locs.v[locs.n] = (struct rt_loc){ file, line, func };
	locs.slot[j] = locs.n++;
	if (locs.n * 2 > locs.nslot)
		locs_grow();
	return locs.n - 1;
}

const struct rt_loc *
rt_loc_get(uint32_t id)
{
	static const struct rt_loc none;

	return id && id < locs.n ? &locs.v[id] : &none;
}

uint32_t
rt_loc_count(void)
{
	return locs.n ? locs.n : 1;
}
