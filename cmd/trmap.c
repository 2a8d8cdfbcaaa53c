/* trmap: the trace as a picture: the access map over the regions it
 * touched, per-variable metrics, a registered array as a grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "draw.h"
#include "map.h"
#include "util.h"

static int Iflag = RT_FMT_AUTO, kflag, Oflag = -1, bycount, counts, regions, recency, gridon;
static double width = 900, height = 560;
static uint64_t granule = 4096, arraycols;
static const char *oflag, *title, *array;

static uint64_t n;		/* accesses */
static struct rt_fold *fold;
static struct rt_density dens;
static struct rt_plot area;
static struct rt_writer *spool;
static struct rt_mappage *page;	/* -O html */
static struct rt_rec *reg;	/* the regions registered */
static size_t nreg, capreg;
static struct rt_varstat *vs;
static size_t nvs, capvs;
static struct rt_regions *regs;
static struct rt_grid grid;
static int catkey = -1;		/* --colour region, line or func: an RT_KEY */
static struct rt_mapcats *cats;
static struct rt_sym *objs;	/* the objects loaded: their extents */
static struct rt_ens *ens;	/* -c: the page's cache view */
static uint32_t progname;	/* the first object: the program */

enum { O_ARRAY = U_LONG, O_COLOUR, O_COUNTS, O_GRANULE, O_RECENCY, O_REGIONS, O_SIZE, O_TITLE };
static const struct u_opt opts[] = {
	U_OPT_TRACE,
	{ 'c', "cache", "spec", "-O html: a cache level (as cachesim's) for the cache view" },
	U_OPT_KEEP,
	{ 'O', "output-format", "format", "svg, png or html (as -o's .png or .html)" },
	U_OPT_OUTPUT,
	{ O_ARRAY, "array", "name:cols", "draw the registered array name as a grid of cols columns" },
	{ O_COLOUR, "colour", "by", "the map's colour: op, count, region, line or func (op)" },
	{ O_COUNTS, "counts", NULL, "write the map's accesses per pixel as a table" },
	{ O_GRANULE, "granule", "bytes", "untouched gaps this long are cut out (4K)" },
	{ O_RECENCY, "recency", NULL, "--array: colour by the time of the last access" },
	{ O_REGIONS, "regions", NULL, "accesses and bytes per registered region, a table" },
	{ O_SIZE, "size", "WxH", "the picture's size in pixels (900x560)" },
	{ O_TITLE, "title", "text", "a title above the picture" },
	{ 0 }
};
static const struct u_prog prog = { "trmap", "[file ...]", opts, NULL };

/* A region registered: kept for the labels, the metrics and the grid. */
static void
region(const struct rt_rec *r)
{
	char *c;

	if (rt_regions_add(regs, r))
		u_die(1, "out of memory");
	reg = u_grow(reg, &capreg, nreg + 1, sizeof *reg);
	reg[nreg++] = *r;
	if (rt_varstat_find(vs, nvs, r->name) == NULL) {
		vs = u_grow(vs, &capvs, nvs + 1, sizeof *vs);
		vs[nvs++] = (struct rt_varstat){ .name = r->name, .base = r->addr,
		    .size = r->size, .elem = r->elem };
	}
	if (array != NULL && !gridon && (c = strrchr(array, ':')) != NULL &&
	    strlen(rt_str(r->name)) == (size_t)(c - array) &&
	    strncmp(rt_str(r->name), array, (size_t)(c - array)) == 0) {
		if (rt_grid_init(&grid, r->addr, r->size, r->elem ? r->elem : 1, arraycols))
			u_die(1, "--array %s: %llu bytes of %u: too many elements or none", array,
			    (unsigned long long)r->size, r->elem);
		gridon = 1;
	}
}

/* The variable of an access: the one it names (Gleipnir), else the
 * registered region it falls in; a variable named but not registered
 * spans the bytes its accesses touch. */
