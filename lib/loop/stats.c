/* stats.c: pli --stats, a model's size against the sequence it models
 * as text and against gzip and xz of that text, and the
 * "#reftrace pli-stats 1" stream that says so. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "loopint.h"
#include "base/zout.h"

struct rt_loopstat {
	uint64_t nvalues, looped, nterms, maxdepth, nloops;
	uint64_t rawbytes;
	struct rt_zout gz;	/* counted, not written */
	FILE *seqf;		/* the sequence as text, for xz */
};

struct rt_loopstat *
rt_loopstat_new(void)
{
	struct rt_loopstat *s;
	int e;

	if ((s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	if ((s->seqf = tmpfile()) == NULL) {
		e = errno;
		free(s);
		errno = e;
		return NULL;
	}
	if (rt_zout_init(&s->gz, 6 | RT_ZGZIP, 0, NULL, NULL)) {
		fclose(s->seqf);
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void
rt_loopstat_value(struct rt_loopstat *s, uint64_t v, int hex)
{
	char b[32];
	int n = hex ? snprintf(b, sizeof b, "0x%" PRIx64 "\n", v) :
	    snprintf(b, sizeof b, "%" PRId64 "\n", (int64_t)v);

	s->nvalues++;
	s->rawbytes += (uint64_t)n;
	(void)rt_zout_write(&s->gz, b, (size_t)n);	/* counted: no write to fail */
	fputs(b, s->seqf);
}

void
rt_loopstat_term(struct rt_loopstat *s, const struct rt_term *t)
{
	s->nterms++;
	if (rt_term_depth(t) > 0) {
		s->looped += rt_term_values(t);
		s->nloops++;
		if ((uint64_t)rt_term_depth(t) > s->maxdepth)
			s->maxdepth = (uint64_t)rt_term_depth(t);
	}
}

FILE *
rt_loopstat_text(struct rt_loopstat *s)
{
	if (fflush(s->seqf) == EOF)
		return NULL;
	rewind(s->seqf);
	return s->seqf;
}

int
rt_loopstat_write(struct rt_loopstat *s, FILE *f, uint64_t model, int64_t xz)
{
	uint64_t gzbytes, xzbytes = xz > 0 ? (uint64_t)xz : 0;
	int xzok = xz > 0;

	(void)rt_zout_end(&s->gz);	/* counted: no write to fail */
	gzbytes = s->gz.bytes;
	fprintf(f, "#reftrace pli-stats 1 values phases loops depth coverage "
	    "text_bytes model_bytes gzip_bytes xz_bytes model_ratio gzip_ratio xz_ratio\n");
	fprintf(f, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %.4f %" PRIu64
	    " %" PRIu64 " %" PRIu64 " ", s->nvalues, s->nterms, s->nloops, s->maxdepth,
	    s->nvalues ? (double)s->looped / s->nvalues : 0, s->rawbytes, model, gzbytes);
	if (xzok)
		fprintf(f, "%" PRIu64, xzbytes);
	else
		fputc('-', f);
	fprintf(f, " %.1f %.1f ", model ? (double)s->rawbytes / model : 0,
	    gzbytes ? (double)s->rawbytes / gzbytes : 0);
	if (xzok)
		fprintf(f, "%.1f\n", (double)s->rawbytes / xzbytes);
	else
		fputs("-\n", f);
	return ferror(f) ? RT_EIO : 0;
}

void
rt_loopstat_free(struct rt_loopstat *s)
{
	if (s == NULL)
		return;
	rt_zout_free(&s->gz);
	fclose(s->seqf);
	free(s);
}
