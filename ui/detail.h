/* A row's detail view (Enter): who it is, one chart per derived metric over the history
 * kept for it, the events behind each, and a process's threads with their trends. */
#ifndef PMUTOP_DETAIL_H
#define PMUTOP_DETAIL_H

#include <stdbool.h>
#include <sys/types.h>

#include "model.h"

struct ui;
struct ui_cmd;

/* Whose detail is shown: a row's identity, which outlives the model it came from. */
struct detail {
	enum row_kind kind;
	pid_t pid, tid;
	char cgroup[512];
	int top;   /* first line shown (scrolling) */
	int lines; /* lines of the last draw, and the room they had */
	int room;
};

/* Open the view on row r (from the table's selection). */
void detail_open(struct ui *u, const struct mrow *r);
/* Draw it in lines y .. y + h - 1 of a screen w wide. */
void detail_draw(struct ui *u, int y, int h, int w);
/* A key in the view; keys it does not take itself come back as false. */
bool detail_key(struct ui *u, int key, struct ui_cmd *cmd);

#endif
