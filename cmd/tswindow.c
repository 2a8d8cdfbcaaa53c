/* tswindow: slide a window over a trace or a numeric series: one point per window. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "topo.h"
#include "util.h"

enum sym { S_ADDR, S_OPADDR, S_BLOCK, S_PC, S_LINE, S_FUNC, S_REGION, S_STEP };
static const char *symnames[] = {
	"addr", "opaddr", "block", "pc", "line", "func", "region", "step"
};

#define SYMLEN RT_WINSYM	/* a symbol or a metadata column, as text */

static uint64_t wflag = 10, iflag = 1, jflag = 1, Bflag = 64;
/* the views: a loop whose addresses recur shows in opaddr, one whose
 * addresses advance in step */
static int yflag[RT_MAXVIEW] = { S_OPADDR, S_STEP }, nview = 2;
static int kflag, Iflag = RT_FMT_AUTO, series, threads;
static const char *oflag;

static FILE *fo;
static struct rt_regions *regs;
static struct rt_steps steps;
static struct rt_win *win;	/* the items, their windows' lines made on threads */
static size_t span;		/* items a window covers: (w - 1) * lag + 1 */
static uint64_t nitems;

enum { O_THREADS = U_LONG };
static const struct u_opt opts[] = {
	{ 'B', "block", "bytes", "-y block: block size (64)" },
	{ 'I', "format", "format", "a trace format, or series: numbers a line" },
	{ 'i', "interval", "n", "every n-th window" },
	{ 'j', "lag", "n", "a series: every n-th value in a window (delay embedding)" },
	U_OPT_KEEP,
	U_OPT_OUTPUT,
	{ 'w', "window", "n", "symbols or values a window (10)" },
	{ 'y', "symbol", "kinds", "one or two of opaddr, step, addr, block, pc, line, func, region (opaddr,step)" },
	{ O_THREADS, "threads", "n", "make the windows' lines on n threads, read on another (1)" },
	{ 0 }
};
static const struct u_prog prog = { "tswindow", "[file ...]", opts, NULL };

/* s after the n bytes in buf, cut as snprintf would cut a symbol; the
 * length now (formatting by hand: snprintf was half of the time). */
static size_t
put(char *buf, size_t n, const char *s, size_t len)
{
	if (len > SYMLEN - 1 - n)
		len = SYMLEN - 1 - n;
	memcpy(buf + n, s, len);
	buf[n + len] = '\0';
	return n + len;
}

/* 0xHEX, after the operation's letter unless op < 0: 19 bytes at most */
static size_t
hex(char *buf, int op, uint64_t x)
{
	size_t n = 0;

	if (op >= 0)
		buf[n++] = rt_opchar[op & 3];
	buf[n++] = '0';
	buf[n++] = 'x';
	return n + (size_t)rt_fmt_x64(buf + n, x);
}

static void
locname(char *buf, uint32_t loc, int withline)
{
	const struct rt_loc *l = rt_loc_get(loc);
	const char *s;
	char num[24];
	size_t n;

	if (withline && loc != 0 && l->line != 0) {
		s = rt_str(l->file);
		n = put(buf, 0, s, strlen(s));
		num[0] = ':';
		put(buf, n, num, 1 + (size_t)rt_fmt_u64(num + 1, l->line));
	} else if (!withline && loc && l->func) {
		s = rt_str(l->func);
		put(buf, 0, s, strlen(s));
	} else
		put(buf, 0, "-", 1);
}

/* The record's symbol, its length; its line, function and region are
 * already text. */
static size_t
symbol(char *buf, int kind, const struct rt_rec *rec, const char *loc, const char *func,
    const char *reg)
{
	int64_t d;
	size_t n;
	int r;

	switch (kind) {
	case S_ADDR: return hex(buf, -1, rec->addr);
	case S_OPADDR: return hex(buf, rec->op, rec->addr);
	case S_BLOCK: return hex(buf, -1, rec->addr / Bflag);
	case S_PC: return rec->pc == RT_NOPC ? put(buf, 0, "-", 1) : hex(buf, -1, rec->pc);
	case S_LINE: return put(buf, 0, loc, strlen(loc));
	case S_FUNC: return put(buf, 0, func, strlen(func));
	case S_REGION: return put(buf, 0, reg, strlen(reg));
	case S_STEP:
		if ((r = rt_steps_next(&steps, rec->pc, rec->addr, &d)) < 0)
			u_die(1, "out of memory");
		n = hex(buf, rec->op, rec->pc);
		if (r == 0) {	/* not the instruction's first access: its step */
			buf[n++] = d < 0 ? '-' : '+';
			n += (size_t)rt_fmt_u64(buf + n, d < 0 ? 0 - (uint64_t)d : (uint64_t)d);
		}
		return n;
	}
	return 0;
}

/* A chunk's lines, in order */
static int
out(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	if (fwrite(p, 1, n, fo) != n)
		u_wfail(oflag);
	return 0;
}

/* The item filled: its windows' lines are made when its chunk is full. */
static void
push(void)
{
	nitems++;
	if (rt_win_push(win))	/* out() ends the program when a write fails */
		u_die(1, "out of memory");
}

