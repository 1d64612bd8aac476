/* The key bar. When the line is too narrow the least useful keys go first; help and
 * quit always stay. */
#include "keybar.h"

#include <string.h>

#include "bindings.h"
#include "colors.h"
#include "paint.h"

struct key {
	const char *key, *label;
	int keep; /* higher stays longer on a narrow screen */
};

#define KEYS_MAX 24

/* The main view's: those of the binding table that show on the bar here. */
static unsigned main_keys(bool detail, bool paused, bool focused, struct key *k)
{
	size_t nb;
	const struct binding *b = detail ? bindings_detail(&nb) : bindings_main(&nb);
	unsigned n = 0;
	for (size_t i = 0; i < nb && n < KEYS_MAX; i++) {
		if (b[i].bar == BAR_NEVER || (b[i].bar == BAR_FOCUSED && !focused) ||
		    (b[i].bar == BAR_UNFOCUSED && focused))
			continue;
		const char *label = b[i].act == BIND_PAUSE && paused ? "Resume" : b[i].bar_label;
		k[n++] = (struct key){b[i].bar_key, label, b[i].keep};
	}
	return n;
}

/* The events setup's views share the keys that leave them. */
static unsigned setup_keys(enum keybar_set set, struct key *k)
{
	unsigned n = 0;
	if (set == KEYBAR_SETUP_PMUS) {
		k[n++] = (struct key){"Enter", "Events", 9};
		k[n++] = (struct key){"/", "Search", 8};
		k[n++] = (struct key){"a", "AllPMUs", 7};
	} else if (set == KEYBAR_SETUP_EVENTS) {
		k[n++] = (struct key){"Enter", "Add", 9};
		k[n++] = (struct key){"g", "AddToGroup", 7};
		k[n++] = (struct key){"/", "Search", 8};
	} else if (set == KEYBAR_SETUP_COLUMNS) {
		k[n++] = (struct key){"Spc", "Show/Hide", 9};
		k[n++] = (struct key){"[ ]", "Move", 8};
	} else {
		k[n++] = (struct key){"x", "Remove", 9};
		k[n++] = (struct key){"g", "Regroup", 8};
	}
	k[n++] = (struct key){"m", "Column", 5};
	k[n++] = (struct key){":", "Spec", 6};
	k[n++] = (struct key){"Tab", "View", 6};
	k[n++] = (struct key){"W", "Save", 3};
	k[n++] = (struct key){"Esc", "Back", 9};
	return n;
}

static unsigned mode_keys(enum keybar_set set, bool paused, bool focused, struct key *k)
{
	unsigned n = 0;
	switch (set) {
	case KEYBAR_MAIN:
	case KEYBAR_DETAIL:
		return main_keys(set == KEYBAR_DETAIL, paused, focused, k);
	case KEYBAR_HELP:
		k[n++] = (struct key){"Esc", "Back", 9};
		k[n++] = (struct key){"Up/Dn", "Scroll", 5};
		k[n++] = (struct key){"q", "Back", 9};
		break;
	case KEYBAR_MENU:
		k[n++] = (struct key){"Up/Dn", "Move", 5};
		k[n++] = (struct key){"Enter", "Select", 9};
		k[n++] = (struct key){"Esc", "Cancel", 9};
		break;
	case KEYBAR_DIALOG:
		k[n++] = (struct key){"Up/Dn", "Field", 5};
		k[n++] = (struct key){"Lt/Rt", "Choose", 6};
		k[n++] = (struct key){"Enter", "Add", 9};
		k[n++] = (struct key){"Esc", "Cancel", 9};
		break;
	default:
		return setup_keys(set, k);
	}
	return n;
}

static int item_width(const struct key *k)
{
	return (int)(strlen(k->key) + strlen(k->label)) + 1;
}

/* Drop the least useful keys until the rest fit in w. */
static unsigned fit(struct key *k, unsigned n, int w)
{
	for (;;) {
		int total = 0;
		unsigned worst = 0;
		for (unsigned i = 0; i < n; i++) {
			total += item_width(&k[i]);
			if (k[i].keep < k[worst].keep)
				worst = i;
		}
		if (total <= w || n <= 1)
			return n;
		memmove(&k[worst], &k[worst + 1], (n - worst - 1) * sizeof(*k));
		n--;
	}
}

void keybar_draw(enum keybar_set set, bool paused, bool focused, int y, int w)
{
	struct key k[KEYS_MAX];
	unsigned n = fit(k, mode_keys(set, paused, focused, k), w);
	int x = 0;
	for (unsigned i = 0; i < n && x < w; i++) {
		x += paint_text(y, x, w - x, k[i].key, colors_attr(CLR_KEY));
		x += paint_text(y, x, w - x, k[i].label, colors_attr(CLR_KEY_LABEL));
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	}
	paint_fill(y, x, w - x, colors_attr(CLR_KEY_LABEL));
}
