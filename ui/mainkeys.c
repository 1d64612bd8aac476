/* The main view's keys: the binding table (bindings.c) names the action, the table of
 * actions here does it; the mouse on the table, its titles and the tabs. Part of the
 * screen module: it reads and changes struct ui (uistate.h). */
#include "mainkeys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "bindings.h"
#include "colors.h"
#include "detail.h"
#include "meters.h"
#include "promptkeys.h"
#include "rowkeys.h"
#include "setup.h"
#include "siglist.h"
#include "sortmenu.h"
#include "table.h"
#include "tabs.h"
#include "text.h"
#include "uistate.h"
#include "usermenu.h"

static long move_delta(const struct ui *u, int key)
{
	long page = u->page > 1 ? u->page - 1 : 1, all = (long)u->rows.n;
	switch (key) {
	case KEY_UP:
		return -1;
	case KEY_DOWN:
		return 1;
	case KEY_PPAGE:
		return -page;
	case KEY_NPAGE:
		return page;
	case KEY_HOME:
		return -all - 1;
	default:
		return all + 1;
	}
}

static void move_selection(struct ui *u, int key)
{
	rows_move(&u->rows, move_delta(u, key));
	/* Rows must not jump away from a selection on the move (htop holds them too). */
	u->freeze_until = ui_now() + UI_FREEZE_SECONDS;
	u->follow = 0; /* the user moved it: F's follow ends */
}

void mainkeys_sort_by(struct ui *u, int col)
{
	const struct pane *p = ui_pane(u);
	int cur;
	struct pane_sort *s = ui_sort(u, &cur);
	if (!p || !s || col < 0 || (unsigned)col >= p->ncols)
		return;
	snprintf(s->col, sizeof(s->col), "%s", p->cols[col].name);
	s->descending = p->cols[col].desc_first;
	ui_refresh_rows(u, true);
}

static void sort_step(struct ui *u, int step)
{
	const struct pane *p = ui_pane(u);
	int cur;
	ui_sort(u, &cur);
	if (!p || p->ncols == 0)
		return;
	int n = (int)p->ncols;
	mainkeys_sort_by(u, ((cur < 0 ? 0 : cur) + step + n) % n);
}

static void sort_reverse(struct ui *u)
{
	int cur;
	struct pane_sort *s = ui_sort(u, &cur);
	const struct pane *p = ui_pane(u);
	if (!s || !p || cur < 0)
		return;
	snprintf(s->col, sizeof(s->col), "%s", p->cols[cur].name);
	s->descending = !s->descending;
	ui_refresh_rows(u, true);
}

static void pick(struct ui *u, enum ui_pick what)
{
	u->mode = MODE_MENU;
	u->pick = what;
	if (what == PICK_SORT) {
		int cur;
		ui_sort(u, &cur);
		sortmenu_fill(&u->menu, ui_pane(u), cur);
	} else {
		usermenu_fill(&u->menu, u->m, u->have_uid, u->uid);
	}
}

void mainkeys_focus(struct ui *u, pid_t pid, struct ui_cmd *cmd)
{
	u->focus = pid;
	cmd->kind = UI_FOCUS_PID;
	cmd->pid = pid;
	ui_refresh_rows(u, true);
}

void mainkeys_mouse(struct ui *u, MEVENT ev, struct ui_cmd *cmd)
{
	cmd->kind = UI_REDRAW;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		rows_move(&u->rows, (ev.bstate & BUTTON4_PRESSED) ? -3 : 3);
		return;
	}
	int tab = (ev.bstate & BUTTON1_PRESSED) ? tabs_at(ev.y, ev.x) : -1;
	if (tab >= 0) {
		ui_switch_pane(u, (unsigned)tab);
		return;
	}
	if (!(ev.bstate & BUTTON1_PRESSED) || ev.y < u->table_y || ev.y >= u->table_y + u->table_h)
		return;
	if (ev.y == u->table_y) {
		int cur;
		struct pane_sort *s = ui_sort(u, &cur);
		struct table_view tv = {
			.m = u->m, .pane = ui_pane(u), .sort_col = cur, .hist = u->hist};
		int col = table_column_at(&tv, u->table_w, ev.x);
		if (col >= 0 && col == cur && s) {
			s->descending = !s->descending;
			ui_refresh_rows(u, true);
		} else if (col >= 0) {
			mainkeys_sort_by(u, col);
		}
		return;
	}
	size_t pos = u->rows.top + (size_t)(ev.y - u->table_y - 1);
	if (pos < u->rows.n) {
		rows_move(&u->rows, (long)pos - (long)u->rows.sel);
		u->freeze_until = ui_now() + UI_FREEZE_SECONDS;
		u->follow = 0;
	}
}

