/* CPU meters, htop style: "  3[|||||||     45.2% 1.23]". Values come from the model and
 * the column descriptors; nothing is recomputed here. */
#include "meters.h"

#include <stdio.h>
#include <string.h>

#include "colors.h"
#include "numfmt.h"
#include "paint.h"

#define METER_MIN 26 /* label, brackets, "100.0% ipc 9.99~" and a little bar */

/* Columns of meters for ncpu CPUs in w columns within budget lines; 0: they do not fit. */
static int meter_cols(int ncpu, int w, int budget)
{
	if (ncpu <= 0 || budget <= 0)
		return 0;
	for (int nc = w >= 2 * METER_MIN ? 2 : 1; w / nc >= METER_MIN; nc *= 2)
		if ((ncpu + nc - 1) / nc <= budget)
			return nc;
	return 0;
}

static int cpu_lines(unsigned ncpu, int w, int budget)
{
	if (ncpu == 0 || budget <= 0)
		return 0;
	int nc = meter_cols((int)ncpu, w, budget);
	if (nc == 0)
		return 1;
	return ((int)ncpu + nc - 1) / nc;
}

static int cpu_height(const struct model *m, int w, int budget)
{
	return m ? cpu_lines(m->ncpu_rows, w, budget) : 0;
}

/* Under the CPUs, as htop: Mem and Swp on the left, load and uptime on the right; in
 * what the CPUs leave of budget, at most two lines. */
static int sys_height(const struct model *m, int budget)
{
	if (!m || !(m->sys.have_mem || m->sys.have_load || m->sys.have_uptime) || budget <= 0)
		return 0;
	return budget < 2 ? budget : 2;
}

int meters_height(const struct model *m, int mode, int w, int budget)
{
	if (mode == METER_OFF)
		return 0;
	int ch = cpu_height(m, w, budget);
	return ch + sys_height(m, budget - ch);
}

int meters_height_expected(const struct model *m, unsigned ncpus, int mode, int w, int budget)
{
	if (mode == METER_OFF || !m)
		return 0;
	if (m->ncpu_rows)
		return meters_height(m, mode, w, budget);
	int ch = cpu_lines(ncpus, w, budget);
	return ch + (budget - ch < 2 ? budget - ch : 2);
}

/* What a meter shows in mode mode: its bar's fill (0..100) and the text at its right
 * end. CPU%: "45.2%" (and " ipc 1.23", '~' when scaled, '+' when partial, where IPC counts); IPC:
 * the bar full at 4 instructions a cycle; GHz: full at the fastest CPU of the tick. Without a
 * number: "n/a" or "n/c", and an empty bar, never a zero drawn as one. */
static double mode_text(const struct model *m, const struct column *c, const struct mrow *r,
			double top, const char *unit, char *buf, size_t len)
{
	struct val v = c ? column_value(c, m, r) : val_missing(VAL_NA, WHY_UNSUPPORTED);
	if (!val_has_number(v)) {
		snprintf(buf, len, "%s %s", unit, val_mark(v) ? val_mark(v) : "n/a");
		return 0;
	}
	snprintf(buf, len, "%s %.2f%s", unit, v.v,
		 v.state == VAL_SCALED	  ? "~"
		 : v.state == VAL_PARTIAL ? "+"
					  : "");
	return top > 0 ? v.v / top * 100 : 0;
}

static void meter_text(const struct model *m, const struct column *ipc, const struct mrow *r,
		       double pct, char *buf, size_t len)
{
	int n = pct < 0 ? snprintf(buf, len, "n/a") : snprintf(buf, len, "%.1f%%", pct);
	if (!ipc || n < 0 || (size_t)n >= len)
		return;
	struct val v = column_value(ipc, m, r);
	if (val_has_number(v))
		snprintf(buf + n, len - (size_t)n, " ipc %.2f%s", v.v,
			 v.state == VAL_SCALED	  ? "~"
			 : v.state == VAL_PARTIAL ? "+"
						  : "");
}

/* A CPU's bar in parts, as htop's: user '|', system '#', steal '*' (split: their %),
 * running under the text, as htop draws it. */
static const char split_ch[3] = {'|', '#', '*'};
static const enum clr split_clr[3] = {CLR_BAR, CLR_NOTICE, CLR_SCALED};

static void meter_split(int y, int x, int w, const char *label, const double *split,
			const char *text)
{
	char lab[16];
	snprintf(lab, sizeof(lab), "%3s[", label);
	x += paint_text(y, x, w, lab, colors_attr(CLR_LABEL));
	int inner = w - (int)strlen(lab) - 1;
	if (inner <= 0)
		return;
	int tw = (int)strlen(text), end[3];
	double sum = 0;
	for (int k = 0; k < 3; k++) {
		sum += split[k] > 0 ? split[k] : 0;
		end[k] = (int)(sum / 100.0 * inner + 0.5);
		end[k] = end[k] > inner ? inner : end[k];
	}
	for (int i = 0; i < inner; i++) {
		int t = i - (inner - tw), k = 0;
		while (k < 3 && i >= end[k])
			k++;
		char ch[2] = {t >= 0 ? text[t] : k < 3 ? split_ch[k] : ' ', '\0'};
		paint_text(y, x + i, 1, ch,
			   t >= 0  ? colors_attr(CLR_VALUE)
			   : k < 3 ? colors_attr(split_clr[k])
				   : colors_attr(CLR_BAR));
	}
	paint_text(y, x + inner, 1, "]", colors_attr(CLR_LABEL));
}

static bool has_split(const struct mrow *r)
{
	return r->cpu_pct >= 0 && r->cpu_split[0] + r->cpu_split[1] + r->cpu_split[2] > 0;
}

