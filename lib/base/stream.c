/* stream.c: the kinds of stream, named once: what each is called, and
 * which program makes it, for the header a writer puts first and for the
 * error a reader gives another kind. */
#include <stdio.h>
#include <string.h>

#include "reftrace.h"

static const struct {
	const char *kind, *what, *maker;
} kinds[] = {
	[RT_STREAM_TRACE] = { "trace", "a trace", "trfilter" },
	[RT_STREAM_POINTS] = { "points", "a points stream", "tswindow" },
	[RT_STREAM_PERSISTENCE] = { "persistence", "a persistence stream", "persist" },
	[RT_STREAM_COORDINATES] = { "coordinates", "a coordinates stream", "circcoord" },
	[RT_STREAM_HIST] = { "hist", "a reuse-distance histogram", "reusedist" },
	[RT_STREAM_MRC] = { "mrc", "a miss-ratio curve", "reusedist -C" },
	[RT_STREAM_REUSE] = { "reuse", "a reuse-distance record stream", "reusedist -d" },
	[RT_STREAM_REUSE_WINDOW] = { "reuse-window", "a reuse-distance window table", "reusedist -w" },
	[RT_STREAM_REUSE_BY] = { "reuse-by-", "a reuse-distance table by key", "reusedist -g" },
	[RT_STREAM_CACHE] = { "cache", "a cache table", "cachesim" },
	[RT_STREAM_CACHE_ENSEMBLE] = { "cache-ensemble", "a cache ensemble table", "cachesim -E" },
	[RT_STREAM_CACHE_BY] = { "cache-by-", "a cache table by key", "cachesim -g" },
	[RT_STREAM_CACHE_RECORDS] = { "cache-records", "a cache record stream", "cachesim -d" },
	[RT_STREAM_CACHE_TEMPERATURE] = { "cache-temperature", "a cache temperature stream",
	    "cachesim --temperature" },
	[RT_STREAM_CACHE_DIFF] = { "cache-diff", "a cache diff stream", "cachesim --diff" },
	[RT_STREAM_CACHEGRIND] = { "cachegrind", "a cachegrind summary", "cachesim --cachegrind" },
	[RT_STREAM_LOOPS] = { "loops", "a loop model", "pli" },
	[RT_STREAM_PLI_STATS] = { "pli-stats", "a loop model's statistics", "pli --stats" },
	[RT_STREAM_CACHE_STATE] = { "cache-state", "a time slice's cache state",
	    "cachesim --slice" },
	[RT_STREAM_REUSE_STATE] = { "reuse-state", "a time slice's reuse state",
	    "reusedist --slice" },
};

#define NKINDS (int)(sizeof kinds / sizeof kinds[0])

const char *
rt_stream_name(int kind)
{
	return kind >= 0 && kind < NKINDS ? kinds[kind].kind : "unknown";
}

const char *
rt_stream_what(int kind)
{
	return kind >= 0 && kind < NKINDS ? kinds[kind].what : "not a reftrace stream";
}

const char *
rt_stream_maker(int kind)
{
	return kind >= 0 && kind < NKINDS ? kinds[kind].maker : "";
}

/* The kind a header line names ("#reftrace points 1 ..."), or -1. */
int
rt_stream_kind(const char *line, size_t n)
{
	const char *p = line + 10, *e;
	size_t len, k;
	int i;

	if (n < 11 || memcmp(line, "#reftrace ", 10) != 0)
		return -1;
	for (e = p; e < line + n && *e != ' ' && *e != '\t'; e++)
		;
	len = (size_t)(e - p);
	for (i = 0; i < NKINDS; i++) {
		k = strlen(kinds[i].kind);
		if (k > 0 && kinds[i].kind[k - 1] == '-') {	/* a family */
			if (len > k && memcmp(p, kinds[i].kind, k) == 0)
				return i;
		} else if (len == k && memcmp(p, kinds[i].kind, k) == 0)
			return i;
	}
	return -1;
}

/* "#reftrace KIND 1": the start of the first line of a stream. */
const char *
rt_stream_magic(int kind, char *buf, size_t len)
{
	snprintf(buf, len, "#reftrace %s 1", rt_stream_name(kind));
	return buf;
}
