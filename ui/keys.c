/* Keys: one handler per mode (main, help, prompt, menu; the events setup's are in
 * setupkeys.c). Keys the UI can act on alone
 * change its state and ask for a redraw; the rest become commands for main.c. */
#include "keys.h"

#include <errno.h>
#include <signal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "bindings.h"
#include "keybar.h"
#include "colors.h"
#include "detail.h"
#include "interval.h"
#include "meters.h"
#include "rowkeys.h"
#include "setup.h"
#include "setupkeys.h"
#include "siglist.h"
#include "sortmenu.h"
#include "table.h"
#include "tabs.h"
#include "text.h"
#include "uistate.h"
#include "usermenu.h"

#define KEY_ESC 27
#define CTRL(c) ((c)&0x1f)

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

/* Set the active pane's sort column; its natural direction comes with it. */
static void sort_by(struct ui *u, int col)
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
	sort_by(u, ((cur < 0 ? 0 : cur) + step + n) % n);
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

static void ask(struct ui *u, enum ui_ask what)
{
	char init[32] = "";
	u->mode = MODE_PROMPT;
	u->ask = what;
	switch (what) {
	case ASK_FILTER:
		prompt_open(&u->prompt, "Filter:", u->filter);
		break;
	case ASK_INTERVAL:
		if (u->m)
			snprintf(init, sizeof(init), "%g", u->m->interval);
		prompt_offer(&u->prompt, "Interval (seconds, 0.1-3600):", init);
		break;
	case ASK_PID:
		prompt_open(&u->prompt, "Watch PID:", "");
		break;
	case ASK_TIME:
		prompt_open(&u->prompt, "Jump to (HH:MM[:SS], -10m, +1h):", "");
		break;
	case ASK_SEARCH:
		/* The last search offered: Enter takes it, a key typed starts anew. */
		prompt_offer(&u->prompt, "Search:", u->search);
		break;
	}
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

static void focus(struct ui *u, pid_t pid, struct ui_cmd *cmd)
{
	u->focus = pid;
	cmd->kind = UI_FOCUS_PID;
	cmd->pid = pid;
	ui_refresh_rows(u, true);
}

/* The mouse, as htop: a click on a column title sorts by it (again: the other way), on a
 * row selects it, on a pane's tab shows it; the wheel moves three rows. */
static void mouse(struct ui *u, MEVENT ev, struct ui_cmd *cmd)
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
			sort_by(u, col);
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

/* A main-view key, as the binding table (bindings.c) maps it. */
static void main_key(struct ui *u, int key, struct ui_cmd *cmd)
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
	unsigned n = u->npanes;
	cmd->kind = UI_REDRAW;
	switch (act) {
	case BIND_PANE_NEXT:
	case BIND_PANE_PREV:
	case BIND_PANE_N:
		if (n <= 1 || (act == BIND_PANE_N && (unsigned)(key - '1') >= n)) {
			/* Said, not ignored: there is no such pane here. */
			if (n <= 1)
				snprintf(u->msg, sizeof(u->msg),
					 "one pane only: nothing to switch to");
			else
				snprintf(u->msg, sizeof(u->msg), "no pane %c: there are %u (1-%u)",
					 key, n, n);
			u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
		} else
			ui_switch_pane(u, act == BIND_PANE_NEXT	  ? (u->pane + 1) % n
					  : act == BIND_PANE_PREV ? (u->pane + n - 1) % n
								  : (unsigned)(key - '1'));
		break;
	case BIND_SORT_PREV:
	case BIND_SORT_NEXT:
		sort_step(u, act == BIND_SORT_PREV ? -1 : 1);
		break;
	case BIND_SORT_MENU:
		pick(u, PICK_SORT);
		break;
	case BIND_REVERSE:
		sort_reverse(u);
		break;
	case BIND_DETAIL:
		enter(u);
		break;
	case BIND_WATCH_PID: {
		/* On a cgroup row, p narrows to its processes (as Enter there does). */
		const struct mrow *r = rows_selected(&u->rows, u->m);
		if (r && r->kind == ROW_CGROUP && r->cgroup) {
			snprintf(u->cgroup, sizeof(u->cgroup), "%s", r->cgroup);
			u->filter[0] = '\0';
			cmd->kind = UI_TOGGLE_CGROUPS;
			ui_refresh_rows(u, true);
		} else {
			ask(u, ASK_PID);
		}
		break;
	}
	case BIND_ESCAPE:
		escape(u, cmd);
		break;
	case BIND_FILTER:
		ask(u, ASK_FILTER);
		break;
	case BIND_SEARCH:
		ask(u, ASK_SEARCH);
		break;
	case BIND_SEARCH_NEXT:
	case BIND_SEARCH_PREV:
		rowkeys_search_step(u, act == BIND_SEARCH_NEXT ? 1 : -1);
		break;
	case BIND_TAG:
		rowkeys_tag(u);
		break;
	case BIND_UNTAG:
		rowkeys_untag(u);
		break;
	case BIND_FOLLOW:
		rowkeys_follow(u);
		break;
	case BIND_QUICK_SORT:
		rowkeys_quick_sort(u, key == 'P' ? "CPU%" : "RES", cmd);
		break;
	case BIND_NICE:
		rowkeys_nice(u, key, cmd);
		break;
	case BIND_HSCROLL:
		rowkeys_hscroll(u, key);
		break;
	case BIND_USER:
		pick(u, PICK_USER);
		break;
	case BIND_THREADS:
		cmd->kind = UI_TOGGLE_THREADS;
		break;
	case BIND_AFFINITY:
		affinity_ask(u, cmd);
		break;
	case BIND_HIDE_KTHREADS:
	case BIND_HIDE_EXITED:
		hide_toggle(u, act);
		break;
	case BIND_CGROUPS:
		cmd->kind = UI_TOGGLE_CGROUPS;
		break;
	case BIND_KILL:
		if (u->replay[0])
			snprintf(u->msg, sizeof(u->msg),
				 "a replay sends no signals: it shows a recording");
		else
			pick_signal(u);
		break;
	case BIND_KERNEL:
		cmd->kind = UI_TOGGLE_KERNEL;
		break;
	case BIND_PAUSE:
		u->paused = !u->paused;
		cmd->kind = UI_TOGGLE_PAUSE;
		break;
	case BIND_CMDLINE:
		u->cmdline = !u->cmdline;
		cmd->kind = UI_TOGGLE_CMDLINE;
		break;
	case BIND_OUTPUT:
		cmd->kind = UI_SHOW_OUTPUT;
		break;
	case BIND_FOLD:
	case BIND_UNFOLD:
		fold(u, act == BIND_FOLD);
		break;
	case BIND_TREE:
		u->tree = !u->tree;
		ui_refresh_rows(u, true);
		break;
	case BIND_METERS:
		u->meter_mode = (u->meter_mode + 1) % METER_MODES;
		break;
	case BIND_STEP_FWD:
	case BIND_STEP_BACK:
	case BIND_JUMP:
		if (!u->replay[0] && act == BIND_STEP_FWD) {
			u->tree = !u->tree; /* htop's t */
			ui_refresh_rows(u, true);
		} else if (!u->replay[0] && act == BIND_STEP_BACK) {
			rowkeys_quick_sort(u, "TIME+", cmd); /* htop's T */
		} else if (!u->replay[0])
			snprintf(u->msg, sizeof(u->msg),
				 "b travels through a recording: pmutop -r FILE");
		else if (act == BIND_JUMP)
			ask(u, ASK_TIME);
		else {
			cmd->kind = UI_STEP;
			cmd->step = act == BIND_STEP_FWD ? 1 : -1;
		}
		break;
	case BIND_SPEED:
	case BIND_SPIKE:
		if (!u->replay[0])
			snprintf(u->msg, sizeof(u->msg),
				 "x, } and { play a recording: pmutop -r FILE");
		else if (act == BIND_SPEED)
			cmd->kind = UI_SPEED;
		else {
			cmd->kind = UI_SPIKE;
			cmd->step = key == '{' ? -1 : 1;
		}
		break;
	case BIND_EVENTS:
		setup_open(&u->setup);
		u->mode = MODE_SETUP;
		break;
	case BIND_SAVE:
		cmd->kind = UI_SAVE_CONFIG;
		break;
	case BIND_INTERVAL:
		if (u->replay[0])
			snprintf(u->msg, sizeof(u->msg),
				 "a replay keeps the recorded intervals: Z plays, t and T step");
		else
			ask(u, ASK_INTERVAL);
		break;
	case BIND_REDRAW:
		clearok(curscr, TRUE);
		break;
	case BIND_HELP:
		u->mode = MODE_HELP;
		u->help_top = 0;
		break;
	case BIND_QUIT:
		cmd->kind = UI_QUIT;
		break;
	case BIND_MOVE: /* done above */
		break;
	case BIND_NONE:
		/* Said, not ignored: the key a user expected to do something. */
		snprintf(u->msg, sizeof(u->msg), "unknown key: h for help");
		u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
		break;
	default: /* another mode's action (the detail view's Enter and Esc) */
		break;
	}
}

