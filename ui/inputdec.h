/* The terminal's input, decoded: bytes in, keys and mouse reports out (as tmux's
 * tty-keys.c and libtermkey do). Pure: no curses, no reads; the screen feeds it what it
 * reads and asks for events. A sequence split over reads is put together; one that never
 * ends is dropped after a timeout; an unknown CSI, SS3, DCS, OSC, SOS, PM or APC sequence
 * is consumed whole and gives nothing; SGR (1006) and X10 mouse reports are parsed
 * whatever the terminal description says, so a click never becomes keys. */
#ifndef PMUTOP_INPUTDEC_H
#define PMUTOP_INPUTDEC_H

#include <stdbool.h>
#include <stddef.h>

/* Keys the decoder knows itself (xterm, VT220, rxvt): above every byte and every key
 * code a caller adds (indec_add). */
enum {
	INDEC_K_BASE = 0x100000,
	INDEC_K_UP = INDEC_K_BASE,
	INDEC_K_DOWN,
	INDEC_K_LEFT,
	INDEC_K_RIGHT,
	INDEC_K_HOME,
	INDEC_K_END,
	INDEC_K_PPAGE,
	INDEC_K_NPAGE,
	INDEC_K_IC,
	INDEC_K_DC,
	INDEC_K_BTAB,
	INDEC_K_ENTER, /* the keypad's Enter (SS3 M) */
	INDEC_K_F0,    /* INDEC_K_F0 + n: F n (1-36: with Shift F13-F24, with Ctrl F25-F36) */
	INDEC_K_LAST = INDEC_K_F0 + 36,
};

enum indec_kind { INDEC_NONE, INDEC_KEY, INDEC_MOUSE };

struct indec_event {
	enum indec_kind kind;
	int key;     /* INDEC_KEY: a byte (0-255), an INDEC_K_*, or a code given to indec_add */
	int button;  /* INDEC_MOUSE: 1-3, 4 and 5 the wheel (up, down), 0 none (motion) */
	bool press;  /* a press (or a wheel step), not a release */
	bool motion; /* the pointer moved (with button held, or none) */
	int x, y;    /* 0-based cell */
};

#define INDEC_BUF 256 /* a sequence longer than this is dropped whole */
#define INDEC_SEQS 64 /* sequences a caller may add (the terminal description's keys) */
#define INDEC_SEQ_MAX 16

struct indec {
	unsigned char buf[INDEC_BUF];
	size_t n;
	/* Dropping the rest of a sequence too long to hold: 0 no, 'C' a CSI (to its final
	 * byte), 'S' a string (to ST or BEL). */
	char skip;
	bool skip_esc; /* skip 'S': an ESC seen, a '\\' ends the string */
	struct {
		char seq[INDEC_SEQ_MAX];
		int key;
	} seqs[INDEC_SEQS];
	unsigned nseqs;
};

/* How long to wait for the rest of a sequence (milliseconds): after a lone ESC, a person
 * pressing Esc gets an answer soon; once a sequence has begun, its rest may come late. */
#define INDEC_ESC_MS 50
#define INDEC_SEQ_MS 500

void indec_init(struct indec *d);
/* A sequence the terminal sends for key (its terminal description's, as kcuu1 for
 * KEY_UP): matched before the decoder's own. 0, -EINVAL (empty, too long), -ENOSPC. */
int indec_add(struct indec *d, const char *seq, int key);
/* Append bytes read. Returns how many were taken (fewer when the buffer is full: call
 * indec_next to make room, then feed the rest). */
size_t indec_feed(struct indec *d, const unsigned char *p, size_t n);
/* The next event, when the bytes held make one: 1, ev filled. 0 when none: nothing held,
 * or an unfinished sequence (indec_wait says how long to wait for its rest). timed_out:
 * that wait is over, so an unfinished sequence is decided now (a lone ESC is the Esc
 * key; the start of anything longer is dropped). */
int indec_next(struct indec *d, bool timed_out, struct indec_event *ev);
/* Milliseconds to wait for the rest of what is held, or 0 when nothing waits. */
int indec_wait(const struct indec *d);

#endif
