/* The screen's lifecycle (terminal setup and restore, suspend, resize), the model it
 * shows, and the entry points main.c calls. Drawing is in layout.c, keys in keys.c. */
#include "ui.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "affinity.h"
#include "colors.h"
#include "evclock.h"
#include "inputdec.h"
#include "keys.h"
#include "layout.h"
#include "rowkeys.h"
#include "setup.h"
#include "snapshot.h"
#include "termcheck.h"
#include "text.h"
#include "uistate.h"

/* curses has one terminal at a time: this is it. It also makes ui_free safe to call
 * twice (the second call finds nothing live). */
static struct ui *ui_live;

double ui_now(void)
{
	return evclock_now();
}

static bool want_color(const struct ui_opts *o, const char *term)
{
	const char *nc = getenv("NO_COLOR");
	if (!o->color || (nc && *nc))
		return false;
	return strcmp(term, "dumb") != 0 && has_colors();
}

static bool locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

static void setup_modes(void)
{
	cbreak(); /* not raw(): ^C and ^Z still signal, and main.c handles them */
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);  /* the keypad's keys sent as its description says (smkx) */
	nodelay(stdscr, TRUE); /* ui_input reads and decodes the bytes itself (inputdec.c) */
	curs_set(0);
}

/* The terminal opened again with O_NONBLOCK, for ui_input's reads: a read never stops
 * the whole loop. stdin itself stays as it was, since the shell and stdout share its
 * open file description. NULL (stdin read, after poll says it has bytes) when the
 * terminal cannot be opened again. */
static FILE *open_input(FILE *in)
{
	char path[64] = "";
	if (!isatty(fileno(in)) || ttyname_r(fileno(in), path, sizeof(path)) != 0)
		return NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* The terminal description's keys, for the decoder to match before its own (xterm's):
 * a terminal whose keys differ (the Linux console's F1 is ESC [ [ A) is read right. */
static void input_init(struct ui *u)
{
	static const struct {
		const char *cap;
		int key;
	} caps[] = {{"kcuu1", KEY_UP},	  {"kcud1", KEY_DOWN}, {"kcub1", KEY_LEFT},
		    {"kcuf1", KEY_RIGHT}, {"khome", KEY_HOME}, {"kend", KEY_END},
		    {"kpp", KEY_PPAGE},	  {"knp", KEY_NPAGE},  {"kich1", KEY_IC},
		    {"kdch1", KEY_DC},	  {"kcbt", KEY_BTAB},  {"kbs", KEY_BACKSPACE},
		    {"kent", KEY_ENTER}};
	indec_init(&u->dec);
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		const char *seq = tigetstr(caps[i].cap);
		if (seq && seq != (char *)-1)
			indec_add(&u->dec, seq, caps[i].key);
	}
	for (int f = 1; f <= 24; f++) {
		char cap[8];
		snprintf(cap, sizeof(cap), "kf%d", f);
		const char *seq = tigetstr(cap);
		if (seq && seq != (char *)-1)
			indec_add(&u->dec, seq, KEY_F(f));
	}
}

