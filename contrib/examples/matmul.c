/* matmul: matrix multiply, standard (ijk), transposed B, and blocked as
 * Hennessy and Patterson write it (five loops: jj, kk, i, j, k), the
 * programs of Choudhury et al.'s Fig. 9.  N and the block size BS are
 * compile-time parameters: cc -DN=4 -DBS=2 gives the paper's case. */
#include <stdio.h>
#include <string.h>

#include "../reftrace.h"

#ifndef N
#define N 16
#endif
#ifndef BS
#define BS 4
#endif

static double A[N][N], B[N][N], BT[N][N], C[N][N];

static void
standard(void)
{
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < N; k++)
				C[i][j] += A[i][k] * B[k][j];
}

static void
transposed(void)
{
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			BT[j][i] = B[i][j];
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < N; k++)
				C[i][j] += A[i][k] * BT[j][k];
}

static int
min(int a, int b)
{
	return a < b ? a : b;
}

static void
blocked(void)
{
	int i, j, k, jj, kk;
	double r;

	for (jj = 0; jj < N; jj += BS)
		for (kk = 0; kk < N; kk += BS)
			for (i = 0; i < N; i++)
				for (j = jj; j < min(jj + BS, N); j++) {
					r = 0;
					for (k = kk; k < min(kk + BS, N); k++)
						r += A[i][k] * B[k][j];
					C[i][j] += r;
				}
}

int
main(int argc, char *argv[])
{
	const char *how = argc > 1 ? argv[1] : "standard";
	int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			A[i][j] = i + j;
			B[i][j] = i - j;
		}
	REFTRACE_REGION("A", A, N * N, sizeof A[0][0]);
	REFTRACE_REGION("B", B, N * N, sizeof B[0][0]);
	REFTRACE_REGION("BT", BT, N * N, sizeof BT[0][0]);
	REFTRACE_REGION("C", C, N * N, sizeof C[0][0]);
	REFTRACE_MARK("matmul");
	if (strcmp(how, "transposed") == 0)
		transposed();
	else if (strcmp(how, "blocked") == 0)
		blocked();
	else
		standard();
	REFTRACE_MARK("done");
	printf("%g\n", C[N - 1][N - 1]);
	return 0;
}
