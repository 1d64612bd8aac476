/* A hand-built model for the UI tests: processes and threads with values in every state
 * (exact, scaled at 50%, n/c, n/a, empty), a hostile command name, two CPU rows, and the
 * helpers that render it off-screen and find things in the screen text. */
#ifndef PMUTOP_TEST_UI_FAKE_H
#define PMUTOP_TEST_UI_FAKE_H

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "model.h"
#include "ui.h"

enum {
	E_TCLK,
	E_CS,
	E_MIGR,
	E_FLT,
	E_CYC,
	E_INS,
	E_CREF,
	E_CMISS,
	E_CINS,
	E_BR,
	E_BMISS,
	E_BINS,
	NEV
};
enum { G_SW, G_IPC, G_CACHE, G_BRANCH, NGRP };
/* The user's events, after fake_user(): "{cycles,instructions}:u,cs". */
enum { E_UCYC = NEV, E_UINS, E_UCS, NEV_ALL };
enum { G_U1 = NGRP, G_U2, NGRP_ALL };
#define NROWS 7
#define SCREEN_MAX 65536
#define HOSTILE "\x1b[31mevil\a\nname\xff"

struct fake {
	struct mevent ev[NEV_ALL];
	struct mgroup grp[NGRP_ALL];
	struct val v[NROWS][NEV_ALL];
	struct val_delta g[NROWS][NGRP_ALL];
	struct mrow rows[NROWS];
	struct val cv[2][NEV_ALL];
	struct val_delta cg[2][NGRP_ALL];
	struct mrow cpus[2];
	struct model m;
	struct pane panes[8];
	unsigned npanes;
};

static inline struct val fake_exact(double x)
{
	return (struct val){.v = x, .state = VAL_EXACT, .run_pm = 1000};
}

static inline struct val fake_scaled(double x)
{
	return (struct val){.v = x, .state = VAL_SCALED, .run_pm = 500};
}

/* cpu: %; hw: how the hardware groups counted ('e'xact, 's'caled, 'c' n/c, 'a' n/a). */
static inline void fake_row(struct fake *f, int i, enum row_kind kind, pid_t pid, pid_t tid,
			    uid_t uid, const char *user, const char *comm, double cpu, char hw,
			    double cyc, double ins)
{
	struct mrow *r = &f->rows[i];
	*r = (struct mrow){.kind = kind,
			   .pid = pid,
			   .tid = tid,
			   .uid = uid,
			   .user = user,
			   .comm = comm,
			   .nthreads = 1,
			   .v = f->v[i],
			   .g = f->g[i]};
	f->v[i][E_TCLK] = fake_exact(cpu / 100.0 * 1e9);
	f->v[i][E_CS] = fake_exact(10 * (i + 1));
	f->v[i][E_MIGR] = fake_exact(i);
	f->v[i][E_FLT] = fake_exact(1000 + i);
	f->g[i][G_SW] = (struct val_delta){1000000000, 1000000000, 0};
	for (int e = E_CYC; e < NEV; e++) {
		double x = e == E_CYC				      ? cyc
			   : e == E_INS || e == E_CINS || e == E_BINS ? ins
			   : e == E_CMISS || e == E_BMISS	      ? cyc / 100
								      : cyc / 10;
		switch (hw) {
		case 'e':
			f->v[i][e] = fake_exact(x);
			break;
		case 's':
			f->v[i][e] = fake_scaled(x);
			break;
		case 'c':
			f->v[i][e] = val_missing(VAL_NC, WHY_NOT_RUN);
			break;
		default:
			f->v[i][e] = val_missing(VAL_NA, WHY_UNSUPPORTED);
			break;
		}
	}
	for (int g = G_IPC; g < NGRP; g++)
		f->g[i][g] = hw == 's'	 ? (struct val_delta){1000000000, 500000000, 0}
			     : hw == 'c' ? (struct val_delta){1000000000, 0, 0}
					 : (struct val_delta){1000000000, 1000000000, 0};
}

static inline void fake_event(struct fake *f, int e, const char *name, unsigned grp,
			      enum ev_role role, bool hw)
{
	f->ev[e] = (struct mevent){
		.name = name, .key = name, .group = grp, .role = role, .hardware = hw};
}