struct ui *ui_new(const struct ui_opts *o, char *err, size_t errlen)
{
	const char *term = o->term ? o->term : getenv("TERM");
	if (ui_live) {
		snprintf(err, errlen, "the screen is already in use");
		return NULL;
	}
	if (!term || !*term) {
		snprintf(err, errlen, "TERM is not set: use -b for batch output");
		return NULL;
	}
	FILE *out = o->out ? o->out : stdout;
	if (!termcheck_usable(term, fileno(out), err, errlen))
		return NULL;
	struct ui *u = calloc(1, sizeof(*u));
	if (!u) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	u->in = o->in ? o->in : stdin;
	u->out = out;
	u->own_in = o->in ? NULL : open_input(u->in);
	u->scr = newterm(term, u->out, u->own_in ? u->own_in : u->in);
	if (!u->scr) {
		if (u->own_in)
			fclose(u->own_in);
		snprintf(err, errlen, "cannot drive terminal type '%s': use -b for batch output",
			 term);
		free(u);
		return NULL;
	}
	set_term(u->scr);
	setup_modes();
	input_init(u);
	/* htop's mouse: a click on a title sorts, on a row selects; the wheel scrolls.
	 * Presses, not clicks: no wait for a release to tell them apart. */
	u->mouse = !o->no_mouse;
	if (!o->no_mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
		mouseinterval(0);
	}
	colors_init(want_color(o, term), locale_utf8());
	if (o->cols > 0 && o->lines > 0) {
		u->fixed_size = true;
		resizeterm(o->lines, o->cols);
	}
	rows_init(&u->rows);
	snprintf(u->pane_name, sizeof(u->pane_name), "%s", o->pane ? o->pane : "");
	snprintf(u->opt_pane, sizeof(u->opt_pane), "%s",
		 o->pane && !o->pane_default ? o->pane : "");
	snprintf(u->want_sort, sizeof(u->want_sort), "%s", o->sort ? o->sort : "");
	u->want_reverse = o->reverse;
	setup_init(&u->setup);
	ui_live = u;
	return u;
}

void ui_free(struct ui *u)
{
	if (!u || u != ui_live)
		return;
	ui_live = NULL;
	set_term(u->scr);
	if (!isendwin())
		endwin();
	fflush(u->out);
	delscreen(u->scr);
	if (u->own_in)
		fclose(u->own_in);
	rows_free(&u->rows);
	setup_free(&u->setup);
	for (unsigned i = 0; i < u->ncollapsed; i++)
		free(u->collapsed[i]);
	tree_free(&u->tv);
	free(u);
}

void ui_restore_terminal(void)
{
	if (ui_live && !isendwin()) {
		endwin();
		fflush(ui_live->out);
	}
}

const struct pane *ui_pane(const struct ui *u)
{
	return u->npanes ? &u->panes[u->pane] : NULL;
}

/* The pane's own sort, made on first use: the option's column if the pane has it, else
 * the pane's default; the column's natural direction, flipped by the option. */
static struct pane_sort *sort_state(struct ui *u, const struct pane *p)
{
	for (unsigned i = 0; i < u->nsort; i++)
		if (strcmp(u->sort[i].pane, p->name) == 0)
			return &u->sort[i];
	struct pane_sort *s = &u->sort[u->nsort < UI_MAX_PANES ? u->nsort++ : UI_MAX_PANES - 1];
	memset(s, 0, sizeof(*s));
	snprintf(s->pane, sizeof(s->pane), "%s", p->name);
	int c = *u->want_sort ? pane_find_column(p, u->want_sort) : -1;
	if (c < 0)
		c = p->sort_default >= 0 && (unsigned)p->sort_default < p->ncols ? p->sort_default
										 : -1;
	if (c >= 0) {
		snprintf(s->col, sizeof(s->col), "%s", p->cols[c].name);
		s->descending = p->cols[c].desc_first != u->want_reverse;
	}
	return s;
}

struct pane_sort *ui_sort(struct ui *u, int *col)
{
	const struct pane *p = ui_pane(u);
	*col = -1;
	if (!p)
		return NULL;
	struct pane_sort *s = sort_state(u, p);
	*col = *s->col ? pane_find_column(p, s->col) : -1;
	if (*col < 0 && p->sort_default >= 0 && (unsigned)p->sort_default < p->ncols)
		*col = p->sort_default;
	return s;
}

void ui_set_history(struct ui *u, const struct history *h)
{
	if (u)
		u->hist = h;
}

const struct column *ui_sort_column(struct ui *u)
{
	int col;
	const struct pane *p = ui_pane(u);
	ui_sort(u, &col);
	return p && col >= 0 ? &p->cols[col] : NULL;
}

const struct mrow *ui_subtree_rows(const struct ui *u, unsigned *n)
{
	*n = u && u->tree && u->tv.sums.rows ? u->tv.nsums : 0;
	return *n ? u->tv.sums.rows : NULL;
}

