/* sym.c: source locations for instruction addresses, through addr2line.
 *
 * Each object's loaded extent comes from its ELF program headers plus the
 * load bias (from valgrind's -v -v "svma/avma" lines, or guessed); the
 * file:line and function come from one addr2line coprocess per object,
 * asked once per distinct pc and cached. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reftrace.h"
#include "rtint.h"

struct obj {
	char *path;
	uint64_t bias, lo, hi;	/* loaded extent [lo, hi) */
	uint64_t used;		/* when its addr2line last answered */
	pid_t pid;		/* addr2line, 0 if not started, -1 if failed; held
				 * by the first object of the path */
	int to;			/* its input: a socket, so that a dead addr2line
				 * is an error (MSG_NOSIGNAL), never SIGPIPE */
	FILE *from;
};

/* One addr2line per file, however often it was loaded (400 object
 * events made 283 processes and lost locations past the descriptor
 * limit), and at most MAXRUN at once: the least recently asked stops. */
#define MAXRUN 32

struct rt_sym {
	struct obj *o;
	size_t n;
	uint64_t tick;
	int nrun;
	uint64_t *key;		/* pc + 1; 0 = empty */
	uint32_t *val;
	size_t ncache, used;
	char err[512];
};

struct rt_sym *
rt_sym_new(void)
{
	struct rt_sym *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->ncache = 4096;
	s->key = calloc(s->ncache, sizeof *s->key);
	s->val = calloc(s->ncache, sizeof *s->val);
	if (s->key == NULL || s->val == NULL) {
		rt_sym_free(s);
		return NULL;
	}
	return s;
}

/* The GNU build id in a PT_NOTE segment's notes, as hex into id (an
 * empty string if there is none). */
static void
buildid(FILE *f, uint64_t off, uint64_t len, uint64_t align, char *id, size_t idlen)
{
	unsigned char buf[4096], *p, *end;
	uint32_t nsz, dsz, type;
	size_t i, a = align == 8 ? 8 : 4;

	if (len > sizeof buf || fseek(f, (long)off, SEEK_SET) || fread(buf, 1, len, f) != len)
		return;
	for (p = buf, end = buf + len; end - p >= 12; ) {
		memcpy(&nsz, p, 4);
		memcpy(&dsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		p += 12;
		if (nsz > (size_t)(end - p) || (nsz + a - 1) / a * a > (size_t)(end - p))
			return;
		if (type == NT_GNU_BUILD_ID && nsz == 4 && memcmp(p, "GNU", 4) == 0) {
			p += 4;
			if (dsz > (size_t)(end - p) || 2 * (size_t)dsz + 10 > idlen || dsz == 0)
				return;
			i = (size_t)snprintf(id, idlen, "build-id:");
			for (; dsz > 0; dsz--, p++, i += 2)
				snprintf(id + i, idlen - i, "%02x", *p);
			return;
		}
		p += (nsz + a - 1) / a * a;
		if ((dsz + a - 1) / a * a > (size_t)(end - p))
			return;
		p += (dsz + a - 1) / a * a;
	}
}

/* The ELF type, the extent of the PT_LOAD segments (unbiased) and, when
 * id is not NULL, the build id. */
static int
elfinfo(const char *path, int *type, uint64_t *lo, uint64_t *hi, char *id, size_t idlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char ident[EI_NIDENT];
	uint64_t l = UINT64_MAX, h = 0, noff[4], nlen[4], nal[4];
	int i, ok = -1, nn = 0;

	if (id != NULL)
		*id = '\0';
	if (f == NULL)
		return -1;
	if (fread(ident, 1, EI_NIDENT, f) != EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG) != 0)
		goto out;
	rewind(f);
	/* the same walk for either class of ELF, with its own structs */
#define SEGMENTS(Ehdr, Phdr) do {						\
		Ehdr e;								\
		Phdr p;								\
									\
		if (fread(&e, sizeof e, 1, f) != 1)				\
			goto out;						\
		*type = e.e_type;						\
		for (i = 0; i < e.e_phnum; i++) {				\
			if (fseek(f, (long)(e.e_phoff + (uint64_t)i * e.e_phentsize), \
			    SEEK_SET) || fread(&p, sizeof p, 1, f) != 1)	\
				goto out;					\
			if (p.p_type == PT_LOAD && p.p_vaddr < l)		\
				l = p.p_vaddr;					\
			if (p.p_type == PT_LOAD && (uint64_t)p.p_vaddr + p.p_memsz > h) \
				h = (uint64_t)p.p_vaddr + p.p_memsz;		\
			if (p.p_type == PT_NOTE && nn < 4) {			\
				noff[nn] = p.p_offset;				\
				nlen[nn] = p.p_filesz;				\
				nal[nn++] = p.p_align;				\
			}							\
		}								\
	} while (0)
	if (ident[EI_CLASS] == ELFCLASS64)
		SEGMENTS(Elf64_Ehdr, Elf64_Phdr);
	else if (ident[EI_CLASS] == ELFCLASS32)
		SEGMENTS(Elf32_Ehdr, Elf32_Phdr);
	else
		goto out;