/* X and E: rows left out of the table (and said in the filter line) until pressed
 * again. */
static void hide_toggle(struct ui *u, enum bind_act act)
{
	bool *h = act == BIND_HIDE_KTHREADS ? &u->hide_kthreads : &u->hide_exited;
	*h = !*h;
	snprintf(u->msg, sizeof(u->msg), "%s %s (%c %s them)",
		 act == BIND_HIDE_KTHREADS ? "kernel threads" : "exited tasks",
		 *h ? "hidden" : "shown", act == BIND_HIDE_KTHREADS ? 'X' : 'E',
		 *h ? "shows" : "hides");
	u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
	ui_refresh_rows(u, true);
}

/* Esc in the main view undoes the narrowest thing first. */
static void escape(struct ui *u, struct ui_cmd *cmd)
{
	if (u->focus > 0) {
		u->focus = 0;
		cmd->kind = UI_UNFOCUS;
	} else if (*u->cgroup) {
		u->cgroup[0] = '\0';
	} else if (*u->filter) {
		u->filter[0] = '\0';
	} else if (u->have_uid) {
		u->have_uid = false;
	}
	ui_refresh_rows(u, true);
}

/* k: the signal menu for the selected process, or the tagged ones: every signal, the
 * selection on SIGTERM (htop's list). Its start time (the model's) goes with the pid,
 * so that a pid reused meanwhile gets nothing. */
static void pick_signal(struct ui *u)
{
	struct ui_cmd who = {0};
	if (!rowkeys_targets(u, "send a signal to", &who))
		return;
	u->pick = PICK_SIGNAL;
	u->mode = MODE_MENU;
	char title[64], comm[32];
	const struct mrow *r = rows_selected(&u->rows, u->m);
	/* Named whole, as the row shows it: the pid and its command (never raw). */
	text_sanitize(r && r->comm ? r->comm : "", comm, sizeof(comm), colors_utf8());
	if (u->ntags)
		snprintf(title, sizeof(title), "Send to %u tagged", u->ntags);
	else
		snprintf(title, sizeof(title), "Send to %d %.24s", (int)who.pid, comm);
	menu_clear(&u->menu, title);
	siglist_fill(&u->menu);
}

/* - and + on a cgroup row: its subtree folded into it (it holds their sum) or shown. */
static void fold_process(struct ui *u, pid_t pid, bool on)
{
	unsigned i = 0;
	while (i < u->nfolded && u->folded[i] != pid)
		i++;
	if (!on && i < u->nfolded)
		u->folded[i] = u->folded[--u->nfolded];
	else if (on && i == u->nfolded && i < sizeof(u->folded) / sizeof(u->folded[0]))
		u->folded[u->nfolded++] = pid;
	else if (on && i == u->nfolded)
		snprintf(u->msg, sizeof(u->msg), "too many folded processes: unfold one (+)");
	ui_refresh_rows(u, true);
}

