/* The derived-column dialog. Event keys come from the model (user-written names):
 * sanitised when drawn. */
#include "metricdlg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "colors.h"
#include "curs.h"
#include "paint.h"
#include "text.h"

#define CTRL(c) ((c)&0x1f)
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_%./-"

static const struct {
	const char *label;
	double mul;
} kinds[] = {{"ratio  A / B", 1}, {"percent  A / B * 100", 100}, {"per 1000  A / B * 1000", 1000}};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

bool metricdlg_open(struct metricdlg *d, const struct model *m)
{
	memset(d, 0, sizeof(*d));
	unsigned ug = 0;
	for (unsigned g = 0; m && g < m->ngroups; g++) {
		if (!m->groups[g].user)
			continue;
		ug++;
		for (unsigned k = 0; k < m->groups[g].n && d->nkeys < METRICDLG_CHOICES; k++) {
			const struct mevent *e = &m->events[m->groups[g].first + k];
			snprintf(d->key[d->nkeys], METRICDLG_KEY, "%s", e->key ? e->key : e->name);
			d->group[d->nkeys++] = ug;
		}
	}
	d->b = d->nkeys > 1 ? 1 : 0;
	return d->nkeys > 0;
}

static void name_key(struct metricdlg *d, int key)
{
	size_t n = strlen(d->name);
	if (key == KEY_BACKSPACE || key == 127 || key == CTRL('h')) {
		if (n)
			d->name[n - 1] = '\0';
	} else if (key == CTRL('u')) {
		d->name[0] = '\0';
	} else if (key > 0 && key < 0x80 && strchr(NAME_CHARS, key) && n + 1 < sizeof(d->name)) {
		d->name[n] = (char)key;
		d->name[n + 1] = '\0';
	}
}

static void choose(struct metricdlg *d, int step)
{
	unsigned *v = d->field == MDF_A ? &d->a : d->field == MDF_B ? &d->b : &d->kind;
	unsigned n = d->field == MDF_KIND ? NKINDS : d->nkeys;
	if (n)
		*v = (unsigned)(((int)*v + step + (int)n) % (int)n);
}

enum metricdlg_res metricdlg_key(struct metricdlg *d, int key)
{
	const struct binding *b = bindings_find(BIND_MODE_DIALOG, key);
	switch (b ? b->act : BIND_NONE) {
	case BIND_CANCEL:
		return MDLG_CANCEL;
	case BIND_PICK:
		return MDLG_DONE;
	case BIND_FIELD: {
		int step = key == KEY_UP || key == KEY_BTAB ? MDF_COUNT - 1 : 1;
		d->field = (enum metricdlg_field)((d->field + step) % MDF_COUNT);
		break;
	}
	case BIND_CHOOSE:
		if (d->field != MDF_NAME)
			choose(d, key == KEY_LEFT ? -1 : 1);
		break;
	default: /* BIND_EDIT, and the characters of a name */
		if (d->field == MDF_NAME)
			name_key(d, key);
		break;
	}
	return MDLG_STAY;
}

void metricdlg_metric(const struct metricdlg *d, struct user_metric *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", d->name);
	if (d->nkeys) {
		snprintf(out->a, sizeof(out->a), "%s", d->key[d->a]);
		snprintf(out->b, sizeof(out->b), "%s", d->key[d->b]);
	}
	out->mul = kinds[d->kind < NKINDS ? d->kind : 0].mul;
}

static bool check_name(struct metricdlg *d, const struct user_metric *have, unsigned nhave)
{
	if (!d->name[0]) {
		snprintf(d->err, sizeof(d->err),
			 "Give the column a name (letters, digits, _ %% . / -)");
		return false;
	}
	for (unsigned i = 0; i < nhave; i++) {
		if (strcmp(have[i].name, d->name) == 0) {
			snprintf(d->err, sizeof(d->err),
				 "There is already a column '%s': choose another name", d->name);
			return false;
		}
	}
	return true;
}

