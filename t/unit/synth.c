/* synth: a reproducible synthetic trace in reftrace text (test helper).
 *   synth N SEED   N accesses of 8 bytes: sweeps over arrays of several
 *                  sizes, a hot stack, and random heap references */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long s;

static unsigned long long
rnd(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

int
main(int argc, char *argv[])
{
	unsigned long long n, i, sweep[4] = { 0 };
	static const unsigned long long len[4] = { 1 << 15, 1 << 18, 1 << 21, 1 << 24 };
	unsigned long long a;
	unsigned k;

	if (argc != 3)
		return 2;
	n = strtoull(argv[1], NULL, 10);
	s = strtoull(argv[2], NULL, 10) * 2654435761ULL + 1;
	printf("#reftrace trace 1 seq op addr size tid pc loc func var\n");
	for (i = 0; i < n; i++) {
		k = (unsigned)(rnd() % 100);
		if (k < 60) {		/* four arrays swept at once */
			unsigned w = (unsigned)(rnd() % 4);

			a = 0x10000000ULL * (w + 1) + sweep[w];
			sweep[w] = (sweep[w] + 8) % len[w];
		} else if (k < 85)	/* the stack */
			a = 0x7ff000000ULL + 8 * (rnd() % 128);
		else			/* the heap, skewed towards its start */
			a = 0x90000000ULL + 64 * (rnd() % (1 + rnd() % 200000));
		printf("%llu %c 0x%llx 8\n", i, k % 3 ? 'R' : 'W', a);
	}
	return 0;
}
