/* jacobi: a 2-D 5-point Jacobi sweep on an n x n grid, for bench/bin2.
 *	jacobi [n [steps]] */
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 256, steps = argc > 2 ? atol(argv[2]) : 8, i, j, t;
	double *u = calloc(n * n, sizeof *u), *v = calloc(n * n, sizeof *v), *w, s = 0;

	if (u == NULL || v == NULL || n < 3)
		return 1;
	u[n * n / 2 + n / 2] = 1;
	for (t = 0; t < steps; t++) {
		for (i = 1; i < n - 1; i++)
			for (j = 1; j < n - 1; j++)
				v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
				    u[i * n + j - 1] + u[i * n + j + 1]);
		w = u, u = v, v = w;
	}
	for (i = 0; i < n * n; i++)
		s += u[i];
	printf("%g\n", s);
	return 0;
}
