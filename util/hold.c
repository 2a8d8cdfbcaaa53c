/* hold.c: a failed run writes nothing that looks like a complete
 * result: standard output held until an input is recognised, the files
 * a run made removed if it fails before, and interrupted outputs
 * removed on a signal. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reftrace.h"
#include "util.h"
#include "uint.h"

/* A program that fails writes nothing that looks like a complete result
 * (DESIGN: a table of zeros, a picture, a stream's header).  Standard
 * output, when not a terminal, goes through a pipe to a thread that holds
 * what comes until an input's first records are read (u_release), HOLD
 * bytes have come (a stream under way) or the program ends with status 0;
 * it is dropped when the program ends with another status before that,
 * and the files it made are removed.  Later failures leave what was written
 * and the status, as a bad file among good ones. */
#define HOLD (64 * 1024)
static struct {
	int real, rd, on, released, status, go, tsv;
	char *line;		/* RT_TSV: the line so far */
	size_t nline, cline;
	char *buf;
	size_t n;
	pthread_t thr;
	char *files[8];
	int nfiles;
} hold = { .real = -1 };

static void
rawwrite(const char *p, size_t n)
{
	ssize_t k;
	int e;

	while (n > 0) {
		if ((k = write(hold.real, p, n)) < 0) {
			if ((e = errno) == EINTR)
				continue;
			/* not u_warn: its fflush(stdout) waits for stdout's
			 * lock, which a write blocked on this full pipe holds */
			if (e != EPIPE)
				fprintf(stderr, "%s: <stdout>: %s\n", argv0, strerror(e));
			_exit(e == EPIPE ? u_status : 1);
		}
		p += k;
		n -= (size_t)k;
	}
}

/* RT_TSV: a table as tab-separated values: a #reftrace line's columns
 * (or a "# a b c" header's) as the one header line, other comments
 * dropped, blanks between fields a tab. */
static void
tsvline(char *l, size_t n)
{
	char *f, *save = NULL, *o = l;
	int i = 0, skip;

	l[n] = '\0';
	if (*l == '#') {
		skip = strncmp(l, "#reftrace ", 10) == 0 ? 3 : strncmp(l, "# ", 2) == 0 ? 1 : -1;
		if (skip < 0)
			return;
	} else
		skip = 0;
	for (f = strtok_r(l, " \t", &save); f; f = strtok_r(NULL, " \t", &save))
		if (i++ >= skip) {
			if (o != l)
				*o++ = '\t';
			memmove(o, f, strlen(f));
			o += strlen(f);
		}
	*o++ = '\n';
	if (o - l > 1)
		rawwrite(l, (size_t)(o - l));
}

static void
holdwrite(const char *p, size_t n)
{
	size_t i;

	if (!hold.tsv) {
		rawwrite(p, n);
		return;
	}
	for (i = 0; i < n; i++) {
		if (hold.nline + 2 > hold.cline && (hold.line = realloc(hold.line,
		    hold.cline = hold.cline ? 2 * hold.cline : 4096)) == NULL)
			_exit(1);
		if ((hold.line[hold.nline++] = p[i]) == '\n') {
			tsvline(hold.line, hold.nline - 1);
			hold.nline = 0;
		}
	}
}

