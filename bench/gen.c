/* gen: synthetic traces for the benchmarks.
 *   gen [-l] N > out     N records shaped like a lackey trace of a loop
 *                        nest, reftrace binary (or lackey text with -l):
 *                        three instructions in four carry a data access:
 *                        strided array sweeps (70%), a small stack (20%)
 *                        and a random heap of 64 MB (10%)
 *   gen -r N > out       N data accesses of 8 bytes over exactly 10^6
 *                        64-byte blocks: sweeps over all of them (50%), a
 *                        hot set of 1000 (30%), uniform random (20%) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"

int
main(int argc, char *argv[])
{
	struct rt_writer *w = NULL;
	struct rt_rec r;
	struct rt_rng g;
	uint64_t n, i, pc = 0x401000, a = 0x10000000, b = 0x20000000, c = 0x30000000;
	int lackey = argc > 1 && strcmp(argv[1], "-l") == 0;
	int reuse = argc > 1 && strcmp(argv[1], "-r") == 0;
	unsigned k;
	char line[64];
	static char obuf[1 << 20];

	if (argc != 2 + (lackey | reuse) || rt_parse_size(argv[1 + (lackey | reuse)], &n)) {
		fprintf(stderr, "usage: gen [-l | -r] N\n");
		return 2;
	}
	rt_rng_seed(&g, 1);
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	if (!lackey && (w = rt_wopen(NULL, RT_FMT_BINARY, 0)) == NULL)
		return 1;
	memset(&r, 0, sizeof r);
	r.tid = RT_NOTID;
	for (i = 0; reuse && i < n; i++) {
		static uint64_t sweep;

		r.seq = i;
		r.op = RT_READ;
		r.size = 8;
		k = (unsigned)rt_rng_below(&g, 10);
		if (k < 5 || i < 8000000) {	/* the first sweep touches every block */
			r.addr = 0x10000000 + sweep;
			sweep = (sweep + 8) % (1000000 * 64);
		} else if (k < 8)
			r.addr = 0x10000000 + 64 * rt_rng_below(&g, 1000);
		else
			r.addr = 0x10000000 + 64 * rt_rng_below(&g, 1000000);
		if (rt_write(w, &r))
			return 1;
	}
	for (i = 0; !reuse && i < n; i++) {
		r.seq = i;
		if (i % 2 == 0 || rt_rng_below(&g, 2) == 0) {	/* a fetch */
			pc = 0x401000 + (pc - 0x401000 + 4 + rt_rng_below(&g, 4)) % 512;
			r.op = RT_IFETCH;
			r.addr = r.pc = pc;
			r.size = 3 + rt_rng_below(&g, 5);
		} else {
			k = (unsigned)rt_rng_below(&g, 10);
			r.op = k < 5 ? RT_READ : k < 8 ? RT_WRITE : RT_MODIFY;
			r.size = 8;
			if (k < 7) {
				a += 8, b += 8, c += 8;
				r.addr = k < 3 ? a : k < 5 ? b : c;
			} else if (k < 9)
				r.addr = 0x1fff000400 + 8 * rt_rng_below(&g, 64);
			else
				r.addr = 0x40000000 + 8 * rt_rng_below(&g, 8u << 20);
			r.pc = pc;
		}
		if (!lackey) {
			if (rt_write(w, &r))
				return 1;
			continue;
		}
		if (r.op == RT_IFETCH)
			snprintf(line, sizeof line, "I  %08llx,%llu\n",
			    (unsigned long long)r.addr, (unsigned long long)r.size);
		else
			snprintf(line, sizeof line, " %c %llx,%llu\n", "LSM"[r.op],
			    (unsigned long long)r.addr, (unsigned long long)r.size);
		fputs(line, stdout);
	}
	if (w != NULL && rt_wclose(w))
		return 1;
	return fflush(stdout) != 0;
}