static struct rt_varstat *
varstat(const struct rt_rec *r)
{
	struct rt_varstat *v;
	uint64_t end;

	if (r->var == 0)
		return rt_varstat_find(vs, nvs, rt_regions_find(regs, r->addr));
	if ((v = rt_varstat_find(vs, nvs, r->var)) == NULL) {
		vs = u_grow(vs, &capvs, nvs + 1, sizeof *vs);
		v = &vs[nvs++];
		*v = (struct rt_varstat){ .name = r->var, .seen = 1, .base = r->addr,
		    .size = r->size ? r->size : 1 };
	} else if (v->seen) {
		end = rt_last(r) + 1 > v->base + v->size ? rt_last(r) + 1 : v->base + v->size;
		if (r->addr < v->base)
			v->base = r->addr;
		v->size = end - v->base;
	}
	return v;
}

/* The first pass: what was touched, how many accesses, the regions. */
static int
first(void *ctx, struct rt_rec *r)
{
	struct rt_varstat *v;

	(void)ctx;
	if (spool != NULL && rt_write(spool, r))
		u_die(1, "the spool file: cannot write");
	if (r->kind == RT_REGION)
		region(r);
	if (r->kind == RT_OBJECT && objs != NULL) {
		if (progname == 0)
			progname = r->name;
		rt_sym_add(objs, rt_str(r->name), r->addr, NULL);	/* else not folded */
	}
	if (r->kind != RT_ACCESS)
		return 0;
	if (fold != NULL && rt_fold_touch(fold, r->addr, rt_last(r)))
		u_die(1, "out of memory");
	if ((nvs || r->var) && (v = varstat(r)) != NULL) {
		v->acc[r->op & 3]++;
		v->bytes += r->size;
	}
	if (gridon)
		rt_grid_add(&grid, r->addr, rt_last(r), n);
	n++;
	return 0;
}

/* With --colour by a key: the keys counted too (apart, so that the map
 * by op runs as it did). */
static int
firstcat(void *ctx, struct rt_rec *r)
{
	if (r->kind == RT_ACCESS && rt_mapcats_add(cats, rt_mapcats_key(cats, r, regs)))
		u_die(1, "out of memory");
	return first(ctx, r);
}

/* The second: each access to its pixel. */
static int
second(void *ctx, struct rt_rec *r)
{
	uint64_t *i = ctx;
	long row;

	if (r->kind != RT_ACCESS)
		return 0;
	if ((row = rt_fold_row(fold, r->addr)) >= 0)
		rt_density_add(&dens, (uint32_t)((double)*i * dens.cols / (double)n), (uint32_t)row,
		    r->op);
	if (page != NULL && rt_mappage_add(page, *i, r))
		u_die(1, "out of memory");
	++*i;
	return 0;
}

/* ... and each access's class to its pixel's vote (a copy of second,
 * not a call: the map by op keeps its instruction count). */
static int
secondcat(void *ctx, struct rt_rec *r)
{
	uint64_t *i = ctx;
	uint32_t col;
	long row;

	if (r->kind != RT_ACCESS)
		return 0;
	if ((row = rt_fold_row(fold, r->addr)) >= 0) {
		col = (uint32_t)((double)*i * dens.cols / (double)n);
		rt_density_add(&dens, col, (uint32_t)row, r->op);
		rt_density_vote(&dens, col, (uint32_t)row,
		    rt_mapcats_class(cats, rt_mapcats_key(cats, r, regs)));
	}
	++*i;
	return 0;
}

#define MAXCLASSES 18	/* named and other: the category colours but their greys */

/* --colour by a key no access has: said, as cachesim -g says it. */
static void
nomatter(void)
{
	size_t nother;

	if (cats != NULL && n > 0 && rt_mapcats_count(cats, &nother) == 1 && nother == 0 &&
	    rt_mapcats_class(cats, 0) == 0)
		u_warn("--colour: no access has a %s%s", catkey == RT_KEY_REGION ? "region" :
		    catkey == RT_KEY_LOC ? "source line" : "function",
		    catkey == RT_KEY_REGION ? "" : " (trfilter -l attaches them)");
}

