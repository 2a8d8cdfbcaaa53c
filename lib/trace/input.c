/* input.c: the input layer: bytes from a file or gzip members, lines,
 * fields, interning and errors with their place; and the reader calls of
 * streams that are not traces (rt_rgetline, rt_rfield, rt_rpeek).  What
 * kind of stream it is, reader.c says. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "rtint.h"

/* Room enough for the largest binary block and the lines around it. */
#define MAXBUF (RTB_MAXPAYLOAD + 2 * RT_IN_BUFSZ)

/* "path:line: " (or "path: " where line is 0) and the reason. */
static void vmsg(struct rt_reader *, uint64_t, const char *, va_list)
    __attribute__((format(printf, 3, 0)));

static void
vmsg(struct rt_reader *r, uint64_t line, const char *fmt, va_list ap)
{
	int n;

	if (line)
		n = snprintf(r->err, sizeof r->err, "%s:%llu: ", r->path,
		    (unsigned long long)line);
	else
		n = snprintf(r->err, sizeof r->err, "%s: ", r->path);
	vsnprintf(r->err + n, sizeof r->err - n, fmt, ap);
}

const char *
rt_rbad(struct rt_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->eof == 2)	/* a line cut by the stream's failure: that is the cause */
		return r->err;
	va_start(ap, fmt);
	vmsg(r, r->line, fmt, ap);
	va_end(ap);
	return r->err;
}

int
rt_in_fail(struct rt_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(r, 0, fmt, ap);
	va_end(ap);
	r->eof = 2;	/* nothing more will be read */
	return RT_EIO;
}

/* Out of memory ends the stream: what follows may need what was lost. */
int
rt_in_nomem(struct rt_reader *r)
{
	rt_rbad(r, "out of memory");	/* binary: no line, "path: " */
	r->eof = 2;
	return RT_EIO;
}

static ssize_t
rawread(struct rt_reader *r, void *p, size_t n)
{
	ssize_t k;

	do
		k = read(r->fd, p, n);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		rt_in_fail(r, "%s", strerror(errno));
	return k;
}

/* Inflate into p; gzip members may follow each other (as cat makes them). */
static ssize_t
gzfill(struct rt_reader *r, unsigned char *p, size_t n)
{
	z_stream *z = &r->zs;
	ssize_t k;
	int e;

	if (n > (1u << 30))
		n = 1u << 30;
	z->next_out = p;
	z->avail_out = (uInt)n;
	while (z->avail_out == n) {
		if (z->avail_in == 0 && !r->inend) {
			if ((k = rawread(r, r->in, RT_IN_BUFSZ)) < 0)
				return -1;
			if (k == 0)
				r->inend = 1;
			z->next_in = r->in;
			z->avail_in = (uInt)k;
		}
		if (r->gz == 2) {	/* between members */
			if (z->avail_in == 0 && r->inend)
				return 0;
			if (z->avail_in == 0)
				continue;
			if (z->next_in[0] == 0) {	/* zero padding, as tar leaves */
				z->next_in++;
				z->avail_in--;
				continue;
			}
			if (z->next_in[0] != 0x1f) {
				rt_in_fail(r, "trailing garbage after gzip data");
				return -1;
			}
			inflateReset(z);
			r->gz = 1;
		}
		if (z->avail_in == 0 && r->inend) {
			rt_in_fail(r, "truncated gzip input");
			return -1;
		}
		e = inflate(z, Z_NO_FLUSH);
		if (e == Z_STREAM_END)
			r->gz = 2;
		else if (e != Z_OK && e != Z_BUF_ERROR) {
			rt_in_fail(r, "gzip: %s", z->msg ? z->msg : "corrupt data");
			return -1;
		}
	}
	return (ssize_t)(n - z->avail_out);
}

/* Read more behind what is unread: 1 if some came, 0 at the end, -1 on an
 * error (then in r->err, and r->eof == 2).  Unread bytes move to buf[0]. */
static int
rt_in_refill(struct rt_reader *r)
{
	ssize_t n;

	if (r->eof)
		return r->eof == 2 ? -1 : 0;
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
		r->ready = 0;
	}
	if (r->len + 1 >= r->cap) {
		char *nb;

		if (r->cap >= MAXBUF ||
		    (nb = realloc(r->buf, r->cap * 2 + RT_IN_SLACK)) == NULL) {
			rt_in_fail(r, "out of memory");
			return -1;
		}
		r->buf = nb;
		r->cap *= 2;
	}
	if (r->gz)
		n = gzfill(r, (unsigned char *)r->buf + r->len, r->cap - r->len - 1);
	else
		n = rawread(r, r->buf + r->len, r->cap - r->len - 1);
	if (n < 0)
		return -1;
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	if (!r->nul)
		r->nul = memchr(r->buf + r->len, '\0', (size_t)n) != NULL;
	r->len += (size_t)n;
	return 1;
}

