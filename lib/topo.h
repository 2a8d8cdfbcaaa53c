/* topo.h: point clouds, their metrics, Vietoris-Rips persistent
 * cohomology and circular coordinates (tswindow, persist, circcoord). */
#ifndef RT_TOPO_H
#define RT_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A points stream (tswindow): one window a line after the header
 * "#reftrace points 1 seq loc func region s1 ... sw" (symbols) or
 * "... x1 ... xw" (numbers).  Identical windows are merged into one
 * vertex: they are at distance 0, and a Rips filtration with duplicates
 * has the same barcode, bars of length 0 aside. */
/* What each point carries, in time order: the vertex it became
 * (identical points share one), the seq of its first record, and the
 * texts of its location, function and region (rt_str ids). */
struct rt_pointmap {
	size_t n, cap;
	uint32_t *vert;
	uint64_t *seq;
	uint32_t *loc, *func, *region;
};
/* 0, or RT_ENOMEM. */
int rt_pointmap_add(struct rt_pointmap *m, uint32_t vert, uint64_t seq,
    const char *loc, const char *func, const char *region);
void rt_pointmap_free(struct rt_pointmap *m);

/* A stream may carry several views of the same windows, each w symbols
 * a line after the last ("s1 ... sw t1 ... tw": two views); each view is
 * a cloud of its own, the next chained to the first. */
#define RT_MAXVIEW 2
struct rt_edge { uint32_t i, j; float d; };	/* an edge of a graph */
struct rt_cloud {
	struct rt_cloud *next;	/* the next view, or NULL */
	size_t n;		/* points */
	size_t nv;		/* distinct points: the vertices */
	int dim;		/* w */
	int numeric;		/* numbers, not symbols */
	uint32_t *sym;		/* vertex * dim symbol ids (rt_str ids) */
	double *x;		/* vertex * dim numbers */
	struct rt_pointmap pm;	/* per point (none for a matrix: point i is vertex i) */
	char *about;		/* the "# tswindow ..." line, or NULL */
	struct rt_edge *edge;	/* a sparse matrix's pairs, i < j, the only distances */
	size_t nedge;
};
/* Read a points stream: 0, or RT_EBAD, RT_EIO or RT_ENOMEM with
 * "file:line: reason" in err.  With skipbad a malformed line goes to diag
 * and is skipped. */
struct rt_reader;
RT_WUR int rt_cloud_read(struct rt_cloud *c, struct rt_reader *r, int skipbad,
    void (*diag)(const char *msg, int fatal), char *err, size_t errlen);
void rt_cloud_free(struct rt_cloud *c);	/* and the views after it */

/* Each instruction's last address (lib/topo/steps.c), for windows of
 * steps: rt_steps_next gives 1 at an instruction's first access, 0 with
 * the change of address since its last in *step, RT_ENOMEM.
 * Zeroed is empty. */
struct rt_steps { uint64_t *pc, *addr; size_t mask, n; };
int rt_steps_next(struct rt_steps *s, uint64_t pc, uint64_t addr, int64_t *step);
void rt_steps_free(struct rt_steps *s);
/* Write a points stream: the header (w symbols, or numbers), a comment
 * about its making, then a line a window, built in a buffer: begin (20
 * bytes and the three texts', a space each), w symbols (a space and its
 * n bytes) or numbers (RT_POINTS_NUM bytes at most), end (a newline).
 * Each returns the end of the line so far; an empty text is written '-'. */
#define RT_POINTS_NUM 26
int rt_points_head(FILE *f, int numeric, int w, int nview, const char *about);
char *rt_points_begin(char *p, uint64_t seq, const char *loc, const char *func,
    const char *region);
char *rt_points_num(char *p, double x);
char *rt_points_end(char *p);

/* A points stream's windows, their lines made on threads (lib/topo/
 * windows.c): the caller fills each item in turn (rt_win_next: a struct
 * rt_winsym of symbols, or a struct rt_winnum of a series) and pushes
 * it; a chunk of items at a time, the windows complete in it are made
 * into lines, a range of them a thread, while the caller fills the next
 * chunk, and handed to put in order.  With one thread the lines are made
 * in the caller's thread, nothing overlaps.  Memory stays that of a
 * chunk, whatever the length of the stream. */