static void help_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	int page = LINES > 3 ? LINES - 2 : 1;
	const struct binding *b = bindings_find(BIND_MODE_HELP, key);
	switch (b ? b->act : BIND_BACK) {
	case BIND_MOVE:
		if (key == KEY_HOME)
			u->help_top = 0;
		else if (key == KEY_END)
			u->help_top = 1 << 20; /* help_draw clamps it to the last page */
		else
			u->help_top += key == KEY_UP	  ? -1
				       : key == KEY_DOWN  ? 1
				       : key == KEY_PPAGE ? -page
							  : page; /* PgDn, Space */
		break;
	case BIND_QUIT:
		cmd->kind = UI_QUIT;
		return;
	default:
		u->mode = MODE_MAIN; /* Esc, q, h, ?, and any key without a use: back, as htop */
		break;
	}
	if (u->help_top < 0)
		u->help_top = 0;
	cmd->kind = UI_REDRAW;
}

static void bad_input(struct ui *u, const char *what, const char *hint)
{
	char clean[PROMPT_MAX];
	text_sanitize(u->prompt.text, clean, sizeof(clean), colors_utf8());
	snprintf(u->msg, sizeof(u->msg), "Not %.16s: '%.64s' (%.48s)", what, clean, hint);
}

/* A task worth a look: one the model shows, or a live one (kill(pid, 0) fails
 * with ESRCH only when there is none; EPERM means it is someone else's). */
