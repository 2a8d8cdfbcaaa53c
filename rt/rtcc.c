/* rtcc.c: the runtime rtcc links into a program: the address sanitizer's
 * outline hooks record every load and store of the code rtcc compiled
 * into per-thread buffers; a writer thread encodes them into reftrace's
 * binary trace with the library's writer.  Built without the hooks. */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>	/* marks for lackey too, as contrib/reftrace.h makes them */
#else
#define VALGRIND_PRINTF(...) 0
#endif

#include "reftrace.h"
#include "rtint.h"

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
static struct tstate *threads;
static pthread_t writer;
static int haswriter;

void
rtcc_busy(void)
{
	ts.busy = 1;
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
		rtcc_cfg.exebias = info->dlpi_addr;
	}
	(*(int *)arg)++;
	if (name == NULL || *name == '\0' || strncmp(name, "linux-vdso", 10) == 0)
		return 0;
	if ((v = calloc(1, sizeof *v)) == NULL || (v->name = strdup(name)) == NULL) {
		free(v);
		return 0;
	}
	v->addr = info->dlpi_addr;
	pthread_mutex_lock(&rtcc_q.mu);
	if (ts.c != NULL && ts.cur < ts.c->e + CHUNK) {
		ts.cur->op = E_OBJECT;
		ts.cur->addr = (uintptr_t)v;
		ts.cur++;
	} else {
		free(v->name);
		free(v);
	}
	pthread_mutex_unlock(&rtcc_q.mu);
	return 0;
}

static int
infunc(uint64_t pc)
{
	int i;

	for (i = 0; i < rtcc_cfg.nfuncs; i++)
		if (pc >= rtcc_cfg.flo[i] && pc < rtcc_cfg.fhi[i])
			return 1;
	return 0;
}

static void tinit(void);
static void turn(int on);
void reftrace_mark(const char *name);