#define RT_WINSYM 48	/* a symbol or a text column, its NUL included */
/* A column: a blank and the n bytes at s, or '-' where there are none. */
static inline char *
rt_points_text(char *p, const char *s, size_t n)
{
	*p = ' ';
	if (n == 0) {
		p[1] = '-';
		return p + 2;
	}
	memcpy(p + 1, s, n);
	return p + 1 + n;
}
/* A symbol of RT_WINSYM bytes at s, its first len written: all of them are
 * copied (p has room for RT_WINSYM + 1), as one copy of a known size
 * costs less than a call and a copy of len (twenty symbols a line). */
static inline char *
rt_points_sym(char *p, const char *s, size_t len)
{
	if (len == 0)
		return rt_points_text(p, s, 0);
	*p = ' ';
	memcpy(p + 1, s, RT_WINSYM);
	return p + 1 + len;
}
struct rt_winsym {
	uint64_t seq;
	char meta[3][RT_WINSYM];	/* loc, func, region */
	char sym[RT_MAXVIEW][RT_WINSYM];	/* a symbol a view */
	uint8_t len[RT_MAXVIEW];
};
struct rt_winnum { uint64_t seq; double x; };
/* put gets the lines in order and returns 0, or an error to stop with. */
typedef int rt_win_put(void *ctx, const char *p, size_t n);
struct rt_win;
/* w items a window, lag apart (a series), a window every stride items,
 * nview symbols an item (0: numbers): NULL when out of memory, or when
 * a chunk would take more than this machine's memory. */
struct rt_win *rt_win_new(size_t w, uint64_t lag, uint64_t stride, int nview,
    unsigned threads, rt_win_put *put, void *ctx);
void *rt_win_next(struct rt_win *x);	/* the item to fill */
/* The item filled taken: 0, RT_ENOMEM or put's error (no lines are
 * being made then). */
RT_WUR int rt_win_push(struct rt_win *x);
/* The last chunk's lines made and put: 0, RT_ENOMEM or put's error. */
RT_WUR int rt_win_end(struct rt_win *x);
uint64_t rt_win_points(const struct rt_win *x);	/* the windows of full chunks, all after rt_win_end */
void rt_win_free(struct rt_win *x);

enum { RT_LEVENSHTEIN, RT_HAMMING, RT_EUCLIDEAN };
int rt_metric_parse(const char *name);	/* -1 if unknown */
const char *rt_metric_name(int m);
/* Edit distance of two symbol strings of length w, in two rows of w + 1
 * ints: the plain algorithm. */
int rt_levenshtein_long(const uint32_t *a, const uint32_t *b, int w, int *row);
/* The same for any w up to the one s was made for, bit-parallel in
 * blocks of 64 (Myers 1999): w * ceil(w / 64) steps.  One s a thread;
 * for w <= 64, s may be NULL. */
struct rt_lev;
struct rt_lev *rt_lev_new(int w);	/* NULL: out of memory */
void rt_lev_free(struct rt_lev *s);
int rt_edit(const uint32_t *a, const uint32_t *b, int w, struct rt_lev *s);
/* All distances between vertices, the lower triangle: d(i, j) for i < j
 * at [j * (j - 1) / 2 + i] (of a sparse matrix, infinite but its pairs);
 * one more than cap may be given as infinite (INFINITY: none).  NULL when
 * out of memory. */
float *rt_cloud_distances(const struct rt_cloud *c, int metric, float cap);
/* The pairs of windows within cap by Levenshtein distance, every pair
 * measured (or bounded) but no triangle kept: 0, RT_ENOMEM, or RT_EUSAGE
 * for numbers, a matrix, or windows of more than 64 symbols. */
int rt_cloud_pairs(const struct rt_cloud *c, float cap, struct rt_edge **e, size_t *m);
/* Distances are single precision: a distance read is at most FLT_MAX, and
 * a coordinate of a point of dim of them at most rt_coord_max(dim) in
 * magnitude, so that no distance between two points overflows to inf. */
double rt_coord_max(size_t dim);
#define RT_TRI(i, j) ((size_t)(j) * ((size_t)(j) - 1) / 2 + (size_t)(i))

