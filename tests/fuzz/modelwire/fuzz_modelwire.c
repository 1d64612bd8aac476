/* libFuzzer harness for modelwire_get, the reader of a tick another host sends (pmutop
 * --connect): whatever the bytes, 0, -EINVAL or -EPROTONOSUPPORT (-ENOMEM aside), never a read
 * outside the record (a heap block of exactly its size); a model read is packed again and read back
 * to the same bytes once more (the reader and the writer agree on everything read). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "modelwire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *rec = malloc(size ? size : 1);
	if (!rec)
		return 0;
	memcpy(rec, data, size);
	struct modelwire w = {0}, w2 = {0};
	int r = modelwire_get(&w, rec, size);
	if (r != 0 && r != -EINVAL && r != -ENOMEM && r != -EPROTONOSUPPORT)
		abort();
	if (r == 0) {
		struct mwbuf a = {0}, b = {0};
		if (modelwire_put(&w.m, &a) == 0) {
			unsigned char *copy = malloc(a.len ? a.len : 1);
			if (copy) {
				memcpy(copy, a.b, a.len);
				if (modelwire_get(&w2, copy, a.len) != 0 ||
				    modelwire_put(&w2.m, &b) != 0 || b.len != a.len ||
				    memcmp(a.b, b.b, a.len) != 0)
					abort();
			}
		}
		mwbuf_free(&a);
		mwbuf_free(&b);
	}
	modelwire_clear(&w);
	modelwire_clear(&w2);
	return 0;
}
