import Foundation
@testable import SchemaLabSQLite
@testable import SchemaLabCoreData
@testable import SchemaLabEngine

/// Runs one scenario file the way the lab would, at a tiny size, and says how it ended:
/// a clear ``ScenarioError`` for that file at a JSON path, or a valid plan whose every
/// variant builds its store, takes the data and runs every workload once.
enum FuzzHarness {
    enum Outcome {
        /// Refused with a clear error: while decoding and resolving the plan (what `validate`
        /// refuses), or later, building a workload.
        case refused(ScenarioError, planning: Bool)
        /// A valid plan; `ran` is false when its data set is too big for the fuzz budget
        /// (the plan was still built and checked, but no data was generated).
        case valid(ran: Bool)
        /// Anything else: a wrong error, an error that does not name the file or a `$` path,
        /// or a SQLite error while building, filling or reading a store.
        case failure(String)
    }

    /// A problem the harness found that is no thrown error of the lab's (a counter drift).
    struct Failure: Error { let message: String }

    /// The most objects (root rows, related rows and pool members) the fuzz pass generates for one plan.
    static let objectBudget = 2_000.0
    /// The most generated text and blob bytes per field value the fuzz pass generates.
    static let lengthBudget = 1_000_000

    static func run(file: String, workDirectory: String) -> Outcome {
        let plan: ScenarioPlan
        do {
            plan = try ScenarioPlan(ScenarioDecoder.load(path: file))
        } catch let e as ScenarioError {
            return clear(e, file: file, planning: true)
        } catch {
            return .failure("decoding threw \(type(of: error)), not a ScenarioError: \(error)")
        }
        do {
            return try exercise(plan, workDirectory: workDirectory)
        } catch let e as ScenarioError {
            return clear(e, file: file, planning: false)
        } catch let e as SQLiteError {
            return .failure("SQLite error on a valid plan: \(e)")
        } catch let e as Failure {
            return .failure(e.message)
        } catch {
            return .failure("a valid plan threw \(type(of: error)): \(error)")
        }
    }

    static func clear(_ e: ScenarioError, file: String, planning: Bool) -> Outcome {
        guard e.file == file else { return .failure("the error names file '\(e.file)', not '\(file)': \(e)") }
        guard e.path.hasPrefix("$") else { return .failure("the error's path does not start with $: \(e)") }
        guard !e.message.isEmpty else { return .failure("the error has no message: \(e)") }
        guard !e.description.contains(where: { $0.isNewline }) else {
            return .failure("the error is not one line: \(e.description.debugDescription)")
        }
        return .refused(e, planning: planning)
    }

    /// Builds each variant's store, fills it with at most 3 root rows, and runs each workload once.
    static func exercise(_ plan: ScenarioPlan, workDirectory: String) throws -> Outcome {
        let scenario = plan.scenario
        let ds = scenario.dataset
        let size = min(ds.counts.min() ?? 1, 3)
        guard estimatedObjects(ds, size: size) <= objectBudget, maxLength(ds) <= lengthBudget else { return .valid(ran: false) }
        let data = GeneratedData(spec: ds, count: size)
        for (k, model) in plan.models.enumerated() {
            let mom = ManagedObjectModel(model)
            let placement = try plan.placement(for: mom)
            let filled = workDirectory + "/v\(k).sqlite"
            Store.remove(path: filled)
            try fill(filled, model: model, mom: mom, data: data, placement: placement, pragmas: scenario.pragmas)
            defer { Store.remove(path: filled) }
            for spec in scenario.workloads where spec.variants?.contains(model.variant) ?? true {
                var small = spec
                if small.kind == .append || small.kind == .readerUnderWriter {
                    small.count = min(spec.count, 3)
                    small.saveEvery = min(spec.saveEvery, small.count)
                }
                // A box set runs one fetch per box: a few boxes prove the shape.
                if let boxes = small.boxes { small.boxes?.count = min(boxes.count, 5) }
                let workload: any Workload
                do {
                    workload = try WorkloadFactory.make(small, model: mom, dataset: ds, data: data, placement: placement)
                } catch {
                    throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
                }
                let scratch = workDirectory + "/v\(k)-scratch.sqlite"
                Store.remove(path: scratch)
                defer { Store.remove(path: scratch) }
                let store: Store
                switch workload.storeKind {
                case .empty: store = try Store.create(path: scratch, model: model, pragmas: scenario.pragmas)
                case .filledCopy:
                    try FileManager.default.copyItem(atPath: filled, toPath: scratch)
                    store = try Store.open(path: scratch, model: model, pragmas: scenario.pragmas)
                case .filled: store = try Store.open(path: filled, model: model, pragmas: scenario.pragmas)
                }
                try workload.prepare(store: store)
                let outcome = try workload.run(store: store)
                _ = try outcome.digest()
            }
        }
        return .valid(ran: true)
    }

    /// As the runner's fill step: create the store, insert the data, save, audit the counters.
    private static func fill(
        _ path: String, model: ResolvedModel, mom: ManagedObjectModel, data: GeneratedData,
        placement: DataPlacement, pragmas: [Pragma]
    ) throws {
        let store = try Store.create(path: path, model: model, pragmas: pragmas)
        let context = ManagedObjectContext(store: store, objectModel: mom)
        try InsertWorkload.insertAll(data, placement: placement, into: context)
        try context.save()
        if let drift = try CounterAudit.drifts(store, model: model).first {
            throw Failure(message: "counter drift after the fill: \(drift)")
        }
        _ = try store.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// An upper bound of the objects `size` root rows make: fan-outs at their maximum, pools in full.
    static func estimatedObjects(_ ds: DatasetSpec, size: Int) -> Double {
        func level(_ related: [RelatedSpec], rows: Double) -> Double {
            related.reduce(0) { sum, r in
                if let pool = r.pool { return sum + Double(pool.count) }
                let children = rows * maxFanOut(r.fanOut)
                return sum + children + level(r.related, rows: children)
            }
        }
        return Double(size) + level(ds.related, rows: Double(size))
    }

    static func maxFanOut(_ g: GeneratorSpec) -> Double {
        switch g {
        case .constant(let v): return v.doubleValue ?? 0
        case .uniformInt(_, let hi): return Double(hi)
        case .pareto(_, _, let maxV, _, _): return Double(maxV)
        case .choice(let values, _): return values.compactMap(\.doubleValue).max() ?? 0
        default: return .infinity
        }
    }

    /// The longest text or blob any field generates.
    static func maxLength(_ ds: DatasetSpec) -> Int {
        func fields(_ fs: [FieldSpec]) -> Int {
            fs.map { f -> Int in
                switch f.generator {
                case .text(_, let hi, _), .bytes(_, let hi): return hi
                default: return 0
                }
            }.max() ?? 0
        }
        func related(_ rs: [RelatedSpec]) -> Int {
            rs.map { max(fields($0.fields), fields($0.pool?.fields ?? []), related($0.related)) }.max() ?? 0
        }
        return max(fields(ds.fields), related(ds.related))
    }
}
