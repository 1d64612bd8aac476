/* The bpf backend's rows from the program's per-task sums (bpfrows.c), built from fake
 * map entries: no program, no hardware counter. A hardware event's count read at the
 * switch holds the switch windows that brought the task in (win), which perf -p counts
 * for no task: its cell is ~ (WHY_SWITCH) with its value unscaled where they are over 1%
 * of the time it counted; clocks and software events never are. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfsource_priv.h"
#include "procinfo.h"
#include "tidhash.h"
#include "testutil.h"

/* No process has this pid: /proc has nothing of it, and the rows are the entries'. */
#define FAKE_PID 0x3ffffff0

struct fake {
	struct evset set;
	struct bpfsource e;
	struct bpfstate s;
	unsigned tc, cs, cyc, ins; /* model event indices */
};

static unsigned event_index(const struct evset *set, const char *name)
{
	for (unsigned i = 0; i < set->nevents; i++)
		if (strcmp(set->events[i].name, name) == 0)
			return i;
	fail_msg("no event %s", name);
	return 0;
}

static void fake_init(struct fake *f, pid_t *pid)
{
	struct evspec_err perr;
	memset(f, 0, sizeof(*f));
	assert_int_equal(evset_build(&f->set, NULL,
				     "task-clock,context-switches,cycles,instructions", NULL,
				     &perr),
			 0);
	struct srcopts o = {.root = "",
			    .scope = SCOPE_PIDS,
			    .pids = pid,
			    .npids = 1,
			    .threads = true,
			    .no_cpu_rows = true,
			    .interval = 1};
	assert_int_equal(srcbase_init(&f->e.b, &f->set, &o), 0);
	struct bpfstate *s = &f->s;
	size_t ne = f->set.nevents + 1;
	f->e.bpf = s;
	s->nev = f->set.nevents;
	s->ev_of = calloc(ne, sizeof(*s->ev_of));
	s->why = calloc(ne, 1);
	s->at_sw = calloc(ne, 1);
	s->clk = calloc(ne, 1);
	s->d = calloc(ne, sizeof(*s->d));
	s->gone = calloc(2 * ne, sizeof(*s->gone));
	s->unattr = calloc(ne, sizeof(*s->unattr));
	s->unattr_was = calloc(ne, sizeof(*s->unattr_was));
	s->pi = procinfo_new();
	assert_true(s->ev_of && s->why && s->at_sw && s->clk && s->d && s->gone && s->unattr &&
		    s->unattr_was && s->pi);
	for (unsigned i = 0; i < s->nev; i++)
		s->ev_of[i] = i;
	f->tc = event_index(&f->set, "task-clock");
	f->cs = event_index(&f->set, "context-switches");
	f->cyc = event_index(&f->set, "cycles");
	f->ins = event_index(&f->set, "instructions");
	s->clk[f->tc] = 1;
	s->at_sw[f->cs] = 1;
	/* two reads of two threads: cur and old */
	struct brecs *r[2] = {&s->cur, &s->old};
	for (int k = 0; k < 2; k++) {
		r[k]->cap = 2;
		r[k]->r = calloc(2, sizeof(*r[k]->r));
		r[k]->tot = calloc(2 * s->nev, sizeof(*r[k]->tot));
		assert_true(r[k]->r && r[k]->tot);
	}
	s->oldi = calloc(2, sizeof(*s->oldi));
	s->oldi_cap = 2;
	assert_non_null(s->oldi);
}

static void fake_free(struct fake *f)
{
	struct bpfstate *s = &f->s;
	free(s->cur.r);
	free(s->cur.tot);
	free(s->old.r);
	free(s->old.tot);
	free(s->oldi);
	free(s->ev_of);
	free(s->why);
	free(s->at_sw);
	free(s->clk);
	free(s->d);
	mstore_free(&s->zero);
	bpfrows_rt_free(s);
	free(s->gone);
	free(s->unattr);
	free(s->unattr_was);
	procinfo_free(s->pi);
	srcbase_fini(&f->e.b);
	evset_free(&f->set);
}

/* Thread tid of FAKE_PID in read r (slot i): every event counted for ena ns, count val
 * (a clock its time), switches sw, and win ns of switch windows since its entry. */
