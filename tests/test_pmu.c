/* PMU discovery on fixture sysfs trees (x86, hybrid x86, arm64, AMD) and term encoding. */
#include "pmu.h"

#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct pmu_set *load(const char *fixture)
{
	struct pmu_set *s = pmu_set_new(testutil_path(fixture), false);

	assert_non_null(s);
	return s;
}

static unsigned find(const struct pmu_set *s, const char *name)
{
	int i = pmu_set_find(s, name);

	assert_true(i >= 0);
	return (unsigned)i;
}

static void info(const struct pmu_set *s, const char *name, struct pmu_info *pi)
{
	assert_int_equal(pmu_set_info(s, find(s, name), pi), 0);
	assert_string_equal(pi->name, name);
}

/* Encode terms on PMU name and check the three config words. */
static void enc(const struct pmu_set *s, const char *pmu, const char *terms, uint64_t c0,
		uint64_t c1, uint64_t c2)
{
	uint64_t cfg[3] = {~0ULL, ~0ULL, ~0ULL};

	assert_int_equal(pmu_set_encode_terms(s, find(s, pmu), terms, cfg), 0);
	assert_int_equal(cfg[0], c0);
	assert_int_equal(cfg[1], c1);
	assert_int_equal(cfg[2], c2);
}

static void enc_fail(const struct pmu_set *s, const char *pmu, const char *terms, int ret,
		     size_t pos)
{
	uint64_t cfg[3];
	size_t at = 999;

	assert_int_equal(pmu_set_encode_terms_pos(s, find(s, pmu), terms, cfg, &at), ret);
	assert_int_equal(at, pos);
	assert_int_equal(pmu_set_encode_terms(s, find(s, pmu), terms, cfg), ret);
}

static void test_x86_pmus(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	struct pmu_info pi;
	int types[4] = {0};
	(void)state;

	assert_int_equal(pmu_set_count(s), 4);
	assert_false(pmu_set_uses_pfm(s));
	/* sorted by type: software 1, cpu 4, msr 9, power 12 */
	assert_int_equal(pmu_set_info(s, 0, &pi), 0);
	assert_string_equal(pi.name, "software");
	assert_int_equal(pmu_set_info(s, 3, &pi), 0);
	assert_string_equal(pi.name, "power");
	assert_int_equal(pmu_set_info(s, 4, &pi), -ENOENT);

	info(s, "cpu", &pi);
	assert_int_equal(pi.type, 4);
	assert_true(pi.core);
	assert_true(pi.present);
	assert_null(pi.cpus);
	assert_null(pi.pfm_name);
	assert_int_equal(pi.pfm_id, -1);
	assert_int_equal(pi.nr_counters, -1);
	assert_int_equal(pi.nr_fixed, -1);
	/* 12 events; topdown-retiring.scale and mem-loads.unit are metadata, not events */
	assert_int_equal(pi.nr_aliases, 12);

	info(s, "software", &pi);
	assert_int_equal(pi.type, 1);
	assert_false(pi.core);
	assert_int_equal(pi.nr_aliases, 0);
	info(s, "msr", &pi);
	assert_int_equal(pi.type, 9);
	assert_false(pi.core);
	assert_int_equal(pi.nr_aliases, 3);
	info(s, "power", &pi);
	assert_string_equal(pi.cpus, "0");
	assert_false(pi.core);
	assert_int_equal(pi.nr_aliases, 1);

	assert_int_equal(pmu_set_core_types(s, types, 4), 1);
	assert_int_equal(types[0], 4);
	assert_int_equal(pmu_set_find(s, "nosuch"), -1);
	pmu_set_free(s);
}

