/* The interval between ticks as the user gives it (interval.h). */
#include "interval.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int interval_parse(const char *s, double *out)
{
	char *end;
	/* Plain decimal only: strtod would also take blanks, a sign, hex (0x1) and "inf". */
	if (!isdigit((unsigned char)s[0]) && !(s[0] == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	if (strpbrk(s, "xX"))
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0.1 || v > 3600)
		return -EINVAL;
	*out = v;
	return 0;
}
