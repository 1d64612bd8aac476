/* Room in a growing byte buffer (bytebuf.h). */
#include "bytebuf.h"

#include <errno.h>
#include <stdlib.h>

int bytebuf_room(unsigned char **b, size_t len, size_t *cap, size_t more, size_t first)
{
	if (len + more <= *cap)
		return 0;
	size_t c = *cap ? *cap : first;
	while (c < len + more)
		c *= 2;
	unsigned char *n = realloc(*b, c);
	if (!n)
		return -ENOMEM;
	*b = n;
	*cap = c;
	return 0;
}