static void test_x86_aliases(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	unsigned cpu = find(s, "cpu");
	const char *name, *terms;
	(void)state;

	assert_string_equal(pmu_set_alias(s, cpu, "cpu-cycles"), "event=0x3c");
	assert_string_equal(pmu_set_alias(s, cpu, "mem-loads"), "event=0xcd,umask=0x1,ldlat=3");
	assert_string_equal(pmu_set_alias(s, cpu, "CPU-Cycles"), "event=0x3c"); /* as perf */
	assert_null(pmu_set_alias(s, cpu, "topdown-retiring.scale"));
	assert_null(pmu_set_alias(s, cpu, "nosuch"));
	assert_null(pmu_set_alias(s, find(s, "software"), "cpu-cycles"));
	assert_null(pmu_set_alias(s, 99, "cpu-cycles"));
	assert_string_equal(pmu_set_alias(s, find(s, "power"), "energy-pkg"), "event=0x02");

	/* sorted, so catalogues are stable */
	assert_int_equal(pmu_set_alias_at(s, cpu, 0, &name, &terms), 0);
	assert_string_equal(name, "branch-instructions");
	assert_string_equal(terms, "event=0xc4");
	assert_int_equal(pmu_set_alias_at(s, cpu, 11, &name, &terms), 0);
	assert_string_equal(name, "topdown-retiring");
	assert_int_equal(pmu_set_alias_at(s, cpu, 12, &name, &terms), -ENOENT);
	pmu_set_free(s);
}

static void test_encode_fields(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	(void)state;

	enc(s, "cpu", "event=0x3c", 0x3c, 0, 0);
	enc(s, "cpu", "event=0x3c,umask=1,cmask=2", 0x0200013c, 0, 0);
	enc(s, "cpu", "event=60,umask=0x01", 0x13c, 0, 0); /* decimal too */
	/* bare flags are 1 */
	enc(s, "cpu", "event=0xc0,edge", 0xc0 | 1ULL << 18, 0, 0);
	enc(s, "cpu", "inv,any", 1ULL << 23 | 1ULL << 21, 0, 0);
	enc(s, "cpu", "edge=0", 0, 0, 0);
	enc(s, "cpu", "cmask=0xff", 0xffULL << 24, 0, 0);
	/* config1 fields and the raw registers */
	enc(s, "cpu", "event=0xcd,ldlat=3", 0xcd, 3, 0);
	enc(s, "cpu", "config=0x1234,config1=5,config2=0x6", 0x1234, 5, 6);
	/* a later term overrides a field, it does not OR into it */
	enc(s, "cpu", "umask=0xff,umask=0x01", 0x100, 0, 0);
	/* spaces around terms, names and values */
	enc(s, "cpu", " event = 0x3c , umask=1 ", 0x13c, 0, 0);
	/* the full 64-bit field */
	enc(s, "msr", "event=0xffffffffffffffff", ~0ULL, 0, 0);
	pmu_set_free(s);
}

static void test_encode_aliases(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	(void)state;

	enc(s, "cpu", "mem-loads", 0x1cd, 3, 0);
	enc(s, "cpu", "mem-loads,ldlat=7", 0x1cd, 7, 0);
	enc(s, "cpu", "mem-loads,cmask=2", 0x020001cd, 3, 0);
	enc(s, "cpu", "cycles-ct", 0x3c | 1ULL << 32 | 1ULL << 33, 0, 0);
	enc(s, "msr", "tsc", 0, 0, 0);
	enc(s, "msr", "mperf", 2, 0, 0);
	pmu_set_free(s);
}

