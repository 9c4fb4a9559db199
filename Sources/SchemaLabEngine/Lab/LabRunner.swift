import Foundation
import SchemaLabSQLite
import SchemaLabCoreData

/// Runs every case of a scenario: for each size, generate the data once; for each
/// variant, fill a store once (for the fetches); for each workload, measure.
public struct LabRunner {
    public let plan: ScenarioPlan
    public let options: RunOptions
    /// Called with a line of progress per case.
    public var progress: (String) -> Void = { _ in }
    /// Called as the run goes: what runs now, and how far the run is.
    public var activity: (LabProgress) -> Void = { _ in }
    /// Called when a variant's store for a size is filled, with what the fill cost.
    public var filled: (FillMeasurement) throws -> Void = { _ in }

    public init(plan: ScenarioPlan, options: RunOptions) {
        self.plan = plan
        self.options = options
    }

    /// Every case of the run, grouped by size and workload (every case of one size is
    /// measured together, interleaved), and only this shard's groups with `--shard`.
    public func cases() -> [CaseKey] {
        groups().flatMap(\.cases)
    }

    /// The groups of cases measured together: per size, per workload, its variants.
    func groups() -> [(size: Int, spec: WorkloadSpec, cases: [CaseKey])] {
        var out: [(size: Int, spec: WorkloadSpec, cases: [CaseKey])] = []
        var index = 0
        for size in sizes {
            for spec in workloads {
                let keys = variants.filter { spec.variants?.contains($0.1.variant) ?? true }
                    .map { CaseKey(variant: $0.1.variant, workload: spec.name, size: size) }
                guard !keys.isEmpty else { continue }
                defer { index += 1 }
                if let shard = options.shard, index % shard.count != shard.index - 1 { continue }
                out.append((size, spec, keys))
            }
        }
        return out
    }

    private var sizes: [Int] { options.sizes ?? plan.scenario.dataset.counts }
    private var variants: [(VariantSpec, ResolvedModel)] {
        zip(plan.scenario.variants, plan.models).filter { options.variants?.contains($0.0.name) ?? true }
    }
    private var workloads: [WorkloadSpec] {
        plan.scenario.workloads.filter { options.workloads?.contains($0.name) ?? true }
    }

    /// Runs every case, checks the results against each other, and returns them; the
    /// first case that fails stops the run with its error.
    public func run() throws -> [CaseResult] {
        var results: [CaseResult] = []
        try run(skip: { _ in false }, finished: { results.append($0) }, failed: { _, error in throw error })
        Self.checkResults(&results, checker: ResultChecker(scenario: plan.scenario))
        return results
    }

    /// One variant's stores for one size: its model, where the data goes, its filled store.
    private struct VariantStores {
        let model: ResolvedModel
        let mom: ManagedObjectModel
        let placement: DataPlacement
        let tag: String
        let filledPath: String
        var fillError: (any Error)?
    }

