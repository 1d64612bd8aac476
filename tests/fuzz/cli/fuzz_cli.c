/* libFuzzer harness for cli_parse: the input split at NUL or newline bytes into argv
 * (after "pmutop"), each argument in a heap block of exactly its size, so that a read past
 * an argument's end is caught.
 *
 * Checks, from cli.h: 0 or -EINVAL; on -EINVAL one line in err "saying what was wrong
 * and what to do" (both sides of a ": "); on success the values are in their documented
 * ranges (-d 0.1..3600, -n >= 1 and only with -b, pids 1..CLI_MAX_PIDS of them, a command
 * after -- points into argv and is NULL-terminated, -p and a command not both, --children
 * only with a command, a non-empty -e). The same argv parsed twice gives the same result:
 * cli_parse is a function of argv, not of getopt's leftovers from the previous call. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXARGS 64

static void check_ok(const struct cli *c, int argc, char **argv)
{
	if (!(c->interval >= 0.1 && c->interval <= 3600))
		abort();
	if (c->count < 0 || (c->count && !c->batch))
		abort();
	if (c->npids > CLI_MAX_PIDS)
		abort();
	for (unsigned i = 0; i < c->npids; i++)
		if (c->pids[i] < 1)
			abort();
	if (c->events && !c->events[0])
		abort();
	if (c->command) {
		if (c->command < argv + 1 || c->command >= argv + argc || c->npids)
			abort();
		if (argv[argc] != NULL)
			abort();
	}
	if ((c->children_flag || c->inherit_flag) && !c->command)
		abort();
	if (c->no_inherit && !c->inherit_flag)
		abort();
	if (c->format != OUT_TEXT && c->format != OUT_CSV && c->format != OUT_JSON)
		abort();
}

/* One line: what was wrong, then after ": " what to do. err is big enough for any
 * message about arguments of libFuzzer's default -max_len, so nothing is cut. */
static void check_err(const char *err, size_t cap)
{
	const char *nul = memchr(err, '\0', cap);
	if (!nul || nul == err || memchr(err, '\n', (size_t)(nul - err)) || !strstr(err, ": ")) {
		fprintf(stderr, "cli_parse: bad error line '%s'\n", err);
		abort();
	}
}

static int same(const struct cli *a, const struct cli *b)
{
	return a->batch == b->batch && a->count == b->count && a->interval == b->interval &&
	       a->events == b->events && a->per_cpu == b->per_cpu && a->threads == b->threads &&
	       a->user_only == b->user_only && a->no_inherit == b->no_inherit &&
	       a->children_flag == b->children_flag && a->inherit_flag == b->inherit_flag &&
	       a->format == b->format && a->sort == b->sort && a->reverse == b->reverse &&
	       a->pane == b->pane && a->npids == b->npids &&
	       memcmp(a->pids, b->pids, a->npids * sizeof(a->pids[0])) == 0 &&
	       a->command == b->command && a->list == b->list && a->list_pmu == b->list_pmu &&
	       a->no_color == b->no_color && a->config == b->config && a->help == b->help &&
	       a->version == b->version;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAXARGS + 2], *copy[MAXARGS + 2];
	int argc = 0;

	argv[argc++] = strdup("pmutop");
	if (!argv[0])
		return 0;
	/* A trailing separator ends the last argument; it starts no empty one. */
	for (size_t i = 0; i < size && argc < MAXARGS + 1;) {
		size_t j = i;
		while (j < size && data[j] != '\0' && data[j] != '\n')
			j++;
		char *a = malloc(j - i + 1);
		if (!a)
			break;
		memcpy(a, data + i, j - i);
		a[j - i] = '\0';
		argv[argc++] = a;
		i = j + 1;
	}
	argv[argc] = NULL;
	memcpy(copy, argv, (size_t)(argc + 1) * sizeof(argv[0]));

	struct cli c1, c2;
	static char err1[16384], err2[16384];
	memset(err1, 'x', sizeof(err1));
	int r1 = cli_parse(argc, argv, &c1, err1, sizeof(err1));
	if (r1 != 0 && r1 != -EINVAL)
		abort();
	if (r1 == 0)
		check_ok(&c1, argc, argv);
	else
		check_err(err1, sizeof(err1));
	/* '+' mode: argv is not permuted. */
	if (memcmp(copy, argv, (size_t)(argc + 1) * sizeof(argv[0])) != 0)
		abort();

	memset(err2, 'x', sizeof(err2));
	int r2 = cli_parse(argc, argv, &c2, err2, sizeof(err2));
	if (r2 != r1 || (r1 == 0 && !same(&c1, &c2)) || (r1 != 0 && strcmp(err1, err2) != 0)) {
		fprintf(stderr,
			"cli_parse: a second parse of the same argv differs (%d/%d): "
			"'%s' / '%s'\n",
			r1, r2, r1 ? err1 : "", r2 ? err2 : "");
		abort();
	}

	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
