import SchemaLabEngine

/// One finished case as its run directory keeps it: its row of results.csv, its rows
/// of samples.csv and plans.csv, and its result signature. The run directory fills in
/// the row's reference_check and agreement_check each time it writes results.csv, from
/// every case finished so far.
public struct CaseRecord: Sendable {
    public let key: CaseKey
    /// The results.csv row (``ResultsFiles/resultsHeader`` columns).
    public internal(set) var results: [String]
    public let samples: [[String]]
    public let plans: [[String]]
    public let signature: ResultSignature
    /// A reader-under-writer case's reads (``ResultsFiles/latenciesHeader`` columns), kept in
    /// their own file; empty for other cases and for cases read back on resume.
    public var latencies: [[String]] = []

    public init(key: CaseKey, results: [String], samples: [[String]], plans: [[String]], signature: ResultSignature) {
        self.key = key
        self.results = results
        self.samples = samples
        self.plans = plans
        self.signature = signature
    }

    /// The rows of a measured case; `variants` and `workloads` give the scenario's order
    /// (schema_index and workload_index, for the plots).
    public init(_ c: CaseResult, variants: [String], workloads: [String]) {
        let key = [c.scenario, c.variant, c.workload, String(c.size)]
        let results = key + [
            String(c.samples.count), Format.ms(c.wall.min), Format.ms(c.wall.median), Format.ms(c.wall.max),
            Format.ms(c.wall.p90), Format.ms(c.cpuMedianMs), String(c.peakRSSKB), String(c.rssGrowthKB),
            String(c.sqliteHeapPeakBytes), String(c.counters.vmSteps), String(c.counters.fullscanSteps),
            String(c.counters.sorts), String(c.counters.autoindex), String(c.counters.cacheHits),
            String(c.counters.cacheMisses), String(c.rows), String(c.statements), c.resultDigest,
            String(variants.firstIndex(of: c.variant) ?? -1), String(workloads.firstIndex(of: c.workload) ?? -1),
            c.referenceCheck.rawValue, c.agreementCheck.rawValue,
            c.floor.map { Format.ms($0.median) } ?? "", c.floor.map { Format.ratio(c.wall.median / $0.median) } ?? "",
            String(Int64(Statistics(c.samples.map { Double($0.heapRetainedKB) }).median)),
            Format.ms(c.longestWriteMs),
        ] + (c.readSummary.map { r in [String(r.count), Format.ms(r.p50), Format.ms(r.p90), Format.ms(r.p99), Format.ms(r.max)] }
             ?? ["", "", "", "", ""])
            + [Format.ms(c.wall.mad), Format.ms(c.wall.ciLow), Format.ms(c.wall.ciHigh), String(c.wall.outliers), String(c.multiplier),
               c.instructions.map { String($0.total) } ?? "", c.instructions.map { String($0.sqlite) } ?? "",
               c.raw.map { Format.ms($0.median) } ?? "", c.raw.map { Format.ratio(c.wall.median / $0.median) } ?? ""]
        var plans: [[String]] = []
        for st in c.plans {
            if st.plan.isEmpty { plans.append(key + [String(st.number), st.sql, "", "", ""]) }
            for n in st.plan { plans.append(key + [String(st.number), st.sql, String(n.id), String(n.parent), n.detail]) }
        }
        self.init(key: CaseKey(variant: c.variant, workload: c.workload, size: c.size), results: results,
                  samples: c.samples.map { x in
                      key + [String(x.repetition), Format.ms(x.wallMs), Format.ms(x.cpuMs), String(x.rows), String(x.statements),
                             String(x.heapRetainedKB), Format.ms(x.longestWriteMs)]
                  },
                  plans: plans, signature: c.signature)
        latencies = c.reads.map { r in key + [String(r.repetition), String(r.read), Format.ms(r.ms), r.writerActive ? "1" : "0", String(r.rows)] }
    }

    /// A column of the results row, by header name.
    public func field(_ name: String) -> String {
        results[ResultsFiles.resultsHeader.firstIndex(of: name)!]
    }

    mutating func setChecks(reference: ResultCheck, agreement: ResultCheck) {
        results[ResultsFiles.resultsHeader.firstIndex(of: "reference_check")!] = reference.rawValue
        results[ResultsFiles.resultsHeader.firstIndex(of: "agreement_check")!] = agreement.rawValue
    }

    public var referenceCheck: ResultCheck { ResultCheck(rawValue: field("reference_check")) ?? .notChecked }
    public var agreementCheck: ResultCheck { ResultCheck(rawValue: field("agreement_check")) ?? .notChecked }
}
