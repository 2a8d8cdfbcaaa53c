/* diag.c: the programs' messages (escaped, one line, "prog: file:line:
 * reason"), exit statuses, progress on a terminal and allocation that
 * dies with a message. */
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reftrace.h"
#include "util.h"

volatile sig_atomic_t u_status;
const char *argv0 = "reftrace";
static int shown;	/* a progress line is on the terminal */

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

void
u_progress(const char *fmt, ...)
{
	static double last = -1;
	static int tty = -1;
	double t = now();
	va_list ap;

	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	if (!tty)
		return;
	if (fmt == NULL) {
		if (shown)
			fputs("\r\033[K", stderr);
		shown = 0;
		return;
	}
	if (last >= 0 && t - last < 0.5)
		return;
	last = t;
	fprintf(stderr, "\r\033[K%s: ", argv0);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	shown = 1;
}

/* A message, its control bytes escaped: an input's bytes quoted in it
 * (a line of a file, a name) must not retitle or clear the terminal. */
static void
vwarn(const char *fmt, va_list ap)
{
	char buf[2048];
	const unsigned char *p;
	size_t n = strlen(fmt);
	int e = errno;

	fflush(stdout);
	u_progress(NULL);
	vsnprintf(buf, sizeof buf, fmt, ap);
	fprintf(stderr, "%s: ", argv0);
	for (p = (const unsigned char *)buf; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	if (n > 0 && fmt[n - 1] == ':')
		fprintf(stderr, " %s", strerror(e));
	fputc('\n', stderr);
}

void
u_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
u_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	u_status = 1;
}

void
u_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void
u_bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(2);
}

int
u_exitcode(int code)
{
	return code == RT_EUSAGE ? 2 : 1;
}

void
u_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(u_exitcode(code));
}

void
u_diag(const char *msg, int fatal)
{
	u_warn("%s", msg);
	if (fatal)
		u_status = 1;
}

static void
nomem(void)
{
	u_die(1, "out of memory");
}

void *
u_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
u_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem();
	return p;
}

void *
u_reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		nomem();
	if ((p = realloc(p, n && size ? n * size : 1)) == NULL)
		nomem();
	return p;
}

char *
u_strdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		nomem();
	return p;
}

void *
u_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			nomem();
		c *= 2;
	}
	p = u_reallocarray(p, c, size);
	*cap = c;
	return p;
}

const char *
u_name(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0 ? "<stdout>" : path;
}

void *
u_trycalloc(size_t n, size_t size)
{
	if ((double)n * size > rt_memory())
		return NULL;
	return calloc(n, size);
}