/* The pairs of vertices of a cloud of symbols within distance tau
 * (RT_LEVENSHTEIN or RT_HAMMING), found without all pairs (a prefix-
 * filtered overlap join), on threads threads: *e (the caller frees) gets
 * the m edges i < j, in no order.  0, RT_ENOMEM, RT_ELIMIT when there
 * are more than maxedges, or RT_EUSAGE for numbers, another metric, or
 * windows of 2048 symbols or more; *candidates says how many pairs were
 * measured. */
struct rt_edge;
RT_WUR int rt_join(const struct rt_cloud *c, int metric, int tau, unsigned threads,
    size_t maxedges, struct rt_edge **e, size_t *m, uint64_t *candidates);

/* Landmarks among the vertices by maxmin, the first the vertex of the
 * first point, until every vertex is within target of one (and there are
 * least) or there are *nl (then how many there are): land[] gets them in
 * the order chosen;
 * near[v] the index of vertex v's nearest landmark, d[v] its distance;
 * *cover the largest d.  0, RT_ENOMEM, or RT_EUSAGE for none asked. */
int rt_landmarks(const struct rt_cloud *c, int metric, size_t *nl, size_t least, float target,
    unsigned threads, uint32_t *land, uint32_t *near, float *d, float *cover);

/* The cloud reduced to the nl landmarks land[]: their rows, and each
 * point's vertex near[] of its own.  0, or RT_ENOMEM. */
int rt_cloud_keep(struct rt_cloud *c, const uint32_t *land, size_t nl, const uint32_t *near);

/* The neighbourhood graph at a threshold: for every vertex its neighbours
 * in increasing order with their distances (compressed rows). */
struct rt_graph {
	size_t n;
	size_t *off;		/* n + 1 */
	uint32_t *nb;
	float *d;
	float thresh;
};
int rt_graph_build(struct rt_graph *g, const float *tri, size_t n, float thresh);
/* The same from a list of edges i < j < n, each once; sorts e. */
int rt_graph_from_edges(struct rt_graph *g, size_t n, struct rt_edge *e, size_t m, float thresh);
void rt_graph_free(struct rt_graph *g);
/* The position of b in the row of a, or SIZE_MAX. */
size_t rt_graph_slot(const struct rt_graph *g, uint32_t a, uint32_t b);
/* Every triangle i < j < k with its three edges at most eps; the slots
 * of ij and ik in the row of i, and of jk in the row of j. */
typedef void rt_triangle_fn(void *ctx, uint32_t i, uint32_t j, uint32_t k,
    size_t ij, size_t jk, size_t ik);
void rt_graph_triangles(const struct rt_graph *g, float eps, rt_triangle_fn *fn, void *ctx);
/* Union-find over up[v] (up[v] = v to start): the root, and a join that
 * says whether the two were apart. */
uint32_t rt_uf_find(uint32_t *up, uint32_t v);
int rt_uf_join(uint32_t *up, uint32_t a, uint32_t b);

/* Persistent cohomology of the Vietoris-Rips filtration of a graph's
 * clique complex, coefficients in Z/p, dimensions 0 to maxdim (<= 2),
 * after Bauer, "Ripser", 2021: cohomology, clearing, implicit
 * coboundaries, emergent pairs.  Bars of length 0 are not reported. */
struct rt_cocycle_entry { uint32_t i, j; uint32_t coef; };
struct rt_bar {
	int dim;
	float birth, death;	/* death INFINITY: alive at the threshold */
	uint32_t v[3];		/* the simplex that gives birth (cohomology) */
	size_t cocycle, ncocycle;	/* dimension 1: its entries in rt_ph.cocycle */
};
struct rt_ph {
	struct rt_bar *bar;
	size_t nbar;
	struct rt_cocycle_entry *cocycle;
	size_t ncocycle;
	uint64_t columns, emergent, reduced;	/* work done, for the curious */
	uint64_t apparent;	/* apparent pairs, their simplices not columns */
};
/* Persistent cohomology of the flag complex of g up to dimension maxdim,
 * over Z/p, reduced on threads threads (the result does not depend on
 * how many). */
