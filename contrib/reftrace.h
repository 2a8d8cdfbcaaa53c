/* reftrace.h: markers and region registrations for programs traced under valgrind.
 *
 * Under valgrind these print "**PID** reftrace mark NAME" and
 * "**PID** reftrace region NAME 0xBASE COUNT ELEMSIZE" through the
 * VALGRIND_PRINTF client request, which trfilter reads from lackey
 * traces as in-band events.  Outside valgrind the client request is a
 * handful of no-op instructions, so the program runs unchanged.
 * Define REFTRACE_OFF to compile them away entirely.
 */
#ifndef REFTRACE_CONTRIB_H
#define REFTRACE_CONTRIB_H

#if defined(REFTRACE_OFF) || !__has_include(<valgrind/valgrind.h>)
#define REFTRACE_MARK(name) ((void)0)
#define REFTRACE_REGION(name, ptr, count, elemsize) ((void)0)
#else
#include <valgrind/valgrind.h>
#define REFTRACE_MARK(name) \
	((void)VALGRIND_PRINTF("reftrace mark %s\n", (name)))
#define REFTRACE_REGION(name, ptr, count, elemsize) \
	((void)VALGRIND_PRINTF("reftrace region %s %p %lu %lu\n", (name), \
	    (void *)(ptr), (unsigned long)(count), (unsigned long)(elemsize)))
#endif

#endif
