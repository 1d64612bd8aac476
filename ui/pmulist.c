/* Drawing the PMU rows. Names and descriptions come from sysfs and libpfm4: sanitised. */
#include "pmulist.h"

#include <stdio.h>

#include "bindings.h"
#include "colors.h"
#include "paint.h"
#include "text.h"

#define NAME_W 22

static void title(int y, int w)
{
	char t[128];
	snprintf(t, sizeof(t), "%-*s %5s %-9s %-7s %8s %6s  %s", NAME_W, "PMU", "TYPE", "CPUS",
		 "PRESENT", "COUNTERS", "EVENTS", "DESCRIPTION");
	paint_fill(y, 0, w, colors_attr(CLR_COLHDR));
	paint_text(y, 0, w, t, colors_attr(CLR_COLHDR));
}

static void row_text(const struct catalog_pmu *p, char *buf, size_t len)
{
	char name[NAME_W * 4 + 1], cpus[40], desc[256];
	struct catalog_pmu_cells c;
	catalog_pmu_cells(p, &c);
	text_sanitize(p->name, name, sizeof(name), colors_utf8());
	text_sanitize(p->cpus ? p->cpus : "all", cpus, sizeof(cpus), colors_utf8());
	text_sanitize(p->desc, desc, sizeof(desc), colors_utf8());
	snprintf(buf, len, "%-*.*s %5s %-9.9s %-7s %8s %6u  %s%s", NAME_W, NAME_W, name, c.type,
		 cpus, c.present, c.ctr, p->nevents, c.note, desc);
}

/* As pmutop --list: the kernel has it (libpfm4 detecting the CPU model is not enough). */
static bool listed(const struct catalog_pmu *p, bool all)
{
	return all || (p->present && !p->pfm_only);
}

size_t pmulist_rows(const struct catalog *c, bool all)
{
	size_t n = 0;
	for (unsigned i = 0; i < catalog_npmus(c); i++)
		n += listed(catalog_pmu(c, i), all);
	return n;
}

int pmulist_row(const struct catalog *c, bool all, size_t k)
{
	for (unsigned i = 0; i < catalog_npmus(c); i++)
		if (listed(catalog_pmu(c, i), all) && k-- == 0)
			return (int)i;
	return -1;
}

size_t pmulist_pos(const struct catalog *c, bool all, int i)
{
	size_t k = 0;
	for (int r = 0; r < i && r < (int)catalog_npmus(c); r++)
		k += listed(catalog_pmu(c, (unsigned)r), all);
	return i >= 0 && i < (int)catalog_npmus(c) && listed(catalog_pmu(c, (unsigned)i), all) ? k
											       : 0;
}

void pmulist_draw(const struct catalog *c, bool all, struct scroll *s, int y, int h, int w)
{
	if (h < 2)
		return;
	title(y, w);
	size_t n = pmulist_rows(c, all), absent = catalog_npmus(c) - pmulist_rows(c, false);
	/* The line that says what is not listed stays in view, under the last row shown. */
	int lines = h - 1 - (absent && h > 2);
	scroll_set(s, n);
	scroll_fit(s, (size_t)lines);
	if (!c) {
		paint_text(y + 1, 1, w - 1, "no PMU catalogue: ':' still takes any event spec",
			   colors_attr(CLR_MISSING));
		return;
	}
	int k = 0;
	for (int i = pmulist_row(c, all, s->top); k < lines && i >= 0; k++) {
		const struct catalog_pmu *p = catalog_pmu(c, (unsigned)i);
		char line[512];
		row_text(p, line, sizeof(line));
		attr_t a = s->top + (size_t)k == s->sel ? colors_attr(CLR_SELECTED)
			   : p->present && !p->pfm_only ? A_NORMAL
							: colors_attr(CLR_MISSING);
		paint_fill(y + 1 + k, 0, w, a);
		paint_text(y + 1 + k, 0, w, line, a);
		while (++i < (int)catalog_npmus(c) && !listed(catalog_pmu(c, (unsigned)i), all))
			;
		if (i >= (int)catalog_npmus(c))
			i = -1;
	}
	if (absent && k < h - 1) {
		char more[96], key[16];
		bindings_key_name(BIND_MODE_SETUP_PMUS, BIND_ALL_PMUS, 0, key, sizeof(key));
		if (all)
			snprintf(more, sizeof(more), "%s hides the %zu not on this machine", key,
				 absent);
		else
			snprintf(more, sizeof(more), "%zu more not on this machine: %s shows them",
				 absent, key);
		paint_text(y + 1 + k, 1, w - 1, more, colors_attr(CLR_MISSING));
	}
}
