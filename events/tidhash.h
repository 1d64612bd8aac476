/* An index of tids: open addressing with linear probing, 1 << bits cells each holding an
 * index into an array of tids (keys), UINT_MAX free. The bpf reader's image of the task
 * map is found by tid through it (bpf/bpfcount.c). */
#ifndef PMUTOP_TIDHASH_H
#define PMUTOP_TIDHASH_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

static inline size_t tidhash_cell(unsigned bits, unsigned tid)
{
	return (uint32_t)(tid * 0x9E3779B1u) >> (32 - bits);
}

/* The index in keys of tid, or SIZE_MAX; *cell: its cell, or the free one it would take. */
static inline size_t tidhash_find(const unsigned *hash, unsigned bits, const unsigned *keys,
				  unsigned tid, size_t *cell)
{
	size_t mask = ((size_t)1 << bits) - 1, c = tidhash_cell(bits, tid);
	for (; hash[c] != UINT_MAX; c = (c + 1) & mask)
		if (keys[hash[c]] == tid)
			break;
	*cell = c;
	return hash[c] == UINT_MAX ? SIZE_MAX : hash[c];
}

/* The index in cell out of the hash: each cell probed after it moves back into the hole
 * when its own probe passes the hole (backward-shift deletion), so that every other tid
 * is found still, with no mark left behind. */
static inline void tidhash_remove(unsigned *hash, unsigned bits, const unsigned *keys, size_t cell)
{
	size_t mask = ((size_t)1 << bits) - 1, hole = cell;
	for (size_t c = (hole + 1) & mask; hash[c] != UINT_MAX; c = (c + 1) & mask) {
		size_t home = tidhash_cell(bits, keys[hash[c]]);
		if (((c - home) & mask) >= ((c - hole) & mask)) {
			hash[hole] = hash[c];
			hole = c;
		}
	}
	hash[hole] = UINT_MAX;
}

/* Entry at of keys (n of them), found in cell, out of the index in a step: out of the
 * hash, and the last key moved into its place (its cell made to say so). The new count;
 * when it is not at, the caller moves the last entry's values to at too. */
static inline size_t tidhash_take(unsigned *hash, unsigned bits, unsigned *keys, size_t n,
				  size_t at, size_t cell)
{
	tidhash_remove(hash, bits, keys, cell);
	size_t last = n - 1, lc;
	if (at != last && tidhash_find(hash, bits, keys, keys[last], &lc) == last) {
		hash[lc] = (unsigned)at;
		keys[at] = keys[last];
	}
	return last;
}

#endif
