/* cachestream.c: the cache streams read back through the library's
 * readers and written again, for the round trips of t/1400 and t/1500.
 *	cachestream cache|hist|mrc file */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "cache.h"

int
main(int argc, char *argv[])
{
	struct rt_cache_table t;
	struct rt_histinfo in;
	struct rt_mrc_point *p;
	struct rt_reader *r;
	struct rt_hist *h;
	struct rt_bin *v;
	char err[512];
	size_t n, i;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: cachestream cache|hist|mrc file\n");
		return 2;
	}
	if ((r = rt_lopen(argv[2], err, sizeof err)) == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (strcmp(argv[1], "cache") == 0) {
		if ((rc = rt_cachetab_read(r, &t, err, sizeof err)) == 0)
			rt_cachetab_write(stdout, &t);
	} else if (strcmp(argv[1], "hist") == 0) {
		h = rt_hist_new();
		if ((rc = rt_hist_read(r, h, RT_HIST_EXACT, &in, err, sizeof err)) == 0) {
			v = rt_hist_sorted(h, &n);
			rt_hist_write(stdout, v, n, &in, 1);
			free(v);
		}
		rt_hist_free(h);
	} else {
		if ((rc = rt_mrc_read(r, &p, &n, &in, err, sizeof err)) == 0) {
			printf("%llu %.0f %.17g\n", (unsigned long long)in.block, in.accesses, in.rate);
			for (i = 0; i < n; i++)
				printf("%llu %llu %.17g %.6g\n", (unsigned long long)p[i].blocks,
				    (unsigned long long)p[i].bytes, p[i].misses, p[i].ratio);
		}
		free(p);
	}
	if (rc)
		fprintf(stderr, "%s\n", err);
	rt_rclose(r);
	return rc ? 1 : 0;
}
