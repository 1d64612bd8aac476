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

unsigned siglist_fill(struct menu *mn)
{
	char label[32];
	unsigned n = 0;
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		for (size_t i = 0; i < NSTD; i++) {
			if (std_sigs[i].sig != sig)
				continue;
			snprintf(label, sizeof(label), "%2d %s", sig, std_sigs[i].name);
			int at = menu_add(mn, label, sig);
			if (at >= 0 && sig == SIGTERM)
				mn->sel = (unsigned)at;
			n += at >= 0;
		}
	}
	/* kill -l's names: SIGRTMIN+n for the first half, SIGRTMAX-n for the rest. */
	int rtmin = SIGRTMIN, rtmax = SIGRTMAX;
	for (int sig = rtmin; sig <= rtmax; sig++) {
		int k = sig - rtmin, back = rtmax - sig;
		if (k == 0)
			snprintf(label, sizeof(label), "%2d SIGRTMIN", sig);
		else if (back == 0)
			snprintf(label, sizeof(label), "%2d SIGRTMAX", sig);
		else if (k <= (rtmax - rtmin) / 2)
			snprintf(label, sizeof(label), "%2d SIGRTMIN+%d", sig, k);
		else
			snprintf(label, sizeof(label), "%2d SIGRTMAX-%d", sig, back);
		n += menu_add(mn, label, sig) >= 0;
	}
	return n;
}
