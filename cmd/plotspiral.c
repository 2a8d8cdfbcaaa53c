/* plotspiral: spiral and circular plots of circular coordinates, and the
 * barcode or diagram of a persistence stream, SVG or PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"
#include "topo.h"
#include "util.h"

enum { C_LINE, C_FUNC, C_REGION, C_TIME, C_THETA };
static const char *what[] = { "source line", "function", "region", "time", "theta" };

static int Oflag = -1, cflag = C_LINE, circle, seqradius, nolegend, animate;
static int kclass = 1, ctheta, mj, mk, frames, diagram;
static double at = -1, amble = 0.05, width = 800, height = 800, margin = 40;
static const char *oflag, *title;

static struct rt_coords co;	/* the points */
static struct rt_spiral sp;
static struct rt_layer *lay;
static size_t nlay, *layer;
static uint32_t *catname;	/* category -> its text, an rt_str id */
static size_t ncat, *catcount;
static const char **catlabel;	/* category -> the name its legend shows */
static struct rt_spiral_page pg;

#define NRAMP 64		/* continuous maps are cut into this many colours */
#define PATHSTYLE "path{fill:none;stroke-width:0.8;stroke-linejoin:round}" \
	"path.d{stroke-width:3.5;stroke-linecap:round}"

enum { O_AMBLE = U_LONG, O_ANIMATE, O_AT, O_COLOUR, O_DIAGRAM, O_FRAMES, O_MARGIN, O_MODE,
    O_MORPH, O_NOLEGEND, O_RADIUS, O_SIZE, O_THETA, O_TITLE };
static const struct u_opt opts[] = {
	{ 'O', "output-format", "format", "svg or png (png when -o names a .png)" },
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
	{ O_SIZE, "size", "WxH", "the picture's size in pixels (800x800)" },
	{ O_THETA, "theta", "k", "draw theta column k (1)" },
	{ O_TITLE, "title", "text", "a title above the plot" },
	{ 0 }
};
static const struct u_prog prog = { "plotspiral", "[file]", opts, NULL };

/* Categories by file and line (or name): colours and legend in that
 * order, names folded to base names unless two files share one. */
static void
sortcats(void)
{
	const char **names = u_reallocarray(NULL, ncat + 1, sizeof *names);
	size_t i, *order = u_reallocarray(NULL, ncat + 1, sizeof *order);
	size_t *rank = u_reallocarray(NULL, ncat + 1, sizeof *rank);
	uint32_t *sorted = u_reallocarray(NULL, ncat + 1, sizeof *sorted);

	for (i = 0; i < ncat; i++)
		names[i] = rt_str(catname[i]);
	if (rt_label_sort(names, ncat, order))
		u_die(1, "out of memory");
	catlabel = u_reallocarray(NULL, ncat + 1, sizeof *catlabel);
	for (i = 0; i < ncat; i++) {
		rank[order[i]] = i;
		sorted[i] = catname[order[i]];
		catlabel[i] = rt_label_short(names, ncat, order[i]);
	}
	for (i = 0; i < co.pm.n; i++)
		layer[i] = rank[layer[i]];
	memcpy(catname, sorted, ncat * sizeof *catname);
	free(names);
	free(order);
	free(rank);
	free(sorted);
}

/* Categories in order of appearance: a string id maps to its category. */
static void
categories(void)
{
	const uint32_t *col = cflag == C_FUNC ? co.pm.func : cflag == C_REGION ? co.pm.region : co.pm.loc;
	size_t i, nmap = rt_str_count(), *of = u_calloc(nmap + 1, sizeof *of);

	catname = u_reallocarray(NULL, co.pm.n + 1, sizeof *catname);
	catcount = u_calloc(co.pm.n + 1, sizeof *catcount);
	for (i = 0; i < co.pm.n; i++) {
		if (of[col[i]] == 0) {
			catname[ncat] = col[i];
			of[col[i]] = ++ncat;
		}
		layer[i] = of[col[i]] - 1;
	}
	free(of);
	sortcats();
	for (i = 0; i < co.pm.n; i++)
		catcount[layer[i]]++;
}

