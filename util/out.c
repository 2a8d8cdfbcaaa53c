/* out.c: outputs: files made safely (a temporary renamed into place,
 * lib/base/ofile.c), an output that names an input refused, standard
 * output under any of its names, write errors and the closed pipe. */
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
#include "uint.h"

/* The operands, once the options are read: the inputs, for u_notinput. */
char **u_operands;
int u_noperands;

/* An output that names an input would be cut to nothing before it is
 * read (and removed, were the run to fail): refused, as a usage error. */
void
u_notinput(const char *path)
{
	struct stat o, i;
	int k;

	if (path == NULL || strcmp(path, "-") == 0 || stat(path, &o) || !S_ISREG(o.st_mode))
		return;
	for (k = 0; k < u_noperands; k++)
		if (strcmp(u_operands[k], "-") != 0 && stat(u_operands[k], &i) == 0 &&
		    i.st_dev == o.st_dev && i.st_ino == o.st_ino)
			u_bad("%s: an input, not written over: name another output", path);
}

/* The files u_outfile made (rt_ofile_open), each renamed into place by
 * the u_close that completes it. */
static struct made {
	FILE *f;
	struct rt_ofile *o;
} *made;
static size_t nmade, cmade;

/* Standard output under another name (/dev/stdout, /dev/fd/1, a file
 * that is also the shell's redirection): written as standard output, so
 * that it passes the hold like the rest (opened anew, /dev/stdout would
 * name the hold's pipe from beside it). */
static int
isstdout(const char *path)
{
	struct stat p, o;

	if (path == NULL || strcmp(path, "-") == 0)
		return 1;
	if (stat(path, &p) != 0)
		return 0;
	return (fstat(STDOUT_FILENO, &o) == 0 && p.st_dev == o.st_dev && p.st_ino == o.st_ino) ||
	    (u_heldout() >= 0 && fstat(u_heldout(), &o) == 0 && p.st_dev == o.st_dev &&
	    p.st_ino == o.st_ino);
}

FILE *
u_outfile(const char *path)
{
	struct rt_ofile *o;
	FILE *f;
	int fd;

	if (isstdout(path))
		return stdout;
	u_notinput(path);
	if ((o = rt_ofile_open(path, &fd)) == NULL)
		u_die(1, "%s:", path);
	if ((f = fdopen(fd, "wb")) == NULL) {
		close(fd);
		rt_ofile_end(o, 0);
		u_die(1, "%s:", path);
	}
	made = u_grow(made, &cmade, nmade + 1, sizeof *made);
	made[nmade].f = f;
	made[nmade++].o = o;
	return f;
}

/* The file u_outfile made f on, taken off the list; NULL if none. */
static struct rt_ofile *
unmade(FILE *f)
{
	struct rt_ofile *o;
	size_t i;

	for (i = 0; i < nmade; i++)
		if (made[i].f == f) {
			o = made[i].o;
			made[i] = made[--nmade];
			return o;
		}
	return NULL;
}

FILE *
u_open(const char *path)
{
	return u_outfile(path);
}

void
u_notterminal(const char *path, const char *what)
{
	if ((path == NULL || strcmp(path, "-") == 0) && isatty(STDOUT_FILENO))
		u_die(1, "%s output is not written to a terminal: give -o file, or a pipe", what);
}

struct rt_writer *
u_wopen(const char *path, int fmt, int gz)
{
	struct rt_writer *w;

	if (fmt == RT_FMT_BINARY || fmt == RT_FMT_BINARY2 || fmt == RT_FMT_BINFLAT || gz)
		u_notterminal(path, gz ? "compressed" : "binary");
	if (isstdout(path))
		path = NULL;
	u_notinput(path);
	if ((w = rt_wopen(path, fmt, gz)) == NULL)
		u_die(1, "%s:", u_name(path));
	return w;
}

void
u_wreport(const char *path)
{
	if (errno == EPIPE)
		_exit(u_status);
	u_error("%s:", u_name(path));
}

int
u_close(FILE *f, const char *path)
{
	struct rt_ofile *o = f == stdout ? NULL : unmade(f);
	int bad = fflush(f) == EOF || ferror(f);

	if (bad) {
		if (errno == 0)
			errno = EIO;
		u_wreport(path);
	}
	if (f != stdout && fclose(f) && !bad) {
		u_wreport(path);
		bad = 1;
	}
	if (rt_ofile_end(o, !bad && u_status == 0) && !bad) {
		u_wreport(path);
		bad = 1;
	}
	if (o != NULL && !bad)
		u_holdfile(path);
	return bad ? -1 : 0;
}

void
u_wfail(const char *path)
{
	u_wreport(path);
	exit(1);
}

int
u_wclose(struct rt_writer *w, const char *path)
{
	if (u_status != 0) {	/* a failed run leaves no file */
		rt_wdiscard(w);
		return 0;
	}
	if (rt_wclose(w) == 0) {
		u_holdfile(path);
		return 0;
	}
	u_wreport(path);
	return -1;
}

void
u_write(struct rt_writer *w, const struct rt_rec *rec, const char *path)
{
	if (rt_write(w, rec))
		u_wfail(path);
}

void
u_files(int argc, char *argv[], void (*fn)(const char *path))
{
	int i;

	if (argc == 0)
		fn("-");
	for (i = 0; i < argc; i++)
		fn(argv[i]);
}
