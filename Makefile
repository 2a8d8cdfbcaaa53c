# reftrace: lib/libreftrace.a (the library, by area in lib/*/), util/libutil.a
# (the programs' support layer), then one program per cmd/*.c.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INCDIR ?= $(PREFIX)/include
SHAREDIR ?= $(PREFIX)/share/reftrace
LIBDIR ?= $(PREFIX)/lib

CC ?= cc
CFLAGS ?= -O2 -g
# Always on, whatever CFLAGS and CPPFLAGS the user gives.
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wno-sign-compare -Wformat=2
override CPPFLAGS += -std=c11 -D_GNU_SOURCE -Ilib -Iutil -MMD -MP
LDLIBS = -lz -lm -lpthread

# make SAN=1: address and undefined-behaviour sanitizers, for the tests too
ifeq ($(SAN),1)
CFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

LIBSRC = $(wildcard lib/*/*.c)
LIBOBJ = $(LIBSRC:.c=.o)
UTILSRC = $(wildcard util/*.c)
UTILOBJ = $(UTILSRC:.c=.o)
PROGS = $(patsubst %.c,%,$(wildcard cmd/*.c))
UNITS = $(patsubst %.c,%,$(wildcard t/unit/*.c))
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)
MAN7 = $(wildcard man/*.7)
LIBS = util/libutil.a lib/libreftrace.a

all: $(PROGS)

lib/libreftrace.a: $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

util/libutil.a: $(UTILOBJ)
	rm -f $@
	$(AR) rcs $@ $(UTILOBJ)

%.o: %.c
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<

cmd/%: cmd/%.c $(LIBS)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

t/unit/%: t/unit/%.c $(LIBS)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

# persist with keepr merging 64 terms at a time (not 2^20), at most 4096
# terms of coboundaries kept (not 2^25, past which columns are replayed)
# and short runs spilled once 8 are open (not 1024), buffers freed and
# reduced coboundaries made again past 64 terms (BIG, LONGRUN): t/1700
# checks that the cuts, the replays and the spills change nothing.
PHSRC = lib/topo/ph.c lib/topo/phcob.c lib/topo/phcol.c lib/topo/phkeep.c
t/unit/persist-seg64: cmd/persist.c $(PHSRC) lib/topo/phint.h $(LIBS)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -DSEGMENT=64 -DMAXCOB=4096 -DSPILL=8 -DBIG=64 -DLONGRUN=64 -DRSMALL=64 $(LDFLAGS) -o $@ cmd/persist.c $(PHSRC) $(LIBS) $(LDLIBS)

# persist that sleeps 200 us after finding an emergent pair, where a
# column reduced ahead on one thread meets the commits of the other: t/1700
# checks that two threads still give the stream one thread writes.
t/unit/persist-slowemergent: cmd/persist.c $(PHSRC) lib/topo/phint.h $(LIBS)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -DEMERGENT_DELAY=200 $(LDFLAGS) -o $@ cmd/persist.c $(PHSRC) $(LIBS) $(LDLIBS)
# persist whose runs' terms never fit in TERMBITS (0, not 64): no run
# made, every column added replayed; t/1700 checks the barcodes the same.
t/unit/persist-nopack: cmd/persist.c $(PHSRC) lib/topo/phint.h $(LIBS)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS) -DTERMBITS=0 $(LDFLAGS) -o $@ cmd/persist.c $(PHSRC) $(LIBS) $(LDLIBS)
PHUNITS = t/unit/persist-seg64 t/unit/persist-slowemergent t/unit/persist-nopack

-include $(LIBOBJ:.o=.d) $(UTILOBJ:.o=.d) $(PROGS:=.d) $(UNITS:=.d)

# plotspiral's and trmap's HTML pages, kept as the pages they are
# (lib/fig/spiral.html, lib/map/map.html), the head they share
# (lib/fig/head.html, its @NAME@ the program's) at their @PAGEHEAD@
# line, the script they share (lib/fig/page.js) at @PAGEJS@, the map's
# cache view (lib/map/cview.js) at its @CVIEWJS@, and built into the
# library as C strings: no file is read at run time.  "??" is split,
# not read as a trigraph.
%-html.h: %.html lib/fig/head.html lib/fig/page.js lib/map/cview.js
	awk 'FILENAME == "lib/fig/head.html" { head = head $$0 "\n"; next } /^@PAGEHEAD@ / { h = head; gsub(/@NAME@/, $$2, h); printf "%s", h; next } { print }' lib/fig/head.html $< | sed -e '/^@PAGEJS@$$/{' -e 'r lib/fig/page.js' -e 'd' -e '}' -e '/^@CVIEWJS@$$/{' -e 'r lib/map/cview.js' -e 'd' -e '}' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/??/?\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' >$@
lib/fig/spiralhtml.o: lib/fig/spiral-html.h
lib/map/page.o: lib/map/map-html.h

# rtcc's runtime, linked into the programs it compiles: built without the
# hooks and without SAN=1's sanitizers, the library's trace writer with
# it (rt/o/), whatever CFLAGS say.
RTCFLAGS = -O2 -g -fPIC
RTSRC = rt/rtcc.c rt/writer.c rt/env.c $(wildcard lib/trace/*.c lib/base/*.c)
RTOBJ = $(RTSRC:%.c=rt/o/%.o)
rt/o/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(RTCFLAGS) $(CPPFLAGS) -c -o $@ $<
rt/librtcc.a: $(RTOBJ)
	rm -f $@
	$(AR) rcs $@ $(RTOBJ)
cmd/rtcc: rt/librtcc.a
cmd/rtcc: override CPPFLAGS += -DRTCC_LIBDIR='"$(LIBDIR)/reftrace"' -DRTCC_INCDIR='"$(INCDIR)"'
-include $(RTOBJ:.o=.d)

# What the tests need is checked first (contrib/needs: installed as root
# with apt-get, else the apt-get line that would).  Skips are counted and
# listed; with RT_NOSKIP set (CI) one fails the check.
check:
	@sh contrib/needs check
	@$(MAKE) --no-print-directory tests

# PROVEFLAGS=-j2 runs two test files at a time (each works in its own
# temporary directory); CI does, for the sanitized run above all.
PROVEFLAGS =
STUBFLAGS =
# The longest files first (by their time under make asan, then plain):
# prove starts files in the order given, and a parallel run ends with
# the longest file it started last.  A file that takes a minute or more
# goes in this list.
SLOWTESTS = t/1700-persist.t t/1010-robust.t t/1560-threads.t t/1500-cachesim.t \
	t/1502-wide.t t/1860-corpus.t t/1960-maphtml.t t/0230-outputs.t t/1965-cview.t \
	t/1850-paper.t t/0900-rtcc.t t/1400-reusedist.t t/9000-man.t t/1200-trsample.t
TESTS = $(SLOWTESTS) $(filter-out $(SLOWTESTS),$(wildcard t/*.t))
SKIPS = .skips

tests: all $(UNITS) $(PHUNITS)
	rm -f $(SKIPS)
	PATH="$(CURDIR)/cmd:$$PATH" RT_SKIPS="$(CURDIR)/$(SKIPS)" prove $(PROVEFLAGS) $(TESTS) </dev/null
	@if [ -s $(SKIPS) ]; then echo "$$(wc -l <$(SKIPS)) tests skipped:"; sort $(SKIPS) | uniq -c; \
	    if [ -n "$$RT_NOSKIP" ]; then echo "RT_NOSKIP is set: a skip fails the check"; exit 1; fi; \
	else echo "no test skipped"; fi

# Each program replaced by a stub that does nothing, its own test files
# run again: no check may pass but those marked (t/stubcheck); CI runs it.
stubcheck: all $(UNITS) $(PHUNITS)
	sh t/stubcheck $(STUBFLAGS)

# The sanitizer build in a tree of its own, so the optimised build stays.
# All tests but t/9010, whose installed examples are t/9000's commands,
# and the pages' tests in headless Chromium (ASANSKIP: most of their time
# is the browser's; the programs that write the pages run sanitized in
# t/1900, t/1950 and t/9000), which kept CI past its 30 minutes.
# LeakSanitizer's check at exit costs 50 ms a process, a fifth of the
# run: it checks every program's man page examples and the library's
# unit tests (LEAKTESTS), and the fuzz targets the readers; the other
# files run without it, beside them (their report after the others').
# asan-build and asan-tests are its two halves (CI builds while the
# plain tests run).
LEAKTESTS = t/0100-lib.t t/9000-man.t
ASANSKIP = t/9010-install.t t/1920-html.t t/1960-maphtml.t t/1965-cview.t
SANENV = RT_SMALL=1 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
asan:
	$(MAKE) --no-print-directory asan-build
	$(MAKE) --no-print-directory asan-tests

asan-build:
	rm -rf .asan && mkdir -p .asan && cp -r Makefile lib util cmd rt t man contrib .asan/
	$(MAKE) -C .asan clean
	$(MAKE) -C .asan SAN=1 all $(UNITS) $(PHUNITS)

ASANLEAK = $(filter $(LEAKTESTS),$(TESTS))
ASANREST = $(filter-out $(ASANSKIP) $(LEAKTESTS),$(TESTS))
asan-tests:
	@test -d .asan || { echo "make asan-build first" >&2; exit 2; }
	@rm -f .asan/leak.log
	$(if $(ASANLEAK),$(SANENV) ASAN_OPTIONS=exitcode=86:detect_leaks=1 $(MAKE) -C .asan SAN=1 \
	    SKIPS=.skips-leak TESTS="$(ASANLEAK)" tests >.asan/leak.log 2>&1 &) leak=$$!; \
	$(if $(ASANREST),$(SANENV) ASAN_OPTIONS=exitcode=86:detect_leaks=0 $(MAKE) -C .asan SAN=1 \
	    TESTS="$(ASANREST)" check,:); st=$$?; \
	wait $$leak || st=1; [ ! -f .asan/leak.log ] || cat .asan/leak.log; exit $$st

demo:
	@sh contrib/needs demo
	@$(MAKE) --no-print-directory all
	sh contrib/demo.sh

# Regenerate the bundled traces (needs valgrind and a C compiler).
traces:
	sh contrib/mktraces.sh t/data

# The installed pages and README name installed files: the traces their
# examples read (whichever they name, in $(SHAREDIR)/data) and contrib's
# files where they go.
EXDATA = $(shell grep -ho 't/data/[a-z][A-Za-z0-9._/-]*[A-Za-z0-9]' $(MAN1) $(MAN5) $(MAN7) | sort -u)
INSTDOC = sed -e 's|t/data/\([a-z]\)|$(SHAREDIR)/data/\1|g' -e 's|contrib/\([a-z]*\.gp\)|$(SHAREDIR)/\1|g' \
	-e 's,contrib/\(rttrace\|cgparity\|partrun\|tslice\),\1,g' -e 's|contrib/reftrace\.h|$(INCDIR)/reftrace.h|g' \
	-e 's|contrib/README|$(SHAREDIR)/README|g' -e 's|contrib/examples|$(SHAREDIR)/examples|g'

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	cp $(PROGS) $(DESTDIR)$(BINDIR)/
	mkdir -p $(DESTDIR)$(INCDIR) $(DESTDIR)$(SHAREDIR)/examples
	cp contrib/rttrace contrib/cgparity contrib/partrun contrib/tslice $(DESTDIR)$(BINDIR)/	# recorders, recipes
	mkdir -p $(DESTDIR)$(LIBDIR)/reftrace
	cp rt/librtcc.a $(DESTDIR)$(LIBDIR)/reftrace/	# rtcc's runtime
	cp contrib/reftrace.h $(DESTDIR)$(INCDIR)/	# REFTRACE_MARK, REFTRACE_REGION
	cp contrib/reftrace.h $(DESTDIR)$(SHAREDIR)/	# beside examples/, which include "../reftrace.h"
	cp contrib/*.gp $(DESTDIR)$(SHAREDIR)/
	cp contrib/examples/*.c $(DESTDIR)$(SHAREDIR)/examples/
	for f in $(EXDATA:t/data/%=%); do mkdir -p $(DESTDIR)$(SHAREDIR)/data/$$(dirname $$f) && \
	    cp t/data/$$f $(DESTDIR)$(SHAREDIR)/data/$$f || exit 1; done
	for m in $(MAN1) $(MAN5) $(MAN7); do $(INSTDOC) $$m >$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}; done
	$(INSTDOC) contrib/README >$(DESTDIR)$(SHAREDIR)/README

uninstall:
	for p in $(notdir $(PROGS)); do rm -f $(DESTDIR)$(BINDIR)/$$p; done
	for m in $(notdir $(MAN1)); do rm -f $(DESTDIR)$(MANDIR)/man1/$$m; done
	for m in $(notdir $(MAN5)); do rm -f $(DESTDIR)$(MANDIR)/man5/$$m; done
	for m in $(notdir $(MAN7)); do rm -f $(DESTDIR)$(MANDIR)/man7/$$m; done
	rm -f $(DESTDIR)$(BINDIR)/rttrace $(DESTDIR)$(BINDIR)/cgparity $(DESTDIR)$(BINDIR)/partrun $(DESTDIR)$(BINDIR)/tslice \
	    $(DESTDIR)$(INCDIR)/reftrace.h
	rm -rf $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(LIBDIR)/reftrace

lint:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN5) $(MAN7)

clean:
	rm -f lib/*/*.o lib/*/*.d lib/fig/spiral-html.h lib/map/map-html.h util/*.o util/*.d $(LIBS) $(PROGS) $(PROGS:=.d) $(UNITS) $(UNITS:=.d) $(PHUNITS) $(PHUNITS:=.d)
	rm -rf .asan rt/o rt/librtcc.a

# Fuzzing (fuzz/): libFuzzer harnesses over the library's readers, built
# in a tree of their own with clang, ASan and UBSan.  AFL++ drives the
# same harnesses: make fuzz FUZZCC=afl-clang-fast FUZZDIR=.fuzz/afl.
# fuzz-smoke runs each from its seeds for FUZZTIME seconds, FUZZJOBS at
# a time, and fails on a finding (fuzz/run; bench/fuzz runs them longer).
FUZZCC = clang
FUZZDIR = .fuzz
FUZZTIME = 30
FUZZJOBS = 1
# The readers' buffer is 4 KiB, not 256: inputs (64 KiB at most) cross
# its refills and end at its edge, where a decoder's reads past what came
# in must stay within the slack (a v1 binary item's did not: #13).
# Binary checksums are not checked there, so that mutations reach the
# block decoder.
FUZZFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DRT_IN_BUFSZ=4096 \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZFMTS = auto text binary lackey gleipnir din mtv addr pin
FUZZSRC = $(filter-out fuzz/trace.c fuzz/main.c,$(wildcard fuzz/*.c))
FUZZTRACE = $(FUZZFMTS:%=$(FUZZDIR)/trace-%)
FUZZOTHER = $(FUZZSRC:fuzz/%.c=$(FUZZDIR)/%)
FUZZERS = $(FUZZTRACE) $(FUZZOTHER)
FUZZOBJ = $(LIBSRC:%.c=$(FUZZDIR)/%.o)
$(FUZZDIR)/lib/fig/spiralhtml.o: lib/fig/spiral-html.h
$(FUZZDIR)/lib/map/page.o: lib/map/map-html.h

fuzz: $(FUZZERS)

$(FUZZDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZCC) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer-no-link $(CPPFLAGS) -c -o $@ $<

$(FUZZDIR)/libreftrace.a: $(FUZZOBJ)
	rm -f $@
	$(AR) rcs $@ $(FUZZOBJ)

# static patterns: a rule for $(FUZZDIR)/% would remake the .d files too
$(FUZZTRACE): $(FUZZDIR)/trace-%: fuzz/trace.c $(FUZZDIR)/libreftrace.a
	$(FUZZCC) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer $(CPPFLAGS) -DFUZZ_FMT='"$*"' \
	    -o $@ $< $(FUZZDIR)/libreftrace.a $(LDLIBS)

$(FUZZOTHER): $(FUZZDIR)/%: fuzz/%.c $(FUZZDIR)/libreftrace.a
	$(FUZZCC) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer $(CPPFLAGS) \
	    -o $@ $< $(FUZZDIR)/libreftrace.a $(LDLIBS)

-include $(FUZZOBJ:.o=.d) $(FUZZERS:=.d)

# The whole main() of every program under AFL++ (fuzz/main.c: the input
# gives argv and files): make fuzz-main, then fuzz/mainrun.
AFLDIR = .fuzz/afl-main
AFLCC = afl-clang-fast
AFLFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
AFLPROGS = $(filter-out cmd/rtcc,$(PROGS))
AFLOBJ = $(LIBSRC:%.c=$(AFLDIR)/%.o) $(UTILSRC:%.c=$(AFLDIR)/%.o)
$(AFLDIR)/lib/fig/spiralhtml.o: lib/fig/spiral-html.h

fuzz-main: $(AFLPROGS:cmd/%=$(AFLDIR)/%)

$(AFLDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(AFLCC) $(WARN) $(AFLFLAGS) $(CPPFLAGS) -c -o $@ $<

$(AFLDIR)/libmain.a: $(AFLOBJ)
	rm -f $@
	$(AR) rcs $@ $(AFLOBJ)

$(AFLPROGS:cmd/%=$(AFLDIR)/%): $(AFLDIR)/%: cmd/%.c fuzz/main.c $(AFLDIR)/libmain.a
	$(AFLCC) $(WARN) -Wno-missing-prototypes $(AFLFLAGS) $(CPPFLAGS) -Dmain=fuzz_main -c -o $@.o $<
	$(AFLCC) $(WARN) $(AFLFLAGS) $(CPPFLAGS) -DFUZZ_PROG='"$*"' -Wl,--wrap=exit \
	    -o $@ fuzz/main.c $@.o $(AFLDIR)/libmain.a $(LDLIBS)

-include $(AFLOBJ:.o=.d)

fuzz-seed: all
	sh fuzz/seed $(FUZZDIR)/seed

fuzz-smoke: fuzz fuzz-seed
	sh fuzz/run -d $(FUZZDIR) -j $(FUZZJOBS) -t $(FUZZTIME) $(notdir $(FUZZERS))

fuzz-clean:
	rm -rf $(FUZZDIR)

.PHONY: fuzz fuzz-main fuzz-seed fuzz-smoke fuzz-clean
.SECONDARY: $(FUZZOBJ) $(AFLOBJ)

.PHONY: all check tests stubcheck asan asan-build asan-tests demo traces install uninstall lint clean
.SECONDARY: $(LIBOBJ) $(UTILOBJ)
