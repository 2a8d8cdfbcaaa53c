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
 * closest in address merge while they do not fit), half of the rest by their extent, half by their touches.  Row
 * 0 is the lowest address. */
struct rt_seg { uint64_t lo, hi; uint32_t y0, y1; uint64_t n; };	/* hi, y1 inclusive */
struct rt_fold;
struct rt_fold *rt_fold_new(unsigned shift);
int rt_fold_touch(struct rt_fold *f, uint64_t addr, uint64_t last);	/* -1 no memory */
int rt_fold_layout(struct rt_fold *f, uint32_t height, uint32_t minh, uint32_t gap);
size_t rt_fold_count(const struct rt_fold *f);
const struct rt_seg *rt_fold_seg(const struct rt_fold *f, size_t k);
long rt_fold_row(const struct rt_fold *f, uint64_t addr);	/* -1: in no segment */
void rt_fold_free(struct rt_fold *f);

/* A density raster: per pixel the accesses of each op (enum rt_op). */
struct rt_density {
	uint32_t cols, rows;
	uint32_t (*n)[4];	/* cols x rows, row 0 at the bottom */
};
int rt_density_init(struct rt_density *d, uint32_t cols, uint32_t rows);
void rt_density_add(struct rt_density *d, uint32_t col, uint32_t row, int op);
void rt_density_free(struct rt_density *d);

/* Per-variable metrics: accesses and bytes of each registered region. */
struct rt_varstat {
	uint32_t name;		/* string id */
	uint64_t base, size, elem;
	uint64_t acc[4], bytes;	/* per op; bytes touched in all */
};
#endif

/* The access map as a figure: the raster d in the plot area p of a W x H
 * figure (rt_map_layout gives it), coloured by the op most frequent in a
 * pixel, paler for fewer (bycount: a ramp of log2 counts); the folded
 * address axis with each segment's bounds and name (names[k] or NULL),
 * the cuts between segments marked; time across, n accesses. */
struct rt_fig;
struct rt_plot;
void rt_map_layout(struct rt_plot *p, double W, double H);
struct rt_fig *rt_map_figure(const struct rt_density *d, const struct rt_fold *f,
    const struct rt_plot *p, double W, double H, int bycount, uint64_t n,
    const char *title, const char *const *names);

/* A registered array as a grid of cols columns: per element its
 * accesses, or the time of its last access (recency), as a heat map. */
struct rt_grid {
	uint64_t base, size, elem, cols, rows, nel;
	uint64_t *count, *last;	/* per element; last: access number + 1, 0 never */
};
int rt_grid_init(struct rt_grid *g, uint64_t base, uint64_t size, uint64_t elem, uint64_t cols);
void rt_grid_add(struct rt_grid *g, uint64_t addr, uint64_t last, uint64_t when);
struct rt_fig *rt_grid_figure(const struct rt_grid *g, double W, double H, int recency,
    const char *name, const char *title);
void rt_grid_free(struct rt_grid *g);
