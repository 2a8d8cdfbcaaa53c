/* bsort: bubble sort of 5 ints, the running example of Choudhury et al.:
 * a pass without a swap ends it, so sorted input makes 4 comparisons. */
#include <stdio.h>
#include <string.h>

#include "../reftrace.h"

#define N 5

static void
bsort(int *a, int n)
{
	int i, j, t, swapped;

	for (i = 0; i < n - 1; i++) {
		swapped = 0;
		for (j = 0; j < n - 1 - i; j++)
			if (a[j] > a[j + 1]) {
				t = a[j];
				a[j] = a[j + 1];
				a[j + 1] = t;
				swapped = 1;
			}
		if (!swapped)
			break;
	}
}

int
main(int argc, char *argv[])
{
	static const int sorted[N] = { 1, 2, 3, 4, 5 };
	static const int reversed[N] = { 5, 4, 3, 2, 1 };
	static const int shuffled[N] = { 3, 5, 1, 4, 2 };
	const char *how = argc > 1 ? argv[1] : "reversed";
	int a[N];

	if (strcmp(how, "sorted") == 0)
		memcpy(a, sorted, sizeof a);
	else if (strcmp(how, "shuffled") == 0)
		memcpy(a, shuffled, sizeof a);
	else
		memcpy(a, reversed, sizeof a);
	REFTRACE_REGION("a", a, N, sizeof a[0]);
	REFTRACE_MARK("sort");
	bsort(a, N);
	REFTRACE_MARK("done");
	printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
	return 0;
}