int rt_ph_compute(struct rt_ph *ph, const struct rt_graph *g, int maxdim, unsigned p,
    unsigned threads);
void rt_ph_free(struct rt_ph *ph);
int rt_prime(uint64_t p);

/* Edge collapse (Glisse and Pritam 2022): a smaller flag filtration with
 * the same persistence.  l gets the surviving edges at their new values;
 * c records every edge of k in the order processed (decreasing value),
 * with its value before and after (INFINITY: removed). */
/* an edge moved from f0 to f1 (INFINITY: gone), dom the vertex that
 * dominated it last (UINT32_MAX if it stayed) */
struct rt_cedge { uint32_t u, v; float f0, f1; uint32_t dom; };
/* e[0, m) the edges from the last; the first tried of them were tried
 * (the collapse stops where edges no longer go) */
struct rt_collapse { struct rt_cedge *e; size_t m, tried; };
int rt_collapse(const struct rt_graph *k, struct rt_graph *l, struct rt_collapse *c);
void rt_collapse_free(struct rt_collapse *c);
/* A cocycle z of the collapsed complex at scale eps carried to the whole
 * complex at eps, in two steps, the first (the costly one) the same for
 * every cocycle at eps: the removed edges to put back, each with its
 * dominator. */
struct rt_replay { float eps; size_t n, need; uint32_t (*uvd)[3]; };
int rt_replay_plan(struct rt_replay *r, const struct rt_graph *k,
    const struct rt_collapse *c, float eps);
int rt_replay_apply(const struct rt_replay *r, const struct rt_collapse *c, unsigned p,
    const struct rt_cocycle_entry *z, size_t nz, struct rt_cocycle_entry **out,
    size_t *nout);
void rt_replay_free(struct rt_replay *r);

/* Distance matrices and point clouds as Ripser reads them (its --format
 * names): a lower or an upper triangle, its entries in any line layout,
 * a full square matrix (its lower triangle is used), "i j d" lines (the
 * pairs not given infinitely far apart) or rows of coordinates
 * (Euclidean).  c gets n and nv (and the coordinates of a cloud), *tri
 * the lower triangle, but for "i j d" lines c->edge their pairs (*tri
 * NULL: memory follows the pairs).  0, or RT_EBAD (the data, or a
 * triangle or vertex table larger than the memory here) or RT_ENOMEM,
 * with "path[:line]: reason" in err. */
enum { RT_MATRIX_LOWER, RT_MATRIX_DISTANCE, RT_MATRIX_CLOUD, RT_MATRIX_UPPER,
	RT_MATRIX_SPARSE };
/* lower-distance, distance, point-cloud, upper-distance, sparse */
int rt_matrix_parse(const char *name);
int rt_matrix_read(struct rt_reader *r, int kind, struct rt_cloud *c, float **tri,
    char *err, size_t errlen);
int rt_matrix_write_lower(FILE *f, const float *tri, size_t n);

/* Told a complex's vertices and edges, and the distance they are within,
 * once its edges are known and before its collapse and reduction, the
 * costly part (fn NULL, or the hook NULL: nobody is told). */
typedef void rt_size_fn(void *ctx, size_t vertices, size_t edges, float thresh);
struct rt_sizehook { rt_size_fn *fn; void *ctx; };
/* A Rips complex up to thresh: its graph, the graph after the edge
 * collapse (when collapse), and the persistence of the one computed;
 * hook told its size between the two. */
struct rt_rips {
	struct rt_graph g, lg;
	struct rt_collapse col;
	struct rt_ph ph;
	int collapsed;
	float cone;	/* rt_rips_compute's pairs cut at the enclosing radius: it; else 0 */
};
/* The pairs within thresh, or within the enclosing radius where it is
 * less (the complex is a cone past it: the same bars, every class dead). */
int rt_rips_compute(struct rt_rips *x, const float *tri, size_t n, float thresh, int maxdim,
    unsigned p, int collapse, unsigned threads, const struct rt_sizehook *hook);
/* The same from the graph already in x->g (x otherwise zero). */
int rt_rips_graph(struct rt_rips *x, int maxdim, unsigned p, int collapse, unsigned threads,
    const struct rt_sizehook *hook);