char *
rt_in_nul(struct rt_reader *r)
{
	rt_rbad(r, "a NUL byte in the line");
	r->bad = 1;
	return NULL;
}

size_t
rt_in_need(struct rt_reader *r, size_t n)
{
	while (r->len - r->pos < n && rt_in_refill(r) > 0)
		;
	return r->len - r->pos;
}

char *
rt_in_long(struct rt_reader *r)
{
	r->line++;
	rt_rbad(r, "line longer than %u bytes", RT_IN_MAXLINE);
	r->eof = 2;
	return NULL;
}

/* rt_in_line when the buffer holds no whole line: read until it does. */
char *
rt_in_morelines(struct rt_reader *r, size_t *len)
{
	size_t scanned;
	int k;

	for (;;) {
		scanned = r->len - r->pos;	/* none of it a newline */
		if (scanned > RT_IN_MAXLINE)
			return rt_in_long(r);
		if ((k = rt_in_refill(r)) < 0)
			return NULL;
		if (k == 0) {
			if (r->pos == r->len)
				return NULL;
			r->buf[r->len++] = '\n';	/* the last line had none */
			break;
		}
		if (memchr(r->buf + r->pos + scanned, '\n', r->len - r->pos - scanned))
			break;
	}
	return rt_in_line(r, len);
}

char *
rt_in_data(struct rt_reader *r)
{
	char *p;
	size_t n;

	while ((p = rt_in_line(r, &n)) != NULL) {
		p = rt_in_skipws(p);
		if (*p != '\0' && *p != '#')
			return p;
	}
	return NULL;
}

