/* libFuzzer harness for the terminal input decoder (ui/inputdec.c): whatever the
 * terminal (or a program writing to it) sends, in reads split anywhere.
 *
 * Input: one byte that chooses where the reads split (a seed for their lengths), then the
 * bytes. Invariants checked, from inputdec.h:
 * - every event is a key (a byte, an INDEC_K_* or an added code) or a mouse report with
 *   a button 0-5 and a cell >= 0; nothing else comes out;
 * - the bytes held never exceed the buffer; after the final wait nothing is held;
 * - the reads' split changes nothing: the same bytes in one read give the same events
 *   (timeouts only at the end, so no sequence is cut in either run). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inputdec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXEV 8192

static size_t run(const uint8_t *p, size_t n, unsigned seed, struct indec_event *out)
{
	struct indec d;
	indec_init(&d);
	indec_add(&d, "\x1b[[A", 0x401);
	indec_add(&d, "\x7f", 0x402);
	indec_add(&d, "\x1bOP", 0x403);
	size_t nev = 0, at = 0;
	while (at < n || d.n) {
		size_t chunk = seed ? 1 + (seed + at * 7) % (seed % 31 + 1) : n - at;
		if (chunk > n - at)
			chunk = n - at;
		at += indec_feed(&d, p + at, chunk);
		if (d.n > INDEC_BUF)
			abort();
		struct indec_event ev;
		bool last = at == n;
		int got = indec_next(&d, false, &ev);
		if (!got && last) /* nothing more comes: the wait is over, as ui_input has it */
			got = indec_next(&d, true, &ev);
		if (!got && last && d.n == 0)
			break;
		if (!got)
			continue;
		if (ev.kind == INDEC_KEY) {
			if (ev.key < 0 ||
			    (ev.key > 255 && ev.key != 0x401 && ev.key != 0x402 &&
			     ev.key != 0x403 && (ev.key < INDEC_K_BASE || ev.key > INDEC_K_LAST)))
				abort();
		} else if (ev.kind == INDEC_MOUSE) {
			if (ev.button < 0 || ev.button > 5 || ev.x < 0 || ev.y < 0)
				abort();
		} else {
			abort(); /* INDEC_NONE never comes out */
		}
		if (nev < MAXEV)
			out[nev++] = ev;
	}
	if (d.n != 0)
		abort();
	return nev;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct indec_event a[MAXEV], b[MAXEV];
	if (size < 1 || size > 4 * INDEC_BUF)
		return 0;
	size_t na = run(data + 1, size - 1, 0, a);
	size_t nb = run(data + 1, size - 1, data[0] | 1u, b);
	if (na != nb)
		abort();
	for (size_t i = 0; i < na; i++)
		if (a[i].kind != b[i].kind || a[i].key != b[i].key || a[i].button != b[i].button ||
		    a[i].press != b[i].press || a[i].motion != b[i].motion || a[i].x != b[i].x ||
		    a[i].y != b[i].y)
			abort();
	return 0;
}