static void test_encode_errors(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-x86");
	uint64_t cfg[3] = {1, 2, 3};
	(void)state;

	enc_fail(s, "cpu", "event=0x100", -EINVAL, 0); /* 9 bits into 8 */
	enc_fail(s, "cpu", "event=0x3c,cmask=256", -EINVAL, 11);
	enc_fail(s, "cpu", "edge=2", -EINVAL, 0);
	enc_fail(s, "cpu", "nosuch=1", -ENOENT, 0);
	enc_fail(s, "cpu", "event=0x3c,nosuch", -ENOENT, 11);
	enc_fail(s, "cpu", "event=0x3c, nosuch", -ENOENT, 12);
	enc_fail(s, "cpu", "umask=zz", -EINVAL, 0);
	enc_fail(s, "cpu", "umask=-1", -EINVAL, 0);
	enc_fail(s, "cpu", "umask=0x", -EINVAL, 0);
	enc_fail(s, "cpu", "event=", -EINVAL, 0);
	enc_fail(s, "cpu", "=1", -EINVAL, 0);
	enc_fail(s, "cpu", "", -EINVAL, 0);
	enc_fail(s, "cpu", "event=1,,umask=1", -EINVAL, 8);
	enc_fail(s, "cpu", "config=0x10000000000000000", -EINVAL, 0);
	/* an alias is a bare word: with a value it is an unknown field */
	enc_fail(s, "cpu", "mem-loads=1", -ENOENT, 0);
	/* the software PMU has no format: every field is unknown */
	enc_fail(s, "software", "event=1", -ENOENT, 0);
	assert_int_equal(pmu_set_encode_terms(s, 42, "event=1", cfg), -ENOENT);
	assert_int_equal(cfg[0], 0);
	pmu_set_free(s);
}

static void test_amd_split_format(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-amd");
	struct pmu_info pi;
	(void)state;

	/* event is config:0-7,32-35: the low 8 bits first, the next 4 at bit 32 */
	enc(s, "cpu", "event=0x1c0", 0x1000000c0ULL, 0, 0);
	enc(s, "cpu", "event=0xfff,umask=0x2", 0xf000002ffULL, 0, 0);
	enc(s, "cpu", "event=0xc0", 0xc0, 0, 0);
	enc_fail(s, "cpu", "event=0x1000", -EINVAL, 0);
	enc(s, "amd_l3", "event=0x4,umask=0xff,threadmask=0xff", 0xff0000000000ff04ULL, 0, 0);
	/* format/bad is config3: skipped, so the term is unknown rather than misencoded */
	enc_fail(s, "amd_l3", "bad=1", -ENOENT, 0);
	info(s, "amd_l3", &pi);
	assert_string_equal(pi.cpus, "0,8");
	assert_false(pi.core);
	pmu_set_free(s);
}

static void test_hybrid(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-hybrid");
	struct pmu_info pi;
	int types[4] = {0};
	(void)state;

	assert_int_equal(pmu_set_count(s), 3);
	assert_int_equal(pmu_set_core_types(s, types, 4), 2);
	assert_int_equal(types[0], 4);
	assert_int_equal(types[1], 10);
	assert_int_equal(pmu_set_core_types(s, types, 1), 1); /* max is respected */

	info(s, "cpu_core", &pi);
	assert_int_equal(pi.type, 4);
	assert_true(pi.core);
	assert_string_equal(pi.cpus, "0-7");
	assert_int_equal(pi.nr_aliases, 4);
	info(s, "cpu_atom", &pi);
	assert_int_equal(pi.type, 10);
	assert_true(pi.core);
	assert_string_equal(pi.cpus, "8-15");
	info(s, "software", &pi);
	assert_false(pi.core);

	enc(s, "cpu_core", "topdown-retiring", 0x8000, 0, 0);
	enc(s, "cpu_atom", "topdown-retiring", 0x02c2, 0, 0);
	enc(s, "cpu_atom", "mem-loads", 0x05d0, 3, 0);
	pmu_set_free(s);
}

