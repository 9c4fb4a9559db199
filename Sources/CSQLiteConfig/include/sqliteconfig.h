#ifndef SCHEMALAB_CSQLITECONFIG_H
#define SCHEMALAB_CSQLITECONFIG_H

// sqlite3_db_config is variadic, which Swift cannot call: this is its integer form.
// sqlite3.h is not included, so that this module does not export SQLite's names beside CSQLite's.
struct sqlite3;

/// sqlite3_db_config(db, op, value, &result) for an option that takes an int and reports it;
/// returns SQLite's result code and sets *result to the setting now in force.
int schemalab_db_config_int(struct sqlite3 *db, int op, int value, int *result);

#endif
