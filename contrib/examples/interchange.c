/* interchange: loop interchange over float A[32][4], row-major vs column order. */
#include <stdio.h>
#include <string.h>

#include "../reftrace.h"

#define ROWS 32
#define COLS 4

static float A[ROWS][COLS];

static void
rowwise(void)
{
	int i, j;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++)
			A[i][j] = A[i][j] * 2 + 1;
}

static void
colwise(void)
{
	int i, j;

	for (j = 0; j < COLS; j++)
		for (i = 0; i < ROWS; i++)
			A[i][j] = A[i][j] * 2 + 1;
}

int
main(int argc, char *argv[])
{
	const char *how = argc > 1 ? argv[1] : "rowwise";

	REFTRACE_REGION("A", A, ROWS * COLS, sizeof A[0][0]);
	REFTRACE_MARK("loop");
	if (strcmp(how, "colwise") == 0)
		colwise();
	else
		rowwise();
	REFTRACE_MARK("done");
	printf("%g\n", A[ROWS - 1][COLS - 1]);
	return 0;
}
