/* htop's keys on rows: search, tags, follow, quick sorts, nice, sideways scroll. */
#include "rowkeys.h"

#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "sort.h"
#include "text.h"
#include "uistate.h"

#define CTRL(c) ((c)&0x1f)
#define HSCROLL_STEP 8
#define HSCROLL_MAX 4096 /* a command line as the sources read it, at most */

/* A message quoting arg (typed by the user: sanitised) between two texts. */
static void say(struct ui *u, const char *before, const char *arg, const char *after)
{
	char clean[PROMPT_MAX];
	text_sanitize(arg ? arg : "", clean, sizeof(clean), colors_utf8());
	snprintf(u->msg, sizeof(u->msg), "%s%.64s%s", before, clean, after);
}

/* The row shown at pos: a folded tree row is its subtree's sum. */
static const struct mrow *row_at(const struct ui *u, size_t pos)
{
	if (u->tree && u->tv.over && u->tv.over[pos])
		return u->tv.over[pos];
	return &u->m->rows[u->rows.idx[pos]];
}

/* The selection moved by a key other than the arrows: as a move, the order holds
 * still a moment, and a follow ends. */
static void select_pos(struct ui *u, size_t pos)
{
	rows_move(&u->rows, (long)pos - (long)u->rows.sel);
	u->freeze_until = ui_now() + UI_FREEZE_SECONDS;
	u->follow = 0;
}

bool rowkeys_search(struct ui *u, int dir, bool here)
{
	size_t n = u->rows.n;
	if (!*u->search || !n || !u->m)
		return false;
	for (size_t k = here ? 0 : 1; k < n + (here ? 0 : 1); k++) {
		size_t step = k % n;
		size_t pos = dir > 0 ? (u->rows.sel + step) % n : (u->rows.sel + n - step) % n;
		if (sort_row_matches(row_at(u, pos), u->search, u->cmdline)) {
			select_pos(u, pos);
			return true;
		}
	}
	return false;
}

void rowkeys_search_step(struct ui *u, int dir)
{
	if (!*u->search) {
		u->mode = MODE_PROMPT;
		u->ask = ASK_SEARCH;
		prompt_open(&u->prompt, "Search:", "");
		return;
	}
	if (!rowkeys_search(u, dir, false))
		say(u, "no row matches the search '", u->search, "' (/ searches again)");
}

static int tag_find(const struct ui *u, pid_t id)
{
	for (unsigned i = 0; i < u->ntags; i++)
		if (u->tag_ids[i] == id)
			return (int)i;
	return -1;
}

bool rowkeys_tagged(const struct ui *u, pid_t id)
{
	return tag_find(u, id) >= 0;
}

static void untag_at(struct ui *u, unsigned i)
{
	u->ntags--;
	u->tag_ids[i] = u->tag_ids[u->ntags];
	u->tag_starts[i] = u->tag_starts[u->ntags];
}

/* Space, as htop's: tag or untag the selected task, then the next row. */
void rowkeys_tag(struct ui *u)
{
	const struct mrow *r = u->rows.n ? row_at(u, u->rows.sel) : NULL;
	if (!r || (r->kind != ROW_PROC && r->kind != ROW_THREAD) || r->pid <= 0) {
		snprintf(u->msg, sizeof(u->msg), "Space tags processes: this row is none");
		return;
	}
	pid_t id = r->kind == ROW_THREAD ? r->tid : r->pid;
	int i = tag_find(u, id);
	if (i >= 0) {
		untag_at(u, (unsigned)i);
	} else if (u->ntags == UI_MAX_TAGS) {
		snprintf(u->msg, sizeof(u->msg), "%d tasks tagged already: U untags them",
			 UI_MAX_TAGS);
		return;
	} else {
		u->tag_ids[u->ntags] = id;
		/* A thread's start is not its process's: an id alive is all k can check. */
		u->tag_starts[u->ntags++] = r->kind == ROW_PROC ? r->start_ticks : 0;
	}
	if (u->rows.sel + 1 < u->rows.n)
		select_pos(u, u->rows.sel + 1);
}

void rowkeys_untag(struct ui *u)
{
	if (!u->ntags)
		snprintf(u->msg, sizeof(u->msg), "nothing is tagged (Space tags a process)");
	u->ntags = 0;
}

void rowkeys_prune_tags(struct ui *u)
{
	const struct model *m = u->m;
	bool procs = false;
	for (unsigned i = 0; m && i < m->nrows && !procs; i++)
		procs = m->rows[i].kind == ROW_PROC;
	if (!procs) /* cgroup rows, or nothing yet: the tasks are not in sight */
		return;
	for (unsigned t = u->ntags; t-- > 0;) {
		bool alive = false;
		for (unsigned i = 0; i < m->nrows && !alive; i++) {
			const struct mrow *r = &m->rows[i];
			pid_t id = r->kind == ROW_THREAD ? r->tid : r->pid;
			alive = (r->kind == ROW_PROC || r->kind == ROW_THREAD) &&
				id == u->tag_ids[t] && !r->exited;
		}
		if (!alive)
			untag_at(u, t);
	}
}

