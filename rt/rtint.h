/* rtint.h: the runtime's insides, shared by rtcc.c (the hooks, the
 * threads' buffers, the start and the end), writer.c (the writer thread
 * and the queue of buffers it drains) and env.c (the configuration from
 * the environment).  Every name is rtcc_: the runtime is linked into
 * programs that have names of their own. */
#ifndef RTINT_H
#define RTINT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "reftrace.h"

/* Not seen outside the program (and reached without the GOT under
 * -fPIC). */
#pragma GCC visibility push(hidden)

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

/* The configuration (env.c), read by the hooks once it is set. */
#define MAXFUNCS 64
struct rtcc_cfg {
	char *outpath;
	int ofmt;
	struct rt_part part;		/* RTCC_PARTS */
	uint64_t sint;			/* RTCC_SAMPLE: every n-th */
	uint64_t sburst, speriod;	/* RTCC_BURST: b of every p */
	double srate;			/* RTCC_HASH: SHARDS rate */
	uint64_t sbytes, hlimit;
	const char *startmark, *stopmark;
	uint64_t flo[MAXFUNCS], fhi[MAXFUNCS];	/* RTCC_FUNCS: their code */
	int nfuncs;
	uint64_t exebias;		/* the program's load bias */
};
extern struct rtcc_cfg rtcc_cfg;

/* The buffers handed to the writer and those it gives back (writer.c),
 * under mu; the writer's output. */
struct rtcc_queue {
	pthread_mutex_t mu;
	pthread_cond_t filled;		/* the writer waits */
	pthread_cond_t emptied;		/* a thread waits */
	struct chunk *head, *tail, *freel;
	int nfree, nchunks, closing, closed;
	uint32_t ntid;			/* threads that had a buffer */
	struct rt_writer *w;
	struct rt_wparts *wp;
};
extern struct rtcc_queue rtcc_q;

/* writer.c */
void rtcc_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *rtcc_writeloop(void *arg);
void rtcc_enqueue(struct chunk *c, uint32_t n);	/* mu held */
struct chunk *rtcc_fresh(void);			/* mu held */
/* env.c: the environment's variable name if set and not empty; the
 * configuration from the environment (%p in RTCC_OUT: pid), a value it
 * refuses said and left at its default; RTCC_FUNCS's functions' code. */
const char *rtcc_getenv(const char *name);
void rtcc_configure(pid_t pid);
void rtcc_functions(const char *list);
/* rtcc.c: the calling thread is the runtime's: its accesses are not
 * recorded. */
void rtcc_busy(void);

#pragma GCC visibility pop

#endif
