/* newterm() leaks its half-built screen when the terminal type is unknown, and a
 * terminal without cursor addressing cannot update a table in place: look the type up
 * in terminfo first. Alone in its file because <term.h> defines macros named after
 * capabilities (lines, columns, ...). */
#include "termcheck.h"

#include <stdio.h>

#include "curs.h"
#include <term.h>

bool termcheck_usable(const char *term, int fd, char *err, size_t errlen)
{
	TERMINAL *before = cur_term;
	int e = 0;
	if (setupterm(term, fd, &e) != OK) {
		snprintf(err, errlen, "unknown terminal type '%s': use -b for batch output", term);
		return false;
	}
	const char *cup = tigetstr("cup");
	bool ok = cup && cup != (const char *)-1;
	del_curterm(cur_term);
	set_curterm(before);
	if (!ok)
		snprintf(err, errlen,
			 "terminal '%s' cannot position the cursor: use -b for batch output", term);
	return ok;
}
