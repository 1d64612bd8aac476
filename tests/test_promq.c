/* src/source/promq: --prometheus against a query API served here (libmicrohttpd) with
 * answers the test knows, for what the machine cannot give a real Prometheus (no PMU):
 * a multiplexed counter's running/enabled share read as ~ with its RUN%, an event a host
 * says it cannot count n/a on that host's rows only, the IPC, Cache and Branch panes'
 * ratios from their roles, and with cgroup rows (SRC_CGROUP_ROWS) the pmutop_cgroup_* queries and
 * one ROW_CGROUP row per (instance, job, cgroup). */
#include "columns.h"
#include "promqsrc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

static struct MHD_Daemon *prom;
static unsigned prom_port;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char asked[8][1024]; /* the last tick's queries, in order */
static unsigned nasked;

/* The answer to query q: two hosts a and b; on a, app's counters ran half their enabled
 * time (rates: cycles 1000 and instructions 2000 a second, 0.5 s running and 1 s enabled a
 * second; branch-misses all the time); b cannot count branch-misses. Cache references 100,
 * misses 25, branches 70 a second, instructions 2000 in each of their groups; a's bus-cycles
 * ran 0.0004 s of each enabled second. With cgroup rows, the cgroup /a/b.slice on each. A
 * third target, c, is down and has no series. With extra, b has as many more commands from
 * from_k on, moreK counting K + 1 cycles a second. */
static unsigned extra, from_k;
static bool refuse_running; /* the running-time query refused */
static bool empty_running;  /* the running-time query answers no series */
static bool a_gone;	    /* a is no longer in up (removed from the scrape) */
/* The counts' query answers this body instead, when set: a malformed answer. */
static const char *count_body;
/* Every answer held until released (or 60 s): a server that stopped answering. */
static bool hold;
static pthread_cond_t released = PTHREAD_COND_INITIALIZER;

