/* kernels: loops of many shapes, one function each, for the topology
 * corpus (t/1860-corpus.t).  Each loop body's first line says "loop NAME
 * ITERATIONS ENTRIES": the iterations the source implies, which the test
 * checks against the trace before it looks for the loop among the
 * classes, and how often it is entered (its parent's iterations). */
#include <stdio.h>

static int a[4096], b[4096];
static double x[64][64], y[64][64], v[64], w[64];
static double re[64], im[64], wr[32], wi[32];

static void
isort(int *p, int n)	/* insertion sort of a reversed array: 276 shifts */
{
	int i, j, t;

	for (i = 1; i < n; i++) {
		t = p[i];	/* loop isort.i 23 1 */
		for (j = i - 1; j >= 0 && p[j] > t; j--)
			p[j + 1] = p[j];	/* loop isort.j 276 23 */
		p[j + 1] = t;
	}
}

static void
transpose(int n)
{
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)	/* loop transpose.i 20 1 */
			y[j][i] = x[i][j];	/* loop transpose.j 400 20 */
}

static void
fft(int n)	/* radix 2 in place, 6 stages of 64 points */
{
	int s, m, k, j;
	double tr, ti;

	for (s = 1; s <= 6; s++) {
		m = 1 << s;	/* loop fft.s 6 1 */
		for (k = 0; k < n; k += m) {
			j = 0;	/* loop fft.k 63 6 */
			for (; j < m / 2; j++) {
				tr = wr[j * (n / m)] * re[k + j + m / 2] - wi[j * (n / m)] * im[k + j + m / 2];	/* loop fft.j 192 63 */
				ti = wr[j * (n / m)] * im[k + j + m / 2] + wi[j * (n / m)] * re[k + j + m / 2];
				re[k + j + m / 2] = re[k + j] - tr;
				im[k + j + m / 2] = im[k + j] - ti;
				re[k + j] += tr;
				im[k + j] += ti;
			}
		}
	}
}

static int
search(int n)	/* 16 keys, each found after a scan that stops early */
{
	int q, i, found = 0;

	for (q = 0; q < 16; q++) {
		i = 0;	/* loop search.q 16 1 */
		while (a[i] != 3 * q + 5)
			i++;	/* loop search.i 440 16 */
		found += i < n;
	}
	return found;
}

static int
rowsum(int rows, int cols)
{
	int i, j, s = 0;

	for (i = 0; i < rows; i++) {
		b[i] = 0;	/* loop rowsum.i 50 1 */
		for (j = 0; j < cols; j++)
			b[i] += a[i * cols + j];	/* loop rowsum.j 2000 50 */
		s += b[i];
	}
	return s;
}

static int
twoloops(void)	/* a fill, then a sum over another array */
{
	int i, s = 0;

	for (i = 0; i < 96; i++)
		a[i] = 3 * i;	/* loop twoloops.fill 96 1 */
	for (i = 0; i < 40; i++)
		s += (b[i] & 255) * (b[i] & 255);	/* loop twoloops.sum 40 1 */
	return s;
}

static void
stencil(int steps, int n, int m)
{
	int t, i, j;

	for (t = 0; t < steps; t++) {
		for (i = 1; i < n - 1; i++) {	/* loop stencil.t 4 1 */
			for (j = 1; j < m - 1; j++)	/* loop stencil.i 24 4 */
				y[i][j] = 0.25 * (x[i - 1][j] + x[i + 1][j] + x[i][j - 1] + x[i][j + 1]);	/* loop stencil.j 240 24 */
		}
	}
}

static void
lu(int n)	/* Doolittle, no pivoting: triangular i and j loops */
{
	int k, i, j;

	for (k = 0; k < n - 1; k++) {
		for (i = k + 1; i < n; i++) {	/* loop lu.k 7 1 */
			x[i][k] /= x[k][k];	/* loop lu.i 28 7 */
			for (j = k + 1; j < n; j++)
				x[i][j] -= x[i][k] * x[k][j];	/* loop lu.j 140 28 */
		}
	}
}

static int
strided(void)	/* every 8th element, 8 times over */
{
	int r, i, s = 0;

	for (r = 0; r < 8; r++)
		for (i = r; i < 256; i += 8)	/* loop strided.r 8 1 */
			s += a[i];	/* loop strided.i 256 8 */
	return s;
}

static int
deep(void)	/* four levels: 2, 3, 4 and 5 iterations */
{
	int p, q, r, t, s = 0;

	for (p = 0; p < 2; p++)
		for (q = 0; q < 3; q++)	/* loop deep.p 2 1 */
			for (r = 0; r < 4; r++)	/* loop deep.q 6 2 */
				for (t = 0; t < 5; t++)	/* loop deep.r 24 6 */
					s += a[((p * 3 + q) * 4 + r) * 5 + t];	/* loop deep.t 120 24 */
	return s;
}

static void
longloop(int n)	/* one loop of 3000 iterations */
{
	int i;

	for (i = 2; i < n; i++)
		b[i] = (b[i - 1] + b[i - 2]) & 0xffff;	/* loop longloop.i 3000 1 */
}

static double
triangle(int n)
{
	int i, j;
	double s = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j <= i; j++)	/* loop triangle.i 40 1 */
			s += x[i][j];	/* loop triangle.j 820 40 */
	return s;
}

static void
matvec(int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		w[i] = 0;	/* loop matvec.i 30 1 */
		for (j = 0; j < n; j++)
			w[i] += x[i][j] * v[j];	/* loop matvec.j 900 30 */
	}
}

static void
histo(int n)	/* addresses the data chooses */
{
	int i;

	for (i = 0; i < n; i++)
		b[a[i] & 15]++;	/* loop histo.i 500 1 */
}

int
main(void)
{
	int i, j, s = 0;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 64; j++)
			x[i][j] = i + 1 + (i == j) * 64 + j / 8.0;
	for (i = 0; i < 32; i++) {
		wr[i] = 1.0 - i / 16.0;
		wi[i] = -(i % 16) / 16.0;
	}
	for (i = 0; i < 24; i++)
		a[i] = 24 - i;
	isort(a, 24);
	transpose(20);
	fft(64);
	for (i = 0; i < 4096; i++)
		a[i] = i;
	s += search(4096);
	s += rowsum(50, 40);
	s += twoloops();
	stencil(4, 8, 12);
	lu(8);
	s += strided();
	s += deep();
	b[0] = b[1] = 1;
	longloop(3002);
	triangle(40);
	matvec(30);
	histo(500);
	printf("%d %g %g %g\n", s, y[3][4], x[5][6], w[7]);
	return 0;
}