void ui_view(struct ui *u, char *pane, size_t plen, char *sort, size_t slen, bool *reverse)
{
	const struct pane *p = ui_pane(u);
	int col;
	struct pane_sort *s = ui_sort(u, &col);
	snprintf(pane, plen, "%s", p ? p->name : "");
	snprintf(sort, slen, "%s", p && col >= 0 ? p->cols[col].name : "");
	*reverse = p && s && col >= 0 && s->descending != p->cols[col].desc_first;
}

void ui_refresh_rows(struct ui *u, bool resort)
{
	if (!u->m)
		return;
	int col;
	struct pane_sort *s = ui_sort(u, &col);
	const struct pane *p = ui_pane(u);
	struct sort_spec spec = {
		.col = p && col >= 0 ? &p->cols[col] : NULL,
		.descending = s ? s->descending : false,
		.filter = *u->filter ? u->filter : NULL,
		.filter_cmdline = u->cmdline,
		.have_uid = u->have_uid,
		.uid = u->uid,
		.hide_kthreads = u->hide_kthreads,
		.hide_exited = u->hide_exited,
		.only_pid = u->focus,
		.cgroup = *u->cgroup ? u->cgroup : NULL,
		.collapsed = (const char *const *)u->collapsed,
		.ncollapsed = u->ncollapsed,
		.tree = u->tree,
		.folded = u->folded,
		.nfolded = u->nfolded,
		.fold_single = true,
	};
	if (rows_update(&u->rows, u->m, &spec, resort || u->tree) < 0)
		snprintf(u->msg, sizeof(u->msg), "out of memory: rows not updated");
	else if (u->tree && tree_update(&u->tv, u->m, &u->rows, u->folded, u->nfolded) < 0)
		snprintf(u->msg, sizeof(u->msg), "out of memory: the tree shows flat");
	rowkeys_follow_check(u);
}

void ui_switch_pane(struct ui *u, unsigned pane)
{
	if (pane >= u->npanes)
		return;
	if (strcasecmp(u->pane_name, u->panes[pane].name) != 0)
		snprintf(u->back_pane, sizeof(u->back_pane), "%s", u->pane_name);
	u->pane = pane;
	snprintf(u->pane_name, sizeof(u->pane_name), "%s", u->panes[pane].name);
	u->want_pane[0] = '\0'; /* the user chose: no switching behind their back */
	ui_refresh_rows(u, true);
}

