// `import SchemaLab` is all a package of your own needs: the scenario and its specs
// (SchemaLabEngine), the model and SQL types results name (SchemaLabCoreData), and SQLite's
// plans and counters (SchemaLabSQLite) come with it.
@_exported import SchemaLabCoreData
@_exported import SchemaLabEngine
@_exported import SchemaLabSQLite