    /// Runs the cases `skip` does not exclude, handing each result to `finished` as soon
    /// as it is measured. Every case of one size is measured together: after each one's
    /// warm-up, repetition by repetition in a seeded random order (with `sequential`, one
    /// case after another). A case that fails (a SQLite error, a
    /// constraint, an I/O error) goes to `failed`, which returns whether to go on with the
    /// other cases; when the filled store of a variant and size cannot be made, every case
    /// that reads it fails. Errors thrown by `finished` or `failed` stop the run. A workload
    /// the scenario cannot build throws a ``ScenarioError``.
    public func run(
        skip: (CaseKey) -> Bool, finished: (CaseResult) throws -> Void,
        failed: (CaseKey, any Error) throws -> Bool
    ) throws {
        let scenario = plan.scenario
        func measurement(for spec: WorkloadSpec) -> MeasurementSpec {
            var measurement = spec.measurement ?? scenario.measurement
            if let r = options.repetitions { measurement.repetitions = r }
            if let w = options.warmup { measurement.warmup = w }
            return measurement
        }
        let groups = self.groups().map { g in (g.size, g.spec, g.cases.filter { !skip($0) }) }.filter { !$0.2.isEmpty }
        guard !groups.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        var status = LabProgress(
            cases: groups.map(\.2.count).reduce(0, +),
            plannedRepetitions: groups.map { measurement(for: $0.1).repetitions * $0.2.count }.reduce(0, +))
        func tell(_ now: String) { status.now = now; activity(status) }
        let finished = { (r: CaseResult) throws in
            status.casesDone += 1
            try finished(r)
        }
        for size in sizes where groups.contains(where: { $0.0 == size }) {
            let sizeGroups = groups.filter { $0.0 == size }
            // No workload holds the data set's rows: the fills and the inserts stream them a chunk at a time.
            let data = GeneratedData.rowsNotGenerated(count: size)
            // Every variant's filled store first, so that the size's cases can be interleaved.
            var stores: [String: VariantStores] = [:]
            defer { for s in stores.values { Store.remove(path: s.filledPath) } }
            for (_, model) in variants {
                let todo = sizeGroups.filter { $0.2.contains { $0.variant == model.variant } }.map(\.1)
                guard !todo.isEmpty else { continue }
                let mom = ManagedObjectModel(model)
                let tag = model.variant.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
                var v = VariantStores(
                    model: model, mom: mom, placement: try plan.placement(for: mom), tag: tag,
                    filledPath: options.workDirectory + "/\(tag)-\(size).sqlite")
                // A store that cannot be made fails the cases that read it; an error of the
                // `filled` callback (the run's output) stops the run.
                var fillMeasurement: FillMeasurement?
                if let source = options.store {
                    tell("copying \(source) for \(model.variant)")
                    do {
                        fillMeasurement = try copyStore(source, to: v.filledPath, model: model, size: size)
                    } catch {
                        v.fillError = error
                    }
                } else if todo.contains(where: { $0.storeKind != .empty }) {  // reads and later writes start from the filled store
                    tell("n=\(size): filling the \(model.variant) store")
                    do {
                        fillMeasurement = try fill(path: v.filledPath, model: model, mom: mom, size: size, placement: v.placement)
                    } catch {
                        v.fillError = error
                    }
                }
                if let fillMeasurement { try filled(fillMeasurement) }
                stores[model.variant] = v
            }
            // Every case of the size is measured together (interleaved), unless sequential.
            var sessions: [(key: CaseKey, session: CaseSession)] = []
            var paths: [String] = []
            defer { for p in paths { Store.remove(path: p) } }
            for (groupIndex, (_, spec, keys)) in sizeGroups.enumerated() {
                for key in keys {
                    let v = stores[key.variant]!
                    let workload: any Workload
                    do {
                        workload = try WorkloadFactory.make(
                            spec, model: v.mom, dataset: scenario.dataset, data: data, placement: v.placement,
                            pragmas: scenario.pragmas)
                    } catch {
                        throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
                    }
                    if let fillError = v.fillError, workload.storeKind != .empty {
                        if try failed(key, fillError) { continue } else { return }
                    }
                    let scratchPath = options.workDirectory + "/\(v.tag)-\(size)-\(groupIndex)-scratch.sqlite"
                    let floorPath = options.workDirectory + "/\(v.tag)-\(size)-\(groupIndex)-floor.sqlite"
                    paths += [scratchPath, floorPath]
                    let model = v.model, filledPath = v.filledPath, pragmas = scenario.pragmas
                    let session = CaseSession(
                        scenario: scenario.name, variant: key.variant, size: size, workload: workload,
                        measurement: measurement(for: spec)
                    ) {
                        switch workload.storeKind {
                        case .empty:
                            Store.remove(path: scratchPath)
                            return try Store.create(path: scratchPath, model: model, pragmas: pragmas)
                        case .filledCopy:
                            Store.remove(path: scratchPath)
                            try Store.copy(from: filledPath, to: scratchPath)
                            return try Store.open(path: scratchPath, model: model, pragmas: pragmas)
                        case .filled:
                            return try Store.open(path: filledPath, model: model, pragmas: pragmas)
                        }
                    } makeFloorStore: {
                        Store.remove(path: floorPath)
                        if workload.storeKind == .empty {
                            return try Store.create(path: floorPath, model: model, pragmas: pragmas)
                        }
                        try Store.copy(from: filledPath, to: floorPath)
                        return try Store.open(path: floorPath, model: model, pragmas: pragmas)
                    }
                    session.slowdown = options.slowdowns["\(key.variant)/\(key.workload)"] ?? 1
                    if options.sequential {
                        let result: CaseResult
                        do {
                            tell("\(key.variant) \(key.workload) n=\(size): warm-up")
                            try session.begin()
                            while session.wantsMore {
                                tell("\(key.variant) \(key.workload) n=\(size): repetition \(session.repetitions + 1)")
                                try session.measureOne()
                                status.repetitionsDone += 1
                            }
                            result = try counted(try session.finish(), filledPath: filledPath)
                        } catch {
                            if try failed(key, error) { continue } else { return }
                        }
                        try report(result, finished)
                    } else {
                        sessions.append((key, session))
                    }
                }
            }
            guard !options.sequential else { continue }
            // Warm-ups, then rounds of one repetition per case in a seeded random order, so that
            // a burst of machine noise falls on a few repetitions of many cases, not on one case.
            var live: [(key: CaseKey, session: CaseSession)] = []
            for s in sessions {
                tell("\(s.key.variant) \(s.key.workload) n=\(size): warm-up")
                do { try s.session.begin(); live.append(s) } catch { if try failed(s.key, error) { continue } else { return } }
            }
            var rng = SplitMix64(seed: FieldGenerator.streamSeed(options.orderSeed, key: "size \(size)"))
            while live.contains(where: { $0.session.wantsMore }) {
                var order = Array(live.indices.filter { live[$0].session.wantsMore })
                for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
                var broken: Set<Int> = []
                for i in order {
                    tell("\(live[i].key.variant) \(live[i].key.workload) n=\(size): repetition \(live[i].session.repetitions + 1)")
                    defer { status.repetitionsDone += 1 }
                    do { try live[i].session.measureOne() } catch {
                        broken.insert(i)
                        if try !failed(live[i].key, error) { return }
                    }
                }
                live = live.enumerated().filter { !broken.contains($0.offset) }.map(\.element)
            }
            for s in live {
                let result: CaseResult
                do {
                    result = try counted(try s.session.finish(), filledPath: stores[s.key.variant]!.filledPath)
                } catch {
                    if try failed(s.key, error) { continue } else { return }
                }
                try report(result, finished)
            }
        }
    }