static int find_pane(const struct pane *panes, unsigned npanes, const char *name)
{
	for (unsigned i = 0; *name && i < npanes; i++)
		if (strcasecmp(panes[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Whether column c reads n/a on every row of m: it cannot count here. */
static bool column_all_na(const struct column *c, const struct model *m)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if (column_value(c, m, &m->rows[i]).state != VAL_NA)
			return false;
	return true;
}

/* The first model with rows: --pane and --sort that name what is not shown are said,
 * and a first sort by a column that reads n/a on every row (CPU% without task-clock,
 * -e page-faults,cs) goes to the first column that counts, and says so. */
static void check_opts(struct ui *u, const struct model *m)
{
	u->opts_checked = true;
	const struct pane *p = ui_pane(u);
	if (!p)
		return;
	if (*u->opt_pane && find_pane(u->panes, u->npanes, u->opt_pane) < 0) {
		snprintf(
			u->msg, sizeof(u->msg),
			"--pane %.24s: not shown, none of its events can count here; showing %.24s",
			u->opt_pane, p->name);
		return;
	}
	if (*u->want_sort && pane_find_column(p, u->want_sort) < 0) {
		snprintf(u->msg, sizeof(u->msg), "--sort %.24s: the %.24s pane has no such column",
			 u->want_sort, p->name);
		return;
	}
	int col;
	struct pane_sort *s = ui_sort(u, &col);
	if (*u->want_sort || !s || col < 0 || !column_all_na(&p->cols[col], m))
		return;
	for (unsigned i = 0; i < p->ncols; i++) {
		enum col_kind k = p->cols[i].kind;
		bool counts = k == COL_COUNT || k == COL_RATE || k == COL_RATIO || k == COL_GHZ ||
			      k == COL_METRIC;
		if (!counts || column_all_na(&p->cols[i], m))
			continue;
		snprintf(u->msg, sizeof(u->msg), "%.16s reads n/a here: sorted by %.32s",
			 p->cols[col].name, p->cols[i].name);
		snprintf(s->col, sizeof(s->col), "%s", p->cols[i].name);
		s->descending = p->cols[i].desc_first;
		return;
	}
}

void ui_set_model(struct ui *u, const struct model *m, const struct pane *panes, unsigned npanes)
{
	if (!u)
		return;
	u->m = m;
	/* The built-in panes keep their keys whatever the user adds: the Events pane (which
	 * columns_build_panes puts first) goes after them on the screen. */
	if (npanes > UI_MAX_PANES)
		npanes = UI_MAX_PANES;
	/* A built-in pane none of whose events can count here (IPC, Cache and Branch without
	 * a PMU) is not offered: the notice says why. The user's own events stay. */
	unsigned n = 0;
	for (int events = 0; events < 2; events++)
		for (unsigned k = 0; k < npanes; k++) {
			bool mine = strcmp(panes[k].name, "Events") == 0;
			if (mine != (events == 1) || (!mine && m && pane_unsupported(m, &panes[k])))
				continue;
			u->full_panes[n] = panes[k];
			u->own_panes[n] = panes[k];
			pane_select(&u->own_panes[n], ui_columns(u, panes[k].name));
			n++;
		}
	panes = u->own_panes;
	u->panes = panes;
	u->npanes = npanes = n;
	u->pane = 0;
	if (*u->want_pane && find_pane(panes, npanes, u->want_pane) >= 0) {
		if (strcasecmp(u->pane_name, u->want_pane) != 0)
			snprintf(u->back_pane, sizeof(u->back_pane), "%s", u->pane_name);
		snprintf(u->pane_name, sizeof(u->pane_name), "%s", u->want_pane);
		u->want_pane[0] = '\0';
	}
	int i = find_pane(panes, npanes, u->pane_name);
	if (i < 0)
		i = find_pane(panes, npanes, u->back_pane);
	if (i >= 0)
		u->pane = (unsigned)i;
	if (npanes)
		snprintf(u->pane_name, sizeof(u->pane_name), "%s", panes[u->pane].name);
	if (m)
		u->paused = m->paused;
	if (m && m->nrows && !u->opts_checked)
		check_opts(u, m);
	rowkeys_prune_tags(u);
	ui_refresh_rows(u, ui_now() >= u->freeze_until);
}

void ui_set_catalog(struct ui *u, const struct catalog *c)
{
	if (!u)
		return;
	u->cat = c;
	setup_catalog_changed(&u->setup);
}

const char *ui_columns(const struct ui *u, const char *pane)
{
	for (unsigned i = 0; u && pane && i < u->ncolsel; i++)
		if (strcasecmp(u->colsel[i].pane, pane) == 0)
			return u->colsel[i].list;
	return "";
}

void ui_set_columns(struct ui *u, const char *pane, const char *list)
{
	if (!u || !pane)
		return;
	unsigned i = 0;
	while (i < u->ncolsel && strcasecmp(u->colsel[i].pane, pane) != 0)
		i++;
	if (i == u->ncolsel && u->ncolsel == UI_MAX_PANES)
		return;
	if (i == u->ncolsel)
		u->ncolsel++;
	snprintf(u->colsel[i].pane, sizeof(u->colsel[i].pane), "%s", pane);
	snprintf(u->colsel[i].list, sizeof(u->colsel[i].list), "%s", list ? list : "");
	/* The panes shown now follow it. */
	for (unsigned k = 0; k < u->npanes; k++) {
		u->own_panes[k] = u->full_panes[k];
		pane_select(&u->own_panes[k], ui_columns(u, u->full_panes[k].name));
	}
	ui_refresh_rows(u, true);
}

void ui_set_recording(struct ui *u, const char *path, long long bytes)
{
	if (!u)
		return;
	if (!path) {
		u->rec[0] = '\0';
		return;
	}
	double b = (double)bytes;
	if (bytes < 1024)
		snprintf(u->rec, sizeof(u->rec), "%lldB\t%s", bytes, path);
	else if (bytes < 1024 * 1024)
		snprintf(u->rec, sizeof(u->rec), "%.0fK\t%s", b / 1024, path);
	else if (bytes < 1024LL * 1024 * 1024)
		snprintf(u->rec, sizeof(u->rec), "%.1fM\t%s", b / 1048576, path);
	else
		snprintf(u->rec, sizeof(u->rec), "%.2fG\t%s", b / 1073741824.0, path);
}

void ui_affinity_open(struct ui *u, pid_t pid, unsigned long long start, const int *cpus,
		      const bool *on, unsigned n)
{
	affinity_open(u, pid, start, cpus, on, n);
}

void ui_refuse_acts(struct ui *u, const char *line)
{
	if (u)
		snprintf(u->no_act, sizeof(u->no_act), "%s", line ? line : "");
}

void ui_set_replay(struct ui *u, const char *text)
{
	if (u)
		snprintf(u->replay, sizeof(u->replay), "%s", text ? text : "");
}

void ui_set_user_spec(struct ui *u, const char *spec)
{
	if (!u)
		return;
	snprintf(u->spec, sizeof(u->spec), "%s", spec ? spec : "");
	setup_spec_changed(&u->setup, u->spec);
}

void ui_events_refused(struct ui *u, const char *why)
{
	if (!u)
		return;
	ui_message(u, why);
	/* Typed at the spec line: back to it, the text as typed, to mend. */
	if (!setup_refused(&u->setup))
		return;
	u->mode = MODE_SETUP;
	u->want_pane[0] = '\0';
}

void ui_focus_refused(struct ui *u, const char *why)
{
	if (!u)
		return;
	u->focus = 0;
	ui_message(u, why);
	ui_refresh_rows(u, true);
}

struct setup_in ui_setup_in(const struct ui *u)
{
	bool msg = *u->msg && (u->msg_until == 0 || ui_now() < u->msg_until);
	return (struct setup_in){
		.cat = u->cat,
		.m = u->m,
		.spec = u->spec,
		.metrics = u->metrics,
		.nmetrics = u->nmetrics,
		.shown = u->npanes ? &u->own_panes[u->pane] : NULL,
		.all = u->npanes ? &u->full_panes[u->pane] : NULL,
		.paused = u->paused,
		.msg = msg ? u->msg : NULL,
	};
}

void ui_set_metrics(struct ui *u, const struct user_metric *m, unsigned n)
{
	if (!u)
		return;
	u->nmetrics = !m ? 0 : n < USER_METRICS_MAX ? n : USER_METRICS_MAX;
	if (u->nmetrics)
		memcpy(u->metrics, m, u->nmetrics * sizeof(*m));
}

void ui_message(struct ui *u, const char *text)
{
	if (!u)
		return;
	/* Messages quote what the user typed and names from sysfs: never raw. */
	text_sanitize(text ? text : "", u->msg, sizeof(u->msg), colors_utf8());
	u->msg_until = *u->msg ? ui_now() + UI_MESSAGE_SECONDS : 0;
}

void ui_draw(struct ui *u)
{
	if (!u || u->ended)
		return;
	layout_draw(u);
}

int ui_feed_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	if (!u)
		return 0;
	keys_handle(u, key, cmd);
	return 1;
}

/* The decoder's own keys as curses names them. */
static int curses_key(int k)
{
	static const int keys[] = {KEY_UP,    KEY_DOWN,	 KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END,
				   KEY_PPAGE, KEY_NPAGE, KEY_IC,   KEY_DC,    KEY_BTAB, KEY_ENTER};
	if (k >= INDEC_K_F0 && k <= INDEC_K_LAST)
		return KEY_F(k - INDEC_K_F0);
	_Static_assert(sizeof(keys) / sizeof(keys[0]) == INDEC_K_F0 - INDEC_K_BASE,
		       "a curses key for each of the decoder's own keys");
	if (k >= INDEC_K_BASE && k < INDEC_K_F0)
		return keys[k - INDEC_K_BASE];
	return k;
}

/* Wait up to ms for the terminal to have more, then read what it has: > 0 bytes taken,
 * 0 none. */
static int read_input(struct ui *u, int ms)
{
	int fd = fileno(u->own_in ? u->own_in : u->in);
	struct pollfd p = {.fd = fd, .events = POLLIN};
	unsigned char buf[INDEC_BUF];
	size_t room = INDEC_BUF - u->dec.n;
	if (room == 0 || poll(&p, 1, ms) <= 0 || !(p.revents & POLLIN))
		return 0;
	ssize_t n = read(fd, buf, room);
	return n > 0 ? (int)indec_feed(&u->dec, buf, (size_t)n) : 0;
}

/* A decoded event into the key handlers: 1 when it was one they take. */
static int feed_event(struct ui *u, const struct indec_event *ev, struct ui_cmd *cmd)
{
	if (ev->kind == INDEC_KEY)
		return ui_feed_key(u, curses_key(ev->key), cmd);
	/* The mouse: presses and wheel steps, as the mask asks (no releases, no motion). */
	mmask_t mask = 0;
	if (ev->press && !ev->motion)
		mask = ev->button == 1	 ? BUTTON1_PRESSED
		       : ev->button == 4 ? BUTTON4_PRESSED
		       : ev->button == 5 ? BUTTON5_PRESSED
					 : 0;
	if (!mask || !u->mouse)
		return 0;
	u->mev = (MEVENT){.x = ev->x, .y = ev->y, .bstate = mask};
	u->have_mev = true;
	return ui_feed_key(u, KEY_MOUSE, cmd);
}

int ui_input(struct ui *u, struct ui_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	if (!u || u->ended)
		return 0;
	struct indec_event ev;
	for (;;) {
		if (indec_next(&u->dec, false, &ev)) {
			if (feed_event(u, &ev, cmd))
				return 1;
			continue;
		}
		if (read_input(u, 0) > 0)
			continue;
		/* The start of a sequence: its rest may come in the next read (ESCDELAY). */
		int ms = indec_wait(&u->dec);
		if (ms == 0)
			return 0;
		if (read_input(u, ms) > 0)
			continue;
		if (!indec_next(&u->dec, true, &ev))
			return 0; /* what never finished is dropped */
		if (feed_event(u, &ev, cmd))
			return 1;
	}
}

/* The size from the terminal itself: main.c blocks SIGWINCH for its signalfd, so
 * ncurses never learns it on its own. */
static void query_size(struct ui *u)
{
	struct winsize ws;
	if (u->fixed_size || ioctl(fileno(u->out), TIOCGWINSZ, &ws) < 0 || !ws.ws_row || !ws.ws_col)
		return;
	if (ws.ws_row != LINES || ws.ws_col != COLS)
		resizeterm(ws.ws_row, ws.ws_col);
}

void ui_resize(struct ui *u)
{
	if (!u || u->ended)
		return;
	query_size(u);
	clearok(curscr, TRUE);
	ui_draw(u);
}

void ui_set_size(struct ui *u, int cols, int lines)
{
	if (!u || cols <= 0 || lines <= 0)
		return;
	u->fixed_size = true;
	resizeterm(lines, cols);
	ui_draw(u);
}

void ui_suspend(struct ui *u)
{
	if (!u || u->ended)
		return;
	endwin();
	fflush(u->out);
	u->ended = true;
}

void ui_resume(struct ui *u)
{
	if (!u || !u->ended)
		return;
	u->ended = false;
	/* The first refresh after endwin() puts the terminal back in curses mode. */
	reset_prog_mode();
	query_size(u);
	clearok(curscr, TRUE);
	if (u->m)
		ui_draw(u);
	else
		refresh();
}

void ui_screen_text(struct ui *u, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (u && !u->ended)
		snapshot_text(buf, len);
}
