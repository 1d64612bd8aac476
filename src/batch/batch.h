/* Batch mode writers: text blocks like top -b, CSV lines like perf stat -x, JSON lines.
 * They format with the same column descriptors the screen uses. */
#ifndef PMUTOP_BATCH_H
#define PMUTOP_BATCH_H

#include <stdio.h>

#include "columns.h"
#include "model.h"
#include "sort.h"

/* --format */
enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

struct batch;

/* panes: the screen's panes; their columns are merged into one table. sort may name a
 * column (NULL: CPU%), descending unless reverse. */
struct batch *batch_new(FILE *out, enum out_format fmt, const struct pane *panes, unsigned npanes,
			const char *sort, bool reverse);
void batch_free(struct batch *b);

/* CPU rows too (--per-cpu). */
void batch_show_cpus(struct batch *b, bool on);

/* Refuses a --sort column that does not exist: returns false. */
bool batch_sort_ok(const struct batch *b);

/* A notice, once, before the first block: on stderr as "pmutop: TEXT" in every format,
 * so that stdout is only the output a script parses. batch_write gives one this way when
 * tasks go short of file descriptors and when they are all counted again. */
void batch_notice(struct batch *b, const char *text);

/* One block for the model's interval (or its totals when m->final), measured at wall
 * (seconds since the epoch): every line and block says when. Returns 0, or -errno when
 * the output failed (EPIPE: the reader went away). */
int batch_write(struct batch *b, const struct model *m, double wall);

#endif