static void
init(void)
{
	const char *s;
	char name[4096];
	int i, nobj = 0;
	struct sigaction sa, old;

	armed = 1;
	ts.busy = 1;
	mypid = getpid();
	rtcc_configure(mypid);
	if (rtcc_cfg.part.n) {
		char err[512];

		if (rt_wparts_open(&rtcc_q.wp, rtcc_cfg.outpath, &rtcc_cfg.part, 1, rtcc_cfg.ofmt, 0,
		    err, sizeof err) == RT_EUSAGE)
			rtcc_say("rtcc: RTCC_OUT=%s: with RTCC_PARTS, one %%d and no other %%\n",
			    rtcc_cfg.outpath);
		else if (rtcc_q.wp == NULL)
			rtcc_say("rtcc: %s\n", err);
	} else if ((rtcc_q.w = rt_wopen(rtcc_cfg.outpath, rtcc_cfg.ofmt, 0)) == NULL)
		rtcc_say("rtcc: %s: %s\n", rtcc_cfg.outpath, strerror(errno));
	if (rtcc_q.w == NULL && rtcc_q.wp == NULL) {
		atomic_store(&finished, 1);
		ts.busy = 0;
		return;
	}
	if (pthread_create(&writer, NULL, rtcc_writeloop, NULL) != 0) {
		rtcc_say("rtcc: %s: cannot start the writer thread: %s\n", rtcc_cfg.outpath, strerror(errno));
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
	if ((s = rtcc_getenv("RTCC_FUNCS")) != NULL)
		rtcc_functions(s);
	ts.busy = 0;
	/* the trace says what it samples, in a mark before the first record */
	if (rtcc_cfg.nfuncs) {
		snprintf(name, sizeof name, "rtcc:funcs=%s", getenv("RTCC_FUNCS"));
		reftrace_mark(name);
	}
	if (rtcc_cfg.sint > 1) {
		snprintf(name, sizeof name, "rtcc:interval=%llu", (unsigned long long)rtcc_cfg.sint);
		reftrace_mark(name);
	}
	if (rtcc_cfg.sburst) {
		snprintf(name, sizeof name, "rtcc:burst=%llu/%llu", (unsigned long long)rtcc_cfg.sburst,
		    (unsigned long long)rtcc_cfg.speriod);
		reftrace_mark(name);
	}
	if (rtcc_cfg.hlimit) {
		snprintf(name, sizeof name, "rtcc:hash=%g:%llu", rtcc_cfg.srate, (unsigned long long)rtcc_cfg.sbytes);
		reftrace_mark(name);
	}
	turn(rtcc_getenv("RTCC_OFF") == NULL && rtcc_cfg.startmark == NULL);
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
	pthread_mutex_lock(&rtcc_q.mu);
	ts.c = rtcc_fresh();
	ts.tid = rtcc_q.ntid++;
	ts.next = threads;
	threads = &ts;
	pthread_mutex_unlock(&rtcc_q.mu);
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

/* Hand over the thread's buffer and take a fresh one (rtcc_q.mu held). */
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
	rtcc_enqueue(t->c, (uint32_t)(e - t->c->e));
	t->c = again ? rtcc_fresh() : NULL;
	if (t->c != NULL)
		t->c->tid = t->tid;
	t->cur = t->end = t->c != NULL ? t->c->e : NULL;
}

static void
tdone(void *arg)
{
	struct tstate *t = arg, **pp;

	(void)arg;
	pthread_mutex_lock(&rtcc_q.mu);
	for (pp = &threads; *pp != NULL; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	if (!atomic_load(&finished))
		flushbuf(t, 0);
	pthread_mutex_unlock(&rtcc_q.mu);
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
		pthread_mutex_lock(&rtcc_q.mu);
		flushbuf(&ts, 1);
		pthread_mutex_unlock(&rtcc_q.mu);
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

	for (rt_span_start(&s, addr, addr + (size ? size - 1 : 0), rtcc_cfg.sbytes); rt_span_next(&s);)
		if (rt_hash64(s.block ^ 1) < rtcc_cfg.hlimit)
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
	if (rtcc_cfg.nfuncs && !infunc(pc)) {
		ts.skipped++;
		ts.end = ts.cur;
		return;
	}
	i = ts.pos++;
	if ((rtcc_cfg.sint > 1 && i % rtcc_cfg.sint != 0) || (rtcc_cfg.sburst && i % rtcc_cfg.speriod >= rtcc_cfg.sburst) ||
	    (rtcc_cfg.hlimit && rtcc_cfg.hlimit != UINT64_MAX && !hashed(addr, size))) {
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
	atomic_store(&fast, on && rtcc_cfg.sint == 1 && rtcc_cfg.sburst == 0 && rtcc_cfg.hlimit == 0 && rtcc_cfg.nfuncs == 0);
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
	if (rtcc_cfg.startmark != NULL && strcmp(name, rtcc_cfg.startmark) == 0)
		turn(1);
	if (rtcc_cfg.stopmark != NULL && strcmp(name, rtcc_cfg.stopmark) == 0)
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
 * that says how the program ended, the trace rtcc_q.closed.  A fatal signal in a
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
	if (pthread_mutex_timedlock(&rtcc_q.mu, &dl) != 0) {
		rtcc_say("rtcc: %s: %s\n", rtcc_cfg.outpath, "the program ended inside the recorder: trace incomplete");
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
		rtcc_enqueue(c, 1);
	}
	rtcc_q.closing = 1;
	pthread_cond_signal(&rtcc_q.filled);
	while (!rtcc_q.closed)
		if (pthread_cond_timedwait(&rtcc_q.emptied, &rtcc_q.mu, &dl) == ETIMEDOUT) {
			dl.tv_sec += 1;
			if (!rtcc_q.closed && strncmp(why, "rtcc:SIG", 8) == 0) {
				pthread_mutex_unlock(&rtcc_q.mu);
				rtcc_say("rtcc: %s: %s\n", rtcc_cfg.outpath, "the writer did not finish: trace incomplete");
				return;
			}
		}
	pthread_mutex_unlock(&rtcc_q.mu);
	pthread_join(writer, NULL);
}

__attribute__((constructor)) static void
start(void)
{
	pthread_once(&once, init);
}
