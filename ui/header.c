/* The header lines. Everything that came from outside (host name, kernel release, PMU
 * names, the notice) is sanitised like command names are. */
#include "header.h"

#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "paint.h"
#include "text.h"

#define NOTICE_LINES 3 /* more than this: the last line ends in "... (h: help)" */
#define NOTICE_MAX 2048

/* Word-wrap text into lines of at most w display columns; returns how many lines it
 * needs (lines beyond max are counted, not stored). starts[i], lens[i]: byte ranges. */
static int wrap(const char *text, int w, int max, size_t *starts, size_t *lens)
{
	int n = 0;
	size_t len = strlen(text), pos = 0;
	while (pos < len) {
		while (text[pos] == ' ')
			pos++;
		if (pos >= len)
			break;
		/* Take as many bytes as fit in w columns, then back up to a space. */
		size_t end = pos;
		int cols = 0;
		while (end < len && cols < w) {
			size_t k = end + 1;
			while (k < len && ((unsigned char)text[k] & 0xC0) == 0x80)
				k++;
			char one[8];
			snprintf(one, sizeof(one), "%.*s", (int)(k - end), text + end);
			cols += paint_width(one);
			if (cols > w)
				break;
			end = k;
		}
		if (end == pos)
			end = pos + 1; /* never stuck on a glyph wider than w */
		if (end < len && text[end] != ' ') {
			size_t sp = end;
			while (sp > pos && text[sp] != ' ')
				sp--;
			if (sp > pos)
				end = sp;
		}
		if (n < max) {
			starts[n] = pos;
			lens[n] = end - pos;
		}
		n++;
		pos = end;
	}
	return n;
}

static const char *clean_notice(const struct model *m, char *buf, size_t len)
{
	char raw[NOTICE_MAX];
	text_sanitize(model_notice_text(m, raw, sizeof(raw)), buf, len, colors_utf8());
	return buf;
}

/* Lines the notice wraps to at w columns (after "! "), at most NOTICE_LINES. */
static int notice_lines(const struct model *m, int w)
{
	char raw[NOTICE_MAX];
	if (!m || !*model_notice_text(m, raw, sizeof(raw)))
		return 0;
	char clean[NOTICE_MAX];
	size_t st[NOTICE_LINES], ln[NOTICE_LINES];
	int n = wrap(clean_notice(m, clean, sizeof(clean)), w > 12 ? w - 2 : 10, NOTICE_LINES, st,
		     ln);
	return n < 1 ? 1 : n > NOTICE_LINES ? NOTICE_LINES : n;
}

