/* util.h: the programs' support layer (sbase's libutil is the model):
 * options and --help from one table, diagnostics, checked allocation,
 * closing output, the closed-pipe policy.  The library (lib/) never
 * prints and never exits; this layer does both, for the programs. */
#ifndef RT_UTIL_H
#define RT_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rt_writer;
struct rt_rec;

/* The exit status so far: 0, or 1 once some input or output failed.  A
 * closed output pipe ends the program quietly with this status. */
extern volatile sig_atomic_t u_status;
extern const char *argv0;

/* An option: its letter (or a code from U_LONG up for a long option
 * alone), its long name or NULL, its argument's name or NULL for a flag,
 * and one line of help.  A table ends with a zero key. */
#define U_LONG 256
struct u_opt {
	int key;
	const char *name;
	const char *arg;
	const char *help;
};
/* The options every program that has them shares, word for word. */
#define U_OPT_OUTPUT { 'o', "output", "file", "write to file, not standard output" }
#define U_OPT_KEEP { 'k', "keep-going", NULL, "warn of malformed lines and skip them" }
#define U_OPT_TRACE { 'I', "format", "format", "read this trace format, not the one guessed" }
#define U_OPT_BINARY { 'b', "binary", NULL, "write the binary trace format (-O binary)" }
#define U_OPT_GZIP { 'z', "gzip", NULL, "compress the output with gzip" }

struct u_prog {
	const char *name;
	const char *operands;	/* "[file ...]" */
	const struct u_opt *opt;
	const char *more;	/* another usage line (after the name), or NULL */
};

/* getopt_long over the table: returns the key of the next option, -1 at
 * the end.  -h, --help print the usage and a line per option on standard
 * output and exit 0; -V, --version print the version; an unknown option
 * or a missing argument prints the usage and exits 2.  The first call
 * also sets argv0 and the closed-pipe policy. */
int u_getopt(int argc, char *argv[], const struct u_prog *p);
void u_usage(const struct u_prog *p) __attribute__((noreturn));
/* The index of arg among words (NULL-terminated); else "opt arg: want
 * a, b or c" and exit 2. */
int u_word(const char *opt, const char *arg, const char *const *words);
/* Whether u_getopt returned key. */
int u_given(int key);
/* Options that do not go together: with one of first given (names: a
 * letter, or a long name, separated by spaces), none of then.  The
 * first entry that applies ends the program, "-x with --y: why" (status
 * 2).  A table ends with a NULL why. */
struct u_clash {
	const char *first, *then, *why;
};
void u_clash(const struct u_prog *p, const struct u_clash *t);
/* An option's number in [lo, hi], else "opt arg: want" (status 2):
 * u_count a decimal count, u_size one with K, M, G ..., u_real any real
 * (an open bound is the double next to it: nextafter). */
uint64_t u_count(const char *opt, const char *arg, uint64_t lo, uint64_t hi, const char *want);
uint64_t u_size(const char *opt, const char *arg, uint64_t lo, uint64_t hi, const char *want);
double u_real(const char *opt, const char *arg, double lo, double hi, const char *want);
/* The processors online, 1 to cap: a count of threads' default */
int u_cpus(int cap);
/* A picture's kind by its name's suffix (.svg, .png, .html), or -1 */
enum { U_SVG, U_PNG, U_HTML };
int u_pictkind(const char *path);
/* -I's trace format, else "-I arg: want auto, text ..." and exit 2 */
int u_format(const char *arg);
/* How option key is written: "-c", or "--name" for a long one alone. */
const char *u_optname(const struct u_prog *p, int key);

/* "prog: message" on standard error; a format that ends with ':' gets
 * ": strerror(errno)".  u_die exits with status; u_warn sets nothing;
 * u_error sets u_status to 1. */