/* A bar of pct in one part. */
static void meter(int y, int x, int w, const char *label, double pct, const char *text)
{
	const double split[3] = {pct, 0, 0};
	meter_split(y, x, w, label, split, text);
}

static void summary(const struct model *m, int y, int w)
{
	double sum = 0;
	unsigned n = 0;
	for (unsigned i = 0; i < m->ncpu_rows; i++) {
		if (m->cpu_rows[i].cpu_pct >= 0) {
			sum += m->cpu_rows[i].cpu_pct;
			n++;
		}
	}
	double avg = n ? sum / n : -1;
	char text[32], note[64];
	if (avg < 0)
		snprintf(text, sizeof(text), "n/a");
	else
		snprintf(text, sizeof(text), "%.1f%%", avg);
	snprintf(note, sizeof(note), " average of %u CPUs (taller window: per-CPU)", m->ncpu_rows);
	int mw = w / 2 > METER_MIN ? w / 2 : (w < METER_MIN ? w : METER_MIN);
	meter(y, 0, mw, "all", avg, text);
	paint_text(y, mw, w - mw, note, colors_attr(CLR_LABEL));
}

/* "1.23G/3.84G" for used of total KiB, and the bar's fill. */
static double used_text(uint64_t used_kb, uint64_t total_kb, char *buf, size_t len)
{
	char u[16], t[16];
	numfmt_mem((double)used_kb * 1024, u, sizeof(u));
	numfmt_mem((double)total_kb * 1024, t, sizeof(t));
	snprintf(buf, len, "%s/%s", u, t);
	return total_kb ? 100.0 * (double)used_kb / (double)total_kb : 0;
}

static void sys_draw(const struct model *m, int y, int lines, int w)
{
	const struct msys *s = &m->sys;
	int mw = w / 2 > METER_MIN ? w / 2 : (w < METER_MIN ? w : METER_MIN);
	char text[64];
	for (int k = 0; k < lines; k++) {
		bool mem = k == 0;
		if (!s->have_mem) {
			paint_text(y + k, 0, mw, mem ? "Mem[n/a]" : "Swp[n/a]",
				   colors_attr(CLR_MISSING));
		} else {
			uint64_t total = mem ? s->mem_total_kb : s->swap_total_kb;
			uint64_t left = mem ? s->mem_avail_kb : s->swap_free_kb;
			double pct = used_text(total > left ? total - left : 0, total, text,
					       sizeof(text));
			meter(y + k, 0, mw - 1, mem ? "Mem" : "Swp", pct, text);
		}
		int x = mw + 1;
		if (x >= w)
			continue;
		if (mem && s->have_load) {
			snprintf(text, sizeof(text), "%.2f %.2f %.2f", s->load[0], s->load[1],
				 s->load[2]);
			x += paint_text(y + k, x, w - x, "Load average: ", colors_attr(CLR_LABEL));
			paint_text(y + k, x, w - x, text, colors_attr(CLR_VALUE));
		} else if (!mem && s->have_uptime) {
			unsigned long t = s->uptime > 0 ? (unsigned long)s->uptime : 0;
			unsigned long d = t / 86400;
			int n = d ? snprintf(text, sizeof(text), "%lu day%s, ", d,
					     d == 1 ? "" : "s")
				  : 0;
			snprintf(text + n, sizeof(text) - (size_t)n, "%02lu:%02lu:%02lu",
				 t / 3600 % 24, t / 60 % 60, t % 60);
			x += paint_text(y + k, x, w - x, "Uptime: ", colors_attr(CLR_LABEL));
			paint_text(y + k, x, w - x, text, colors_attr(CLR_VALUE));
		}
	}
}

void meters_draw(const struct model *m, const struct column *ipc, const struct column *ghz,
		 enum meter_mode mode, int y, int w, int budget)
{
	if (mode == METER_OFF)
		return;
	int lines = cpu_height(m, w, budget);
	int sl = sys_height(m, budget - lines);
	if (sl > 0)
		sys_draw(m, y + lines, sl, w);
	if (lines == 0)
		return;
	int nc = meter_cols((int)m->ncpu_rows, w, budget);
	if (nc == 0 && mode == METER_CPU) {
		summary(m, y, w);
		return;
	}
	if (nc == 0)
		nc = 1; /* IPC and GHz have no average line: the first CPUs, as they fit */
	double fastest = 0;
	for (unsigned i = 0; mode == METER_GHZ && ghz && i < m->ncpu_rows; i++) {
		struct val v = column_value(ghz, m, &m->cpu_rows[i]);
		if (val_has_number(v) && v.v > fastest)
			fastest = v.v;
	}
	int mw = w / nc;
	for (unsigned i = 0; i < m->ncpu_rows && (int)i < lines * nc; i++) {
		const struct mrow *r = &m->cpu_rows[i];
		char label[16], text[48];
		double fill = r->cpu_pct;
		snprintf(label, sizeof(label), "%d", r->cpu);
		if (mode == METER_IPC)
			fill = mode_text(m, ipc, r, 4.0, "ipc", text, sizeof(text));
		else if (mode == METER_GHZ)
			fill = mode_text(m, ghz, r, fastest, "GHz", text, sizeof(text));
		else
			meter_text(m, ipc, r, r->cpu_pct, text, sizeof(text));
		/* Column-major, like htop: CPU 0..k-1 down the first column. */
		int row = (int)i % lines, col = (int)i / lines;
		if (mode == METER_CPU && has_split(r))
			meter_split(y + row, col * mw, mw - 1, label, r->cpu_split, text);
		else
			meter(y + row, col * mw, mw - 1, label, fill, text);
	}
}