#undef SEGMENTS
	for (i = 0; id != NULL && i < nn && *id == '\0'; i++)
		buildid(f, noff[i], nlen[i], nal[i], id, idlen);
	if (l < h) {
		*lo = l;
		*hi = h;
		ok = 0;
	}
out:
	fclose(f);
	return ok;
}

/* POSIX cksum(1)'s CRC of a file and its size: the identity of an object
 * without a build id. */
static int
cksum(const char *path, char *id, size_t idlen)
{
	static uint32_t tab[256];
	unsigned char buf[65536];
	uint32_t crc = 0;
	uint64_t len = 0, n;
	size_t k, i;
	int b;
	FILE *f;

	if (tab[1] == 0)
		for (i = 0; i < 256; i++) {
			uint32_t c = (uint32_t)i << 24;

			for (b = 0; b < 8; b++)
				c = c & 0x80000000u ? c << 1 ^ 0x04c11db7u : c << 1;
			tab[i] = c;
		}
	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
		for (i = 0; i < k; i++)
			crc = crc << 8 ^ tab[(crc >> 24 ^ buf[i]) & 0xff];
		len += k;
	}
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (n = len; n > 0; n >>= 8)
		crc = crc << 8 ^ tab[(crc >> 24 ^ n) & 0xff];
	snprintf(id, idlen, "cksum:%lu:%llu", (unsigned long)~crc & 0xffffffffu,
	    (unsigned long long)len);
	return 0;
}

int
rt_objid(const char *path, char *id, size_t idlen)
{
	int type;
	uint64_t lo, hi;

	errno = 0;
	if (elfinfo(path, &type, &lo, &hi, id, idlen) == 0 && *id != '\0')
		return 0;
	return cksum(path, id, idlen);
}

/* Is the file at path the object whose identity the trace recorded?  Its
 * identity is computed the way the recorded one was. */
static int
sameobject(struct rt_sym *s, const char *path, const char *id)
{
	char now[256];
	int r;

	if (strncmp(id, "cksum:", 6) == 0)
		r = cksum(path, now, sizeof now);
	else
		r = rt_objid(path, now, sizeof now);
	if (r != 0) {
		snprintf(s->err, sizeof s->err, "%s: %s", path, strerror(errno));
		return 0;
	}
	if (strcmp(now, id) == 0)
		return 1;
	if (strncmp(now, "build-id:", 9) != 0 && strncmp(id, "build-id:", 9) == 0)
		snprintf(now, sizeof now, "none");
	snprintf(s->err, sizeof s->err, "%s: not the object traced: its %s, the trace's %s",
	    path, now, id);
	return 0;
}

