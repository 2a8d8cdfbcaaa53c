/* map.h: the trace as a picture (MTV's access map, MapVisual's variable
 * metrics and array grids): the address axis folded to what a trace
 * touched, a density raster of fixed size, per-variable counts. */
#ifndef RT_MAP_H
#define RT_MAP_H

#include <stdint.h>
#include <stdio.h>

/* The folded address axis.  Touched bytes are gathered by granules of
 * 2^shift bytes; granules apart by at least one untouched granule are
 * separate segments (stack, heap, globals), each from the least to the
 * greatest byte touched in it.  rt_fold_layout gives the segments rows
 * of a height: each at least minh, gap rows between them (segments
 * closest in address merge while they do not fit), half of the rest by
 * their extent, half by their touches.  Row 0 is the lowest address.
 * Given owner, the segments it places in one object (an id >= 0, for a
 * loaded object other than the program's; -1 for none) share one band,
 * its extent not counted: a whole program's loader and libc data then
 * take a band each, not a score of them.  0, or RT_ENOMEM. */
struct rt_seg { uint64_t lo, hi; uint32_t y0, y1; uint64_t n; int obj; };	/* hi, y1 inclusive */
struct rt_fold;
typedef int rt_fold_owner(void *ctx, uint64_t lo, uint64_t hi);
struct rt_fold *rt_fold_new(unsigned shift);
RT_WUR int rt_fold_touch(struct rt_fold *f, uint64_t addr, uint64_t last);	/* or RT_ENOMEM */
int rt_fold_layout(struct rt_fold *f, uint32_t height, uint32_t minh, uint32_t gap,
    rt_fold_owner *owner, void *ctx);
size_t rt_fold_count(const struct rt_fold *f);
const struct rt_seg *rt_fold_seg(const struct rt_fold *f, size_t k);
long rt_fold_row(const struct rt_fold *f, uint64_t addr);	/* -1: in no segment */
void rt_fold_free(struct rt_fold *f);

/* A density raster: per pixel the accesses of each op (enum rt_op);
 * with rt_density_classes, also the class most of its accesses had,
 * where one has more than half of them (else one of those it holds):
 * Boyer and Moore's majority vote, two words a pixel.  init and classes:
 * 0, or RT_ENOMEM. */
struct rt_density {
	uint32_t cols, rows;
	uint32_t (*n)[4];	/* cols x rows, row 0 at the bottom */
	uint32_t *cls, *votes;	/* NULL unless classes */
};
int rt_density_init(struct rt_density *d, uint32_t cols, uint32_t rows);
int rt_density_classes(struct rt_density *d);
void rt_density_add(struct rt_density *d, uint32_t col, uint32_t row, int op);
void rt_density_vote(struct rt_density *d, uint32_t col, uint32_t row, uint32_t cls);
void rt_mjrty(uint32_t *cand, uint32_t *votes, uint32_t key);	/* one vote */
void rt_density_free(struct rt_density *d);

/* The classes a map is coloured by when not by op: the key of each
 * access (RT_KEY_REGION, RT_KEY_LOC or RT_KEY_FUNC of cache.h) counted
 * in a first pass; then the max - 1 most frequent are named (all when
 * there are max or fewer), in legend order (by file and line, or name;
 * base names), and the rest are one class, other (class n).  The
 * strongest colours go to the classes with the most accesses. */
struct rt_rec;
struct rt_regions;
struct rt_mapcats;
struct rt_mapcats *rt_mapcats_new(int key);
uint64_t rt_mapcats_key(const struct rt_mapcats *c, const struct rt_rec *r,
    const struct rt_regions *g);
RT_WUR int rt_mapcats_add(struct rt_mapcats *c, uint64_t key);	/* or RT_ENOMEM */
RT_WUR int rt_mapcats_choose(struct rt_mapcats *c, size_t max);	/* or RT_ENOMEM, RT_EUSAGE */
uint32_t rt_mapcats_class(const struct rt_mapcats *c, uint64_t key);
size_t rt_mapcats_count(const struct rt_mapcats *c, size_t *nother);	/* named */
const char *rt_mapcats_name(const struct rt_mapcats *c, size_t k);
uint64_t rt_mapcats_accesses(const struct rt_mapcats *c, size_t k);	/* k <= n */
size_t rt_mapcats_rank(const struct rt_mapcats *c, size_t k);	/* by accesses, from 0 */
int rt_mapcats_keykind(const struct rt_mapcats *c);
void rt_mapcats_free(struct rt_mapcats *c);

/* Per-variable metrics: accesses and bytes of each registered region. */
struct rt_varstat {
	uint32_t name;		/* string id */
	int seen;		/* not registered: a variable the accesses name
				 * (Gleipnir), its extent the bytes they touch */
	uint64_t base, size, elem;
	uint64_t acc[4], bytes;	/* per op; bytes touched in all */
};

