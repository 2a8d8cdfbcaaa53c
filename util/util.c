/* util.c: the programs' support layer: options, diagnostics, allocation,
 * output and the closed-pipe policy. */
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

/* A closed output pipe is not an error: the reader has what it wanted.
 * The program ends at once, quietly, with the status it had. */
static void
onpipe(int sig)
{
	(void)sig;
	_exit(u_status);
}

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

/* A program that fails writes nothing that looks like a complete result
 * (DESIGN: a table of zeros, a picture, a stream's header).  Standard
 * output, when not a terminal, goes through a pipe to a thread that holds
 * what comes until an input's first records are read (u_release), HOLD bytes have
 * come (a stream under way) or the program ends with status 0; it is
 * dropped when the program ends with another status before that, and
 * the files it made are removed.  Later failures leave what was written
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

	while (n > 0) {
		if ((k = write(hold.real, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EPIPE)
				u_warn("<stdout>:");
			_exit(errno == EPIPE ? u_status : 1);
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

void
u_release(void)
{
	__atomic_store_n(&hold.go, 1, __ATOMIC_SEQ_CST);
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
	struct rt_part p, first = { 0, 0, 0 };
	struct rt_reader *r;
	char err[512];
	int i;

	if (n == 0 || (n == 1 && strcmp(files[0], "-") == 0)) {
		partw = w;	/* known once it is read */
		u_on_input(keeppart);
		return;
	}
	for (i = 0; i < n; i++) {	/* files: their headers first */
		if (strcmp(files[i], "-") == 0 ||
		    (r = rt_ropen(files[i], RT_FMT_AUTO, err, sizeof err)) == NULL)
			return;	/* the reading says why */
		rt_rpart(r, &p);
		rt_rclose(r);
		if (i == 0)
			first = p;
		else if (p.n != first.n || p.k != first.k || p.bytes != first.bytes)
			return;	/* not one partition: the output is none */
	}
	if (first.n && rt_wpart(w, &first) < 0)
		u_die(1, "%s: partition %llu/%llu: the output cannot record it", files[0],
		    (unsigned long long)first.k, (unsigned long long)first.n);
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

static void
holdstart(void)
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

/* The operands, once the options are read: the inputs, for outinput. */
static char **operands;
static int noperands;

/* An output that names an input would be cut to nothing before it is
 * read (and removed, were the run to fail): refused, as a usage error. */