static void fold(struct ui *u, bool on)
{
	const struct mrow *r = rows_selected(&u->rows, u->m);
	if (r && u->tree && r->kind != ROW_CGROUP && r->kind != ROW_CPU) {
		fold_process(u, r->pid, on);
		return;
	}
	if (!r || r->kind != ROW_CGROUP || !r->cgroup) {
		snprintf(u->msg, sizeof(u->msg),
			 "- and + fold the tree view (t, F5) and cgroup rows (G)");
		return;
	}
	unsigned i = 0;
	while (i < u->ncollapsed && strcmp(u->collapsed[i], r->cgroup) != 0)
		i++;
	if (!on && i < u->ncollapsed) {
		free(u->collapsed[i]);
		u->collapsed[i] = u->collapsed[--u->ncollapsed];
	} else if (on && i == u->ncollapsed) {
		char *p = u->ncollapsed < sizeof(u->collapsed) / sizeof(u->collapsed[0])
				  ? strdup(r->cgroup)
				  : NULL;
		if (!p) {
			snprintf(u->msg, sizeof(u->msg), "too many folded cgroups: unfold one (+)");
			return;
		}
		u->collapsed[u->ncollapsed++] = p;
	}
	ui_refresh_rows(u, true);
}

static void enter(struct ui *u)
{
	const struct mrow *r = rows_selected(&u->rows, u->m);
	if (r && u->tree && u->tv.over && u->rows.sel < u->rows.n && u->tv.over[u->rows.sel])
		r = u->tv.over[u->rows.sel]; /* a folded row: its subtree's sum */
	if (r && r->kind != ROW_CPU) {
		detail_open(&u->detail, r);
		u->mode = MODE_DETAIL;
	}
}

/* The main view's actions, as the binding table (bindings.c) names them: a command for
 * main.c, a function, or both (kind first, then fn); arg is the function's. */
struct main_action {
	enum bind_act act;
	enum ui_cmd_kind kind; /* UI_NONE: only fn */
	void (*fn)(struct ui *u, int key, int arg, struct ui_cmd *cmd);
	int arg;
};

static void act_pane(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	(void)cmd;
	unsigned n = u->npanes;
	if (n > 1 && (act != BIND_PANE_N || (unsigned)(key - '1') < n)) {
		ui_switch_pane(u, act == BIND_PANE_NEXT	  ? (u->pane + 1) % n
				  : act == BIND_PANE_PREV ? (u->pane + n - 1) % n
							  : (unsigned)(key - '1'));
		return;
	}
	/* Said, not ignored: there is no such pane here. */
	if (n <= 1)
		snprintf(u->msg, sizeof(u->msg), "one pane only: nothing to switch to");
	else
		snprintf(u->msg, sizeof(u->msg), "no pane %c: there are %u (1-%u)", key, n, n);
	u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
}

static void act_sort_step(struct ui *u, int key, int step, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	sort_step(u, step);
}

static void act_reverse(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	sort_reverse(u);
}

static void act_pick(struct ui *u, int key, int what, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	pick(u, (enum ui_pick)what);
}

static void act_ask(struct ui *u, int key, int what, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	promptkeys_open(u, (enum ui_ask)what);
}

static void act_detail(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	enter(u);
}

/* p; on a cgroup row it narrows to its processes (as Enter there does). */
static void act_watch_pid(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg;
	const struct mrow *r = rows_selected(&u->rows, u->m);
	if (!r || r->kind != ROW_CGROUP || !r->cgroup) {
		promptkeys_open(u, ASK_PID);
		return;
	}
	snprintf(u->cgroup, sizeof(u->cgroup), "%s", r->cgroup);
	u->filter[0] = '\0';
	cmd->kind = UI_TOGGLE_CGROUPS;
	ui_refresh_rows(u, true);
}

static void act_escape(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg;
	escape(u, cmd);
}

static void act_search_step(struct ui *u, int key, int dir, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	rowkeys_search_step(u, dir);
}

/* Space, U, F: the row actions that take the ui alone (rowkeys.c). */
static void act_row(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	if (act == BIND_TAG)
		rowkeys_tag(u);
	else if (act == BIND_UNTAG)
		rowkeys_untag(u);
	else
		rowkeys_follow(u);
}

static void act_quick_sort(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)arg;
	rowkeys_quick_sort(u, key == 'P' ? "CPU%" : "RES", cmd);
}

