/* colour.c: the suite's colours: categories, a sequential ramp and a
 * cyclic one. */
#include <math.h>
#include <string.h>

#include "draw.h"

static const unsigned char tableau20[RT_NCATEGORY][3] = {
	{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
	{148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
	{188, 189, 34}, {23, 190, 207}, {174, 199, 232}, {255, 187, 120},
	{152, 223, 138}, {255, 152, 150}, {197, 176, 213}, {196, 156, 148},
	{247, 182, 210}, {199, 199, 199}, {219, 219, 141}, {158, 218, 229}
};

void
rt_colour_category(size_t k, unsigned char rgb[3])
{
	memcpy(rgb, tableau20[k % RT_NCATEGORY], 3);
}

/* A viridis-like ramp through five stops, t in [0, 1]. */
void
rt_colour_ramp(double t, unsigned char rgb[3])
{
	static const unsigned char vir[5][3] = {
		{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}
	};
	double u = t * 4;
	int i = u >= 4 ? 3 : u < 0 ? 0 : (int)u, c;

	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(vir[i][c] + (u - i) * (vir[i + 1][c] - vir[i][c]));
}

/* A hue wheel, t in turns: the same colour a turn later. */
void
rt_colour_cyclic(double t, unsigned char rgb[3])
{
	int c;

	for (c = 0; c < 3; c++)
		rgb[c] = (unsigned char)(127.5 + 127.5 * cos(2 * M_PI * (t - c / 3.0)));
}
