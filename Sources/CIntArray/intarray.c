// A virtual table of integers, after SQLite's public-domain src/test_intarray.c: the table
// has one column (`value`), every scan reads the whole array in order, and the contents are
// replaced between statements with schemalab_intarray_bind.
#include <sqlite3.h>
#include "intarray.h"
#include <stdlib.h>
#include <string.h>

struct schemalab_intarray {
    int count;
    int capacity;
    sqlite3_int64 *values;
};

typedef struct {
    sqlite3_vtab base;
    schemalab_intarray *array;
} intarray_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    int row;
} intarray_cursor;

static void intarray_free(void *pointer) {
    schemalab_intarray *array = pointer;
    if (array == NULL) return;
    sqlite3_free(array->values);
    sqlite3_free(array);
}

static int intarray_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err) {
    (void)argc; (void)argv; (void)err;
    intarray_vtab *table = sqlite3_malloc(sizeof(*table));
    if (table == NULL) return SQLITE_NOMEM;
    memset(table, 0, sizeof(*table));
    table->array = aux;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(value INTEGER PRIMARY KEY)");
    if (rc != SQLITE_OK) { sqlite3_free(table); return rc; }
    *out = &table->base;
    return SQLITE_OK;
}

static int intarray_destroy(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

static int intarray_open(sqlite3_vtab *table, sqlite3_vtab_cursor **out) {
    (void)table;
    intarray_cursor *cursor = sqlite3_malloc(sizeof(*cursor));
    if (cursor == NULL) return SQLITE_NOMEM;
    memset(cursor, 0, sizeof(*cursor));
    *out = &cursor->base;
    return SQLITE_OK;
}

static int intarray_close(sqlite3_vtab_cursor *cursor) {
    sqlite3_free(cursor);
    return SQLITE_OK;
}

static int intarray_filter(sqlite3_vtab_cursor *cursor, int index, const char *indexString, int argc, sqlite3_value **argv) {
    (void)index; (void)indexString; (void)argc; (void)argv;
    ((intarray_cursor *)cursor)->row = 0;
    return SQLITE_OK;
}

static int intarray_next(sqlite3_vtab_cursor *cursor) {
    ((intarray_cursor *)cursor)->row++;
    return SQLITE_OK;
}

static int intarray_eof(sqlite3_vtab_cursor *cursor) {
    intarray_cursor *c = (intarray_cursor *)cursor;
    intarray_vtab *table = (intarray_vtab *)cursor->pVtab;
    return c->row >= table->array->count;
}

static int intarray_column(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int column) {
    (void)column;
    intarray_cursor *c = (intarray_cursor *)cursor;
    intarray_vtab *table = (intarray_vtab *)cursor->pVtab;
    if (c->row >= 0 && c->row < table->array->count) sqlite3_result_int64(context, table->array->values[c->row]);
    return SQLITE_OK;
}

static int intarray_rowid(sqlite3_vtab_cursor *cursor, sqlite_int64 *rowid) {
    *rowid = ((intarray_cursor *)cursor)->row;
    return SQLITE_OK;
}

// As test_intarray.c: no constraint is used, every scan reads the whole array.
static int intarray_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table; (void)info;
    return SQLITE_OK;
}

static sqlite3_module intarray_module = {
    .iVersion = 0,
    .xCreate = intarray_create,
    .xConnect = intarray_create,
    .xBestIndex = intarray_best_index,
    .xDisconnect = intarray_destroy,
    .xDestroy = intarray_destroy,
    .xOpen = intarray_open,
    .xClose = intarray_close,
    .xFilter = intarray_filter,
    .xNext = intarray_next,
    .xEof = intarray_eof,
    .xColumn = intarray_column,
    .xRowid = intarray_rowid,
};

int schemalab_intarray_create(struct sqlite3 *db, const char *name, schemalab_intarray **out) {
    schemalab_intarray *array = sqlite3_malloc(sizeof(*array));
    if (array == NULL) return SQLITE_NOMEM;
    memset(array, 0, sizeof(*array));
    int rc = sqlite3_create_module_v2(db, name, &intarray_module, array, intarray_free);
    if (rc != SQLITE_OK) return rc;  // create_module_v2 calls intarray_free on failure
    char *sql = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.\"%w\" USING \"%w\"", name, name);
    if (sql == NULL) return SQLITE_NOMEM;
    rc = sqlite3_exec(db, sql, 0, 0, 0);
    sqlite3_free(sql);
    if (rc == SQLITE_OK) *out = array;
    return rc;
}

int schemalab_intarray_bind(schemalab_intarray *array, int count, const long long *values) {
    if (count > array->capacity) {
        int capacity = count < 64 ? 64 : count;
        sqlite3_int64 *grown = sqlite3_realloc64(array->values, (sqlite3_uint64)capacity * sizeof(sqlite3_int64));
        if (grown == NULL) return SQLITE_NOMEM;
        array->values = grown;
        array->capacity = capacity;
    }
    if (count > 0) memcpy(array->values, values, (size_t)count * sizeof(sqlite3_int64));
    array->count = count;
    return SQLITE_OK;
}

int schemalab_intarray_count(const schemalab_intarray *array) { return array->count; }
