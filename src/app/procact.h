/* The screen's acts on this machine's processes (procact.c): k's signal, F7 and F8's
 * nice, a's CPUs. Built with the screen only. */
#ifndef PMUTOP_PROCACT_H
#define PMUTOP_PROCACT_H

#include "app.h"

#ifdef PMUTOP_HAVE_UI
/* cmd (UI_SIGNAL, UI_RENICE, UI_AFFINITY_ASK or UI_AFFINITY) on the processes it names,
 * unless one is gone or its pid now names another process; one line on ui says how it
 * went (UI_AFFINITY_ASK: the dialog with the process's CPUs). */
void procact_run(struct ui *ui, const struct ui_cmd *cmd);
#endif

#endif