void rt_rips_free(struct rt_rips *x);
/* The threshold from the filtration: the least distance at which the
 * classes most persistent in dimension 1 are known (they have died, and
 * no class alive there could outlast them), and x computed there; why
 * says which.  NAN out of memory. */
float rt_threshold_resolve(struct rt_rips *x, const float *tri, size_t n, size_t classes,
    int maxdim, unsigned p, int collapse, unsigned threads, const struct rt_sizehook *hook,
    char *why, size_t whylen);
/* The same for windows of symbols without all pairs: each level's edges
 * from rt_join, until the classes are known (*known 1) or a level has
 * more than maxedges edges (the level before it, *known 0), to *thresh.
 * 0, RT_ENOMEM, or RT_ELIMIT when even level 1 has too many (why says
 * so). */
RT_WUR int rt_threshold_sparse(struct rt_rips *x, const struct rt_cloud *c, int metric,
    size_t classes, int maxdim, unsigned p, int collapse, unsigned threads,
    size_t maxedges, const struct rt_sizehook *hook, float *thresh, int *known, char *why,
    size_t whylen);

/* The complex persist takes when no threshold is given.  At most
 * exact distinct points: all pairs, and the threshold from the filtration
 * (rt_threshold_resolve).  More, of symbols: the sparse levels of
 * rt_threshold_sparse up to maxedges edges; if the classes are not known
 * by then, exact landmarks by maxmin stand for the points and all their
 * pairs are taken, as long as they come within cover of every point;
 * else the sparse levels stay, with the classes unknown.  Numbers: exact
 * landmarks.  c is reduced to its landmarks when they are taken.  hook
 * is told the size of every complex computed on the way. */
/* All pairs of up to RT_WHOLE distinct points when the threshold is
 * given and landmarks were not asked for: Ripser's barcode. */
#define RT_WHOLE 8192
struct rt_plan {
	size_t exact, maxedges, classes;
	int asked;		/* exact was asked for, not the default */
	int coverasked;		/* and cover */
	double cover;
	double thresh;		/* given, or -1: chosen */
	int metric, maxdim, collapse;
	unsigned p, threads;
	struct rt_sizehook hook;
};
struct rt_planned {
	float thresh;
	size_t distinct;	/* the points' distinct vertices */
	int landmarks;		/* c's vertices are landmarks */
	float cover;		/* then the largest distance to one */
	int known;		/* the classes asked for are known at thresh */
	char why[512];
};
/* 0, or RT_ENOMEM (a limit met on the way is a reason to take
 * landmarks, not an error). */
RT_WUR int rt_rips_auto(struct rt_rips *x, struct rt_cloud *c, float **tri, const struct rt_plan *pl,
    struct rt_planned *out);

/* The persistence stream (persist writes it, circcoord reads it): the
 * barcode ranked by dimension and persistence, the classes of dimension 1
 * chosen for cocycles with the scale each cocycle is given at, which
 * vertex every point became, and the edges up to the largest scale. */
struct rt_pbar {
	int dim;
	size_t rank;
	double birth, death;	/* death INFINITY: alive at the threshold */
	size_t tie;		/* the rank of the first bar as persistent as this */
};
#define RT_TRAJ 128	/* a class's running winding, sampled along time */
struct rt_pclass {
	size_t rank;		/* among the classes of every view; 0 none */
	size_t bar;		/* its bar's rank in its view's barcode */
	double birth, death, scale;	/* death INFINITY: alive at the threshold */
	struct rt_cocycle_entry *z;	/* i < j, 0 < coef < modulus */
	size_t nz;
	long wind;		/* the cocycle summed along the points in time order */
	double steady;		/* |wind| over the turns either way: 1 never back */
	uint64_t first, last;	/* the seqs of its first and last turn */
	long traj[RT_TRAJ];	/* the running sum at RT_TRAJ even steps of time */
	size_t kbeg, kend;	/* the steps before its first turn and after its last */
};
struct rt_pers {
	size_t npoints, nvert;
	char metric[32];
	unsigned modulus;
	int dim;
	double threshold;
	size_t distinct;	/* distinct points, when the vertices are landmarks */
	double cover;		/* the largest distance of a point to its landmark */
	char why[512];		/* how the threshold was chosen */
	char about[256];	/* the points' own comment */
	char view[32];		/* the symbols of this view of the windows */
	struct rt_pbar *bar;
	size_t nbar;
	struct rt_pclass *cls;
	size_t ncls;
	struct rt_pointmap pm;	/* per point (pm.n 0: point i is vertex i) */
	struct rt_graph g;	/* the edges (written up to upto) */
	double upto;
	int owned;		/* the points and the graph are ours to free */
};
/* The barcode of ph ranked, and the ncand most persistent classes of
 * dimension 1 (at least minpers persistent; more where they tie, up to
 * 4 ncand) with their cocycles, carried back through the collapse col
 * (NULL: none) to the graph g, and walked along the points of pm (NULL
 * or empty: no time order).  The caller fills the rest; g and the points
 * are borrowed. */
