/* The derived-column dialog: a name, event A, event B (both from the user's groups)
 * and a kind (ratio, percent, per 1000), checked against the model before it is taken:
 * a ratio of events from different groups would divide counts of different windows. */
#ifndef PMUTOP_METRICDLG_H
#define PMUTOP_METRICDLG_H

#include <stdbool.h>

#include "columns.h"
#include "model.h"

#define METRICDLG_CHOICES 64
#define METRICDLG_KEY 112 /* sizeof(user_metric.a) */
#define METRICDLG_LINES 7

enum metricdlg_field { MDF_NAME, MDF_A, MDF_B, MDF_KIND, MDF_COUNT };

struct metricdlg {
	char name[24];
	enum metricdlg_field field;
	char key[METRICDLG_CHOICES][METRICDLG_KEY]; /* the user's events, by model key */
	unsigned group[METRICDLG_CHOICES];	    /* their user group, from 1 */
	unsigned nkeys;
	unsigned a, b, kind;
	char err[200]; /* why the last Enter was refused */
};

enum metricdlg_res { MDLG_STAY, MDLG_DONE, MDLG_CANCEL };

/* Start with the user's events of m. Returns false when there are none. */
bool metricdlg_open(struct metricdlg *d, const struct model *m);
/* Typing edits the name; Up/Down/Tab move between fields; Left/Right choose; Enter asks
 * to take it (the caller checks with metricdlg_check); Esc cancels. */
enum metricdlg_res metricdlg_key(struct metricdlg *d, int key);
/* The metric as entered. */
void metricdlg_metric(const struct metricdlg *d, struct user_metric *out);
/* Is it acceptable against m and the metrics in force? If not, d->err says why and
 * what to do. */
bool metricdlg_check(struct metricdlg *d, const struct model *m, const struct user_metric *have,
		     unsigned nhave);
/* A box of w columns and METRICDLG_LINES lines at (y, x). */
void metricdlg_draw(const struct metricdlg *d, int y, int x, int w);

#endif