static const char *vector_of(const char *q)
{
	bool cg = strstr(q, "pmutop_cgroup_") != NULL;
	const char *key = cg ? "\"cgroup\":\"/a/b.slice\"" : "\"comm\":\"app\"";
	static char body[65536];
	static const struct {
		const char *labels;
		double total, running; /* a's rates; enabled 1 s a second */
	} ev[] = {
		{"\"event\":\"cycles\"", 1000, 0.5},
		{"\"event\":\"instructions\",\"group\":\"cycles\"", 2000, 0.5},
		{"\"event\":\"branch-misses\"", 7, 1},
		{"\"event\":\"cache-references\"", 100, 0.5},
		{"\"event\":\"cache-misses\",\"group\":\"cache-references\"", 25, 0.5},
		{"\"event\":\"instructions\",\"group\":\"cache-references\"", 2000, 0.5},
		{"\"event\":\"branches\"", 70, 0.5},
		{"\"event\":\"instructions\",\"group\":\"branches\"", 2000, 0.5},
		{"\"event\":\"bus-cycles\"", 5, 0.0004},
	};
	int which;
	if (refuse_running && strstr(q, "running_seconds"))
		return "{\"status\":\"error\",\"error\":\"too many samples\"}";
	if (empty_running && strstr(q, "running_seconds"))
		return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}"
		       "}";
	if (count_body && strstr(q, "_total") && !strstr(q, "seconds_total"))
		return count_body;
	if (a_gone && strncmp(q, "up{", 3) == 0)
		return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
		       "{\"metric\":{\"__name__\":\"up\",\"instance\":\"b:9465\",\"job\":"
		       "\"pmutop\"},\"value\":[1700000000,\"1\"]}]}}";
	if (strstr(q, "running_seconds"))
		which = 1;
	else if (strstr(q, "enabled_seconds"))
		which = 2;
	else if (strstr(q, "_total"))
		which = 0;
	else if (strstr(q, "unavailable"))
		return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
		       "{\"metric\":{\"__name__\":\"pmutop_event_unavailable_info\","
		       "\"instance\":\"b:9465\",\"job\":\"pmutop\",\"event\":\"branch-misses\","
		       "\"why\":\"not supported\"},\"value\":[1700000000,\"1\"]}]}}";
	else if (strncmp(q, "up{", 3) == 0)
		return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
		       "{\"metric\":{\"__name__\":\"up\",\"instance\":\"a:9465\",\"job\":"
		       "\"pmutop\"},"
		       "\"value\":[1700000000,\"1\"]},"
		       "{\"metric\":{\"__name__\":\"up\",\"instance\":\"b:9465\",\"job\":"
		       "\"pmutop\"},"
		       "\"value\":[1700000000,\"1\"]},"
		       "{\"metric\":{\"__name__\":\"up\",\"instance\":\"c:9465\",\"job\":"
		       "\"pmutop\"},"
		       "\"value\":[1700000000,\"0\"]}]}}";
	else
		return "{\"status\":\"error\",\"error\":\"unknown query\"}";
	size_t n = (size_t)snprintf(body, sizeof(body),
				    "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				    "\"result\":[");
	const size_t start = n;
	for (int h = a_gone ? 1 : 0; h < 2; h++)
		for (size_t e = 0; e < sizeof(ev) / sizeof(ev[0]); e++) {
			if (h == 1 && e == 2)
				continue; /* b: no branch-misses series */
			/* b's counters ran all their enabled time */
			double x = which == 0		  ? ev[e].total
				   : which == 2 || h == 1 ? 1
							  : ev[e].running;
			n += (size_t)snprintf(body + n, sizeof(body) - n,
					      "%s{\"metric\":{\"instance\":\"%c:9465\",\"job\":"
					      "\"pmutop\",%s,%s},\"value\":[1700000000,\"%g\"]}",
					      n > start ? "," : "", h ? 'b' : 'a', key,
					      ev[e].labels, x);
		}
	for (unsigned k = 0; !cg && k < extra && n < sizeof(body); k++)
		n += (size_t)snprintf(body + n, sizeof(body) - n,
				      ",{\"metric\":{\"instance\":\"b:9465\",\"job\":\"pmutop\","
				      "\"comm\":\"more%u\",\"event\":\"cycles\"},"
				      "\"value\":[1700000000,\"%g\"]}",
				      from_k + k, which == 0 ? from_k + k + 1.0 : 1);
	snprintf(body + n, sizeof(body) - n, "]}}");
	return body;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *data,
			      size_t *size, void **ctx)
{
	(void)cls, (void)method, (void)version, (void)data, (void)size, (void)ctx;
	const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "query");
	if (!q || strcmp(url, "/api/v1/query"))
		q = "";
	pthread_mutex_lock(&lock);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	while (hold && pthread_cond_timedwait(&released, &lock, &until) == 0)
		;
	if (nasked < 8)
		snprintf(asked[nasked++], sizeof(asked[0]), "%s", q);
	const char *body = vector_of(q);
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&lock);
	enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ok;
}

static int setup(void **state)
{
	(void)state;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001)};
	prom = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL, answer, NULL,
				MHD_OPTION_SOCK_ADDR, &sa, MHD_OPTION_END);
	const union MHD_DaemonInfo *i =
		prom ? MHD_get_daemon_info(prom, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	prom_port = i ? i->port : 0;
	return prom_port ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	MHD_stop_daemon(prom);
	return 0;
}

static struct source *open_promq(bool cgroups)
{
	char url[64], err[512] = "";
	snprintf(url, sizeof(url), "http://127.0.0.1:%u", prom_port);
	struct source *s = promqsrc_new(url, "job=\"pmutop\"", NULL, 1, cgroups, err, sizeof(err));
	if (!s)
		fail_msg("promqsrc_new: %s", err);
	return s;
}

static const struct mrow *row_of(const struct model *m, const char *inst)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].instance, inst))
			return &m->rows[i];
	fail_msg("no row of %s", inst);
	return NULL;
}