static void test_arm64(void **state)
{
	struct pmu_set *s = load("fixtures/sysfs-arm64");
	struct pmu_info pi;
	int type = 0;
	(void)state;

	info(s, "armv8_pmuv3", &pi);
	assert_int_equal(pi.type, 8);
	assert_true(pi.core); /* by name: its type is not PERF_TYPE_RAW */
	assert_string_equal(pi.cpus, "0-3");
	assert_int_equal(pi.nr_aliases, 4);
	assert_int_equal(pmu_set_core_types(s, &type, 1), 1);
	assert_int_equal(type, 8);
	assert_string_equal(pmu_set_alias(s, find(s, "armv8_pmuv3"), "cpu_cycles"), "event=0x0011");
	enc(s, "armv8_pmuv3", "inst_retired", 0x08, 0, 0);
	enc(s, "armv8_pmuv3", "cpu_cycles", 0x11, 0, 0);
	enc(s, "armv8_pmuv3", "event=0xffff,long", 0xffff, 1, 0);
	enc_fail(s, "armv8_pmuv3", "event=0x10000", -EINVAL, 0);
	pmu_set_free(s);
}

static void test_missing_root(void **state)
{
	struct pmu_set *s = pmu_set_new("/nonexistent/sysfs", false);
	struct pmu_info pi;
	uint64_t cfg[3];
	int type;
	(void)state;

	assert_non_null(s);
	assert_int_equal(pmu_set_count(s), 0);
	assert_int_equal(pmu_set_find(s, "cpu"), -1);
	assert_int_equal(pmu_set_core_types(s, &type, 1), 0);
	assert_int_equal(pmu_set_info(s, 0, &pi), -ENOENT);
	assert_null(pmu_set_alias(s, 0, "cycles"));
	assert_int_equal(pmu_set_encode_terms(s, 0, "event=1", cfg), -ENOENT);
	pmu_set_free(s);

	/* a tree without bus/event_source is empty too */
	s = pmu_set_new(testutil_path("fixtures"), false);
	assert_non_null(s);
	assert_int_equal(pmu_set_count(s), 0);
	pmu_set_free(s);

	pmu_set_free(NULL);
	assert_int_equal(pmu_set_count(NULL), 0);
	assert_int_equal(pmu_set_find(NULL, "cpu"), -1);
}

/* The real machine: the software PMU (type 1) exists on every Linux with perf events. */
static void test_real_sysfs(void **state)
{
	struct pmu_set *s;
	struct pmu_info pi;
	struct stat st;
	(void)state;

	if (stat("/sys/bus/event_source/devices/software", &st) < 0)
		skip();
	s = pmu_set_new("/sys", false);
	assert_non_null(s);
	info(s, "software", &pi);
	assert_int_equal(pi.type, 1);
	assert_false(pi.core);
	pmu_set_free(s);
}

/* With libpfm4 merged in: every libpfm4-only entry has type -1 and a libpfm4 name, and a
 * libpfm4 name finds the entry that carries it (merged into "cpu" or on its own). */
static void test_with_pfm(void **state)
{
	struct pmu_set *s = pmu_set_new(testutil_path("fixtures/sysfs-x86"), true);
	struct pmu_info pi;
	unsigned sysfs = 0, pfm = 0;
	(void)state;

	assert_non_null(s);
	assert_true(pmu_set_uses_pfm(s));
	for (unsigned i = 0; i < pmu_set_count(s); i++) {
		assert_int_equal(pmu_set_info(s, i, &pi), 0);
		if (pi.type >= 0) {
			sysfs++;
			continue;
		}
		pfm++;
		assert_non_null(pi.pfm_name);
		assert_true(pi.pfm_id >= 0);
		assert_int_equal(pmu_set_find(s, pi.pfm_name), (int)i);
	}
	assert_int_equal(sysfs, 4);
	assert_true(pfm > 0);
	info(s, "cpu", &pi);
	if (pi.pfm_name) {
		assert_int_equal(pmu_set_find(s, pi.pfm_name), find(s, "cpu"));
		assert_true(pi.nr_counters >= 0);
	}
	pmu_set_free(s);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_pmus),
		cmocka_unit_test(test_x86_aliases),
		cmocka_unit_test(test_encode_fields),
		cmocka_unit_test(test_encode_aliases),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_amd_split_format),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_arm64),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_real_sysfs),
		cmocka_unit_test(test_with_pfm),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
