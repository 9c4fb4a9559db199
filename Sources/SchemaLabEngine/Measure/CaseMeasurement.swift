import SchemaLabSQLite
import SchemaLabCoreData

/// One case being measured, a repetition at a time, so that the lab can interleave the
/// repetitions of several cases (the variants of one workload) and let machine drift fall
/// on all of them alike. After package-benchmark: warm-up outside the samples; stop at the
/// repetition count or the case's time budget, whichever comes first; set-up outside the
/// timed region; every raw sample kept.
///
/// Memory is read per repetition: before the first one the heap's free pages go back to the
/// system (later ones run on the warm heap), and before each one the resident-set peak and
/// SQLite's heap high-water mark restart; the case reports the largest peak and growth of
/// its repetitions.
///
/// The raw baseline: the last warm-up run (or, without a warm-up, one untimed run) records
/// every statement the workload executes with its bindings (``Database/beginTrace()``); after each measured
/// repetition (and after its memory was read), that sequence is stepped with the bare C
/// API (`RawStepper`) on a store of the same kind: a new connection to the filled store
/// for reads (warmed once), a fresh store for writes. No objects, no registry, no boxed
/// values: what the case costs SQLite alone. Statements a workload runs on another
/// connection (a reader under a writer) are not recorded, so that kind has none.
///
/// A sample shorter than ``minimumSampleNanoseconds`` is too short to time well: a
/// read-only workload (on the shared filled store) whose warm-up ran faster runs several
/// times per sample, and the sample is the mean; ``multiplier`` records how many.
package final class CaseMeasurement {
    package let scenario: String
    package let variant: String
    package let size: Int
    package let workload: any Workload
    package let measurement: MeasurementSpec
    private let makeStore: () throws -> Store
    private let makeFloorStore: (() throws -> Store)?

    /// A sample aims at least this long (1 ms).
    package static let minimumSampleNanoseconds: UInt64 = 1_000_000
    /// Runs per sample at most.
    package static let maximumMultiplier = 1000

    /// Runs of the workload per sample (1 unless it is short and read-only).
    package private(set) var multiplier = 1
    /// Set to run exactly this many times per sample (instruction counting runs once).
    package var fixedMultiplier: Int?
    /// A test aid for the regression gate (`run --inject-slowdown`): a whole factor repeats the
    /// work on the same store (2: the work done twice); a fraction spins for the extra time.
    package var slowdown = 1.0
    private var store: Store?
    private var samples: [Sample] = []
    private var counters = StatementCounters()
    /// The result signature, taken when the first repetition ends (after its memory and time
    /// are read), not at the case's end: a digest closure holds the repetition's objects, and
    /// every session of a size is alive at once when cases are interleaved (at 1,000,000
    /// photos the 18 fetch sessions kept 10 GB of objects between their repetitions). Every
    /// repetition returns the same result (a write workload runs on a new store each time),
    /// and the first is the one every variant has, whatever its time budget allows; taking it
    /// once keeps a digest that walks every object (a batched fetch's) out of later repetitions.
    private var lastSignature = ResultSignature(digest: "")
    private var floorStatements: [(sql: String, bindings: [SQLValue])] = []
    private var floorMs: [Double] = []
    private var stepper: RawStepper?
    /// The raw baseline: the recorded statements, the filled store's raw connection, the times.
    private var rawTrace = RawTrace()
    private var rawStepper: RawStepper?
    private var rawMs: [Double] = []
    private var lastRows = 0
    private var statementLog: [String] = []
    private var reads: [ReadLatency] = []
    private var peakRSS: Int64 = -1
    private var rssGrowth: Int64 = -1
    private var heapPeak: Int64 = 0
    /// Wall time this case has spent in its repetitions (set-up, run, floor), for its budget.
    private var spentNanoseconds: UInt64 = 0

    package init(
        scenario: String, variant: String, size: Int, workload: any Workload, measurement: MeasurementSpec,
        makeStore: @escaping () throws -> Store, makeFloorStore: (() throws -> Store)? = nil
    ) {
        self.scenario = scenario
        self.variant = variant
        self.size = size
        self.workload = workload
        self.measurement = measurement
        self.makeStore = makeStore
        self.makeFloorStore = makeFloorStore
    }

    /// Opens the first store, runs the warm-up, and sets the multiplier.
    package func begin() throws {
        // Every warm-up run, the recorded one and its rerun: each within the timeout.
        try guarded(measurement.statementTimeout * Double(measurement.warmup + 2)) { try self.beginRuns() }
    }

    /// One case runs at a time: one watchdog for the process.
    static let watchdog = StatementWatchdog()

    /// Runs `body` with the statement watchdog armed for `seconds`: a statement still running
    /// then is interrupted, and its error says why (the case fails; the run goes on).
    private func guarded<T>(_ seconds: Double, _ body: () throws -> T) throws -> T {
        Self.watchdog.arm(seconds: seconds)
        do {
            let result = try body()
            Self.watchdog.disarm()
            return result
        } catch let error as SQLiteError {
            guard Self.watchdog.disarm() != nil else { throw error }
            throw SQLiteError(
                code: error.code,
                message:
                    "interrupted: it ran past the statement timeout of \(Format.short(measurement.statementTimeout)) s a run "
                    + "(the measurement's timeout: by default 10 times maxSeconds, at least 60 s)",
                sql: error.sql)
        } catch {
            Self.watchdog.disarm()
            throw error
        }
    }

    private func beginRuns() throws {
        var store = try makeStore()
        var fastest = UInt64.max
        let measuresRaw = makeFloorStore != nil && workload.spec.kind.hasRawBaseline
        var warmupNanoseconds: UInt64 = 0
        for w in 0..<measurement.warmup {
            try workload.prepare(store: store)
            // The last warm-up run is the one recorded for the raw baseline.
            let traced = measuresRaw && w == measurement.warmup - 1
            if traced { store.db.beginTrace() }
            let t0 = Clock.wallNanoseconds()
            let outcome = try TimedRegion.run(counted: false) { try workload.run(store: store) }
            warmupNanoseconds = Clock.wallNanoseconds() - t0
            if traced { rawTrace = store.db.endTrace() }
            // Recording costs time: a recorded run under 50 ms is run once more, unrecorded, to
            // set the multiplier (a longer one gets a multiplier of 1 either way).
            if traced && warmupNanoseconds < 50_000_000 && outcome.reads.isEmpty {
                if workload.storeKind.isFreshPerRepetition { store = try makeStore() }
                try workload.prepare(store: store)
                let t1 = Clock.wallNanoseconds()
                _ = try workload.run(store: store)
                warmupNanoseconds = Clock.wallNanoseconds() - t1
            }
            fastest = min(fastest, warmupNanoseconds)
            if !outcome.reads.isEmpty { fastest = .max }  // latencies are kept per run: one run per sample
            if workload.storeKind.isFreshPerRepetition { store = try makeStore() }
        }
        if let fixed = fixedMultiplier {
            multiplier = fixed
        } else if !workload.storeKind.isFreshPerRepetition, fastest < Self.minimumSampleNanoseconds {
            multiplier = Int(min(UInt64(Self.maximumMultiplier), Self.minimumSampleNanoseconds / max(fastest, 1) + 1))
        }
        self.store = store
        if measuresRaw && measurement.warmup == 0 {
            // No warm-up to record: one untimed run of its own, on another store (writes) or
            // another connection (reads), so that the first repetition stays cold.
            let traced = workload.storeKind.isFreshPerRepetition ? try makeFloorStore!() : try makeStore()
            try workload.prepare(store: traced)
            traced.db.beginTrace()
            let t0 = Clock.wallNanoseconds()
            _ = try workload.run(store: traced)
            warmupNanoseconds = Clock.wallNanoseconds() - t0
            rawTrace = traced.db.endTrace()
        }
        if measuresRaw && !workload.storeKind.isFreshPerRepetition {
            rawStepper = try RawStepper(takingOver: try makeStore().db)
            // Its own warm-up, unless a run takes over a second (the OS cache is warm by then anyway).
            if warmupNanoseconds < 1_000_000_000 { try rawStepper!.run(rawTrace) }
        }
        floorStatements = workload.floorStatements
        if !floorStatements.isEmpty {
            stepper = try RawStepper(path: store.path)
            try stepper!.run(floorStatements)
        }
    }

    /// Repetitions measured so far.
    package var repetitions: Int { samples.count }

    /// True while the case wants another repetition: fewer than its count, and its time
    /// budget not spent (at least one repetition is always taken).
    package var wantsMore: Bool {
        samples.isEmpty || (samples.count < measurement.repetitions && Double(spentNanoseconds) < measurement.maxSeconds * 1e9)
    }

    /// Measures one repetition (``multiplier`` runs of the workload).
    package func measureOne() throws {
        try guarded(measurement.statementTimeout) { try self.measureOneRun() }
    }

    private func measureOneRun() throws {
        let start = Clock.wallNanoseconds()
        defer { spentNanoseconds &+= Clock.wallNanoseconds() - start }  // wrapping: the raw step is subtracted first
        let rep = samples.count + 1
        var store = self.store!
        if rep > 1 && workload.storeKind.isFreshPerRepetition {
            store = try makeStore()
            self.store = store
        }
        // This repetition's memory window. Before the case's first repetition, the free pages of
        // earlier cases go back to the system, so that the case's memory is measured from a clean
        // heap and no case hides its growth in pages another freed. Later repetitions run on the
        // heap as it is, warm as an app's: trimming before each one made every repetition fault
        // its objects' pages in afresh, which at 10,000 photos was a quarter of an object
        // fetch's time (median over raw 1.51-1.94x with it, 1.16-1.47x without), a cost the raw
        // baseline, which allocates nothing, never pays.
        if rep == 1 { HeapProbe.trim() }
        let startRSS = MemoryProbe.residentKB()
        MemoryProbe.resetPeak()
        SQLiteLibrary.resetHeapHighwater()
        try workload.prepare(store: store)
        store.db.beginStatementLog()
        let h0 = HeapProbe.inUseBytes()
        let c0 = Clock.cpuNanoseconds()
        let t0 = Clock.wallNanoseconds()
        let k = multiplier, slowdown = self.slowdown
        var untimed = UntimedSpans()
        let outcome = try TimedRegion.run {
            let start = Clock.wallNanoseconds()
            var outcome = try workload.run(store: store)
            untimed.add(outcome.untimed)
            for _ in 1..<k { outcome = try workload.run(store: store); untimed.add(outcome.untimed) }
            if slowdown >= 2 && slowdown == slowdown.rounded() {
                for _ in 0..<(Int(slowdown) - 1) * k { outcome = try workload.run(store: store); untimed.add(outcome.untimed) }
            } else if slowdown > 1 {
                let until = Clock.wallNanoseconds() + UInt64(Double(Clock.wallNanoseconds() - start) * (slowdown - 1))
                while Clock.wallNanoseconds() < until {}
            }
            return outcome
        }
        let t1 = Clock.wallNanoseconds()
        let c1 = Clock.cpuNanoseconds()
        let h1 = HeapProbe.inUseBytes()
        withExtendedLifetime(outcome.keepAlive) {}
        let peak = MemoryProbe.peakResidentKB()
        peakRSS = max(peakRSS, peak)
        // The peak is counted from the reset after `startRSS` was read; memory another thread
        // freed in between (the test suite runs in parallel) can put it below the start: no growth.
        if peak >= 0 && startRSS >= 0 { rssGrowth = max(rssGrowth, max(0, peak - startRSS)) }
        heapPeak = max(heapPeak, SQLiteLibrary.heapHighwater(reset: false))
        counters = Self.divided(store.db.counters(), by: multiplier)
        statementLog = store.db.statementLog
        let runs = Double(multiplier)
        // The untimed spans (a workload generating its next rows) are not the workload's time.
        let wall = Double(t1 - t0 - min(untimed.wallNanoseconds, t1 - t0))
        let cpu = Double(c1 - c0 - min(untimed.cpuNanoseconds, c1 - c0))
        var sample = Sample(
            repetition: rep, wallMs: wall / 1e6 / runs, cpuMs: cpu / 1e6 / runs,
            rows: outcome.rows, statements: store.db.executions / multiplier, heapRetainedKB: (h1 - h0) / 1024)
        sample.longestWriteMs = outcome.longestWriteMs ?? Double(store.db.longestWriteNanoseconds) / 1e6
        samples.append(sample)
        for (i, r) in outcome.reads.enumerated() {
            reads.append(ReadLatency(repetition: rep, read: i + 1, ms: r.ms, writerActive: r.writerActive, rows: r.rows))
        }
        lastRows = outcome.rows
        if rep == 1 { lastSignature = try outcome.digest() }
        if let stepper {
            // Interleaved with the lab's repetitions, so both see the same machine.
            let f0 = Clock.wallNanoseconds()
            for _ in 0..<multiplier { try stepper.run(floorStatements) }
            floorMs.append(Double(Clock.wallNanoseconds() - f0) / 1e6 / runs)
        }
        // The raw baseline does not spend the case's time budget: it takes no repetition away.
        let raw0 = Clock.wallNanoseconds()
        try measureRaw()
        spentNanoseconds &-= Clock.wallNanoseconds() - raw0
    }

    /// One repetition of the raw baseline, after the lab's (the same number of runs).
    private func measureRaw() throws {
        guard !rawTrace.isEmpty else { return }
        if let rawStepper {
            let r0 = Clock.wallNanoseconds()
            for _ in 0..<multiplier { try rawStepper.run(rawTrace) }
            rawMs.append(Double(Clock.wallNanoseconds() - r0) / 1e6 / Double(multiplier))
        } else if let makeFloorStore {
            let raw = try RawStepper(takingOver: try makeFloorStore().db)
            let r0 = Clock.wallNanoseconds()
            try raw.run(rawTrace)
            rawMs.append(Double(Clock.wallNanoseconds() - r0) / 1e6)
        }
    }

    /// The case's result: the samples' statistics, the plans of its statements, its
    /// signature; a write workload's floor runs here (after its memory was read).
    package func finish() throws -> CaseResult {
        guard let store else { preconditionFailure("finish() after begin()") }
        // A write workload's floor runs after the case's memory is read (its rows and its
        // connection are not the case's), as many times as the case ran, each on a fresh store.
        if let makeFloorStore, let writeFloor = workload.writeFloor {
            for _ in samples {
                let raw = try RawStepper(takingOver: try makeFloorStore().db)
                try raw.run(writeFloor.setup)
                let f0 = Clock.wallNanoseconds()
                try raw.run(writeFloor)
                floorMs.append(Double(Clock.wallNanoseconds() - f0) / 1e6)
            }
        }
        let digest = lastSignature
        var plans: [StatementPlan] = []
        for (i, sql) in statementLog.enumerated() {
            plans.append(StatementPlan(number: i + 1, sql: sql, plan: try store.db.queryPlan(sql)))
        }
        var result = CaseResult(
            scenario: scenario, variant: variant, workload: workload.spec.name, size: size,
            samples: samples, wall: Statistics(samples.map(\.wallMs)),
            cpuMedianMs: Statistics(samples.map(\.cpuMs)).median,
            peakRSSKB: peakRSS, rssGrowthKB: rssGrowth,
            sqliteHeapPeakBytes: heapPeak, counters: counters, rows: lastRows,
            statements: samples.last!.statements, signature: digest, plans: plans,
            floor: floorMs.isEmpty ? nil : Statistics(floorMs))
        result.raw = rawMs.isEmpty ? nil : Statistics(rawMs)
        result.reads = reads
        result.multiplier = multiplier
        self.store = nil
        stepper = nil
        rawStepper = nil
        rawTrace = RawTrace()
        return result
    }

    /// Counters of `k` runs as one run's (they are exact multiples: the same statements).
    static func divided(_ c: StatementCounters, by k: Int) -> StatementCounters {
        guard k > 1 else { return c }
        var r = c
        let n = Int64(k)
        r.vmSteps /= n
        r.fullscanSteps /= n
        r.sorts /= n
        r.autoindex /= n
        r.cacheHits /= n
        r.cacheMisses /= n
        r.pagesWritten /= n
        return r
    }
}
