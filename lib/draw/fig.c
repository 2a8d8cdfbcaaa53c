/* fig.c: a figure as a list of what it holds (text, boxes, lines, layers,
 * images), written the same to SVG (vector text, images as embedded PNG)
 * and to a PNG (the 6x10 font), so that every picture is laid out once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "reftrace.h"
#include "draw.h"

enum { F_TEXT, F_RECT, F_LINE, F_LAYERS, F_IMAGE };

struct item {
	int type, anchor, flags, hasfill, hasstroke;
	double x, y, w, h;
	uint32_t iw, ih;	/* an image's pixels, drawn w x h */
	unsigned char fill[3], stroke[3];
	char *text;
	char *tip;	/* an SVG <title>: what a viewer shows on hover */
	const struct rt_layer *lay;
	size_t nlay;
	const unsigned char *px;
	unsigned char *pal;	/* a copy */
	int npal;
};

struct rt_fig {
	double w, h;
	struct item *it;
	size_t n, cap;
	void **own;
	size_t nown, capown;
	int err;
};

struct rt_fig *
rt_fig_new(double w, double h)
{
	struct rt_fig *f = calloc(1, sizeof *f);

	if (f != NULL) {
		f->w = w;
		f->h = h;
	}
	return f;
}

void
rt_fig_free(struct rt_fig *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->it[i].text);
		free(f->it[i].tip);
		free(f->it[i].pal);
	}
	for (i = 0; i < f->nown; i++)
		free(f->own[i]);
	free(f->own);
	free(f->it);
	free(f);
}

/* Memory the figure frees with itself (an image's pixels). */
void
rt_fig_own(struct rt_fig *f, void *p)
{
	if (rt_grow(&f->own, &f->capown, f->nown + 1, sizeof *f->own)) {
		f->err = 1;
		free(p);
		return;
	}
	f->own[f->nown++] = p;
}

/* A tooltip for the item last added (SVG only): what a bar stands for,
 * to read on hover, and for a test to find the item by. */
void
rt_fig_tip(struct rt_fig *f, const char *s)
{
	if (f->err || f->n == 0)
		return;
	free(f->it[f->n - 1].tip);
	if ((f->it[f->n - 1].tip = strdup(s)) == NULL)
		f->err = 1;
}

int
rt_fig_failed(const struct rt_fig *f)
{
	return f->err;
}

static struct item *
add(struct rt_fig *f, int type)
{
	struct item *it;

	if (f->err || rt_grow(&f->it, &f->cap, f->n + 1, sizeof *f->it)) {
		f->err = 1;
		return NULL;
	}
	it = &f->it[f->n++];
	memset(it, 0, sizeof *it);
	it->type = type;
	return it;
}

void
rt_fig_text(struct rt_fig *f, double x, double y, int anchor, int flags,
    const unsigned char rgb[3], const char *s)
{
	struct item *it = add(f, F_TEXT);

	if (it == NULL)
		return;
	if ((it->text = strdup(s)) == NULL) {
		f->n--;
		f->err = 1;
		return;
	}
	it->x = x, it->y = y, it->anchor = anchor, it->flags = flags;
	memcpy(it->fill, rgb, 3);
}

void
rt_fig_rect(struct rt_fig *f, double x, double y, double w, double h,
    const unsigned char *fill, const unsigned char *stroke)
{
	struct item *it = add(f, F_RECT);

	if (it == NULL)
		return;
	it->x = x, it->y = y, it->w = w, it->h = h;
	if ((it->hasfill = fill != NULL))
		memcpy(it->fill, fill, 3);
	if ((it->hasstroke = stroke != NULL))
		memcpy(it->stroke, stroke, 3);
}

void
rt_fig_line(struct rt_fig *f, double x0, double y0, double x1, double y1,
    const unsigned char rgb[3])
{
	struct item *it = add(f, F_LINE);

	if (it == NULL)
		return;
	it->x = x0, it->y = y0, it->w = x1, it->h = y1;
	memcpy(it->stroke, rgb, 3);
}

void
rt_fig_layers(struct rt_fig *f, const struct rt_layer *lay, size_t n)
{
	struct item *it = add(f, F_LAYERS);

	if (it != NULL)
		it->lay = lay, it->nlay = n;
}

void
rt_fig_image(struct rt_fig *f, double x, double y, uint32_t iw, uint32_t ih, double w,
    double h, const unsigned char *px, const unsigned char *pal, int npal)
{
	struct item *it = add(f, F_IMAGE);

	if (it == NULL)
		return;
	if (npal < 1 || npal > 256 || (it->pal = malloc(3 * (size_t)npal)) == NULL) {
		f->n--;
		f->err = 1;
		return;
	}
	memcpy(it->pal, pal, 3 * (size_t)npal);
	it->x = x, it->y = y, it->w = w, it->h = h, it->iw = iw, it->ih = ih;
	it->px = px, it->npal = npal;
}

