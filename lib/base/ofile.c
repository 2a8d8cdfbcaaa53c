/* ofile.c: files made safely: an output is written under a temporary
 * name in its own directory and renamed to its name once complete, so
 * that a run cut short leaves no partial file under it (as sort -o and
 * sed -i do); the files pending are in a list that rt_ofile_cleanup
 * walks from a signal handler. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reftrace.h"

/* A node is never freed: a handler on another thread may be reading it.
 * live says whether tmp is to be removed; it is set after tmp is made
 * and cleared after tmp is gone (renamed or removed). */
struct rt_ofile {
	char *tmp;		/* NULL: written in place (not a regular file) */
	char *path;		/* NULL: a spool, removed at the end */
	volatile sig_atomic_t live;
	struct rt_ofile *next;
};

static struct rt_ofile *head;

static void
push(struct rt_ofile *o)
{
	o->next = __atomic_load_n(&head, __ATOMIC_SEQ_CST);
	__atomic_store_n(&head, o, __ATOMIC_SEQ_CST);
}

static void
setlive(struct rt_ofile *o, int v)
{
	__atomic_store_n(&o->live, v, __ATOMIC_SEQ_CST);
}

/* The mode the file gets: an existing file's, else what creat(0666)
 * would give under the umask. */
static mode_t
mode(const struct stat *st, int exists)
{
	mode_t m;

	if (exists)
		return st->st_mode & 07777;
	m = umask(0);
	umask(m);
	return 0666 & ~m;
}

/* The name the output goes to: path, or the file a symbolic link names
 * (the link stays a link). */
static char *
target(const char *path)
{
	struct stat st;
	char to[4096], *t;
	const char *b;
	ssize_t n;
	size_t d;

	if (lstat(path, &st) || !S_ISLNK(st.st_mode))
		return strdup(path);
	if ((t = realpath(path, NULL)) != NULL || errno != ENOENT)
		return t;
	/* a link to a file not made yet: its name, beside the link */
	if ((n = readlink(path, to, sizeof to - 1)) < 0)
		return NULL;
	to[n] = '\0';
	b = strrchr(path, '/');
	d = *to == '/' || b == NULL ? 0 : (size_t)(b - path + 1);
	if ((t = malloc(d + (size_t)n + 1)) != NULL)
		snprintf(t, d + (size_t)n + 1, "%.*s%s", (int)d, path, to);
	return t;
}

/* A device, a FIFO, or a file named by descriptor (/dev/stdout,
 * /proc/self/fd/N: it may have no name of its own to rename onto, and
 * whoever holds the descriptor expects the bytes in it). */
int
rt_ofile_inplace(const char *path)
{
	struct stat st;

	return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0 ||
	    (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

/* ".NAME.XXXXXX" in the directory of path. */
static char *
tmpname(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t d = b ? (size_t)(b - path + 1) : 0, n = strlen(path) + 16;
	char *t = malloc(n);

	if (t != NULL)
		snprintf(t, n, "%.*s.%.200s.XXXXXX", (int)d, path, path + d);
	return t;
}

static struct rt_ofile *
fail(struct rt_ofile *o, int fd)
{
	int e = errno;

	if (fd >= 0)
		close(fd);
	if (o != NULL) {
		free(o->tmp);
		free(o->path);
		free(o);
	}
	errno = e;
	return NULL;
}

struct rt_ofile *
rt_ofile_open(const char *path, int *fdp)
{
	struct rt_ofile *o;
	struct stat st;
	int fd = -1, exists;

	if ((o = calloc(1, sizeof *o)) == NULL || (o->path = target(path)) == NULL)
		return fail(o, -1);
	exists = stat(path, &st) == 0;
	if (rt_ofile_inplace(path)) {	/* never made: a /dev name gone stays gone */
		if ((*fdp = open(path, O_WRONLY | O_TRUNC)) < 0)
			return fail(o, -1);
		push(o);
		return o;
	}
	if ((o->tmp = tmpname(o->path)) == NULL || (fd = mkstemp(o->tmp)) < 0)
		return fail(o, -1);
	push(o);
	setlive(o, 1);
	if (fchmod(fd, mode(&st, exists)) < 0) {
		unlink(o->tmp);
		setlive(o, 0);
		return fail(NULL, fd);
	}
	*fdp = fd;
	return o;
}

struct rt_ofile *
rt_ofile_spool(char *tmpl)
{
	struct rt_ofile *o;
	int fd;

	if ((o = calloc(1, sizeof *o)) == NULL || (o->tmp = strdup(tmpl)) == NULL)
		return fail(o, -1);
	if ((fd = mkstemp(o->tmp)) < 0)
		return fail(o, -1);
	push(o);
	setlive(o, 1);
	close(fd);
	memcpy(tmpl, o->tmp, strlen(o->tmp));
	return o;
}

int
rt_ofile_end(struct rt_ofile *o, int keep)
{
	int e = 0;

	if (o == NULL || o->tmp == NULL || !o->live)
		return 0;
	if (keep && o->path != NULL && rename(o->tmp, o->path) < 0) {
		e = errno;
		unlink(o->tmp);
	} else if (!keep || o->path == NULL)
		unlink(o->tmp);
	setlive(o, 0);
	errno = e;
	return e ? RT_EIO : 0;
}

/* unlink only: async-signal-safe */
void
rt_ofile_cleanup(void)
{
	struct rt_ofile *o;

	for (o = __atomic_load_n(&head, __ATOMIC_SEQ_CST); o != NULL; o = o->next)
		if (__atomic_load_n(&o->live, __ATOMIC_SEQ_CST))
			unlink(o->tmp);
}