/* The object other than the program where lo .. hi starts, or -1 (a
 * segment may run on past its data into what the loader mapped next). */
static int
owner(void *ctx, uint64_t lo, uint64_t hi)
{
	const char *path;
	int k = rt_sym_object(objs, lo, &path);

	(void)ctx;
	(void)hi;
	return k < 0 || strcmp(path, rt_str(progname)) == 0 ? -1 : k;
}

static void
picture(struct rt_fig *fig, char **names)
{
	FILE *f = u_open(oflag);
	int e;

	if (page == NULL && (fig == NULL || rt_fig_failed(fig)))
		u_die(1, "out of memory");
	if ((e = page != NULL ? rt_mappage_html(f, page, title, (const char *const *)names, vs, nvs) :
	    Oflag == U_PNG ? rt_fig_png(fig, f) : rt_fig_svg(fig, f, NULL, NULL)))
		e == RT_ENOMEM ? u_die(1, "out of memory") : u_wfail(oflag);
	rt_fig_free(fig);
	if (u_close(f, oflag))
		exit(1);
}

static void
option(int ch)
{
	static const int keys[] = { -1, -1, RT_KEY_REGION, RT_KEY_LOC, RT_KEY_FUNC };
	char why[200];
	int k;

	switch (ch) {
	case 'c':
		if ((ens == NULL && (ens = rt_ens_new()) == NULL) ||
		    rt_ens_level(ens, optarg, why, sizeof why))
			u_bad("-c %s: %s", optarg, ens ? why : "out of memory");
		break;
	case 'I': Iflag = u_format(optarg); break;
	case 'k': kflag = 1; break;
	case 'O':
		Oflag = u_word("-O", optarg, (const char *const[]){ "svg", "png", "html", NULL });
		break;
	case 'o': oflag = optarg; break;
	case O_ARRAY:
		if ((array = strrchr(optarg, ':')) == NULL || array == optarg ||
		    rt_parse_u64(array + 1, &arraycols) || arraycols == 0 || arraycols > 1 << 20)
			u_bad("--array %s: want name:columns", optarg);
		array = optarg;
		break;
	case O_COLOUR:
		k = u_word("--colour", optarg, (const char *const[]){ "op", "count", "region",
		    "line", "func", NULL });
		bycount = k == 1;
		catkey = keys[k];
		break;
	case O_COUNTS: counts = 1; break;
	case O_GRANULE:
		if (rt_parse_size(optarg, &granule) || granule == 0 || (granule & (granule - 1)) ||
		    granule > (uint64_t)1 << 40)
			u_bad("--granule %s: want a power of two", optarg);
		break;
	case O_RECENCY: recency = 1; break;
	case O_REGIONS: regions = 1; break;
	case O_SIZE:
		if (sscanf(optarg, "%lfx%lf", &width, &height) != 2 || width < 300 ||
		    height < 200 || width > 20000 || height > 20000)
			u_bad("--size %s: want WxH, 300x200 to 20000x20000 pixels", optarg);
		break;
	case O_TITLE: title = optarg; break;
	default: u_usage(&prog);
	}
}

/* The map's second pass, over the files or the spool, and its output:
 * the counts, the page or the picture. */
