/* write.c: trace writers: reftrace text, reftrace binary, Dinero IV din. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "reftrace.h"
#include "rtint.h"

#define OBUFSZ (256u << 10)

struct rt_writer {
	int fd;
	gzFile gz;		/* when compressing */
	int fmt;
	int err;		/* first errno, sticky */
	char *buf;
	size_t len;
	int started;		/* header written */

	/* binary: the block being built */
	unsigned char *blk;
	size_t blen, bcap;
	uint32_t bcount;
	struct rt_rec prev;	/* addr: the last data address */
	uint64_t iaddr;		/* the last fetch address */
	unsigned char *sdone, *ldone;	/* ids already defined in the stream */
	uint32_t nsdone, nldone;
};

static int start(struct rt_writer *w);

static int
flushbuf(struct rt_writer *w, const void *p, size_t n)
{
	const char *c = p;
	ssize_t k;

	if (w->err)
		return -1;
	if (w->gz != NULL) {
		while (n > 0) {
			unsigned chunk = n > (1u << 30) ? 1u << 30 : (unsigned)n;
			int zerr;

			if (gzwrite(w->gz, c, chunk) != (int)chunk) {
				gzerror(w->gz, &zerr);
				w->err = zerr == Z_ERRNO ? errno : EIO;
				return -1;
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
			w->err = errno;
			return -1;
		}
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int
out(struct rt_writer *w, const void *p, size_t n)
{
	if (w->len + n > OBUFSZ) {
		if (flushbuf(w, w->buf, w->len))
			return -1;
		w->len = 0;
		if (n > OBUFSZ)
			return flushbuf(w, p, n);
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
	return 0;
}

struct rt_writer *
rt_wopen(const char *path, int fmt, int gzip)
{
	struct rt_writer *w;
	int e;

	if ((w = calloc(1, sizeof *w)) == NULL || (w->buf = malloc(OBUFSZ + 64)) == NULL) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fmt = fmt == RT_FMT_AUTO ? RT_FMT_TEXT : fmt;
	if (w->fmt != RT_FMT_TEXT && w->fmt != RT_FMT_BINARY && w->fmt != RT_FMT_DIN) {
		free(w->buf);
		free(w);
		errno = EINVAL;
		return NULL;
	}
	if (path == NULL || strcmp(path, "-") == 0)
		w->fd = STDOUT_FILENO;
	else if ((w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0) {
		e = errno;
		free(w->buf);
		free(w);
		errno = e;
		return NULL;
	}
	if (gzip) {
		int fd = dup(w->fd);

		if (fd < 0 || (w->gz = gzdopen(fd, "wb6")) == NULL) {
			e = errno ? errno : ENOMEM;
			if (fd >= 0)
				close(fd);
			if (w->fd != STDOUT_FILENO)
				close(w->fd);
			free(w->buf);
			free(w);
			errno = e;
			return NULL;
		}
		gzbuffer(w->gz, OBUFSZ);
	}
	return w;
}

/* Number formatting into p; returns the end. */
static char *
putdec(char *p, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	char t[48], *e = t + 24, *q = e;
	size_t n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, pairs + 2 * v, 2);
	} else
		*--q = (char)('0' + v);
	n = (size_t)(e - q);
	memcpy(p, q, 24);	/* a constant copy; callers leave 24 bytes of slack */
	return p + n;
}

static char *
puthex(char *p, uint64_t v)
{
	static const char dig[] = "0123456789abcdef";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1, i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = dig[v & 15];
		v >>= 4;
	}
	return p + n;
}

/* A text field: '-' when empty; blanks, '%' and controls escaped. */
static int
putfield(struct rt_writer *w, const char *s)
{
	static const char dig[] = "0123456789ABCDEF";
	char t[3];
	const char *c;

	if (*s == '\0')
		return out(w, "-", 1);
	for (c = s; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == '%' || *c == 0x7f)
			break;
	if (*c == '\0' && !(s[0] == '-' && s[1] == '\0'))
		return out(w, s, c - s);
	for (c = s; *c; c++) {
		if ((unsigned char)*c <= ' ' || *c == '%' || *c == 0x7f ||
		    (c == s && *c == '-' && c[1] == '\0')) {
			t[0] = '%';
			t[1] = dig[(unsigned char)*c >> 4];
			t[2] = dig[*c & 15];
			if (out(w, t, 3))
				return -1;
		} else if (out(w, c, 1))
			return -1;
	}
	return 0;
}

static int
write_text(struct rt_writer *w, const struct rt_rec *r)
{
	char line[128], *p = line;
	const struct rt_loc *l;

	if (!w->started && start(w))
		return -1;
	if (r->kind != RT_ACCESS) {
		static const char *kw[] = { "", "#mark ", "#region ", "#object " };

		p = stpcpy(p, kw[r->kind < 4 ? r->kind : 1]);
		p = putdec(p, r->seq);
		*p++ = ' ';
		if (out(w, line, p - line) || putfield(w, rt_str(r->name)))
			return -1;
		p = line;
		if (r->kind == RT_REGION || r->kind == RT_OBJECT) {
			p = stpcpy(p, " 0x");
			p = puthex(p, r->addr);
		}
		if (r->kind == RT_REGION) {
			*p++ = ' ';
			p = putdec(p, r->size);
			*p++ = ' ';
			p = putdec(p, r->elem);
		}
		*p++ = '\n';
		return out(w, line, p - line);
	}
	/* the fixed fields straight into the output buffer */
	if (w->len + 128 > OBUFSZ) {
		if (flushbuf(w, w->buf, w->len))
			return -1;
		w->len = 0;
	}
	p = w->buf + w->len;
	p = putdec(p, r->seq);
	*p++ = ' ';
	*p++ = rt_opchar[r->op & 3];
	*p++ = ' ';
	*p++ = '0';
	*p++ = 'x';
	p = puthex(p, r->addr);
	*p++ = ' ';
	p = putdec(p, r->size);
	*p++ = ' ';
	if (r->tid == RT_NOTID)
		*p++ = '-';
	else
		p = putdec(p, r->tid);
	*p++ = ' ';
	if (r->pc == RT_NOPC)
		*p++ = '-';
	else {
		*p++ = '0';
		*p++ = 'x';
		p = puthex(p, r->pc);
	}
	if (r->loc == 0 && r->var == 0) {
		memcpy(p, " - - -\n", 7);
		w->len = p + 7 - w->buf;
		return 0;
	}
	w->len = p - w->buf;
	p = line;
	*p++ = ' ';
	if (out(w, line, p - line))
		return -1;
	l = rt_loc_get(r->loc);
	if (l->file == 0 && l->line == 0) {
		if (out(w, "-", 1))
			return -1;
	} else {
		if (putfield(w, rt_str(l->file)))
			return -1;
		p = line;
		*p++ = ':';
		p = putdec(p, l->line);
		if (out(w, line, p - line))
			return -1;
	}
	if (out(w, " ", 1) || putfield(w, rt_str(l->func)) || out(w, " ", 1) ||
	    putfield(w, rt_str(r->var)))
		return -1;
	return out(w, "\n", 1);
}

/* din: one line per access; a modify is a read then a write. */
static int
write_din(struct rt_writer *w, const struct rt_rec *r)
{
	char line[64], *p = line;

	if (r->kind != RT_ACCESS)
		return 0;
	switch (r->op) {
	case RT_READ: *p++ = '0'; break;
	case RT_WRITE: *p++ = '1'; break;
	case RT_IFETCH: *p++ = '2'; break;
	default:
		*p++ = '0';
		*p++ = ' ';
		p = puthex(p, r->addr);
		*p++ = ' ';
		p = putdec(p, r->size);
		*p++ = '\n';
		*p++ = '1';
		break;
	}
	*p++ = ' ';
	p = puthex(p, r->addr);
	*p++ = ' ';
	p = putdec(p, r->size);
	*p++ = '\n';
	return out(w, line, p - line);
}

/* Binary */
static unsigned char *
putvar(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static uint64_t
zig(uint64_t d)
{
	return (d << 1) ^ (0 - (d >> 63));
}

static int
blkroom(struct rt_writer *w, size_t n)
{
	unsigned char *nb;
	size_t nc;

	if (w->blen + n <= w->bcap)
		return 0;
	nc = w->bcap ? w->bcap : 1u << 20;
	while (nc < w->blen + n)
		nc *= 2;
	if ((nb = realloc(w->blk, nc)) == NULL) {
		w->err = ENOMEM;
		return -1;
	}
	w->blk = nb;
	w->bcap = nc;
	return 0;
}

static int
endblock(struct rt_writer *w)
{
	unsigned char h[8];
	uint32_t n = (uint32_t)w->blen;

	if (w->bcount == 0)
		return 0;
	h[0] = n; h[1] = n >> 8; h[2] = n >> 16; h[3] = n >> 24;
	n = w->bcount;
	h[4] = n; h[5] = n >> 8; h[6] = n >> 16; h[7] = n >> 24;
	if (out(w, h, 8) || out(w, w->blk, w->blen))
		return -1;
	w->blen = 0;
	w->bcount = 0;
	return 0;
}

static int
marked(unsigned char **done, uint32_t *n, uint32_t id)
{
	uint32_t nn;
	unsigned char *nd;

	if (id >= *n) {
		nn = *n ? *n : 1024;
		while (nn <= id)
			nn *= 2;
		if ((nd = realloc(*done, nn)) == NULL)
			return -1;
		memset(nd + *n, 0, nn - *n);
		*done = nd;
		*n = nn;
	}
	if ((*done)[id])
		return 1;
	(*done)[id] = 1;
	return 0;
}

/* Define a string in the stream before its first use. */
static int
defstr(struct rt_writer *w, uint32_t id)
{
	const char *s;
	size_t n;
	unsigned char *p;
	int k;

	if (id == 0)
		return 0;
	if ((k = marked(&w->sdone, &w->nsdone, id)) != 0)
		return k < 0 ? -1 : 0;
	s = rt_str(id);
	n = strlen(s);
	if (blkroom(w, n + 32))
		return -1;
	p = w->blk + w->blen;
	*p++ = RTB_STRDEF;
	p = putvar(p, id);
	p = putvar(p, n);
	memcpy(p, s, n);
	w->blen = p + n - w->blk;
	w->bcount++;
	return 0;
}

static int
defloc(struct rt_writer *w, uint32_t id)
{
	const struct rt_loc *l;
	unsigned char *p;
	int k;

	if (id == 0)
		return 0;
	if ((k = marked(&w->ldone, &w->nldone, id)) != 0)
		return k < 0 ? -1 : 0;
	l = rt_loc_get(id);
	if (defstr(w, l->file) || defstr(w, l->func) || blkroom(w, 64))
		return -1;
	p = w->blk + w->blen;
	*p++ = RTB_LOCDEF;
	p = putvar(p, id);
	p = putvar(p, l->file);
	p = putvar(p, l->line);
	p = putvar(p, l->func);
	w->blen = p - w->blk;
	w->bcount++;
	return 0;
}

static void
resetprev(struct rt_writer *w)
{
	memset(&w->prev, 0, sizeof w->prev);
	w->iaddr = 0;
	w->prev.seq = UINT64_MAX;
	w->prev.tid = RT_NOTID;
}

/* The stream's first bytes: a text header line or the binary header. */
static int
start(struct rt_writer *w)
{
	unsigned char hdr[RTB_HDRLEN] = { 0 };

	w->started = 1;
	if (w->fmt == RT_FMT_TEXT)
		return out(w, RT_TEXT_HEADER "\n", strlen(RT_TEXT_HEADER) + 1);
	if (w->fmt != RT_FMT_BINARY)
		return 0;
	memcpy(hdr, RTB_MAGIC, 8);
	hdr[8] = RTB_VERSION;
	resetprev(w);
	return out(w, hdr, sizeof hdr);
}

static int
write_binary(struct rt_writer *w, const struct rt_rec *r)
{
	unsigned char *p, *h;
	struct rt_rec *pv = &w->prev;
	uint64_t base;

	if (!w->started && start(w))
		return -1;
	if (w->bcount >= RTB_BLOCK_ITEMS || w->blen >= (4u << 20)) {
		if (endblock(w))
			return -1;
		resetprev(w);
		/* Definitions are not repeated: a reader meets them in
		 * stream order before any use. */
	}
	if (r->kind != RT_ACCESS) {
		if (defstr(w, r->name) || blkroom(w, 64))
			return -1;
		p = w->blk + w->blen;
		*p++ = r->kind == RT_MARK ? RTB_MARK : r->kind == RT_REGION ?
		    RTB_REGION : RTB_OBJECT;
		p = putvar(p, zig(r->seq - (pv->seq + 1)));
		p = putvar(p, r->name);
		if (r->kind != RT_MARK)
			p = putvar(p, r->addr);
		if (r->kind == RT_REGION) {
			p = putvar(p, r->size);
			p = putvar(p, r->elem);
		}
		pv->seq = r->seq - 1;
		w->blen = p - w->blk;
		w->bcount++;
		return 0;
	}
	if ((r->loc != pv->loc || r->var != pv->var) &&
	    (defloc(w, r->loc) || defstr(w, r->var)))
		return -1;
	if (blkroom(w, 64))
		return -1;
	h = p = w->blk + w->blen;
	*p++ = r->op & 3;
	if (r->seq != pv->seq + 1) {
		*h |= RTB_SEQ;
		p = putvar(p, zig(r->seq - (pv->seq + 1)));
	}
	/* fetches and data each delta against their own last address */
	if ((r->op & 3) == RT_IFETCH)
		p = putvar(p, zig(r->addr - w->iaddr));
	else
		p = putvar(p, zig(r->addr - pv->addr));
	if (r->size != pv->size) {
		*h |= RTB_SIZE;
		p = putvar(p, r->size);
	}
	if (r->tid != pv->tid) {
		*h |= RTB_TID;
		p = putvar(p, r->tid == RT_NOTID ? 0 : (uint64_t)r->tid + 1);
	}
	if (r->loc != pv->loc || r->var != pv->var) {
		*h |= RTB_LOC;
		p = putvar(p, r->loc);
		p = putvar(p, r->var);
	}
	/* a fetch's pc is its address unless said otherwise */
	base = (r->op & 3) == RT_IFETCH ? r->addr : pv->pc;
	if (r->pc != base) {
		*h |= RTB_PC;
		p = putvar(p, zig(r->pc - base));
	}
	w->blen = p - w->blk;
	w->bcount++;
	if ((r->op & 3) == RT_IFETCH) {
		uint64_t a = pv->addr;

		*pv = *r;
		w->iaddr = r->addr;
		pv->addr = a;
	} else
		*pv = *r;
	return 0;
}

int
rt_write(struct rt_writer *w, const struct rt_rec *r)
{
	int k;

	if (w->err) {
		errno = w->err;
		return -1;
	}
	switch (w->fmt) {
	case RT_FMT_BINARY: k = write_binary(w, r); break;
	case RT_FMT_DIN: k = write_din(w, r); break;
	default: k = write_text(w, r); break;
	}
	if (k && w->err)
		errno = w->err;
	return k;
}

int
rt_wclose(struct rt_writer *w)
{
	int e = 0;

	if (w == NULL)
		return 0;
	if (!w->started)	/* an empty trace still says what it is */
		start(w);
	if (w->fmt == RT_FMT_BINARY)
		endblock(w);
	if (w->len)
		flushbuf(w, w->buf, w->len);
	if (w->gz != NULL) {
		int z = gzclose(w->gz);

		if (z != Z_OK && !w->err)
			w->err = z == Z_ERRNO ? errno : EIO;
	}
	if (w->fd != STDOUT_FILENO) {
		if (close(w->fd) && !w->err)
			w->err = errno;
	}
	e = w->err;
	free(w->buf);
	free(w->blk);
	free(w->sdone);
	free(w->ldone);
	free(w);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}
