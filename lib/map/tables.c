/* tables.c: what trmap writes besides its picture: the counts per pixel
 * (--counts), the regions' metrics (--regions), and the names of the
 * address axis's segments. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "map.h"

int
rt_density_write(FILE *f, const struct rt_density *d, const struct rt_fold *fold, uint64_t n)
{
	const struct rt_seg *s;
	const uint32_t *v;
	size_t k, x;

	fprintf(f, "# trmap: %" PRIu64 " accesses on %u x %u pixels, x time, y address folded\n",
	    n, d->cols, d->rows);
	for (k = 0; k < rt_fold_count(fold); k++) {
		s = rt_fold_seg(fold, k);
		fprintf(f, "#segment 0x%" PRIx64 " 0x%" PRIx64 " %u %u\n", s->lo, s->hi, s->y0,
		    s->y1);
	}
	fprintf(f, "# x y read write modify fetch\n");
	for (x = 0; x < (size_t)d->cols * d->rows; x++)
		if (v = d->n[x], v[0] | v[1] | v[2] | v[3])
			fprintf(f, "%zu %zu %u %u %u %u\n", x % d->cols, x / d->cols, v[0], v[1],
			    v[2], v[3]);
	return ferror(f) ? RT_EIO : 0;
}

struct rt_varstat *
rt_varstat_find(struct rt_varstat *v, size_t n, uint32_t name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].name == name)
			return &v[i];
	return NULL;
}

int
rt_varstat_write(FILE *f, const struct rt_varstat *v, size_t n)
{
	size_t k;

	fprintf(f, "# name base size elem accesses bytes read write modify fetch\n");
	for (k = 0; k < n; k++)
		fprintf(f, "%s 0x%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
		    PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", rt_str(v[k].name), v[k].base,
		    v[k].size, v[k].elem, v[k].acc[0] + v[k].acc[1] + v[k].acc[2] + v[k].acc[3],
		    v[k].bytes, v[k].acc[0], v[k].acc[1], v[k].acc[2], v[k].acc[3]);
	return ferror(f) ? RT_EIO : 0;
}

/* A segment's object, its file name up to ".so" (libc.so.6 as libc):
 * the margin has room for 15 characters. */
static char *
objname(const char *path)
{
	const char *base = strrchr(path, '/'), *so;
	char buf[16];

	base = base ? base + 1 : path;
	so = strstr(base, ".so");
	snprintf(buf, sizeof buf, "%.*s", so ? (int)(so - base) : 15, base);
	return strdup(buf);
}

/* The regions registered in s, as many as 63 characters hold. */
static char *
regnames(const struct rt_seg *s, const struct rt_rec *reg, size_t nreg, int *nomem)
{
	char buf[64] = "", *d = NULL;
	size_t i;

	for (i = 0; i < nreg; i++)
		if (reg[i].addr <= s->hi && reg[i].addr + reg[i].size > s->lo &&
		    strlen(buf) + strlen(rt_str(reg[i].name)) + 2 < sizeof buf)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
			    *buf ? " " : "", rt_str(reg[i].name));
	if (*buf == '\0' || (d = strdup(buf)) != NULL)
		return *buf ? d : NULL;
	*nomem = 1;
	return NULL;
}

char **
rt_fold_names(const struct rt_fold *fold, const struct rt_sym *objs, const struct rt_rec *reg,
    size_t nreg)
{
	size_t k, nseg = rt_fold_count(fold);
	char **names = calloc(nseg + 1, sizeof *names);
	const char *path;
	int nomem = 0;

	if (names == NULL)
		return NULL;
	for (k = 0; k < nseg && !nomem; k++) {
		const struct rt_seg *s = rt_fold_seg(fold, k);

		if (s->obj >= 0 && rt_sym_object(objs, s->lo, &path) == s->obj)
			nomem = (names[k] = objname(path)) == NULL;
		else
			names[k] = regnames(s, reg, nreg, &nomem);
	}
	if (!nomem)
		return names;
	for (k = 0; k < nseg; k++)
		free(names[k]);
	free(names);
	return NULL;
}
