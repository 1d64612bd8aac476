/* A PMU's sysfs format/ fields ("config:0-7,32-35") and the values put into them: the
 * arithmetic under pmu_set_encode_terms, with no I/O. */
#ifndef PMUTOP_PMUFMT_H
#define PMUTOP_PMUFMT_H

#include <stddef.h>
#include <stdint.h>

#define PMUFMT_RANGES_MAX 8 /* "config:0-7,32-35" has 2; no kernel format has more than 4 */

/* One format/ file: a named field made of bit ranges of config, config1 or config2. */
struct pmufmt_field {
	char *name;   /* owned by whoever fills it; pmufmt never touches it */
	unsigned reg; /* 0 config, 1 config1, 2 config2 */
	unsigned nr;
	uint8_t lo[PMUFMT_RANGES_MAX];
	uint8_t hi[PMUFMT_RANGES_MAX];
};

/* Parse a format file's text ("config:0-7", "config1:0-15", "config:0-7,32-35",
 * "config:21") into f's register and ranges. -EINVAL for anything else, config3 and
 * later included (perf_event_attr fields we do not fill). */
int pmufmt_parse(const char *text, struct pmufmt_field *f);

/* Clear the field in config and put value there, its lowest bits into the first range.
 * -EINVAL when value has more bits than the field. */
int pmufmt_put(const struct pmufmt_field *f, uint64_t value, uint64_t config[3]);

/* A term value v[0..n): decimal, or hex with 0x, as perf's term lexer reads them. */
int pmufmt_value(const char *v, size_t n, uint64_t *out);

/* 0, 1 or 2 when name[0..len) is config, config1 or config2, else -1. */
int pmufmt_reg(const char *name, size_t len);

#endif
