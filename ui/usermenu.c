/* Users come from the rows, not from the password database: the list shows who is
 * running something now, as htop's does. */
#include "usermenu.h"

#include <stdio.h>

#include "colors.h"
#include "text.h"

static bool listed(const struct menu *mn, uid_t uid)
{
	for (unsigned i = 1; i < mn->n; i++)
		if (mn->value[i] == (long)uid)
			return true;
	return false;
}

void usermenu_name(const struct model *m, uid_t uid, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; m && i < m->nrows; i++) {
		if (m->rows[i].uid == uid && m->rows[i].user) {
			text_sanitize(m->rows[i].user, buf, len, colors_utf8());
			return;
		}
	}
}

void usermenu_fill(struct menu *mn, const struct model *m, bool have_uid, uid_t current)
{
	menu_clear(mn, "Show user");
	menu_add(mn, "All users", USERMENU_ALL);
	for (unsigned i = 0; m && i < m->nrows; i++) {
		const struct mrow *r = &m->rows[i];
		if (r->kind != ROW_PROC || listed(mn, r->uid))
			continue;
		char name[MENU_LABEL - 16], label[MENU_LABEL];
		text_sanitize(r->user ? r->user : "", name, sizeof(name), colors_utf8());
		snprintf(label, sizeof(label), "%s (%u)", name, (unsigned)r->uid);
		int k = menu_add(mn, label, (long)r->uid);
		if (k >= 0 && have_uid && r->uid == current)
			mn->sel = (unsigned)k;
	}
}
