/* naive: the plain models reusedist is checked against (test helper).
 *   naive stack < blocks     the LRU stack distance of each line's block
 *                            (linear search, move to front), "-" if cold
 *   naive time < blocks      accesses since the block's previous access
 *   naive lru C < blocks     misses of a fully associative LRU cache of C
 *                            blocks, simulated directly
 * Blocks are decimal numbers, one a line.  Deliberately simple: O(N M). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char *argv[])
{
	unsigned long long b, *st = NULL, *last = NULL, *key = NULL, t = 0, misses = 0;
	size_t n = 0, cap = 0, i, j, c = 0;
	int mode;

	if (argc < 2)
		return 2;
	mode = strcmp(argv[1], "stack") == 0 ? 0 : strcmp(argv[1], "time") == 0 ? 1 : 2;
	if (mode == 2)
		c = strtoul(argv[2], NULL, 10);
	while (scanf("%llu", &b) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			st = realloc(st, cap * sizeof *st);
			last = realloc(last, cap * sizeof *last);
			key = realloc(key, cap * sizeof *key);
		}
		if (mode == 1) {	/* time: a list of (block, last time) */
			for (i = 0; i < n && key[i] != b; i++)
				;
			if (i == n) {
				key[n] = b;
				n++;
				printf("-\n");
			} else
				printf("%llu\n", t - last[i] - 1);
			last[i] = t++;
			continue;
		}
		for (i = 0; i < n && st[i] != b; i++)	/* depth in the stack */
			;
		if (mode == 0) {
			if (i == n)
				printf("-\n");
			else
				printf("%zu\n", i);
		} else if (i == n || i >= c)
			misses++;
		if (i == n)
			n++;
		for (j = i; j > 0; j--)	/* to the top */
			st[j] = st[j - 1];
		st[0] = b;
		if (mode == 2 && n > c)	/* what falls off a cache of c blocks */
			n = c;
	}
	if (mode == 2)
		printf("%llu\n", misses);
	free(st);
	free(last);
	free(key);
	return 0;
}
