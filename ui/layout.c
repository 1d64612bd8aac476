/* The screen from top to bottom: header, CPU meters, tab bar, table, and the key bar
 * (or a prompt, or a message) on the last line. Below 80x24 the meters go first, then
 * header lines; the table and the key bar stay. */
#include "layout.h"

#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "detail.h"
#include "header.h"
#include "help.h"
#include "keybar.h"
#include "meters.h"
#include "paint.h"
#include "setup.h"
#include "table.h"
#include "tabs.h"
#include "text.h"
#include "uistate.h"
#include "usermenu.h"

#define FIXED_LINES 3	 /* tab bar, column titles, key bar */
#define MIN_TABLE_ROWS 8 /* rows the meters must leave to the table */
#define NOTICE_FULL_H 20 /* shorter, the notice takes one line */

/* A column of any pane (IPC, GHZ), for the per-CPU meters: from the panes with every
 * column, so that a column the user hid still feeds them. */
static const struct column *any_column(const struct ui *u, const char *name)
{
	for (unsigned i = 0; i < u->npanes; i++) {
		int c = pane_find_column(&u->full_panes[i], name);
		if (c >= 0)
			return &u->full_panes[i].cols[c];
	}
	return NULL;
}

/* "Filter: x  User: bob  Watching PID 42 (Esc: all)" for the tab bar's right end. */
static void view_state(const struct ui *u, char *buf, size_t len)
{
	char clean[PROMPT_MAX * 4], name[64];
	size_t n = 0;
	buf[0] = '\0';
	if (*u->filter) {
		text_sanitize(u->filter, clean, sizeof(clean), colors_utf8());
		n += (size_t)snprintf(buf + n, len - n, "Filter: %s  ", clean);
	}
	if (u->have_uid && n < len) {
		usermenu_name(u->m, u->uid, name, sizeof(name));
		n += (size_t)snprintf(buf + n, len - n, "User: %s  ", *name ? name : "?");
	}
	if (*u->cgroup && n < len) {
		text_sanitize(u->cgroup, clean, sizeof(clean), colors_utf8());
		n += (size_t)snprintf(buf + n, len - n, "Cgroup: %s (Esc: all)  ", clean);
	}
	if (u->hide_kthreads && n < len)
		n += (size_t)snprintf(buf + n, len - n, "Kernel threads hidden (X)  ");
	if (u->hide_exited && n < len)
		n += (size_t)snprintf(buf + n, len - n, "Exited hidden (E)  ");
	if (u->ntags && n < len)
		n += (size_t)snprintf(buf + n, len - n, "Tagged: %u (U: none)  ", u->ntags);
	if (u->follow > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "Following %d (F: stop)  ", (int)u->follow);
	if (u->focus > 0 && n < len)
		snprintf(buf + n, len - n, "Watching PID %d (Esc: all)", (int)u->focus);
}

static const char *empty_text(const struct ui *u)
{
	if (!u->m || (u->m->tick == 0 && u->m->nrows == 0))
		return "waiting for the first interval...";
	if (*u->filter || u->have_uid || u->focus > 0 || *u->cgroup)
		return "no task matches (Esc clears the filter, u picks another user)";
	if (u->hide_kthreads || u->hide_exited)
		return "no task shown (X shows kernel threads, E exited ones)";
	return "no tasks";
}

/* Z's label: a replay plays while its header says PLAY (ui_set_replay). */
static const char *pause_label(const struct ui *u)
{
	return keybar_pause_label(u->paused, u->replay[0] != '\0',
				  strncmp(u->replay, "PLAY ", 5) == 0);
}

static void bottom_line(struct ui *u, int y, int w)
{
	if (u->mode == MODE_PROMPT)
		prompt_draw(&u->prompt, y, w);
	else if (*u->msg && (u->msg_until == 0 || ui_now() < u->msg_until)) {
		paint_fill(y, 0, w, colors_attr(CLR_MESSAGE));
		paint_text(y, 0, w, u->msg, colors_attr(CLR_MESSAGE));
	} else
		keybar_draw(u->mode == MODE_MENU     ? BIND_MODE_MENU
			    : u->mode == MODE_DETAIL ? BIND_MODE_DETAIL
						     : BIND_MODE_MAIN,
			    pause_label(u), u->focus > 0, u->replay[0] != '\0', y, w);
}

