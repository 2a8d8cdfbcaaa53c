/* svg.c: SVG out: the document, layers as paths, text. */
#include <math.h>
#include <stdio.h>

#include "draw.h"

void
rt_svg_head(FILE *f, double w, double h, const char *style)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n", w, h, w, h);
	if (style != NULL)
		fprintf(f, "<style>%s</style>\n", style);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void
rt_svg_end(FILE *f)
{
	fprintf(f, "</svg>\n");
}

/* Text for XML: the five characters that need it escaped. */
void
rt_svg_escape(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
}

/* One path per layer for the lines (pen up at NAN), one for the dots
 * (zero-length strokes with round caps, class "d"). */
void
rt_svg_layers(FILE *f, const struct rt_layer *lay, size_t n, const char *indent)
{
	const struct rt_poly *p;
	const unsigned char *c;
	size_t k, i;
	int pen;

	for (k = 0; k < n; k++) {
		p = &lay[k].line;
		c = lay[k].rgb;
		if (p->n == 0 && lay[k].dots.n == 0)
			continue;
		if (p->n) {
			fprintf(f, "%s<path stroke=\"#%02x%02x%02x\" d=\"", indent, c[0], c[1], c[2]);
			for (pen = 0, i = 0; i < p->n; i++) {
				if (isnan(p->xy[2 * i])) {
					pen = 0;
					continue;
				}
				fprintf(f, "%s%.1f %.1f", pen ? " " : "M", p->xy[2 * i], p->xy[2 * i + 1]);
				if (!pen)
					fputc('L', f);
				pen = 1;
			}
			fprintf(f, "\"/>\n");
		}
		p = &lay[k].dots;
		if (p->n) {
			fprintf(f, "%s<path class=\"d\" stroke=\"#%02x%02x%02x\" d=\"", indent,
			    c[0], c[1], c[2]);
			for (i = 0; i < p->n; i++)
				fprintf(f, "M%.1f %.1fh0", p->xy[2 * i], p->xy[2 * i + 1]);
			fprintf(f, "\"/>\n");
		}
	}
}
