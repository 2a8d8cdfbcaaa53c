/* rtcc: compile and link a program so that it records its own trace. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reftrace.h"
#include "util.h"

#ifndef RTCC_LIBDIR
#define RTCC_LIBDIR "/usr/local/lib/reftrace"
#endif
#ifndef RTCC_INCDIR
#define RTCC_INCDIR "/usr/local/include"
#endif

static const struct u_opt opts[] = {
	{ 'c', NULL, NULL, "compile only: no link, no runtime" },
	{ 'o', "output", "file", "write the program or object to file" },
	{ 0 }
};
static const struct u_prog prog = { "rtcc", "[cc-option ...] file ...", opts, NULL };

/* The compiler's options that take the next argument as theirs. */
static const char *const witharg[] = {
	"-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
	"-iprefix", "-iwithprefix", "-isysroot", "-x", "-MF", "-MT", "-MQ", "-L", "-l", "-T",
	"-u", "-e", "-z", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "--param",
	"-mllvm", "-target", "-arch", "-aux-info", "-dumpbase", "-dumpdir", "-G", "-B", NULL
};

/* Options that make the compiler print something and stop. */
static const char *const info[] = {
	"-v", "--version", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs",
	"-print-search-dirs", "-print-libgcc-file-name", "-print-multiarch", "-###", NULL
};

static int
among(const char *s, const char *const *v)
{
	for (; *v != NULL; v++)
		if (strcmp(s, *v) == 0)
			return 1;
	return 0;
}

/* The directory of this program, to find the runtime beside it. */
static char *
selfdir(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);

	if (n <= 0)
		return NULL;
	path[n] = '\0';
	return dirname(path);
}

/* The runtime: RTCC_LIBDIR, the build tree (cmd/../rt), beside an
 * installed rtcc (bin/../lib/reftrace, whatever PREFIX make install was
 * given), or where make was told it would be. */
