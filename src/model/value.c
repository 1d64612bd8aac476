/* Scaling and combining counted values. */
#include "value.h"

struct val val_scale(struct val_delta d)
{
	struct val v = {.v = 0, .state = VAL_EXACT, .why = WHY_NONE, .run_pm = 1000};
	if (d.ena == 0) {
		/* The task never ran: nothing happened, and nothing was missed. */
		return v;
	}
	if (d.run == 0) {
		v.state = VAL_NC;
		v.why = WHY_NOT_RUN;
		v.run_pm = 0;
		return v;
	}
	if (d.run < d.ena) {
		v.v = (double)d.val * (double)d.ena / (double)d.run;
		v.state = VAL_SCALED;
		/* In double: run * 1000 overflows 64 bits on long totals. */
		v.run_pm = (uint16_t)((double)d.run * 1000.0 / (double)d.ena + 0.5);
		if (v.run_pm >= 1000)
			v.run_pm = 999; /* scaled, however little: never show it as 100% */
		return v;
	}
	v.v = (double)d.val;
	return v;
}

struct val val_missing(enum val_state st, enum val_why why)
{
	struct val v = {.v = 0, .state = (uint8_t)st, .why = (uint8_t)why, .run_pm = 0};
	return v;
}

struct val val_partial(struct val v, unsigned counted, unsigned missing, enum val_why why)
{
	if (counted == 0)
		return val_missing(VAL_NC, why);
	if (missing == 0 || !val_has_number(v))
		return v;
	/* The parts' share, each part counted as much as it was itself. */
	double share = (double)counted * (v.state == VAL_PARTIAL ? v.run_pm / 1000.0 : 1.0) /
		       ((double)counted + (double)missing);
	v.state = VAL_PARTIAL;
	v.why = (uint8_t)why;
	v.run_pm = val_pm_some(share * 1000.0);
	return v;
}

uint16_t val_pm_some(double pm)
{
	return (uint16_t)(pm < 1 ? 1 : pm > 999 ? 999 : pm);
}

static int rank(enum val_state st)
{
	/* Worst first: what a derived metric inherits from its inputs. */
	switch (st) {
	case VAL_NA:
		return 0;
	case VAL_NC:
		return 1;
	case VAL_EMPTY:
		return 2;
	case VAL_PARTIAL:
		return 3;
	case VAL_SCALED:
		return 4;
	case VAL_EXACT:
		break;
	}
	return 5;
}

struct val val_ratio(struct val a, struct val b, double mul)
{
	struct val w = rank(a.state) <= rank(b.state) ? a : b;
	struct val r = {.v = 0,
			.state = w.state,
			.why = w.why,
			.run_pm = a.run_pm < b.run_pm ? a.run_pm : b.run_pm};
	if (!val_has_number(a) || !val_has_number(b))
		return r;
	if (b.v == 0) {
		r.state = VAL_EMPTY;
		return r;
	}
	r.v = a.v * mul / b.v;
	return r;
}

bool val_worse(struct val a, struct val b)
{
	return rank(a.state) < rank(b.state);
}

bool val_has_number(struct val v)
{
	return v.state == VAL_EXACT || v.state == VAL_SCALED || v.state == VAL_PARTIAL;
}

char val_suffix(struct val v)
{
	return v.state == VAL_SCALED ? '~' : v.state == VAL_PARTIAL ? '+' : 0;
}

const char *val_mark(struct val v)
{
	switch (v.state) {
	case VAL_NA:
		return "n/a";
	case VAL_NC:
		return "n/c";
	case VAL_EMPTY:
		return "-";
	default:
		return 0;
	}
}

const char *val_why_str(enum val_why why)
{
	switch (why) {
	case WHY_NONE:
		return "";
	case WHY_UNSUPPORTED:
		return "unsupported";
	case WHY_NOPERM:
		return "no permission";
	case WHY_FDLIMIT:
		return "fd limit";
	case WHY_GONE:
		return "task gone";
	case WHY_INVALID:
		return "invalid";
	case WHY_NOT_RUN:
		return "not counted";
	case WHY_NOFIT:
		return "group too large for the PMU";
	case WHY_STARTING:
		return "starting";
	case WHY_KERNEL_ONLY:
		return "kernel-mode event in user mode";
	case WHY_UNSEEN:
		return "switch not seen";
	case WHY_PER_CORE:
		return "per-core metric";
	case WHY_DIVZERO:
		return "division by zero";
	case WHY_STALE:
		return "host not answering";
	case WHY_SWITCH:
		return "switch window counted";
	case WHY_ERROR:
		break;
	}
	return "error";
}

const char *val_state_str(enum val_state st)
{
	switch (st) {
	case VAL_NA:
		return "n/a";
	case VAL_NC:
		return "n/c";
	case VAL_EMPTY:
		return "empty";
	case VAL_EXACT:
		return "exact";
	case VAL_PARTIAL:
		return "partial";
	case VAL_SCALED:
		break;
	}
	return "scaled";
}
