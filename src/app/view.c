/* What the live and the replay screen share: the model on the screen (with G's cgroup
 * rows), its trends, the metrics and the saved setup. */
#include "view.h"

#include <sys/stat.h>

#include "run.h"

#ifdef PMUTOP_HAVE_UI
/* The model on the screen: the engine's (or the replayed tick's), or (G) the same with
 * cgroup rows. */
const struct model *app_view(struct app *a)
{
	const struct model *m = app_current(a);
	if (a->show_cgroups && (a->cgrows || (a->cgrows = cgrows_new()))) {
		a->cgview = *m;
		a->cgview.rows = cgrows_build(a->cgrows, m, &a->cgview.nrows);
		m = &a->cgview;
	}
	return m;
}

/* One interval into the history: the source's rows and, while G shows them, the cgroup
 * rows, so that neither view's history is lost to the other; with ui, the tree's folded
 * sums it shows (a replay's earlier ticks have none). */
void app_feed_history(struct app *a, struct ui *ui)
{
	const struct model *m = app_view(a), *base = app_current(a);
	struct hist_rows more[2];
	unsigned n = 0;
	if (m != base)
		more[n++] = (struct hist_rows){m->rows, m->nrows};
	if (ui)
		more[n].rows = ui_subtree_rows(ui, &more[n].n), n++;
	history_feed_with(a->history, base, more, n);
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

void app_show(struct app *a, struct ui *ui)
{
	show_recording(a, ui);
	ui_set_model(ui, app_view(a), a->panes, a->npanes);
	history_track(a->history, ui_sort_column(ui));
	history_keep(a->history, a->panes, a->npanes);
	app_feed_history(a, ui);
}

void app_apply_metrics(struct app *a, struct ui *ui, const struct user_metric *m, unsigned n)
{
	if (n > CONFIG_METRICS_MAX)
		n = CONFIG_METRICS_MAX;
	if (m != a->cfg.metrics)
		memmove(a->cfg.metrics, m, n * sizeof(*m));
	a->cfg.nmetrics = n;
	ui_set_metrics(ui, a->cfg.metrics, n);
	app_build_panes(a);
	app_show(a, ui);
}

void app_save_config(struct app *a, struct ui *ui)
{
	char msg[640];
	/* A replay counts nothing: what counts (events, interval, threads, user-only) stays
	 * as the file has it, and the view is saved. */
	if (!a->rp) {
		a->cfg.interval = a->cli.interval;
		a->cfg.threads = a->cli.threads;
		a->cfg.user_only = source_model(a->src)->user_only;
		snprintf(a->cfg.events, sizeof(a->cfg.events), "%s", a->user_spec);
	}
	/* The pane and sort on the screen now (Tab and F6 included). */
	ui_view(ui, a->cfg.pane, sizeof(a->cfg.pane), a->cfg.sort, sizeof(a->cfg.sort),
		&a->cfg.reverse);
	if (!a->cfg_path[0]) {
		ui_message(ui, "cannot save: set XDG_CONFIG_HOME or HOME, or start with -c FILE");
		return;
	}
	int err = config_save(a->cfg_path, &a->cfg);
	if (err)
		snprintf(msg, sizeof(msg), "cannot save %s: %s", a->cfg_path, strerror(-err));
	else
		snprintf(msg, sizeof(msg), "setup saved to %s", a->cfg_path);
	ui_message(ui, msg);
}
#endif
