/* writer.c: rtcc's writer thread: the buffers the program's threads hand
 * over, drained in order into the library's trace writer. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "trace/output.h"	/* the writer's encoder, called straight */
#include "rtint.h"

struct rtcc_queue rtcc_q = { .mu = PTHREAD_MUTEX_INITIALIZER,
	.filled = PTHREAD_COND_INITIALIZER, .emptied = PTHREAD_COND_INITIALIZER };
static uint64_t seq;
static int werr;

void
rtcc_say(const char *fmt, ...)
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
		rtcc_say("rtcc: %s: %s\n", what, strerror(errno));
	werr = 1;
}

static void
put(const struct rt_rec *r)
{
	if (werr)
		return;
	if (rtcc_q.wp != NULL) {
		if (rt_wparts_write(rtcc_q.wp, r, 0))
			wfail(rt_wparts_name(rtcc_q.wp, rt_wparts_failed(rtcc_q.wp)));
	} else if (rt_write(rtcc_q.w, r))
		wfail(rtcc_cfg.outpath);
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
				if (rtcc_q.wp != NULL) {
					if (rt_wparts_write(rtcc_q.wp, &r, 0))
						wfail(rt_wparts_name(rtcc_q.wp, rt_wparts_failed(rtcc_q.wp)));
				} else if (rtcc_q.w->write(rtcc_q.w, &r))
					wfail(rtcc_cfg.outpath);
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

void *
rtcc_writeloop(void *arg)
{
	struct chunk *c;

	sigset_t all;

	(void)arg;
	rtcc_busy();
	sigfillset(&all);	/* the program's signals are the program's threads' */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_mutex_lock(&rtcc_q.mu);
	for (;;) {
		while (rtcc_q.head == NULL && !rtcc_q.closing)
			pthread_cond_wait(&rtcc_q.filled, &rtcc_q.mu);
		if ((c = rtcc_q.head) == NULL)
			break;
		if ((rtcc_q.head = c->next) == NULL)
			rtcc_q.tail = NULL;
		pthread_mutex_unlock(&rtcc_q.mu);
		drain(c);
		pthread_mutex_lock(&rtcc_q.mu);
		if (rtcc_q.nfree < MAXFREE) {
			c->next = rtcc_q.freel;
			rtcc_q.freel = c;
			rtcc_q.nfree++;
		} else {
			free(c);
			rtcc_q.nchunks--;
		}
		pthread_cond_broadcast(&rtcc_q.emptied);
	}
	pthread_mutex_unlock(&rtcc_q.mu);
	if (rtcc_q.wp != NULL) {
		for (uint64_t i = 0; i < rt_wparts_outputs(rtcc_q.wp); i++)
			if (rt_wparts_close(rtcc_q.wp, i) && !werr)
				wfail(rt_wparts_name(rtcc_q.wp, i));
		rt_wparts_free(rtcc_q.wp);
	} else if (rt_wclose(rtcc_q.w) && !werr)
		wfail(rtcc_cfg.outpath);
	pthread_mutex_lock(&rtcc_q.mu);
	rtcc_q.closed = 1;
	pthread_cond_broadcast(&rtcc_q.emptied);
	pthread_mutex_unlock(&rtcc_q.mu);
	return NULL;
}

/* Hand a thread's buffer to the writer (rtcc_q.mu held). */
void
rtcc_enqueue(struct chunk *c, uint32_t n)
{
	c->n = n;
	c->next = NULL;
	if (rtcc_q.tail != NULL)
		rtcc_q.tail->next = c;
	else
		rtcc_q.head = c;
	rtcc_q.tail = c;
	pthread_cond_signal(&rtcc_q.filled);
}

/* A fresh buffer (rtcc_q.mu held): one kept, a new one, or wait for the writer
 * to give one back, so that the program never runs further ahead of the
 * writer than the buffers kept. */
struct chunk *
rtcc_fresh(void)
{
	struct chunk *c;

	while (rtcc_q.freel == NULL && rtcc_q.nchunks >= MAXFREE + (int)rtcc_q.ntid + 2 && !rtcc_q.closed)
		pthread_cond_wait(&rtcc_q.emptied, &rtcc_q.mu);
	if ((c = rtcc_q.freel) != NULL) {
		rtcc_q.freel = c->next;
		rtcc_q.nfree--;
		return c;
	}
	if ((c = malloc(sizeof *c)) != NULL)
		rtcc_q.nchunks++;
	return c;
}