static int event_of(const struct model *m, const char *key)
{
	for (unsigned e = 0; e < m->nevents; e++)
		if (!strcmp(m->events[e].key, key))
			return (int)e;
	fail_msg("no event %s", key);
	return -1;
}

/* Column col of the pane named pane, as the screen builds them for m. */
static const struct column *pane_column(const struct model *m, const char *pane, const char *col)
{
	static struct pane p[8];
	unsigned np = columns_build_panes(m, false, p, 8);
	for (unsigned k = 0; k < np; k++)
		if (!strcmp(p[k].name, pane) && pane_find_column(&p[k], col) >= 0)
			return &p[k].cols[pane_find_column(&p[k], col)];
	fail_msg("no column %s in pane %s", col, pane);
	return NULL;
}

/* One tick's queries asked afresh. */
static void tick(struct source *s)
{
	pthread_mutex_lock(&lock);
	nasked = 0;
	pthread_mutex_unlock(&lock);
	assert_int_equal(source_tick(s), 0);
}

static void test_share_na_ipc(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	tick(s);
	const struct model *m = source_model(s);
	assert_true(m->fleet);
	/* a row each of a and b, and c's one "[target down]" row, which is no command */
	assert_int_equal(m->nrows, 3);
	assert_string_equal(row_of(m, "c:9465")->comm, "[target down]");
	assert_int_equal(m->fleet_rows, 2);
	assert_false(m->fleet_cgroups);
	assert_int_equal(m->fleet_up, 2);
	assert_int_equal(m->fleet_down, 1);
	const struct mrow *a = row_of(m, "a:9465"), *b = row_of(m, "b:9465");
	assert_int_equal(a->kind, ROW_PROC);
	assert_string_equal(a->comm, "app");
	assert_string_equal(a->job, "pmutop");
	int cyc = event_of(m, "cycles"), ins = event_of(m, "instructions#cycles"),
	    bm = event_of(m, "branch-misses");
	/* a: half its enabled time running: ~ with RUN% 50, the rate times the window */
	assert_int_equal(a->v[cyc].state, VAL_SCALED);
	assert_int_equal(a->v[cyc].run_pm, 500);
	assert_true(fabs(a->v[cyc].v - 1000 * m->elapsed) < 1e-6);
	assert_int_equal(a->v[ins].state, VAL_SCALED);
	assert_int_equal(a->v[bm].state, VAL_EXACT);
	/* a counter that ran 0.04% of its time is ~ with a RUN% above 0 (0.1%), not ~ at 0 */
	int bus = event_of(m, "bus-cycles");
	assert_int_equal(a->v[bus].state, VAL_SCALED);
	assert_int_equal(a->v[bus].run_pm, 1);
	/* b: counted all the time (exact); branch-misses n/a there, and there only */
	assert_int_equal(b->v[cyc].state, VAL_EXACT);
	assert_int_equal(b->v[cyc].run_pm, 1000);
	assert_int_equal(b->v[bm].state, VAL_NA);
	/* the IPC pane: instructions over cycles, 2.00 on each host */
	const struct column *ipc = pane_column(m, "IPC", "IPC");
	assert_true(fabs(column_value(ipc, m, a).v - 2.0) < 1e-9);
	assert_true(fabs(column_value(ipc, m, b).v - 2.0) < 1e-9);
	/* of scaled counts on a (~), exact ones on b */
	assert_int_equal(column_value(ipc, m, a).state, VAL_SCALED);
	assert_int_equal(column_value(ipc, m, b).state, VAL_EXACT);
	/* the Cache pane: 25 misses of 100 references, 25 per 2000 instructions */
	const struct column *cmr = pane_column(m, "Cache", "CMISS%"),
			    *cmpki = pane_column(m, "Cache", "CMPKI");
	assert_true(fabs(column_value(cmr, m, a).v - 25.0) < 1e-9);
	assert_true(fabs(column_value(cmr, m, b).v - 25.0) < 1e-9);
	assert_true(fabs(column_value(cmpki, m, a).v - 12.5) < 1e-9);
	assert_true(fabs(column_value(cmpki, m, b).v - 12.5) < 1e-9);
	assert_int_equal(column_value(cmr, m, b).state, VAL_EXACT);
	/* the Branch pane: 7 misses of 70 branches, 7 per 2000 instructions on a; n/a on b,
	 * which cannot count branch-misses */
	const struct column *bmr = pane_column(m, "Branch", "BMISS%"),
			    *bmpki = pane_column(m, "Branch", "BMPKI");
	assert_true(fabs(column_value(bmr, m, a).v - 10.0) < 1e-9);
	assert_true(fabs(column_value(bmpki, m, a).v - 3.5) < 1e-9);
	assert_int_equal(column_value(bmr, m, b).state, VAL_NA);
	assert_int_equal(column_value(bmpki, m, b).state, VAL_NA);
	assert_true(fabs(column_value(pane_column(m, "Branch", "BRANCH"), m, b).v -
			 70 * m->elapsed) < 1e-6);
	char text[32];
	column_format(ipc, m, a, text, sizeof(text));
	assert_string_equal(text, "2.00");
	/* five queries a tick, the commands' */
	assert_int_equal(nasked, 5);
	assert_non_null(strstr(asked[0], "sum by (instance,job,comm,event,group)"));
	assert_non_null(
		strstr(asked[0], "pmutop_command_(events|clock_seconds)_total\",job=\"pmutop\""));
	source_close(s);
}

