/* plotspiral: spiral and circular plots of circular coordinates, and the
 * barcode or diagram of a persistence stream, SVG or PNG; the spiral
 * also as an interactive HTML page. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"
#include "fig.h"
#include "topo.h"
#include "util.h"

static const char *what[] = { "source line", "function", "region", "time", "theta" };	/* by RT_SPC_ */

static int Oflag = -1, cflag = RT_SPC_LINE, circle, seqradius, nolegend, animate;
static int kclass = 1, ctheta, mj, mk, frames, diagram;
static double at = -1, amble = 0.05, width = 800, height = 800, margin = 40;
static const char *oflag, *title;
static uint64_t rlo, rhi = UINT64_MAX;	/* --range: the seqs drawn */
static int ranged;
static char note[200];

static struct rt_coords co;	/* the points */
static struct rt_spiral sp;
static struct rt_spcolour col;	/* each point's layer, the layers' colours */
static struct rt_spiral_page pg;

#define PATHSTYLE "path{fill:none;stroke-width:0.8;stroke-linejoin:round}" \
	"path.d{stroke-width:3.5;stroke-linecap:round}"

enum { O_AMBLE = U_LONG, O_ANIMATE, O_AT, O_COLOUR, O_DIAGRAM, O_FRAMES, O_MARGIN, O_MODE,
    O_MORPH, O_NOLEGEND, O_RADIUS, O_RANGE, O_SIZE, O_THETA, O_TITLE };
static const struct u_opt opts[] = {
	{ 'O', "output-format", "format", "svg, png or html (as -o's .png or .html)" },
	U_OPT_OUTPUT,
	{ O_AMBLE, "amble", "turns", "circle: how near the ends stay before and after (0.05)" },
	{ O_ANIMATE, "animate", NULL, "an animated SVG of the morph" },
	{ O_AT, "at", "t", "the morph at this fraction, 0 to 1" },
	{ O_COLOUR, "colour", "by", "line, func, region, time or thetaK (line)" },
	{ O_DIAGRAM, "diagram", NULL, "a persistence stream's diagram, not its barcode" },
	{ O_FRAMES, "frames", "n", "the morph as n pictures (-o names them)" },
	{ O_MARGIN, "margin", "px", "space around the plot (40)" },
	{ O_MODE, "mode", "mode", "spiral (time outwards) or circle" },
	{ O_MORPH, "morph", "j,k", "from theta column j to column k" },
	{ O_NOLEGEND, "no-legend", NULL, "no legend" },
	{ O_RADIUS, "radius", "by", "index (point number) or seq (time in the trace)" },
	{ O_RANGE, "range", "lo-hi", "the points of seqs lo to hi (lo+len): a time range" },
	{ O_SIZE, "size", "WxH", "the picture's size in pixels (800x800)" },
	{ O_THETA, "theta", "k", "draw theta column k (1)" },
	{ O_TITLE, "title", "text", "a title above the plot" },
	{ 0 }
};
static const struct u_prog prog = { "plotspiral", "[file]", opts, NULL };

static void
build(double t)
{
	if (rt_spiral_build(&sp, col.lay, col.nlay, t))
		u_die(1, "out of memory");
}

/* The page: what is drawn how, the spiral's square, its key. */
static void
place(void)
{
	int cat = cflag == RT_SPC_LINE || cflag == RT_SPC_FUNC || cflag == RT_SPC_REGION, k;

	pg = (struct rt_spiral_page){ .w = width, .h = height, .margin = margin, .title = title,
	    .what = what[cflag], .names = col.label, .counts = col.count, .ncat = col.ncat,
	    .key = nolegend ? RT_SPKEY_NONE : cat && col.ncat ? RT_SPKEY_LEGEND :
	    cflag == RT_SPC_TIME ? RT_SPKEY_RAMP : RT_SPKEY_TURNS,
	    .label = seqradius ? "seq" : "point", .note = *note ? note : NULL };
	if (pg.key == RT_SPKEY_RAMP) {
		pg.lo = seqradius ? (double)co.pm.seq[0] : 0;
		pg.hi = seqradius ? (double)co.pm.seq[co.pm.n ? co.pm.n - 1 : 0] : (double)co.pm.n;
	}
	if ((k = rt_spiral_place(&pg, &sp, col.lay)) < 0)
		u_die(1, "out of memory");
	if (k > 0)
		u_bad("--size %gx%g: no room for the plot beside its legend", width, height);
}

