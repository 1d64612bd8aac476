/* The CPU affinity dialog: see affinity.h. */
#include "affinity.h"

#include <stdio.h>

#include "bindings.h"
#include "menu.h"
#include "rows.h"
#include "uistate.h"

void affinity_ask(struct ui *u, struct ui_cmd *cmd)
{
	if (u->no_act[0]) {
		snprintf(u->msg, sizeof(u->msg), "%s", u->no_act);
		return;
	}
	const struct mrow *r = rows_selected(&u->rows, u->m);
	if (!r || (r->kind != ROW_PROC && r->kind != ROW_THREAD) || r->pid <= 0 || r->exited) {
		snprintf(u->msg, sizeof(u->msg), "no process selected to set the CPUs of");
		return;
	}
	cmd->kind = UI_AFFINITY_ASK;
	cmd->pid = r->pid;
	cmd->start = r->start_ticks;
}

static void label(struct ui *u, unsigned i)
{
	snprintf(u->menu.label[i], MENU_LABEL, "[%c] CPU %d", u->aff_on[i] ? 'x' : ' ',
		 u->aff_cpu[i]);
}

void affinity_open(struct ui *u, pid_t pid, unsigned long long start, const int *cpus,
		   const bool *on, unsigned n)
{
	char title[32];
	snprintf(title, sizeof(title), "CPUs of %d", (int)pid);
	menu_clear(&u->menu, title);
	u->aff_pid = pid;
	u->aff_start = start;
	u->aff_n = 0;
	for (unsigned i = 0; i < n && i < MENU_MAX; i++) {
		u->aff_cpu[i] = cpus[i];
		u->aff_on[i] = on[i];
		menu_add(&u->menu, "", cpus[i]);
		label(u, i);
		u->aff_n++;
	}
	u->pick = PICK_AFFINITY;
	u->mode = MODE_MENU;
}

bool affinity_key(struct ui *u, int key, struct ui_cmd *cmd)
{
	const struct binding *b = bindings_find(BIND_MODE_MENU, key);
	if (!b || (b->act != BIND_MARK && b->act != BIND_PICK) || !u->aff_n)
		return false;
	cmd->kind = UI_REDRAW;
	unsigned sel = u->menu.sel;
	if (b->act == BIND_MARK) {
		if (sel < u->aff_n) {
			u->aff_on[sel] = !u->aff_on[sel];
			label(u, sel);
		}
		return true;
	}
	unsigned k = 0;
	for (unsigned i = 0; i < u->aff_n; i++)
		if (u->aff_on[i])
			u->aff_chosen[k++] = u->aff_cpu[i];
	if (!k) {
		snprintf(u->msg, sizeof(u->msg), "mark at least one CPU (Space), or Esc");
		return true;
	}
	u->mode = MODE_MAIN;
	cmd->kind = UI_AFFINITY;
	cmd->pid = u->aff_pid;
	cmd->start = u->aff_start;
	cmd->cpus = u->aff_chosen;
	cmd->ncpus = k;
	return true;
}