static void draw_help(struct ui *u, int h, int w)
{
	help_draw(u->m, ui_pane(u), u->replay[0] != '\0', &u->help_top, 0, h - 1, w);
	keybar_draw(BIND_MODE_HELP, pause_label(u), u->focus > 0, u->replay[0] != '\0', h - 1, w);
}

static void draw_table(struct ui *u, int y, int h, int w)
{
	u->table_y = y;
	u->table_h = h;
	u->table_w = w;
	int col;
	struct pane_sort *s = ui_sort(u, &col);
	struct table_view tv = {
		.m = u->m,
		.pane = ui_pane(u),
		.sort_col = col,
		.descending = s && s->descending,
		.rows = &u->rows,
		.empty = empty_text(u),
		.cmdline = u->cmdline,
		.collapsed = (const char *const *)u->collapsed,
		.ncollapsed = u->ncollapsed,
		.depth = u->tree ? u->tv.depth : NULL,
		.over = u->tree ? (const struct mrow *const *)u->tv.over : NULL,
		.bars = u->tree ? u->tv.bars : NULL,
		.hist = u->hist,
		.tags = u->tag_ids,
		.ntags = u->ntags,
		.hscroll = u->hscroll,
	};
	if (h > 1) {
		u->page = h - 1;
		rows_scroll(&u->rows, (size_t)(h - 1));
	}
	table_draw(&tv, y, h, w);
	if (u->mode == MODE_MENU)
		/* As wide as its labels where two thirds of the screen allow: the table
		 * stays in sight beside it. */
		menu_draw(&u->menu, y, 0, w * 2 / 3 > 48 ? w * 2 / 3 : w < 48 ? w : 48, h);
}

void layout_draw(struct ui *u)
{
	int h = LINES, w = COLS;
	erase();
	keybar_forget(); /* until a key bar is drawn again, a click there presses nothing */
	if (h < FIXED_LINES + 1 || w < 20) {
		paint_text(0, 0, w, "pmutop: window too small", A_NORMAL);
		refresh();
		return;
	}
	if (u->mode == MODE_HELP) {
		draw_help(u, h, w);
		refresh();
		return;
	}
	if (u->mode == MODE_SETUP) {
		struct setup_in in = ui_setup_in(u);
		setup_draw(&u->setup, &in);
		refresh();
		return;
	}
	if (u->mode == MODE_DETAIL) {
		unsigned ns;
		const struct mrow *sums = ui_subtree_rows(u, &ns);
		detail_draw(&u->detail, u->m, sums, ns, u->hist, 0, h - 1, w);
		bottom_line(u, h - 1, w);
		refresh();
		return;
	}
	int room = h - FIXED_LINES - 1; /* one table row at least */
	int hdr = header_height(u->m, w);
	if (h < NOTICE_FULL_H && hdr > 3)
		hdr = 3; /* the notice's first line, and "... (h: help)" */
	if (hdr > room)
		hdr = room;
	header_draw(u->m, u->paused && !u->replay[0], u->replay[0] ? u->replay : NULL, u->rec, 0,
		    hdr, w);
	/* The meters leave the table MIN_TABLE_ROWS, and half of the rest at most; on a
	 * screen too short for that, a third of it (one line at least: a CPU meter). */
	int rest = room - hdr + 1;
	int left = rest - MIN_TABLE_ROWS;
	int budget = left < rest / 2 ? left : rest / 2;
	int third = rest >= 3 ? (rest / 3 > 1 ? rest / 3 : 1) : 0;
	budget = budget > third ? budget : third;
	int mh = meters_height(u->m, u->meter_mode, w, budget);
	if (u->m && u->m->ncpu_rows)
		u->meter_cpus = u->m->ncpu_rows;
	else if (u->m && !u->replay[0]) /* the CPU rows come with the first interval */
		mh = meters_height_expected(u->m,
					    u->meter_cpus ? u->meter_cpus : (unsigned)u->m->ncpus,
					    u->meter_mode, w, budget);
	meters_draw(u->m, any_column(u, "IPC"), any_column(u, "GHZ"), u->meter_mode, hdr, w,
		    budget);
	int y = hdr + mh;
	char state[256];
	view_state(u, state, sizeof(state));
	tabs_draw(u->panes, u->npanes, u->pane, state, y, w);
	draw_table(u, y + 1, h - 1 - (y + 1), w);
	bottom_line(u, h - 1, w);
	refresh();
}