static void test_cgroup_rows(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	bool on = true;
	assert_int_equal(source_control(s, SRC_CGROUP_ROWS, &on), 0);
	tick(s);
	const struct model *m = source_model(s);
	/* the command rows gone, a cgroup row per host that answers; the header's count */
	assert_int_equal(m->nrows, 3);
	assert_int_equal(m->fleet_rows, 2);
	assert_true(m->fleet_cgroups);
	const struct mrow *a = row_of(m, "a:9465"), *b = row_of(m, "b:9465");
	assert_int_equal(a->kind, ROW_CGROUP);
	assert_string_equal(a->cgroup, "/a/b.slice");
	assert_string_equal(a->comm, "b.slice");
	assert_string_equal(b->cgroup, "/a/b.slice");
	int cyc = event_of(m, "cycles"), bm = event_of(m, "branch-misses");
	assert_int_equal(a->v[cyc].state, VAL_SCALED);
	assert_true(fabs(a->v[cyc].v - 1000 * m->elapsed) < 1e-6);
	assert_int_equal(b->v[bm].state, VAL_NA);
	assert_non_null(strstr(asked[0], "sum by (instance,job,cgroup,event,group)"));
	assert_non_null(strstr(asked[0], "pmutop_cgroup_(events|clock_seconds)_total"));
	assert_non_null(strstr(asked[1], "pmutop_cgroup_events_running_seconds_total"));
	assert_non_null(strstr(asked[2], "pmutop_cgroup_events_enabled_seconds_total"));
	/* and back */
	on = false;
	assert_int_equal(source_control(s, SRC_CGROUP_ROWS, &on), 0);
	tick(s);
	m = source_model(s);
	assert_int_equal(m->nrows, 3);
	assert_int_equal(m->fleet_rows, 2);
	assert_false(m->fleet_cgroups);
	assert_int_equal(m->rows[0].kind, ROW_PROC);
	assert_string_equal(m->rows[0].comm, "app");
	source_close(s);
}

static const struct mrow *row_named(const struct model *m, const char *inst, const char *comm)
{
	for (unsigned i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].instance, inst) && !strcmp(m->rows[i].comm, comm))
			return &m->rows[i];
	fail_msg("no row %s of %s", comm, inst);
	return NULL;
}

/* Hundreds of rows, then most of them gone (the rest moved in the table): each series
 * still finds its own row, and the rows gone leave. */
