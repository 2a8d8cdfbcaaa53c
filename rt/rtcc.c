/* rtcc.c: the runtime rtcc links into a program: the address sanitizer's
 * outline hooks record every load and store of the code rtcc compiled
 * into per-thread buffers; a writer thread encodes them into reftrace's
 * binary trace with the library's writer.  Built without the hooks. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>	/* marks for lackey too, as contrib/reftrace.h makes them */
#else
#define VALGRIND_PRINTF(...) 0
#endif

#include "reftrace.h"
#include "trace/output.h"	/* the writer's encoder, called straight */

/* A buffer entry: an access, or an event the writer turns into one. */
enum { E_READ = RT_READ, E_WRITE = RT_WRITE, E_MARK = 4, E_REGION, E_OBJECT, E_SKIP };
struct ent {
	uint64_t addr;	/* access; E_SKIP: accesses not recorded; events: struct ev * */
	uint64_t pc;
	uint32_t size;
	uint32_t op;
};
struct ev { char *name; uint64_t addr, size; uint32_t elem; };

#define CHUNK (1u << 15)	/* entries a buffer: 768 KiB */
#define MAXFREE 24		/* buffers kept for reuse */
struct chunk {
	struct chunk *next;
	uint32_t tid;
	uint32_t n;
	struct ent e[CHUNK];
};

/* A thread's state.  The hooks look at cur and end only: an access goes
 * straight into the buffer while cur < end; end is the buffer's end, or
 * nearer for a sampling burst, or cur itself to send every access to
 * slow(). */
struct tstate {
	struct ent *cur, *end;
	struct chunk *c;
	uint32_t tid;
	int inited, busy;	/* busy: in the runtime, not recording */
	uint64_t skipped;	/* accesses not recorded since the last entry */
	uint64_t pos;		/* accesses seen: sampling */
	struct tstate *next;	/* the threads that have a buffer */
};
static __thread struct tstate ts __attribute__((tls_model("initial-exec")));

/* Global state.  recording: 1 while accesses go to the buffers (off
 * before the start mark, after REFTRACE_OFF, after the end); fast: 1
 * when an access in a buffer with room needs no other look. */
static atomic_int recording;
static atomic_int fast;
static atomic_int finished;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pid_t mypid;
static volatile int armed;	/* TLS exists: the wrappers may look at ts */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;	/* the writer waits */
static pthread_cond_t emptied = PTHREAD_COND_INITIALIZER;	/* a thread waits */
static struct chunk *qhead, *qtail, *freel;
static int nfree, nchunks, closing, closed;
static struct tstate *threads;
static pthread_t writer;
static int haswriter;
static uint32_t ntid;

/* configuration (environment) */
static char *outpath;
static int ofmt = RT_FMT_BINARY;
static struct rt_part part;		/* RTCC_PARTS */
static uint64_t sint = 1;		/* RTCC_SAMPLE: every n-th */
static uint64_t sburst, speriod;	/* RTCC_BURST: b of every p */
static double srate = 1;		/* RTCC_HASH: SHARDS rate */
static uint64_t sbytes = 64, hlimit;
static const char *startmark, *stopmark;
#define MAXFUNCS 64
static uint64_t flo[MAXFUNCS], fhi[MAXFUNCS];	/* RTCC_FUNCS: their code */
static int nfuncs;
static uint64_t exebias;

/* the writer's */
static struct rt_writer *w;
static struct rt_wparts *wp;
static uint64_t seq;
static int werr;

