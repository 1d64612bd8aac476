/* promqsrc.h in a build without the fleet client (PMUTOP_FLEET OFF): no --prometheus. */
#include "promqsrc.h"

#include <stdio.h>

struct source *promqsrc_new(const char *url, const char *match, const char *config, double interval,
			    bool cgroups, char *err, size_t errlen)
{
	(void)url, (void)match, (void)config, (void)interval, (void)cgroups;
	snprintf(err, errlen, "this pmutop was built without the fleet client (PMUTOP_FLEET)");
	return NULL;
}