/* The points drawn: those of --range; else, when their turns would lie
 * closer than 4 pixels apart (a disc of colour), the first of them that
 * a spiral of this size shows apart, said on the picture (not on standard
 * error: a picture of the first turns is a result, not a fault). */
static struct rt_pointmap whole;
static double *wholetheta;

static void
span(struct rt_coords *c, size_t k, size_t *i0p, size_t *i1p)
{
	size_t i0 = 0, i1 = c->pm.n, cut;
	double turns, R = ((width < height ? width : height) - 2 * margin) / 2;

	whole = c->pm;
	wholetheta = c->theta;
	if (ranged) {
		while (i0 < c->pm.n && c->pm.seq[i0] < rlo)
			i0++;
		for (i1 = i0; i1 < c->pm.n && c->pm.seq[i1] <= rhi; i1++)
			;
		if (i1 - i0 < 2)
			u_die(1, "--range %" PRIu64 "-%" PRIu64 ": %zu points there (the seqs "
			    "run %" PRIu64 " to %" PRIu64 ")", rlo, rhi, i1 - i0, c->pm.seq[0],
			    c->pm.seq[c->pm.n - 1]);
	} else if (!circle && (cut = rt_spiral_readable(c->theta, c->ncirc, k, c->pm.n,
	    R / 4, &turns)) < c->pm.n) {
		i1 = cut;
		snprintf(note, sizeof note, "the first %.0f of %.0f turns, seqs %" PRIu64
		    "-%" PRIu64 " of -%" PRIu64 " (--range: others)", R / 4, turns,
		    c->pm.seq[0], c->pm.seq[i1 - 1], c->pm.seq[c->pm.n - 1]);
	}
	if (ranged && (i0 > 0 || i1 < c->pm.n))
		snprintf(note, sizeof note, "seqs %" PRIu64 "-%" PRIu64 " of %" PRIu64
		    "-%" PRIu64, c->pm.seq[i0], c->pm.seq[i1 - 1], c->pm.seq[0],
		    c->pm.seq[c->pm.n - 1]);
	*i0p = i0;
	*i1p = i1;
}

static void
window(struct rt_coords *c, size_t k)
{
	size_t i0, i1;

	span(c, k, &i0, &i1);
	c->pm.vert += i0;
	c->pm.seq += i0;
	c->pm.loc += i0;
	c->pm.func += i0;
	c->pm.region += i0;
	c->pm.n = i1 - i0;
	c->theta += i0 * c->ncirc;
}

static char *
describe(char *buf, size_t len)
{
	int k = snprintf(buf, len, "plotspiral: %zu points, %s", co.pm.n, circle ? "circle" : "spiral");

	if (circle && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", pre-amble %zu points, post-amble %zu points",
		    sp.npre, sp.npost);
	else if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", centre %.1f %.1f", sp.x + sp.w / 2,
		    sp.y + sp.h / 2);
	return buf;
}

static void
emit(struct rt_fig *fig, const char *name, const char *desc)
{
	FILE *f = u_open(name);

	if (fig == NULL || rt_fig_failed(fig))
		u_die(1, "out of memory");
	if (Oflag == U_PNG ? rt_fig_png(fig, f) : rt_fig_svg(fig, f, PATHSTYLE, desc))
		u_wfail(name);
	rt_fig_free(fig);
	if (u_close(f, name))
		exit(1);
}

static void
draw(const char *name)
{
	char desc[300];

	emit(rt_spiral_figure(&pg, &sp, col.lay, col.nlay), name, describe(desc, sizeof desc));
}

static void
colouropt(const char *s)
{
	uint64_t v;

	if (strcmp(s, "line") == 0)
		cflag = RT_SPC_LINE;
	else if (strcmp(s, "func") == 0)
		cflag = RT_SPC_FUNC;
	else if (strcmp(s, "region") == 0)
		cflag = RT_SPC_REGION;
	else if (strcmp(s, "time") == 0)
		cflag = RT_SPC_TIME;
	else if (strncmp(s, "theta", 5) == 0 && rt_parse_u64(s + 5, &v) == 0 &&
	    v > 0 && v < 1000) {
		cflag = RT_SPC_THETA;
		ctheta = (int)v;
	} else
		u_bad("--colour %s: want line, func, region, time or thetaK", s);
}