    /// With `--instructions`: counts the case's timed region under callgrind, in a child
    /// process on a copy of the variant's filled store.
    private func counted(_ result: CaseResult, filledPath: String) throws -> CaseResult {
        guard options.instructions, let executable = options.executable else { return result }
        guard plan.scenario.workloads.first(where: { $0.name == result.workload })?.kind.countsInstructions ?? true else { return result }
        var r = result
        let warmup = (plan.scenario.workloads.first { $0.name == result.workload }?.measurement ?? plan.scenario.measurement).warmup
        // The child runs in the work directory with relative paths only: where the checkout, the
        // scenario or $TMPDIR lie changes the size of its arguments, which shifts its stack and
        // moved counts by up to 1.5% (measured); with these the count is the same anywhere.
        let scenarioCopy = options.workDirectory + "/scenario.json"
        if !FileManager.default.fileExists(atPath: scenarioCopy) {
            guard let data = FileManager.default.contents(atPath: plan.scenario.file), SHA256.hex(Array(data)) == plan.scenario.sha256
            else {
                throw MeasurementError("counting instructions: \(plan.scenario.file) has changed since the run started")
            }
            try data.write(to: URL(fileURLWithPath: scenarioCopy))
        }
        var arguments = [
            "scenario.json", "--variant", result.variant, "--workload", result.workload, "--size", String(result.size),
            "--work", ".", "--warmup", String(min(1, options.warmup ?? warmup)),
        ]
        if let f = options.slowdowns["\(result.variant)/\(result.workload)"] { arguments += ["--slowdown", String(f)] }
        if FileManager.default.fileExists(atPath: filledPath) {
            guard
                URL(fileURLWithPath: filledPath).deletingLastPathComponent().standardizedFileURL.path
                    == URL(fileURLWithPath: options.workDirectory).standardizedFileURL.path
            else {
                throw MeasurementError("counting instructions: the filled store \(filledPath) is not in the work directory")
            }
            arguments += ["--store", URL(fileURLWithPath: filledPath).lastPathComponent]
        }
        r.instructions = try InstructionCounter.count(arguments: arguments, workDirectory: options.workDirectory, executable: executable)
        return r
    }

    private func report(_ result: CaseResult, _ finished: (CaseResult) throws -> Void) throws {
        let times = result.multiplier > 1 ? " (\(result.multiplier) runs per sample)" : ""
        progress(
            "\(result.variant) \(result.workload) n=\(result.size): median \(Format.ms(result.wall.median)) ms, \(result.samples.count) reps\(times), \(result.statements) statements"
        )
        try finished(result)
    }