double
rt_text_width(const char *s)
{
	return RT_CHARW * (double)strlen(s);
}

/* A JSON string that may sit in a <script>: no "<" to end it early. */
void
rt_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == '<' || *s == '>' || *s == '&')
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	fputc('"', f);
}

static void base64(FILE *f, const unsigned char *p, size_t n);

/* The end of a page's data: its packed bytes deflated, in base64, as
 * its "data" member; then the rest of the page. */
int
rt_page_data(FILE *f, const unsigned char *raw, size_t len, const char *rest)
{
	uLongf zlen = compressBound(len);
	unsigned char *z = malloc(zlen);

	if (z == NULL || compress2(z, &zlen, raw, len, 6) != Z_OK) {
		free(z);
		return RT_ENOMEM;
	}
	fputs(",\"data\":\"", f);
	base64(f, z, zlen);
	fputs("\"}", f);
	fputs(rest, f);
	free(z);
	return ferror(f) ? RT_EIO : 0;
}

/* SVG */

static void
base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4096];
	size_t i, k = 0;
	unsigned long v;

	for (i = 0; i + 2 < n; i += 3) {
		v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 | p[i + 2];
		buf[k++] = b64[v >> 18], buf[k++] = b64[v >> 12 & 63];
		buf[k++] = b64[v >> 6 & 63], buf[k++] = b64[v & 63];
		if (k == sizeof buf)
			fwrite(buf, 1, k, f), k = 0;
	}
	fwrite(buf, 1, k, f);
	if (n - i == 1)
		fprintf(f, "%c%c==", b64[p[i] >> 2], b64[(p[i] & 3) << 4]);
	else if (n - i == 2) {
		v = (unsigned long)p[i] << 8 | p[i + 1];
		fprintf(f, "%c%c%c=", b64[v >> 10], b64[v >> 4 & 63], b64[(v & 15) << 2]);
	}
}

/* An image as an embedded PNG, its pixels repeated to about the size it
 * is drawn at: renderers that smooth a scaled image (rsvg) then blur only
 * the edges of a cell, not the whole of it. */
static int
svgimage(FILE *f, const struct item *it)
{
	char *buf = NULL;
	size_t len = 0, y, x, kx = (size_t)(it->w / it->iw + 0.5), ky = (size_t)(it->h / it->ih + 0.5);
	FILE *m = open_memstream(&buf, &len);
	unsigned char *row = NULL;
	struct rt_png *p;
	int e = m == NULL;

	if (kx < 1 || (double)kx * it->iw * ky * it->ih > 1 << 24)
		kx = 1;
	if (ky < 1 || (double)kx * it->iw * ky * it->ih > 1 << 24)
		ky = 1;
	if (!e && (row = malloc(kx * it->iw)) != NULL &&
	    (p = rt_png_open(m, (uint32_t)(kx * it->iw), (uint32_t)(ky * it->ih), it->pal,
	    it->npal)) != NULL) {
		for (y = 0; y < ky * it->ih; y++) {
			for (x = 0; x < kx * it->iw; x++)
				row[x] = it->px[y / ky * it->iw + x / kx];
			e |= rt_png_row(p, row);
		}
		e |= rt_png_close(p);
	} else
		e = 1;
	if (m != NULL && fclose(m))
		e = 1;
	if (!e) {
		fprintf(f, "<image x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "style=\"image-rendering:pixelated\" preserveAspectRatio=\"none\" "
		    "href=\"data:image/png;base64,", it->x, it->y, it->w, it->h);
		base64(f, (unsigned char *)buf, len);
		fprintf(f, "\"/>\n");
	}
	free(row);
	free(buf);
	return e ? -1 : 0;
}

static void
colour(FILE *f, const char *attr, const unsigned char c[3])
{
	fprintf(f, " %s=\"#%02x%02x%02x\"", attr, c[0], c[1], c[2]);
}

/* The end of an empty element, or its tooltip and end tag. */
static void
endtag(FILE *f, const struct item *it, const char *tag)
{
	if (it->tip == NULL) {
		fprintf(f, "/>\n");
		return;
	}
	fprintf(f, "><title>");
	rt_svg_escape(f, it->tip);
	fprintf(f, "</title></%s>\n", tag);
}

int
rt_fig_svg(const struct rt_fig *fig, FILE *f, const char *style, const char *desc)
{
	int e;

	rt_svg_head(f, fig->w, fig->h, style);
	if (desc != NULL) {
		fprintf(f, "<desc>");
		rt_svg_escape(f, desc);
		fprintf(f, "</desc>\n");
	}
	e = rt_fig_svg_body(fig, f);
	rt_svg_end(f);
	return e || ferror(f) ? RT_EIO : 0;
}