/* Coordinates into co; a persistence stream (persist | plotspiral) is
 * drawn at once, as its barcode or diagram: then 1. */
static int
readinput(const char *path)
{
	struct rt_reader *r;
	struct rt_pers pers[RT_MAXVIEW];
	char ebuf[1024];
	int pers_kind;
	size_t k, nview;

	if ((r = rt_lopen(path, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	if (rt_rexpect2(r, RT_STREAM_COORDINATES, RT_STREAM_PERSISTENCE))
		u_die(1, "%s", rt_rerror(r));
	if ((pers_kind = rt_rkind(r) == RT_STREAM_PERSISTENCE) && Oflag == U_HTML)
		u_die(1, "-O html: a page of coordinates, not of a persistence stream");
	if (pers_kind) {
		/* of several views of the windows, the first's */
		if (rt_pers_readall(pers, &nview, r, ebuf, sizeof ebuf))
			u_die(1, "%s", ebuf);
		snprintf(ebuf, sizeof ebuf, "plotspiral: the %s of %zu bars, %zu classes%s%s",
		    diagram ? "persistence diagram" : "barcode", pers[0].nbar, pers[0].ncls,
		    *pers[0].view ? ", view " : "", pers[0].view);
		emit(rt_pers_figure(&pers[0], diagram, width, height, title, !nolegend),
		    oflag, ebuf);
		for (k = 0; k < nview; k++)
			rt_pers_free(&pers[k]);
	} else if (rt_coords_read(&co, r, ebuf, sizeof ebuf))
		u_die(1, "%s", ebuf);
	rt_rclose(r);
	return pers_kind;
}

static void
option(int ch)
{
	uint64_t v;

	switch (ch) {
	case O_AMBLE:
		amble = u_real("--amble", optarg, 0, 0.5, "want turns in [0, 0.5]");
		break;
	case O_ANIMATE: animate = 1; break;
	case O_AT:
		at = u_real("--at", optarg, 0, 1, "want a fraction in [0, 1]");
		break;
	case O_COLOUR: colouropt(optarg); break;
	case O_DIAGRAM: diagram = 1; break;
	case O_FRAMES:
		if (rt_parse_u64(optarg, &v) || v < 1 || v > 10000)
			u_bad("--frames %s: want 1 to 10000", optarg);
		frames = (int)v;
		break;
	case O_MARGIN:
		margin = u_real("--margin", optarg, 0, 5000, "bad margin");
		break;
	case O_MODE:
		circle = u_word("--mode", optarg, (const char *const[]){ "spiral", "circle", NULL });
		break;
	case O_MORPH:
		if (sscanf(optarg, "%d,%d", &mj, &mk) != 2 || mj < 1 || mk < 1 ||
		    mj > 1000 || mk > 1000)
			u_bad("--morph %s: want j,k (theta columns)", optarg);
		break;
	case O_NOLEGEND: nolegend = 1; break;
	case 'O':
		Oflag = u_word("-O", optarg, (const char *const[]){ "svg", "png", "html", NULL });
		break;
	case 'o': oflag = optarg; break;
	case O_RADIUS:
		seqradius = u_word("--radius", optarg, (const char *const[]){ "index", "seq", NULL });
		break;
	case O_RANGE:
		if (rt_parse_range(optarg, &rlo, &rhi))
			u_bad("--range %s: want lo-hi or lo+len (seqs)", optarg);
		ranged = 1;
		break;
	case O_SIZE:
		if (sscanf(optarg, "%lfx%lf", &width, &height) != 2 ||
		    width < 50 || height < 50 || width > 20000 || height > 20000)
			u_bad("--size %s: want WxH, 50 to 20000 pixels", optarg);
		break;
	case O_THETA:
		if (rt_parse_u64(optarg, &v) || v < 1 || v > 1000)
			u_bad("--theta %s: want a theta column, 1 to 1000", optarg);
		kclass = (int)v;
		break;
	case O_TITLE: title = optarg; break;
	default: u_usage(&prog);
	}
}

/* What the options ask together; -O from -o's name when not given. */
static void
checkopts(void)
{
	if (Oflag < 0 && (Oflag = u_pictkind(oflag)) < 0)
		Oflag = U_SVG;
	if ((at >= 0 || frames || animate) && mk == 0)
		u_bad("--at, --frames and --animate morph: name the columns with --morph j,k");
	if (animate && Oflag == U_PNG)
		u_bad("--animate writes SVG");
	if ((animate || frames) && Oflag == U_HTML)
		u_bad("-O html: the page morphs itself (no --animate, no --frames)");
	if (frames && !animate && oflag == NULL)
		u_bad("--frames: -o names the frames (name-0000.svg ...)");
	if (2 * margin >= width || 2 * margin >= height)
		u_bad("--margin %g: no room left in %gx%g", margin, width, height);
}

/* The page, the animation, the frames (name-0000.svg ...) or the picture;
 * the HTML page gets every point, i0 to i1 shown. */
static void
output(size_t i0, size_t i1)
{
	char name[4096];
	size_t len;
	FILE *f;
	int k;

	if (Oflag == U_HTML) {
		f = u_open(oflag);
		if ((k = rt_spiral_html(f, &pg, &sp, &co, &col, i0, i1, at >= 0 ? at : 0)) == RT_EIO)
			u_wfail(oflag);
		if (k < 0)
			u_die(1, "out of memory");
		if (u_close(f, oflag))
			exit(1);
	} else if (animate) {
		f = u_open(oflag);
		if (rt_spiral_anim(f, &pg, &sp, col.lay, col.nlay, frames ? frames : 24, PATHSTYLE))
			u_die(1, "out of memory");
		if (u_close(f, oflag))
			exit(1);
	} else if (frames) {
		len = strlen(oflag);
		if (u_pictkind(oflag) == U_SVG || u_pictkind(oflag) == U_PNG)
			len -= 4;
		for (k = 0; k < frames; k++) {
			snprintf(name, sizeof name, "%.*s-%04d.%s", (int)len, oflag, k,
			    Oflag == U_PNG ? "png" : "svg");
			build(frames > 1 ? (double)k / (frames - 1) : 0);
			draw(name);
		}
	} else {
		build(at >= 0 ? at : 0);
		draw(oflag);
	}
}

int
main(int argc, char *argv[])
{
	size_t i, i0 = 0, i1 = 0;
	double *time = NULL;
	int ch;

	while ((ch = u_getopt(argc, argv, &prog)) != -1)
		option(ch);
	argc -= optind;
	argv += optind;
	if (argc > 1)
		u_usage(&prog);
	checkopts();
	if (readinput(argc ? argv[0] : "-"))
		return u_status;
	if (mj == 0)
		mj = kclass;
	if ((size_t)mj > co.ncirc || (size_t)mk > co.ncirc ||
	    (cflag == RT_SPC_THETA && (size_t)ctheta > co.ncirc))
		u_die(1, "the coordinates have %zu theta columns", co.ncirc);
	if (Oflag == U_HTML)		/* every point; the page shows a range */
		span(&co, mj - 1, &i0, &i1);
	else
		window(&co, mj - 1);
	if (rt_spcolour_of(&col, &co, cflag, ctheta))
		u_die(1, "out of memory");
	if (seqradius) {
		time = u_reallocarray(NULL, co.pm.n, sizeof *time);
		for (i = 0; i < co.pm.n; i++)
			time[i] = (double)co.pm.seq[i];
	}
	sp = (struct rt_spiral){ .n = co.pm.n, .stride = co.ncirc, .from = (size_t)mj - 1,
	    .to = mk ? mk - 1 : -1, .theta = co.theta, .time = time, .layer = col.layer,
	    .x = margin, .y = margin, .w = width - 2 * margin, .h = height - 2 * margin,
	    .circle = circle, .amble = amble };
	place();
	output(i0, i1);
	rt_spcolour_free(&col);
	co.pm = whole;
	co.theta = wholetheta;
	rt_coords_free(&co);
	rt_spiral_page_free(&pg);
	free(time);
	return u_status;
}