static inline void fake_events(struct fake *f)
{
	fake_event(f, E_TCLK, "task-clock", G_SW, ROLE_TASK_CLOCK, false);
	fake_event(f, E_CS, "context-switches", G_SW, ROLE_CS, false);
	fake_event(f, E_MIGR, "cpu-migrations", G_SW, ROLE_MIGRATIONS, false);
	fake_event(f, E_FLT, "page-faults", G_SW, ROLE_FAULTS, false);
	fake_event(f, E_CYC, "cycles", G_IPC, ROLE_CYCLES, true);
	fake_event(f, E_INS, "instructions", G_IPC, ROLE_INSNS, true);
	fake_event(f, E_CREF, "cache-references", G_CACHE, ROLE_CACHE_REFS, true);
	fake_event(f, E_CMISS, "cache-misses", G_CACHE, ROLE_CACHE_MISSES, true);
	fake_event(f, E_CINS, "instructions", G_CACHE, ROLE_CACHE_INSNS, true);
	fake_event(f, E_BR, "branches", G_BRANCH, ROLE_BRANCHES, true);
	fake_event(f, E_BMISS, "branch-misses", G_BRANCH, ROLE_BRANCH_MISSES, true);
	fake_event(f, E_BINS, "instructions", G_BRANCH, ROLE_BRANCH_INSNS, true);
	f->ev[E_CINS].key = "instructions#3"; /* keys are unique in a set */
	f->ev[E_BINS].key = "instructions#4";
	f->ev[E_BR].status = WHY_NOPERM; /* one reason for the help screen to show */
	f->grp[G_SW] = (struct mgroup){.first = E_TCLK, .n = 4};
	f->grp[G_IPC] = (struct mgroup){.first = E_CYC, .n = 2};
	f->grp[G_CACHE] = (struct mgroup){.first = E_CREF, .n = 3};
	f->grp[G_BRANCH] = (struct mgroup){.first = E_BR, .n = 3};
}

static inline void fake_cpus(struct fake *f)
{
	for (int c = 0; c < 2; c++) {
		f->cpus[c] = (struct mrow){.kind = ROW_CPU,
					   .cpu = c,
					   .cpu_pct = c ? 75.0 : 25.0,
					   .v = f->cv[c],
					   .g = f->cg[c]};
		for (int e = 0; e < NEV; e++)
			f->cv[c][e] = c ? val_missing(VAL_NA, WHY_UNSUPPORTED) : fake_exact(1e9);
		f->cv[0][E_INS] = fake_exact(2e9);
		for (int g = 0; g < NGRP; g++)
			f->cg[c][g] = (struct val_delta){1000000000, 1000000000, 0};
	}
}

/* Processes (and beta's two threads), in model order: each process then its threads. */
static inline void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	fake_events(f);
	fake_row(f, 0, ROW_PROC, 100, 100, 0, "root", "alpha", 50, 'e', 2e9, 3e9);
	fake_row(f, 1, ROW_PROC, 200, 200, 1000, "alice", "beta", 80, 's', 1e9, 2.5e9);
	fake_row(f, 2, ROW_THREAD, 200, 200, 1000, "alice", "beta", 60, 's', 1e9, 2.5e9);
	fake_row(f, 3, ROW_THREAD, 200, 201, 1000, "alice", "beta-worker", 20, 's', 1e9, 2e9);
	fake_row(f, 4, ROW_PROC, 300, 300, 1000, "alice", "gamma", 10, 'c', 0, 0);
	fake_row(f, 5, ROW_PROC, 400, 400, 0, "root", HOSTILE, 30, 'a', 0, 0);
	fake_row(f, 6, ROW_PROC, 500, 500, 0, "root", "idle", 0, 'e', 0, 0);
	f->rows[1].nthreads = 2;
	f->rows[6].exited = true;
	fake_cpus(f);
	f->m = (struct model){
		.hostname = "testhost",
		.kernel = "6.1.0-test",
		.ncpus = 2,
		.pmus = "cpu",
		.notice = "no hardware PMU: showing software events",
		.interval = 1,
		.elapsed = 1,
		.time = 83,
		.tick = 42,
		.threads = true,
		.ntasks = 5,
		.nfd_short = 3,
		.exit_status = -1,
		.nevents = NEV,
		.events = f->ev,
		.ngroups = NGRP,
		.groups = f->grp,
		.nrows = NROWS,
		.rows = f->rows,
		.ncpu_rows = 2,
		.cpu_rows = f->cpus,
	};
	f->npanes = columns_build_panes(&f->m, false, f->panes, 8);
}

/* Add the user's groups {cycles,instructions}:u and cs, as main.c's set would have them
 * after "{cycles,instructions}:u,cs", and rebuild the panes (an Events pane first). */
