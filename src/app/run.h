/* The run (run.c): the loop, the source, the sinks, a tick, publishing and controls. It
 * calls up into the front end only through a->fe (app.h). */
#ifndef PMUTOP_RUN_H
#define PMUTOP_RUN_H

#include "app.h"

/* One line on stderr, "pmutop: " first, sanitised. */
__attribute__((format(printf, 1, 2))) void app_say(const char *fmt, ...);

/* The model every output shows: the engine's with the header's facts (a->live, made
 * again at each call: the screen holds it), or the replayed tick's. */
const struct model *app_current(struct app *a);
/* The panes of the current model (and for batch mode the one asked for). */
void app_build_panes(struct app *a);
/* The one run loop: live (screen or not), and the replay screen. Its exit code. */
int app_run(struct app *a);
/* A signal, handled for the whole run: true when it ends the run. */
bool app_signal(struct app *a, int signo);
/* A live tick's pass of app_run: the interval, then for a watched command or pid that
 * ended, its totals. -1 to go on, or the run's exit code. */
int live_pass(struct app *a, int mask);
/* A control for the source (source.h): a refusal (-ENOTSUP) is one line ("not for a
 * recording"); a source that gives up (bpf refusing an event set or a mode) is swapped
 * for the next row of the table (app_swap). */
int app_control(struct app *a, enum source_ctl what, const void *arg);
/* The source gave up (err): where its row may (SOURCE_GIVES_UP), the next row that counts
 * the same counts set from now on, one notice line says so, and every sink goes on. 0,
 * or err when it may not, or -errno when the next cannot start either. */
int app_swap(struct app *a, const struct evset *set, int err);
/* The current model to every sink. */
void app_publish(struct app *a);
/* One interval counted, then written by every sink. */
void app_tick(struct app *a);
/* The watched command's totals, with its exit status. */
void app_totals(struct app *a);
void app_reap_child(struct app *a);
int app_child_exit_code(int status);
/* The descriptors the source holds (/metrics' gauge; ctx is the app). */
unsigned app_open_fds(const void *ctx);
/* Close the batch output and file (stdout, or -o's) at the run's end: code, or 1 when
 * what was written could not be (saying so for -o). */
int app_close_output(struct app *a, FILE *file, int code);
/* --listen's exporter x (made, now owned) as a sink over the source's events: 0, or 1
 * out of memory. */
int app_add_listen(struct app *a, struct exporter *x);
/* -b's writer over the panes as a sink, notice (NULL: none) first, count blocks at most
 * (0: every one): 0, or the exit code after saying why not. */
int app_add_batch(struct app *a, const char *notice, long count);

#endif
