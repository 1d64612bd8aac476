/* Colour pairs and glyphs. curses keeps colours as global terminal state, so the table
 * of attributes lives here, filled once per screen. */
#include "colors.h"

struct style {
	short fg, bg;
	attr_t on;   /* added to the pair on colour terminals */
	attr_t mono; /* the whole style on terminals without colour */
};

/* htop's palette: cyan keys, a green title bar, dim missing values. -1 = default. */
static const struct style styles[CLR_COUNT] = {
	[CLR_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
	[CLR_LABEL] = {COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
	[CLR_VALUE] = {-1, -1, A_BOLD, A_BOLD},
	[CLR_NOTICE] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE | A_BOLD},
	[CLR_PAUSED] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
	[CLR_TAB] = {-1, -1, A_NORMAL, A_NORMAL},
	[CLR_TAB_ACTIVE] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE | A_BOLD},
	[CLR_COLHDR] = {COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE},
	[CLR_COLHDR_SORT] = {COLOR_BLACK, COLOR_CYAN, A_BOLD, A_BOLD | A_UNDERLINE},
	[CLR_SELECTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
	[CLR_MISSING] = {COLOR_BLUE, -1, A_BOLD, A_DIM},
	[CLR_SCALED] = {COLOR_YELLOW, -1, A_NORMAL, A_BOLD},
	[CLR_EXITED] = {COLOR_RED, -1, A_DIM, A_DIM},
	[CLR_THREAD] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
	[CLR_KTHREAD] = {-1, -1, A_DIM, A_DIM},
	[CLR_KEY] = {-1, -1, A_BOLD, A_BOLD},
	[CLR_KEY_LABEL] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
	[CLR_BAR] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
	[CLR_MESSAGE] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
};

static attr_t attrs[CLR_COUNT];
static bool use_utf8, use_color;

static const char *const glyphs[GLYPH_COUNT][2] = {
	[GLYPH_SORT_DOWN] = {"v", "\xe2\x96\xbc"},	       /* ▼ */
	[GLYPH_SORT_UP] = {"^", "\xe2\x96\xb2"},	       /* ▲ */
	[GLYPH_THREAD] = {"`- ", "\xe2\x94\x94\xe2\x94\x80 "}, /* └─ */
};

void colors_init(bool color, bool utf8)
{
	use_utf8 = utf8;
	use_color = color && has_colors() && start_color() == OK;
	if (use_color)
		use_default_colors();
	for (int i = 0; i < CLR_COUNT; i++) {
		if (!use_color) {
			attrs[i] = styles[i].mono;
			continue;
		}
		if (styles[i].fg < 0 && styles[i].bg < 0) {
			attrs[i] = styles[i].on;
			continue;
		}
		init_pair((short)(i + 1), styles[i].fg, styles[i].bg);
		attrs[i] = COLOR_PAIR(i + 1) | styles[i].on;
	}
}

attr_t colors_attr(enum clr c)
{
	return c < CLR_COUNT ? attrs[c] : A_NORMAL;
}

const char *colors_glyph(enum glyph g)
{
	return glyphs[g][use_utf8];
}

bool colors_utf8(void)
{
	return use_utf8;
}

bool colors_color(void)
{
	return use_color;
}
