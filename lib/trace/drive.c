/* drive.c: the input loop every program shares, a batch of items at a
 * time; the item-by-item loop is that over each batch. */
#include <stdio.h>
#include <string.h>

#include "reftrace.h"

/* 0, -1 when fn stopped, 1 when the input failed before an item of it
 * went to fn, 2 after (fn saw part of it) */
static int
drive(struct rt_reader *r, int skipbad, rt_batch_fn *fn, void *ctx, rt_diag_fn *diag)
{
	struct rt_rec *v;
	int k, some = 0;

	while ((k = rt_readv(r, &v)) != 0) {
		if (k == RT_EBAD && skipbad) {
			diag(rt_rerror(r), 0);
			continue;
		}
		if (k < 0) {
			diag(rt_rerror(r), 1);
			return 1 + some;
		}
		some = 1;
		if (fn(ctx, v, k))
			return -1;
	}
	return 0;
}

/* An rt_item_fn over a batch. */
struct each { rt_item_fn *fn; void *ctx; };

static int
each(void *ctx, struct rt_rec *v, int n)
{
	struct each *e = ctx;
	int i;

	for (i = 0; i < n; i++)
		if (e->fn(e->ctx, &v[i]))
			return -1;
	return 0;
}

int
rt_foreach_reader(struct rt_reader *r, int skipbad, rt_item_fn *fn, void *ctx,
    rt_diag_fn *diag)
{
	struct each e = { fn, ctx };

	return drive(r, skipbad, each, &e, diag);
}

/* part: what the headers so far record; n UINT64_MAX before the first */
static int
one(const char *path, int fmt, int skipbad, rt_batch_fn *fn, void *ctx,
    rt_diag_fn *diag, struct rt_part *part, int *some)
{
	struct rt_part p;
	char err[1024];
	struct rt_reader *r;
	int status;

	*some = 0;
	if ((r = rt_ropen(path, fmt, err, sizeof err)) == NULL) {
		diag(err, 1);
		return 1;
	}
	rt_rpart(r, &p);
	*some = 1;
	if (part->n == UINT64_MAX)
		*part = p;
	else if (!rt_samepart(&p, part))
		memset(part, 0, sizeof *part);	/* not one partition */
	status = drive(r, skipbad, fn, ctx, diag);
	rt_rclose(r);
	if (status == 1)	/* nothing of it read */
		*some = 0;
	return status;
}

int
rt_foreach(char **files, int nfiles, int fmt, int skipbad, rt_item_fn *fn,
    void *ctx, rt_diag_fn *diag)
{
	struct rt_part part;

	return rt_foreach_part(files, nfiles, fmt, skipbad, fn, ctx, diag, &part);
}

int
rt_foreach_part(char **files, int nfiles, int fmt, int skipbad, rt_item_fn *fn,
    void *ctx, rt_diag_fn *diag, struct rt_part *part)
{
	struct each e = { fn, ctx };

	return rt_foreach_batch(files, nfiles, fmt, skipbad, each, &e, diag, part);
}

int
rt_foreach_batch(char **files, int nfiles, int fmt, int skipbad, rt_batch_fn *fn,
    void *ctx, rt_diag_fn *diag, struct rt_part *part)
{
	int i, k, some, read = 0, status = 0;

	memset(part, 0, sizeof *part);
	part->n = UINT64_MAX;
	if (nfiles == 0 && (status = one("-", fmt, skipbad, fn, ctx, diag, part, &some)) >= 0)
		read = some;
	for (i = 0; i < nfiles && status >= 0; i++) {
		k = one(files[i], fmt, skipbad, fn, ctx, diag, part, &some);
		read |= some;
		if (k < 0 || (k && status != 2))
			status = k;
	}
	if (part->n == UINT64_MAX)
		memset(part, 0, sizeof *part);
	return status == 1 && !read ? 2 : status;	/* no input read: nothing stands */
}
