/* Room in a growing byte buffer (bytebuf.h). */
#include "bytebuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int bytebuf_room(unsigned char **b, size_t len, size_t *cap, size_t more, size_t first)
{
	if (more > SIZE_MAX / 4 - len) /* a doubling past it would wrap */
		return -ENOMEM;
	if (len + more <= *cap)
		return 0;
	size_t c = *cap ? *cap : first ? first : 64;
	while (c < len + more)
		c *= 2;
	unsigned char *n = realloc(*b, c);
	if (!n)
		return -ENOMEM;
	*b = n;
	*cap = c;
	return 0;
}
