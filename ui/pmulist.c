/* Drawing the PMU rows. Names and descriptions come from sysfs and libpfm4: sanitised. */
#include "pmulist.h"

#include <stdio.h>

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

void pmulist_draw(const struct catalog *c, struct scroll *s, int y, int h, int w)
{
	if (h < 2)
		return;
	title(y, w);
	scroll_set(s, catalog_npmus(c));
	scroll_fit(s, (size_t)(h - 1));
	if (!c) {
		paint_text(y + 1, 1, w - 1, "no PMU catalogue: ':' still takes any event spec",
			   colors_attr(CLR_MISSING));
		return;
	}
	for (int k = 0; k < h - 1; k++) {
		size_t i = s->top + (size_t)k;
		const struct catalog_pmu *p = catalog_pmu(c, (unsigned)i);
		if (!p)
			break;
		char line[512];
		row_text(p, line, sizeof(line));
		attr_t a = i == s->sel			? colors_attr(CLR_SELECTED)
			   : p->present && !p->pfm_only ? A_NORMAL
							: colors_attr(CLR_MISSING);
		paint_fill(y + 1 + k, 0, w, a);
		paint_text(y + 1 + k, 0, w, line, a);
	}
}