int rt_pers_build(struct rt_pers *p, const struct rt_ph *ph, const struct rt_graph *g,
    const struct rt_collapse *col, unsigned modulus, size_t ncand, double minpers,
    const struct rt_pointmap *pm);
/* A class's winding along the points in time order (path: each point's
 * vertex, seq its seq, n points): wind, steady, first, last, traj. */
int rt_class_walk(struct rt_pclass *c, unsigned p, const uint32_t *path,
    const uint64_t *seq, size_t n);
/* The classes of nview persistence streams of the same points ranked as
 * one: those that wind first, then by persistence, how steadily, how
 * many turns; a class that advances with one ranked before it is the
 * same loop and is dropped, and so is every class past nclasses. */
int rt_pers_rank(struct rt_pers *p, size_t nview, size_t nclasses);
int rt_pers_write(FILE *f, const struct rt_pers *p);
/* Every view's stream, into p[0 .. *nview - 1] (RT_MAXVIEW at most): 0,
 * or RT_EBAD, RT_ENOMEM with the reason in err and nothing to free;
 * every vertex, rank and coefficient is checked against what the stream
 * declared. */
struct rt_reader;
int rt_pers_readall(struct rt_pers *p, size_t *nview, struct rt_reader *r, char *err,
    size_t errlen);
void rt_pers_free(struct rt_pers *p);

/* Circular coordinates of a class: its cocycle z (i < j, in Z/p) lifted
 * to the integers and repaired, then the least-squares f on the edges of
 * g at most eps, theta = f mod 1 per vertex (NAN without an edge there).
 * vert maps the points, in time order, to vertices (NULL: the identity):
 * they weigh the edges when weighted, and give the winding number. */
struct rt_circ {
	double *theta;
	double eps, winding, residual;
	size_t edges, components, isolated;
	size_t badlift;		/* triangles where the lift stays wrong */
	double packed;		/* the most of its turns a quarter of the points hold */
	size_t first, last;	/* the points where its turns begin and end */
};
int rt_circ_coords(struct rt_circ *res, const struct rt_graph *g, double eps, unsigned p,
    const struct rt_cocycle_entry *z, size_t nz, const uint32_t *vert, size_t npoints,
    int weighted, char *err, size_t errlen);
void rt_circ_free(struct rt_circ *res);
/* The scale fraction of the way from birth to death (top, the largest
 * scale given, when the death is unknown), down to an edge value of g. */
double rt_circ_scale(const struct rt_graph *g, double birth, double death, double top,
    double fraction);

/* The coordinates stream (circcoord writes it, plotspiral reads it): a
 * row per circle, then every point, in time order, with its angles. */
struct rt_circle {
	size_t rank;		/* the class in the persistence stream */
	double birth, death, scale;
	size_t edges, components, isolated;
	double winding, residual;
	uint64_t first, last;	/* the seqs where its turns begin and end */
};
struct rt_coords {
	int radians;		/* written in radians; read back into turns */
	struct rt_circle *circ;
	size_t ncirc;
	struct rt_pointmap pm;	/* the points */
	double *theta;		/* pm.n * ncirc, in turns; NAN undefined */
	int owned;
};
int rt_coords_write(FILE *f, const struct rt_coords *c);
int rt_coords_read(struct rt_coords *c, struct rt_reader *r, char *err, size_t errlen);
void rt_coords_free(struct rt_coords *c);

#endif
