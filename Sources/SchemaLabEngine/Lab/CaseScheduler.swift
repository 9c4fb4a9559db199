import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

/// Runs the cases of a scenario, in the order and on the stores the measurement needs: for
/// each size, each variant's store is filled once (the fetches read it, the writes copy it);
/// then every case of the size is measured together, each after its warm-up, a repetition at
/// a time in a seeded random order (with ``RunOptions/sequential``, one case after another),
/// so that a burst of machine noise falls on a few repetitions of many cases, not on one case.
/// What happens goes to a ``RunObserver``.
package struct CaseScheduler {
    package let plan: ScenarioPlan
    package let options: RunOptions
    /// Where the stores go (``RunOptions/workDirectory`` or the run's own).
    package let workDirectory: String

    package init(plan: ScenarioPlan, options: RunOptions, workDirectory: String) {
        self.plan = plan
        self.options = options
        self.workDirectory = workDirectory
    }

    /// Cases measured together: one size, one workload, its variants.
    package struct Group {
        package let size: Int
        package let spec: WorkloadSpec
        package var cases: [CaseKey]
    }

    /// Every case of the run, grouped by size and workload, and only this shard's groups.
    package func cases() -> [CaseKey] {
        groups().flatMap(\.cases)
    }

    /// The groups of cases measured together: per size, per workload, its variants.
    package func groups() -> [Group] {
        var out: [Group] = []
        var index = 0
        for size in sizes {
            for spec in workloads {
                let keys = variants.filter { spec.variants?.contains($0.1.variant) ?? true }
                    .map { CaseKey(variant: $0.1.variant, workload: spec.name, size: size) }
                guard !keys.isEmpty else { continue }
                defer { index += 1 }
                if let shard = options.shard, index % shard.count != shard.index - 1 { continue }
                out.append(Group(size: size, spec: spec, cases: keys))
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

    /// The measurement a workload gets: its own or the scenario's, with the run's overrides.
    package func measurement(for spec: WorkloadSpec) -> MeasurementSpec {
        var measurement = spec.measurement ?? plan.scenario.measurement
        if let repetitions = options.repetitions { measurement.repetitions = repetitions }
        if let warmup = options.warmup { measurement.warmup = warmup }
        return measurement
    }

    /// Runs every case, checks the results against each other, and returns them; the first
    /// case that fails stops the run with its error.
    package func run() throws -> [CaseResult] {
        let collector = ResultCollector()
        try run(skipping: [], observer: collector, isCancelled: { false }, failed: { _, error in throw error })
        var results = collector.results
        Self.checkResults(&results, checker: ResultChecker(scenario: plan.scenario))
        return results
    }

    /// Runs the cases not in `skipping`, handing each result to `observer` as soon as it is
    /// measured. A case that fails (a SQLite error, a constraint, an I/O error) goes to the
    /// observer, and the run goes on with the others unless ``RunOptions/stopsAtFirstFailure``;
    /// when a variant's store for a size cannot be filled, every case that reads it fails. An
    /// error the observer throws stops the run; so does `isCancelled` returning true (a
    /// `CancellationError`, between repetitions). A workload the scenario cannot build throws a
    /// ``ScenarioError``.
    package func run(skipping: Set<CaseKey>, observer: any RunObserver, isCancelled: @escaping () -> Bool = { false }) throws {
        let stops = options.stopsAtFirstFailure
        try run(
            skipping: skipping, observer: observer, isCancelled: isCancelled,
            failed: { key, error in
                try observer.runDidFail(key, CaseFailure(error))
                return !stops
            })
    }

    /// ``run(skipping:observer:isCancelled:)`` with the failures to `failed`, which returns
    /// whether to go on.
    private func run(
        skipping: Set<CaseKey>, observer: any RunObserver, isCancelled: @escaping () -> Bool,
        failed: @escaping (CaseKey, any Error) throws -> Bool
    ) throws {
        let groups = self.groups().map { group in
            var group = group
            group.cases.removeAll { skipping.contains($0) }
            return group
        }.filter { !$0.cases.isEmpty }
        guard !groups.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        var pass = Pass(
            observer: observer, isCancelled: isCancelled, onFailure: failed,
            progress: RunProgress(
                cases: groups.map(\.cases.count).reduce(0, +),
                plannedRepetitions: groups.map { measurement(for: $0.spec).repetitions * $0.cases.count }.reduce(0, +)))
        for size in sizes where groups.contains(where: { $0.size == size }) {
            guard try measureSize(size, groups: groups.filter { $0.size == size }, pass: &pass) else { return }
        }
    }

    /// What one call of ``run(skipping:observer:isCancelled:)`` carries from size to size.
    struct Pass {
        let observer: any RunObserver
        let isCancelled: () -> Bool
        let onFailure: (CaseKey, any Error) throws -> Bool
        var progress: RunProgress

        mutating func tell(_ now: String) {
            progress.now = now
            observer.runDidProgress(progress)
        }

        /// Reports a failed case; false when the run stops at it.
        func failed(_ key: CaseKey, _ error: any Error) throws -> Bool {
            try onFailure(key, error)
        }

        mutating func finished(_ result: CaseResult) throws {
            progress.casesDone += 1
            try observer.runDidFinish(result)
        }

        func checkCancelled() throws {
            if isCancelled() { throw CancellationError() }
        }
    }

    /// One variant's stores for one size: its model, where the data goes, its filled store.
    struct VariantStores {
        let model: ResolvedModel
        let mom: ManagedObjectModel
        let placement: DataPlacement
        let tag: String
        let filledPath: String
        var fillError: (any Error)?
    }

    /// Fills the size's stores and measures its cases; false when the run stops.
    private func measureSize(_ size: Int, groups: [Group], pass: inout Pass) throws -> Bool {
        // Every variant's filled store first, so that the size's cases can be interleaved.
        let stores = try fillStores(size: size, groups: groups, pass: &pass)
        defer { for s in stores.values { Store.remove(path: s.filledPath) } }
        var paths: [String] = []
        defer { for p in paths { Store.remove(path: p) } }
        var measurements: [(key: CaseKey, measurement: CaseMeasurement)] = []
        for (groupIndex, group) in groups.enumerated() {
            for key in group.cases {
                let v = stores[key.variant]!
                let workload = try makeWorkload(group.spec, stores: v, size: size)
                if let fillError = v.fillError, workload.storeKind != .empty {
                    if try pass.failed(key, fillError) { continue } else { return false }
                }
                let scratchPath = workDirectory + "/\(v.tag)-\(size)-\(groupIndex)-scratch.sqlite"
                let floorPath = workDirectory + "/\(v.tag)-\(size)-\(groupIndex)-floor.sqlite"
                paths += [scratchPath, floorPath]
                let measurement = makeMeasurement(
                    key, workload: workload, spec: group.spec, stores: v, scratchPath: scratchPath, floorPath: floorPath)
                if options.sequential {
                    guard try measureSequentially(key, measurement, filledPath: v.filledPath, pass: &pass) else { return false }
                } else {
                    measurements.append((key, measurement))
                }
            }
        }
        guard !options.sequential else { return true }
        return try measureInterleaved(measurements, size: size, stores: stores, pass: &pass)
    }

    /// Each variant's filled store for `size` (a copy of the existing store with
    /// ``RunOptions/existingStore``), for the variants the groups need. A store that cannot be
    /// made fails the cases that read it (its error is kept); an error of the observer stops the run.
    private func fillStores(size: Int, groups: [Group], pass: inout Pass) throws -> [String: VariantStores] {
        var stores: [String: VariantStores] = [:]
        for (_, model) in variants {
            let todo = groups.filter { $0.cases.contains { $0.variant == model.variant } }.map(\.spec)
            guard !todo.isEmpty else { continue }
            let mom = ManagedObjectModel(model)
            let tag = model.variant.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            var v = VariantStores(
                model: model, mom: mom, placement: try plan.placement(for: mom), tag: tag,
                filledPath: workDirectory + "/\(tag)-\(size).sqlite")
            var fill: FillMeasurement?
            if let source = options.existingStore {
                pass.tell("copying \(source) for \(model.variant)")
                do { fill = try copyStore(source, to: v.filledPath, model: model, size: size) } catch { v.fillError = error }
            } else if todo.contains(where: { $0.storeKind != .empty }) {  // reads and later writes start from the filled store
                pass.tell("n=\(size): filling the \(model.variant) store")
                do {
                    fill = try self.fill(path: v.filledPath, model: model, mom: mom, size: size, placement: v.placement)
                } catch {
                    v.fillError = error
                }
            }
            if let fill { try pass.observer.runDidFill(fill) }
            stores[model.variant] = v
        }
        return stores
    }

    /// The case's workload, built for its variant; a workload the scenario cannot build is a
    /// ``ScenarioError`` at the workload's path.
    private func makeWorkload(_ spec: WorkloadSpec, stores v: VariantStores, size: Int) throws -> any Workload {
        let scenario = plan.scenario
        // No workload holds the data set's rows: the fills and the inserts stream them a chunk at a time.
        let data = GeneratedData.rowsNotGenerated(count: size)
        do {
            return try WorkloadFactory.make(
                spec, model: v.mom, dataset: scenario.dataset, data: data, placement: v.placement, pragmas: scenario.pragmas)
        } catch {
            throw ScenarioError(file: scenario.file, path: spec.path, message: error.message)
        }
    }

    /// The case's measurement: each repetition's store (a new empty one, a copy of the filled
    /// one, or the filled one itself) and the floor's.
    private func makeMeasurement(
        _ key: CaseKey, workload: any Workload, spec: WorkloadSpec, stores v: VariantStores, scratchPath: String, floorPath: String
    ) -> CaseMeasurement {
        let model = v.model, filledPath = v.filledPath, pragmas = plan.scenario.pragmas
        let measurement = CaseMeasurement(
            scenario: plan.scenario.name, variant: key.variant, size: key.size, workload: workload, measurement: measurement(for: spec)
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
        measurement.slowdown = options.slowdowns["\(key.variant)/\(key.workload)"] ?? 1
        return measurement
    }

    /// One case from start to end; false when the run stops.
    private func measureSequentially(_ key: CaseKey, _ measurement: CaseMeasurement, filledPath: String, pass: inout Pass) throws
        -> Bool
    {
        let result: CaseResult
        do {
            pass.tell("\(key): warm-up")
            try measurement.begin()
            while measurement.wantsMore {
                try pass.checkCancelled()
                pass.tell("\(key): repetition \(measurement.repetitions + 1)")
                try measurement.measureOne()
                pass.progress.repetitionsDone += 1
            }
            result = try counted(try measurement.finish(), filledPath: filledPath)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return try pass.failed(key, error)
        }
        try pass.finished(result)
        return true
    }

    /// Warm-ups, then rounds of one repetition per case in a seeded random order; false when
    /// the run stops.
    private func measureInterleaved(
        _ measurements: [(key: CaseKey, measurement: CaseMeasurement)], size: Int, stores: [String: VariantStores], pass: inout Pass
    ) throws -> Bool {
        var live: [(key: CaseKey, measurement: CaseMeasurement)] = []
        for m in measurements {
            pass.tell("\(m.key): warm-up")
            do { try m.measurement.begin(); live.append(m) } catch { if try pass.failed(m.key, error) { continue } else { return false } }
        }
        var rng = SplitMix64(seed: FieldGenerator.streamSeed(options.orderSeed, key: "size \(size)"))
        while live.contains(where: { $0.measurement.wantsMore }) {
            var order = Array(live.indices.filter { live[$0].measurement.wantsMore })
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            var broken: Set<Int> = []
            for i in order {
                try pass.checkCancelled()
                pass.tell("\(live[i].key): repetition \(live[i].measurement.repetitions + 1)")
                defer { pass.progress.repetitionsDone += 1 }
                do { try live[i].measurement.measureOne() } catch {
                    broken.insert(i)
                    if try !pass.failed(live[i].key, error) { return false }
                }
            }
            live = live.enumerated().filter { !broken.contains($0.offset) }.map(\.element)
        }
        for m in live {
            let result: CaseResult
            do {
                result = try counted(try m.measurement.finish(), filledPath: stores[m.key.variant]!.filledPath)
            } catch {
                if try pass.failed(m.key, error) { continue } else { return false }
            }
            try pass.finished(result)
        }
        return true
    }

    /// With an instruction counter: the case's timed region counted once, in the counting
    /// process, on a copy of the variant's filled store.
    private func counted(_ result: CaseResult, filledPath: String) throws -> CaseResult {
        guard let counter = options.instructionCounter else { return result }
        guard let spec = plan.scenario.workloads.first(where: { $0.name == result.workload }), spec.kind.countsInstructions else {
            return result
        }
        var counted = result
        counted.instructions = try counter.count(try countRequest(for: result, spec: spec, filledPath: filledPath))
        return counted
    }

    /// The request that counts `result`'s case: the scenario's file copied into the work
    /// directory (once), the filled store named relative to it.
    func countRequest(for result: CaseResult, spec: WorkloadSpec, filledPath: String) throws -> CountRequest {
        // The child runs in the work directory with relative paths only: where the checkout, the
        // scenario or $TMPDIR lie changes the size of its arguments, which shifts its stack and
        // moved counts by up to 1.5% (measured); with these the count is the same anywhere.
        var request = CountRequest(variant: result.variant, workload: result.workload, size: result.size, workDirectory: workDirectory)
        let scenarioCopy = workDirectory + "/" + request.scenarioFile
        if !FileManager.default.fileExists(atPath: scenarioCopy) {
            try ScenarioCopy.write(plan.scenario, to: scenarioCopy)
        }
        request.warmup = min(1, options.warmup ?? (spec.measurement ?? plan.scenario.measurement).warmup)
        request.slowdown = options.slowdowns["\(result.variant)/\(result.workload)"] ?? 1
        if FileManager.default.fileExists(atPath: filledPath) {
            guard
                URL(fileURLWithPath: filledPath).deletingLastPathComponent().standardizedFileURL.path
                    == URL(fileURLWithPath: workDirectory).standardizedFileURL.path
            else {
                throw MeasurementError("counting instructions: the filled store \(filledPath) is not in the work directory")
            }
            request.filledStore = URL(fileURLWithPath: filledPath).lastPathComponent
        }
        return request
    }

    /// Creates a store of `variant` at `path` filled with `size` rows of the data set, as a run
    /// fills the stores its fetches read (`schemalab generate --store`): a Core Data-shaped
    /// store to keep, inspect with sqlite3, or run on with `run --store`.
    package func fillStore(path: String, variant: String, size: Int) throws -> FillMeasurement {
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
        if options.analyzesStores { _ = try store.db.rows("ANALYZE") }
        _ = try store.db.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        let ms = Double(Clock.wallNanoseconds() - t0) / 1e6
        let peak = resetOK ? MemoryProbe.peakResidentKB() : -1
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? -1
        return FillMeasurement(
            variant: model.variant, size: size, chunkRows: stream.streams ? stream.chunkSize : size,
            streamed: stream.streams, milliseconds: ms, peakRSSKB: peak,
            rssGrowthKB: peak >= 0 && startRSS >= 0 ? peak - startRSS : -1, storeBytes: bytes)
    }

    /// Marks each case against the reference variant's result for the same workload and
    /// size, and against its `agreesWith` workload's result in the same variant and size.
    package static func checkResults(_ results: inout [CaseResult], checker: ResultChecker) {
        let checks = checker.checks(results.map { (CaseKey(variant: $0.variant, workload: $0.workload, size: $0.size), $0.signature) })
        for i in results.indices {
            results[i].referenceCheck = checks[i].reference
            results[i].agreementCheck = checks[i].agreement
        }
    }
}

extension CaseScheduler {
    /// The variant's store as a copy of an existing one (`ExistingStore`), given the
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
            rssGrowthKB: peak >= 0 && startRSS >= 0 ? peak - startRSS : -1, storeBytes: bytes)
    }
}

/// An observer that keeps every result (`CaseScheduler/run()`).
private final class ResultCollector: RunObserver {
    var results: [CaseResult] = []

    func runDidFinish(_ result: CaseResult) throws { results.append(result) }
}
