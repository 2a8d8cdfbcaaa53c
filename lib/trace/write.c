/* write.c: trace output: a buffer before a file, standard output or gzip;
 * the encoding is the format's (its row in the table of formats). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

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

static int
rawwrite(struct rt_writer *w, const void *p, size_t n)
{
	const char *c = p;
	ssize_t k;

	if (w->err)
		return rt_out_fail(w, w->err);
	if (w->gz != NULL) {
		while (n > 0) {
			unsigned chunk = n > (1u << 30) ? 1u << 30 : (unsigned)n;
			int zerr;

			if (gzwrite(w->gz, c, chunk) != (int)chunk) {
				gzerror(w->gz, &zerr);
				return rt_out_fail(w, zerr == Z_ERRNO ? errno : EIO);
			}
			c += chunk;
			n -= chunk;
		}
		return 0;
	}
	while (n > 0) {
		k = write(w->fd, c, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return rt_out_fail(w, errno);
		}
		c += k;
		n -= (size_t)k;
	}
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
	int e, fd;

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
	if (gzip) {
		if ((fd = dup(w->fd)) < 0)
			goto fail;
		errno = 0;
		if ((w->gz = gzdopen(fd, "wb6")) == NULL) {
			e = errno ? errno : ENOMEM;
			close(fd);
			errno = e;
			goto fail;
		}
		gzbuffer(w->gz, RT_OUT_BUFSZ);
	}
	if (w->f->wopen == NULL || w->f->wopen(w) == 0)
		return w;
fail:
	e = errno;
	if (w->gz != NULL)
		gzclose(w->gz);
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
	if (w->gz != NULL) {
		int z = gzclose(w->gz);

		if (z != Z_OK && !w->err)
			w->err = z == Z_ERRNO ? errno : EIO;
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
