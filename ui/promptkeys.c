/* The main view's prompts (filter, search, PID, interval, replay time): opening one,
 * its keys, and what is done with the text. Part of the screen module: it reads and
 * changes struct ui (uistate.h). */
#include "promptkeys.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "colors.h"
#include "interval.h"
#include "mainkeys.h"
#include "rowkeys.h"
#include "text.h"
#include "uistate.h"

void promptkeys_open(struct ui *u, enum ui_ask what)
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
		mainkeys_focus(u, pid, cmd);
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

void promptkeys_key(struct ui *u, int key, struct ui_cmd *cmd)
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
