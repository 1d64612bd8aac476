/* The exporter's loop: tick, add up, publish. Scrapes are served meanwhile by the
 * exporter's own thread from what was published last. */
#include "listen.h"

#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

static void publish(struct exporter *x, const struct promacc *acc, const struct engine *e)
{
	struct promtext_info in = {.version = PMUTOP_VERSION,
				   .targets = promacc_targets(acc),
				   .open_fds = engine_open_fds(e),
				   .tasks = engine_model(e)->ntasks};
	if (exporter_publish(x, acc, &in))
		fprintf(stderr, "pmutop: out of memory building /metrics: the last one stays\n");
}

int listen_run(struct engine *e, struct loop *l, struct exporter *x, const struct promacc_opts *o)
{
	struct promacc *acc = promacc_new(o);
	if (!acc)
		return 1;
	publish(x, acc, e);
	fprintf(stderr, "pmutop: listening on %s\n", exporter_addr(x));
	int code = 0;
	for (;;) {
		struct loop_events ev;
		if (loop_wait(l, &ev) < 0) {
			code = 1;
			break;
		}
		if (ev.mask & LOOP_SIGNAL) {
			if (ev.signo == SIGCHLD) {
				while (waitpid(-1, NULL, WNOHANG) > 0)
					;
			} else if (ev.signo == SIGTSTP) {
				raise(SIGSTOP);
			} else if (ev.signo != SIGWINCH && ev.signo != SIGCONT) {
				break;
			}
		}
		if (ev.mask & LOOP_TICK) {
			engine_tick(e);
			/* Whether the last exposition was served, asked before this tick's
			 * replaces it: targets gone by then may go now. */
			bool served = exporter_served(x);
			if (promacc_update(acc, engine_model(e), served))
				fprintf(stderr, "pmutop: out of memory: some targets are not "
						"exported\n");
			publish(x, acc, e);
		}
	}
	promacc_free(acc);
	return code;
}
