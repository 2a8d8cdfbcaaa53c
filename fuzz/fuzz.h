/* fuzz.h: what every harness shares: the input as a file that the
 * library's readers open by path, and the checks of their contract.
 *
 * A harness defines LLVMFuzzerTestOneInput (libFuzzer's entry point,
 * which AFL++ drives too through its libAFLDriver) over one reader.
 * The readers take paths, so the input goes to a memfd, reopened
 * through /proc/self/fd as a file of its own with its offset at 0
 * (a temporary file where there is no memfd).  Findings abort(): the
 * fuzzers count a crash, and the message says what was wrong. */
#ifndef RT_FUZZ_H
#define RT_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NFILES 2

/* A contract broken: say which and stop as a crash would. */
#define fuzz_assert(c, ...) do {					\
		if (!(c)) {						\
			fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* File k (0 to FUZZ_NFILES - 1), its path: opened once, reused. */
static inline const char *
fuzz_path(int k)
{
	static char path[FUZZ_NFILES][64];
	static int fd[FUZZ_NFILES] = { -1, -1 };
	const char *dir;

	if (fd[k] >= 0)
		return path[k];
	if ((fd[k] = memfd_create("fuzz", 0)) < 0) {
		dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(path[k], sizeof path[k], "%s/rtfuzz.XXXXXX", dir);
		if ((fd[k] = mkstemp(path[k])) < 0) {
			perror("fuzz: memfd_create and mkstemp");
			abort();
		}
		unlink(path[k]);	/* /proc/self/fd keeps it */
	}
	snprintf(path[k], sizeof path[k], "/proc/self/fd/%d", fd[k]);
	if (access(path[k], R_OK) != 0) {
		perror(path[k]);
		abort();
	}
	return path[k];
}

/* File k now holds these bytes and nothing else: its path. */
static inline const char *
fuzz_file(int k, const void *data, size_t size)
{
	const char *path = fuzz_path(k);
	int fd = atoi(path + strlen("/proc/self/fd/"));
	const char *p = data;
	ssize_t n;
	size_t at = 0;

	if (ftruncate(fd, 0) != 0)
		abort();
	while (at < size) {
		if ((n = pwrite(fd, p + at, size - at, (off_t)at)) <= 0) {
			perror("fuzz: pwrite");
			abort();
		}
		at += (size_t)n;
	}
	return path;
}

/* A stream that is not a trace, for rt_rgetline and the stream readers:
 * the bytes in file k, opened. */
static inline struct rt_reader *
fuzz_lines(int k, const void *data, size_t size)
{
	struct rt_reader *r;
	char err[512];

	r = rt_lopen(fuzz_file(k, data, size), err, sizeof err);
	fuzz_assert(r != NULL, "%s", err);
	return r;
}

/* The file k as it is now, in a malloc'd buffer (NUL after it). */
static inline char *
fuzz_slurp(int k, size_t *size)
{
	FILE *f = fopen(fuzz_path(k), "rb");
	char *b = NULL;
	size_t cap = 0, n = 0, m;

	if (f == NULL)
		abort();
	do {
		if (n + 4096 + 1 > cap && (b = realloc(b, cap = 2 * cap + 4096 + 1)) == NULL)
			abort();
		n += m = fread(b + n, 1, cap - n - 1, f);
	} while (m > 0);
	fclose(f);
	b[n] = '\0';
	*size = n;
	return b;
}

/* gzip (the readers inflate it): its first bytes. */
static inline int
fuzz_gzipped(const uint8_t *data, size_t size)
{
	return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/* A NUL byte in text that is not gzip: a malformed line wherever it is,
 * in every reader (reftrace(5)), so never read without an error. */
static inline int
fuzz_nul(const uint8_t *data, size_t size)
{
	return !fuzz_gzipped(data, size) && memchr(data, '\0', size) != NULL;
}

/* An error of the library: it names its place, "path: ..." or
 * "path:line: ...", whatever went wrong. */
static inline void
fuzz_err(const char *err, const char *path)
{
	size_t n = strlen(path);

	fuzz_assert(err != NULL && *err != '\0', "an error without a message");
	fuzz_assert(strncmp(err, path, n) == 0 && (err[n] == ':'),
	    "an error that does not name its place: %s", err);
}

#endif