static void act_nice(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)arg;
	rowkeys_nice(u, key, cmd);
}

static void act_hscroll(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)arg, (void)cmd;
	rowkeys_hscroll(u, key);
}

static void act_affinity(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg;
	affinity_ask(u, cmd);
}

static void act_hide(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	hide_toggle(u, (enum bind_act)act);
}

static void act_kill(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	if (u->no_act[0])
		snprintf(u->msg, sizeof(u->msg), "%s", u->no_act);
	else
		pick_signal(u);
}

/* Z and c: what the screen shows at once, and main.c told. */
static void act_flip(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	bool *b = act == BIND_PAUSE ? &u->paused : &u->cmdline;
	*b = !*b;
}

static void act_fold(struct ui *u, int key, int on, struct ui_cmd *cmd)
{
	(void)key, (void)cmd;
	fold(u, on);
}

static void act_tree(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	u->tree = !u->tree;
	ui_refresh_rows(u, true);
}

static void act_meters(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	u->meter_mode = (u->meter_mode + 1) % METER_MODES;
}

/* t, T, b: a replay's travel; on the live screen t and T are htop's (tree, TIME+). */
static void act_travel(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	if (!u->replay[0] && act == BIND_STEP_FWD)
		act_tree(u, key, 0, cmd);
	else if (!u->replay[0] && act == BIND_STEP_BACK)
		rowkeys_quick_sort(u, "TIME+", cmd);
	else if (!u->replay[0])
		snprintf(u->msg, sizeof(u->msg), "b travels through a recording: pmutop -r FILE");
	else if (act == BIND_JUMP)
		promptkeys_open(u, ASK_TIME);
	else {
		cmd->kind = UI_STEP;
		cmd->step = act == BIND_STEP_FWD ? 1 : -1;
	}
}

static void act_play(struct ui *u, int key, int act, struct ui_cmd *cmd)
{
	if (!u->replay[0])
		snprintf(u->msg, sizeof(u->msg), "x, } and { play a recording: pmutop -r FILE");
	else if (act == BIND_SPEED)
		cmd->kind = UI_SPEED;
	else {
		cmd->kind = UI_SPIKE;
		cmd->step = key == '{' ? -1 : 1;
	}
}

static void act_events(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	setup_open(&u->setup);
	u->mode = MODE_SETUP;
}

static void act_interval(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	if (u->replay[0])
		snprintf(u->msg, sizeof(u->msg),
			 "a replay keeps the recorded intervals: Z plays, t and T step");
	else
		promptkeys_open(u, ASK_INTERVAL);
}

static void act_redraw(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)u, (void)key, (void)arg, (void)cmd;
	clearok(curscr, TRUE);
}

static void act_help(struct ui *u, int key, int arg, struct ui_cmd *cmd)
{
	(void)key, (void)arg, (void)cmd;
	u->mode = MODE_HELP;
	u->help_top = 0;
}