static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);

	if (n > 0)
		(void)!write(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void
wfail(const char *what)
{
	if (!werr)
		say("rtcc: %s: %s\n", what, strerror(errno));
	werr = 1;
}

static void
put(const struct rt_rec *r)
{
	if (werr)
		return;
	if (wp != NULL) {
		if (rt_wparts_write(wp, r, 0))
			wfail(rt_wparts_name(wp, rt_wparts_failed(wp)));
	} else if (rt_write(w, r))
		wfail(outpath);
}

static void
event(int kind, const struct ev *v)
{
	struct rt_rec r = { 0 };

	r.kind = kind;
	r.seq = seq;
	r.tid = RT_NOTID;
	r.name = rt_str_intern(v->name, strlen(v->name));
	r.addr = v->addr;
	r.size = v->size;
	r.elem = v->elem;
	if (kind == RT_OBJECT) {	/* a symbolizer refuses a rebuilt file */
		char id[256];

		if (rt_objid(v->name, id, sizeof id) == 0)
			r.var = rt_str_intern(id, strlen(id));
	}
	put(&r);
}

/* The writer thread: buffers in the order they were handed over, each
 * thread's entries in its order; seq counts every access, recorded or
 * not. */
static void
drain(struct chunk *c)
{
	struct rt_rec r = { 0 };
	struct ent *e = c->e, *end = c->e + c->n;

	r.tid = c->tid;
	for (; e < end; e++) {
		if (e->op <= E_WRITE) {
			r.seq = seq++;
			r.addr = e->addr;
			r.size = e->size;
			r.pc = e->pc;
			r.op = e->op;
			if (!werr) {
				if (wp != NULL) {
					if (rt_wparts_write(wp, &r, 0))
						wfail(rt_wparts_name(wp, rt_wparts_failed(wp)));
				} else if (w->write(w, &r))
					wfail(outpath);
			}
		} else if (e->op == E_SKIP)
			seq += e->addr;
		else {
			struct ev *v = (struct ev *)(uintptr_t)e->addr;

			event(e->op == E_MARK ? RT_MARK : e->op == E_REGION ? RT_REGION : RT_OBJECT, v);
			free(v->name);
			free(v);
		}
	}
}

static void *
writeloop(void *arg)
{
	struct chunk *c;

	sigset_t all;

	(void)arg;
	ts.busy = 1;
	sigfillset(&all);	/* the program's signals are the program's threads' */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_mutex_lock(&mu);
	for (;;) {
		while (qhead == NULL && !closing)
			pthread_cond_wait(&filled, &mu);
		if ((c = qhead) == NULL)
			break;
		if ((qhead = c->next) == NULL)
			qtail = NULL;
		pthread_mutex_unlock(&mu);
		drain(c);
		pthread_mutex_lock(&mu);
		if (nfree < MAXFREE) {
			c->next = freel;
			freel = c;
			nfree++;
		} else {
			free(c);
			nchunks--;
		}
		pthread_cond_broadcast(&emptied);
	}
	pthread_mutex_unlock(&mu);
	if (wp != NULL) {
		for (uint64_t i = 0; i < rt_wparts_outputs(wp); i++)
			if (rt_wparts_close(wp, i) && !werr)
				wfail(rt_wparts_name(wp, i));
		rt_wparts_free(wp);
	} else if (rt_wclose(w) && !werr)
		wfail(outpath);
	pthread_mutex_lock(&mu);
	closed = 1;
	pthread_cond_broadcast(&emptied);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* Hand a thread's buffer to the writer (mu held). */
static void
enqueue(struct chunk *c, uint32_t n)
{
	c->n = n;
	c->next = NULL;
	if (qtail != NULL)
		qtail->next = c;
	else
		qhead = c;
	qtail = c;
	pthread_cond_signal(&filled);
}

/* A fresh buffer (mu held): one kept, a new one, or wait for the writer
 * to give one back, so that the program never runs further ahead of the
 * writer than the buffers kept. */
static struct chunk *
fresh(void)
{
	struct chunk *c;

	while (freel == NULL && nchunks >= MAXFREE + (int)ntid + 2 && !closed)
		pthread_cond_wait(&emptied, &mu);
	if ((c = freel) != NULL) {
		freel = c->next;
		nfree--;
		return c;
	}
	if ((c = malloc(sizeof *c)) != NULL)
		nchunks++;
	return c;
}

static const char *
getenv_nonempty(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s != '\0' ? s : NULL;
}

static int
envnum(const char *name, uint64_t *v)
{
	const char *s = getenv_nonempty(name);

	if (s == NULL)
		return 0;
	if (rt_parse_u64(s, v) || *v == 0) {
		say("rtcc: %s=%s: want a positive number; not sampling\n", name, s);
		return 0;
	}
	return 1;
}

static void finish(const char *why);

static void
onexit(void)
{
	finish("rtcc:exit");
}

static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGBUS, SIGFPE,
	SIGSEGV, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2 };

static void
onsignal(int sig)
{
	char why[64];

	snprintf(why, sizeof why, "rtcc:SIG%s", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	finish(why);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A forked child records nothing: its parent's trace is the parent's. */
static void
inchild(void)
{
	atomic_store(&recording, 0);
	atomic_store(&fast, 0);
	atomic_store(&finished, 1);
	haswriter = 0;
}

/* The objects loaded, for symbolization: their load bias. */
static int
object(struct dl_phdr_info *info, size_t size, void *arg)
{
	char path[4096];
	const char *name = info->dlpi_name;
	struct ev *v;
	ssize_t n;

	(void)size;
	if (*(int *)arg == 0) {		/* the program itself */
		if ((n = readlink("/proc/self/exe", path, sizeof path - 1)) <= 0)
			return 0;
		path[n] = '\0';
		name = path;
		exebias = info->dlpi_addr;
	}
	(*(int *)arg)++;
	if (name == NULL || *name == '\0' || strncmp(name, "linux-vdso", 10) == 0)
		return 0;
	if ((v = calloc(1, sizeof *v)) == NULL || (v->name = strdup(name)) == NULL) {
		free(v);
		return 0;
	}
	v->addr = info->dlpi_addr;
	pthread_mutex_lock(&mu);
	if (ts.c != NULL && ts.cur < ts.c->e + CHUNK) {
		ts.cur->op = E_OBJECT;
		ts.cur->addr = (uintptr_t)v;
		ts.cur++;
	} else {
		free(v->name);
		free(v);
	}
	pthread_mutex_unlock(&mu);
	return 0;
}

/* RTCC_FUNCS: the code of the functions named, from the program's
 * symbol table (static functions too, unless it is stripped). */
static void
functions(const char *list)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	char *names, *tok, *save;
	void *m;
	int fd, found;
	size_t i, j;

	if ((fd = open("/proc/self/exe", O_RDONLY)) < 0)
		return;
	if (fstat(fd, &st) || (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	eh = m;
	if ((size_t)st.st_size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh > (uint64_t)st.st_size)
		goto out;
	sh = (const Elf64_Shdr *)((const char *)m + eh->e_shoff);
	if ((names = strdup(list)) == NULL)
		goto out;
	for (tok = strtok_r(names, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		found = 0;
		for (i = 0; i < eh->e_shnum; i++) {
			const Elf64_Sym *sym;
			const char *str;

			if ((sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM) ||
			    sh[i].sh_link >= eh->e_shnum ||
			    sh[i].sh_offset + sh[i].sh_size > (uint64_t)st.st_size ||
			    sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size >
			    (uint64_t)st.st_size)
				continue;
			sym = (const Elf64_Sym *)((const char *)m + sh[i].sh_offset);
			str = (const char *)m + sh[sh[i].sh_link].sh_offset;
			for (j = 0; j < sh[i].sh_size / sizeof *sym; j++)
				if (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC && sym[j].st_size > 0 &&
				    sym[j].st_name < sh[sh[i].sh_link].sh_size &&
				    strcmp(str + sym[j].st_name, tok) == 0 && nfuncs < MAXFUNCS &&
				    !found) {
					flo[nfuncs] = sym[j].st_value + exebias;
					fhi[nfuncs++] = sym[j].st_value + exebias + sym[j].st_size;
					found = 1;
				}
		}
		if (!found)
			say("rtcc: RTCC_FUNCS: %s: no such function in the program\n", tok);
	}
	free(names);
	if (nfuncs == 0)
		say("rtcc: RTCC_FUNCS=%s: none found; recording everything\n", list);
out:
	munmap(m, (size_t)st.st_size);
}

static int
infunc(uint64_t pc)
{
	int i;

	for (i = 0; i < nfuncs; i++)
		if (pc >= flo[i] && pc < fhi[i])
			return 1;
	return 0;
}

static void tinit(void);
static void turn(int on);
void reftrace_mark(const char *name);

static void
init(void)
{
	const char *s, *fmt;
	char name[4096], path[4096];
	uint64_t v;
	int i, nobj = 0;
	struct sigaction sa, old;

	armed = 1;
	ts.busy = 1;
	mypid = getpid();
	if ((fmt = getenv_nonempty("RTCC_FORMAT")) != NULL && (ofmt = rt_fmt_parse_out(fmt)) < 0) {
		say("rtcc: RTCC_FORMAT=%s: not a format written\n", fmt);
		ofmt = RT_FMT_BINARY;
	}
	if ((s = getenv_nonempty("RTCC_PARTS")) != NULL &&
	    (rt_parse_part(s, NULL, &part.n, &part.bytes) || part.n < 2 ||
	    (part.bytes & (part.bytes - 1)) != 0)) {
		say("rtcc: RTCC_PARTS=%s: want n or n:bytes, n at least 2, bytes a power of two\n",
		    s);
		part.n = 0;
	}
	if (part.n && part.bytes == 0)
		part.bytes = 64;
	s = getenv_nonempty("RTCC_OUT");
	if (s == NULL) {
		snprintf(name, sizeof name, part.n ? "%s.%%d.rtb" : "%s.rtb",
		    program_invocation_short_name);
		s = name;
	}
	/* %p: the process id */
	{
		const char *p = strstr(s, "%p");
		if (p != NULL)
			snprintf(path, sizeof path, "%.*s%ld%s", (int)(p - s), s, (long)mypid, p + 2);
		else
			snprintf(path, sizeof path, "%s", s);
	}
	outpath = strdup(path);
	if (envnum("RTCC_SAMPLE", &v))
		sint = v;
	if ((s = getenv_nonempty("RTCC_BURST")) != NULL) {
		char *e;
		unsigned long long b = strtoull(s, &e, 10), p;

		if (*e == '/' && (p = strtoull(e + 1, &e, 10)) >= b && b > 0 && *e == '\0') {
			sburst = b;
			speriod = p;
		} else
			say("rtcc: RTCC_BURST=%s: want b/p, 0 < b <= p; not sampling\n", s);
	}
	if ((s = getenv_nonempty("RTCC_HASH")) != NULL) {
		char *e;
		double r = strtod(s, &e);

		if (r > 0 && r <= 1 && (*e == '\0' || (*e == ':' && !rt_parse_size(e + 1, &sbytes) &&
		    sbytes > 0))) {
			srate = r;
			hlimit = r >= 1 ? UINT64_MAX : (uint64_t)(r * 18446744073709551616.0);
		} else
			say("rtcc: RTCC_HASH=%s: want rate[:bytes], 0 < rate <= 1; not sampling\n", s);
	}
	startmark = getenv_nonempty("RTCC_START");
	stopmark = getenv_nonempty("RTCC_STOP");
	if (part.n) {
		char err[512];

		if ((wp = rt_wparts_open(outpath, &part, 1, ofmt, 0, err, sizeof err)) == NULL) {
			if (errno == EINVAL)
				say("rtcc: RTCC_OUT=%s: with RTCC_PARTS, one %%d and no other %%\n",
				    outpath);
			else
				say("rtcc: %s\n", err);
		}
	} else if ((w = rt_wopen(outpath, ofmt, 0)) == NULL)
		say("rtcc: %s: %s\n", outpath, strerror(errno));
	if (w == NULL && wp == NULL) {
		atomic_store(&finished, 1);
		ts.busy = 0;
		return;
	}
	if (pthread_create(&writer, NULL, writeloop, NULL) != 0) {
		say("rtcc: %s: cannot start the writer thread: %s\n", outpath, strerror(errno));
		atomic_store(&finished, 1);
		ts.busy = 0;
		return;
	}
	haswriter = 1;
	pthread_atfork(NULL, NULL, inchild);
	atexit(onexit);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsignal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < (int)(sizeof fatal / sizeof fatal[0]); i++)
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(fatal[i], &sa, NULL);
	tinit();
	dl_iterate_phdr(object, &nobj);
	if ((s = getenv_nonempty("RTCC_FUNCS")) != NULL)
		functions(s);
	ts.busy = 0;
	/* the trace says what it samples, in a mark before the first record */
	if (nfuncs) {
		snprintf(name, sizeof name, "rtcc:funcs=%s", getenv("RTCC_FUNCS"));
		reftrace_mark(name);
	}
	if (sint > 1) {
		snprintf(name, sizeof name, "rtcc:interval=%llu", (unsigned long long)sint);
		reftrace_mark(name);
	}
	if (sburst) {
		snprintf(name, sizeof name, "rtcc:burst=%llu/%llu", (unsigned long long)sburst,
		    (unsigned long long)speriod);
		reftrace_mark(name);
	}
	if (hlimit) {
		snprintf(name, sizeof name, "rtcc:hash=%g:%llu", srate, (unsigned long long)sbytes);
		reftrace_mark(name);
	}
	turn(getenv_nonempty("RTCC_OFF") == NULL && startmark == NULL);
}

/* The buffer's end as the thread may fill it straight. */
static void
setend(void)
{
	struct ent *lim = ts.c->e + CHUNK;

	if (!atomic_load(&recording) || ts.busy)
		ts.end = ts.cur;
	else if (!atomic_load(&fast))
		ts.end = ts.cur;	/* sampling: every access through slow() */
	else
		ts.end = lim;
}

/* Thread exit: its buffer goes to the writer. */
static pthread_key_t tkey;
static void tdone(void *arg);

static void
makekey(void)
{
	pthread_key_create(&tkey, tdone);
}

static void
tinit(void)
{
	static pthread_once_t konce = PTHREAD_ONCE_INIT;

	pthread_once(&konce, makekey);
	pthread_mutex_lock(&mu);
	ts.c = fresh();
	ts.tid = ntid++;
	ts.next = threads;
	threads = &ts;
	pthread_mutex_unlock(&mu);
	ts.inited = 1;
	if (ts.c == NULL) {
		ts.cur = ts.end = NULL;
		return;
	}
	ts.c->tid = ts.tid;
	ts.cur = ts.c->e;
	ts.end = ts.cur;
	pthread_setspecific(tkey, &ts);
}

/* Hand over the thread's buffer and take a fresh one (mu held). */
static void
flushbuf(struct tstate *t, int again)
{
	struct ent *e = t->cur;

	if (t->c == NULL)
		return;
	if (t->skipped && e < t->c->e + CHUNK) {
		e->op = E_SKIP;
		e->addr = t->skipped;
		e++;
		t->skipped = 0;
	}
	enqueue(t->c, (uint32_t)(e - t->c->e));
	t->c = again ? fresh() : NULL;
	if (t->c != NULL)
		t->c->tid = t->tid;
	t->cur = t->end = t->c != NULL ? t->c->e : NULL;
}

static void
tdone(void *arg)
{
	struct tstate *t = arg, **pp;

	(void)arg;
	pthread_mutex_lock(&mu);
	for (pp = &threads; *pp != NULL; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	if (!atomic_load(&finished))
		flushbuf(t, 0);
	pthread_mutex_unlock(&mu);
	t->busy = 1;
	t->cur = t->end = NULL;
}

/* Room for one entry more (a skip counted before it), or NULL. */
static struct ent *
room(void)
{
	if (ts.c == NULL)
		return NULL;
	if (ts.cur + (ts.skipped ? 1 : 0) >= ts.c->e + CHUNK) {
		pthread_mutex_lock(&mu);
		flushbuf(&ts, 1);
		pthread_mutex_unlock(&mu);
		if (ts.c == NULL)
			return NULL;
	}
	if (ts.skipped) {
		ts.cur->op = E_SKIP;
		ts.cur->addr = ts.skipped;
		ts.cur++;
		ts.skipped = 0;
	}
	return ts.cur;
}

static int
hashed(uint64_t addr, uint32_t size)
{
	struct rt_span s;

	for (rt_span_start(&s, addr, addr + (size ? size - 1 : 0), sbytes); rt_span_next(&s);)
		if (rt_hash64(s.block ^ 1) < hlimit)
			return 1;
	return 0;
}

/* This thread may record: not inside the runtime, not after the end,
 * the runtime and the thread's buffer set up. */
static int
ready(void)
{
	if (ts.busy || atomic_load(&finished))
		return 0;
	if (!ts.inited) {
		pthread_once(&once, init);
		if (atomic_load(&finished))
			return 0;
		if (!ts.inited)
			tinit();
	}
	return 1;
}

/* Every access that does not go straight into the buffer. */
static __attribute__((noinline)) void
slow(uint64_t addr, uint32_t size, uint32_t op, uint64_t pc)
{
	struct ent *e;
	uint64_t i;

	if (!ready())
		return;
	if (!atomic_load(&recording)) {
		ts.skipped++;
		ts.end = ts.cur;
		return;
	}
	if (nfuncs && !infunc(pc)) {
		ts.skipped++;
		ts.end = ts.cur;
		return;
	}
	i = ts.pos++;
	if ((sint > 1 && i % sint != 0) || (sburst && i % speriod >= sburst) ||
	    (hlimit && hlimit != UINT64_MAX && !hashed(addr, size))) {
		ts.skipped++;
		ts.end = ts.cur;
		return;
	}
	ts.busy = 1;
	if ((e = room()) != NULL) {
		e->addr = addr;
		e->pc = pc;
		e->size = size;
		e->op = op;
		ts.cur = e + 1;
	}
	ts.busy = 0;
	if (ts.c != NULL)
		setend();
}

/* The hooks: an access with room in the buffer costs a few stores. */
static inline __attribute__((always_inline)) void
rec(uint64_t addr, uint32_t size, uint32_t op, void *ret)
{
	struct ent *e = ts.cur;

	if (__builtin_expect(e < ts.end && atomic_load_explicit(&fast, memory_order_relaxed), 1)) {
		e->addr = addr;
		e->pc = (uintptr_t)ret;
		e->size = size;
		e->op = op;
		__asm__ volatile("" ::: "memory");	/* the entry before cur moves */
		ts.cur = e + 1;
		return;
	}
	slow(addr, size, op, (uintptr_t)ret);
}

#define HOOKS(n) \
	void __asan_load##n##_noabort(uintptr_t a); \
	void __asan_store##n##_noabort(uintptr_t a); \
	void __asan_load##n##_noabort(uintptr_t a) { rec(a, n, E_READ, __builtin_return_address(0)); } \
	void __asan_store##n##_noabort(uintptr_t a) { rec(a, n, E_WRITE, __builtin_return_address(0)); } \
	void __asan_load##n(uintptr_t a); \
	void __asan_store##n(uintptr_t a); \
	void __asan_load##n(uintptr_t a) { rec(a, n, E_READ, __builtin_return_address(0)); } \
	void __asan_store##n(uintptr_t a) { rec(a, n, E_WRITE, __builtin_return_address(0)); }
HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void __asan_loadN_noabort(uintptr_t a, size_t n);
void __asan_storeN_noabort(uintptr_t a, size_t n);
void __asan_loadN(uintptr_t a, size_t n);
void __asan_storeN(uintptr_t a, size_t n);

/* An access of n bytes, in pieces of at most RT_MAXSIZE that readers take. */
static inline __attribute__((always_inline)) void
recn(uint64_t a, size_t n, uint32_t op, void *ret)
{
	while (n > RT_MAXSIZE) {
		rec(a, RT_MAXSIZE, op, ret);
		a += RT_MAXSIZE;
		n -= RT_MAXSIZE;
	}
	if (n > 0)
		rec(a, (uint32_t)n, op, ret);
}

void __asan_loadN_noabort(uintptr_t a, size_t n) { recn(a, n, E_READ, __builtin_return_address(0)); }
void __asan_storeN_noabort(uintptr_t a, size_t n) { recn(a, n, E_WRITE, __builtin_return_address(0)); }
void __asan_loadN(uintptr_t a, size_t n) { recn(a, n, E_READ, __builtin_return_address(0)); }
void __asan_storeN(uintptr_t a, size_t n) { recn(a, n, E_WRITE, __builtin_return_address(0)); }

/* What else the compilers' kernel-address mode may call: nothing to do. */
#define NOP0(f) void f(void); void f(void) {}
#define NOP1(f, A) void f(A); void f(A a) { (void)a; }
#define NOP2(f, A, B) void f(A, B); void f(A a, B b) { (void)a; (void)b; }
NOP0(__asan_handle_no_return)
NOP1(__asan_before_dynamic_init, const void *)
NOP0(__asan_after_dynamic_init)
NOP2(__asan_register_globals, void *, size_t)
NOP2(__asan_unregister_globals, void *, size_t)
NOP2(__asan_alloca_poison, uintptr_t, size_t)
NOP2(__asan_allocas_unpoison, uintptr_t, uintptr_t)
NOP2(__asan_poison_stack_memory, uintptr_t, size_t)
NOP2(__asan_unpoison_stack_memory, uintptr_t, size_t)

/* memcpy, memset and memmove of the code linked by rtcc (ld --wrap): the
 * accesses they make, as a vector copy makes them: 32 bytes read, 32
 * written, and so on (a copy backwards when memmove's would overlap). */
/* weak: without --wrap (rtcc -static) nothing calls the wrappers */
void *__real_memcpy(void *d, const void *s, size_t n) __attribute__((weak));
void *__real_memmove(void *d, const void *s, size_t n) __attribute__((weak));
void *__real_memset(void *d, int c, size_t n) __attribute__((weak));
void *__wrap_memcpy(void *d, const void *s, size_t n);
void *__wrap_memmove(void *d, const void *s, size_t n);
void *__wrap_memset(void *d, int c, size_t n);

#define PIECE 32

static inline __attribute__((always_inline)) void
copy(uintptr_t d, uintptr_t s, size_t n, void *ret)
{
	size_t i, k;

	if (d > s && d - s < n)		/* overlapping, from the end */
		for (i = n; i > 0; i -= k) {
			k = i % PIECE ? i % PIECE : PIECE;
			rec(s + i - k, (uint32_t)k, E_READ, ret);
			rec(d + i - k, (uint32_t)k, E_WRITE, ret);
		}
	else
		for (i = 0; i < n; i += k) {
			k = n - i < PIECE ? n - i : PIECE;
			rec(s + i, (uint32_t)k, E_READ, ret);
			rec(d + i, (uint32_t)k, E_WRITE, ret);
		}
}

void *
__wrap_memcpy(void *d, const void *s, size_t n)
{
	if (armed && !ts.busy)
		copy((uintptr_t)d, (uintptr_t)s, n, __builtin_return_address(0));
	return __real_memcpy(d, s, n);
}

void *
__wrap_memmove(void *d, const void *s, size_t n)
{
	if (armed && !ts.busy)
		copy((uintptr_t)d, (uintptr_t)s, n, __builtin_return_address(0));
	return __real_memmove(d, s, n);
}

void *
__wrap_memset(void *d, int c, size_t n)
{
	size_t i, k;

	if (armed && !ts.busy)
		for (i = 0; i < n; i += k) {
			k = n - i < PIECE ? n - i : PIECE;
			rec((uintptr_t)d + i, (uint32_t)k, E_WRITE, __builtin_return_address(0));
		}
	return __real_memset(d, c, n);
}

/* Events from contrib/reftrace.h, in the thread's order. */
static void
pushev(int op, const char *name, uint64_t addr, uint64_t size, uint32_t elem)
{
	struct ev *v;
	struct ent *e;

	if (!ready())
		return;
	ts.busy = 1;
	if ((v = calloc(1, sizeof *v)) != NULL && (v->name = strdup(name)) != NULL &&
	    (e = room()) != NULL) {
		v->addr = addr;
		v->size = size;
		v->elem = elem;
		e->addr = (uintptr_t)v;
		e->op = op;
		ts.cur = e + 1;
	} else if (v != NULL) {
		free(v->name);
		free(v);
	}
	ts.busy = 0;
	if (ts.c != NULL)
		setend();
}

void reftrace_mark(const char *name);
void reftrace_region(const char *name, const void *p, unsigned long count, unsigned long elemsize);
void reftrace_on(void);
void reftrace_off(void);

static void
turn(int on)
{
	atomic_store(&recording, on);
	atomic_store(&fast, on && sint == 1 && sburst == 0 && hlimit == 0 && nfuncs == 0);
	if (ts.c != NULL)
		setend();
}

void
reftrace_mark(const char *name)
{
	if (name == NULL)
		name = "";
	(void)VALGRIND_PRINTF("reftrace mark %s\n", name);
	pushev(E_MARK, name, 0, 0, 0);
	if (startmark != NULL && strcmp(name, startmark) == 0)
		turn(1);
	if (stopmark != NULL && strcmp(name, stopmark) == 0)
		turn(0);
}

void
reftrace_region(const char *name, const void *p, unsigned long count, unsigned long elemsize)
{
	(void)VALGRIND_PRINTF("reftrace region %s %p %lu %lu\n", name != NULL ? name : "", p, count,
	    elemsize);
	pushev(E_REGION, name != NULL ? name : "", (uintptr_t)p, (uint64_t)count * elemsize,
	    (uint32_t)elemsize);
}

void
reftrace_on(void)
{
	reftrace_mark("reftrace:on");
	turn(1);
}

void
reftrace_off(void)
{
	turn(0);
	reftrace_mark("reftrace:off");
}

/* The end, by whatever path: every thread's buffer to the writer, a mark
 * that says how the program ended, the trace closed.  A fatal signal in a
 * thread that holds the lock gives up after a second rather than hang. */
static void
finish(const char *why)
{
	struct tstate *t;
	struct timespec dl;
	struct ev *v;
	struct chunk *c;

	if (!haswriter || getpid() != mypid || atomic_exchange(&finished, 1))
		return;
	atomic_store(&recording, 0);
	atomic_store(&fast, 0);
	if (pthread_equal(pthread_self(), writer))
		return;
	ts.busy = 1;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 1;
	if (pthread_mutex_timedlock(&mu, &dl) != 0) {
		say("rtcc: %s: %s\n", outpath, "the program ended inside the recorder: trace incomplete");
		return;
	}
	for (t = threads; t != NULL; t = t->next)
		if (t != &ts)
			flushbuf(t, 0);
	if (ts.c != NULL)
		flushbuf(&ts, 0);
	/* the last mark, in a buffer of its own */
	if ((c = malloc(sizeof *c)) != NULL && (v = calloc(1, sizeof *v)) != NULL &&
	    (v->name = strdup(why)) != NULL) {
		c->tid = ts.tid;
		c->e[0].op = E_MARK;
		c->e[0].addr = (uintptr_t)v;
		enqueue(c, 1);
	}
	closing = 1;
	pthread_cond_signal(&filled);
	while (!closed)
		if (pthread_cond_timedwait(&emptied, &mu, &dl) == ETIMEDOUT) {
			dl.tv_sec += 1;
			if (!closed && strncmp(why, "rtcc:SIG", 8) == 0) {
				pthread_mutex_unlock(&mu);
				say("rtcc: %s: %s\n", outpath, "the writer did not finish: trace incomplete");
				return;
			}
		}
	pthread_mutex_unlock(&mu);
	pthread_join(writer, NULL);
}

__attribute__((constructor)) static void
start(void)
{
	pthread_once(&once, init);
}