static inline void fake_user(struct fake *f)
{
	fake_event(f, E_UCYC, "cycles:u", G_U1, ROLE_NONE, true);
	fake_event(f, E_UINS, "instructions:u", G_U1, ROLE_NONE, true);
	fake_event(f, E_UCS, "cs", G_U2, ROLE_NONE, false);
	f->ev[E_UCS].status = WHY_NOPERM;
	f->grp[G_U1] = (struct mgroup){.first = E_UCYC, .n = 2, .user = true};
	f->grp[G_U2] = (struct mgroup){.first = E_UCS, .n = 1, .user = true};
	for (int i = 0; i < NROWS; i++) {
		f->v[i][E_UCYC] = fake_exact(1e9 * (i + 1));
		f->v[i][E_UINS] = fake_exact(2e9 * (i + 1));
		f->v[i][E_UCS] = fake_exact(5 * (i + 1));
		f->g[i][G_U1] = f->g[i][G_U2] = (struct val_delta){1000000000, 1000000000, 0};
	}
	for (int c = 0; c < 2; c++)
		for (int e = NEV; e < NEV_ALL; e++)
			f->cv[c][e] = fake_exact(1e6);
	f->m.nevents = NEV_ALL;
	f->m.ngroups = NGRP_ALL;
	f->npanes = columns_build_panes(&f->m, true, f->panes, 8);
}

/* An off-screen UI of cols x lines: keys come from /dev/null, escape sequences go to
 * a temporary file (out) that tests can read. */
struct term {
	struct ui *u;
	FILE *in, *out;
};

static inline struct term fake_ui(int cols, int lines)
{
	struct term t = {NULL, fopen("/dev/null", "r"), tmpfile()};
	struct ui_opts o = {.color = true,
			    .in = t.in,
			    .out = t.out,
			    .term = "xterm-256color",
			    .cols = cols,
			    .lines = lines};
	char err[256] = "";
	t.u = ui_new(&o, err, sizeof(err));
	if (!t.u)
		fprintf(stderr, "ui_new: %s\n", err);
	return t;
}

static inline void fake_close(struct term *t)
{
	ui_free(t->u);
	/* The streams are the caller's: ui_free leaves them open. */
	fclose(t->in);
	fclose(t->out);
}

/* A cmocka fixture: the fake model on a screen of cols x lines, in locale loc (LC_ALL). */
struct fake_fixture {
	struct fake f;
	struct term t;
};

static inline int fake_fixture_setup_locale(void **state, int cols, int lines, const char *loc)
{
	setlocale(LC_ALL, loc);
	struct fake_fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	fake_init(&fx->f);
	fx->t = fake_ui(cols, lines);
	if (!fx->t.u)
		return -1;
	ui_set_model(fx->t.u, &fx->f.m, fx->f.panes, fx->f.npanes);
	*state = fx;
	return 0;
}

/* The fixture in the C locale. */
static inline int fake_fixture_setup(void **state, int cols, int lines)
{
	return fake_fixture_setup_locale(state, cols, lines, "C");
}

static inline int fake_fixture_teardown(void **state)
{
	struct fake_fixture *fx = *state;
	fake_close(&fx->t);
	free(fx);
	return 0;
}

static inline const char *fake_screen(struct ui *u)
{
	static char buf[SCREEN_MAX];
	ui_draw(u);
	ui_screen_text(u, buf, sizeof(buf));
	return buf;
}

static inline int fake_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Line n (0-based) of screen text into buf. */
static inline const char *fake_line(const char *s, int n, char *buf, size_t len)
{
	for (; n > 0 && s; n--) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	buf[0] = '\0';
	if (!s)
		return buf;
	size_t k = strcspn(s, "\n");
	snprintf(buf, len, "%.*s", (int)k, s);
	return buf;
}

/* Index of the first line containing needle, or -1. */
static inline int fake_find(const char *s, const char *needle)
{
	char line[2048];
	for (int n = 0; n < fake_lines(s); n++)
		if (strstr(fake_line(s, n, line, sizeof(line)), needle))
			return n;
	return -1;
}

/* Feed keys one by one; returns the last command. */
static inline struct ui_cmd fake_keys(struct ui *u, const int *keys, size_t n)
{
	struct ui_cmd cmd = {0};
	for (size_t i = 0; i < n; i++)
		ui_feed_key(u, keys[i], &cmd);
	return cmd;
}

static inline struct ui_cmd fake_key(struct ui *u, int key)
{
	return fake_keys(u, &key, 1);
}

/* Type a string into a prompt. */
static inline struct ui_cmd fake_type(struct ui *u, const char *s)
{
	struct ui_cmd cmd = {0};
	for (; *s; s++)
		ui_feed_key(u, (unsigned char)*s, &cmd);
	return cmd;
}

#endif
