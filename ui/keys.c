/* Keys: one handler per mode (help, menu, events setup, detail here; the main view's
 * in mainkeys.c, the prompts' in promptkeys.c, the events setup's own in setupkeys.c).
 * Keys the UI can act on alone change its state and ask for a redraw; the rest become
 * commands for main.c. */
#include "keys.h"

#include <stdio.h>

#include "affinity.h"
#include "bindings.h"
#include "detail.h"
#include "keybar.h"
#include "mainkeys.h"
#include "promptkeys.h"
#include "setup.h"
#include "setupkeys.h"
#include "usermenu.h"
#include "uistate.h"

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
		mainkeys_sort_by(u, (int)v);
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
		mainkeys_key(u, key, cmd);
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
		mainkeys_focus(u, d->pid, cmd);
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
		promptkeys_key(u, key, cmd);
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
			mainkeys_mouse(u, ev, cmd);
		else
			mainkeys_key(u, key, cmd);
		break;
	}
	if (had_msg && cmd->kind == UI_NONE)
		cmd->kind = UI_REDRAW;
}