/* Each point's colour: its category, or a step of a ramp. */
static void
colours(void)
{
	size_t i, k;
	double t;

	layer = u_calloc(co.pm.n + 1, sizeof *layer);
	if (cflag == C_LINE || cflag == C_FUNC || cflag == C_REGION)
		categories();
	for (i = 0; i < co.pm.n; i++)
		if (cflag == C_TIME)
			layer[i] = (size_t)((double)i / (double)(co.pm.n > 1 ? co.pm.n - 1 : 1) * (NRAMP - 1));
		else if (cflag == C_THETA) {
			t = co.theta[i * co.ncirc + ctheta - 1];
			layer[i] = isnan(t) ? 0 : (size_t)((t - floor(t)) * NRAMP) % NRAMP;
		}
	nlay = cflag == C_TIME || cflag == C_THETA ? NRAMP : ncat;
	lay = u_calloc(nlay, sizeof *lay);
	for (k = 0; k < nlay; k++)
		if (cflag == C_TIME)
			rt_colour_ramp((double)k / (NRAMP - 1), lay[k].rgb);
		else if (cflag == C_THETA)
			rt_colour_cyclic((double)k / NRAMP, lay[k].rgb);
		else
			rt_colour_category(k, lay[k].rgb);
}

static void
build(double t)
{
	if (rt_spiral_build(&sp, lay, nlay, t))
		u_die(1, "out of memory");
}

/* The page: what is drawn how, the spiral's square, its key. */
static void
place(void)
{
	int cat = cflag == C_LINE || cflag == C_FUNC || cflag == C_REGION, k;

	pg = (struct rt_spiral_page){ .w = width, .h = height, .margin = margin, .title = title,
	    .what = what[cflag], .names = catlabel, .counts = catcount, .ncat = ncat,
	    .key = nolegend ? RT_SPKEY_NONE : cat && ncat ? RT_SPKEY_LEGEND :
	    cflag == C_TIME ? RT_SPKEY_RAMP : RT_SPKEY_TURNS,
	    .label = seqradius ? "seq" : "point" };
	if (pg.key == RT_SPKEY_RAMP) {
		pg.lo = seqradius ? (double)co.pm.seq[0] : 0;
		pg.hi = seqradius ? (double)co.pm.seq[co.pm.n ? co.pm.n - 1 : 0] : (double)co.pm.n;
	}
	if ((k = rt_spiral_place(&pg, &sp, lay)) < 0)
		u_die(1, "out of memory");
	if (k > 0)
		u_bad("--size %gx%g: no room for the plot beside its legend", width, height);
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

/* An animated SVG: the frames shown in turn, 0.15 s each, looping; a
 * renderer without animation shows the first. */
static void
svganim(FILE *f, int nfr)
{
	struct rt_fig *fig = rt_spiral_figure(&pg, &sp, NULL, 0);
	int k, m = nfr + 1;

	if (fig == NULL)
		u_die(1, "out of memory");
	rt_svg_head(f, width, height, PATHSTYLE);
	if (rt_fig_svg_body(fig, f))
		u_die(1, "out of memory");
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
		rt_svg_layers(f, lay, nlay, " ");
		fprintf(f, "</g>\n");
	}
	rt_svg_end(f);
	rt_fig_free(fig);
}

static void
emit(struct rt_fig *fig, const char *name, const char *desc)
{
	FILE *f = u_open(name);

	if (fig == NULL || rt_fig_failed(fig))
		u_die(1, "out of memory");
	if (Oflag == 1 ? rt_fig_png(fig, f) : rt_fig_svg(fig, f, PATHSTYLE, desc))
		u_wfail(name);
	rt_fig_free(fig);
	if (u_close(f, name))
		exit(1);
}

static void
draw(const char *name)
{
	char desc[300];

	emit(rt_spiral_figure(&pg, &sp, lay, nlay), name, describe(desc, sizeof desc));
}