static void
map(int argc, char *argv[], char *tmp)
{
	char *spooled[1] = { tmp }, **names, why[200];
	uint64_t i = 0;
	int k;

	/* the legend of the classes sizes the plot: the raster is made now */
	if (cats != NULL && rt_mapcats_choose(cats, MAXCLASSES))
		u_die(1, "out of memory");
	nomatter();
	rt_map_layout(&area, width, height, cats);
	if (rt_density_init(&dens, (uint32_t)area.w, (uint32_t)area.h) ||
	    (cats != NULL && rt_density_classes(&dens)) ||
	    rt_fold_layout(fold, dens.rows, 14, 5, owner, NULL) || (Oflag == U_HTML && !counts &&
	    (page = rt_mappage_new(fold, regs, &area, width, height, n, bycount, catkey)) == NULL))
		u_die(1, "out of memory");
	if (ens != NULL && (k = rt_mappage_cache(page, ens, why, sizeof why)))
		u_fail(k, "-c: %s", why);
	if (spool != NULL) {
		argv = spooled;
		argc = 1;
	}
	if (n && rt_foreach(argv, argc, spool ? RT_FMT_BINARY : Iflag, kflag,
	    cats && !page ? secondcat : second, &i, u_diag))
		u_status = 1;
	if (counts) {
		FILE *f = u_open(oflag);

		rt_density_write(f, &dens, fold, n);
		if (u_close(f, oflag))
			exit(1);
		return;
	}
	if ((names = rt_fold_names(fold, objs, reg, nreg)) == NULL)
		u_die(1, "out of memory");
	picture(page ? NULL : rt_map_figure(&dens, fold, &area, width, height, bycount, cats,
	    n, title, (const char *const *)names), names);
	for (k = 0; k < (int)rt_fold_count(fold); k++)
		free(names[k]);
	free(names);
}

int
main(int argc, char *argv[])
{
	char tmp[] = "/tmp/trmap.XXXXXX";
	size_t k;
	int ch, piped, e;

	while ((ch = u_getopt(argc, argv, &prog)) != -1)
		option(ch);
	argc -= optind;
	argv += optind;
	if (Oflag < 0 && (Oflag = u_pictkind(oflag)) < 0)
		Oflag = U_SVG;
	if (recency && array == NULL)
		u_bad("--recency colours the --array grid");
	else if (Oflag == U_HTML && array != NULL)
		u_bad("-O html: a page of the access map, not of --array's grid");
	else if (ens != NULL && (Oflag != U_HTML || counts || regions))
		u_bad("-c: the page's cache view (-O html)");
	regs = rt_regions_new();
	if (!regions && array == NULL &&
	    ((fold = rt_fold_new((unsigned)__builtin_ctzll(granule))) == NULL ||
	    (objs = rt_sym_new()) == NULL ||
	    (catkey >= 0 && (cats = rt_mapcats_new(catkey)) == NULL)))
		u_die(1, "out of memory");
	/* the map reads twice: standard input is kept in a binary spool */
	for (piped = argc == 0, k = 0; k < (size_t)argc; k++)
		piped |= !rt_rereadable(argv[k]);
	if (fold != NULL && piped) {
		if (rt_ofile_spool(tmp) == NULL ||
		    (spool = rt_wopen(tmp, RT_FMT_BINARY2, 0)) == NULL)
			u_die(1, "%s: cannot spool standard input", tmp);
	}
	e = rt_foreach(argv, argc, Iflag, kflag, cats ? firstcat : first, NULL, u_diag);
	if (spool != NULL && rt_wclose(spool))
		u_die(1, "%s: cannot write", tmp);
	if (e == 2) {	/* no picture of what was not read */
		if (spool != NULL)
			unlink(tmp);
		u_discard();
	}
	if (e)
		u_status = 1;
	if (array != NULL && !gridon)
		u_die(1, "--array %s: no region of that name was registered", array);
	if (regions) {
		FILE *f = u_open(oflag);

		if (nvs == 0)	/* a header alone looked like regions never touched */
			u_warn("--regions: the trace registers no region (REFTRACE_REGION, "
			    "reftrace.h)");
		rt_varstat_write(f, vs, nvs);
		if (u_close(f, oflag))
			exit(1);
	} else if (gridon)
		picture(rt_grid_figure(&grid, width, height, recency, array, title), NULL);
	else
		map(argc, argv, tmp);
	if (spool != NULL)
		unlink(tmp);
	rt_fold_free(fold);
	rt_mappage_free(page);
	rt_ens_free(ens);
	rt_sym_free(objs);
	rt_density_free(&dens);
	rt_grid_free(&grid);
	rt_regions_free(regs);
	rt_mapcats_free(cats);
	free(reg);
	free(vs);
	return u_status;
}