void rowkeys_follow(struct ui *u)
{
	if (u->follow) {
		snprintf(u->msg, sizeof(u->msg), "no longer following %d", (int)u->follow);
		u->follow = 0;
		return;
	}
	const struct mrow *r = u->rows.n ? row_at(u, u->rows.sel) : NULL;
	if (!r || (r->kind != ROW_PROC && r->kind != ROW_THREAD) || r->pid <= 0) {
		snprintf(u->msg, sizeof(u->msg), "F follows a process: select one first");
		return;
	}
	pid_t id = r->kind == ROW_THREAD ? r->tid : r->pid;
	if (r->exited) { /* its row goes at the next tick */
		snprintf(u->msg, sizeof(u->msg), "F: %d has exited: nothing to follow", (int)id);
		return;
	}
	u->follow = id;
	rows_pin(&u->rows); /* the selection goes where its row goes */
	u->follow_row = u->rows.sel_id;
	u->freeze_until = 0; /* the rows re-sort under it at once */
}

void rowkeys_follow_check(struct ui *u)
{
	const struct rowid *a = &u->rows.sel_id, *b = &u->follow_row;
	if (!u->follow || (u->rows.n && a->kind == b->kind && a->pid == b->pid && a->tid == b->tid))
		return;
	snprintf(u->msg, sizeof(u->msg), "%d is no longer listed: follow ended", (int)u->follow);
	u->msg_until = ui_now() + UI_MESSAGE_SECONDS;
	u->follow = 0;
}

void rowkeys_quick_sort(struct ui *u, const char *name, struct ui_cmd *cmd)
{
	const struct pane *p = ui_pane(u);
	if (!p)
		return;
	int c = pane_find_column(p, name);
	if (c < 0) {
		/* Hidden here: shown, as if chosen in the column chooser (W saves it). */
		if (pane_find_column(&u->full_panes[u->pane], name) < 0) {
			snprintf(u->msg, sizeof(u->msg), "the %.32s pane has no %.16s column",
				 p->name, name);
			return;
		}
		char list[512];
		pane_column_list(p, list, sizeof(list));
		size_t n = strlen(list);
		snprintf(list + n, sizeof(list) - n, "%s%s", n ? "," : "", name);
		ui_set_columns(u, u->pane_name, list);
		cmd->kind = UI_SET_COLUMNS;
		cmd->spec = u->pane_name;
		cmd->columns = ui_columns(u, u->pane_name);
		snprintf(u->msg, sizeof(u->msg),
			 "%.16s shown to sort by it (e, Columns hides it again)", name);
		p = ui_pane(u);
		c = pane_find_column(p, name);
		if (c < 0)
			return;
	}
	int cur;
	struct pane_sort *s = ui_sort(u, &cur);
	if (!s)
		return;
	snprintf(s->col, sizeof(s->col), "%s", p->cols[c].name);
	s->descending = p->cols[c].desc_first;
	ui_refresh_rows(u, true);
}

bool rowkeys_targets(struct ui *u, const char *what, struct ui_cmd *cmd)
{
	if (u->ntags) {
		cmd->pids = u->tag_ids;
		cmd->starts = u->tag_starts;
		cmd->npids = u->ntags;
	} else {
		const struct mrow *r = rows_selected(&u->rows, u->m);
		if (!r || (r->kind != ROW_PROC && r->kind != ROW_THREAD) || r->pid <= 0 ||
		    r->exited) {
			say(u, "no process selected to ", what, "");
			return false;
		}
		u->kill_pid = r->pid;
		u->kill_start = r->start_ticks;
		cmd->pids = &u->kill_pid;
		cmd->starts = &u->kill_start;
		cmd->npids = 1;
	}
	cmd->pid = cmd->pids[0];
	cmd->start = cmd->starts[0];
	return true;
}

void rowkeys_nice(struct ui *u, int key, struct ui_cmd *cmd)
{
	if (u->no_act[0]) {
		snprintf(u->msg, sizeof(u->msg), "%s", u->no_act);
		return;
	}
	if (!rowkeys_targets(u, "renice", cmd))
		return;
	cmd->kind = UI_RENICE;
	cmd->step = key == KEY_F(7) ? -1 : 1;
}

void rowkeys_hscroll(struct ui *u, int key)
{
	if (key == CTRL('f'))
		u->hscroll += HSCROLL_STEP;
	else if (key == CTRL('b'))
		u->hscroll -= HSCROLL_STEP;
	else
		u->hscroll = 0;
	u->hscroll = u->hscroll < 0 ? 0 : u->hscroll > HSCROLL_MAX ? HSCROLL_MAX : u->hscroll;
}
