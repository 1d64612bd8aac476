/* sysfs format/ fields: parsing their bit ranges and scattering values into them. */
#include "pmufmt.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pmufmt_reg(const char *name, size_t len)
{
	static const char *const regs[3] = {"config", "config1", "config2"};

	for (int r = 0; r < 3; r++)
		if (strlen(regs[r]) == len && strncmp(name, regs[r], len) == 0)
			return r;
	return -1;
}

int pmufmt_parse(const char *text, struct pmufmt_field *f)
{
	const char *colon = strchr(text, ':'), *p;
	char *end;
	int reg;

	if (!colon || (reg = pmufmt_reg(text, (size_t)(colon - text))) < 0)
		return -EINVAL;
	f->reg = (unsigned)reg;
	f->nr = 0;
	for (p = colon + 1;; p = end + 1) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p) || f->nr == PMUFMT_RANGES_MAX)
			return -EINVAL;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || hi > 63)
			return -EINVAL;
		f->lo[f->nr] = (uint8_t)lo;
		f->hi[f->nr] = (uint8_t)hi;
		f->nr++;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -EINVAL;
	}
}

int pmufmt_put(const struct pmufmt_field *f, uint64_t value, uint64_t config[3])
{
	unsigned width = 0;

	for (unsigned i = 0; i < f->nr; i++)
		width += f->hi[i] - f->lo[i] + 1u;
	if (width < 64 && (value >> width))
		return -EINVAL;
	for (unsigned i = 0; i < f->nr; i++) {
		unsigned bits = f->hi[i] - f->lo[i] + 1u;
		uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;

		config[f->reg] &= ~(mask << f->lo[i]);
		config[f->reg] |= (value & mask) << f->lo[i];
		value = bits == 64 ? 0 : value >> bits;
	}
	return 0;
}

int pmufmt_value(const char *v, size_t n, uint64_t *out)
{
	char buf[32], *s = buf, *end;
	int base = 10;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, n);
	buf[n] = '\0';
	if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		s += 2, base = 16;
	if (!isxdigit((unsigned char)*s)) /* strtoull would take "-1" and " 1" */
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, base);
	return errno || *end ? -EINVAL : 0;
}
