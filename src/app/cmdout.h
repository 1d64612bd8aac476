/* The watched command's terminal on the live screen: a pty of its own (never the
 * screen's), and the last lines it printed, for the key that shows them. */
#ifndef PMUTOP_CMDOUT_H
#define PMUTOP_CMDOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cmdout;

#define CMDOUT_LINES 200    /* lines kept */
#define CMDOUT_LINE_MAX 512 /* bytes kept of each line */

/* A pty master of cols x rows (0: the kernel's default size). The child opens
 * cmdout_slave() after setsid() (startup_spawn). Returns NULL with -errno in *err. */
struct cmdout *cmdout_new(int cols, int rows, int *err);
void cmdout_free(struct cmdout *c);

/* The master to poll, or -1 once the command's side is closed (every process holding it
 * ended) and all it wrote was read. */
int cmdout_fd(const struct cmdout *c);
const char *cmdout_slave(const struct cmdout *c);
/* Tell the command its terminal's new size (it gets SIGWINCH). */
int cmdout_resize(struct cmdout *c, int cols, int rows);

/* Also copy what the command writes, as it wrote it, to fd (owned from now on). */
void cmdout_copy_to(struct cmdout *c, int fd);
/* 0, or -errno once a copy failed (then copying stopped). */
int cmdout_copy_error(const struct cmdout *c);

/* Read what the command wrote (non-blocking, up to 64 KiB) into the lines. Returns how
 * many lines were completed. */
unsigned cmdout_drain(struct cmdout *c);
/* Feed bytes as if read from the master (tests, and cmdout_drain). */
unsigned cmdout_feed(struct cmdout *c, const char *buf, size_t n);

/* How many lines were completed since the start (the sequence number of the next). */
unsigned long cmdout_seq(const struct cmdout *c);
/* Print, sanitised (utf8: keep valid UTF-8), the kept lines numbered from seq on (older
 * ones are gone). Returns the next sequence number. */
unsigned long cmdout_print(const struct cmdout *c, FILE *f, unsigned long seq, bool utf8);
/* The line being written (a prompt without its newline yet), sanitised, or "". */
void cmdout_partial(const struct cmdout *c, char *buf, size_t len, bool utf8);

#endif