static void test_many_rows(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	extra = 300;
	tick(s);
	const struct model *m = source_model(s);
	int cyc = event_of(m, "cycles");
	assert_int_equal(m->nrows, 3 + 300);
	assert_int_equal(m->fleet_rows, 2 + 300);
	for (unsigned k = 0; k < 300; k += 37) {
		char name[16];
		snprintf(name, sizeof(name), "more%u", k);
		assert_true(fabs(row_named(m, "b:9465", name)->v[cyc].v - (k + 1) * m->elapsed) <
			    1e-6);
	}
	/* the first 288 gone: the last 12 move into their places */
	extra = 12, from_k = 288;
	tick(s);
	m = source_model(s);
	assert_int_equal(m->nrows, 3 + 12);
	assert_true(fabs(row_named(m, "a:9465", "app")->v[cyc].v - 1000 * m->elapsed) < 1e-6);
	assert_true(fabs(row_named(m, "b:9465", "app")->v[cyc].v - 1000 * m->elapsed) < 1e-6);
	/* the tick after: each found where it moved, none lost or twice */
	tick(s);
	m = source_model(s);
	assert_int_equal(m->nrows, 3 + 12);
	for (unsigned k = 288; k < 300; k++) {
		char name[16];
		snprintf(name, sizeof(name), "more%u", k);
		assert_true(fabs(row_named(m, "b:9465", name)->v[cyc].v - (k + 1) * m->elapsed) <
			    1e-6);
	}
	extra = from_k = 0;
	source_close(s);
}

/* An answer refused after the counts were read into the rows: every row n/c (stale),
 * with the reason as the notice, no count shown; the next answered tick has them again. */
static void test_refused_midway(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	tick(s);
	refuse_running = true;
	tick(s);
	refuse_running = false;
	const struct model *m = source_model(s);
	int cyc = event_of(m, "cycles");
	assert_int_equal(m->nrows, 3);
	for (unsigned i = 0; i < m->nrows; i++) {
		assert_int_equal(m->rows[i].v[cyc].state, VAL_NC);
		assert_int_equal(m->rows[i].v[cyc].why, WHY_STALE);
	}
	assert_non_null(m->source_notice);
	assert_non_null(strstr(m->source_notice, "too many samples"));
	tick(s);
	m = source_model(s);
	assert_int_equal(row_of(m, "b:9465")->v[cyc].state, VAL_EXACT);
	source_close(s);
}

/* Answers a broken or hostile server could give: a null or non-string status, label or
 * value, a value that is no array, a number that is not finite or is negative. None
 * crashes; a status that is no string is "not a Prometheus answer" (every row n/c, said),
 * a sample that is no number is no sample (the row n/c), a null label names nothing. */