void u_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void u_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void u_die(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* A usage error (status 2): "prog: -c 12Q: reason" and no usage text. */
void u_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* A library error (RT_E*, reftrace.h) as the program's response: the
 * message, and status 2 for a usage error, 1 for the others. */
int u_exitcode(int code);
void u_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* A library's answer (0, or an RT_E code with why) about an option's
 * argument: nothing, or "opt arg: why" and the code's status. */
void u_check(int code, const char *opt, const char *arg, const char *why);
/* Progress on standard error when it is a terminal, at most twice a
 * second, on one line that the next message or u_progress(NULL) clears;
 * never in a pipe's data. */
void u_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The library's diagnostics (rt_diag_fn): a warning, or an error. */
void u_diag(const char *msg, int fatal);

/* Allocation that cannot fail: out of memory ends the program. */
void *u_malloc(size_t n);
void *u_calloc(size_t n, size_t size);
/* calloc, or NULL when n * size is more than this machine's memory: asked
 * before calloc, whose sanitized version aborts on such sizes. */
void *u_trycalloc(size_t n, size_t size);
void *u_reallocarray(void *p, size_t n, size_t size);
char *u_strdup(const char *s);
/* Grow *p to hold at least need items of size bytes; *cap doubles. */
void *u_grow(void *p, size_t *cap, size_t need, size_t size);

/* A file written by the program other than its output (a picture
 * beside a table): opened, or the program ends; one that names an input
 * is refused (status 2), as u_open and u_wopen refuse theirs.
 * u_notinput refuses it before anything is read.  Every file is written
 * under a temporary name (rt_ofile_open) that u_close (u_wclose) renames
 * to its own once complete, if the run has not failed (u_status 0); an
 * exit before, or SIGINT, SIGTERM or SIGHUP, removes it. */
FILE *u_outfile(const char *path);
void u_notinput(const char *path);
/* Output: path NULL or "-" is standard output.  u_close flushes and
 * closes, reporting a write error (status 1); a closed pipe exits
 * quietly.  u_wfail does the same after a failed rt_write, and exits. */
FILE *u_open(const char *path);
/* Until an input's first records are read (a trace's are, by itself:
 * rt_on_records),
 * standard output is held and the files made are removed if the program
 * fails: a program that fails on its first input writes nothing. */
void u_release(void);
/* The program fails with no result that stands (rt_foreach said 2): exit
 * 1, the output held dropped and the files made removed, as when no
 * input was recognised; what went out before (a stream) stays. */
void u_discard(void) __attribute__((noreturn));
/* fn is told of each trace input as it is recognised, its reader open. */
void u_on_input(void (*fn)(const struct rt_reader *r));
/* A partition's trace rewritten (filtered, sampled) is still that
 * partition: the partition the inputs (files, or standard input) all
 * record goes to w's header; inputs of different partitions, or some
 * with and some without, make an output of none. */
void u_keeppart(struct rt_writer *w, char **files, int n);
/* Output of what (binary, compressed) to path: refused (exit 1) where
 * it would go to standard output and that is a terminal, as gzip
 * refuses. */
void u_notterminal(const char *path, const char *what);
/* rt_wopen, or exit: binary or gzip output is not written to a terminal
 * (as gzip refuses), nor is a file that cannot be made. */
struct rt_writer *u_wopen(const char *path, int fmt, int gz);
int u_close(FILE *f, const char *path);
void u_wfail(const char *path) __attribute__((noreturn));
int u_wclose(struct rt_writer *w, const char *path);
/* A write to path failed (errno says why): a closed pipe ends the
 * program quietly, anything else is said and sets the status. */
void u_wreport(const char *path);
const char *u_name(const char *path);	/* "<stdout>" for NULL or "-" */
/* rt_write, a failure handled as u_wfail does. */
void u_write(struct rt_writer *w, const struct rt_rec *rec, const char *path);
/* fn on each file named, or on "-" when none is. */
void u_files(int argc, char *argv[], void (*fn)(const char *path));

/* The bytes xz -6 makes of text (read from its start), or -1 without an
 * xz program. */
int64_t u_xzsize(FILE *text);

#endif
