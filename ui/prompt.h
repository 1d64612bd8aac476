/* One-line input dialogs on the bottom line (filter, interval, PID, search, event
 * spec), and the validators for what they return. */
#ifndef PMUTOP_PROMPT_H
#define PMUTOP_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROMPT_MAX 1024 /* an event spec: the setup file's limit */

struct prompt {
	char label[32];
	char text[PROMPT_MAX];
	size_t len;
	bool offered; /* text is a value offered: a character typed replaces it */
	bool cut;     /* more was typed (pasted) than text holds: Enter takes nothing */
};

enum prompt_res {
	PROMPT_IGNORED, /* a key the prompt does not use */
	PROMPT_CHANGED, /* the text changed (incremental filters follow it) */
	PROMPT_ACCEPT,	/* Enter */
	PROMPT_CANCEL,	/* Esc */
};

void prompt_open(struct prompt *p, const char *label, const char *init);
/* The same with init offered (shown selected): the first character typed replaces it, as
 * a dialog's default; Backspace edits it, Enter takes it. */
void prompt_offer(struct prompt *p, const char *label, const char *init);
enum prompt_res prompt_key(struct prompt *p, int key);
void prompt_draw(const struct prompt *p, int y, int w);

/* A positive process id in decimal digits. */
bool prompt_parse_pid(const char *s, pid_t *out);

#endif
