/* steps.c: an access seen as its instruction and the change of its
 * address since that instruction's last access: what repeats every
 * iteration of a loop whether its addresses stay or advance. */
#include <stdlib.h>

#include "reftrace.h"
#include "topo.h"

/* Doubled at half full; pc + 1 as the key, so that 0 is an empty slot. */
static int
grow(struct rt_steps *s)
{
	struct rt_steps t = { 0 };
	size_t i, j;

	t.mask = s->mask ? 2 * s->mask + 1 : 255;
	if ((t.pc = calloc(t.mask + 1, sizeof *t.pc)) == NULL ||
	    (t.addr = malloc((t.mask + 1) * sizeof *t.addr)) == NULL) {
		free(t.pc);
		return -1;
	}
	for (i = 0; s->pc != NULL && i <= s->mask; i++)
		if (s->pc[i]) {
			for (j = (size_t)rt_hash64(s->pc[i]) & t.mask; t.pc[j]; j = (j + 1) & t.mask)
				;
			t.pc[j] = s->pc[i];
			t.addr[j] = s->addr[i];
		}
	t.n = s->n;
	rt_steps_free(s);
	*s = t;
	return 0;
}

int
rt_steps_next(struct rt_steps *s, uint64_t pc, uint64_t addr, int64_t *step)
{
	size_t j;

	if (2 * (s->n + 1) > s->mask + 1 && grow(s))
		return RT_ENOMEM;
	for (j = (size_t)rt_hash64(pc + 1) & s->mask; s->pc[j] && s->pc[j] != pc + 1;
	    j = (j + 1) & s->mask)
		;
	if (s->pc[j] == 0) {
		s->pc[j] = pc + 1;
		s->addr[j] = addr;
		s->n++;
		return 1;
	}
	*step = (int64_t)(addr - s->addr[j]);
	s->addr[j] = addr;
	return 0;
}

void
rt_steps_free(struct rt_steps *s)
{
	free(s->pc);
	free(s->addr);
	s->pc = s->addr = NULL;
	s->mask = s->n = 0;
}
