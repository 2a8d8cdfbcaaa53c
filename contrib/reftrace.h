/* reftrace.h: markers, region registrations and recording on and off for
 * traced programs, under rtcc or valgrind.
 *
 * Compiled by rtcc (which defines REFTRACE_RTCC) they call its runtime,
 * weakly, so that an object compiled so still links without it; the
 * runtime makes valgrind's request too (not recorded, as it would be
 * here: the request's words are on the stack).  Under
 * valgrind they print "**PID** reftrace mark NAME" and "**PID** reftrace
 * region NAME 0xBASE COUNT ELEMSIZE" through the VALGRIND_PRINTF client
 * request, which trfilter reads from lackey traces as in-band events;
 * outside valgrind the request is a handful of no-op instructions, so the
 * program runs unchanged.  REFTRACE_ON() and REFTRACE_OFF() start and stop
 * rtcc's recording; under valgrind they are the marks "reftrace:on" and
 * "reftrace:off" (trfilter -m reftrace:on,reftrace:off keeps what is
 * between).  Define REFTRACE_DISABLE to compile them all away (REFTRACE_OFF
 * defined before this file, its name before REFTRACE_OFF() existed, does
 * the same).
 */
#ifndef REFTRACE_CONTRIB_H
#define REFTRACE_CONTRIB_H

#if defined(REFTRACE_OFF) && !defined(REFTRACE_DISABLE)
#define REFTRACE_DISABLE
#endif
#undef REFTRACE_OFF

#if defined(REFTRACE_DISABLE)
#define REFTRACE_VG_MARK(name) ((void)0)
#define REFTRACE_VG_REGION(name, ptr, count, elemsize) ((void)0)
#elif __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define REFTRACE_VG_MARK(name) \
	((void)VALGRIND_PRINTF("reftrace mark %s\n", (name)))
#define REFTRACE_VG_REGION(name, ptr, count, elemsize) \
	((void)VALGRIND_PRINTF("reftrace region %s %p %lu %lu\n", (name), \
	    (void *)(ptr), (unsigned long)(count), (unsigned long)(elemsize)))
#else
#define REFTRACE_VG_MARK(name) ((void)0)
#define REFTRACE_VG_REGION(name, ptr, count, elemsize) ((void)0)
#endif

#if defined(REFTRACE_RTCC) && !defined(REFTRACE_DISABLE)
extern void reftrace_mark(const char *) __attribute__((weak));
extern void reftrace_region(const char *, const void *, unsigned long, unsigned long)
    __attribute__((weak));
extern void reftrace_on(void) __attribute__((weak));
extern void reftrace_off(void) __attribute__((weak));
#define REFTRACE_MARK(name) (reftrace_mark ? reftrace_mark(name) : (void)0)
#define REFTRACE_REGION(name, ptr, count, elemsize) \
	(reftrace_region ? reftrace_region((name), (ptr), (unsigned long)(count), \
	    (unsigned long)(elemsize)) : (void)0)
#define REFTRACE_ON() (reftrace_on ? reftrace_on() : (void)0)
#define REFTRACE_OFF() (reftrace_off ? reftrace_off() : (void)0)
#else
#define REFTRACE_MARK(name) REFTRACE_VG_MARK(name)
#define REFTRACE_REGION(name, ptr, count, elemsize) REFTRACE_VG_REGION(name, ptr, count, elemsize)
#define REFTRACE_ON() REFTRACE_VG_MARK("reftrace:on")
#define REFTRACE_OFF() REFTRACE_VG_MARK("reftrace:off")
#endif

#endif