int header_height(const struct model *m, int w)
{
	return m ? 2 + notice_lines(m, w) : 2;
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

/* Software events count without any PMU: say so rather than a bare "none". */
static bool software_counting(const struct model *m)
{
	for (unsigned i = 0; i < m->nevents; i++)
		if (!m->events[i].hardware && m->events[i].status == WHY_NONE)
			return true;
	return false;
}

static void identity_line(const struct model *m, int y, int w)
{
	char buf[64];
	int x = pair(y, 0, w, "", "pmutop");
	x = pair(y, x, w, "on ", m->hostname ? m->hostname : "?");
	if (m->fleet) { /* many hosts: how many answer, not this machine's */
		snprintf(buf, sizeof(buf), "%u up, %u down", m->fleet_up, m->fleet_down);
		pair(y, x, w, "targets ", buf);
		return;
	}
	x = pair(y, x, w, "Linux ", m->kernel ? m->kernel : "?");
	snprintf(buf, sizeof(buf), "%d", m->ncpus);
	x = pair(y, x, w, "CPUs ", buf);
	/* main.c says "none" itself when it found no core PMU. */
	const char *pmu = m->pmus && *m->pmus && strcmp(m->pmus, "none") != 0 ? m->pmus : NULL;
	if (!pmu) {
		bool sw = software_counting(m);
		/* The long form if it fits, else the short one. */
		pmu = !sw ? "none" : w - x >= 4 + 27 ? "none (software events only)" : "software";
	}
	pair(y, x, w, "PMU ", pmu);
}

/* The fields of the tasks line, in screen order. Each has a priority (0 is kept
 * longest) and may have a shorter form; a narrow screen shortens, then drops, the
 * least important first. */
struct field {
	const char *label;
	char value[96], shorter[96];
	int prio;
	attr_t attr; /* 0: label/value colours */
	bool shown, use_short;
	bool kept; /* shortened at its priority, never dropped */
};

static int field_width(const struct field *f)
{
	const char *v = f->use_short && *f->shorter ? f->shorter : f->value;
	return paint_width(f->label) + paint_width(v) + 2;
}

static int fields_width(const struct field *f, int n)
{
	int total = 0;
	for (int i = 0; i < n; i++)
		if (f[i].shown)
			total += field_width(&f[i]);
	return total;
}

/* Shorten (long) or drop (!long) the fields of priority from..to, the least important
 * and the rightmost first, until the line fits. */
static void fit_pass(struct field *f, int n, int w, int from, int to, bool shorten)
{
	for (int p = from; p >= to && fields_width(f, n) > w; p--)
		for (int i = n; i-- > 0 && fields_width(f, n) > w;) {
			if (f[i].prio != p || !f[i].shown)
				continue;
			if (!shorten && !f[i].kept)
				f[i].shown = false;
			else if (*f[i].shorter)
				f[i].use_short = true;
		}
}

/* Shorten the clock and the fd notice, then drop the clock and interval, then shorten
 * the state, and drop what must go; tasks and PAUSED/FINAL stay. */
static void fit_fields(struct field *f, int n, int w)
{
	fit_pass(f, n, w, 9, 2, true);
	fit_pass(f, n, w, 9, 3, false);
	fit_pass(f, n, w, 1, 0, true);
	fit_pass(f, n, w, 9, 1, false);
}

static int add_field(struct field *f, int n, const char *label, const char *value,
		     const char *shorter, int prio, attr_t attr)
{
	f[n] = (struct field){.label = label, .prio = prio, .attr = attr, .shown = true};
	snprintf(f[n].value, sizeof(f[n].value), "%s", value);
	snprintf(f[n].shorter, sizeof(f[n].shorter), "%s", shorter ? shorter : "");
	return n + 1;
}

/* State first and kept longest: PAUSED/FINAL, tasks, threads, user/kernel; the clock
 * and the interval go before them on a narrow screen. */
static void tasks_line(const struct model *m, bool paused, const char *replay, const char *rec,
		       int y, int w)
{
	struct field f[12];
	char buf[96], when[32], ex[48], tick[64];
	int n = 0;
	if (replay) { /* "FIELD\tSHORT\tRANGE\tSHORT" (ui_set_replay) */
		char part[4][96] = {"", "", "", ""}, rp[2][100];
		const char *s = replay;
		for (int i = 0; i < 4 && s; i++) {
			const char *tab = strchr(s, '\t');
			snprintf(part[i], sizeof(part[i]), "%.*s",
				 tab ? (int)(tab - s) : (int)strlen(s), s);
			s = tab ? tab + 1 : NULL;
		}
		snprintf(rp[0], sizeof(rp[0]), " %s ", part[0]);
		snprintf(rp[1], sizeof(rp[1]), " %s ", part[1]);
		n = add_field(f, n, "", rp[0], *part[1] ? rp[1] : NULL, 0, colors_attr(CLR_PAUSED));
		if (*part[2])
			n = add_field(f, n, "recorded ", part[2], part[3], 1, 0);
	}
	if (rec && *rec) { /* "SIZE\tPATH": " REC 1.2M PATH ", " REC 1.2M " when narrow */
		char clean[80], size[24], full[96], sh[40];
		const char *tab = strchr(rec, '\t');
		snprintf(size, sizeof(size), "%.*s", tab ? (int)(tab - rec) : (int)strlen(rec),
			 rec);
		text_sanitize(tab ? tab + 1 : "", clean, sizeof(clean), colors_utf8());
		snprintf(full, sizeof(full), " REC %s %s ", size, clean);
		snprintf(sh, sizeof(sh), " REC %s ", size);
		n = add_field(f, n, "", full, sh, 0, colors_attr(CLR_PAUSED));
	}
	if (paused || m->paused) {
		n = add_field(f, n, "", " PAUSED ", NULL, 0, colors_attr(CLR_PAUSED));
	} else if (m->final) {
		model_exit_text(m, ex, sizeof(ex));
		snprintf(buf, sizeof(buf), " FINAL totals%s%s%s ", *ex ? " (" : "", ex,
			 *ex ? ")" : "");
		char sh[64];
		snprintf(sh, sizeof(sh), " FINAL%s%s%s ", *ex ? " (" : "", ex, *ex ? ")" : "");
		n = add_field(f, n, "", buf, sh, 0, colors_attr(CLR_PAUSED));
	}
	/* htop's "Tasks: N, M thr; R running": when narrow, the running count goes first,
	 * then the threads, before the clock (the tick shows the screen is live). */
	struct model_tasks mt;
	model_tasks(m, &mt);
	char procs[16];
	if (m->fleet) { /* rows of many hosts' commands or cgroups, not tasks of one */
		snprintf(buf, sizeof(buf), "%u", m->fleet_rows);
		n = add_field(f, n, m->fleet_cgroups ? "cgroups " : "commands ", buf, NULL, 2, 0);
	} else if (!mt.procs && !mt.kthreads && mt.cgroups) { /* G, -G: cgroup rows only */
		snprintf(buf, sizeof(buf), "%u", mt.cgroups);
		n = add_field(f, n, "cgroups ", buf, NULL, 2, 0);
	} else {
		snprintf(buf, sizeof(buf), "%u, %u thr", mt.procs, mt.threads);
		snprintf(procs, sizeof(procs), "%u", mt.procs);
		n = add_field(f, n, "Tasks ", buf, procs, 2, 0);
	}
	f[n - 1].kept = true;
	if (mt.running >= 0) {
		snprintf(buf, sizeof(buf), "%ld running", mt.running);
		n = add_field(f, n, "", buf, NULL, 6, 0);
	}
	if (m->nfd_short > 0) {
		char sh[64];
		snprintf(buf, sizeof(buf), "%u tasks not counted (fd limit)", m->nfd_short);
		snprintf(sh, sizeof(sh), "%u not counted (fd)", m->nfd_short);
		n = add_field(f, n, "", buf, sh, 2, colors_attr(CLR_NOTICE));
	}
	if (m->backend)
		n = add_field(f, n, "counted by ", m->backend, NULL, 3, 0);
	snprintf(buf, sizeof(buf), "%gs", m->interval);
	n = add_field(f, n, "interval ", buf, NULL, 4, 0);
	clock_text(m->time, when, sizeof(when));
	snprintf(buf, sizeof(buf), "#%llu %s", (unsigned long long)m->tick, when);
	snprintf(tick, sizeof(tick), "#%llu", (unsigned long long)m->tick);
	n = add_field(f, n, "tick ", buf, tick, 5, 0);
	n = add_field(f, n, "threads ", m->threads ? "on" : "off", NULL, 1, 0);
	n = add_field(f, n, "", m->user_only ? "user only" : "user+kernel",
		      m->user_only ? "user" : "u+k", 1, 0);
	fit_fields(f, n, w);
	int x = 0;
	for (int i = 0; i < n && x < w; i++) {
		if (!f[i].shown)
			continue;
		const char *v = f[i].use_short && *f[i].shorter ? f[i].shorter : f[i].value;
		if (f[i].attr) {
			x += paint_text(y, x, w - x, v, f[i].attr);
			x += paint_text(y, x, w - x, "  ", A_NORMAL);
		} else {
			x = pair(y, x, w, f[i].label, v);
		}
	}
}

/* The notice on up to lines lines; cut short, its last line says where the rest is. */
static void notice_draw(const struct model *m, int y, int lines, int w)
{
	char clean[NOTICE_MAX], line[NOTICE_MAX];
	size_t st[NOTICE_LINES], ln[NOTICE_LINES];
	int tw = w > 12 ? w - 2 : 10;
	if (lines > NOTICE_LINES)
		lines = NOTICE_LINES;
	int n = wrap(clean_notice(m, clean, sizeof(clean)), tw, NOTICE_LINES, st, ln);
	attr_t a = colors_attr(CLR_NOTICE);
	for (int k = 0; k < lines && k < n; k++) {
		snprintf(line, sizeof(line), "%.*s", (int)ln[k], clean + st[k]);
		if (k == lines - 1 && n > lines) {
			/* The short form: as much as fits, then where the whole text is. */
			static const char more[] = "... (h: help)";
			int room = tw - (int)strlen(more);
			size_t cut = strlen(line);
			while (cut > 0 && paint_width(line) > room) {
				do
					cut--;
				while (cut > 0 && ((unsigned char)line[cut] & 0xC0) == 0x80);
				line[cut] = '\0';
			}
			snprintf(line + cut, sizeof(line) - cut, "%s", more);
		}
		paint_fill(y + k, 0, w, a);
		paint_text(y + k, 0, w, k == 0 ? "! " : "  ", a);
		paint_text(y + k, 2, w - 2, line, a);
	}
}

void header_draw(const struct model *m, bool paused, const char *replay, const char *rec, int y,
		 int h, int w)
{
	if (!m || h <= 0)
		return;
	int nl = notice_lines(m, w);
	identity_line(m, y, w);
	int next = y + 1, left = h - 1;
	/* Short of lines, the notice wins over the tasks line (it explains the n/a), but
	 * takes one line less first. */
	if (left > 0 && (nl == 0 || left >= 2)) {
		tasks_line(m, paused, replay, rec, next++, w);
		left--;
	}
	if (left > 0 && nl > 0)
		notice_draw(m, next, left < nl ? left : nl, w);
}