static const struct main_action main_actions[] = {
	{BIND_PANE_NEXT, UI_NONE, act_pane, BIND_PANE_NEXT},
	{BIND_PANE_PREV, UI_NONE, act_pane, BIND_PANE_PREV},
	{BIND_PANE_N, UI_NONE, act_pane, BIND_PANE_N},
	{BIND_SORT_PREV, UI_NONE, act_sort_step, -1},
	{BIND_SORT_NEXT, UI_NONE, act_sort_step, 1},
	{BIND_SORT_MENU, UI_NONE, act_pick, PICK_SORT},
	{BIND_REVERSE, UI_NONE, act_reverse, 0},
	{BIND_DETAIL, UI_NONE, act_detail, 0},
	{BIND_WATCH_PID, UI_NONE, act_watch_pid, 0},
	{BIND_ESCAPE, UI_NONE, act_escape, 0},
	{BIND_FILTER, UI_NONE, act_ask, ASK_FILTER},
	{BIND_SEARCH, UI_NONE, act_ask, ASK_SEARCH},
	{BIND_SEARCH_NEXT, UI_NONE, act_search_step, 1},
	{BIND_SEARCH_PREV, UI_NONE, act_search_step, -1},
	{BIND_TAG, UI_NONE, act_row, BIND_TAG},
	{BIND_UNTAG, UI_NONE, act_row, BIND_UNTAG},
	{BIND_FOLLOW, UI_NONE, act_row, BIND_FOLLOW},
	{BIND_QUICK_SORT, UI_NONE, act_quick_sort, 0},
	{BIND_NICE, UI_NONE, act_nice, 0},
	{BIND_HSCROLL, UI_NONE, act_hscroll, 0},
	{BIND_USER, UI_NONE, act_pick, PICK_USER},
	{BIND_THREADS, UI_TOGGLE_THREADS, NULL, 0},
	{BIND_AFFINITY, UI_NONE, act_affinity, 0},
	{BIND_HIDE_KTHREADS, UI_NONE, act_hide, BIND_HIDE_KTHREADS},
	{BIND_HIDE_EXITED, UI_NONE, act_hide, BIND_HIDE_EXITED},
	{BIND_CGROUPS, UI_TOGGLE_CGROUPS, NULL, 0},
	{BIND_KILL, UI_NONE, act_kill, 0},
	{BIND_KERNEL, UI_TOGGLE_KERNEL, NULL, 0},
	{BIND_PAUSE, UI_TOGGLE_PAUSE, act_flip, BIND_PAUSE},
	{BIND_CMDLINE, UI_TOGGLE_CMDLINE, act_flip, BIND_CMDLINE},
	{BIND_OUTPUT, UI_SHOW_OUTPUT, NULL, 0},
	{BIND_FOLD, UI_NONE, act_fold, true},
	{BIND_UNFOLD, UI_NONE, act_fold, false},
	{BIND_TREE, UI_NONE, act_tree, 0},
	{BIND_METERS, UI_NONE, act_meters, 0},
	{BIND_STEP_FWD, UI_NONE, act_travel, BIND_STEP_FWD},
	{BIND_STEP_BACK, UI_NONE, act_travel, BIND_STEP_BACK},
	{BIND_JUMP, UI_NONE, act_travel, BIND_JUMP},
	{BIND_SPEED, UI_NONE, act_play, BIND_SPEED},
	{BIND_SPIKE, UI_NONE, act_play, BIND_SPIKE},
	{BIND_EVENTS, UI_NONE, act_events, 0},
	{BIND_SAVE, UI_SAVE_CONFIG, NULL, 0},
	{BIND_INTERVAL, UI_NONE, act_interval, 0},
	{BIND_REDRAW, UI_NONE, act_redraw, 0},
	{BIND_HELP, UI_NONE, act_help, 0},
	{BIND_QUIT, UI_QUIT, NULL, 0},
};

void mainkeys_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	const struct binding *b = bindings_find(BIND_MODE_MAIN, key);
	enum bind_act act = b ? b->act : BIND_NONE;
	if (act == BIND_MOVE) {
		move_selection(u, key);
		cmd->kind = UI_REDRAW;
		return;
	}
	if (u->freeze_until > 0) {
		/* Any other key ends the hold: show the true order again. */
		u->freeze_until = 0;
		ui_refresh_rows(u, true);
	}
	cmd->kind = UI_REDRAW;
	if (act == BIND_NONE) {
		/* Said, not ignored: the key a user expected to do something. */
		snprintf(u->msg, sizeof(u->msg), "unknown key: h for help");
		u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
		return;
	}
	for (size_t i = 0; i < sizeof(main_actions) / sizeof(main_actions[0]); i++) {
		const struct main_action *a = &main_actions[i];
		if (a->act != act)
			continue;
		if (a->kind != UI_NONE)
			cmd->kind = a->kind;
		if (a->fn)
			a->fn(u, key, a->arg, cmd);
		return;
	}
	/* Another mode's action (the detail view's Enter and Esc): nothing here. */
}
