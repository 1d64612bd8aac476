/* The user's event spec as text: splitting (groups, modifiers, pmu/.../ terms with
 * commas), writing back, and the edits the events setup makes. */
#include <errno.h>
#include <string.h>

#include "testutil.h"
#include "uspec.h"

static struct uspec sp;

static const char *fmt(void)
{
	static char buf[USPEC_TEXT];
	assert_int_equal(uspec_format(&sp, buf, sizeof(buf)), 0);
	return buf;
}

static void roundtrip(const char *text)
{
	assert_int_equal(uspec_parse(text, &sp), 0);
	assert_string_equal(fmt(), text);
}

static void test_split(void **state)
{
	(void)state;
	assert_int_equal(uspec_parse("{cycles,instructions}:u,cs", &sp), 0);
	assert_int_equal(sp.ng, 2);
	assert_int_equal(sp.nev, 3);
	assert_string_equal(sp.ev[0], "cycles");
	assert_string_equal(sp.ev[1], "instructions");
	assert_string_equal(sp.ev[2], "cs");
	assert_int_equal(sp.group[1], 0);
	assert_int_equal(sp.group[2], 1);
	assert_string_equal(sp.g[0].mods, ":u");
	assert_string_equal(sp.g[1].mods, "");
	unsigned n;
	assert_int_equal(uspec_group_first(&sp, 1, &n), 2);
	assert_int_equal(n, 1);
}

/* Commas between the slashes of pmu/.../ are part of the name. */
static void test_terms_keep_commas(void **state)
{
	(void)state;
	assert_int_equal(uspec_parse("cpu/event=0x3c,umask=0x00/u,{cpu/config=1,config1=2/,"
				     "skl::INST_RETIRED:ANY_P}:k,r01c2",
				     &sp),
			 0);
	assert_int_equal(sp.ng, 3);
	assert_int_equal(sp.nev, 4);
	assert_string_equal(sp.ev[0], "cpu/event=0x3c,umask=0x00/u");
	assert_string_equal(sp.ev[1], "cpu/config=1,config1=2/");
	assert_string_equal(sp.ev[2], "skl::INST_RETIRED:ANY_P");
	assert_string_equal(sp.ev[3], "r01c2");
	assert_string_equal(sp.g[1].mods, ":k");
}

static void test_roundtrip_and_spaces(void **state)
{
	(void)state;
	roundtrip("{cycles,instructions}:u,cs");
	roundtrip("cpu/event=0x3c,umask=0x00/,{a,b,c}");
	roundtrip("");
	/* spaces go; a braced single event loses its braces */
	assert_int_equal(uspec_parse(" { cycles , instructions }:u , cs,{page-faults}", &sp), 0);
	assert_string_equal(fmt(), "{cycles,instructions}:u,cs,page-faults");
	assert_int_equal(uspec_parse("{page-faults}:u", &sp), 0);
	assert_string_equal(fmt(), "{page-faults}:u");
}

static void test_errors(void **state)
{
	(void)state;
	/* What -e refuses (the screen's spec line once took the last five: "a b,c" as one
	 * event of that name). */
	const char *bad[] = {"{cycles", "cycles}", "{a,{b}}", "cpu/event=1", "a,{b", "a,,b",
			     "{a,b}x",	"a b,c",   "{}",      " , ,cs",	     "{a}:q"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(uspec_parse(bad[i], &sp), -EINVAL);
		assert_int_equal(sp.nev, 0);
		assert_int_equal(sp.ng, 0);
	}
	char big[USPEC_NAME + 8];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(uspec_parse(big, &sp), -E2BIG);
	/* formatting into too small a buffer fails whole */
	char small[8] = "x";
	assert_int_equal(uspec_parse("cycles,instructions", &sp), 0);
	assert_int_equal(uspec_format(&sp, small, sizeof(small)), -E2BIG);
	assert_string_equal(small, "");
}

static void test_add(void **state)
{
	(void)state;
	assert_int_equal(uspec_parse("{cycles,instructions}:u", &sp), 0);
	assert_int_equal(uspec_add(&sp, "cs", -1), 0);
	assert_string_equal(fmt(), "{cycles,instructions}:u,cs");
	assert_int_equal(uspec_add(&sp, "page-faults", 0), 0);
	assert_string_equal(fmt(), "{cycles,instructions,page-faults}:u,cs");
	assert_int_equal(uspec_add(&sp, "task-clock", 1), 0);
	assert_string_equal(fmt(), "{cycles,instructions,page-faults}:u,{cs,task-clock}");
	assert_int_equal(uspec_add(&sp, "migrations", 99), 0); /* no such group: its own */
	assert_string_equal(fmt(),
			    "{cycles,instructions,page-faults}:u,{cs,task-clock},migrations");
	assert_int_equal(uspec_add(&sp, "  ", -1), -EINVAL);
	assert_int_equal(uspec_parse("", &sp), 0);
	assert_int_equal(uspec_add(&sp, "page-faults", -1), 0);
	assert_string_equal(fmt(), "page-faults");
}

static void test_remove(void **state)
{
	(void)state;
	assert_int_equal(uspec_parse("{cycles,instructions}:u,cs,{a,b}", &sp), 0);
	assert_int_equal(uspec_remove(&sp, 2), 0); /* cs: its group goes */
	assert_string_equal(fmt(), "{cycles,instructions}:u,{a,b}");
	assert_int_equal(sp.ng, 2);
	assert_int_equal(uspec_remove(&sp, 1), 0);
	assert_string_equal(fmt(), "{cycles}:u,{a,b}"); /* keeps its modifiers */
	assert_int_equal(uspec_remove(&sp, 0), 0);
	assert_string_equal(fmt(), "{a,b}");
	assert_int_equal(sp.group[0], 0);
	assert_int_equal(uspec_remove(&sp, 5), -ENOENT);
}

static void test_move(void **state)
{
	(void)state;
	assert_int_equal(uspec_parse("{cycles,instructions}:u,cs,task-clock", &sp), 0);
	assert_int_equal(uspec_move(&sp, 2, 0), 0); /* cs into group 1 */
	assert_string_equal(fmt(), "{cycles,instructions,cs}:u,task-clock");
	assert_int_equal(uspec_move(&sp, 1, -1), 0); /* out, alone, as it was */
	assert_string_equal(fmt(), "{cycles,cs}:u,task-clock,{instructions}:u");
	assert_int_equal(uspec_move(&sp, 0, 1), 0); /* group 1 keeps cs */
	assert_string_equal(fmt(), "{cs}:u,{task-clock,cycles},{instructions}:u");
	/* the only member of a group moved later: the groups after it shift down */
	assert_int_equal(uspec_parse("a,b,c", &sp), 0);
	assert_int_equal(uspec_move(&sp, 0, 2), 0);
	assert_string_equal(fmt(), "b,{c,a}");
	assert_int_equal(uspec_move(&sp, 0, -1), 0); /* already alone */
	assert_string_equal(fmt(), "b,{c,a}");
	assert_int_equal(uspec_move(&sp, 9, 0), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_terms_keep_commas),
		cmocka_unit_test(test_roundtrip_and_spaces),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_remove),
		cmocka_unit_test(test_move),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