    /// Marks each case against the reference variant's result for the same workload and
    /// size, and against its `agreesWith` workload's result in the same variant and size.
    public static func checkResults(_ results: inout [CaseResult], checker: ResultChecker) {
        let checks = checker.checks(results.map { (CaseKey(variant: $0.variant, workload: $0.workload, size: $0.size), $0.signature) })
        for i in results.indices {
            results[i].referenceCheck = checks[i].reference
            results[i].agreementCheck = checks[i].agreement
        }
    }

    /// Creates a store of `variant` at `path` filled with `size` rows of the data set, as a run
    /// fills the stores its fetches read (`schemalab generate --store`): a Core Data-shaped
    /// store to keep, inspect with sqlite3, or run on with `run --store`.
    public func fillStore(path: String, variant: String, size: Int) throws -> FillMeasurement {
        guard let model = plan.models.first(where: { $0.variant == variant }) else {
            throw ScenarioError(file: plan.scenario.file, path: "$.variants", message: "no variant '\(variant)'")
        }
        let mom = ManagedObjectModel(model)
        return try fill(path: path, model: model, mom: mom, size: size, placement: try plan.placement(for: mom))
    }

    /// Creates and fills the store the fetch workloads read, through the same save path: the
    /// data set streamed a chunk at a time, each chunk saved from a new context (so neither
    /// the values nor the saved objects pile up); returns what it cost.
    private func fill(path: String, model: ResolvedModel, mom: ManagedObjectModel, size: Int, placement: DataPlacement) throws
        -> FillMeasurement
    {
        Store.remove(path: path)
        HeapProbe.trim()
        let startRSS = MemoryProbe.residentKB()
        let resetOK = MemoryProbe.resetPeak()
        let t0 = Clock.wallNanoseconds()
        let store = try Store.create(path: path, model: model, pragmas: plan.scenario.pragmas)
        var stream = DataStream(spec: plan.scenario.dataset, count: size, chunkSize: options.fillChunkSize)
        try stream.forEachChunk { chunk in
            let context = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(chunk, placement: placement, into: context)
            try context.save()
        }
        if let drift = try CounterAudit.drifts(store, model: model).first { throw drift }
        _ = try store.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        let ms = Double(Clock.wallNanoseconds() - t0) / 1e6
        let peak = resetOK ? MemoryProbe.peakResidentKB() : -1
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? -1
        return FillMeasurement(
            variant: model.variant, size: size, chunkRows: stream.streams ? stream.chunkSize : size,
            streamed: stream.streams, milliseconds: ms, peakRSSKB: peak,
            rssGrowthKB: peak >= 0 && startRSS >= 0 ? peak - startRSS : -1, storeBytes: bytes ?? -1)
    }
}

extension LabRunner {
    /// The variant's store as a copy of an existing one (``ExistingStore``), given the
    /// variant's indexes; returns what it cost, as a fill.
    func copyStore(_ source: String, to path: String, model: ResolvedModel, size: Int) throws -> FillMeasurement {
        HeapProbe.trim()
        let startRSS = MemoryProbe.residentKB()
        let resetOK = MemoryProbe.resetPeak()
        let t0 = Clock.wallNanoseconds()
        try ExistingStore.copy(source, to: path, model: model)
        try ExistingStore.check(try Database(path: path), store: source, model: model)
        let ms = Double(Clock.wallNanoseconds() - t0) / 1e6
        let peak = resetOK ? MemoryProbe.peakResidentKB() : -1
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? -1
        return FillMeasurement(
            variant: model.variant, size: size, chunkRows: 0, streamed: false, milliseconds: ms, peakRSSKB: peak,
            rssGrowthKB: peak >= 0 && startRSS >= 0 ? peak - startRSS : -1, storeBytes: bytes ?? -1)
    }
}

/// How far a run is, for a progress line: cases finished, repetitions measured against
/// those planned (a case's time budget can end it sooner), and what runs now.
public struct LabProgress: Sendable {
    public var cases: Int
    public var casesDone = 0
    public var plannedRepetitions: Int
    public var repetitionsDone = 0
    public var now = ""

    public init(cases: Int, plannedRepetitions: Int) {
        self.cases = cases
        self.plannedRepetitions = plannedRepetitions
    }

    /// The share of the planned repetitions measured, 0...1.
    public var fraction: Double { plannedRepetitions > 0 ? min(1, Double(repetitionsDone) / Double(plannedRepetitions)) : 0 }
}