static bool pid_exists(const struct ui *u, pid_t pid)
{
	for (unsigned i = 0; u->m && i < u->m->nrows; i++)
		if (u->m->rows[i].pid == pid || u->m->rows[i].tid == pid)
			return true;
	return !(kill(pid, 0) == -1 && errno == ESRCH);
}

/* The process a task id belongs to, as the model's thread rows say (the id itself when
 * they do not: the app asks /proc when it focuses, ui_focus_refused). */
static pid_t process_of(const struct ui *u, pid_t tid)
{
	for (unsigned i = 0; u->m && i < u->m->nrows; i++)
		if (u->m->rows[i].kind == ROW_THREAD && u->m->rows[i].tid == tid)
			return u->m->rows[i].pid;
	return tid;
}

static void prompt_done(struct ui *u, struct ui_cmd *cmd)
{
	double iv;
	pid_t pid;
	switch (u->ask) {
	case ASK_FILTER:
		break;
	case ASK_SEARCH:
		/* The last search taken as offered: on to its next match, as n. */
		if (u->prompt.offered && !rowkeys_search(u, 1, false))
			snprintf(u->msg, sizeof(u->msg), "no row matches the search");
		break;
	case ASK_TIME:
		cmd->kind = UI_JUMP;
		cmd->spec = u->prompt.text;
		break;
	case ASK_INTERVAL:
		if (interval_parse(u->prompt.text, &iv) != 0) { /* as -d takes it */
			bad_input(u, "an interval", "give seconds from 0.1 to 3600");
			break;
		}
		cmd->kind = UI_SET_INTERVAL;
		cmd->interval = iv;
		break;
	case ASK_PID:
		if (!prompt_parse_pid(u->prompt.text, &pid)) {
			bad_input(u, "a PID", "give a process id above 0");
			break;
		}
		if (!pid_exists(u, pid)) {
			/* Stay on what was shown: nothing to watch there. */
			snprintf(u->msg, sizeof(u->msg), "no such process %d", (int)pid);
			break;
		}
		pid_t tgid = process_of(u, pid);
		if (tgid != pid) {
			/* As -p says: a thread's row would be only part of its process. */
			snprintf(u->msg, sizeof(u->msg), "%d is a thread of process %d: use p %d",
				 (int)pid, (int)tgid, (int)tgid);
			break;
		}
		focus(u, pid, cmd);
		break;
	}
}

