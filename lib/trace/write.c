/* write.c: trace output: a buffer before a file, standard output or gzip;
 * the encoding is the format's (its row in the table of formats). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "rtint.h"

__attribute__((noinline)) int
rt_out_fail(struct rt_writer *w, int e)
{
	if (w->err == 0)
		w->err = e;
	errno = w->err;
	return RT_EIO;
}

/* 0, or an errno value */
static int
fdwrite(void *arg, const void *p, size_t n)
{
	const struct rt_writer *w = arg;
	const char *c = p;
	ssize_t k;

	while (n > 0) {
		if ((k = write(w->fd, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int
rawwrite(struct rt_writer *w, const void *p, size_t n)
{
	int e;

	if (w->err)
		return rt_out_fail(w, w->err);
	if (w->z != NULL) {
		if (rt_zout_write(w->z, p, n) < 0)
			return rt_out_fail(w, errno);
		return 0;
	}
	if ((e = fdwrite(w, p, n)) != 0)
		return rt_out_fail(w, e);
	return 0;
}

int
rt_out_flush(struct rt_writer *w, const void *p, size_t n)
{
	if (w->len > 0 && rawwrite(w, w->buf, w->len))
		return RT_EIO;
	w->len = 0;
	if (p == NULL)
		return 0;
	if (n > RT_OUT_BUFSZ)
		return rawwrite(w, p, n);
	memcpy(w->buf, p, n);
	w->len = n;
	return 0;
}

struct rt_writer *
rt_wopen(const char *path, int fmt, int gzip)
{
	struct rt_writer *w;
	int e;

	if ((w = calloc(1, sizeof *w)) == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	w->fd = -1;
	if ((w->buf = malloc(RT_OUT_BUFSZ + RT_OUT_SLACK)) == NULL) {
		errno = ENOMEM;
		goto fail;
	}
	if ((w->f = rt_format_row(fmt == RT_FMT_AUTO ? RT_FMT_TEXT : fmt)) == NULL ||
	    (w->write = w->f->write) == NULL) {
		errno = EINVAL;
		goto fail;
	}
	if (path == NULL || strcmp(path, "-") == 0)
		w->fd = STDOUT_FILENO;
	else if ((w->of = rt_ofile_open(path, &w->fd)) == NULL)
		goto fail;
	/* deflated here, not through a gzFile: gzdopen would take fd 1,
	 * or a dup of it that outlives the hold's switch (util/hold.c) */
	if (gzip && ((w->z = malloc(sizeof *w->z)) == NULL ||
	    rt_zout_init(w->z, 6 | RT_ZGZIP, RT_OUT_BUFSZ, fdwrite, w) < 0)) {
		free(w->z);
		w->z = NULL;
		errno = ENOMEM;
		goto fail;
	}
	if (w->f->wopen == NULL || w->f->wopen(w) == 0)
		return w;
fail:
	e = errno;
	if (w->z != NULL)
		rt_zout_free(w->z);
	free(w->z);
	if (w->fd >= 0 && w->fd != STDOUT_FILENO)
		close(w->fd);
	rt_ofile_end(w->of, 0);
	free(w->buf);
	free(w);
	errno = e;
	return NULL;
}

/* The format's errors go through rt_out_fail, so this is a jump. */
int
rt_write(struct rt_writer *w, const struct rt_rec *r)
{
	if (__builtin_expect(w->err != 0, 0))
		return rt_out_fail(w, w->err);
	return w->write(w, r);
}

/* The stream ended, the file renamed into place if keep and all went
 * well, else removed. */
static int
wend(struct rt_writer *w, int keep)
{
	int e = 0;

	if (w == NULL)
		return 0;
	if (w->f->wclose != NULL)
		w->f->wclose(w);	/* an empty trace still says what it is */
	if (w->len)
		rt_out_flush(w, NULL, 0);
	if (w->z != NULL) {
		if (w->err)
			rt_zout_free(w->z);
		else if (rt_zout_end(w->z) < 0)
			w->err = errno;
		free(w->z);
	}
	if (w->fd != STDOUT_FILENO) {
		if (close(w->fd) && !w->err)
			w->err = errno;
	}
	if (rt_ofile_end(w->of, keep && !w->err) && !w->err)
		w->err = errno;
	e = w->err;
	free(w->buf);
	free(w);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

int
rt_wclose(struct rt_writer *w)
{
	return wend(w, 1);
}

void
rt_wdiscard(struct rt_writer *w)
{
	int e = errno;

	if (w != NULL)
		w->discard = 1;
	wend(w, 0);
	errno = e;
}

int
rt_wpart(struct rt_writer *w, const struct rt_part *p)
{
	int bin = w->f->part == 2;	/* a binary header's fields */

	if (!w->f->part)	/* din, pin: no header */
		return 1;
	if (w->started || p->k >= p->n || p->bytes == 0 ||
	    (bin && (p->n >= 1u << 24 || (p->bytes & (p->bytes - 1)) != 0))) {
		errno = EINVAL;
		return RT_EUSAGE;
	}
	w->part = *p;
	return 0;
}
