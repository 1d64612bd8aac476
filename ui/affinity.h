/* a: the CPU affinity dialog, as htop's: the CPUs the selected process may run on,
 * Space marks or unmarks one, Enter sets them on the process and its threads (the app
 * does: UI_AFFINITY). */
#ifndef PMUTOP_AFFINITY_H
#define PMUTOP_AFFINITY_H

#include <stdbool.h>

#include "ui.h"

/* The selected process's CPUs are asked of the app (UI_AFFINITY_ASK), which reads them
 * and calls ui_affinity_open. */
void affinity_ask(struct ui *u, struct ui_cmd *cmd);
/* The dialog over the CPUs the app read (ui_affinity_open). */
void affinity_open(struct ui *u, pid_t pid, unsigned long long start, const int *cpus,
		   const bool *on, unsigned n);
/* A key while the dialog is open: true when it was the dialog's (Space, Enter). */
bool affinity_key(struct ui *u, int key, struct ui_cmd *cmd);

#endif