/* trmap's tables: --counts (a line per pixel touched, its counts by op,
 * the segments of the folded address axis before them) and --regions (a
 * line per variable); 0, or RT_EIO.  rt_fold_names: each segment's name,
 * the object that holds it (objects other than the program, the fold's
 * obj) or the regions registered in it (NULL: none), nseg + 1 of them;
 * NULL out of memory. */
int rt_density_write(FILE *f, const struct rt_density *d, const struct rt_fold *fold,
    uint64_t n);
int rt_varstat_write(FILE *f, const struct rt_varstat *v, size_t n);
struct rt_varstat *rt_varstat_find(struct rt_varstat *v, size_t n, uint32_t name);	/* or NULL */
char **rt_fold_names(const struct rt_fold *fold, const struct rt_sym *objs,
    const struct rt_rec *reg, size_t nreg);

/* The access map as a figure: the raster d in the plot area p of a W x H
 * figure (rt_map_layout gives it), coloured by the op most frequent in a
 * pixel, paler for fewer (bycount: a ramp of log2 counts; cats: by the
 * pixel's class, d's votes, with a legend of the classes); the folded
 * address axis with each segment's bounds and name (names[k] or NULL),
 * the cuts between segments marked; time across, n accesses. */
struct rt_fig;
struct rt_plot;
void rt_map_layout(struct rt_plot *p, double W, double H, const struct rt_mapcats *cats);
struct rt_fig *rt_map_figure(const struct rt_density *d, const struct rt_fold *f,
    const struct rt_plot *p, double W, double H, int bycount, const struct rt_mapcats *cats,
    uint64_t n, const char *title, const char *const *names);
/* The figure's palette (pal: 256 RGB triples): white, LEVELS shades of
 * each op, a ramp of 64 counts; or shades of each class.  Its colours. */
int rt_map_palette(unsigned char *pal, const struct rt_mapcats *cats, size_t ncat);

/* The access map as one interactive HTML page (lib/map/map.html, built
 * in), everything inline: a pyramid of the map's cells, level k of
 * 2^k times the columns and rows of the plot area p (level 0 is the
 * static picture's raster, its rows as rt_fold_row's), each cell with
 * its accesses per op, the source line, function and region most of
 * them had and its least and greatest byte; packed, deflated, base64.
 * Levels go, finest first, while all take more than RT_MAPPAGE_BYTES
 * packed (level 0 stays).  new: NULL out of memory; add (each access
 * i of the n, in order): 0 or RT_ENOMEM; html: 0, RT_ENOMEM or RT_EIO
 * (nothing written out of memory).  The page colours as the picture
 * does, by op, by count or (catkey an RT_KEY, else -1) by the class of
 * the key most of a pixel's accesses had, the 17 with most named. */
#define RT_MAPPAGE_BYTES (8u << 20)
struct rt_mappage;
struct rt_varstat;
struct rt_mappage *rt_mappage_new(const struct rt_fold *f, const struct rt_regions *g,
    const struct rt_plot *p, double W, double H, uint64_t n, int bycount, int catkey);
RT_WUR int rt_mappage_add(struct rt_mappage *m, uint64_t i, const struct rt_rec *r);
RT_WUR int rt_mappage_html(FILE *f, struct rt_mappage *m, const char *title,
    const char *const *names, const struct rt_varstat *vs, size_t nvs);
int rt_mappage_levels(const struct rt_mappage *m);
/* The page's cache view (MTV's, cachesim's event map): the first
 * configuration of e simulated over the accesses rt_mappage_add takes,
 * as a W-wide event map under the access map, with per cell its
 * accesses by level and evictions, per column its first access (the
 * views share time) and per row the accesses and first-level misses of
 * each source line and region.  0, or RT_EUSAGE or RT_ENOMEM with why. */
struct rt_ens;
int rt_mappage_cache(struct rt_mappage *m, struct rt_ens *e, char *why, size_t whylen);
void rt_mappage_free(struct rt_mappage *m);

/* A registered array as a grid of cols columns: per element its
 * accesses, or the time of its last access (recency), as a heat map.
 * init: 0, RT_ENOMEM, or RT_EUSAGE for no element or more than 2^26. */
struct rt_grid {
	uint64_t base, size, elem, cols, rows, nel;
	uint64_t *count, *last;	/* per element; last: access number + 1, 0 never */
};
int rt_grid_init(struct rt_grid *g, uint64_t base, uint64_t size, uint64_t elem, uint64_t cols);
void rt_grid_add(struct rt_grid *g, uint64_t addr, uint64_t last, uint64_t when);
struct rt_fig *rt_grid_figure(const struct rt_grid *g, double W, double H, int recency,
    const char *name, const char *title);
void rt_grid_free(struct rt_grid *g);
#endif
