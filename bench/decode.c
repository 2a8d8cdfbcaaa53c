/* decode: read traces a batch at a time (rt_readv) and do nothing with
 * the records but sum their fields, so that the CPU time is the reader's:
 * records, CPU seconds (getrusage) and M records/s on standard output.
 *	decode file ...
 * Built by bench/bin2: cc -O2 -Ilib -o bench/out/decode bench/decode.c
 * lib/libreftrace.a -lz */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "reftrace.h"

static double
cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int
main(int argc, char **argv)
{
	struct rt_reader *r;
	struct rt_rec *v;
	char err[512];
	uint64_t n = 0, sum = 0;
	double t0 = cpu(), t;
	int i, k, j;

	for (i = 1; i < argc; i++) {
		if ((r = rt_ropen(argv[i], RT_FMT_AUTO, err, sizeof err)) == NULL) {
			fprintf(stderr, "decode: %s\n", err);
			return 1;
		}
		while ((k = rt_readv(r, &v)) > 0) {
			for (j = 0; j < k; j++)
				sum += v[j].addr ^ v[j].size ^ v[j].pc ^ v[j].op;
			n += (uint64_t)k;
		}
		if (k < 0) {
			fprintf(stderr, "decode: %s\n", rt_rerror(r));
			return 1;
		}
		rt_rclose(r);
	}
	t = cpu() - t0;
	printf("%llu %.3f %.1f %llx\n", (unsigned long long)n, t, t > 0 ? n / t / 1e6 : 0,
	    (unsigned long long)(sum & 0xf));
	return 0;
}
