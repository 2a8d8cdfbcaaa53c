/* env.c: rtcc's configuration, from the environment its man page lists,
 * and the code of the functions RTCC_FUNCS names. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reftrace.h"
#include "rtint.h"

struct rtcc_cfg rtcc_cfg = { .ofmt = RT_FMT_BINARY, .sint = 1, .srate = 1, .sbytes = 64 };

const char *
rtcc_getenv(const char *name)
{
	const char *s = getenv(name);

	return s != NULL && *s != '\0' ? s : NULL;
}

static int
envnum(const char *name, uint64_t *v)
{
	const char *s = rtcc_getenv(name);

	if (s == NULL)
		return 0;
	if (rt_parse_u64(s, v) || *v == 0) {
		rtcc_say("rtcc: %s=%s: want a positive number; not sampling\n", name, s);
		return 0;
	}
	return 1;
}

void
rtcc_configure(pid_t pid)
{
	const char *s, *fmt;
	char name[4096], path[4096];
	uint64_t v;

	if ((fmt = rtcc_getenv("RTCC_FORMAT")) != NULL && (rtcc_cfg.ofmt = rt_fmt_parse_out(fmt)) < 0) {
		rtcc_say("rtcc: RTCC_FORMAT=%s: not a format written\n", fmt);
		rtcc_cfg.ofmt = RT_FMT_BINARY;
	}
	if ((s = rtcc_getenv("RTCC_PARTS")) != NULL &&
	    (rt_parse_part(s, NULL, &rtcc_cfg.part.n, &rtcc_cfg.part.bytes) || rtcc_cfg.part.n < 2 ||
	    (rtcc_cfg.part.bytes & (rtcc_cfg.part.bytes - 1)) != 0)) {
		rtcc_say("rtcc: RTCC_PARTS=%s: want n or n:bytes, n at least 2, bytes a power of two\n",
		    s);
		rtcc_cfg.part.n = 0;
	}
	if (rtcc_cfg.part.n && rtcc_cfg.part.bytes == 0)
		rtcc_cfg.part.bytes = 64;
	s = rtcc_getenv("RTCC_OUT");
	if (s == NULL) {
		snprintf(name, sizeof name, rtcc_cfg.part.n ? "%s.%%d.rtb" : "%s.rtb",
		    program_invocation_short_name);
		s = name;
	}
	/* %p: the process id */
	{
		const char *p = strstr(s, "%p");
		if (p != NULL)
			snprintf(path, sizeof path, "%.*s%ld%s", (int)(p - s), s, (long)pid, p + 2);
		else
			snprintf(path, sizeof path, "%s", s);
	}
	rtcc_cfg.outpath = strdup(path);
	if (envnum("RTCC_SAMPLE", &v))
		rtcc_cfg.sint = v;
	if ((s = rtcc_getenv("RTCC_BURST")) != NULL) {
		char *e;
		unsigned long long b = strtoull(s, &e, 10), p;

		if (*e == '/' && (p = strtoull(e + 1, &e, 10)) >= b && b > 0 && *e == '\0') {
			rtcc_cfg.sburst = b;
			rtcc_cfg.speriod = p;
		} else
			rtcc_say("rtcc: RTCC_BURST=%s: want b/p, 0 < b <= p; not sampling\n", s);
	}
	if ((s = rtcc_getenv("RTCC_HASH")) != NULL) {
		char *e;
		double r = strtod(s, &e);

		if (r > 0 && r <= 1 && (*e == '\0' || (*e == ':' && !rt_parse_size(e + 1, &rtcc_cfg.sbytes) &&
		    rtcc_cfg.sbytes > 0))) {
			rtcc_cfg.srate = r;
			rtcc_cfg.hlimit = r >= 1 ? UINT64_MAX : (uint64_t)(r * 18446744073709551616.0);
		} else
			rtcc_say("rtcc: RTCC_HASH=%s: want rate[:bytes], 0 < rate <= 1; not sampling\n", s);
	}
	rtcc_cfg.startmark = rtcc_getenv("RTCC_START");
	rtcc_cfg.stopmark = rtcc_getenv("RTCC_STOP");
}

/* RTCC_FUNCS: the code of the functions named, from the program's
 * symbol table (static functions too, unless it is stripped). */
void
rtcc_functions(const char *list)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	char *names, *tok, *save;
	void *m;
	int fd, found;
	size_t i, j;

	if ((fd = open("/proc/self/exe", O_RDONLY)) < 0)
		return;
	if (fstat(fd, &st) || (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) ==
	    MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	eh = m;
	if ((size_t)st.st_size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh > (uint64_t)st.st_size)
		goto out;
	sh = (const Elf64_Shdr *)((const char *)m + eh->e_shoff);
	if ((names = strdup(list)) == NULL)
		goto out;
	for (tok = strtok_r(names, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		found = 0;
		for (i = 0; i < eh->e_shnum; i++) {
			const Elf64_Sym *sym;
			const char *str;

			if ((sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM) ||
			    sh[i].sh_link >= eh->e_shnum ||
			    sh[i].sh_offset + sh[i].sh_size > (uint64_t)st.st_size ||
			    sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size >
			    (uint64_t)st.st_size)
				continue;
			sym = (const Elf64_Sym *)((const char *)m + sh[i].sh_offset);
			str = (const char *)m + sh[sh[i].sh_link].sh_offset;
			for (j = 0; j < sh[i].sh_size / sizeof *sym; j++)
				if (ELF64_ST_TYPE(sym[j].st_info) == STT_FUNC && sym[j].st_size > 0 &&
				    sym[j].st_name < sh[sh[i].sh_link].sh_size &&
				    strcmp(str + sym[j].st_name, tok) == 0 && rtcc_cfg.nfuncs < MAXFUNCS &&
				    !found) {
					rtcc_cfg.flo[rtcc_cfg.nfuncs] = sym[j].st_value + rtcc_cfg.exebias;
					rtcc_cfg.fhi[rtcc_cfg.nfuncs++] = sym[j].st_value + rtcc_cfg.exebias + sym[j].st_size;
					found = 1;
				}
		}
		if (!found)
			rtcc_say("rtcc: RTCC_FUNCS: %s: no such function in the program\n", tok);
	}
	free(names);
	if (rtcc_cfg.nfuncs == 0)
		rtcc_say("rtcc: RTCC_FUNCS=%s: none found; recording everything\n", list);
out:
	munmap(m, (size_t)st.st_size);
}
