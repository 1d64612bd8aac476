/* The terminal's input decoder: ECMA-48 framing (CSI, SS3, the string sequences) first,
 * so that whatever is not understood is still consumed whole, then xterm's keys and
 * mouse reports within it. */
#include "inputdec.h"

#include <errno.h>
#include <string.h>

#define ESC 0x1b
#define BEL 0x07

void indec_init(struct indec *d)
{
	memset(d, 0, sizeof(*d));
}

int indec_add(struct indec *d, const char *seq, int key)
{
	size_t len = seq ? strlen(seq) : 0;
	if (len == 0 || len >= INDEC_SEQ_MAX)
		return -EINVAL;
	if (d->nseqs == INDEC_SEQS)
		return -ENOSPC;
	memcpy(d->seqs[d->nseqs].seq, seq, len + 1);
	d->seqs[d->nseqs++].key = key;
	return 0;
}

size_t indec_feed(struct indec *d, const unsigned char *p, size_t n)
{
	size_t room = INDEC_BUF - d->n, take = n < room ? n : room;
	if (take) /* p may be NULL when n is 0 */
		memcpy(d->buf + d->n, p, take);
	d->n += take;
	return take;
}

static size_t key(struct indec_event *ev, int k, size_t used)
{
	ev->kind = INDEC_KEY;
	ev->key = k;
	return used;
}

/* A function key with xterm's modifier parameter (1 + 1 Shift, 2 Alt, 4 Ctrl): Shift
 * gives F13-F24 and Ctrl F25-F36, as curses numbers them; other modifiers nothing. */
static size_t fkey(struct indec_event *ev, int n, long mod, size_t used)
{
	if (mod <= 1)
		return key(ev, INDEC_K_F0 + n, used);
	if (mod == 2 && n <= 12)
		return key(ev, INDEC_K_F0 + n + 12, used);
	if (mod == 5 && n <= 12)
		return key(ev, INDEC_K_F0 + n + 24, used);
	return used;
}

/* A mouse report's button byte (X10's less 32), as xterm encodes it. */
static size_t mouse(struct indec_event *ev, long cb, long x, long y, bool release, size_t used)
{
	ev->kind = INDEC_MOUSE;
	ev->x = x > 0 ? (int)(x > 100000 ? 100000 : x) - 1 : 0;
	ev->y = y > 0 ? (int)(y > 100000 ? 100000 : y) - 1 : 0;
	ev->motion = (cb & 32) != 0;
	ev->press = !release;
	ev->button = 0;
	if (cb & 64) { /* the wheel: up 4, down 5; sideways none */
		ev->button = (cb & 3) == 0 ? 4 : (cb & 3) == 1 ? 5 : 0;
		if (!ev->button || release)
			ev->kind = INDEC_NONE;
	} else if ((cb & 3) == 3) { /* no button: X10's release, or motion alone */
		ev->press = false;
	} else {
		ev->button = (int)(cb & 3) + 1;
	}
	return used;
}

/* The parameters of a CSI sequence: up to 4 numbers split by ';' (an empty one is 0).
 * Returns how many, or -1 when they hold anything else (':' sub-parameters, a private
 * marker, too many). */
static int numbers(const unsigned char *p, size_t n, long *v)
{
	int k = 0;
	v[0] = 0;
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == ';') {
			if (++k == 4)
				return -1;
			v[k] = 0;
		} else if (p[i] >= '0' && p[i] <= '9') {
			if (v[k] < 1000000)
				v[k] = v[k] * 10 + (p[i] - '0');
		} else {
			return -1;
		}
	}
	return k + 1;
}

