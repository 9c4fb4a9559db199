#ifndef SCHEMALAB_CSQLITE_SHIM_H
#define SCHEMALAB_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: tell SQLite to copy bound text/blobs.
static inline sqlite3_destructor_type schemalab_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