static const char *
runtime(const char *dir, char *buf, size_t len)
{
	const char *env = getenv("RTCC_LIBDIR");

	if (env != NULL && *env != '\0') {
		snprintf(buf, len, "%s/librtcc.a", env);
		return access(buf, R_OK) == 0 ? buf : NULL;
	}
	if (dir != NULL) {
		snprintf(buf, len, "%s/../rt/librtcc.a", dir);
		if (access(buf, R_OK) == 0)
			return buf;
		snprintf(buf, len, "%s/../lib/reftrace/librtcc.a", dir);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	snprintf(buf, len, "%s/librtcc.a", RTCC_LIBDIR);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

static int
inpath(const char *name)
{
	const char *p = getenv("PATH"), *e;
	char buf[PATH_MAX];

	for (; p != NULL && *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)(e - p), e > p ? p : ".", name);
		if (e == p)
			snprintf(buf, sizeof buf, "./%s", name);
		if (access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/* gcc or clang: by the name, else by what it says it is. */
static int
isclang(const char *cc)
{
	const char *b = strrchr(cc, '/');
	char cmd[PATH_MAX + 64], line[256];
	FILE *p;
	int yes = 0;

	b = b != NULL ? b + 1 : cc;
	if (strstr(b, "clang") != NULL)
		return 1;
	if (strstr(b, "gcc") != NULL)
		return 0;
	snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", cc);
	if ((p = popen(cmd, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof line, p) != NULL)
		if (strstr(line, "clang") != NULL)
			yes = 1;
	pclose(p);
	return yes;
}

/* What the command line asks of the compiler. */
struct ask {
	int link, inputs, shared, justinfo, isstatic;
};

static void
scan(int argc, char *argv[], struct ask *k)
{
	int i;

	k->link = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			char *hv[] = { "rtcc", "--help", NULL };
			u_getopt(2, hv, &prog);
		}
		if (strcmp(a, "-V") == 0) {
			char *vv[] = { "rtcc", "-V", NULL };
			u_getopt(2, vv, &prog);
		}
		if (among(a, witharg)) {
			if (++i >= argc) {
				u_warn("%s: wants an argument", a);
				u_usage(&prog);
			}
			if (strcmp(a, "-l") == 0)
				k->inputs++;
			continue;
		}
		if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
		    strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 || strcmp(a, "-fsyntax-only") == 0)
			k->link = 0;
		else if (strcmp(a, "-shared") == 0 || strcmp(a, "-r") == 0)
			k->shared = 1;
		else if (strcmp(a, "-static") == 0)
			k->isstatic = 1;
		else if (among(a, info) || strncmp(a, "-print-", 7) == 0)
			k->justinfo = 1;
		else if (a[0] != '-' || strcmp(a, "-") == 0 || strncmp(a, "-l", 2) == 0)
			k->inputs++;
	}
}

/* Every load and store a call to the runtime, nothing else of ASan. */
static int
hooks(char **v, int n, int clang)
{
	static char *cl[] = { "-mllvm", "-asan-instrumentation-with-call-threshold=0",
		"-mllvm", "-asan-stack=0", "-mllvm", "-asan-globals=0",
		"-mllvm", "-asan-opt=0",
		"-Wno-unused-command-line-argument", NULL };	/* a link alone */
	static char *gc[] = { "--param", "asan-instrumentation-with-call-threshold=0",
		"--param", "asan-stack=0", "--param", "asan-globals=0", NULL };
	char **f = clang ? cl : gc;

	v[n++] = "-fsanitize=kernel-address";
	while (*f != NULL)
		v[n++] = *f++;
	return n;
}

/* reftrace.h's directory: contrib/ in the build tree, else beside an
 * installed rtcc, else where it was to be installed. */
static void
incdir(char *inc, size_t len, const char *dir)
{
	char h[PATH_MAX + 32];

	snprintf(inc, len, "-idirafter%s/../contrib", dir != NULL ? dir : ".");
	if (dir == NULL || access(inc + 10, R_OK) != 0)
		snprintf(inc, len, "-idirafter%s/../include", dir != NULL ? dir : ".");
	if (dir == NULL || strlen(inc) + 12 > len ||
	    access(strcat(strcpy(h, inc + 10), "/reftrace.h"), R_OK) != 0)
		snprintf(inc, len, "-idirafter%s", RTCC_INCDIR);
}

int
main(int argc, char *argv[])
{
	const char *cc = getenv("RTCC_CC"), *rt = NULL, *dir;
	char **v, rtbuf[PATH_MAX + 16], inc[PATH_MAX + 16];
	struct ask k = { 0 };
	int i, n = 0;

	argv0 = "rtcc";
	scan(argc, argv, &k);
	/* Nothing to compile: the compiler's own questions pass, anything
	 * else is a usage error. */
	if (k.inputs == 0 && !k.justinfo)
		u_usage(&prog);
	/* clang by choice: gcc drops the store of a read-modify-write and
	 * the accesses to globals at constant offsets (rtcc(1), CAVEATS) */
	if (cc == NULL || *cc == '\0')
		cc = inpath("clang") ? "clang" : "cc";
	dir = selfdir();
	if (k.link && !k.shared && !k.justinfo && (rt = runtime(dir, rtbuf, sizeof rtbuf)) == NULL)
		u_die(1, "librtcc.a: not found beside rtcc (%s/../rt) nor in %s; set RTCC_LIBDIR",
		    dir != NULL ? dir : "?", RTCC_LIBDIR);
	v = u_calloc((size_t)argc + 32, sizeof *v);
	v[n++] = (char *)cc;
	n = hooks(v, n, isclang(cc));
	v[n++] = "-DREFTRACE_RTCC=1";
	incdir(inc, sizeof inc, dir);
	v[n++] = inc;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--output") == 0)
			v[n++] = "-o";
		else if (strncmp(argv[i], "--output=", 9) == 0) {
			v[n++] = "-o";
			v[n++] = argv[i] + 9;
			continue;
		}
		v[n++] = argv[i];
	}
	if (rt != NULL) {
		/* not with -static: the C library's own copies would be wrapped */
		if (!k.isstatic)
			v[n++] = "-Wl,--wrap=memcpy,--wrap=memmove,--wrap=memset";
		/* the hooks for shared objects compiled by rtcc that it loads */
		v[n++] = "-Wl,-u,__asan_load8_noabort,--export-dynamic-symbol=__asan_*,"
		    "--export-dynamic-symbol=reftrace_*";
		v[n++] = (char *)rt;
		v[n++] = "-lz";
		v[n++] = "-lm";
		v[n++] = "-lpthread";
	}
	v[n] = NULL;
	execvp(cc, v);
	u_die(1, "%s:", cc);
}