/* VT220's ESC [ n ~ keys. */
static size_t tilde(struct indec_event *ev, long n, long mod, size_t used)
{
	static const struct {
		unsigned char n;
		int key;
	} map[] = {{1, INDEC_K_HOME},  {2, INDEC_K_IC},	   {3, INDEC_K_DC},   {4, INDEC_K_END},
		   {5, INDEC_K_PPAGE}, {6, INDEC_K_NPAGE}, {7, INDEC_K_HOME}, {8, INDEC_K_END}};
	static const unsigned char fkeys[] = {11, 12, 13, 14, 15, 17, 18, 19, 20, 21,
					      23, 24, 25, 26, 28, 29, 31, 32, 33, 34};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].n == n)
			return key(ev, map[i].key, used);
	for (size_t i = 0; i < sizeof(fkeys); i++)
		if (fkeys[i] == n)
			return fkey(ev, (int)i + 1, i < 12 ? mod : 1, used);
	return used;
}

/* The cursor keys' final byte, after CSI or SS3: the key, or 0. */
static int cursor_key(unsigned char f)
{
	static const char finals[] = "ABCDHF";
	static const int keys[] = {INDEC_K_UP,	 INDEC_K_DOWN, INDEC_K_RIGHT,
				   INDEC_K_LEFT, INDEC_K_HOME, INDEC_K_END};
	const char *at = f ? strchr(finals, f) : NULL;
	return at ? keys[at - finals] : 0;
}

/* ESC [ ...: parameters 0x30-0x3f, intermediates 0x20-0x2f, a final 0x40-0x7e. 0 while
 * it is unfinished. */
static size_t csi(const unsigned char *b, size_t n, struct indec_event *ev)
{
	size_t i = 2;
	while (i < n && b[i] >= 0x30 && b[i] <= 0x3f)
		i++;
	size_t pend = i;
	while (i < n && b[i] >= 0x20 && b[i] <= 0x2f)
		i++;
	if (i == n)
		return 0;
	if (b[i] < 0x40 || b[i] > 0x7e)
		return i; /* broken off: what came is dropped, the byte that broke it stays */
	unsigned char f = b[i];
	size_t used = i + 1;
	if (f == 'M' && used == 3) { /* X10 mouse: three bytes follow, each + 32 */
		if (n < 6)
			return 0;
		long cb = (long)b[3] - 32;
		return mouse(ev, cb < 0 ? 0 : cb, (long)b[4] - 32, (long)b[5] - 32,
			     (cb & 3) == 3 && !(cb & 64), 6);
	}
	if (pend != i) /* intermediates: nothing a key sends */
		return used;
	long v[4] = {0, 0, 0, 0};
	if (b[2] == '<' && (f == 'M' || f == 'm')) { /* SGR mouse: < b ; x ; y */
		if (numbers(b + 3, pend - 3, v) != 3)
			return used;
		return mouse(ev, v[0], v[1], v[2], f == 'm', used);
	}
	int np = numbers(b + 2, pend - 2, v);
	if (np < 0 || np > 2)
		return used;
	long mod = np == 2 ? v[1] : 1;
	bool plain = np == 0 || (v[0] <= 1 && mod >= 1);
	int k = cursor_key(f);
	if (k)
		return plain ? key(ev, k, used) : used;
	switch (f) {
	case 'P':
	case 'Q':
	case 'R':
	case 'S':
		return plain ? fkey(ev, f - 'P' + 1, mod, used) : used;
	case 'Z':
		return np == 0 ? key(ev, INDEC_K_BTAB, used) : used;
	case '~':
		return np >= 1 ? tilde(ev, v[0], mod, used) : used;
	default:
		return used;
	}
}

/* ESC O x: the application keypad's keys. */
static size_t ss3(const unsigned char *b, struct indec_event *ev)
{
	int k = cursor_key(b[2]);
	if (k)
		return key(ev, k, 3);
	switch (b[2]) {
	case 'M':
		return key(ev, INDEC_K_ENTER, 3);
	case 'P':
	case 'Q':
	case 'R':
	case 'S':
		return key(ev, INDEC_K_F0 + b[2] - 'P' + 1, 3);
	default:
		return b[2] < 0x20 || b[2] == 0x7f ? 2 : 3; /* a control byte stays */
	}
}

/* DCS, OSC, SOS, PM, APC: to ST (ESC \) or BEL. An ESC that starts something else ends
 * the string before it. */
