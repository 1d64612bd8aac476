/* Mount points from mountinfo (evmount.h). */
#include "evmount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mountinfo's octal escapes (\040 for a blank) undone, in place. */
static void unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

int evmount_find(const char *root, const char *fstype, char *out, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	while (ret == -ENOENT && getline(&line, &cap, f) > 0) {
		/* id parent maj:min root mount-point options... - fstype source options */
		const char *sep = strstr(line, " - ");
		size_t ft = strlen(fstype);
		if (!sep || strncmp(sep + 3, fstype, ft) != 0 || sep[3 + ft] != ' ')
			continue;
		char *save = NULL, *tok = strtok_r(line, " ", &save);
		for (int i = 0; tok && i < 4; i++)
			tok = strtok_r(NULL, " ", &save);
		if (!tok)
			continue;
		unescape(tok);
		ret = strlen(tok) < len ? 0 : -ENAMETOOLONG;
		if (ret == 0)
			memcpy(out, tok, strlen(tok) + 1);
	}
	free(line);
	fclose(f);
	return ret;
}
