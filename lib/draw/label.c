/* label.c: legend labels people can scan: source locations sorted by
 * file and line (line 9 before line 10), paths folded to their base
 * names, or as many directories as tell two files of one name apart. */
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"

/* The length of s without a ":line" at its end. */
static size_t
filelen(const char *s)
{
	const char *c = strrchr(s, ':'), *p;

	if (c == NULL || c[1] == 0)
		return strlen(s);
	for (p = c + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return strlen(s);
	return (size_t)(c - s);
}

static int
rt_label_cmp(const char *a, const char *b)
{
	size_t la = filelen(a), lb = filelen(b);
	int c = strncmp(a, b, la < lb ? la : lb);
	unsigned long na, nb;

	if (c != 0 || la != lb)
		return c ? c : la < lb ? -1 : 1;
	na = a[la] ? strtoul(a + la + 1, NULL, 10) : 0;
	nb = b[lb] ? strtoul(b + lb + 1, NULL, 10) : 0;
	return na < nb ? -1 : na > nb;
}

struct named { const char *s; size_t i; };

static int
bylabel(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = rt_label_cmp(x->s, y->s);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* order: 0 .. n-1 sorted by label; -1 out of memory. */
int
rt_label_sort(const char *const *names, size_t n, size_t *order)
{
	struct named *v = malloc((n + 1) * sizeof *v);
	size_t i;

	if (v == NULL)
		return RT_ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = (struct named){ names[i], i };
	qsort(v, n, sizeof *v, bylabel);
	for (i = 0; i < n; i++)
		order[i] = v[i].i;
	free(v);
	return 0;
}

/* Does another name's file end in the len bytes at suf, whole
 * directories of it, and differ from file k's? */
static int
shared(const char *const *names, size_t n, size_t k, const char *suf, size_t len)
{
	size_t i, lk = filelen(names[k]), li;

	for (i = 0; i < n; i++) {
		li = filelen(names[i]);
		if (li < len || strncmp(names[i] + li - len, suf, len) != 0 ||
		    (li > len && names[i][li - len - 1] != '/'))
			continue;
		if (li != lk || strncmp(names[i], names[k], lk) != 0)
			return 1;
	}
	return 0;
}

/* The name to show: from the base name of its file on, or from as many
 * directories up as tell it from other files of that base name
 * (lib/util.c:12 beside other/util.c:40). */
const char *
rt_label_short(const char *const *names, size_t n, size_t k)
{
	const char *s = names[k], *p = s + filelen(s);

	while (p > s) {
		while (p > s && p[-1] != '/')
			p--;
		if (!shared(names, n, k, p, filelen(s) - (size_t)(p - s)))
			return p;
		if (p > s)
			p--;	/* past the slash, to the next directory up */
	}
	return s;
}