static void
colouropt(const char *s)
{
	uint64_t v;

	if (strcmp(s, "line") == 0)
		cflag = C_LINE;
	else if (strcmp(s, "func") == 0)
		cflag = C_FUNC;
	else if (strcmp(s, "region") == 0)
		cflag = C_REGION;
	else if (strcmp(s, "time") == 0)
		cflag = C_TIME;
	else if (strncmp(s, "theta", 5) == 0 && rt_parse_u64(s + 5, &v) == 0 &&
	    v > 0 && v < 1000) {
		cflag = C_THETA;
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
	struct rt_pers pers;
	char ebuf[1024];
	int pers_kind;

	if ((r = rt_ropen(path, RT_FMT_LINES, ebuf, sizeof ebuf)) == NULL)
		u_die(1, "%s", ebuf);
	if (rt_rexpect2(r, RT_STREAM_COORDINATES, RT_STREAM_PERSISTENCE))
		u_die(1, "%s", rt_rerror(r));
	if ((pers_kind = rt_rkind(r) == RT_STREAM_PERSISTENCE)) {
		if (rt_pers_read(&pers, r, ebuf, sizeof ebuf))
			u_die(1, "%s", ebuf);
		snprintf(ebuf, sizeof ebuf, "plotspiral: the %s of %zu bars, %zu classes",
		    diagram ? "persistence diagram" : "barcode", pers.nbar, pers.ncls);
		emit(rt_pers_figure(&pers, diagram, width, height, title, !nolegend),
		    oflag, ebuf);
		rt_pers_free(&pers);
	} else if (rt_coords_read(&co, r, ebuf, sizeof ebuf))
		u_die(1, "%s", ebuf);
	rt_rclose(r);
	return pers_kind;
}

int
main(int argc, char *argv[])
{
	char name[4096];
	size_t i, len;
	double *time = NULL;
	int ch, k;
	uint64_t v;

	while ((ch = u_getopt(argc, argv, &prog)) != -1) {
		switch (ch) {
		case O_AMBLE:
			if (rt_parse_double(optarg, &amble) || amble < 0 || amble > 0.5)
				u_bad("--amble %s: want turns in [0, 0.5]", optarg);
			break;
		case O_ANIMATE: animate = 1; break;
		case O_COLOUR: colouropt(optarg); break;
		case O_DIAGRAM: diagram = 1; break;
		case O_FRAMES:
			if (rt_parse_u64(optarg, &v) || v < 1 || v > 10000)
				u_bad("--frames %s: want 1 to 10000", optarg);
			frames = (int)v;
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
		case O_NOLEGEND: nolegend = 1; break;
		case O_MODE:
			if (strcmp(optarg, "spiral") == 0)
				circle = 0;
			else if (strcmp(optarg, "circle") == 0)
				circle = 1;
			else
				u_bad("--mode %s: want spiral or circle", optarg);
			break;
		case O_MARGIN:
			if (rt_parse_double(optarg, &margin) || margin < 0 || margin > 5000)
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
			if (sscanf(optarg, "%d,%d", &mj, &mk) != 2 || mj < 1 || mk < 1 ||
			    mj > 1000 || mk > 1000)
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
	if (2 * margin >= width || 2 * margin >= height)
		u_bad("--margin %g: no room left in %gx%g", margin, width, height);
	if (readinput(argc ? argv[0] : "-"))
		return u_status;
	if (mj == 0)
		mj = kclass;
	if ((size_t)mj > co.ncirc || (size_t)mk > co.ncirc ||
	    (cflag == C_THETA && (size_t)ctheta > co.ncirc))
		u_die(1, "the coordinates have %zu theta columns", co.ncirc);
	colours();
	if (seqradius) {
		time = u_reallocarray(NULL, co.pm.n, sizeof *time);
		for (i = 0; i < co.pm.n; i++)
			time[i] = (double)co.pm.seq[i];
	}
	sp = (struct rt_spiral){ .n = co.pm.n, .stride = co.ncirc, .from = (size_t)mj - 1,
	    .to = mk ? mk - 1 : -1, .theta = co.theta, .time = time, .layer = layer,
	    .x = margin, .y = margin, .w = width - 2 * margin, .h = height - 2 * margin,
	    .circle = circle, .amble = amble };
	place();
	if (animate) {
		FILE *f = u_open(oflag);

		svganim(f, frames ? frames : 24);
		if (u_close(f, oflag))
			exit(1);
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
	rt_layers_free(lay, nlay);
	rt_coords_free(&co);
	free(layer);
	free(catname);
	free(catcount);
	free(catlabel);
	rt_spiral_page_free(&pg);
	free(time);
	return u_status;
}
