#ifndef SCHEMALAB_CINTARRAY_INTARRAY_H
#define SCHEMALAB_CINTARRAY_INTARRAY_H

// sqlite3.h is not included here, so that this module does not export SQLite's names a
// second time beside CSQLite's: the connection is an opaque pointer, the values 64-bit.
struct sqlite3;

/// A temporary virtual table of 64-bit integers whose contents the caller replaces before
/// each statement that reads it: the binding Core Data uses for lists of primary keys
/// (`t0.Z_PK IN (SELECT * FROM _Z_intarray0)`). Modelled on SQLite's public-domain
/// `src/test_intarray.c` (the module is registered under the table's own name, and the
/// table is created in the TEMP schema), with its own copy of the values.
typedef struct schemalab_intarray schemalab_intarray;

/// Registers the module `name` on `db` and runs `CREATE VIRTUAL TABLE temp."name" USING "name"`.
/// On success `*out` is the array, owned by the connection (freed when it closes).
int schemalab_intarray_create(struct sqlite3 *db, const char *name, schemalab_intarray **out);

/// Replaces the array's contents with `count` values (copied). SQLITE_NOMEM when it cannot grow.
int schemalab_intarray_bind(schemalab_intarray *array, int count, const long long *values);

/// How many values the array holds.
int schemalab_intarray_count(const schemalab_intarray *array);
#endif
