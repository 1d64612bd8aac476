/* The source table's rows for the fuzzed command line (cli.c asks sources.c): the same
 * names, flags and choices as the sources' own rows, without their counters. */
#include "bpfsource.h"
#include "cgsource.h"
#include "engine.h"
#include "promqsrc.h"
#include "remotesrc.h"

static bool bpf_can(const struct srcopts *o, bool named)
{
	return named ? o->scope != SCOPE_CGROUPS : o->scope == SCOPE_ALL;
}

static bool cg_can(const struct srcopts *o, bool named)
{
	(void)named;
	return o->scope == SCOPE_CGROUPS;
}

static bool perf_can(const struct srcopts *o, bool named)
{
	(void)named;
	return o->scope != SCOPE_CGROUPS;
}

static bool own_can(const struct srcopts *o, bool named)
{
	return named && o->own;
}

const struct source_kind remote_kind = {
	.name = "connect", .what = "another host's rows", .flags = SOURCE_OPTION, .can = own_can};
const struct source_kind promq_kind = {
	.name = "prometheus", .what = "a fleet's rows", .flags = SOURCE_OPTION, .can = own_can};
const struct source_kind bpfsource_kind = {.name = "bpf",
					   .what = "per task",
					   .flags = SOURCE_BACKEND | SOURCE_GIVES_UP,
					   .can = bpf_can};
const struct source_kind cgsource_kind = {
	.name = "perf", .what = "per cgroup", .flags = SOURCE_BACKEND, .can = cg_can};
const struct source_kind engine_kind = {
	.name = "perf", .what = "per task", .flags = SOURCE_BACKEND, .can = perf_can};