/* The search prompt: the selection follows every keystroke, F3 and Shift-F3 go on to
 * the next or previous match; the prompt says when nothing matches. */
static void search_key(struct ui *u, enum prompt_res r, int key)
{
	bool found = true;
	if (key == KEY_F(3) || key == KEY_F(15))
		found = rowkeys_search(u, key == KEY_F(3) ? 1 : -1, false);
	else if (r == PROMPT_CHANGED) {
		snprintf(u->search, sizeof(u->search), "%s", u->prompt.text);
		found = !*u->search || rowkeys_search(u, 1, true);
	}
	snprintf(u->prompt.label, sizeof(u->prompt.label), "%s",
		 found ? "Search:" : "Search (no match):");
}

static void prompt_mode_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	enum prompt_res r = prompt_key(&u->prompt, key);
	if (u->ask == ASK_SEARCH && (r == PROMPT_CHANGED || key == KEY_F(3) || key == KEY_F(15))) {
		search_key(u, r, key);
		cmd->kind = UI_REDRAW;
		return;
	}
	if (r == PROMPT_CHANGED && u->ask == ASK_FILTER) {
		/* Incremental: the table follows every keystroke. */
		snprintf(u->filter, sizeof(u->filter), "%s", u->prompt.text);
		ui_refresh_rows(u, true);
	} else if (r == PROMPT_ACCEPT) {
		u->mode = MODE_MAIN;
		prompt_done(u, cmd);
	} else if (r == PROMPT_CANCEL) {
		u->mode = MODE_MAIN;
		if (u->ask == ASK_FILTER) {
			u->filter[0] = '\0';
			ui_refresh_rows(u, true);
		}
	}
	if (cmd->kind == UI_NONE && r != PROMPT_IGNORED)
		cmd->kind = UI_REDRAW;
}

static void menu_mode_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	if (u->pick == PICK_AFFINITY && affinity_key(u, key, cmd))
		return;
	enum menu_res r = menu_key(&u->menu, key);
	cmd->kind = UI_REDRAW;
	if (r == MENU_STAY)
		return;
	u->mode = MODE_MAIN;
	if (r == MENU_CANCEL)
		return;
	long v = menu_value(&u->menu);
	if (u->pick == PICK_SIGNAL) {
		cmd->kind = UI_SIGNAL;
		cmd->sig = (int)v;
		cmd->pids = u->ntags ? u->tag_ids : &u->kill_pid;
		cmd->starts = u->ntags ? u->tag_starts : &u->kill_start;
		cmd->npids = u->ntags ? u->ntags : 1;
		cmd->pid = cmd->pids[0];
		cmd->start = cmd->starts[0];
		return;
	}
	if (u->pick == PICK_SORT) {
		sort_by(u, (int)v);
		return;
	}
	u->have_uid = v != USERMENU_ALL;
	u->uid = u->have_uid ? (uid_t)v : 0;
	ui_refresh_rows(u, true);
}

/* A key of the events setup: its state changes there, the rest is done here. */
static void setup_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct setup_in in = ui_setup_in(u);
	struct setup_res r;
	setupkeys_handle(&u->setup, &in, key, &r);
	if (r.msg)
		snprintf(u->msg, sizeof(u->msg), "%s", r.msg);
	if (r.close)
		u->mode = MODE_MAIN;
	if (r.events_pane)
		snprintf(u->want_pane, sizeof(u->want_pane), "Events");
	cmd->kind = UI_REDRAW;
	switch (r.cmd) {
	case SETUP_CMD_QUIT:
		cmd->kind = UI_QUIT;
		break;
	case SETUP_CMD_SAVE:
		cmd->kind = UI_SAVE_CONFIG;
		break;
	case SETUP_CMD_EVENTS:
		cmd->kind = UI_SET_EVENTS;
		cmd->spec = r.spec;
		break;
	case SETUP_CMD_METRICS:
		cmd->kind = UI_SET_METRICS;
		cmd->metrics = r.metrics;
		cmd->nmetrics = r.nmetrics;
		break;
	case SETUP_CMD_COLUMNS:
		/* The table follows at once; main.c hears of it to save it. */
		ui_set_columns(u, u->panes[u->pane].name, r.columns);
		cmd->kind = UI_SET_COLUMNS;
		cmd->spec = u->pane_name;
		cmd->columns = ui_columns(u, u->pane_name);
		break;
	case SETUP_CMD_NONE:
		break;
	}
}

