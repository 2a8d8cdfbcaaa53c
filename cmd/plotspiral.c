/* plotspiral: spiral and circular plots of circular coordinates, SVG or PNG. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "draw.h"
#include "util.h"

enum { C_LINE, C_FUNC, C_REGION, C_TIME, C_THETA };
enum { M_SPIRAL, M_CIRCLE };

static int Oflag = -1, cflag = C_LINE, mflag = M_SPIRAL, seqradius, nolegend, animate;
static int kclass = 1, ctheta, mj, mk, frames;
static size_t npre, npost;	/* the last build's pre- and post-amble */
static double at = -1, amble = 0.05, width = 800, height = 800, margin = 40;
static const char *oflag, *title;

/* the points: time, angles per column, category */
static size_t n, ntheta;
static double *theta;		/* n * ntheta, turns, NAN unknown */
static uint64_t *seq;
static uint32_t *cat;		/* category per point (line, func or region) */
static const char **catname;
static size_t ncat, capcat;
static size_t *catcount;

#define NPAL 20
static const unsigned char pal[NPAL][3] = {	/* Tableau 20 */
	{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
	{148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
	{188, 189, 34}, {23, 190, 207}, {174, 199, 232}, {255, 187, 120},
	{152, 223, 138}, {255, 152, 150}, {197, 176, 213}, {196, 156, 148},
	{247, 182, 210}, {199, 199, 199}, {219, 219, 141}, {158, 218, 229}
};
#define NRAMP 64		/* continuous maps are cut into this many colours */

enum { O_AMBLE = U_LONG, O_ANIMATE, O_AT, O_COLOUR, O_FRAMES, O_MARGIN, O_MODE,
    O_MORPH, O_NOLEGEND, O_RADIUS, O_SIZE, O_THETA, O_TITLE };
static const struct u_opt opts[] = {
	{ 'O', "output-format", "format", "svg or png (png when -o names a .png)" },
	U_OPT_OUTPUT,
	{ O_AMBLE, "amble", "turns", "circle: how near the ends stay before and after (0.05)" },
	{ O_ANIMATE, "animate", NULL, "an animated SVG of the morph" },
	{ O_AT, "at", "t", "the morph at this fraction, 0 to 1" },
	{ O_COLOUR, "colour", "by", "line, func, region, time or thetaK (line)" },
	{ O_FRAMES, "frames", "n", "the morph as n pictures (-o names them)" },
	{ O_MARGIN, "margin", "px", "space around the plot (40)" },
	{ O_MODE, "mode", "mode", "spiral (time outwards) or circle" },
	{ O_MORPH, "morph", "j,k", "from theta column j to column k" },
	{ O_NOLEGEND, "no-legend", NULL, "no legend" },
	{ O_RADIUS, "radius", "by", "index (point number) or seq (time in the trace)" },
	{ O_SIZE, "size", "WxH", "the picture's size in pixels (800x800)" },
	{ O_THETA, "theta", "k", "draw theta column k (1)" },
	{ O_TITLE, "title", "text", "a title above the plot" },
	{ 0 }
};
static const struct u_prog prog = { "plotspiral", "[file]", opts, NULL };

/* Categories in order of appearance: the text goes through the suite's
 * string table, whose ids index a map to the category. */
static uint32_t *catof;		/* string id + 1 -> category + 1 */
static size_t ncatof;

static uint32_t
category(const char *s)
{
	uint32_t id = rt_str_intern(s, strlen(s));
	size_t old = ncatof;

	if (id >= ncatof) {
		ncatof = 2 * (size_t)id + 64;
		if ((catof = realloc(catof, ncatof * sizeof *catof)) == NULL)
			u_die(1, "out of memory");
		memset(catof + old, 0, (ncatof - old) * sizeof *catof);
	}
	if (catof[id])
		return catof[id] - 1;
	if (ncat == capcat) {
		capcat = capcat ? 2 * capcat : 32;
		if ((catname = realloc(catname, capcat * sizeof *catname)) == NULL ||
		    (catcount = realloc(catcount, capcat * sizeof *catcount)) == NULL)
			u_die(1, "out of memory");
	}
	catname[ncat] = (char *)rt_str(id);
	catcount[ncat] = 0;
	catof[id] = (uint32_t)++ncat;
	return (uint32_t)ncat - 1;
}

static void
readcoords(const char *path)
{
	char ebuf[1024], *s, *f[64], *p;
	struct rt_reader *r;
	size_t len, cap = 0, k;
	int nf, intable = 0, seen = 0, col, radians = 0;
	double v;

	if ((r = rt_ropen(path, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	while ((s = rt_rgetline(r, &len)) != NULL) {
		if (!seen) {
			if (strncmp(s, "#reftrace coordinates 1", 23) != 0)
				u_die(1, "%s", rt_rbad(r, "not a coordinates stream "
				    "(want '#reftrace coordinates 1', as circcoord writes)"));
			seen = 1;
			continue;
		}
		if (strncmp(s, "#reftrace theta 1 ", 18) == 0) {
			intable = 1;
			nf = 0;
			for (p = strtok(s + 18, " \t"); p && nf < 64; p = strtok(NULL, " \t"))
				f[nf++] = p;
			ntheta = nf > 6 ? (size_t)nf - 6 : 0;
			if (ntheta == 0)
				u_die(1, "%s", rt_rbad(r, "no theta columns"));
			continue;
		}
		if (strncmp(s, "#reftrace ", 10) == 0) {
			intable = 0;
			continue;
		}
		if (strcmp(s, "# circcoord units=radians") == 0)
			radians = 1;
		if (*s == '#' || !intable)
			continue;
		nf = 0;
		for (p = strtok(s, " \t"); p && nf < 64; p = strtok(NULL, " \t"))
			f[nf++] = p;
		if ((size_t)nf != 6 + ntheta)
			u_die(1, "%s", rt_rbad(r, "%d columns, want %zu", nf, 6 + ntheta));
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((theta = realloc(theta, cap * ntheta * sizeof *theta)) == NULL ||
			    (seq = realloc(seq, cap * sizeof *seq)) == NULL ||
			    (cat = realloc(cat, cap * sizeof *cat)) == NULL)
				u_die(1, "out of memory");
		}
		if (rt_parse_u64(f[2], &seq[n]))
			u_die(1, "%s", rt_rbad(r, "bad seq"));
		for (k = 0; k < ntheta; k++) {
			if (strcmp(f[6 + k], "nan") == 0)
				v = NAN;
			else if (rt_parse_double(f[6 + k], &v) || !isfinite(v))
				u_die(1, "%s", rt_rbad(r, "bad theta"));
			theta[n * ntheta + k] = v;
		}
		col = cflag == C_FUNC ? 4 : cflag == C_REGION ? 5 : 3;
		cat[n] = category(f[col]);
		n++;
	}
	if (*rt_rerror(r))
		u_die(1, "%s", rt_rerror(r));
	if (!seen)
		u_die(1, "%s: empty: not a coordinates stream", rt_rpath(r));
	if (n == 0)
		u_die(1, "%s: no points", rt_rpath(r));
	rt_rclose(r);
	for (k = 0; radians && k < n * ntheta; k++)	/* turns here */
		theta[k] /= 2 * M_PI;
}

static double
wrap(double d)		/* to (-1/2, 1/2] */
{
	return d - ceil(d - 0.5);
}

/* The picture as primitives: per colour, polylines and dots. */
struct poly { double *xy; size_t n, cap; };
struct layer { struct poly line; struct poly dots; };
static struct layer *lay;
static size_t nlay;

static void
put(struct poly *p, double x, double y)
{
	if (p->n + 1 > p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		if ((p->xy = realloc(p->xy, 2 * p->cap * sizeof *p->xy)) == NULL)
			u_die(1, "out of memory");
	}
	p->xy[2 * p->n] = x;
	p->xy[2 * p->n++ + 1] = y;
}

#define BREAK NAN		/* a pen-up between polylines */

static size_t
colourof(size_t i, const double *th)
{
	double t;

	switch (cflag) {
	case C_TIME:
		return (size_t)((double)i / (double)(n > 1 ? n - 1 : 1) * (NRAMP - 1));
	case C_THETA:
		t = th[i * ntheta + ctheta - 1];
		return isnan(t) ? 0 : (size_t)((t - floor(t)) * NRAMP) % NRAMP;
	default:
		return cat[i];
	}
}

static void
rampcolour(size_t k, unsigned char rgb[3])
{
	/* time: a viridis-like ramp; theta: a cyclic hue wheel */
	static const unsigned char vir[5][3] = {
		{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}
	};
	double t = (double)k / (NRAMP - 1), u;
	int i, c;

	if (cflag == C_TIME) {
		u = t * 4;
		i = u >= 4 ? 3 : (int)u;
		for (c = 0; c < 3; c++)
			rgb[c] = (unsigned char)(vir[i][c] + (u - i) * (vir[i + 1][c] - vir[i][c]));
		return;
	}
	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(127.5 + 127.5 * cos(2 * M_PI * ((double)k / NRAMP - c / 3.0)));
}

static void
colour(size_t k, unsigned char rgb[3])
{
	if (cflag == C_TIME || cflag == C_THETA)
		rampcolour(k, rgb);
	else
		memcpy(rgb, pal[k % NPAL], 3);
}

/* The angle of point i in turns at morph fraction t. */
static double
angle(size_t i, double t)
{
	double a = theta[i * ntheta + mj - 1], b;

	if (mk == 0 || t <= 0)
		return a;
	b = theta[i * ntheta + mk - 1];
	return a + t * wrap(b - a);
}

static void
build(double t)
{
	double cx = margin + (width - 2 * margin) / 2, cy = margin + (height - 2 * margin) / 2;
	double R = ((width < height ? width : height) - 2 * margin) / 2, *rad, tmin, tmax;
	double a0, a1, r0, r1, d, first = NAN, last = NAN;
	size_t i, k, steps, c, pre = 0, post = 0, prev = SIZE_MAX;

	for (i = 0; i < nlay; i++)
		lay[i].line.n = lay[i].dots.n = 0;
	if ((rad = malloc(n * sizeof *rad)) == NULL)
		u_die(1, "out of memory");
	tmin = seqradius ? (double)seq[0] : 0;
	tmax = seqradius ? (double)seq[n - 1] : (double)(n - 1);
	if (mflag == M_CIRCLE) {
		/* pre- and post-amble: from either end while theta stays near it */
		for (i = 0; i < n && isnan(first); i++)
			first = angle(i, t);
		for (i = n; i-- > 0 && isnan(last);)
			last = angle(i, t);
		while (pre < n && (isnan(angle(pre, t)) || fabs(wrap(angle(pre, t) - first)) < amble))
			pre++;
		while (post < n - pre && (isnan(angle(n - 1 - post, t)) ||
		    fabs(wrap(angle(n - 1 - post, t) - last)) < amble))
			post++;
	}
	for (i = 0; i < n; i++) {
		double time = seqradius ? (double)seq[i] : (double)i;
		double f = tmax > tmin ? (time - tmin) / (tmax - tmin) : 0;

		if (mflag == M_SPIRAL)
			rad[i] = R * (0.08 + 0.92 * f);
		else if (i < pre)	/* inside, rising to the circle */
			rad[i] = R * (0.15 + 0.45 * (double)i / (double)(pre ? pre : 1));
		else if (i >= n - post)	/* outside, rising away from it */
			rad[i] = R * (0.6 + 0.4 * (double)(i - (n - post) + 1) / (double)post);
		else
			rad[i] = R * 0.6;
	}
	for (i = 0; i < n; i++) {
		a1 = angle(i, t);
		if (isnan(a1)) {
			prev = SIZE_MAX;
			continue;
		}
		c = colourof(i, theta);
		put(&lay[c].dots, cx + rad[i] * cos(2 * M_PI * a1), cy - rad[i] * sin(2 * M_PI * a1));
		if (prev != SIZE_MAX) {
			/* the arc from prev, in polar coordinates, the shorter way */
			struct poly *p = &lay[colourof(prev, theta)].line;

			a0 = angle(prev, t);
			r0 = rad[prev];
			r1 = rad[i];
			d = wrap(a1 - a0);
			steps = (size_t)ceil(fabs(d) * 48) + 1;
			put(p, BREAK, BREAK);
			for (k = 0; k <= steps; k++) {
				double u = (double)k / (double)steps, a = a0 + u * d;
				double r = r0 + u * (r1 - r0);

				put(p, cx + r * cos(2 * M_PI * a), cy - r * sin(2 * M_PI * a));
			}
		}
		prev = i;
	}
	npre = pre;
	npost = post;
	free(rad);
}

/* SVG: one path per colour for the arcs, one for the dots. */
static void
svgpaths(FILE *f, const char *indent)
{
	unsigned char rgb[3];
	size_t c, i;
	int pen;

	for (c = 0; c < nlay; c++) {
		struct poly *p = &lay[c].line;

		if (p->n == 0 && lay[c].dots.n == 0)
			continue;
		colour(c, rgb);
		if (p->n) {
			fprintf(f, "%s<path stroke=\"#%02x%02x%02x\" d=\"", indent, rgb[0], rgb[1], rgb[2]);
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
		p = &lay[c].dots;
		if (p->n) {
			fprintf(f, "%s<path class=\"d\" stroke=\"#%02x%02x%02x\" d=\"", indent,
			    rgb[0], rgb[1], rgb[2]);
			for (i = 0; i < p->n; i++)
				fprintf(f, "M%.1f %.1fh0", p->xy[2 * i], p->xy[2 * i + 1]);
			fprintf(f, "\"/>\n");
		}
	}
}

static void
xmltext(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static size_t
legendrows(void)
{
	if (nolegend || cflag == C_TIME || cflag == C_THETA)
		return 0;
	return ncat > NPAL ? NPAL : ncat;
}

static void
svglegend(FILE *f)
{
	unsigned char rgb[3];
	size_t i, rows = legendrows();

	if (title != NULL) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"16\">",
		    width / 2, margin * 0.6);
		xmltext(f, title);
		fprintf(f, "</text>\n");
	}
	if (rows == 0)
		return;
	fprintf(f, "<g font-size=\"11\">\n");
	for (i = 0; i < rows; i++) {
		colour(i, rgb);
		fprintf(f, "<rect x=\"8\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#%02x%02x%02x\"/>"
		    "<text x=\"22\" y=\"%.1f\">", margin + 14.0 * i, rgb[0], rgb[1], rgb[2],
		    margin + 14.0 * i + 9);
		xmltext(f, catname[i]);
		fprintf(f, " (%zu)</text>\n", catcount[i]);
	}
	if (ncat > NPAL)
		fprintf(f, "<text x=\"8\" y=\"%.1f\">%zu more (colours repeat)</text>\n",
		    margin + 14.0 * rows + 9, ncat - NPAL);
	fprintf(f, "</g>\n");
}

static void
svghead(FILE *f)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
	    "<style>path{fill:none;stroke-width:0.8;stroke-linejoin:round}"
	    "path.d{stroke-width:3.5;stroke-linecap:round}</style>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	    width, height, width, height);
}

static void
svg(FILE *f)
{
	svghead(f);
	fprintf(f, "<desc>plotspiral: %zu points, %s", n, mflag == M_SPIRAL ? "spiral" : "circle");
	if (mflag == M_CIRCLE)
		fprintf(f, ", pre-amble %zu points, post-amble %zu points", npre, npost);
	fprintf(f, "</desc>\n");
	svglegend(f);
	svgpaths(f, "");
	fprintf(f, "</svg>\n");
}

/* An animated SVG: the frames shown in turn, 0.15 s each, looping; a
 * renderer without animation shows the first. */
static void
svganim(FILE *f, int nfr)
{
	int k, m = nfr + 1;

	svghead(f);
	svglegend(f);
	for (k = 0; k < m; k++) {
		build((double)k / nfr);
		fprintf(f, "<g visibility=\"%s\"><animate attributeName=\"visibility\" "
		    "calcMode=\"discrete\" dur=\"%.2fs\" repeatCount=\"indefinite\" ",
		    k ? "hidden" : "visible", 0.15 * m);
		if (k == 0)
			fprintf(f, "values=\"visible;hidden\" keyTimes=\"0;%.6f\"/>\n", 1.0 / m);
		else if (k == m - 1)
			fprintf(f, "values=\"hidden;visible\" keyTimes=\"0;%.6f\"/>\n", (double)k / m);
		else
			fprintf(f, "values=\"hidden;visible;hidden\" keyTimes=\"0;%.6f;%.6f\"/>\n",
			    (double)k / m, (double)(k + 1) / m);
		svgpaths(f, " ");
		fprintf(f, "</g>\n");
	}
	fprintf(f, "</svg>\n");
}

/* PNG: the same primitives rasterised; text with a 3x5 font, doubled. */
static unsigned char *img;
static uint32_t iw, ih;

static void
pix(double x, double y, unsigned char c)
{
	long px = lround(x), py = lround(y);

	if (px >= 0 && py >= 0 && px < (long)iw && py < (long)ih)
		img[(size_t)py * iw + (size_t)px] = c;
}

static void
segment(double x0, double y0, double x1, double y1, unsigned char c)
{
	double dx = x1 - x0, dy = y1 - y0, len = fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
	long k, steps = (long)ceil(len);

	for (k = 0; k <= steps; k++) {
		double u = steps ? (double)k / (double)steps : 0;

		pix(x0 + u * dx, y0 + u * dy, c);
	}
}

static void
dot(double x, double y, unsigned char c)
{
	int i, j;

	for (i = -2; i <= 2; i++)
		for (j = -2; j <= 2; j++)
			if (i * i + j * j <= 4)
				pix(x + i, y + j, c);
}

/* 3x5 glyphs, rows top down, bit 2 the left column */
static const char glyphs[] = "0123456789abcdefghijklmnopqrstuvwxyz.:-_/()+=%#";
static const unsigned char font[][5] = {
	{7,5,5,5,7},{2,6,2,2,7},{7,1,7,4,7},{7,1,7,1,7},{5,5,7,1,1},{7,4,7,1,7},
	{7,4,7,5,7},{7,1,1,2,2},{7,5,7,5,7},{7,5,7,1,7},
	{2,5,7,5,5},{6,5,6,5,6},{3,4,4,4,3},{6,5,5,5,6},{7,4,6,4,7},{7,4,6,4,4},
	{3,4,5,5,3},{5,5,7,5,5},{7,2,2,2,7},{1,1,1,5,2},{5,5,6,5,5},{4,4,4,4,7},
	{5,7,7,5,5},{6,5,5,5,5},{2,5,5,5,2},{6,5,6,4,4},{2,5,5,6,3},{6,5,6,5,5},
	{3,4,2,1,6},{7,2,2,2,2},{5,5,5,5,7},{5,5,5,5,2},{5,5,7,7,5},{5,5,2,5,5},
	{5,5,2,2,2},{7,1,2,4,7},
	{0,0,0,0,2},{0,2,0,2,0},{0,0,7,0,0},{0,0,0,0,7},{1,1,2,4,4},{1,2,2,2,1},
	{4,2,2,2,4},{0,2,7,2,0},{0,7,0,7,0},{5,1,2,4,5},{5,7,5,7,5}
};

static void
text(double x, double y, const char *s, unsigned char c)
{
	const char *g;
	int r, b;

	for (; *s; s++, x += 8) {
		int ch = *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s;

		if ((g = strchr(glyphs, ch)) == NULL || ch == 0)
			continue;
		for (r = 0; r < 5; r++)
			for (b = 0; b < 3; b++)
				if (font[g - glyphs][r] & (4 >> b)) {
					pix(x + 2 * b, y + 2 * r, c);
					pix(x + 2 * b + 1, y + 2 * r, c);
					pix(x + 2 * b, y + 2 * r + 1, c);
					pix(x + 2 * b + 1, y + 2 * r + 1, c);
				}
	}
}

static int
png(FILE *f)
{
	unsigned char palette[3 * 256], rgb[3];
	size_t c, i, rows = legendrows(), ncol = cflag == C_TIME || cflag == C_THETA ? NRAMP :
	    (ncat < NPAL ? ncat : NPAL);
	char buf[300];
	struct rt_png *p;
	uint32_t y;

	iw = (uint32_t)width;
	ih = (uint32_t)height;
	if ((img = calloc((size_t)iw * ih, 1)) == NULL)
		u_die(1, "out of memory");
	memset(palette, 255, 3);	/* 0 white */
	memset(palette + 3, 0, 3);	/* 1 black */
	for (c = 0; c < ncol; c++) {
		colour(c, rgb);
		memcpy(palette + 3 * (c + 2), rgb, 3);
	}
	for (c = 0; c < nlay; c++) {
		struct poly *q = &lay[c].line;
		unsigned char ci = (unsigned char)(2 + (cflag == C_TIME || cflag == C_THETA ? c : c % NPAL));

		for (i = 1; i < q->n; i++)
			if (!isnan(q->xy[2 * i]) && !isnan(q->xy[2 * i - 2]))
				segment(q->xy[2 * i - 2], q->xy[2 * i - 1], q->xy[2 * i], q->xy[2 * i + 1], ci);
	}
	for (c = 0; c < nlay; c++) {
		struct poly *q = &lay[c].dots;
		unsigned char ci = (unsigned char)(2 + (cflag == C_TIME || cflag == C_THETA ? c : c % NPAL));

		for (i = 0; i < q->n; i++)
			dot(q->xy[2 * i], q->xy[2 * i + 1], ci);
	}
	if (title != NULL)
		text(width / 2 - 4.0 * strlen(title), margin * 0.3, title, 1);
	for (i = 0; i < rows; i++) {
		int a, b;

		for (a = 0; a < 10; a++)
			for (b = 0; b < 10; b++)
				pix(8 + a, margin + 14.0 * i + b, (unsigned char)(2 + i));
		snprintf(buf, sizeof buf, "%s (%zu)", catname[i], catcount[i]);
		text(22, margin + 14.0 * i, buf, 1);
	}
	if ((p = rt_png_open(f, iw, ih, palette, (int)ncol + 2)) == NULL)
		return -1;
	for (y = 0; y < ih; y++)
		if (rt_png_row(p, img + (size_t)y * iw))
			break;
	free(img);
	return rt_png_close(p);
}

static FILE *
openout(const char *name)
{
	return u_open(name);
}

static void
closeout(FILE *f, const char *name)
{
	if (u_close(f, name))
		exit(1);
}

static void
draw(const char *name)
{
	FILE *f = openout(name);

	if (Oflag == 1) {
		if (png(f))
			u_die(1, "%s: cannot write the PNG", name ? name : "<stdout>");
	} else
		svg(f);
	closeout(f, name);
}

int
main(int argc, char *argv[])
{
	char name[4096], *end;
	size_t i, len;
	int ch, k;
	long v;

	while ((ch = u_getopt(argc, argv, &prog)) != -1) {
		switch (ch) {
		case O_AMBLE:
			if (rt_parse_double(optarg, &amble) || amble < 0 || amble > 0.5)
				u_bad("--amble %s: want turns in [0, 0.5]", optarg);
			break;
		case O_ANIMATE: animate = 1; break;
		case O_COLOUR:
			if (strcmp(optarg, "line") == 0)
				cflag = C_LINE;
			else if (strcmp(optarg, "func") == 0)
				cflag = C_FUNC;
			else if (strcmp(optarg, "region") == 0)
				cflag = C_REGION;
			else if (strcmp(optarg, "time") == 0)
				cflag = C_TIME;
			else if (strncmp(optarg, "theta", 5) == 0 &&
			    (v = strtol(optarg + 5, &end, 10)) > 0 && *end == '\0') {
				cflag = C_THETA;
				ctheta = (int)v;
			} else
				u_bad("--colour %s: want line, func, region, time or thetaK", optarg);
			break;
		case O_FRAMES:
			if ((v = strtol(optarg, &end, 10)) < 1 || v > 10000 || *end)
				u_bad("--frames %s: want 1 to 10000", optarg);
			frames = (int)v;
			break;
		case O_SIZE:
			if (sscanf(optarg, "%lfx%lf", &width, &height) != 2 ||
			    width < 50 || height < 50 || width > 20000 || height > 20000)
				u_bad("--size %s: want WxH, 50 to 20000 pixels", optarg);
			break;
		case O_THETA:
			if ((v = strtol(optarg, &end, 10)) < 1 || *end)
				u_bad("--theta %s: want a theta column, 1 or more", optarg);
			kclass = (int)v;
			break;
		case O_NOLEGEND: nolegend = 1; break;
		case O_MODE:
			if (strcmp(optarg, "spiral") == 0)
				mflag = M_SPIRAL;
			else if (strcmp(optarg, "circle") == 0)
				mflag = M_CIRCLE;
			else
				u_bad("--mode %s: want spiral or circle", optarg);
			break;
		case O_MARGIN:
			if (rt_parse_double(optarg, &margin) || margin < 0)
				u_bad("--margin %s: bad margin", optarg);
			break;
		case 'O':
			if (strcmp(optarg, "svg") == 0)
				Oflag = 0;
			else if (strcmp(optarg, "png") == 0)
				Oflag = 1;
			else
				u_bad("-O %s: want svg or png", optarg);
			break;
		case 'o': oflag = optarg; break;
		case O_RADIUS:
			if (strcmp(optarg, "seq") == 0)
				seqradius = 1;
			else if (strcmp(optarg, "index") == 0)
				seqradius = 0;
			else
				u_bad("--radius %s: want index or seq", optarg);
			break;
		case O_AT:
			if (rt_parse_double(optarg, &at) || at < 0 || at > 1)
				u_bad("--at %s: want a fraction in [0, 1]", optarg);
			break;
		case O_TITLE: title = optarg; break;
		case O_MORPH:
			if (sscanf(optarg, "%d,%d", &mj, &mk) != 2 || mj < 1 || mk < 1)
				u_bad("--morph %s: want j,k (theta columns)", optarg);
			break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	if (Oflag < 0)
		Oflag = oflag && (len = strlen(oflag)) > 4 && strcmp(oflag + len - 4, ".png") == 0;
	if ((at >= 0 || frames || animate) && mk == 0)
		u_bad("--at, --frames and --animate morph: name the columns with --morph j,k");
	if (animate && Oflag == 1)
		u_bad("--animate writes SVG");
	if (frames && !animate && oflag == NULL)
		u_bad("--frames: -o names the frames (name-0000.svg ...)");
	readcoords(argc ? argv[0] : "-");
	if (mj == 0)
		mj = kclass;
	if ((size_t)mj > ntheta || (size_t)mk > ntheta || (cflag == C_THETA && (size_t)ctheta > ntheta))
		u_die(1, "the coordinates have %zu theta columns", ntheta);
	for (i = 0; i < n; i++)
		catcount[cat[i]]++;
	nlay = cflag == C_TIME || cflag == C_THETA ? NRAMP : ncat;
	if ((lay = calloc(nlay, sizeof *lay)) == NULL)
		u_die(1, "out of memory");
	if (animate) {
		FILE *f = openout(oflag);

		svganim(f, frames ? frames : 24);
		closeout(f, oflag);
	} else if (frames) {
		len = strlen(oflag);
		if (len > 4 && (strcmp(oflag + len - 4, ".svg") == 0 || strcmp(oflag + len - 4, ".png") == 0))
			len -= 4;
		for (k = 0; k < frames; k++) {
			snprintf(name, sizeof name, "%.*s-%04d.%s", (int)len, oflag, k,
			    Oflag == 1 ? "png" : "svg");
			build(frames > 1 ? (double)k / (frames - 1) : 0);
			draw(name);
		}
	} else {
		build(at >= 0 ? at : 0);
		draw(oflag);
	}
	return u_status;
}