static void test_malformed_answers(void **state)
{
	(void)state;
	static const char *const bodies[] = {
		"{\"status\":null}",
		"{\"status\":5}",
		"{\"status\":\"error\",\"error\":null}",
		"{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":{\"instance\":null,"
		"\"job\":\"pmutop\",\"comm\":\"app\",\"event\":\"cycles\"},\"value\":[1,\"5\"]}]}}",
		"{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":{\"instance\":\"a:"
		"9465\","
		"\"job\":\"pmutop\",\"comm\":\"app\",\"event\":\"cycles\"},\"value\":\"5\"}]}}",
		"{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":{\"instance\":\"a:"
		"9465\","
		"\"job\":\"pmutop\",\"comm\":\"app\",\"event\":\"cycles\"},\"value\":[1,null]}]}}",
		"{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":{\"instance\":\"a:"
		"9465\","
		"\"job\":\"pmutop\",\"comm\":\"app\",\"event\":\"cycles\"},\"value\":[1,\"NaN\"]},"
		"{\"metric\":{\"instance\":\"b:9465\",\"job\":\"pmutop\",\"comm\":\"app\","
		"\"event\":\"cycles\"},\"value\":[1,\"-3\"]}]}}",
		"{\"status\":\"success\",\"data\":{\"result\":[{\"metric\":null,\"value\":[1,\"5\"]"
		"},"
		"{\"metric\":{\"instance\":\"a:9465\",\"job\":\"pmutop\",\"comm\":\"app\","
		"\"event\":\"cycles\"},\"value\":[1,\"1e999\"]}]}}",
	};
	for (size_t k = 0; k < sizeof(bodies) / sizeof(bodies[0]); k++) {
		struct source *s = open_promq(false);
		pthread_mutex_lock(&lock);
		count_body = bodies[k];
		pthread_mutex_unlock(&lock);
		tick(s);
		const struct model *m = source_model(s);
		if (k < 3) {
			assert_non_null(m->source_notice);
			assert_non_null(strstr(m->source_notice,
					       k < 2 ? "not a Prometheus" : "no reason given"));
		}
		/* a's app never reads a count from a sample that is not a number */
		for (unsigned i = 0; i < m->nrows; i++)
			for (unsigned e = 0; e < m->nevents; e++)
				if (!strcmp(m->events[e].key, "cycles"))
					assert_int_not_equal(m->rows[i].v[e].state, VAL_EXACT);
		pthread_mutex_lock(&lock);
		count_body = NULL;
		pthread_mutex_unlock(&lock);
		source_close(s);
	}
}

/* A count whose running-time series is missing from this tick's answer is n/c, not read
 * with the share an earlier tick answered. */
static void test_share_missing(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	tick(s);
	const struct model *m = source_model(s);
	int cyc = event_of(m, "cycles");
	assert_int_equal(row_of(m, "a:9465")->v[cyc].state, VAL_SCALED);
	empty_running = true;
	tick(s);
	empty_running = false;
	m = source_model(s);
	const struct mrow *a = row_of(m, "a:9465");
	assert_int_equal(a->v[cyc].state, VAL_NC);
	assert_int_equal(a->v[cyc].why, WHY_STALE);
	tick(s);
	m = source_model(s);
	assert_int_equal(row_of(m, "a:9465")->v[cyc].state, VAL_SCALED);
	source_close(s);
}

/* A target gone from up and its series stale (no longer scraped: removed, or replaced
 * under another address) takes its rows with it; one that is down keeps them, n/c. */
static void test_target_gone(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	tick(s);
	const struct model *m = source_model(s);
	assert_non_null(row_of(m, "a:9465"));
	a_gone = true;
	tick(s);
	a_gone = false;
	m = source_model(s);
	for (unsigned i = 0; i < m->nrows; i++)
		assert_string_not_equal(m->rows[i].instance, "a:9465");
	assert_non_null(row_of(m, "b:9465"));
	source_close(s);
}

/* A signal that ends the run, waiting while Prometheus does not answer: the tick gives up
 * with -EINTR (no tick published) while the server still holds its answer, rather than
 * after each query's 10 s. */
static void test_stop_while_waiting(void **state)
{
	(void)state;
	struct source *s = open_promq(false);
	tick(s);
	uint64_t before = source_model(s)->tick;
	sigset_t term, old;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	assert_int_equal(sigprocmask(SIG_BLOCK, &term, &old), 0);
	pthread_mutex_lock(&lock);
	hold = true;
	pthread_mutex_unlock(&lock);
	assert_int_equal(pthread_kill(pthread_self(), SIGTERM), 0); /* pending: blocked */
	int rc = source_tick(s);
	pthread_mutex_lock(&lock);
	bool still_held = hold;
	hold = false;
	pthread_cond_broadcast(&released);
	pthread_mutex_unlock(&lock);
	int sig = 0;
	assert_int_equal(sigwait(&term, &sig), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	assert_int_equal(rc, -EINTR);
	assert_true(still_held);
	assert_int_equal(source_model(s)->tick, before);
	source_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_share_na_ipc),
					   cmocka_unit_test(test_cgroup_rows),
					   cmocka_unit_test(test_many_rows),
					   cmocka_unit_test(test_refused_midway),
					   cmocka_unit_test(test_malformed_answers),
					   cmocka_unit_test(test_share_missing),
					   cmocka_unit_test(test_target_gone),
					   cmocka_unit_test(test_stop_while_waiting)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