static void entry(struct fake *f, struct brecs *r, size_t i, pid_t tid, uint64_t ena, uint64_t val,
		  unsigned sw, uint64_t win)
{
	struct brec *b = &r->r[i];
	memset(b, 0, sizeof(*b));
	b->tgid = FAKE_PID;
	b->tid = tid;
	b->slices = sw;
	b->win = win;
	strcpy(b->comm, "fake");
	struct pmutop_bpf_ev *t = &r->tot[i * f->s.nev];
	for (unsigned k = 0; k < f->s.nev; k++)
		t[k] = (struct pmutop_bpf_ev){.val = k == f->tc	  ? ena
						     : k == f->cs ? sw
								  : val,
					      .ena = ena,
					      .run = ena};
	r->n = i + 1;
}

/* Threads FAKE_PID and FAKE_PID + 1 in read r, each as {ena, val, sw, win} (entry). */
static void entries(struct fake *f, struct brecs *r, const uint64_t a[4], const uint64_t b[4])
{
	entry(f, r, 0, FAKE_PID, a[0], a[1], (unsigned)a[2], a[3]);
	entry(f, r, 1, FAKE_PID + 1, b[0], b[1], (unsigned)b[2], b[3]);
}

static void test_switch_window_marks_hardware_cells(void **state)
{
	(void)state;
	struct fake f;
	pid_t pid = FAKE_PID;
	fake_init(&f, &pid);
	/* Thread 1: 100 ms counted in the interval, 2 ms of it switch windows (1,000
	 * switches of 2 us): 2%. Thread 2: 100 ms, 0.5 ms of windows: 0.5%. */
	entries(&f, &f.s.old, (uint64_t[]){50000000, 1000000, 10, 100000},
		(uint64_t[]){50000000, 1000000, 10, 100000});
	entries(&f, &f.s.cur, (uint64_t[]){150000000, 3000000, 1010, 2100000},
		(uint64_t[]){150000000, 3000000, 260, 600000});
	bpfrows_build(&f.e, false);
	const struct model *m = &f.e.b.m;
	assert_int_equal(m->nrows, 3); /* the process, its two threads */
	const struct mrow *p = &m->rows[0], *t1 = &m->rows[1], *t2 = &m->rows[2];
	assert_int_equal(t1->tid, FAKE_PID);
	assert_int_equal(t2->tid, FAKE_PID + 1);

	/* Thread 1: cycles and instructions ~, unscaled, 98% its own. */
	for (unsigned k = 0; k < 2; k++) {
		unsigned ev = k ? f.ins : f.cyc;
		assert_int_equal(t1->v[ev].state, VAL_SCALED);
		assert_int_equal(t1->v[ev].why, WHY_SWITCH);
		assert_int_equal(t1->v[ev].run_pm, 980);
		assert_true(t1->v[ev].v == 2000000.0);
		/* Thread 2: under 1%, exact. */
		assert_int_equal(t2->v[ev].state, VAL_EXACT);
		assert_true(t2->v[ev].v == 2000000.0);
		/* The process: 2.5 ms of 200 ms, 1.25%: ~, unscaled. */
		assert_int_equal(p->v[ev].state, VAL_SCALED);
		assert_int_equal(p->v[ev].why, WHY_SWITCH);
		assert_int_equal(p->v[ev].run_pm, 987);
		assert_true(p->v[ev].v == 4000000.0);
	}
	/* The clock and the switches: exact, however many windows. */
	assert_int_equal(t1->v[f.tc].state, VAL_EXACT);
	assert_int_equal(t1->v[f.cs].state, VAL_EXACT);
	assert_true(t1->v[f.cs].v == 1000.0);
	assert_int_equal(p->v[f.tc].state, VAL_EXACT);
	assert_int_equal(p->v[f.cs].state, VAL_EXACT);
	assert_string_equal(val_why_str(WHY_SWITCH), "switch window counted");
	fake_free(&f);
}

/* Every cell of row r reads 0, exactly (a task that did not run: never n/c). */
static void assert_zero_row(const struct fake *f, const struct mrow *r)
{
	for (unsigned k = 0; k < f->set.nevents; k++) {
		assert_int_equal(r->v[k].state, VAL_EXACT);
		assert_true(r->v[k].v == 0.0);
	}
}

