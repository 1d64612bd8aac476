/* libFuzzer harness for config_parse: any bytes give 0 or -EINVAL with one clean
 * "line N: ..." message and an untouched struct; whatever parses saves and loads back
 * to the same setup, and the saved text is stable. Links with pmutop_core (config.c,
 * cli.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void check_terminated(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		abort();
}

static void check_config(const struct config *c)
{
	check_terminated(c->sort, sizeof(c->sort));
	check_terminated(c->pane, sizeof(c->pane));
	check_terminated(c->events, sizeof(c->events));
	if (c->nmetrics > CONFIG_METRICS_MAX)
		abort();
	if (c->interval != 0 && !(c->interval >= 0.1 && c->interval <= 3600))
		abort();
	for (unsigned i = 0; i < c->nmetrics; i++) {
		const struct user_metric *m = &c->metrics[i];
		check_terminated(m->name, sizeof(m->name));
		check_terminated(m->a, sizeof(m->a));
		check_terminated(m->b, sizeof(m->b));
		if (!m->name[0] || !m->a[0] || !m->b[0])
			abort();
		if (m->mul != 1 && m->mul != 100 && m->mul != 1000)
			abort();
	}
}

static int equal(const struct config *x, const struct config *y)
{
	if (x->interval != y->interval || strcmp(x->sort, y->sort) || x->reverse != y->reverse ||
	    strcmp(x->pane, y->pane) || x->threads != y->threads || x->user_only != y->user_only ||
	    strcmp(x->events, y->events) || x->nmetrics != y->nmetrics)
		return 0;
	for (unsigned i = 0; i < x->nmetrics; i++)
		if (strcmp(x->metrics[i].name, y->metrics[i].name) ||
		    strcmp(x->metrics[i].a, y->metrics[i].a) ||
		    strcmp(x->metrics[i].b, y->metrics[i].b) ||
		    x->metrics[i].mul != y->metrics[i].mul)
			return 0;
	return 1;
}

static void remove_dir(void)
{
	rmdir(dir);
}

static size_t slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* Save, load, save again: same setup, same bytes. */
static void round_trip(const struct config *c)
{
	static char t1[32768], t2[32768];
	char p1[96], p2[96], err[512];
	struct config back;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/pmutop-fuzz-config-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
	}
	snprintf(p1, sizeof(p1), "%s/a", dir);
	snprintf(p2, sizeof(p2), "%s/b", dir);
	if (config_save(p1, c) != 0)
		abort();
	if (config_load(p1, &back, err, sizeof(err)) != 0 || !equal(&back, c))
		abort();
	if (config_save(p2, &back) != 0)
		abort();
	size_t n1 = slurp(p1, t1, sizeof(t1)), n2 = slurp(p2, t2, sizeof(t2));
	if (n1 != n2 || memcmp(t1, t2, n1) != 0)
		abort();
	unlink(p1);
	unlink(p2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c, before;
	char err[512];

	/* A copy of exactly size bytes, so that reading past the end is caught. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(&c, 0x5a, sizeof(c));
	memcpy(&before, &c, sizeof(c));
	memset(err, 'x', sizeof(err));
	int ret = config_parse(text, size, &c, err, sizeof(err));
	free(text);

	if (!memchr(err, '\0', sizeof(err)))
		abort();
	if (ret == 0) {
		check_config(&c);
		round_trip(&c);
		return 0;
	}
	if (ret != -EINVAL || memcmp(&c, &before, sizeof(c)) != 0)
		abort();
	unsigned line;
	if (sscanf(err, "line %u: ", &line) != 1 || line == 0 || strchr(err, '\n'))
		abort();
	/* The line named exists in the input. */
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (line > lines)
		abort();
	return 0;
}
