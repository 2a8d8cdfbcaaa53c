/* fir2dim: the 2-D FIR filter of DSPStone (IMAGEDIM 100), as modelled by
 * Clauss and Kenmei: array is read through three row pointers. */
#include <stdio.h>

#include "../reftrace.h"

#define IMAGEDIM 100
#define ARRAYDIM (IMAGEDIM + 2)
#define COEFFICIENTS 3

static int array[ARRAYDIM * ARRAYDIM];
static int coefficients[COEFFICIENTS * COEFFICIENTS];
static int output[IMAGEDIM * IMAGEDIM];

static void
fir2dim(void)
{
	int *parray = &array[0], *parray2, *parray3;
	int *pcoeff, *poutput = &output[0];
	int k, f, i;

	for (k = 0; k < IMAGEDIM; k++) {
		for (f = 0; f < IMAGEDIM; f++) {
			pcoeff = &coefficients[0];
			parray = &array[k * ARRAYDIM + f];
			parray2 = parray + ARRAYDIM;
			parray3 = parray + ARRAYDIM + ARRAYDIM;
			*poutput = 0;
			for (i = 0; i < 3; i++)
				*poutput += *pcoeff++ * *parray++;
			for (i = 0; i < 3; i++)
				*poutput += *pcoeff++ * *parray2++;
			for (i = 0; i < 3; i++)
				*poutput += *pcoeff++ * *parray3++;
			poutput++;
		}
	}
}

int
main(void)
{
	int i;

	for (i = 0; i < ARRAYDIM * ARRAYDIM; i++)
		array[i] = i % 7;
	for (i = 0; i < COEFFICIENTS * COEFFICIENTS; i++)
		coefficients[i] = i + 1;
	REFTRACE_REGION("array", array, ARRAYDIM * ARRAYDIM, sizeof array[0]);
	REFTRACE_REGION("coefficients", coefficients, COEFFICIENTS * COEFFICIENTS, sizeof coefficients[0]);
	REFTRACE_REGION("output", output, IMAGEDIM * IMAGEDIM, sizeof output[0]);
	REFTRACE_MARK("fir2dim");
	fir2dim();
	REFTRACE_MARK("done");
	printf("%d\n", output[IMAGEDIM * IMAGEDIM - 1]);
	return 0;
}