static void *
relay(void *arg)
{
	char b[65536];
	ssize_t k;
	int nosplice = 0;

	(void)arg;
	while ((k = read(hold.rd, b, sizeof b)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (hold.released) {
			holdwrite(b, (size_t)k);
			/* under way: the pipe straight to the output, where it can */
			while (!nosplice && !hold.tsv &&
			    (k = splice(hold.rd, NULL, hold.real, NULL, 1 << 20, SPLICE_F_MOVE)) > 0)
				;
			if (hold.tsv)
				continue;
			if (!nosplice && k == 0)
				break;
			if (!nosplice && errno == EPIPE)
				_exit(u_status);
			if (!nosplice && errno != EINTR && errno != EAGAIN)
				nosplice = 1;	/* O_APPEND, a terminal: read and write */
			continue;
		}
		if ((hold.buf = realloc(hold.buf, hold.n + (size_t)k)) == NULL)
			_exit(1);
		memcpy(hold.buf + hold.n, b, (size_t)k);
		if ((hold.n += (size_t)k) > HOLD || __atomic_load_n(&hold.go, __ATOMIC_SEQ_CST)) {
			holdwrite(hold.buf, hold.n);
			hold.released = 1;
		}
	}
	if (!hold.released && (__atomic_load_n(&hold.status, __ATOMIC_SEQ_CST) == 0 ||
	    __atomic_load_n(&hold.go, __ATOMIC_SEQ_CST)))
		holdwrite(hold.buf, hold.n);
	if (hold.tsv && hold.nline && (hold.released || hold.status == 0 || hold.go))
		tsvline(hold.line, hold.nline);	/* a last line without its newline */
	return NULL;
}

/* Released: nothing is held any more, so standard output is made the
 * real one again (its pipe, once drained, costs a copy of every byte in
 * the kernel and a thread's wakeups).  stdout's lock keeps stdio's
 * writers out while the pipe is flushed, closed and drained, so that
 * what they write next follows what was held.  fd 1 must be the pipe's
 * one writer by then, or the join waits for the others: nothing in
 * lib/ or util/ copies it (the trace writers deflate into it, and the
 * children forked put their own output in its place). */
static void
direct(void)
{
	if (!hold.on || hold.tsv)
		return;
	flockfile(stdout);
	fflush(stdout);
	if (dup2(hold.real, STDOUT_FILENO) >= 0) {	/* the pipe's last writer closed */
		pthread_join(hold.thr, NULL);
		close(hold.real);
		hold.real = -1;
		hold.on = 0;
	}
	funlockfile(stdout);
}

void
u_release(void)
{
	__atomic_store_n(&hold.go, 1, __ATOMIC_SEQ_CST);
	direct();
}

void
u_discard(void)
{
	__atomic_store_n(&hold.go, 0, __ATOMIC_SEQ_CST);
	exit(1);
}

static void
holdend(int status, void *arg)
{
	int i;

	(void)arg;
	rt_ofile_cleanup();	/* files not complete: not left under their names */
	if (status != 0 && !__atomic_load_n(&hold.go, __ATOMIC_SEQ_CST))
		for (i = 0; i < hold.nfiles; i++)
			unlink(hold.files[i]);
	if (!hold.on)
		return;
	hold.on = 0;
	__atomic_store_n(&hold.status, status, __ATOMIC_SEQ_CST);
	fflush(stdout);
	close(STDOUT_FILENO);
	pthread_join(hold.thr, NULL);
}

static void (*oninput)(const struct rt_reader *r);

void
u_on_input(void (*fn)(const struct rt_reader *r))
{
	oninput = fn;
}

/* What fn refuses of an input is refused before the output is released,
 * and so is a first record that is malformed: a program that fails
 * there writes nothing. */
static void
recognised(const struct rt_reader *r)
{
	if (oninput != NULL)
		oninput(r);
}

static void
started(const struct rt_reader *r)
{
	(void)r;
	u_release();
}

/* u_keeppart's writer, for standard input's partition. */
static struct rt_writer *partw;

static void
keeppart(const struct rt_reader *r)
{
	struct rt_part p;

	if (rt_rpart(r, &p) && rt_wpart(partw, &p) < 0)
		u_die(1, "%s: partition %llu/%llu: the output cannot record it",
		    rt_rpath(r), (unsigned long long)p.k, (unsigned long long)p.n);
}

void
u_keeppart(struct rt_writer *w, char **files, int n)
{
	struct rt_part p;

	if (n == 0 || (n == 1 && strcmp(files[0], "-") == 0)) {
		partw = w;	/* known once it is read */
		u_on_input(keeppart);
		return;
	}
	if (rt_files_part(files, n, RT_FMT_AUTO, &p) == 0 && p.n && rt_wpart(w, &p) < 0)
		u_die(1, "%s: partition %llu/%llu: the output cannot record it", files[0],
		    (unsigned long long)p.k, (unsigned long long)p.n);
}

/* Interrupted: the files being written go (the complete ones stay), and
 * the signal ends the program as it would have. */
static void
onsignal(int sig)
{
	rt_ofile_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void
u_holdstart(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	int p[2];
	size_t i;

	on_exit(holdend, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsignal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)	/* nohup's SIG_IGN stays */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	rt_on_trace(recognised);
	rt_on_records(started);
	hold.tsv = getenv("RT_TSV") != NULL && *getenv("RT_TSV") != '\0';
	if ((isatty(STDOUT_FILENO) && !hold.tsv) || fcntl(STDOUT_FILENO, F_GETFD) < 0 ||
	    (getenv("RT_NOHOLD") != NULL && !hold.tsv))
		return;
	if ((hold.real = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0)
		return;
	if (pipe2(p, O_CLOEXEC) < 0) {
		close(hold.real);
		return;
	}
	hold.rd = p[0];
	if (dup2(p[1], STDOUT_FILENO) < 0 || pthread_create(&hold.thr, NULL, relay, NULL)) {
		dup2(hold.real, STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		close(hold.real);
		return;
	}
	close(p[1]);
	hold.on = 1;
}

/* A file the program made, complete: removed if it fails before its
 * first input is recognised (u_release). */
void
u_holdfile(const char *path)
{
	if (path != NULL && strcmp(path, "-") != 0 && !rt_ofile_inplace(path) && hold.nfiles < 8)
		hold.files[hold.nfiles++] = (char *)path;
}

int
u_heldout(void)
{
	return hold.on ? hold.real : -1;
}