/* A task unchanged since its last read (its row's values copied from one made once a
 * tick) reads 0 in each cell, at the tick after one in which it ran too; a task that ran
 * gets its new values; one whose slice went missing (same sums, missed + 1) is not taken
 * for unchanged. Four ticks: each thread idle at one, both at the third. */
static void test_idle_task_reads_zero(void **state)
{
	(void)state;
	struct fake f;
	pid_t pid = FAKE_PID;
	fake_init(&f, &pid);
	entries(&f, &f.s.old, (uint64_t[]){50000000, 1000000, 10, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	/* Tick 1: thread 1 ran (+20 ms, +500,000, +5 switches), thread 2 did not. */
	entries(&f, &f.s.cur, (uint64_t[]){70000000, 1500000, 15, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	bpfrows_build(&f.e, false);
	const struct model *m = &f.e.b.m;
	assert_int_equal(m->nrows, 3);
	const struct mrow *p = &m->rows[0], *t1 = &m->rows[1], *t2 = &m->rows[2];
	assert_int_equal(t2->tid, FAKE_PID + 1);
	assert_true(t1->v[f.cyc].v == 500000.0);
	assert_true(t1->v[f.cs].v == 5.0);
	assert_true(p->v[f.cyc].v == 500000.0);
	assert_zero_row(&f, t2);
	/* Tick 2: thread 1 did not run (its last values must not stay), thread 2 ran. */
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){70000000, 1500000, 15, 0},
		(uint64_t[]){80000000, 1300000, 12, 0});
	bpfrows_build(&f.e, false);
	assert_int_equal(m->nrows, 3);
	p = &m->rows[0], t1 = &m->rows[1], t2 = &m->rows[2];
	assert_zero_row(&f, t1);
	assert_true(t2->v[f.cyc].v == 300000.0);
	assert_true(t2->v[f.tc].v == 30000000.0);
	assert_true(p->v[f.cyc].v == 300000.0);
	assert_true(p->v[f.cs].v == 2.0);
	/* Tick 3: neither ran: the process reads 0 too. */
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){70000000, 1500000, 15, 0},
		(uint64_t[]){80000000, 1300000, 12, 0});
	bpfrows_build(&f.e, false);
	assert_zero_row(&f, &m->rows[0]);
	assert_zero_row(&f, &m->rows[1]);
	assert_zero_row(&f, &m->rows[2]);
	/* Tick 4: thread 2's sums as they were, but a slice of it missed: not 0. */
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){70000000, 1500000, 15, 0},
		(uint64_t[]){80000000, 1300000, 12, 0});
	f.s.cur.r[1].missed = 1;
	bpfrows_build(&f.e, false);
	assert_zero_row(&f, &m->rows[1]);
	assert_int_equal(m->rows[2].v[f.cyc].state, VAL_NC);
	assert_int_equal(m->rows[2].v[f.cyc].why, WHY_UNSEEN);
	assert_int_equal(m->rows[0].v[f.cyc].state, VAL_NC);
	fake_free(&f);
}

/* A fake /proc under root: FAKE_PID's thread tid with ns of run time. */
static void fake_schedstat(const char *root, pid_t tid, unsigned long long ns)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d", root, FAKE_PID, (int)tid);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	strcat(path, "/schedstat");
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fprintf(f, "%llu 0 0\n", ns);
	assert_int_equal(fclose(f), 0);
}

/* The run times of a process that hides runs (a slice missed) are read through their
 * schedstat kept open from tick to tick: with the files' paths gone (renamed) after the
 * first tick, a thread whose run time grew with nothing of it seen still reads n/c at
 * the next, the other 0; and each descriptor kept is closed once its thread is not read
 * again. */
