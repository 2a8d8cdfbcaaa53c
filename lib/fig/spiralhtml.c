/* spiralhtml.c: the spiral as one interactive HTML page (plotspiral -O
 * html): the page of spiral.html, built in, with every point packed into
 * it; its script draws as rt_spiral_build does. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reftrace.h"
#include "fig.h"
#include "topo.h"

static const char page[] =
#include "spiral-html.h"
;

static void
jnum(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

static unsigned char *
le(unsigned char *p, uint64_t v, int bytes)
{
	while (bytes-- > 0)
		*p++ = (unsigned char)v, v >>= 8;
	return p;
}

/* The points as the page unpacks them: theta columns of 16-bit fractions
 * of a turn (65535 undefined), a layer byte, the location, function and
 * region as 32-bit indices into the strings (tab: an rt_str id's index
 * plus 1), the seqs as zigzag varint differences.  Its length in *len. */
static unsigned char *
pack(const struct rt_coords *co, const size_t *layer, const uint32_t *tab, size_t *len)
{
	const struct rt_pointmap *pm = &co->pm;
	size_t n = pm->n, i, c;
	unsigned char *buf = malloc(n * (2 * co->ncirc + 13 + 10) + 1), *p = buf;
	const uint32_t *idx[3] = { pm->loc, pm->func, pm->region };
	uint64_t prev = 0, z;
	int64_t d;
	double t;

	if (buf == NULL)
		return NULL;
	for (c = 0; c < co->ncirc; c++)
		for (i = 0; i < n; i++) {
			t = co->theta[i * co->ncirc + c];
			p = le(p, isnan(t) ? 65535 : (uint64_t)lround((t - floor(t)) * 65535) % 65535, 2);
		}
	for (i = 0; i < n; i++)
		*p++ = (unsigned char)layer[i];
	for (c = 0; c < 3; c++)
		for (i = 0; i < n; i++)
			p = le(p, tab[idx[c][i]] - 1, 4);
	for (i = 0; i < n; i++) {
		d = (int64_t)(pm->seq[i] - prev);
		z = (uint64_t)d << 1 ^ (uint64_t)(d >> 63);
		for (; z >= 128; z >>= 7)
			*p++ = (unsigned char)(z | 128);
		*p++ = (unsigned char)z;
		prev = pm->seq[i];
	}
	*len = (size_t)(p - buf);
	return buf;
}

/* The strings the points name, once each, in the order of their ids. */
static uint32_t *
strings(FILE *f, const struct rt_pointmap *pm)
{
	uint32_t nid = rt_str_count(), *tab = calloc(nid + 1, sizeof *tab), k = 0, id;
	const uint32_t *idx[3] = { pm->loc, pm->func, pm->region };
	size_t i, c;

	if (tab == NULL)
		return NULL;
	for (c = 0; c < 3; c++)
		for (i = 0; i < pm->n; i++)
			tab[idx[c][i]] = 1;
	fputs(",\"strings\":[", f);
	for (id = 0; id < nid; id++)
		if (tab[id]) {
			fputs(k ? "," : "", f);
			rt_json_str(f, rt_str(id));
			tab[id] = ++k;
		}
	fputs("]", f);
	return tab;
}

static void
layers(FILE *f, const struct rt_spiral_page *pg, const struct rt_spcolour *col)
{
	size_t k;

	fputs(",\"layers\":[", f);
	for (k = 0; k < col->nlay; k++) {
		fprintf(f, "%s[\"#%02x%02x%02x\",", k ? "," : "", col->lay[k].rgb[0],
		    col->lay[k].rgb[1], col->lay[k].rgb[2]);
		rt_json_str(f, pg->key == RT_SPKEY_LEGEND && k < pg->ncat ? pg->names[k] : "");
		fputs("]", f);
	}
	fputs("]", f);
}

int
rt_spiral_html(FILE *f, const struct rt_spiral_page *pg, const struct rt_spiral *s,
    const struct rt_coords *co, const struct rt_spcolour *col, size_t i0, size_t i1, double at)
{
	static const char *keys[] = { "none", "legend", "ramp", "turns" };
	const char *mark = strstr(page, "@DATA@");
	unsigned char *raw;
	uint32_t *tab;
	size_t len, c;
	int rc = RT_ENOMEM;

	fwrite(page, 1, (size_t)(mark - page), f);
	fprintf(f, "{\"w\":%g,\"h\":%g,\"box\":[%g,%g,%g],\"keyx\":%g,\"keyy\":%g,\"title\":",
	    pg->w, pg->h, s->x, s->y, s->w, pg->area.keyx, pg->area.y);
	rt_json_str(f, pg->title ? pg->title : "");
	fputs(",\"what\":", f);
	rt_json_str(f, pg->what);
	fprintf(f, ",\"key\":\"%s\",\"ramp\":[", keys[pg->key]);
	jnum(f, pg->lo);
	fputc(',', f);
	jnum(f, pg->hi);
	fputc(',', f);
	rt_json_str(f, pg->label ? pg->label : "");
	fprintf(f, "],\"circle\":%d,\"amble\":%g,\"radius\":\"%s\",\"from\":%zu,\"to\":%ld,"
	    "\"at\":%g,\"n\":%zu,\"nc\":%zu,\"lo\":%zu,\"hi\":%zu,\"classes\":[", s->circle,
	    s->amble, s->time ? "seq" : "index", s->from, s->to, at, co->pm.n, co->ncirc, i0, i1);
	for (c = 0; c < co->ncirc; c++) {
		fprintf(f, "%s[%zu,", c ? "," : "", co->circ[c].rank);
		jnum(f, co->circ[c].birth);
		fputc(',', f);
		jnum(f, co->circ[c].death);
		fputc(']', f);
	}
	fputc(']', f);
	layers(f, pg, col);
	if ((tab = strings(f, &co->pm)) == NULL)
		return RT_ENOMEM;
	if ((raw = pack(co, col->layer, tab, &len)) == NULL)
		goto out;
	rc = rt_page_data(f, raw, len, mark + 6);
out:
	free(tab);
	free(raw);
	return rc;
}
