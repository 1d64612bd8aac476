/* The header lines. Everything that came from outside (host name, kernel release, PMU
 * names, the notice) is sanitised like command names are. */
#include "header.h"

#include <stdio.h>

#include "colors.h"
#include "paint.h"
#include "text.h"

int header_height(const struct model *m)
{
	return m && m->notice && *m->notice ? 3 : 2;
}

/* Append "label value" pairs left to right; returns the next x. */
static int pair(int y, int x, int w, const char *label, const char *value)
{
	char clean[256];
	text_sanitize(value, clean, sizeof(clean), colors_utf8());
	x += paint_text(y, x, w - x, label, colors_attr(CLR_LABEL));
	x += paint_text(y, x, w - x, clean, colors_attr(CLR_VALUE));
	return x + paint_text(y, x, w - x, "  ", A_NORMAL);
}

static void clock_text(double secs, char *buf, size_t len)
{
	unsigned long s = secs > 0 ? (unsigned long)secs : 0;
	snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
}

static void identity_line(const struct model *m, int y, int w)
{
	char buf[64];
	int x = pair(y, 0, w, "", "pmutop");
	x = pair(y, x, w, "on ", m->hostname ? m->hostname : "?");
	x = pair(y, x, w, "Linux ", m->kernel ? m->kernel : "?");
	snprintf(buf, sizeof(buf), "%d", m->ncpus);
	x = pair(y, x, w, "CPUs ", buf);
	pair(y, x, w, "PMU ", m->pmus && *m->pmus ? m->pmus : "none");
}

/* Most important first: a narrow screen loses the end of the line. */
static void tasks_line(const struct model *m, bool paused, int y, int w)
{
	char buf[96], when[32];
	int x = 0;
	if (paused || m->paused)
		x += paint_text(y, x, w, " PAUSED ", colors_attr(CLR_PAUSED));
	else if (m->final)
		x += paint_text(y, x, w, " FINAL totals ", colors_attr(CLR_PAUSED));
	if (x)
		x += paint_text(y, x, w - x, " ", A_NORMAL);
	snprintf(buf, sizeof(buf), "%u", m->ntasks);
	x = pair(y, x, w, "Tasks ", buf);
	if (m->nfd_short > 0) {
		snprintf(buf, sizeof(buf), "%u tasks not counted (fd limit)", m->nfd_short);
		x += paint_text(y, x, w - x, buf, colors_attr(CLR_NOTICE));
		x += paint_text(y, x, w - x, "  ", A_NORMAL);
	}
	snprintf(buf, sizeof(buf), "%gs", m->interval);
	x = pair(y, x, w, "interval ", buf);
	clock_text(m->time, when, sizeof(when));
	snprintf(buf, sizeof(buf), "#%llu %s", (unsigned long long)m->tick, when);
	x = pair(y, x, w, "tick ", buf);
	x = pair(y, x, w, "threads ", m->threads ? "on" : "off");
	pair(y, x, w, "", m->user_only ? "user only" : "user+kernel");
}

static void notice_line(const struct model *m, int y, int w)
{
	char clean[512];
	text_sanitize(m->notice, clean, sizeof(clean), colors_utf8());
	paint_fill(y, 0, w, colors_attr(CLR_NOTICE));
	int x = paint_text(y, 0, w, "! ", colors_attr(CLR_NOTICE));
	paint_text(y, x, w - x, clean, colors_attr(CLR_NOTICE));
}

void header_draw(const struct model *m, bool paused, int y, int h, int w)
{
	if (!m || h <= 0)
		return;
	bool notice = m->notice && *m->notice;
	identity_line(m, y, w);
	int next = y + 1, left = h - 1;
	/* Short of lines, the notice wins over the tasks line: it explains the n/a. */
	if (left > 0 && (!notice || left >= 2)) {
		tasks_line(m, paused, next++, w);
		left--;
	}
	if (left > 0 && notice)
		notice_line(m, next, w);
}