static size_t string(const unsigned char *b, size_t n)
{
	for (size_t i = 2; i < n; i++) {
		if (b[i] == BEL)
			return i + 1;
		if (b[i] == ESC) {
			if (i + 1 == n)
				return 0;
			return b[i + 1] == '\\' ? i + 2 : i;
		}
	}
	return 0;
}

/* The caller's sequences: the longest that matches whole; 0 when none does, or when a
 * longer one may still (*wait). */
static size_t added(const struct indec *d, struct indec_event *ev, bool *wait)
{
	size_t best = 0;
	*wait = false;
	for (unsigned i = 0; i < d->nseqs; i++) {
		size_t len = strlen(d->seqs[i].seq);
		if (len <= d->n && len > best && memcmp(d->buf, d->seqs[i].seq, len) == 0) {
			best = len;
			key(ev, d->seqs[i].key, len);
		} else if (len > d->n && memcmp(d->buf, d->seqs[i].seq, d->n) == 0) {
			*wait = true;
		}
	}
	return best;
}

/* What the bytes held start with: how many bytes it takes (ev filled, or INDEC_NONE for
 * a sequence ignored), or 0 when it is unfinished. */
static size_t decode(struct indec *d, bool timed_out, struct indec_event *ev)
{
	const unsigned char *b = d->buf;
	size_t n = d->n;
	bool wait;
	size_t used = added(d, ev, &wait);
	if (wait && !timed_out)
		return 0;
	if (used)
		return used;
	if (b[0] != ESC)
		return key(ev, b[0], 1);
	if (n == 1)
		return timed_out ? key(ev, ESC, 1) : 0;
	switch (b[1]) {
	case '[':
		return csi(b, n, ev);
	case 'O':
		return n < 3 ? 0 : ss3(b, ev);
	case 'P':
	case ']':
	case 'X':
	case '^':
	case '_':
		return string(b, n);
	default: /* Esc, then a key (Alt and a key: the two, as curses gives them) */
		return key(ev, ESC, 1);
	}
}

/* Drop what is held up to the end of a sequence too long to hold. */
static void skip(struct indec *d)
{
	size_t i = 0;
	while (d->skip && i < d->n) {
		unsigned char c = d->buf[i++];
		if (d->skip == 'C')
			d->skip = c >= 0x40 && c <= 0x7e ? 0 : d->skip;
		else if (d->skip_esc || c == BEL)
			d->skip = c == '\\' || c == BEL ? 0 : d->skip, d->skip_esc = false;
		else
			d->skip_esc = c == ESC;
	}
	memmove(d->buf, d->buf + i, d->n - i);
	d->n -= i;
}

int indec_next(struct indec *d, bool timed_out, struct indec_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	skip(d);
	if (d->skip && timed_out) /* all held was skipped, and its end never came */
		d->skip = 0, d->skip_esc = false;
	while (d->n) {
		memset(ev, 0, sizeof(*ev));
		size_t used = decode(d, timed_out, ev);
		if (used == 0) {
			if (d->n == INDEC_BUF) {
				/* Too long to hold: dropped whole, and the rest of it as it comes.
				 */
				d->skip = d->buf[1] == '[' ? 'C' : d->buf[1] == 'O' ? 0 : 'S';
				d->skip_esc = d->buf[d->n - 1] == ESC && d->skip == 'S';
				d->n = 0;
			} else if (timed_out) {
				d->n = 0; /* never finished: dropped */
			}
			return 0;
		}
		memmove(d->buf, d->buf + used, d->n - used);
		d->n -= used;
		if (ev->kind != INDEC_NONE)
			return 1;
	}
	return 0;
}

int indec_wait(const struct indec *d)
{
	if (d->skip)
		return INDEC_SEQ_MS;
	if (d->n == 0)
		return 0;
	return d->n == 1 && d->buf[0] == ESC ? INDEC_ESC_MS : INDEC_SEQ_MS;
}
