/* Line input. Keys arrive one byte at a time (getch), so UTF-8 typed into a filter is
 * stored as bytes and sanitised for display. */
#include "prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colors.h"
#include "curs.h"
#include "paint.h"
#include "text.h"

#define KEY_ESC 27
#define CTRL(c) ((c)&0x1f)

void prompt_open(struct prompt *p, const char *label, const char *init)
{
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->text, sizeof(p->text), "%s", init ? init : "");
	p->len = strlen(p->text);
	p->offered = false;
	p->cut = false;
}

void prompt_offer(struct prompt *p, const char *label, const char *init)
{
	prompt_open(p, label, init);
	p->offered = p->len > 0;
}

static bool backspace(int key)
{
	return key == KEY_BACKSPACE || key == 127 || key == CTRL('h');
}

enum prompt_res prompt_key(struct prompt *p, int key)
{
	if ((key == '\n' || key == '\r' || key == KEY_ENTER) && p->cut) {
		/* Never a text cut short taken as typed: said, and kept to mend (Ctrl-U). */
		snprintf(p->label, sizeof(p->label), "Too long (max %d bytes):", PROMPT_MAX - 1);
		return PROMPT_CHANGED;
	}
	if (key == '\n' || key == '\r' || key == KEY_ENTER)
		return PROMPT_ACCEPT;
	if (key == KEY_ESC)
		return PROMPT_CANCEL;
	if (backspace(key)) {
		p->offered = false;
		/* Drop a whole UTF-8 character, not just its last byte. */
		while (p->len > 0 && ((unsigned char)p->text[--p->len] & 0xc0) == 0x80)
			;
		p->text[p->len] = '\0';
		return PROMPT_CHANGED;
	}
	if (key == CTRL('u')) {
		p->offered = false;
		p->cut = false;
		p->len = 0;
		p->text[0] = '\0';
		return PROMPT_CHANGED;
	}
	if (key < 0x20 || key == 0x7f || key > 0xff)
		return PROMPT_IGNORED;
	if (p->offered)
		p->len = 0;
	p->offered = false;
	if (p->len + 1 >= sizeof(p->text)) {
		p->cut = true;
		return PROMPT_IGNORED;
	}
	p->text[p->len++] = (char)key;
	p->text[p->len] = '\0';
	return PROMPT_CHANGED;
}

/* The part of clean that fits in w columns with the cursor after it: its end, as the
 * end is where typing happens. */
static const char *visible_tail(const char *clean, int w)
{
	int total = paint_width(clean);
	while (*clean && total > w - 1) {
		char one[8];
		size_t n = 1;
		while (n < sizeof(one) - 1 && ((unsigned char)clean[n] & 0xc0) == 0x80)
			n++;
		memcpy(one, clean, n);
		one[n] = '\0';
		total -= paint_width(one);
		clean += n;
	}
	return clean;
}

void prompt_draw(const struct prompt *p, int y, int w)
{
	static const char hint[] = "(Enter: ok, Esc: cancel)";
	char clean[PROMPT_MAX * 4];
	text_sanitize(p->text, clean, sizeof(clean), colors_utf8());
	paint_fill(y, 0, w, A_NORMAL);
	int x = paint_text(y, 0, w, p->label, colors_attr(CLR_KEY_LABEL));
	x += paint_text(y, x, w - x, " ", A_NORMAL);
	const char *shown = visible_tail(clean, w - x);
	if (shown != clean && w - x > 4) {
		x += paint_text(y, x, w - x, colors_utf8() ? "\xe2\x80\xa6" : "<", A_NORMAL);
		shown = visible_tail(shown, w - x);
	}
	x += paint_text(y, x, w - x, shown, colors_attr(CLR_VALUE) | (p->offered ? A_REVERSE : 0));
	/* Where the next character goes: the terminal's cursor stays hidden. */
	paint_text(y, x, w - x, "_", A_BLINK);
	if (w - x - 2 >= (int)sizeof(hint) - 1)
		paint_text(y, x + 2, w - x - 2, hint, colors_attr(CLR_LABEL));
}

bool prompt_parse_pid(const char *s, pid_t *out)
{
	while (*s == ' ')
		s++;
	if (!*s)
		return false;
	long v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (*s - '0');
		if (v > 0x3fffffff) /* above PID_MAX_LIMIT on every architecture */
			return false;
	}
	while (*s == ' ')
		s++;
	if (*s || v <= 0)
		return false;
	*out = (pid_t)v;
	return true;
}
