import Foundation
import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// The lab's five readers of input from elsewhere, as fuzz targets: bytes in, and either a
/// result or the clear error the lab promises. Anything else (another error type, an error
/// that does not say where, a crash) traps, which is what libFuzzer (the `Fuzz/` package,
/// `make fuzz`) and the crash regressions in `make test` look for.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Scenario JSON to a validated plan (`ScenarioDecoder`, `ScenarioPlan`).
    case scenario
    /// A predicate string to SQL over a small model (`PredicateParser`, `PredicateCompiler`).
    case predicate
    /// An Xcode model's contents XML to a model and a scenario, or a refusal (`ModelXMLReader`).
    case modelXML = "model-xml"
    /// A database file's bytes to a model, through `import STORE.sqlite` (`StoreModelReader`).
    case store
    /// A Core Data SQLDebug console log to its statements and the requests behind its SELECTs,
    /// as `import MODEL --log` reads it (`SQLDebugLogReader`, `LogDigest`, `LoggedSQLParser`,
    /// `RequestRebuilder`).
    case log

    /// What the lab did with an input: a result, or the clear error it promises.
    public enum Outcome: Equatable, Sendable {
        /// The input was read into a result.
        case accepted
        /// The input was refused with the clear error the lab promises: its message.
        case refused(String)
    }

    /// A broken promise: the input got something other than a result or a clear error.
    public struct Violation: Error, CustomStringConvertible, Sendable {
        /// What broke the promise, in words: an error of another type, an error that does not
        /// say where, an imported scenario that does not read back.
        public let description: String
    }

    /// Runs `bytes` through the target; throws a ``Violation`` when the promise breaks.
    public func run(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        switch self {
        case .scenario: return try Self.scenario(bytes)
        case .predicate: return try Self.predicate(bytes)
        case .modelXML: return try Self.modelXML(bytes)
        case .store: return try Self.store(bytes)
        case .log: return try Self.log(bytes)
        }
    }

    /// The libFuzzer entry's body: a violation traps with its message.
    public func fuzz(_ bytes: [UInt8]) {
        do { _ = try run(bytes) } catch { fatalError("\(rawValue): \(error.description)") }
    }

    // MARK: The targets

    static func scenario(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .refused("not UTF-8") }
        do {
            _ = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "fuzz.json"))
            return .accepted
        } catch let error as ScenarioError {
            try clear(error)
            return .refused(error.description)
        } catch {
            throw Violation(description: "the scenario decoder threw \(type(of: error)), not a ScenarioError: \(error)")
        }
    }

    /// The model predicates compile against: the predicate suite's Person -< Pet, Person >-< Club
    /// (so that its predicates seed the corpus), with the other attribute types added.
    static let predicateModel: ResolvedModel = {
        let text = """
            {"format": 1, "name": "fuzz",
             "variants": [{"name": "plain", "entities": [
               {"name": "Person",
                "attributes": [{"name": "name", "type": "string"}, {"name": "nick", "type": "string"}, {"name": "age", "type": "integer32"},
                  {"name": "score", "type": "double"}, {"name": "bio", "type": "string"}, {"name": "born", "type": "date"},
                  {"name": "weight", "type": "float"}, {"name": "active", "type": "bool"}, {"name": "photo", "type": "binary"},
                  {"name": "price", "type": "decimal"}, {"name": "rank", "type": "integer16"}, {"name": "key", "type": "integer64"}],
                "relationships": [{"name": "pets", "destination": "Pet", "toMany": true, "inverse": "owner"},
                                  {"name": "clubs", "destination": "Club", "toMany": true, "inverse": "members"}]},
               {"name": "Pet", "attributes": [{"name": "name", "type": "string"}, {"name": "age", "type": "integer32"}],
                "relationships": [{"name": "owner", "destination": "Person", "inverse": "pets"}]},
               {"name": "Club", "attributes": [{"name": "name", "type": "string"}],
                "relationships": [{"name": "members", "destination": "Person", "toMany": true, "inverse": "clubs"}]}]}],
             "dataset": {"seed": 1, "entity": "Person", "counts": [1], "fields": [{"field": "age", "generator": {"kind": "uniformInt", "min": 1, "max": 9}}]},
             "workloads": [{"name": "f", "kind": "fetch"}]}
            """
        do { return try ScenarioPlan(ScenarioDecoder.decode(text: text, file: "fuzz-model.json")).models[0] } catch {
            fatalError("the predicate fuzz target's model does not decode: \(error)")
        }
    }()

    /// The first line is the predicate; each later line an argument (an integer, a real, or text).
    static func predicate(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        guard let text = String(validating: bytes, as: UTF8.self) else { return .refused("not UTF-8") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let format = lines.removeFirst()
        let arguments: [PredicateValue] = lines.prefix(16).map { line in
            if let i = Int64(line) { return .integer(i) }
            if let d = Double(line), d.isFinite { return .real(d) }
            return .string(line)
        }
        let model = predicateModel
        do {
            guard let entity = model.entity("Person") else { throw Violation(description: "the fuzz model has no Person") }
            let joins = JoinPlanner(model: model, entity: entity)
            let compiled = try PredicateCompiler(model: model, entity: entity, joins: joins)
                .compile(PredicateParser.parse(format, arguments: arguments))
            guard !compiled.sql.isEmpty else { throw Violation(description: "empty SQL for \(format.debugDescription)") }
            return .accepted
        } catch let error as SchemaLabCoreData.PredicateError {
            guard error.column >= 1, error.column <= format.count + 1, !error.message.isEmpty else {
                throw Violation(description: "a predicate error that does not say where: \(error) for \(format.debugDescription)")
            }
            return .refused(error.description)
        } catch let error as Violation {
            throw error
        } catch {
            throw Violation(description: "the predicate compiler threw \(type(of: error)): \(error)")
        }
    }

    static func modelXML(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        let model: ImportedModel
        do { model = try ModelXMLReader.read(data: Data(bytes), file: "fuzz.xcdatamodel/contents") } catch let error as ModelImportError {
            try clear(error)
            return .refused(error.description)
        } catch {
            throw Violation(description: "the model reader threw \(type(of: error)), not a ModelImportError: \(error)")
        }
        return try imported(model)
    }

    static func store(_ bytes: [UInt8]) throws(Violation) -> Outcome {
        let directory = FileManager.default.temporaryDirectory.path + "/schemalab-fuzz-store-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/Fuzz.sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Violation(description: "cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model: ImportedModel
        do { model = try StoreModelReader.read(path: path) } catch let error as ModelImportError {
            try clear(error)
            guard error.file == path else { throw Violation(description: "the store's error does not name the file: \(error)") }
            return .refused(error.description)
        } catch {
            throw Violation(description: "the store reader threw \(type(of: error)), not a ModelImportError: \(error)")
        }
        return try imported(model)
    }

    /// A model read from elsewhere becomes a scenario that decodes, or a clear refusal.
    static func imported(_ model: ImportedModel) throws(Violation) -> Outcome {
        var importer = ScenarioImporter(model: model, name: "fuzz", today: "2026-01-01")
        let scenario: Scenario
        do { scenario = try importer.scenario() } catch let error as ModelImportError {
            try clear(error)
            return .refused(error.description)
        } catch {
            throw Violation(description: "the importer threw \(type(of: error)): \(error)")
        }
        // `schemalab import` validates what it made and, when the lab refuses it, writes nothing
        // and says why (a derived attribute over one that is not stored, say): a clear error too.
        do {
            _ = try ScenarioPlan(ScenarioDecoder.decode(text: ScenarioEncoder.text(scenario), file: "fuzz.json"))
            return .accepted
        } catch let error as ScenarioError {
            try clear(error)
            return .refused("the scenario made from it does not validate: \(error.description)")
        } catch {
            throw Violation(description: "the importer wrote a scenario the decoder fails on with \(type(of: error)): \(error)")
        }
    }

    static func clear(_ error: ScenarioError) throws(Violation) {
        guard error.path.hasPrefix("$"), !error.message.isEmpty, !error.description.contains(where: \.isNewline) else {
            throw Violation(description: "not a clear scenario error (a path, a message, one line): \(error.description.debugDescription)")
        }
    }

    static func clear(_ error: ModelImportError) throws(Violation) {
        guard !error.message.isEmpty else { throw Violation(description: "a model error without a message: \(error)") }
    }
}
