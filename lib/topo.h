/* topo.h: point clouds, their metrics, Vietoris-Rips persistent
 * cohomology and circular coordinates (tswindow, persist, circcoord). */
#ifndef RT_TOPO_H
#define RT_TOPO_H

#include <stddef.h>
#include <stdint.h>

/* A points stream (tswindow): one window a line after the header
 * "#reftrace points 1 seq loc func region s1 ... sw" (symbols) or
 * "... x1 ... xw" (numbers).  Identical windows are merged into one
 * vertex: they are at distance 0, and a Rips filtration with duplicates
 * has the same barcode, bars of length 0 aside. */
struct rt_cloud {
	size_t n;		/* points */
	size_t nv;		/* distinct points: the vertices */
	int dim;		/* w */
	int numeric;		/* numbers, not symbols */
	uint32_t *vert;		/* point -> vertex */
	uint32_t *sym;		/* vertex * dim symbol ids (rt_str ids) */
	double *x;		/* vertex * dim numbers */
	uint64_t *seq;		/* per point */
	uint32_t *loc, *func, *region;	/* per point, rt_str ids of the text */
	char *about;		/* the "# tswindow ..." line, or NULL */
};
/* Read a points stream; 0, or -1 with "file:line: reason" in err.  With
 * skipbad a malformed line goes to diag and is skipped. */
#define RT_POINTS_MAGIC "#reftrace points 1 "
struct rt_reader;
int rt_cloud_read(struct rt_cloud *c, struct rt_reader *r, int skipbad,
    void (*diag)(const char *msg, int fatal), char *err, size_t errlen);
void rt_cloud_free(struct rt_cloud *c);

enum { RT_LEVENSHTEIN, RT_HAMMING, RT_EUCLIDEAN };
int rt_metric_parse(const char *name);	/* -1 if unknown */
const char *rt_metric_name(int m);
/* Edit distance of two symbol strings of length w <= 64, bit-parallel
 * (Myers 1999, in Hyyro's form for the global distance). */
int rt_levenshtein(const uint32_t *a, const uint32_t *b, int w);
/* All distances between vertices, the lower triangle: d(i, j) for i < j
 * at [j * (j - 1) / 2 + i].  NULL when out of memory. */
float *rt_cloud_distances(const struct rt_cloud *c, int metric);
#define RT_TRI(i, j) ((size_t)(j) * ((size_t)(j) - 1) / 2 + (size_t)(i))

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
void rt_graph_free(struct rt_graph *g);

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
};
int rt_ph_compute(struct rt_ph *ph, const struct rt_graph *g, int maxdim, unsigned p);
void rt_ph_free(struct rt_ph *ph);
int rt_prime(uint64_t p);

/* Edge collapse (Glisse and Pritam 2022): a smaller flag filtration with
 * the same persistence.  l gets the surviving edges at their new values;
 * c records every edge of k in the order processed (decreasing value),
 * with its value before and after (INFINITY: removed). */
struct rt_cedge { uint32_t u, v; float f0, f1; };
struct rt_collapse { struct rt_cedge *e; size_t m; };
int rt_collapse(const struct rt_graph *k, struct rt_graph *l, struct rt_collapse *c);
void rt_collapse_free(struct rt_collapse *c);
/* A cocycle z of the collapsed complex at scale eps carried to the whole
 * complex at eps: the entries of its edges of value <= eps in *out. */
int rt_cocycle_extend(const struct rt_graph *k, const struct rt_collapse *c,
    float eps, unsigned p, const struct rt_cocycle_entry *z, size_t nz,
    struct rt_cocycle_entry **out, size_t *nout);

#endif
