/* libFuzzer harness for the metric engine: perf's MetricExpr grammar (mexpr_parse) and
 * pmu-events JSON files (metric_set_load_json_text) come from files the user names.
 *
 * Input: one mode byte, then the text. Mode bit 0 clear: an expression, parsed and, when
 * it parses, its identifiers listed and its value computed over made-up counters; set: a
 * JSON file, loaded, then every metric's events, group and value.
 *
 * Invariants checked, from mexpr.h and metric.h:
 * - a parse either gives a tree, or NULL with a one-line message;
 * - mexpr_ids gives the same count whatever max is, and each name once;
 * - a value with a number is finite; a value without one has a reason;
 * - a JSON load returns a count or a negative errno with a message, and every metric
 *   it keeps evaluates under the same rules; group specs are NUL-terminated. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "metricjson.h"
#include "mexpr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_TEXT 16384

/* Counters from the name: some exact, some scaled, zero, not counted or unknown. */
static int lookup(void *ctx, const char *name, struct mval *out)
{
	(void)ctx;
	unsigned h = 5381;
	for (const char *p = name; *p; p++)
		h = h * 33 + (unsigned char)*p;
	memset(out, 0, sizeof(*out));
	switch (h % 5) {
	case 0:
		return -ENOENT;
	case 1:
		out->v = val_missing(VAL_NC, WHY_NOT_RUN);
		return 0;
	case 2:
		out->v = (struct val){.v = 0, .state = VAL_EXACT, .run_pm = 1000};
		return 0;
	case 3:
		out->v = (struct val){.v = h % 1000 + 1, .state = VAL_SCALED, .run_pm = 500};
		return 0;
	default:
		out->v = (struct val){.v = (double)h, .state = VAL_EXACT, .run_pm = 1000};
		return 0;
	}
}

static int literal(void *ctx, const char *name, double *out)
{
	(void)ctx;
	if (!strcmp(name, "slots"))
		*out = 5;
	else if (!strcmp(name, "smt_on"))
		*out = 1;
	else
		return -ENOENT;
	return 0;
}

static const struct mexpr_env env = {.lookup = lookup, .literal = literal, .cpuid = "0xd49"};

static void check_val(struct mval r)
{
	if (val_has_number(r.v) && !isfinite(r.v.v))
		abort();
	if (!val_has_number(r.v) && !r.why)
		abort();
}

static void fuzz_expr(const char *text)
{
	char err[128];
	struct mexpr *e = mexpr_parse(text, err, sizeof(err));
	if (!e) {
		if (!err[0] || strchr(err, '\n') || !memchr(err, 0, sizeof(err)))
			abort();
		return;
	}
	const char *ids[64];
	unsigned n = mexpr_ids(e, &env, ids, 64);
	if (mexpr_ids(e, &env, NULL, 0) != n)
		abort();
	for (unsigned i = 0; i < n && i < 64; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(ids[i], ids[j]))
				abort();
	check_val(mexpr_eval(e, &env));
	check_val(mexpr_eval(e, NULL));
	mexpr_free(e);
}

static void fuzz_json(const char *text, size_t len)
{
	struct metric_set *s = metric_set_new();
	if (!s)
		return;
	char err[256] = "";
	int r = metric_set_load_json_text(s, text, len, err, sizeof(err));
	if (r < 0 && !err[0] && r != -ENOMEM)
		abort();
	for (unsigned i = 0; i < metric_set_count(s); i++) {
		char spec[64];
		metric_set_group_spec(s, i, &env, spec, sizeof(spec));
		if (!memchr(spec, 0, sizeof(spec)))
			abort();
		check_val(metric_set_eval(s, i, &env, METRIC_SCOPE_TASK, true));
		const char *ev[32];
		metric_set_events(s, &i, 1, &env, ev, 32);
	}
	metric_set_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > MAX_TEXT)
		return 0;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	if (data[0] & 1)
		fuzz_json(text, size - 1);
	else
		fuzz_expr(text);
	free(text);
	return 0;
}