void
u_notinput(const char *path)
{
	struct stat o, i;
	int k;

	if (path == NULL || strcmp(path, "-") == 0 || stat(path, &o) || !S_ISREG(o.st_mode))
		return;
	for (k = 0; k < noperands; k++)
		if (strcmp(operands[k], "-") != 0 && stat(operands[k], &i) == 0 &&
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
	    (hold.on && fstat(hold.real, &o) == 0 && p.st_dev == o.st_dev && p.st_ino == o.st_ino);
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

/* A file the program made, complete: removed if it fails before its
 * first input is recognised (u_release). */
static void
holdfile(const char *path)
{
	if (path != NULL && strcmp(path, "-") != 0 && !rt_ofile_inplace(path) && hold.nfiles < 8)
		hold.files[hold.nfiles++] = (char *)path;
}

FILE *
u_open(const char *path)
{
	return u_outfile(path);
}

void *
u_trycalloc(size_t n, size_t size)
{
	if ((double)n * size > rt_memory())
		return NULL;
	return calloc(n, size);
}

struct rt_writer *
u_wopen(const char *path, int fmt, int gz)
{
	struct rt_writer *w;

	if ((fmt == RT_FMT_BINARY || fmt == RT_FMT_BINARY2 || gz) && (path == NULL || strcmp(path, "-") == 0) &&
	    isatty(STDOUT_FILENO))
		u_die(1, "%s output is not written to a terminal: give -o file, or a pipe",
		    gz ? "compressed" : "binary");
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
		holdfile(path);
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
		holdfile(path);
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

/* Options */

/* digits first, then letters, the capital before the small one */
static int
order(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'Z')
		return 10 + 2 * (c - 'A');
	if (c >= 'a' && c <= 'z')
		return 11 + 2 * (c - 'a');
	return 100 + c;
}

static int
byletter(const void *a, const void *b)
{
	const struct u_opt *p = *(const struct u_opt *const *)a;
	const struct u_opt *q = *(const struct u_opt *const *)b;

	if ((p->key < U_LONG) != (q->key < U_LONG))
		return p->key < U_LONG ? -1 : 1;
	if (p->key >= U_LONG)
		return strcmp(p->name, q->name);
	return order(p->key) - order(q->key);
}

static const struct u_opt builtin[] = {
	{ 'h', "help", NULL, "this help" },
	{ 'V', "version", NULL, "the version" },
};

/* The options in usage order, -h and -V among them. */
static size_t
sorted(const struct u_prog *p, const struct u_opt **v, size_t max)
{
	size_t n = 0, i;

	for (i = 0; p->opt[i].key && n + 2 < max; i++)
		v[n++] = &p->opt[i];
	v[n++] = &builtin[0];
	v[n++] = &builtin[1];
	qsort(v, n, sizeof *v, byletter);
	return n;
}

/* Words of a usage line, wrapped under the first after the name. */
static void
word(FILE *f, const char *w, size_t *col, size_t indent)
{
	size_t n = strlen(w);

	if (*col + 1 + n > 79 && *col > indent) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	}
	fprintf(f, " %s", w);
	*col += n + 1;
}

static void
synopsis(FILE *f, const struct u_prog *p)
{
	const struct u_opt *v[128];
	size_t n = sorted(p, v, 128), i, col, indent;
	char w[256], flags[130];
	size_t nf = 0;

	fprintf(f, "usage: %s", p->name);
	col = 7 + strlen(p->name);
	indent = col;
	for (i = 0; i < n; i++)
		if (v[i]->key < U_LONG && v[i]->arg == NULL)
			flags[nf++] = (char)v[i]->key;
	flags[nf] = '\0';
	if (nf) {
		snprintf(w, sizeof w, "[-%s]", flags);
		word(f, w, &col, indent);
	}
	for (i = 0; i < n; i++) {
		if (v[i]->key < U_LONG && v[i]->arg == NULL)
			continue;
		if (v[i]->key < U_LONG)
			snprintf(w, sizeof w, "[-%c %s]", v[i]->key, v[i]->arg);
		else if (v[i]->arg)
			snprintf(w, sizeof w, "[--%s %s]", v[i]->name, v[i]->arg);
		else
			snprintf(w, sizeof w, "[--%s]", v[i]->name);
		word(f, w, &col, indent);
	}
	if (p->operands && *p->operands)
		word(f, p->operands, &col, indent);
	fputc('\n', f);
	if (p->more)
		fprintf(f, "       %s %s\n", p->name, p->more);
}

void
u_usage(const struct u_prog *p)
{
	synopsis(stderr, p);
	exit(2);
}

static void
help(const struct u_prog *p)
{
	const struct u_opt *v[128];
	size_t n = sorted(p, v, 128), i;
	char w[256];
	int k;

	synopsis(stdout, p);
	putchar('\n');
	for (i = 0; i < n; i++) {
		if (v[i]->key < U_LONG && v[i]->name)
			k = snprintf(w, sizeof w, "-%c, --%s", v[i]->key, v[i]->name);
		else if (v[i]->key < U_LONG)
			k = snprintf(w, sizeof w, "-%c", v[i]->key);
		else
			k = snprintf(w, sizeof w, "    --%s", v[i]->name);
		if (v[i]->arg)
			snprintf(w + k, sizeof w - k, " %s", v[i]->arg);
		if (strlen(w) <= 22)
			printf("  %-22s %s\n", w, v[i]->help);
		else
			printf("  %s\n  %-22s %s\n", w, "", v[i]->help);
	}
	if (fflush(stdout) || ferror(stdout))
		u_wreport(NULL);
	exit(u_status);
}

int
u_getopt(int argc, char *argv[], const struct u_prog *p)
{
	static const struct u_prog *built;
	static char shorts[256];
	static struct option longs[128];
	struct sigaction sa;
	size_t i, ns = 0, nl = 0;
	int c;

	if (built != p) {
		const char *s;

		built = p;
		if ((s = strrchr(p->name, '/')) != NULL)
			argv0 = s + 1;
		else
			argv0 = p->name;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = onpipe;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGPIPE, &sa, NULL);
		holdstart();
		shorts[ns++] = 'h';
		shorts[ns++] = 'V';
		longs[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
		longs[nl++] = (struct option){ "version", no_argument, NULL, 'V' };
		for (i = 0; p->opt[i].key && nl < 127 && ns < 250; i++) {
			const struct u_opt *o = &p->opt[i];

			if (o->key < U_LONG) {
				shorts[ns++] = (char)o->key;
				if (o->arg)
					shorts[ns++] = ':';
			}
			if (o->name)
				longs[nl++] = (struct option){ o->name,
				    o->arg ? required_argument : no_argument, NULL, o->key };
		}
		shorts[ns] = '\0';
		longs[nl] = (struct option){ NULL, 0, NULL, 0 };
	}
	c = getopt_long(argc, argv, shorts, longs, NULL);
	switch (c) {
	case -1:	/* the input is standard input, and a person is at it */
		operands = argv + optind;
		noperands = argc - optind;
		for (i = (size_t)optind; i < (size_t)argc && strcmp(argv[i], "-") != 0; i++)
			;
		if ((optind == argc || i < (size_t)argc) && isatty(STDIN_FILENO))
			u_warn("reading standard input, a terminal: name a file or pipe "
			    "one in (^D ends the input)");
		break;
	case 'h':
		help(p);
		break;
	case 'V':
		printf("%s %s\n", p->name, RT_VERSION);
		if (fflush(stdout) || ferror(stdout))
			u_wreport(NULL);
		exit(0);
	case '?':
		u_usage(p);
	}
	return c;
}
