/* str.c: the process's interned strings and source locations.
 *
 * One table a process, as a locale is: records carry small ids that every
 * reader and writer of the process agrees on.  Out of memory, interning
 * returns RT_NOMEM and the table is left as it was. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

/* Open addressing over ids: slot holds id + 1, 0 empty. */
struct tab {
	uint32_t *slot;
	uint32_t nslot;
};

static struct {
	char **s;		/* id -> string */
	uint32_t n, cap;
	struct tab t;
} strs;

static struct {
	struct rt_loc *v;
	uint32_t n, cap;
	struct tab t;
} locs;

/* FNV-1a of the *n bytes at p, or of those before a NUL among them: a
 * string ends there (*n then its length). */
static uint64_t
hashbytes(const char *p, size_t *n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < *n && p[i] != '\0'; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	*n = i;
	return h;
}

static uint64_t
hashloc(const struct rt_loc *l)
{
	return rt_hash64(((uint64_t)l->file << 32 | l->line) ^ ((uint64_t)l->func << 17));
}

static uint64_t
hashstr(uint32_t id)
{
	size_t n = strlen(strs.s[id]);

	return hashbytes(strs.s[id], &n);
}

static uint64_t
hashlocid(uint32_t id)
{
	return hashloc(&locs.v[id]);
}

/* Double the slots and put every id from first back. */
static int
regrow(struct tab *t, uint32_t first, uint32_t n, uint64_t (*hash)(uint32_t))
{
	uint32_t i, j, ns = t->nslot ? t->nslot * 2 : 1024;
	uint32_t *slot = calloc(ns, sizeof *slot);

	if (slot == NULL)
		return -1;
	for (i = first; i < n; i++) {
		j = hash(i) & (ns - 1);
		while (slot[j])
			j = (j + 1) & (ns - 1);
		slot[j] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = ns;
	return 0;
}

/* Room for one more entry of size bytes in *v. */
static int
room(void **v, uint32_t n, uint32_t *cap, size_t size)
{
	void *p;
	uint32_t c = *cap ? *cap * 2 : 64;

	if (n < *cap)
		return 0;
	if (n >= RT_NOMEM - 1 || (p = realloc(*v, (size_t)c * size)) == NULL)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

static uint32_t
str_intern(const char *s, size_t len)
{
	/* up to a NUL (an escaped %00 in a text name, in a binary
	 * definition): compared past it, a shorter string matched and was
	 * read beyond its end */
	uint64_t h = hashbytes(s, &len);
	uint32_t j;
	char *c;

	if (len == 0)
		return 0;
	if (strs.n == 0) {
		if (room((void **)&strs.s, 0, &strs.cap, sizeof *strs.s) ||
		    regrow(&strs.t, 1, 1, hashstr))
			return RT_NOMEM;
		strs.s[0] = "";
		strs.n = 1;
	}
	j = h & (strs.t.nslot - 1);
	while (strs.t.slot[j]) {
		c = strs.s[strs.t.slot[j] - 1];
		if (strncmp(c, s, len) == 0 && c[len] == '\0')
			return strs.t.slot[j] - 1;
		j = (j + 1) & (strs.t.nslot - 1);
	}
	if (room((void **)&strs.s, strs.n, &strs.cap, sizeof *strs.s) ||
	    (c = malloc(len + 1)) == NULL)
		return RT_NOMEM;
	memcpy(c, s, len);
	c[len] = '\0';
	strs.s[strs.n] = c;
	strs.t.slot[j] = ++strs.n;
	if (strs.n * 2 > strs.t.nslot && regrow(&strs.t, 1, strs.n, hashstr)) {
		strs.t.slot[j] = 0;	/* as it was */
		free(c);
		strs.n--;
		return RT_NOMEM;
	}
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

static uint32_t
loc_intern(uint32_t file, uint32_t line, uint32_t func)
{
	struct rt_loc key = { file, line, func }, *l;
	uint32_t j;

	if (file == 0 && line == 0 && func == 0)
		return 0;
	if (file == RT_NOMEM || func == RT_NOMEM)
		return RT_NOMEM;
	if (locs.n == 0) {
		if (room((void **)&locs.v, 0, &locs.cap, sizeof *locs.v) ||
		    regrow(&locs.t, 1, 1, hashlocid))
			return RT_NOMEM;
		memset(&locs.v[0], 0, sizeof locs.v[0]);
		locs.n = 1;	/* id 0: unknown */
	}
	j = hashloc(&key) & (locs.t.nslot - 1);
	while (locs.t.slot[j]) {
		l = &locs.v[locs.t.slot[j] - 1];
		if (l->file == file && l->line == line && l->func == func)
			return locs.t.slot[j] - 1;
		j = (j + 1) & (locs.t.nslot - 1);
	}
	if (room((void **)&locs.v, locs.n, &locs.cap, sizeof *locs.v))
		return RT_NOMEM;
	locs.v[locs.n] = key;
	locs.t.slot[j] = ++locs.n;
	if (locs.n * 2 > locs.t.nslot && regrow(&locs.t, 1, locs.n, hashlocid)) {
		locs.t.slot[j] = 0;
		locs.n--;
		return RT_NOMEM;
	}
	return locs.n - 1;
}

/* Readers on threads (rt_str_shared) intern under a lock; nothing reads
 * the tables meanwhile, and a program on one thread takes no lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int shared;

void
rt_str_shared(int on)
{
	shared = on;
}

uint32_t
rt_str_intern(const char *s, size_t len)
{
	uint32_t id;

	if (!shared)
		return str_intern(s, len);
	pthread_mutex_lock(&lock);
	id = str_intern(s, len);
	pthread_mutex_unlock(&lock);
	return id;
}

uint32_t
rt_loc_intern(uint32_t file, uint32_t line, uint32_t func)
{
	uint32_t id;

	if (!shared)
		return loc_intern(file, line, func);
	pthread_mutex_lock(&lock);
	id = loc_intern(file, line, func);
	pthread_mutex_unlock(&lock);
	return id;
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
