/// The measurement loop of one case, after package-benchmark: warm-up outside the
/// samples; stop at the repetition count or the time limit, whichever comes first;
/// set-up outside the timed region; every raw sample kept.
public struct CaseRunner {
    public let measurement: MeasurementSpec

    public init(measurement: MeasurementSpec) { self.measurement = measurement }

    /// Runs `workload`. `makeStore` gives the store for one repetition (untimed): a
    /// fresh empty one for inserts, the filled one otherwise. `makeFloorStore` gives the
    /// path of another fresh store of the same kind, for a write workload's floor.
    public func run(scenario: String, variant: String, size: Int, workload: any Workload,
                    makeStore: () throws -> Store, makeFloorStore: (() throws -> String)? = nil) throws -> CaseResult {
        var store = try makeStore()
        for _ in 0..<measurement.warmup {
            try workload.prepare(store: store)
            _ = try workload.run(store: store)
            if workload.storeKind.isFreshPerRepetition { store = try makeStore() }
        }
        // Memory baseline: give earlier cases' free pages back first, so that this case's
        // resident-set growth counts the pages it touches (not 0 because it reused them).
        HeapProbe.trim()
        let startRSS = MemoryProbe.residentKB()
        MemoryProbe.resetPeak()
        SQLiteLibrary.resetHeapHighwater()
        var samples: [Sample] = []
        var counters = StatementCounters()
        var lastDigest: () throws -> ResultSignature = { ResultSignature(digest: "") }
        let floorStatements = workload.floorStatements
        var floorMs: [Double] = []
        let stepper = floorStatements.isEmpty ? nil : try RawStepper(path: store.path)
        if let stepper { try stepper.run(floorStatements) }
        var lastRows = 0
        var statementLog: [String] = []
        var reads: [ReadLatency] = []
        let deadline = Clock.wallNanoseconds() + UInt64(measurement.maxSeconds * 1e9)
        for rep in 1...measurement.repetitions {
            if rep > 1 && workload.storeKind.isFreshPerRepetition { store = try makeStore() }
            try workload.prepare(store: store)
            store.db.beginStatementLog()
            let h0 = HeapProbe.inUseBytes()
            let c0 = Clock.cpuNanoseconds()
            let t0 = Clock.wallNanoseconds()
            let outcome = try workload.run(store: store)
            let t1 = Clock.wallNanoseconds()
            let c1 = Clock.cpuNanoseconds()
            let h1 = HeapProbe.inUseBytes()
            withExtendedLifetime(outcome.keepAlive) {}
            counters = store.db.counters()
            statementLog = store.db.statementLog
            var sample = Sample(repetition: rep, wallMs: Double(t1 - t0) / 1e6, cpuMs: Double(c1 - c0) / 1e6,
                                rows: outcome.rows, statements: store.db.executions, heapRetainedKB: (h1 - h0) / 1024)
            sample.longestWriteMs = outcome.longestWriteMs ?? Double(store.db.longestWriteNanoseconds) / 1e6
            samples.append(sample)
            for (i, r) in outcome.reads.enumerated() {
                reads.append(ReadLatency(repetition: rep, read: i + 1, ms: r.ms, writerActive: r.writerActive, rows: r.rows))
            }
            lastDigest = outcome.digest
            lastRows = outcome.rows
            if let stepper {
                // Interleaved with the lab's repetitions, so both see the same machine.
                let f0 = Clock.wallNanoseconds()
                try stepper.run(floorStatements)
                floorMs.append(Double(Clock.wallNanoseconds() - f0) / 1e6)
            }
            if Clock.wallNanoseconds() > deadline { break }
        }
        let peak = MemoryProbe.peakResidentKB()
        let heapPeak = SQLiteLibrary.heapHighwater(reset: false)
        // A write workload's floor runs after the case's memory is read (its rows and its
        // connection are not the case's), as many times as the case ran, each on a fresh store.
        if let makeFloorStore, let writeFloor = workload.writeFloor {
            for _ in samples {
                let raw = try RawStepper(path: try makeFloorStore())
                try raw.run(writeFloor.setup)
                let f0 = Clock.wallNanoseconds()
                try raw.run(writeFloor)
                floorMs.append(Double(Clock.wallNanoseconds() - f0) / 1e6)
            }
        }
        let digest = try lastDigest()
        var plans: [StatementPlan] = []
        for (i, sql) in statementLog.enumerated() {
            plans.append(StatementPlan(number: i + 1, sql: sql, plan: try store.db.queryPlan(sql)))
        }
        var result = CaseResult(
            scenario: scenario, variant: variant, workload: workload.spec.name, size: size,
            samples: samples, wall: Statistics(samples.map(\.wallMs)),
            cpuMedianMs: Statistics(samples.map(\.cpuMs)).median,
            peakRSSKB: peak, rssGrowthKB: peak >= 0 && startRSS >= 0 ? peak - startRSS : -1,
            sqliteHeapPeakBytes: heapPeak, counters: counters, rows: lastRows,
            statements: samples.last!.statements, signature: digest, plans: plans,
            floor: floorMs.isEmpty ? nil : Statistics(floorMs))
        result.reads = reads
        return result
    }
}
