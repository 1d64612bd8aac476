/* Text that came from other processes (command names, user names) made safe for a
 * terminal, a CSV field or a JSON string. */
#ifndef PMUTOP_TEXT_H
#define PMUTOP_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* Length (1..4) of the valid UTF-8 sequence at s, of at most n bytes, its code point in
 * *cp (if cp); 0 when it is none. Strict: no overlong forms, no surrogates, nothing
 * above U+10FFFF. The one UTF-8 decoder of the project. */
size_t text_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/* Copy in to out (NUL-terminated, at most outlen-1 bytes) so that no byte can steer a
 * terminal: C0/C1 control characters and DEL become '?', and so does every byte of an
 * invalid UTF-8 sequence; valid UTF-8 is kept when utf8, else non-ASCII becomes '?'.
 * Never splits a multi-byte character. Returns the length written. */
size_t text_sanitize(const char *in, char *out, size_t outlen, bool utf8);

/* Write s as one CSV field (RFC 4180: quoted when it holds a comma, quote, CR or LF;
 * control characters replaced as text_sanitize does). */
void text_csv_field(FILE *f, const char *s);

/* Write s as a JSON string with its quotes; invalid UTF-8 bytes become U+FFFD, control
 * characters \uXXXX escapes. */
void text_json_string(FILE *f, const char *s);

/* A wall-clock time (seconds since the epoch) as ISO 8601 in local time with its offset,
 * to the millisecond: 2026-11-25T16:40:01.250+01:00 (RFC 3339 reads it). "?" for a time
 * before 1970 or past time_t's range (a damaged recording's). Returns buf. */
const char *text_iso_time(double wall, char *buf, size_t len);

#endif
