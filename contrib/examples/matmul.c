/* matmul: matrix multiply, standard (ijk), transposed B, and blocked. */
#include <stdio.h>
#include <string.h>

#include "../reftrace.h"

#define N 16
#define BS 4

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

static void
blocked(void)
{
	int i, j, k, ii, jj, kk;

	for (ii = 0; ii < N; ii += BS)
		for (jj = 0; jj < N; jj += BS)
			for (kk = 0; kk < N; kk += BS)
				for (i = ii; i < ii + BS; i++)
					for (j = jj; j < jj + BS; j++)
						for (k = kk; k < kk + BS; k++)
							C[i][j] += A[i][k] * B[k][j];
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
