# reftrace: lib/libreftrace.a, then one program per cmd/*.c.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_GNU_SOURCE \
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wno-sign-compare -Wformat=2
LDLIBS = -lz -lm

# make SAN=1: address and undefined-behaviour sanitizers, for the tests too
ifeq ($(SAN),1)
CFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

LIBSRC = $(wildcard lib/*.c)
LIBOBJ = $(LIBSRC:.c=.o)
PROGS = $(patsubst %.c,%,$(wildcard cmd/*.c))
UNITS = $(patsubst %.c,%,$(wildcard t/unit/*.c))
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
MAN7 = $(wildcard man/*.7)

all: $(PROGS)

lib/libreftrace.a: $(LIBOBJ)
	$(AR) rcs $@ $(LIBOBJ)

lib/%.o: lib/%.c $(wildcard lib/*.h)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<

cmd/%: cmd/%.c lib/libreftrace.a $(wildcard lib/*.h)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ilib $(LDFLAGS) -o $@ $< lib/libreftrace.a $(LDLIBS)

t/unit/%: t/unit/%.c lib/libreftrace.a $(wildcard lib/*.h)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -Ilib $(LDFLAGS) -o $@ $< lib/libreftrace.a $(LDLIBS)

check: all $(UNITS)
	PATH="$(CURDIR)/cmd:$$PATH" prove t/ </dev/null

# The sanitizer build in a tree of its own, so the optimised build stays.
asan:
	rm -rf .asan && mkdir -p .asan && cp -r Makefile lib cmd t man contrib .asan/
	ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1 \
	    $(MAKE) -C .asan SAN=1 clean check

demo: all
	sh contrib/demo.sh

# Regenerate the bundled traces (needs valgrind and a C compiler).
traces:
	sh contrib/mktraces.sh t/data

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(PROGS) $(DESTDIR)$(BINDIR)/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/

lint:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN5) $(MAN7)

clean:
	rm -f lib/*.o lib/libreftrace.a $(PROGS) $(UNITS)
	rm -rf .asan

.PHONY: all check asan demo traces install lint clean
.SECONDARY: $(LIBOBJ)
