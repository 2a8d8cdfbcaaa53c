/* heat: a 1-D heat stencil, explicit Euler, two arrays swapped each step:
 * the kind of program whose lackey trace bench/bin2 compresses.
 *	heat [n [steps]]	(4096 64: about 3.7 M lackey lines) */
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4096, steps = argc > 2 ? atol(argv[2]) : 64, i, t;
	double *u = calloc(n, sizeof *u), *v = calloc(n, sizeof *v), *w, s = 0;

	if (u == NULL || v == NULL || n < 3)
		return 1;
	u[n / 2] = 1;
	for (t = 0; t < steps; t++) {
		for (i = 1; i < n - 1; i++)
			v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
		v[0] = v[n - 1] = 0;
		w = u, u = v, v = w;
	}
	for (i = 0; i < n; i++)
		s += u[i];
	printf("%g\n", s);
	return 0;
}