bool metricdlg_check(struct metricdlg *d, const struct model *m, const struct user_metric *have,
		     unsigned nhave)
{
	struct user_metric um;
	char a[64], b[64];
	d->err[0] = '\0';
	if (!check_name(d, have, nhave))
		return false;
	if (d->a == d->b) {
		snprintf(d->err, sizeof(d->err), "A and B are the same event: pick two");
		return false;
	}
	metricdlg_metric(d, &um);
	text_sanitize(um.a, a, sizeof(a), colors_utf8());
	text_sanitize(um.b, b, sizeof(b), colors_utf8());
	int r = m ? columns_check_metric(m, &um) : -ENOENT;
	if (r == -EXDEV)
		snprintf(
			d->err, sizeof(d->err),
			"'%s' (group %u) and '%s' (group %u) are in different groups: their counts "
			"come from different time slices. Move them into one group first (g)",
			a, d->group[d->a], b, d->group[d->b]);
	else if (r)
		snprintf(d->err, sizeof(d->err),
			 "'%s' or '%s' is no longer counted: open the "
			 "dialog again",
			 a, b);
	return r == 0;
}

static void field_line(const struct metricdlg *d, enum metricdlg_field f, const char *label,
		       const char *value, int y, int x, int w)
{
	char clean[METRICDLG_KEY * 4 + 32];
	attr_t a = d->field == f ? colors_attr(CLR_SELECTED) : A_NORMAL;
	text_sanitize(value, clean, sizeof(clean), colors_utf8());
	paint_fill(y, x, w, A_NORMAL);
	int used = paint_text(y, x + 1, w - 1, label, colors_attr(CLR_LABEL));
	paint_fill(y, x + 1 + used, w - 1 - used, a);
	paint_text(y, x + 1 + used, w - 1 - used, clean, a);
}

/* The reason on two lines, broken at a space: it names both events and the way out. */
static void err_lines(const char *err, int y, int x, int w)
{
	char first[sizeof(((struct metricdlg *)0)->err)];
	size_t len = strlen(err), cut = len;
	if ((int)len > w - 2) {
		for (cut = (size_t)(w > 2 ? w - 2 : 1); cut > 0 && err[cut] != ' '; cut--)
			;
		if (cut == 0)
			cut = (size_t)(w > 2 ? w - 2 : 1);
	}
	snprintf(first, sizeof(first), "%.*s", (int)cut, err);
	for (int k = 0; k < 2; k++) {
		paint_fill(y + k, x, w, colors_attr(CLR_MESSAGE));
		paint_text(y + k, x + 1, w - 1, k ? err + cut + (err[cut] == ' ') : first,
			   colors_attr(CLR_MESSAGE));
	}
}

void metricdlg_draw(const struct metricdlg *d, int y, int x, int w)
{
	char buf[METRICDLG_KEY + 32];
	paint_fill(y, x, w, colors_attr(CLR_COLHDR));
	paint_text(y, x + 1, w - 1, "New derived column of the Events pane",
		   colors_attr(CLR_COLHDR));
	snprintf(buf, sizeof(buf), "%s%s", d->name, d->field == MDF_NAME ? "_" : "");
	field_line(d, MDF_NAME, "Name:  ", buf, y + 1, x, w);
	snprintf(buf, sizeof(buf), "< %s >  (group %u)", d->key[d->a], d->group[d->a]);
	field_line(d, MDF_A, "A:     ", buf, y + 2, x, w);
	snprintf(buf, sizeof(buf), "< %s >  (group %u)", d->key[d->b], d->group[d->b]);
	field_line(d, MDF_B, "B:     ", buf, y + 3, x, w);
	snprintf(buf, sizeof(buf), "< %s >", kinds[d->kind < NKINDS ? d->kind : 0].label);
	field_line(d, MDF_KIND, "Kind:  ", buf, y + 4, x, w);
	paint_fill(y + 5, x, w, A_NORMAL);
	paint_fill(y + 6, x, w, A_NORMAL);
	if (d->err[0]) {
		err_lines(d->err, y + 5, x, w);
	} else {
		paint_text(y + 5, x + 1, w - 1,
			   "Up/Down field  Left/Right choose  Enter add  Esc cancel",
			   colors_attr(CLR_LABEL));
	}
}
