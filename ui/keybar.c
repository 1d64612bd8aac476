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
	int code; /* the key a click on it presses */
};

#define KEYS_MAX 24

/* Where the last bar was drawn, for the mouse: one screen, one bar. */
static struct hit {
	int x0, x1, code;
} hits[KEYS_MAX];
static unsigned nhits;
static int hits_y = -1;

static bool on_bar(const struct binding *b, enum bind_mode mode, bool focused, bool replay)
{
	switch (b->bar) {
	case BAR_LIVE:
		return !replay;
	case BAR_REPLAY:
		return replay;
	case BAR_ALWAYS:
		return true;
	case BAR_FOCUSED:
		return focused;
	case BAR_UNFOCUSED:
		return !focused;
	case BAR_BROWSING:
		return mode == BIND_MODE_SETUP_PMUS || mode == BIND_MODE_SETUP_EVENTS;
	case BAR_NEVER:
		break;
	}
	return false;
}

/* Those of mode's bindings that show on the bar now, then its parent table's. */
static unsigned mode_keys(enum bind_mode mode, const char *pause, bool focused, bool replay,
			  struct key *k)
{
	unsigned n = 0;
	for (enum bind_mode t = mode; t < BIND_MODES; t = bindings_parent(t)) {
		size_t nb;
		const struct binding *b = bindings_table(t, &nb);
		for (size_t i = 0; i < nb && n < KEYS_MAX; i++) {
			if (!on_bar(&b[i], mode, focused, replay))
				continue;
			const char *label =
				b[i].act == BIND_PAUSE && pause ? pause : b[i].bar_label;
			k[n++] = (struct key){b[i].bar_key, label, b[i].keep, b[i].keys[0]};
		}
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

const char *keybar_pause_label(bool paused, bool replay, bool playing)
{
	if (replay)
		return playing ? "Stop" : "Play";
	return paused ? "Resume" : "Pause";
}

void keybar_draw(enum bind_mode mode, const char *pause, bool focused, bool replay, int y, int w)
{
	struct key k[KEYS_MAX];
	unsigned n = fit(k, mode_keys(mode, pause, focused, replay, k), w);
	int x = 0;
	nhits = 0;
	hits_y = y;
	for (unsigned i = 0; i < n && x < w; i++) {
		int x0 = x;
		x += paint_text(y, x, w - x, k[i].key, colors_attr(CLR_KEY));
		x += paint_text(y, x, w - x, k[i].label, colors_attr(CLR_KEY_LABEL));
		hits[nhits++] = (struct hit){x0, x, k[i].code};
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	}
	paint_fill(y, x, w - x, colors_attr(CLR_KEY_LABEL));
}

void keybar_forget(void)
{
	nhits = 0;
	hits_y = -1;
}

int keybar_key_at(int y, int x)
{
	if (y != hits_y)
		return 0;
	for (unsigned i = 0; i < nhits; i++)
		if (x >= hits[i].x0 && x < hits[i].x1)
			return hits[i].code;
	return 0;
}
