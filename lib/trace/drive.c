/* drive.c: the input loop every program shares. */
#include <stdio.h>

#include "reftrace.h"

static int
one(const char *path, int fmt, int skipbad, rt_item_fn *fn, void *ctx,
    rt_diag_fn *diag)
{
	char err[1024];
	struct rt_reader *r;
	struct rt_rec *rec;
	int k, status = 0;

	if ((r = rt_ropen(path, fmt, err, sizeof err)) == NULL) {
		diag(err, 1);
		return 1;
	}
	while ((k = rt_readp(r, &rec)) != 0) {
		if (k == RT_EBAD && skipbad) {
			diag(rt_rerror(r), 0);
			continue;
		}
		if (k < 0) {
			diag(rt_rerror(r), 1);
			status = 1;
			break;
		}
		if (fn(ctx, rec)) {
			status = -1;
			break;
		}
	}
	rt_rclose(r);
	return status;
}

int
rt_foreach(char **files, int nfiles, int fmt, int skipbad, rt_item_fn *fn,
    void *ctx, rt_diag_fn *diag)
{
	int i, k, status = 0;

	if (nfiles == 0)
		return one("-", fmt, skipbad, fn, ctx, diag);
	for (i = 0; i < nfiles; i++) {
		k = one(files[i], fmt, skipbad, fn, ctx, diag);
		if (k < 0)
			return -1;
		if (k)
			status = 1;
	}
	return status;
}