/* The items alone, for a document that adds its own (an animation). */
int
rt_fig_svg_body(const struct rt_fig *fig, FILE *f)
{
	static const char *anchor[] = { "start", "middle", "end" };
	const struct item *it;
	size_t i;
	int e = fig->err;

	for (i = 0; i < fig->n; i++) {
		it = &fig->it[i];
		switch (it->type) {
		case F_TEXT:
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"DejaVu Sans Mono,monospace\" "
			    "font-size=\"10\" text-anchor=\"%s\"", it->x, it->y, anchor[it->anchor]);
			if (it->flags & RT_BOLD)
				fprintf(f, " font-weight=\"bold\"");
			if (it->flags & RT_UP)
				fprintf(f, " transform=\"rotate(-90 %.1f %.1f)\"", it->x, it->y);
			colour(f, "fill", it->fill);
			fprintf(f, ">");
			rt_svg_escape(f, it->text);
			fprintf(f, "</text>\n");
			break;
		case F_RECT:
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			    it->x, it->y, it->w, it->h);
			if (it->hasfill)
				colour(f, "fill", it->fill);
			else
				fprintf(f, " fill=\"none\"");
			if (it->hasstroke)
				colour(f, "stroke", it->stroke);
			endtag(f, it, "rect");
			break;
		case F_LINE:
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"",
			    it->x, it->y, it->w, it->h);
			colour(f, "stroke", it->stroke);
			endtag(f, it, "line");
			break;
		case F_LAYERS:
			rt_svg_layers(f, it->lay, it->nlay, "");
			break;
		case F_IMAGE:
			e |= svgimage(f, it);
			break;
		}
	}
	return e ? RT_EIO : 0;
}

/* PNG: the canvas's palette takes the colours as they come. */

static void
rasterise(struct rt_canvas *c, const struct item *it)
{
	int ink, *map, k;
	size_t i;
	uint32_t x, y;

	switch (it->type) {
	case F_TEXT:
		ink = rt_canvas_colour(c, it->fill);
		rt_canvas_text(c, it->x, it->y, it->anchor, it->flags, it->text, ink);
		break;
	case F_RECT:
		if (it->hasfill)
			rt_canvas_box(c, it->x, it->y, (int)(it->w + 0.5), (int)(it->h + 0.5),
			    rt_canvas_colour(c, it->fill));
		if (it->hasstroke) {
			ink = rt_canvas_colour(c, it->stroke);
			rt_canvas_box(c, it->x, it->y, (int)(it->w + 0.5), 1, ink);
			rt_canvas_box(c, it->x, it->y + it->h, (int)(it->w + 0.5) + 1, 1, ink);
			rt_canvas_box(c, it->x, it->y, 1, (int)(it->h + 0.5), ink);
			rt_canvas_box(c, it->x + it->w, it->y, 1, (int)(it->h + 0.5), ink);
		}
		break;
	case F_LINE:
		rt_canvas_segment(c, it->x, it->y, it->w, it->h, rt_canvas_colour(c, it->stroke));
		break;
	case F_LAYERS:
		if ((map = malloc((it->nlay + 1) * sizeof *map)) == NULL)
			break;
		for (i = 0; i < it->nlay; i++)
			map[i] = rt_canvas_colour(c, it->lay[i].rgb);
		rt_canvas_layers(c, it->lay, it->nlay, map);
		free(map);
		break;
	case F_IMAGE:
		if ((map = malloc(256 * sizeof *map)) == NULL)
			break;
		for (k = 0; k < it->npal && k < 256; k++)
			map[k] = rt_canvas_colour(c, it->pal + 3 * k);
		/* nearest neighbour, each pixel of the picture from one of the image */
		for (y = 0; y < (uint32_t)(it->h + 0.5); y++)
			for (x = 0; x < (uint32_t)(it->w + 0.5); x++) {
				size_t sy = (size_t)((double)y * it->ih / it->h);
				size_t sx = (size_t)((double)x * it->iw / it->w);

				if (sy >= it->ih || sx >= it->iw)
					continue;
				k = it->px[sy * it->iw + sx];
				if (k < it->npal)
					rt_canvas_point(c, it->x + x, it->y + y, map[k]);
			}
		free(map);
		break;
	}
}

int
rt_fig_png(const struct rt_fig *fig, FILE *f)
{
	struct rt_canvas c;
	size_t i;
	int e;

	if (fig->err || rt_canvas_init(&c, (uint32_t)(fig->w + 0.5), (uint32_t)(fig->h + 0.5)))
		return RT_ENOMEM;
	for (i = 0; i < fig->n; i++)
		rasterise(&c, &fig->it[i]);
	e = rt_canvas_png(&c, f);
	rt_canvas_free(&c);
	return e;
}
