/* What the live and the replay screen share: the model on the screen (with G's cgroup
 * rows), its trends, the metrics and the saved setup. */
#include "view.h"

#include <sys/stat.h>

#include "run.h"

#ifdef PMUTOP_HAVE_UI
/* The model m on the screen: as it is, or (G) the same with cgroup rows (a fleet's source
 * gives its hosts' own). */
static const struct model *view_of(struct app *a, const struct model *m)
{
	if (a->scr.show_cgroups && !m->fleet && (a->scr.cgrows || (a->scr.cgrows = cgrows_new()))) {
		a->scr.cgview = *m;
		a->scr.cgview.rows = cgrows_build(a->scr.cgrows, m, &a->scr.cgview.nrows);
		m = &a->scr.cgview;
	}
	return m;
}

/* One interval of m into the history: its rows and, while G shows them, the cgroup
 * rows, so that neither view's history is lost to the other; with ui, the tree's folded
 * rows too. */
static void feed_model(struct app *a, struct ui *ui, const struct model *base)
{
	const struct model *m = view_of(a, base);
	struct hist_rows more[2];
	unsigned n = 0;
	if (m != base)
		more[n++] = (struct hist_rows){m->rows, m->nrows};
	if (ui)
		more[n].rows = ui_subtree_rows(ui, &more[n].n), n++;
	history_feed_with(a->scr.history, base, more, n);
}

void app_feed_history(struct app *a, struct ui *ui)
{
	feed_model(a, ui, app_current(a));
}

/* -w: what the recording holds on disk now, the file and its WAL. */
static void show_recording(struct app *a, struct ui *ui)
{
	if (!a->cli.record)
		return;
	struct stat st;
	char wal[4096];
	long long bytes = stat(a->cli.record, &st) == 0 ? (long long)st.st_size : 0;
	snprintf(wal, sizeof(wal), "%s-wal", a->cli.record);
	bytes += stat(wal, &st) == 0 ? (long long)st.st_size : 0;
	ui_set_recording(ui, a->cli.record, bytes);
}

void app_show_model(struct app *a, struct ui *ui, const struct model *m)
{
	show_recording(a, ui);
	ui_set_model(ui, view_of(a, m), a->panes.p, a->panes.n);
	history_track(a->scr.history, ui_sort_column(ui));
	history_keep(a->scr.history, a->panes.p, a->panes.n);
	feed_model(a, ui, m);
}

void app_show(struct app *a, struct ui *ui)
{
	app_show_model(a, ui, app_current(a));
}

void app_apply_metrics(struct app *a, struct ui *ui, const struct user_metric *m, unsigned n)
{
	if (n > CONFIG_METRICS_MAX)
		n = CONFIG_METRICS_MAX;
	if (m != a->setup.cfg.metrics)
		memmove(a->setup.cfg.metrics, m, n * sizeof(*m));
	a->setup.cfg.nmetrics = n;
	ui_set_metrics(ui, a->setup.cfg.metrics, n);
	app_build_panes(a);
	app_show(a, ui);
}

void app_save_config(struct app *a, struct ui *ui)
{
	char msg[640];
	/* A replay counts nothing: what counts (events, interval, threads, user-only) stays
	 * as the file has it, and the view is saved. */
	if (source_caps(a->src) & SRC_CAN_COUNT) {
		a->setup.cfg.interval = a->cli.interval;
		a->setup.cfg.threads = a->cli.threads;
		a->setup.cfg.user_only = source_model(a->src)->user_only;
		snprintf(a->setup.cfg.events, sizeof(a->setup.cfg.events), "%s",
			 a->setup.user_spec);
	}
	/* The pane and sort on the screen now (Tab and F6 included). */
	ui_view(ui, a->setup.cfg.pane, sizeof(a->setup.cfg.pane), a->setup.cfg.sort,
		sizeof(a->setup.cfg.sort), &a->setup.cfg.reverse);
	if (!a->setup.cfg_path[0]) {
		ui_message(ui, "cannot save: set XDG_CONFIG_HOME or HOME, or start with -c FILE");
		return;
	}
	int err = config_save(a->setup.cfg_path, &a->setup.cfg);
	if (err)
		snprintf(msg, sizeof(msg), "cannot save %s: %s", a->setup.cfg_path, strerror(-err));
	else
		snprintf(msg, sizeof(msg), "setup saved to %s", a->setup.cfg_path);
	ui_message(ui, msg);
}
#endif
