/* The main view's keys that act on rows as htop's do: search (/ n N F3), tags (Space, U),
 * follow (F), quick sorts (P M T), nice (F7 F8) and the command column's sideways scroll.
 * Part of the screen module: it reads and changes struct ui (uistate.h). */
#ifndef PMUTOP_ROWKEYS_H
#define PMUTOP_ROWKEYS_H

#include <stdbool.h>

#include "ui.h"

/* Select the next row (dir 1) or the previous one (-1) whose command matches the
 * search, from the selection itself when here; false when none does. */
bool rowkeys_search(struct ui *u, int dir, bool here);
/* n, N, F3, Shift-F3: on with the last search (none yet: the prompt opens). */
void rowkeys_search_step(struct ui *u, int dir);
void rowkeys_tag(struct ui *u);
void rowkeys_untag(struct ui *u);
/* Tasks no longer in the model lose their tags (a model of process rows only). */
void rowkeys_prune_tags(struct ui *u);
bool rowkeys_tagged(const struct ui *u, pid_t id);
void rowkeys_follow(struct ui *u);
/* After the rows were made again: a followed task gone from them ends the follow. */
void rowkeys_follow_check(struct ui *u);
/* Sort by the column named name, shown first when the pane hides it (cmd tells main.c,
 * which saves the columns shown with W). */
void rowkeys_quick_sort(struct ui *u, const char *name, struct ui_cmd *cmd);
/* k, F7, F8: the processes to act on, the tagged ones or the selected one, into cmd
 * (pids, starts, npids; pid and start the first); false (and said why) when none. */
bool rowkeys_targets(struct ui *u, const char *what, struct ui_cmd *cmd);
void rowkeys_nice(struct ui *u, int key, struct ui_cmd *cmd);
void rowkeys_hscroll(struct ui *u, int key);

#endif
