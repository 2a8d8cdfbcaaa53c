/* tap.h: the TAP of the unit tests: ok(), and plan() when done. */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>

static int n, failed;

static void
ok(int cond, const char *desc)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++n, desc);
	if (!cond)
		failed++;
}

#endif