static int
item(void *ctx, struct rt_rec *rec)
{
	struct rt_winsym *it;
	char *loc, *func, *reg;
	uint32_t r;
	int v;

	(void)ctx;
	if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
		u_die(1, "out of memory");
	if (rec->kind != RT_ACCESS)
		return 0;
	it = rt_win_next(win);
	loc = it->meta[0], func = it->meta[1], reg = it->meta[2];
	it->seq = rec->seq;
	locname(loc, rec->loc, 1);
	locname(func, rec->loc, 0);
	r = rt_regions_find(regs, rec->addr);
	put(reg, 0, r ? rt_str(r) : "-", r ? strlen(rt_str(r)) : 1);
	for (v = 0; v < nview; v++)
		it->len[v] = (uint8_t)symbol(it->sym[v], yflag[v], rec, loc, func, reg);
	push();
	if (nitems % 65536 == 0)
		u_progress("%" PRIu64 " records", nitems);
	return 0;
}

/* A series: one number a line (the first column), # lines are comments. */
static void
readseries(const char *file)
{
	char ebuf[1024], *s;
	struct rt_winnum *it;
	struct rt_reader *r;
	double v;
	int k;

	if ((r = rt_lopen(file, ebuf, sizeof ebuf)) == NULL) {
		u_warn("%s", ebuf);
		u_status = 1;
		return;
	}
	if ((k = rt_rkind(r)) != RT_STREAM_NONE) {
		u_error("%s: %s, not a series (a number a line)", rt_rpath(r), rt_stream_what(k));
		rt_rclose(r);
		return;
	}
	for (;;) {
		if ((s = rt_rfield(r, 1)) == NULL && !rt_rmalformed(r))
			break;
		if (s == NULL || rt_parse_double(s, &v)) {
			u_warn("%s", s ? rt_rbad(r, "not a number") : rt_rerror(r));
			if (kflag)
				continue;
			u_status = 1;
			break;
		}
		u_release();	/* a first number read: the points stand */
		it = rt_win_next(win);
		it->x = v;
		it->seq = nitems;
		push();
	}
	if (rt_rfailed(r)) {
		u_warn("%s", rt_rerror(r));
		u_status = 1;
	}
	rt_rclose(r);
}

/* -y: one kind, or two apart by a comma (two views of each window) */
static void
symbols(char *arg)
{
	char *k, *save = NULL;
	int n = 0, y;

	for (k = strtok_r(arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		for (y = 0; y < (int)(sizeof symnames / sizeof symnames[0]); y++)
			if (strcmp(k, symnames[y]) == 0)
				break;
		if (y == (int)(sizeof symnames / sizeof symnames[0]))
			u_bad("-y %s: want opaddr, step, addr, block, pc, line, func or region", k);
		if (n == RT_MAXVIEW)
			u_bad("-y: at most %d kinds", RT_MAXVIEW);
		yflag[n++] = y;
	}
	if (n == 0)
		u_bad("-y: want a kind of symbol");
	nview = n;
}

static uint64_t
num(const char *arg, int opt)
{
	uint64_t v;

	if (rt_parse_size(arg, &v) || v == 0)
		u_bad("-%c %s: want a positive number", opt, arg);
	return v;
}

int
main(int argc, char *argv[])
{
	char about[160];
	int c;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'B': Bflag = num(optarg, c); break;
		case 'I':
			if (strcmp(optarg, "series") == 0)
				series = 1;
			else
				Iflag = u_format(optarg);
			break;
		case 'i': iflag = num(optarg, c); break;
		case 'j': jflag = num(optarg, c); break;
		case 'k': kflag = 1; break;
		case 'o': oflag = optarg; break;
		case 'w':
			if ((wflag = num(optarg, c)) > 1024)
				u_bad("-w %s: at most 1024", optarg);
			break;
		case 'y': symbols(optarg); break;
		case O_THREADS:
			threads = (int)u_count("--threads", optarg, 1, 64, "1 to 64");
			break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (jflag > 1 && !series)
		u_bad("-j: a lag is for numeric series (-I series)");
	if (jflag > (UINT64_MAX / 2) / wflag)
		u_bad("-j %" PRIu64 ": too long", jflag);
	span = (wflag - 1) * jflag + 1;
	/* one thread by default: a line is now cheaper to make than its
	 * items are to hand to another core (bench/RESULTS.tswindow) */
	if (threads == 0)
		threads = 1;
	if ((win = rt_win_new(wflag, jflag, iflag, series ? 0 : nview, (unsigned)threads, out,
	    NULL)) == NULL || (regs = rt_regions_new()) == NULL)
		u_die(1, "-w %" PRIu64 " -j %" PRIu64 ": a window spans %zu values, "
		    "more than there is memory for", wflag, jflag, span);
	fo = u_open(oflag);
	if (series)
		snprintf(about, sizeof about, "tswindow series w=%" PRIu64 " lag=%" PRIu64
		    " stride=%" PRIu64, wflag, jflag, iflag);
	else
		snprintf(about, sizeof about, "tswindow symbol=%s%s%s w=%" PRIu64 " stride=%"
		    PRIu64 " block=%" PRIu64, symnames[yflag[0]], nview > 1 ? "," : "",
		    nview > 1 ? symnames[yflag[1]] : "", wflag, iflag, Bflag);
	rt_points_head(fo, series, (int)wflag, nview, about);
	if (series)
		u_files(argc, argv, readseries);
	else if (rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag))
		u_status = 1;
	if (rt_win_end(win))
		u_die(1, "out of memory");
	if (u_status == 0 && rt_win_points(win) == 0) {
		u_warn("%" PRIu64 " %s, fewer than a window needs (%zu)", nitems,
		    series ? "values" : "records", span);
		u_status = 1;
	}
	u_progress(NULL);
	u_close(fo, oflag);
	rt_steps_free(&steps);
	rt_win_free(win);
	return u_status;
}
