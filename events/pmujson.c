/* perf's JSON events the built-in metrics need, by CPUID: the generated table and its
 * lookup. */
#include "pmujson.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pmujson_ev {
	const char *pmu;
	const char *name;
	const char *terms;
};

struct pmujson_model {
	const char *name;  /* perf's directory (alderlake) */
	const char *cpuid; /* perf's mapfile.csv pattern, an extended regex */
	const struct pmujson_ev *ev;
	size_t n;
};

#include "pmujson_tab.h"

static unsigned pmujson_dashes(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '-';
	return n;
}

/* perf's rule (strcmp_cpuid_str, tools/perf/arch/x86/util/header.c): a pattern with a
 * stepping (vendor-family-model-stepping, three '-') needs an id with one; the match
 * must be as long as the id, or as the id without its stepping when the pattern names
 * none. */
static bool pmujson_match(const char *pattern, const char *cpuid)
{
	bool full_pat = pmujson_dashes(pattern) == 3, full_id = pmujson_dashes(cpuid) == 3;
	size_t len = full_id && !full_pat ? (size_t)(strrchr(cpuid, '-') - cpuid) : strlen(cpuid);
	regex_t re;
	regmatch_t m;
	bool ok;

	if (full_pat && !full_id)
		return false;
	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return false;
	ok = regexec(&re, cpuid, 1, &m, 0) == 0 && (size_t)(m.rm_eo - m.rm_so) == len;
	regfree(&re);
	return ok;
}

int pmujson_model_index(const char *cpuid)
{
	if (!cpuid || !*cpuid)
		return -1;
	for (size_t i = 0; i < sizeof(pmujson_models) / sizeof(pmujson_models[0]); i++)
		if (pmujson_match(pmujson_models[i].cpuid, cpuid))
			return (int)i;
	return -1;
}

const char *pmujson_model(const char *cpuid)
{
	int m = pmujson_model_index(cpuid);

	return m < 0 ? NULL : pmujson_models[m].name;
}

const char *pmujson_terms_at(int model, const char *pmu, const char *name, size_t len)
{
	const struct pmujson_model *m;

	if (model < 0 || (size_t)model >= sizeof(pmujson_models) / sizeof(pmujson_models[0]) ||
	    !pmu || !name || len == 0)
		return NULL;
	m = &pmujson_models[model];
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->ev[i].pmu, pmu) == 0 && strlen(m->ev[i].name) == len &&
		    strncasecmp(m->ev[i].name, name, len) == 0)
			return m->ev[i].terms;
	return NULL;
}

int pmujson_cpuid_read(const char *cpuinfo, char *out, size_t len)
{
	char line[256], vendor[32] = "";
	int family = -1, model = -1, stepping = -1;
	FILE *f = cpuinfo ? fopen(cpuinfo, "re") : NULL;

	if (len)
		out[0] = '\0';
	if (!f)
		return -ENOENT;
	/* the first processor's lines: every one names the same CPU */
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		const char *v;

		if (!colon)
			continue;
		v = colon + 1 + strspn(colon + 1, " \t");
		if (!strncmp(line, "vendor_id", 9) && !vendor[0])
			snprintf(vendor, sizeof(vendor), "%.*s", (int)strcspn(v, "\n"), v);
		else if (!strncmp(line, "cpu family", 10) && family < 0)
			family = atoi(v);
		else if (!strncmp(line, "model\t", 6) && model < 0)
			model = atoi(v);
		else if (!strncmp(line, "stepping", 8) && stepping < 0)
			stepping = atoi(v);
	}
	fclose(f);
	if (!vendor[0] || family < 0)
		return -ENOENT;
	snprintf(out, len, "%s-%d-%X-%X", vendor, family, (unsigned)(model < 0 ? 0 : model),
		 (unsigned)(stepping < 0 ? 0 : stepping));
	return 0;
}
