/* elf.c: an object as trfilter -S and lackey's -v -v lines name it: its
 * ELF header and program headers, for the extent of its segments, and its
 * notes, for its build id, checked against an identity it cannot have.
 * (No lookup: that asks addr2line.) */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(0, data, size);
	struct rt_sym *s;
	char id[256];

	if ((s = rt_sym_new()) == NULL)
		abort();
	if (rt_objid(path, id, sizeof id) || strlen(id) >= sizeof id)
		abort();	/* an identity always, of a readable file */
	if (rt_sym_add(s, path, UINT64_MAX, "build-id:00"))
		fuzz_err(rt_sym_error(s), path);
	rt_sym_free(s);
	return 0;
}
