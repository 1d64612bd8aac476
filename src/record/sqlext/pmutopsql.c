/* pmutopsql.so: a recording's `readings` table for any SQLite program, as a loadable
 * extension (the sqlite3 shell: .load pmutopsql). The same module `pmutop -r FILE --sql`
 * registers (src/recsql.c, built into this library with SQLite's calls through the host's
 * routines). */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "recsql.h"

/* The entry point SQLite derives from the file's name (pmutopsql). */
__attribute__((visibility("default"))) int sqlite3_pmutopsql_init(sqlite3 *db, char **err,
								  const sqlite3_api_routines *api);

int sqlite3_pmutopsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
	SQLITE_EXTENSION_INIT2(api);
	(void)err;
	return recsql_register(db);
}