int
rt_in_split(char *p, char **f, int max)
{
	int n = 0;

	for (;;) {
		p = rt_in_skipws(p);
		if (*p == '\0')
			return n;
		if (n == max)
			return n + 1;
		f[n++] = p;
		while (*p && !rt_in_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

size_t
rt_in_unescape(char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, j;

	for (i = j = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && rt_hexval[u[i + 1]] &&
		    rt_hexval[u[i + 2]]) {
			s[j++] = (char)((rt_hexval[u[i + 1]] - 1) << 4 |
			    (rt_hexval[u[i + 2]] - 1));
			i += 2;
		} else
			s[j++] = s[i];
	}
	return j;
}

int
rt_in_str(struct rt_reader *r, const char *s, size_t n, uint32_t *id)
{
	uint32_t k;

	if ((k = rt_str_intern(s, n)) == RT_NOMEM)
		return rt_in_nomem(r);
	*id = k;
	return 0;
}

int
rt_in_locid(struct rt_reader *r, uint32_t file, uint32_t line, uint32_t func,
    uint32_t *loc)
{
	uint32_t k;

	if ((k = rt_loc_intern(file, line, func)) == RT_NOMEM)
		return rt_in_nomem(r);
	*loc = k;
	return 0;
}

int
rt_in_loc(struct rt_reader *r, char *s, size_t n, uint32_t func, uint32_t *loc)
{
	char *c = NULL, *p;
	uint64_t line = 0;
	uint32_t file = 0;
	size_t i;

	for (i = n; i > 0; i--)
		if (s[i - 1] == ':') {
			c = s + i - 1;
			break;
		}
	if (c != NULL) {
		p = c + 1;
		if (rt_in_dec(&p, &line) == 0 && p == s + n && line <= UINT32_MAX)
			n = c - s;
		else
			line = 0;
	}
	if (memchr(s, '%', n))
		n = rt_in_unescape(s, n);
	if (rt_in_str(r, s, n, &file))
		return RT_EIO;
	return rt_in_locid(r, file, (uint32_t)line, func, loc);
}

int
rt_in_same(const struct rt_in_last *c, const char *s, size_t n)
{
	return n < sizeof c->s - 1 && c->s[n] == '\0' && memcmp(c->s, s, n) == 0;
}

void
rt_in_keep(struct rt_in_last *c, const char *s, size_t n)
{
	if (n < sizeof c->s - 1) {
		memcpy(c->s, s, n);
		c->s[n] = '\0';
	} else
		rt_in_forget(c);
}

void
rt_in_forget(struct rt_in_last *c)
{
	c->s[0] = '\1';	/* matches no text */
	c->s[1] = '\0';
}

int
rt_in_field(struct rt_reader *r, struct rt_in_last *c, char *s, size_t n, uint32_t *id)
{
	if (rt_in_same(c, s, n)) {
		*id = c->id;
		return 0;
	}
	rt_in_keep(c, s, n);	/* the text as it comes, before unescaping */
	if (memchr(s, '%', n))
		n = rt_in_unescape(s, n);
	if (rt_in_str(r, s, n, &c->id)) {
		rt_in_forget(c);
		return RT_EIO;
	}
	*id = c->id;
	return 0;
}

/* Look at the first bytes: gzip input is inflated from here on. */
static int
opengz(struct rt_reader *r)
{
	ssize_t k;

	while (r->len < 2) {
		if ((k = rawread(r, r->buf + r->len, r->cap - r->len - 1)) < 0)
			return -1;
		if (k == 0)
			break;
		r->len += (size_t)k;
	}
	if (r->len < 2 || (unsigned char)r->buf[0] != 0x1f ||
	    (unsigned char)r->buf[1] != 0x8b) {
		r->nul = memchr(r->buf, '\0', r->len) != NULL;
		return 0;
	}
	if ((r->in = malloc(RT_IN_BUFSZ)) == NULL) {
		rt_in_fail(r, "%s", strerror(ENOMEM));
		return -1;
	}
	memcpy(r->in, r->buf, r->len);
	r->zs.next_in = r->in;
	r->zs.avail_in = (uInt)r->len;
	r->len = 0;
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) {
		rt_in_fail(r, "gzip: cannot initialise");
		return -1;
	}
	r->gz = 1;
	return 0;
}

struct rt_reader *
rt_in_open(const char *path, char *errbuf, size_t errlen)
{
	struct rt_reader *r;
	int fd;
	const char *name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;

	if ((r = calloc(1, sizeof *r)) != NULL)
		r->fd = -1;
	if (r == NULL ||
	    (r->path = strdup(name)) == NULL ||
	    (r->buf = malloc(RT_IN_BUFSZ + RT_IN_SLACK)) == NULL) {
		snprintf(errbuf, errlen, "%s: %s", name, strerror(ENOMEM));
		goto fail;
	}
	r->cap = RT_IN_BUFSZ;
	if (path == NULL || strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(errbuf, errlen, "%s: %s", name, strerror(errno));
		goto fail;
	}
	r->fd = fd;
	if (opengz(r) == 0)
		return r;
	snprintf(errbuf, errlen, "%s", r->err);
fail:
	rt_in_close(r);
	return NULL;
}

void
rt_in_close(struct rt_reader *r)
{
	if (r == NULL)
		return;
	if (r->gz)
		inflateEnd(&r->zs);
	if (r->fd >= 0)
		close(r->fd);
	free(r->in);
	free(r->path);
	free(r->buf);
	free(r);
}

char *
rt_rgetline(struct rt_reader *r, size_t *len)
{
	size_t n = 0;
	char *s;

	if (r->eof == 2)
		return NULL;
	s = rt_in_line(r, &n);
	if (len != NULL)
		*len = n;
	return s;
}

char *
rt_rfield(struct rt_reader *r, unsigned field)
{
	char *s, *e;
	size_t n;
	unsigned i;

	while ((s = rt_rgetline(r, &n)) != NULL) {
		s += strspn(s, " \t,");
		if (*s == '#' || *s == '\0')
			continue;
		for (i = 1; i < field && *s; i++) {
			s += strcspn(s, " \t,");
			s += strspn(s, " \t,");
		}
		e = s + strcspn(s, " \t,");
		*e = '\0';
		return s;
	}
	return NULL;
}

int
rt_rmalformed(struct rt_reader *r)
{
	int bad = r->bad;

	r->bad = 0;
	return bad;
}

int
rt_rfailed(const struct rt_reader *r)
{
	return r->eof == 2;
}

int
rt_rpeek(struct rt_reader *r, const char *prefix)
{
	size_t n = strlen(prefix);

	return rt_in_need(r, n) >= n && memcmp(r->buf + r->pos, prefix, n) == 0;
}

const char *
rt_rpath(const struct rt_reader *r)
{
	return r->path;
}

const char *
rt_rerror(const struct rt_reader *r)
{
	return r->err;
}
