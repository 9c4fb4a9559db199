import Foundation
import SchemaLabSQLite
import SchemaLabCoreData
import SchemaLabEngine

/// Reads a `ImportedModel` from a Core Data SQLite store's own tables, for
/// `schemalab import STORE.sqlite` when no model file is at hand. The store is opened
/// read-only. Names are read back through the rules of `StoreLayout`, which made them:
///
/// - Entities: the rows of `Z_PRIMARYKEY` (their names keep their case); `Z_SUPER` gives a
///   sub-entity's parent (which the importer then refuses).
/// - Attributes: the columns of `Z<ENTITY>` but Z_PK, Z_ENT and Z_OPT, typed from the
///   declared type (INTEGER as Integer 64, FLOAT as Double, TIMESTAMP as Date, VARCHAR as
///   String, BLOB as Binary, DECIMAL as Decimal), named by the column lower-cased.
/// - To-one relationships: an INTEGER column with Core Data's `<TABLE>_<COLUMN>_INDEX` whose
///   name (without its `Z`) is an entity's, or that a column of another table points back
///   at (a one-to-one pair, which are then each other's inverse).
/// - Many-to-many relationships: the join tables `Z_<n><NAME>` and their two columns.
/// - Indexes: `<TABLE>_<COLUMN>_INDEX` on an attribute is an indexed attribute;
///   `Z_<Entity>_<name>` is a fetch index (its columns' order from `PRAGMA index_xinfo`);
///   a unique index is a uniqueness constraint; an R-tree table `Z_<Entity>_<name>` is an
///   R-tree fetch index.
///
/// What a store cannot tell is listed in `ImportedModel/unknowns`: names' original case,
/// the inverse of a to-one whose other side is a to-many, the exact types behind SQLite's
/// (Integer 16/32/64 or Boolean; Double or Float; String or URI; Binary, UUID or
/// Transformable), optionality, default values and delete rules.
package enum StoreModelReader {
    package static func read(path: String) throws -> ImportedModel {
        func fail(_ message: String) -> ModelImportError { ModelImportError(file: path, line: 0, element: "", message: message) }
        let snapshot: ExistingStore.Snapshot
        do { snapshot = try ExistingStore.open(path) } catch let e as StoreMismatch { throw fail(e.message) }
        do {
            return try read(snapshot.db, path: path)
        } catch let e as SQLiteError {
            throw fail("cannot read its tables as a Core Data store's: \(e)")
        }
    }

    /// The model of the open store `db`, read step by step (`StoreReading`).
    static func read(_ db: Database, path: String) throws -> ImportedModel {
        var reading = try StoreReading(db)
        try reading.findForeignKeys()
        try reading.readProperties()
        try reading.readJoinTables()
        try reading.readIndexes()
        var model = ImportedModel(source: path, entities: reading.entities)
        model.unknowns = reading.unknowns
        model.persistentHistory = reading.hasPersistentHistory
        return model
    }
}