int
rt_sym_add(struct rt_sym *s, const char *path, uint64_t bias, const char *id)
{
	struct obj *o, *no;
	int type;
	uint64_t lo, hi;
	size_t i;

	errno = 0;
	if (elfinfo(path, &type, &lo, &hi, NULL, 0)) {
		snprintf(s->err, sizeof s->err, "%s: %s", path,
		    errno ? strerror(errno) : "not an ELF object with loadable segments");
		return RT_EIO;
	}
	*s->err = '\0';
	if (id != NULL && *id != '\0' && !sameobject(s, path, id))
		return *s->err ? RT_EBAD : RT_EIO;
	if (bias == UINT64_MAX)
		bias = type == ET_DYN ? RT_VG_PIE_BASE : 0;
	for (i = 0; i < s->n; i++)	/* the same object again: the newest bias */
		if (strcmp(s->o[i].path, path) == 0 && s->o[i].bias == bias)
			return 0;
	if ((no = realloc(s->o, (s->n + 1) * sizeof *no)) == NULL)
		return RT_ENOMEM;
	s->o = no;
	o = &s->o[s->n];
	memset(o, 0, sizeof *o);
	o->to = -1;
	if ((o->path = strdup(path)) == NULL)
		return RT_ENOMEM;
	o->bias = bias;
	o->lo = lo + bias;
	o->hi = hi + bias;
	s->n++;
	/* an object loaded anew at another bias hides the old mapping */
	memset(s->key, 0, s->ncache * sizeof *s->key);
	s->used = 0;
	return 0;
}

static int
start(struct rt_sym *s, struct obj *o)
{
	int in[2], outp[2], e;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in)) {
		snprintf(s->err, sizeof s->err, "socketpair: %s", strerror(errno));
		return -1;
	}
	if (pipe2(outp, O_CLOEXEC)) {
		snprintf(s->err, sizeof s->err, "pipe: %s", strerror(errno));
		e = errno;
		close(in[0]);
		close(in[1]);
		errno = e;
		return -1;
	}
	if ((pid = fork()) < 0) {
		snprintf(s->err, sizeof s->err, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(outp[1], 1);
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		execlp("addr2line", "addr2line", "-f", "-C", "-e", o->path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(outp[1]);
	o->to = in[1];
	o->from = fdopen(outp[0], "r");
	o->pid = pid;
	s->nrun++;
	return o->from ? 0 : -1;
}

/* failed: -1, not to be asked again; else 0, to be started again */
static void
stop(struct rt_sym *s, struct obj *o, int failed)
{
	if (o->pid > 0)
		s->nrun--;
	if (o->to >= 0)
		close(o->to);
	if (o->from)
		fclose(o->from);
	if (o->pid > 0)
		waitpid(o->pid, NULL, 0);
	o->to = -1;
	o->from = NULL;
	o->pid = failed ? -1 : 0;
}

/* The object that holds the addr2line of o's file: the first of its path. */
static struct obj *
holder(struct rt_sym *s, struct obj *o)
{
	size_t i;

	for (i = 0; &s->o[i] != o; i++)
		if (strcmp(s->o[i].path, o->path) == 0)
			return &s->o[i];
	return o;
}

/* Room for one more addr2line (at most MAXRUN, or as many as the
 * descriptors allow: full set): the least recently asked stops.  0 if
 * none was running. */
static int
room(struct rt_sym *s, int full)
{
	struct obj *old = NULL;
	size_t i;

	if (s->nrun < MAXRUN && !full)
		return 1;
	for (i = 0; i < s->n; i++)
		if (s->o[i].pid > 0 && (old == NULL || s->o[i].used < old->used))
			old = &s->o[i];
	if (old == NULL)
		return 0;
	stop(s, old, 0);
	return 1;
}

static void
chomp(char *b)
{
	size_t n = strlen(b);

	while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == '\r'))
		b[--n] = '\0';
}

/* Ask addr2line; returns the location id, 0 if unknown, RT_NOMEM if
 * there was no room to keep it. */
