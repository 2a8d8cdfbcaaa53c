/* opt.c: options from one table: getopt_long, the usage line and
 * --help built from it (checked against the man pages by t/), and the
 * start every program shares (the closed-pipe policy, the hold). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <getopt.h>
#include <sched.h>
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

static unsigned char given[U_LONG + 128];	/* by key: the options u_getopt returned */

/* A closed output pipe is not an error: the reader has what it wanted.
 * The program ends at once, quietly, with the status it had. */
static void
onpipe(int sig)
{
	(void)sig;
	_exit(u_status);
}

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
		u_holdstart();
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
	if (c >= 0 && c < U_LONG + 128)
		given[c] = 1;
	switch (c) {
	case -1:	/* the input is standard input, and a person is at it */
		u_operands = argv + optind;
		u_noperands = argc - optind;
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

int
u_word(const char *opt, const char *arg, const char *const *words)
{
	char want[256];
	size_t n, k = 0;
	int i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(arg, words[i]) == 0)
			return i;
	for (i = 0; words[i] != NULL && k < sizeof want; i++) {
		n = snprintf(want + k, sizeof want - k, "%s%s", i == 0 ? "" :
		    words[i + 1] == NULL ? " or " : ", ", words[i]);
		k += n;
	}
	u_bad("%s %s: want %s", opt, arg, want);
}

const char *
u_optname(const struct u_prog *p, int key)
{
	static char buf[64];
	size_t i;

	for (i = 0; p->opt[i].key && p->opt[i].key != key; i++)
		;
	if (key < U_LONG)
		snprintf(buf, sizeof buf, "-%c", key);
	else
		snprintf(buf, sizeof buf, "--%s", p->opt[i].key ? p->opt[i].name : "?");
	return buf;
}

int
u_given(int key)
{
	return key >= 0 && key < U_LONG + 128 && given[key];
}

/* The first option of names (a letter, or a long name) that was given */
static int
firstgiven(const struct u_prog *p, const char *names)
{
	char w[64];
	size_t n, i;

	for (; *names; names += n + strspn(names + n, " ")) {
		n = strcspn(names, " ");
		if (n == 1 && u_given((unsigned char)*names))
			return (unsigned char)*names;
		snprintf(w, sizeof w, "%.*s", (int)n, names);
		for (i = 0; n > 1 && p->opt[i].key; i++)
			if (p->opt[i].name && strcmp(p->opt[i].name, w) == 0 && u_given(p->opt[i].key))
				return p->opt[i].key;
	}
	return -1;
}

void
u_clash(const struct u_prog *p, const struct u_clash *t)
{
	char a[64];
	int x, y;

	for (; t->why != NULL; t++)
		if ((x = firstgiven(p, t->first)) >= 0 && (y = firstgiven(p, t->then)) >= 0) {
			snprintf(a, sizeof a, "%s", u_optname(p, x));
			u_bad("%s with %s: %s", a, u_optname(p, y), t->why);
		}
}

static uint64_t
bounded(int (*parse)(const char *, uint64_t *), const char *opt, const char *arg, uint64_t lo,
    uint64_t hi, const char *want)
{
	uint64_t v;

	if (parse(arg, &v) || v < lo || v > hi)
		u_bad("%s %s: %s", opt, arg, want);
	return v;
}

uint64_t
u_count(const char *opt, const char *arg, uint64_t lo, uint64_t hi, const char *want)
{
	return bounded(rt_parse_u64, opt, arg, lo, hi, want);
}

uint64_t
u_size(const char *opt, const char *arg, uint64_t lo, uint64_t hi, const char *want)
{
	return bounded(rt_parse_size, opt, arg, lo, hi, want);
}

/* The processors this process may run on, as nproc(1) counts them:
 * taskset and a container's cpuset bound the default threads. */
int
u_cpus(int cap)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set);
#endif

	return n < 1 ? 1 : n > cap ? cap : (int)n;
}

double
u_real(const char *opt, const char *arg, double lo, double hi, const char *want)
{
	double v;

	if (rt_parse_double(arg, &v) || !(v >= lo && v <= hi))
		u_bad("%s %s: %s", opt, arg, want);
	return v;
}

int
u_pictkind(const char *path)
{
	static const char *const suffix[] = { ".svg", ".png", ".html" };	/* by U_SVG ... */
	size_t n = path ? strlen(path) : 0, k;
	int i;

	for (i = 0; i < 3; i++)
		if (n > (k = strlen(suffix[i])) && strcmp(path + n - k, suffix[i]) == 0)
			return i;
	return -1;
}

int
u_format(const char *arg)
{
	char want[256] = "auto";
	size_t n = strlen(want);
	int f;

	if ((f = rt_fmt_parse(arg)) >= 0)
		return f;
	for (f = RT_FMT_TEXT; f <= RT_FMT_BINARY2 && n < sizeof want; f++)
		n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", f == RT_FMT_BINARY2 ?
		    " or " : ", ", rt_fmt_name(f));
	u_bad("-I %s: want %s", arg, want);
}

void
u_check(int code, const char *opt, const char *arg, const char *why)
{
	if (code != 0)
		u_fail(code, "%s %s: %s", opt, arg, why);
}
