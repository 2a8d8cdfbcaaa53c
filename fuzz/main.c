/* fuzz/main.c: one program's whole main() under AFL++: the input gives its argv and its files */
/*
 * Built once per program with cmd/PROG.c's main renamed (make fuzz-main);
 * fuzz/mainrun runs afl-fuzz on it, fuzz/mainseed makes the seeds.  The
 * input is
 *
 *	word word ...\n		argv[1..] (spaces or tabs between words)
 *	bytes			standard input
 *	\n@@\n bytes		file a
 *	\n@@\n bytes		file b, then c
 *
 * A word naming a path with '/' is not run (the program would write
 * outside the sandbox): every file is a name in FUZZ_SANDBOX, emptied
 * before each run.  A finding is what AFL++ sees: a crash, a sanitizer
 * report, a hang; and an exit status other than 0, 1 or 2 (exit is
 * wrapped: -Wl,--wrap=exit).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fuzz_main(int, char **);
void __real_exit(int) __attribute__((noreturn));
void __wrap_exit(int) __attribute__((noreturn));

#define MAXIN (1 << 16)
#define MAXARG 24

void
__wrap_exit(int status)
{
	if (status != 0 && status != 1 && status != 2)
		abort();
	__real_exit(status);
}

/* every plain file of the sandbox goes: the last run's outputs and temporaries */
static void
empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(e->d_name);
	closedir(d);
}

static void
put(const char *name, const char *p, size_t n)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, p, n) != (ssize_t)n || close(fd))
		__real_exit(0);
}

int
main(int argc, char *argv[])
{
	static char in[MAXIN + 1];
	static const char *names[] = { ".stdin", "a", "b", "c" };
	char *av[MAXARG + 2], *p, *end, *nl, *w;
	const char *dir = getenv("FUZZ_SANDBOX");
	size_t n;
	int ac = 0, k, fd;
	FILE *f;

	if (argc != 2 || !dir || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: FUZZ_SANDBOX=dir %s input\n", argv[0]);
		__real_exit(2);
	}
	n = fread(in, 1, MAXIN, f);
	fclose(f);
	in[n] = 0;
	end = in + n;
	if (chdir(dir))
		__real_exit(2);
	empty(".");

	av[ac++] = FUZZ_PROG;
	nl = memchr(in, '\n', n);
	if (!nl)
		nl = end;
	*nl = 0;
	for (w = strtok(in, " \t"); w && ac <= MAXARG; w = strtok(NULL, " \t")) {
		if (strchr(w, '/'))
			__real_exit(0);
		av[ac++] = w;
	}
	av[ac] = NULL;

	p = nl < end ? nl + 1 : end;
	for (k = 0; k < 4; k++) {
		char *q = k < 3 ? memmem(p, end - p, "\n@@\n", 4) : NULL;
		char *e = q ? q : end;

		put(names[k], p, e - p);
		if (!q) {
			/* the files not given do not exist */
			break;
		}
		p = q + 4;
	}
	if ((fd = open(".stdin", O_RDONLY)) < 0 || dup2(fd, 0) < 0)
		__real_exit(2);
	close(fd);
	exit(fuzz_main(ac, av));
}
