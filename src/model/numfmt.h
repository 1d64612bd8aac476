/* Numbers as the cells show them, written without printf where it can be: the batch
 * writer and the screen format every cell of every row each tick. Each writer gives
 * the bytes snprintf would, cut to len - 1 the same way, and returns how many it wrote. */
#ifndef PMUTOP_NUMFMT_H
#define PMUTOP_NUMFMT_H

#include <stddef.h>

/* "%s" */
size_t numfmt_str(const char *s, char *buf, size_t len);
/* "%llu" */
size_t numfmt_uint(unsigned long long n, char *buf, size_t len);
/* "%.*f", dec 0..9 */
size_t numfmt_fixed(double v, int dec, char *buf, size_t len);
/* "%.*f%c" */
size_t numfmt_fixed_unit(double v, int dec, char unit, char *buf, size_t len);
/* Counts in four significant characters: 999, 12.3K, 456K, 7.89M */
size_t numfmt_count(double v, char *buf, size_t len);
/* Three significant digits in at most w characters, k/M/G above 1000; a non-zero value
 * never reads 0 */
size_t numfmt_sig(double v, int w, char *buf, size_t len);
/* In e-notation with sig significant digits: 6.1e-8 (0 and no number as numfmt_sig) */
size_t numfmt_exp(double v, int sig, char *buf, size_t len);
/* Bytes in powers of 1024, as top's RES: 812K, 12.3M, 1.02G (below 1 KiB: 512B) */
size_t numfmt_mem(double bytes, char *buf, size_t len);
/* Nanoseconds as time: 850ns, 12.3us, 345ms, 1.02s */
size_t numfmt_time(double ns, char *buf, size_t len);

#endif
