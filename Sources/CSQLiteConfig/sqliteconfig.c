#include <sqlite3.h>
#include "sqliteconfig.h"

int schemalab_db_config_int(struct sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}