static uint32_t
ask(struct rt_sym *s, struct obj *o, uint64_t pc)
{
	char fn[4096], fl[4096], q[32], *c, *sp;
	const char *d;
	uint32_t file = 0, func = 0;
	uint64_t line = 0, at = pc - o->bias;
	int ok, n;

	o = holder(s, o);
	if (o->pid == 0) {
		room(s, 0);
		for (n = 0; start(s, o) && (errno == EMFILE || errno == ENFILE) && room(s, 1); n++)
			;	/* out of descriptors: another stops */
		if (o->pid == 0)
			o->pid = -1;
		else if (n > 0)
			*s->err = '\0';	/* said too soon: it started */
	}
	if (o->pid < 0)
		return 0;
	o->used = ++s->tick;
	n = snprintf(q, sizeof q, "0x%llx\n", (unsigned long long)at);
	while ((ok = send(o->to, q, (size_t)n, MSG_NOSIGNAL) == n) == 0 && errno == EINTR)
		;
	ok = ok && fgets(fn, sizeof fn, o->from) != NULL &&
	    fgets(fl, sizeof fl, o->from) != NULL;
	if (!ok) {
		snprintf(s->err, sizeof s->err, "addr2line -e %s: no answer "
		    "(is binutils installed?)", o->path);
		stop(s, o, 1);
		return 0;
	}
	chomp(fn);
	chomp(fl);
	if ((sp = strstr(fl, " (discriminator")) != NULL)
		*sp = '\0';
	if (strcmp(fn, "??") != 0)
		func = rt_str_intern(fn, strlen(fn));
	if ((c = strrchr(fl, ':')) != NULL) {
		*c = '\0';
		d = c + 1;
		if (rt_scan_u64(&d, &line) || line > UINT32_MAX)
			line = 0;	/* "?" */
		for (c = fl; c[0] == '.' && c[1] == '/';)
			c += 2;	/* "./x.c" from a relative compile dir */
		if (strcmp(c, "??") != 0)
			file = rt_str_intern(c, strlen(c));
	}
	if (file == 0)
		line = 0;
	return rt_loc_intern(file, (uint32_t)line, func);	/* RT_NOMEM in, RT_NOMEM out */
}

static void
cache_put(struct rt_sym *s, uint64_t pc, uint32_t loc)
{
	size_t i, j, n;
	uint64_t *ok;
	uint32_t *ov;

	if ((s->used + 1) * 2 > s->ncache) {
		n = s->ncache;
		ok = s->key;
		ov = s->val;
		s->key = calloc(n * 2, sizeof *s->key);
		s->val = calloc(n * 2, sizeof *s->val);
		if (s->key == NULL || s->val == NULL) {
			free(s->key);
			free(s->val);
			s->key = ok;
			s->val = ov;
			return;	/* no room: the answer is simply not cached */
		}
		s->ncache = n * 2;
		for (i = 0; i < n; i++)
			if (ok[i]) {
				j = rt_hash64(ok[i]) & (s->ncache - 1);
				while (s->key[j])
					j = (j + 1) & (s->ncache - 1);
				s->key[j] = ok[i];
				s->val[j] = ov[i];
			}
		free(ok);
		free(ov);
	}
	j = rt_hash64(pc + 1) & (s->ncache - 1);
	while (s->key[j])
		j = (j + 1) & (s->ncache - 1);
	s->key[j] = pc + 1;
	s->val[j] = loc;
	s->used++;
}

uint32_t
rt_sym_lookup(struct rt_sym *s, uint64_t pc)
{
	size_t j, i;
	uint32_t loc = 0;

	if (pc == RT_NOPC)
		return 0;
	j = rt_hash64(pc + 1) & (s->ncache - 1);
	while (s->key[j]) {
		if (s->key[j] == pc + 1)
			return s->val[j];
		j = (j + 1) & (s->ncache - 1);
	}
	for (i = s->n; i-- > 0;)	/* the newest mapping wins */
		if (pc >= s->o[i].lo && pc < s->o[i].hi) {
			loc = ask(s, &s->o[i], pc);
			break;
		}
	if (loc == RT_NOMEM) {	/* unknown this time, asked again next */
		snprintf(s->err, sizeof s->err, "addr2line -e %s: out of memory",
		    s->o[i].path);
		return 0;
	}
	cache_put(s, pc, loc);
	return loc;
}

int
rt_sym_object(const struct rt_sym *s, uint64_t pc, const char **path)
{
	size_t i;

	for (i = s->n; i-- > 0;)	/* the newest mapping first */
		if (pc >= s->o[i].lo && pc < s->o[i].hi) {
			*path = s->o[i].path;
			return (int)i;
		}
	return -1;
}

const char *
rt_sym_error(const struct rt_sym *s)
{
	return s->err;
}

void
rt_sym_free(struct rt_sym *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		stop(s, &s->o[i], 1);
		free(s->o[i].path);
	}
	free(s->o);
	free(s->key);
	free(s->val);
	free(s);
}
