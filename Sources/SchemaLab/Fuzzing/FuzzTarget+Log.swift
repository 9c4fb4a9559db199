import Foundation
import SchemaLabCoreData
import SchemaLabEngine

/// The `log` target: a Core Data SQLDebug console log, read as `import MODEL --log` reads it.
extension FuzzTarget {
    /// The model logged statements are rebuilt over: every relationship kind and a hierarchy,
    /// with the tables and columns of the SQLDebug fixtures (`Tests/Fixtures/SQLDebug`, the
    /// target's seeds) so that their statements reach the rebuilder. Author -< Book (a to-one and
    /// a to-many), Book >-< Tag (a join table), Item with Note and Photo (one table, `Z_ENT`),
    /// Item -< Attachment, and a Person with the other attribute types.
    static let logModel: ResolvedModel = {
        let text = """
            {"format": 1, "name": "fuzz-log",
             "variants": [{"name": "as-is", "entities": [
               {"name": "Author", "attributes": [{"name": "name", "type": "string"}, {"name": "born", "type": "date"}],
                "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author"}]},
               {"name": "Book",
                "attributes": [{"name": "title", "type": "string"}, {"name": "copyright", "type": "string"},
                  {"name": "publishedYear", "type": "integer16"}, {"name": "cover", "type": "binary"}],
                "relationships": [{"name": "author", "destination": "Author", "inverse": "books"},
                                  {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
               {"name": "Tag", "attributes": [{"name": "name", "type": "string"}],
                "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]},
               {"name": "Item", "abstract": true,
                "attributes": [{"name": "title", "type": "string"}, {"name": "timestamp", "type": "date"},
                  {"name": "attachmentCount", "type": "integer32"}, {"name": "birthOfYear", "type": "integer16"}],
                "relationships": [{"name": "attachments", "destination": "Attachment", "toMany": true, "inverse": "item"}]},
               {"name": "Note", "parent": "Item", "attributes": [{"name": "body", "type": "string"}]},
               {"name": "Photo", "parent": "Item",
                "attributes": [{"name": "width", "type": "integer32"}, {"name": "favourite", "type": "bool"}]},
               {"name": "Attachment", "attributes": [{"name": "title", "type": "string"}],
                "relationships": [{"name": "item", "destination": "Item", "inverse": "attachments"}]},
               {"name": "Person",
                "attributes": [{"name": "firstName", "type": "string"}, {"name": "lastName", "type": "string"},
                  {"name": "age", "type": "integer32"}, {"name": "personID", "type": "integer64"}, {"name": "score", "type": "double"},
                  {"name": "weight", "type": "float"}, {"name": "price", "type": "decimal"}, {"name": "active", "type": "bool"}]}]}],
             "dataset": {"seed": 1, "entity": "Person", "counts": [1], "fields": [{"field": "age", "generator": {"kind": "uniformInt", "min": 1, "max": 9}}]},
             "workloads": [{"name": "f", "kind": "fetch"}]}
            """
        do { return try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "fuzz-log-model.json")).models[0] } catch {
            fatalError("the log fuzz target's model does not decode: \(error)")
        }
    }()

    /// The model's store names, for ``LoggedNames/unknown(in:)``.
    static let logModelNames = LoggedNames(model: logModel)

    /// The bytes as a log, read as text and as a file (the two must agree: `import --log` reads
    /// the file, the tests and this target the text), into a digest; each SELECT shape parsed,
    /// rebuilt over ``logModel`` with its logged values, its prefetches and section query read
    /// back, and its unknown names listed; then the shapes made into workloads as the import
    /// makes them. Bytes that are not UTF-8 are read as the import reads them (each as U+FFFD);
    /// a statement the parser or the rebuilder does not read is a clear refusal of that
    /// statement (the import keeps it as logged SQL), never of the log. A log without a
    /// statement is refused, as the import refuses it. The tally adds up (every line used,
    /// known or skipped), the digest counts no statement twice, and each workload's device
    /// usage is one a scenario holds (runs, rows and seconds finite and not negative).
    static func log(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        var digest = LogDigest()
        var statements: [LoggedStatement] = []
        let tally = SQLDebugLogReader.read(text: String(decoding: bytes, as: UTF8.self)) { statement in
            statements.append(statement)
            digest.add(statement)
        }
        guard tally.recognized + tally.known + tally.skipped == tally.lines else {
            throw Violation(description: "the tally does not add up: \(tally)")
        }
        guard tally.statements == statements.count else {
            throw Violation(description: "the tally counts \(tally.statements) statements, the reader handed on \(statements.count)")
        }
        try readsAsAFile(bytes, tally: tally, statements: statements)
        guard tally.statements > 0 else { return .refused("no Core Data statements in \(tally.lines) lines") }
        let rebuilder = RequestRebuilder(model: logModel, dateStandIn: 0)
        for shape in digest.shapes where shape.kind == .select {
            let sql = shape.first.sql
            for unknown in logModelNames.unknown(in: sql) where unknown.name.isEmpty || !sql.contains(unknown.name) {
                throw Violation(description: "an unknown name \(unknown.name.debugDescription) that is not in \(sql.debugDescription)")
            }
            let select: LoggedSelect
            do { select = try LoggedSQLParser.select(sql) } catch {
                try clear(error.message, of: "the parser", sql: sql)
                continue
            }
            let request: RequestRebuilder.Request
            do { request = try rebuilder.rebuild(select, binds: shape.first.binds, entityName: shape.first.entity) } catch {
                try clear(error.reason, of: "the rebuilder", sql: sql)
                continue
            }
            guard let entity = request.workload.entity, logModel.entity(entity) != nil else {
                throw Violation(description: "a request rebuilt on no entity of the model from \(sql.debugDescription)")
            }
            do {
                for prefetch in shape.prefetchQueries.sorted() { _ = try rebuilder.prefetchKey(try parsed(prefetch), from: entity) }
                if let section = shape.sectionQuery { _ = try rebuilder.sectionKey(try parsed(section)) }
            } catch {
                try clear(error.reason, of: "the rebuilder", sql: sql)
            }
        }
        // The import's next step over the same shapes: each a workload, rebuilt or kept as logged
        // SQL, with what the log says it cost on the device, which the scenario must be able to hold.
        let entries: [LogWorkloads.Entry]
        var unrebuilt: [LogWorkloads.Entry] = []
        let saves = SaveRebuilder(model: logModel, root: logModel.entities.first?.name ?? "", rows: 10, dateStandIn: 0)
        do {
            entries = try LogWorkloads(model: logModel, dateStandIn: 0, keepsUnknown: true).entries(
                digest, saves: saves, unrebuilt: &unrebuilt)
        } catch {
            throw Violation(description: "the workloads refused unknown names they were told to keep: \(error)")
        }
        for entry in entries {
            guard let device = entry.workload.device, device.runs >= 1, device.rows ?? 0 >= 0,
                (device.seconds ?? 0).isFinite, device.seconds ?? 0 >= 0
            else { throw Violation(description: "a device usage the scenario cannot hold: \(String(describing: entry.workload.device))") }
        }
        let counted = digest.shapes.reduce(0) { $0 + $1.runs + $1.followerRuns }
        guard counted <= statements.count else {
            throw Violation(description: "the digest counts \(counted) runs of \(statements.count) statements")
        }
        return .accepted
    }

    /// The digest keeps a prefetch or a section query only when it parses.
    private static func parsed(_ sql: String) throws(RequestRebuilder.Unsupported) -> LoggedSelect {
        do { return try LoggedSQLParser.select(sql) } catch {
            throw RequestRebuilder.Unsupported("a follower that does not parse: \(error.message)")
        }
    }

    /// A statement refused in words: a reason.
    private static func clear(_ reason: String, of reader: String, sql: String) throws(Violation) {
        guard !reason.isEmpty else { throw Violation(description: "\(reader) refused \(sql.debugDescription) without a reason") }
    }

    /// The same bytes read from a file, as `import --log` reads them: the same tally and statements.
    private static func readsAsAFile(_ bytes: [UInt8], tally: LogTally, statements: [LoggedStatement]) throws(Violation) {
        // A file per call: the tests run targets in parallel in one process.
        let path = FileManager.default.temporaryDirectory.path + "/schemalab-fuzz-\(getpid())-\(UUID().uuidString).log"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Violation(description: "cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        var fromFile: [LoggedStatement] = []
        let fileTally: LogTally
        do { fileTally = try SQLDebugLogReader.read(path: path) { fromFile.append($0) } } catch {
            throw Violation(description: "the reader cannot read the file it was given: \(error)")
        }
        guard fileTally == tally, fromFile == statements else {
            let first = zip(fromFile, statements).first { $0 != $1 }
            throw Violation(
                description:
                    "the log read as a file differs from it read as text: \(fileTally) against \(tally)\(first.map { ", first \($0.0) against \($0.1)" } ?? "")"
            )
        }
    }
}