static void test_runtime_kept_open(void **state)
{
	(void)state;
	char root[64], cmd[200];
	snprintf(root, sizeof(root), "/tmp/pmutop-rt-%d", (int)getpid());
	fake_schedstat(root, FAKE_PID, 1000000);
	fake_schedstat(root, FAKE_PID + 1, 1000000);
	struct fake f;
	pid_t pid = FAKE_PID;
	fake_init(&f, &pid);
	f.e.b.o.root = root;
	for (int k = 0; k < 2; k++) {
		struct brecs *r = k ? &f.s.cur : &f.s.old;
		entries(&f, r, (uint64_t[]){50000000, 1000000, 10, 0},
			(uint64_t[]){50000000, 1000000, 10, 0});
		r->r[0].missed = r->r[1].missed = 1;
	}
	bpfrows_build(&f.e, false);
	assert_int_equal(f.s.nrt, 2);
	int kept = f.s.rt[0].fd;
	/* Thread 1 runs 1 ms unseen; then no path leads to either file. */
	char path[512], gone[520];
	snprintf(path, sizeof(path), "%s/proc/%d/task/%d/schedstat", root, FAKE_PID, FAKE_PID);
	int w = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(w >= 0);
	snprintf(path, sizeof(path), "%s/proc/%d/task", root, FAKE_PID);
	snprintf(gone, sizeof(gone), "%s.gone", path);
	assert_int_equal(rename(path, gone), 0);
	const char grown[] = "2000000 0 0\n";
	assert_int_equal(pwrite(w, grown, sizeof(grown) - 1, 0), (ssize_t)sizeof(grown) - 1);
	close(w);
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){50000000, 1000000, 10, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	f.s.cur.r[0].missed = f.s.cur.r[1].missed = 1;
	bpfrows_build(&f.e, false);
	const struct model *m = &f.e.b.m;
	assert_int_equal(m->rows[1].tid, FAKE_PID);
	assert_int_equal(m->rows[1].v[f.tc].state, VAL_NC);
	assert_int_equal(m->rows[1].v[f.tc].why, WHY_UNSEEN);
	assert_zero_row(&f, &m->rows[2]);
	assert_int_equal(f.s.nrt, 2);
	assert_int_equal(f.s.rt[0].fd, kept);
	/* Both run times unreadable (not a number; their path back). Thread 2, nothing of
	 * it seen: not a thread that did not run, but one whose run is not known: n/c.
	 * Thread 1 ran a slice seen (one switch, 10 ms): its count, exact. */
	for (int t = 0; t < 2; t++) {
		snprintf(path, sizeof(path), "%s/%d/schedstat", gone, FAKE_PID + t);
		w = open(path, O_WRONLY | O_CLOEXEC);
		assert_true(w >= 0);
		assert_int_equal(pwrite(w, "x", 1, 0), 1);
		close(w);
	}
	snprintf(path, sizeof(path), "%s/proc/%d/task", root, FAKE_PID);
	assert_int_equal(rename(gone, path), 0);
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){60000000, 1100000, 11, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	f.s.cur.r[0].missed = f.s.cur.r[1].missed = 1;
	bpfrows_build(&f.e, false);
	assert_int_equal(m->rows[1].v[f.tc].state, VAL_EXACT);
	assert_true(m->rows[1].v[f.tc].v == 10000000.0);
	assert_int_equal(m->rows[2].v[f.tc].state, VAL_NC);
	assert_int_equal(m->rows[2].v[f.tc].why, WHY_UNSEEN);
	/* Neither hides any more: nothing read, nothing kept open. */
	bpfrows_swap(&f.s);
	entries(&f, &f.s.cur, (uint64_t[]){50000000, 1000000, 10, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	bpfrows_build(&f.e, false);
	assert_int_equal(f.s.nrt, 0);
	assert_int_equal(fcntl(kept, F_GETFD), -1);
	fake_free(&f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* The totals, as state_totals builds them from the last read (old after a tick's swap). */
static void fake_totals(struct fake *f)
{
	bpfrows_swap(&f->s);
	bpfrows_build(&f->e, true);
	bpfrows_swap(&f->s);
}

/* -- COMMAND's totals when every task of its tree ended and was read for the last time a
 * tick before its end was seen (the command's SIGCHLD after the tick that read it dead):
 * the command's row still, with the tree's counts, not an empty total block. */
static void test_tree_totals_after_last_read(void **state)
{
	(void)state;
	struct fake f;
	pid_t pid = FAKE_PID;
	fake_init(&f, &pid);
	f.s.root = FAKE_PID;
	entries(&f, &f.s.old, (uint64_t[]){50000000, 1000000, 10, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	/* Read 1: both threads ended since (their last sums, since their entries). */
	entries(&f, &f.s.cur, (uint64_t[]){80000000, 1500000, 15, 0},
		(uint64_t[]){70000000, 1200000, 12, 0});
	f.s.cur.r[0].flags = f.s.cur.r[1].flags = PMUTOP_BPF_DEAD;
	bpfrows_build(&f.e, false);
	bpfrows_swap(&f.s);
	/* Read 2: none of the tree left. */
	f.s.cur.n = 0;
	bpfrows_build(&f.e, false);
	assert_int_equal(f.e.b.m.nrows, 0);
	bpfrows_swap(&f.s);
	fake_totals(&f);
	const struct model *m = &f.e.b.m;
	assert_int_equal(m->nrows, 1);
	const struct mrow *p = &m->rows[0];
	assert_int_equal(p->kind, ROW_PROC);
	assert_int_equal(p->pid, FAKE_PID);
	assert_string_equal(p->comm, "fake");
	assert_true(p->exited);
	assert_int_equal(p->v[f.tc].state, VAL_EXACT);
	assert_true(p->v[f.tc].v == 150000000.0);
	assert_true(p->v[f.cs].v == 27.0);
	assert_true(p->v[f.cyc].v == 2700000.0);
	fake_free(&f);
}

/* -- COMMAND's totals when the command ended first and a process it started goes on:
 * the row is still the command's (its pid, its name), from its thread as last read. */
static void test_tree_totals_name_the_command(void **state)
{
	(void)state;
	struct fake f;
	pid_t pid = FAKE_PID;
	fake_init(&f, &pid);
	f.s.root = FAKE_PID;
	/* Read 1: the command and a process it started (a daemon, pid FAKE_PID + 1). */
	entries(&f, &f.s.cur, (uint64_t[]){50000000, 1000000, 10, 0},
		(uint64_t[]){50000000, 1000000, 10, 0});
	f.s.cur.r[1].tgid = FAKE_PID + 1;
	strcpy(f.s.cur.r[0].comm, "cmd");
	strcpy(f.s.cur.r[1].comm, "daemon");
	bpfrows_build(&f.e, false);
	bpfrows_swap(&f.s);
	/* Read 2: the command's entry gone (it ended and was let go), the daemon on. */
	entries(&f, &f.s.cur, (uint64_t[]){70000000, 1200000, 12, 0}, (uint64_t[]){0, 0, 0, 0});
	f.s.cur.r[0].tid = f.s.cur.r[0].tgid = FAKE_PID + 1;
	strcpy(f.s.cur.r[0].comm, "daemon");
	f.s.cur.n = 1;
	bpfrows_build(&f.e, false);
	bpfrows_swap(&f.s);
	fake_totals(&f);
	const struct model *m = &f.e.b.m;
	assert_int_equal(m->nrows, 1);
	assert_int_equal(m->rows[0].pid, FAKE_PID);
	assert_string_equal(m->rows[0].comm, "cmd");
	fake_free(&f);
}

static int cmp_bkey(const void *a, const void *b)
{
	const struct bkey *x = a, *y = b;
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The keys sorted from the last tick's order equal the keys sorted afresh, each with its
 * index in this read, over ticks at which tasks come and go, the map's order of those
 * that stay changes, and a tid comes back in another process. */
static void test_keys_sorted_from_last_order(void **state)
{
	(void)state;
	enum { MAXK = 3000 };
	struct bpfstate s;
	memset(&s, 0, sizeof(s));
	assert_int_equal(bpfrows_keys_room(&s, MAXK), 0);
	struct bkey *want = calloc(MAXK, sizeof(*want));
	pid_t *tids = calloc(MAXK, sizeof(*tids));
	assert_non_null(want);
	assert_non_null(tids);
	size_t n = 0, was = 0;
	pid_t next = 100;
	srand(40);
	for (int tick = 0; tick < 60; tick++) {
		/* Some go, some come (at tick 30 nearly all), a few move in the map. */
		size_t keep = 0;
		for (size_t i = 0; i < n; i++)
			if (tick == 30 ? rand() % 10 == 0 : rand() % 20 != 0)
				tids[keep++] = tids[i];
		n = keep;
		for (int a = rand() % 200; a > 0 && n < MAXK; a--)
			tids[n++] = rand() % 7 == 0 ? 100 + rand() % 50 : next++;
		for (int sw = rand() % 5; sw > 0 && n > 1; sw--) {
			size_t i = (size_t)rand() % n, j = (size_t)rand() % n;
			pid_t t = tids[i];
			tids[i] = tids[j];
			tids[j] = t;
		}
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			bool dup = false;
			for (size_t j = 0; j < k && !dup; j++)
				dup = s.keys[j].tid == tids[i];
			if (dup)
				continue;
			/* A tid reused by another process at times. */
			pid_t tgid = tids[i] / 4 * 4 + (tick % 17 == 0 && tids[i] % 3 == 0);
			s.keys[k] = (struct bkey){tgid, tids[i], (unsigned)(k * 3 + 1)};
			k++;
		}
		memcpy(want, s.keys, k * sizeof(*want));
		qsort(want, k, sizeof(*want), cmp_bkey);
		bpfrows_resort_keys(&s, k, was);
		for (size_t i = 0; i < k; i++)
			if (memcmp(&s.skeys[i], &want[i], sizeof(*want)) != 0)
				fail_msg(
					"tick %d, key %zu of %zu: %d/%d@%u, sorted afresh %d/%d@%u",
					tick, i, k, s.skeys[i].tgid, s.skeys[i].tid, s.skeys[i].src,
					want[i].tgid, want[i].tid, want[i].src);
		was = k;
	}
	free(want);
	free(tids);
	free(s.keys);
	free(s.skeys);
	free(s.pkeys);
	free(s.tkeys);
	free(s.hash);
	free(s.taken);
}

/* The reader's image found by tid (tidhash.h) as tids come and go, each one going in a
 * step (tidhash_take: out of the hash, the last entry moved into its place): every
 * tid kept is found at its index, none gone is, in a hash of 64 cells filled to 5/8
 * (long probes, runs that wrap past the last cell). */
static void test_tidhash_remove(void **state)
{
	(void)state;
	enum { BITS = 6, CELLS = 1 << BITS, MAXN = 40 };
	unsigned hash[CELLS], keys[MAXN], gone[4 * MAXN];
	size_t n = 0, ngone = 0, c;
	memset(hash, 0xff, sizeof(hash));
	srand(4040);
	for (int step = 0; step < 5000; step++) {
		if (n < MAXN && (n < MAXN / 2 || rand() % 2)) {
			unsigned tid = 1 + (unsigned)rand() % 4096;
			if (tidhash_find(hash, BITS, keys, tid, &c) != SIZE_MAX)
				continue;
			keys[n] = tid;
			hash[c] = (unsigned)n++;
		} else {
			size_t at = (size_t)rand() % n;
			assert_int_equal(tidhash_find(hash, BITS, keys, keys[at], &c), at);
			gone[ngone++ % (4 * MAXN)] = keys[at];
			n = tidhash_take(hash, BITS, keys, n, at, c);
		}
		for (size_t i = 0; i < n; i++)
			if (tidhash_find(hash, BITS, keys, keys[i], &c) != i)
				fail_msg("step %d: tid %u at %zu not found", step, keys[i], i);
		for (size_t g = 0; g < ngone && g < 4 * MAXN; g++) {
			bool back = false;
			for (size_t i = 0; i < n && !back; i++)
				back = keys[i] == gone[g];
			if (!back && tidhash_find(hash, BITS, keys, gone[g], &c) != SIZE_MAX)
				fail_msg("step %d: tid %u found after it went", step, gone[g]);
		}
		size_t used = 0;
		for (size_t k = 0; k < CELLS; k++)
			used += hash[k] != UINT_MAX;
		assert_int_equal(used, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_window_marks_hardware_cells),
		cmocka_unit_test(test_keys_sorted_from_last_order),
		cmocka_unit_test(test_idle_task_reads_zero),
		cmocka_unit_test(test_tidhash_remove),
		cmocka_unit_test(test_runtime_kept_open),
		cmocka_unit_test(test_tree_totals_after_last_read),
		cmocka_unit_test(test_tree_totals_name_the_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
