/* uint.h: what the support layer's files share and the programs do not. */
#ifndef U_UINT_H
#define U_UINT_H

/* hold.c */
void u_holdstart(void);			/* from the first u_getopt */
void u_holdfile(const char *path);	/* a file made: removed if the run fails */
int u_heldout(void);			/* the real standard output, or -1 */

/* out.c: the operands, set by u_getopt, for u_notinput */
extern char **u_operands;
extern int u_noperands;

#endif
