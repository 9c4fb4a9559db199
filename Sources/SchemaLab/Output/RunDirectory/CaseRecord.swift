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
    public init(_ result: CaseResult, variants: [String], workloads: [String]) {
        let key = [result.scenario, result.variant, result.workload, String(result.size)]
        let results =
            key + [
                String(result.samples.count), Format.ms(result.wall.min), Format.ms(result.wall.median), Format.ms(result.wall.max),
                Format.ms(result.wall.p90), Format.ms(result.cpuMedianMs), String(result.peakRSSKB), String(result.rssGrowthKB),
                String(result.sqliteHeapPeakBytes), String(result.counters.vmSteps), String(result.counters.fullscanSteps),
                String(result.counters.sorts), String(result.counters.autoindex), String(result.counters.cacheHits),
                String(result.counters.cacheMisses), String(result.rows), String(result.statements), result.resultDigest,
                String(variants.firstIndex(of: result.variant) ?? -1), String(workloads.firstIndex(of: result.workload) ?? -1),
                result.referenceCheck.rawValue, result.agreementCheck.rawValue,
                result.floor.map { Format.ms($0.median) } ?? "", result.floor.map { Format.ratio(result.wall.median / $0.median) } ?? "",
                String(Int64(Statistics(result.samples.map { Double($0.heapRetainedKB) }).median)),
                Format.ms(result.longestWriteMs),
            ]
            + (result.readSummary.map { r in [String(r.count), Format.ms(r.p50), Format.ms(r.p90), Format.ms(r.p99), Format.ms(r.max)] }
                ?? ["", "", "", "", ""])
            + [
                Format.ms(result.wall.mad), Format.ms(result.wall.ciLow), Format.ms(result.wall.ciHigh), String(result.wall.outliers),
                String(result.multiplier),
                result.instructions.map { String($0.total) } ?? "", result.instructions.map { String($0.sqlite) } ?? "",
                result.raw.map { Format.ms($0.median) } ?? "", result.raw.map { Format.ratio(result.wall.median / $0.median) } ?? "",
            ]
        var plans: [[String]] = []
        for st in result.plans {
            if st.plan.isEmpty { plans.append(key + [String(st.number), st.sql, "", "", ""]) }
            for n in st.plan { plans.append(key + [String(st.number), st.sql, String(n.id), String(n.parent), n.detail]) }
        }
        self.init(
            key: CaseKey(variant: result.variant, workload: result.workload, size: result.size), results: results,
            samples: result.samples.map { x in
                key + [
                    String(x.repetition), Format.ms(x.wallMs), Format.ms(x.cpuMs), String(x.rows), String(x.statements),
                    String(x.heapRetainedKB), Format.ms(x.longestWriteMs),
                ]
            },
            plans: plans, signature: result.signature)
        latencies = result.reads.map { r in
            key + [String(r.repetition), String(r.read), Format.ms(r.ms), r.writerActive ? "1" : "0", String(r.rows)]
        }
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
