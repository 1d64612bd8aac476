/* The kill menu's list: see siglist.h. */
#include "siglist.h"

#include <signal.h>
#include <stdio.h>

/* By macro, not by number: the numbers differ between architectures (MIPS, SPARC). */
static const struct {
	int sig;
	const char *name;
} std_sigs[] = {
	{SIGHUP, "SIGHUP"},	  {SIGINT, "SIGINT"},	{SIGQUIT, "SIGQUIT"},
	{SIGILL, "SIGILL"},	  {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
	{SIGBUS, "SIGBUS"},	  {SIGFPE, "SIGFPE"},	{SIGKILL, "SIGKILL"},
	{SIGUSR1, "SIGUSR1"},	  {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
	{SIGPIPE, "SIGPIPE"},	  {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
#ifdef SIGSTKFLT
	{SIGSTKFLT, "SIGSTKFLT"},
#endif
	{SIGCHLD, "SIGCHLD"},	  {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"},
	{SIGTSTP, "SIGTSTP"},	  {SIGTTIN, "SIGTTIN"}, {SIGTTOU, "SIGTTOU"},
	{SIGURG, "SIGURG"},	  {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
	{SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"},
	{SIGIO, "SIGIO"},
#ifdef SIGPWR
	{SIGPWR, "SIGPWR"},
#endif
	{SIGSYS, "SIGSYS"},
};

#define NSTD (sizeof(std_sigs) / sizeof(std_sigs[0]))

const char *siglist_name(int sig, char *buf, size_t len)
{
	int rtmin = SIGRTMIN, rtmax = SIGRTMAX;
	snprintf(buf, len, "signal %d", sig);
	for (size_t i = 0; i < NSTD; i++)
		if (std_sigs[i].sig == sig)
			snprintf(buf, len, "%s", std_sigs[i].name);
	/* kill -l's names: SIGRTMIN+n for the first half, SIGRTMAX-n for the rest. */
	if (sig == rtmin)
		snprintf(buf, len, "SIGRTMIN");
	else if (sig == rtmax)
		snprintf(buf, len, "SIGRTMAX");
	else if (sig > rtmin && sig - rtmin <= (rtmax - rtmin) / 2)
		snprintf(buf, len, "SIGRTMIN+%d", sig - rtmin);
	else if (sig > rtmin && sig < rtmax)
		snprintf(buf, len, "SIGRTMAX-%d", rtmax - sig);
	return buf;
}

unsigned siglist_fill(struct menu *mn)
{
	char label[32], name[24];
	unsigned n = 0;
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		siglist_name(sig, name, sizeof(name));
		if (sig < SIGRTMIN && name[0] != 'S')
			continue; /* no signal has this number here (32, 33: the C library's) */
		snprintf(label, sizeof(label), "%2d %s", sig, name);
		int at = menu_add(mn, label, sig);
		if (at >= 0 && sig == SIGTERM)
			mn->sel = (unsigned)at;
		n += at >= 0;
	}
	return n;
}
