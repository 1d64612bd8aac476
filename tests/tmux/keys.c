/* Lists a mode's key bindings (ui/bindings.c, the one table dispatch reads) as tmux
 * send-keys names, for keys.sh: one line per key, "NAME CLASS", CLASS saying what the
 * script does after pressing it: stay (nothing), again (press it again: a toggle), back
 * (Esc back to the mode) or skip (quit: pressed last). */
#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "curs.h"

static const struct {
	const char *name;
	enum bind_mode mode;
} modes[] = {
	{"main", BIND_MODE_MAIN},	{"detail", BIND_MODE_DETAIL},
	{"pmus", BIND_MODE_SETUP_PMUS}, {"events", BIND_MODE_SETUP_EVENTS},
	{"mine", BIND_MODE_SETUP_MINE}, {"columns", BIND_MODE_SETUP_COLUMNS},
	{"dialog", BIND_MODE_DIALOG},	{"menu", BIND_MODE_MENU},
	{"help", BIND_MODE_HELP},
};

/* tmux's name of a curses key, or NULL for one it cannot send. */
static const char *tmux_name(int key, char *buf, size_t len)
{
	static const struct {
		int key;
		const char *name;
	} named[] = {
		{KEY_UP, "Up"},	      {KEY_DOWN, "Down"},   {KEY_LEFT, "Left"},
		{KEY_RIGHT, "Right"}, {KEY_PPAGE, "PPage"}, {KEY_NPAGE, "NPage"},
		{KEY_HOME, "Home"},   {KEY_END, "End"},	    {KEY_BTAB, "BTab"},
		{KEY_DC, "DC"},	      {KEY_IC, "IC"},	    {KEY_BACKSPACE, "BSpace"},
		{KEY_ENTER, "Enter"}, {'\n', "C-j"},	    {'\r', "Enter"},
		{'\t', "Tab"},	      {27, "Escape"},	    {' ', "Space"},
		{127, "BSpace"},      {';', "\\;"},
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == key)
			return named[i].name;
	for (int f = 1; f <= 12; f++)
		if (key == KEY_F(f)) {
			snprintf(buf, len, "F%d", f);
			return buf;
		}
	if (key > 0 && key < 32) {
		snprintf(buf, len, "C-%c", key + 'a' - 1);
		return buf;
	}
	if (key > 32 && key < 127) {
		snprintf(buf, len, "%c", key);
		return buf;
	}
	return NULL;
}

static const char *key_class(enum bind_act act)
{
	switch (act) {
	case BIND_QUIT:
	/* F7 and F8 would renice whatever is selected on a machine others share (as root,
	 * for good): nice.sh presses them on processes of its own. */
	case BIND_NICE:
		return "skip";
	case BIND_PAUSE:
	case BIND_TREE:
	case BIND_STEP_FWD: /* live: the tree view */
	case BIND_CMDLINE:
	case BIND_THREADS:
	case BIND_CGROUPS:
	case BIND_KERNEL:
	case BIND_ALL_PMUS:
	case BIND_TAG:
	case BIND_FOLLOW:
		return "again";
	case BIND_MOVE:
	case BIND_PANE_NEXT:
	case BIND_PANE_PREV:
	case BIND_PANE_N:
	case BIND_SORT_PREV:
	case BIND_SORT_NEXT:
	case BIND_REVERSE:
	case BIND_METERS:
	case BIND_FOLD:
	case BIND_UNFOLD:
	case BIND_STEP_BACK:
	case BIND_UNTAG:
	case BIND_QUICK_SORT:
	case BIND_HSCROLL:
	case BIND_SAVE:
	case BIND_REDRAW:
	case BIND_REMOVE:
	case BIND_COL_TOGGLE:
	case BIND_COL_MOVE:
	case BIND_FIELD:
	case BIND_CHOOSE:
	case BIND_EDIT:
		return "stay";
	default:
		return "back";
	}
}

int main(int argc, char **argv)
{
	char buf[16];
	size_t m = 0;
	while (argc == 2 && m < sizeof(modes) / sizeof(modes[0]) && strcmp(argv[1], modes[m].name))
		m++;
	if (argc != 2 || m == sizeof(modes) / sizeof(modes[0])) {
		fprintf(stderr, "usage: %s main|detail|pmus|events|mine|columns|dialog|menu|help\n",
			argv[0]);
		return 2;
	}
	unsigned n = 0;
	for (enum bind_mode mode = modes[m].mode; mode < BIND_MODES; mode = bindings_parent(mode)) {
		size_t nb;
		const struct binding *b = bindings_table(mode, &nb);
		for (size_t i = 0; i < nb; i++)
			for (int k = 0; k < BIND_KEYS && b[i].keys[k]; k++) {
				const char *name = tmux_name(b[i].keys[k], buf, sizeof(buf));
				/* A key a child view binds is the child's, as dispatch finds it. */
				if (!name || bindings_find(modes[m].mode, b[i].keys[k]) != &b[i])
					continue;
				printf("%s %s\n", name, key_class(b[i].act));
				n++;
			}
	}
	return n ? 0 : 1;
}