/* A key of a row's detail view: what it does not take is the main view's. */
static void detail_mode_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	struct detail *d = &u->detail;
	cmd->kind = UI_REDRAW;
	const struct binding *b = bindings_find(BIND_MODE_DETAIL, key);
	bool travel = b && (b->act == BIND_STEP_FWD || b->act == BIND_STEP_BACK ||
			    b->act == BIND_JUMP || b->act == BIND_SPEED || b->act == BIND_SPIKE);
	switch (travel && !u->replay[0] ? DETAIL_UNKNOWN : detail_key(d, key)) {
	case DETAIL_PASS:
		main_key(u, key, cmd);
		break;
	case DETAIL_STAY:
		break;
	case DETAIL_UNKNOWN:
		snprintf(u->msg, sizeof(u->msg), "unknown key here: Esc goes back, h for help");
		u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
		break;
	case DETAIL_BACK:
		u->mode = MODE_MAIN;
		break;
	case DETAIL_WATCH_CGROUP:
		u->mode = MODE_MAIN;
		snprintf(u->cgroup, sizeof(u->cgroup), "%s", d->cgroup);
		u->filter[0] = '\0'; /* it chose among cgroup names */
		cmd->kind = UI_TOGGLE_CGROUPS;
		ui_refresh_rows(u, true);
		break;
	case DETAIL_NO_PROCESS:
		snprintf(u->msg, sizeof(u->msg), "no process to watch here");
		break;
	case DETAIL_WATCH_PID:
		u->mode = MODE_MAIN;
		focus(u, d->pid, cmd);
		break;
	}
}

void keys_handle(struct ui *u, int key, struct ui_cmd *cmd)
{
	bool had_msg = *u->msg;
	u->msg[0] = '\0';
	u->msg_until = 0;
	if (key == KEY_RESIZE) {
		ui_resize(u);
		cmd->kind = UI_REDRAW;
		return;
	}
	MEVENT ev = {0};
	bool have_mev = u->have_mev;
	u->have_mev = false;
	if (key == KEY_MOUSE && u->mode != MODE_PROMPT) {
		if (have_mev)
			ev = u->mev; /* decoded from what the terminal sent (ui_input) */
		else if (getmouse(&ev) != OK)
			return;
		/* A click on a key bar label presses its key, in every mode that has a bar. */
		int k = (ev.bstate & BUTTON1_PRESSED) ? keybar_key_at(ev.y, ev.x) : 0;
		if (k) {
			keys_handle(u, k, cmd);
			if (had_msg && cmd->kind == UI_NONE)
				cmd->kind = UI_REDRAW;
			return;
		}
		if (u->mode != MODE_MAIN) {
			if (had_msg)
				cmd->kind = UI_REDRAW;
			return;
		}
	}
	switch (u->mode) {
	case MODE_HELP:
		help_key(u, key, cmd);
		break;
	case MODE_PROMPT:
		prompt_mode_key(u, key, cmd);
		break;
	case MODE_MENU:
		menu_mode_key(u, key, cmd);
		break;
	case MODE_SETUP:
		setup_key(u, key, cmd);
		break;
	case MODE_DETAIL:
		detail_mode_key(u, key, cmd);
		break;
	case MODE_MAIN:
		if (key == KEY_MOUSE)
			mouse(u, ev, cmd);
		else
			main_key(u, key, cmd);
		break;
	}
	if (had_msg && cmd->kind == UI_NONE)
		cmd->kind = UI_REDRAW;
}
