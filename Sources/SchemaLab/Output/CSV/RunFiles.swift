import SchemaLabEngine
import SchemaLabSQLite

/// The CSV files of a run directory, each defined once as its columns: the run directory
/// writes them, ``RunSnapshot`` reads them, and docs/results.md describes every column
/// (a test keeps the two in step).
package enum RunFiles {
    /// results.csv: one row per case.
    package static let results = CSVTable<CaseSummary>(
        [
            .text("scenario", \.scenario), .text("schema", \.variant), .text("workload", \.workload), .integer("size", \.size),
            .integer("reps", \.repetitions), .milliseconds("min_ms", \.minMs), .milliseconds("median_ms", \.medianMs),
            .milliseconds("max_ms", \.maxMs), .milliseconds("p90_ms", \.p90Ms), .milliseconds("cpu_ms", \.cpuMs),
            .integer("peak_rss_kb", \.peakRSSKB, unit: .kibibytes), .integer("rss_growth_kb", \.rssGrowthKB, unit: .kibibytes),
            .integer("sqlite_heap_peak_bytes", \.sqliteHeapPeakBytes, unit: .bytes), .integer("vm_steps", \.counters.vmSteps),
            .integer("fullscan_steps", \.counters.fullscanSteps), .integer("sorts", \.counters.sorts),
            .integer("autoindex", \.counters.autoindex), .integer("cache_hits", \.counters.cacheHits),
            .integer("cache_misses", \.counters.cacheMisses), .integer("rows", \.rows), .integer("statements", \.statements),
            .text("result_digest", \.resultDigest), .integer("schema_index", \.variantIndex, unit: .none),
            .integer("workload_index", \.workloadIndex, unit: .none), .word("reference_check", \.referenceCheck),
            .word("agreement_check", \.agreementCheck), .optionalMilliseconds("floor_ms", \.floorMs),
            .derived("floor_ratio", unit: .ratio) { $0.floorRatio.map(Format.ratio) ?? "" },
            .integer("heap_retained_kb", \.heapRetainedKB, unit: .kibibytes), .milliseconds("longest_write_ms", \.longestWriteMs),
            .optionalInteger("reads", \.reads), .optionalMilliseconds("read_p50_ms", \.readP50Ms),
            .optionalMilliseconds("read_p90_ms", \.readP90Ms), .optionalMilliseconds("read_p99_ms", \.readP99Ms),
            .optionalMilliseconds("read_max_ms", \.readMaxMs), .milliseconds("mad_ms", \.madMs),
            .milliseconds("ci_low_ms", \.ciLowMs), .milliseconds("ci_high_ms", \.ciHighMs), .integer("outliers", \.outliers),
            .integer("multiplier", \.multiplier), .optionalInteger("instructions", \.instructions, unit: .instructions),
            .optionalInteger("sqlite_instructions", \.sqliteInstructions, unit: .instructions),
            .optionalMilliseconds("raw_ms", \.rawMs), .derived("raw_ratio", unit: .ratio) { $0.rawRatio.map(Format.ratio) ?? "" },
            .integer("pages_written", \.counters.pagesWritten),
        ],
        required: ["schema", "workload", "size"])

    /// samples.csv: one row per measured repetition.
    package static let samples = CaseRow<Sample>.table([
        .integer("repetition", \.repetition, unit: .none), .milliseconds("wall_ms", \.wallMs), .milliseconds("cpu_ms", \.cpuMs),
        .integer("rows", \.rows), .integer("statements", \.statements), .integer("heap_retained_kb", \.heapRetainedKB, unit: .kibibytes),
        .milliseconds("longest_write_ms", \.longestWriteMs),
    ])

    /// plans.csv: every statement a case ran, a row per node of its query plan.
    package static let plans = CaseRow<PlanRow>.table([
        .integer("statement", \.statement, unit: .none), .text("sql", \.sql), .optionalInteger("node_id", \.nodeID, unit: .none),
        .optionalInteger("parent_id", \.parentID, unit: .none), .text("detail", \.detail),
    ])

    /// `latencies/<schema>-<workload>-<size>.csv`: every read of a reader under a writer, or
    /// query of a box set.
    package static let latencies = CaseRow<ReadLatency>.table([
        .integer("repetition", \.repetition, unit: .none), .integer("read", \.read, unit: .none), .milliseconds("latency_ms", \.ms),
        .flag("writer_active", \.writerActive, yes: "1", no: "0"), .integer("rows", \.rows),
    ])

    /// failures.csv: the cases that failed, with the error and the SQL that failed.
    package static let failures = CaseRow<CaseFailure>.table([.text("error", \.message), .optionalText("sql", \.sql)])

    /// fills.csv: what filling each variant's store cost, per size.
    package static let fills = CSVTable<ScenarioRow<FillMeasurement>>(
        [
            .text("scenario", \.scenario), .text("schema", \.value.variant), .integer("size", \.value.size),
            .integer("chunk_rows", \.value.chunkRows), .flag("streamed", \.value.streamed, yes: "1", no: "0"),
            .milliseconds("fill_ms", \.value.milliseconds), .integer("peak_rss_kb", \.value.peakRSSKB, unit: .kibibytes),
            .integer("rss_growth_kb", \.value.rssGrowthKB, unit: .kibibytes), .integer("store_bytes", \.value.storeBytes, unit: .bytes),
        ],
        required: ["schema", "size"])

    /// An empty samples row, the start of a row read back.
    static let blankSample = CaseRow(
        scenario: "", key: CaseKey(variant: "", workload: "", size: 0),
        value: Sample(repetition: 0, wallMs: 0, cpuMs: 0, rows: 0, statements: 0, heapRetainedKB: 0))
    static let blankPlan = CaseRow(scenario: "", key: CaseKey(variant: "", workload: "", size: 0), value: PlanRow())
    static let blankLatency = CaseRow(
        scenario: "", key: CaseKey(variant: "", workload: "", size: 0),
        value: ReadLatency(repetition: 0, read: 0, ms: 0, writerActive: false, rows: 0))
    static let blankFailure = CaseRow(
        scenario: "", key: CaseKey(variant: "", workload: "", size: 0), value: CaseFailure(message: "", sql: nil))
    static let blankFill = ScenarioRow(
        scenario: "",
        value: FillMeasurement(
            variant: "", size: 0, chunkRows: 0, streamed: false, milliseconds: 0, peakRSSKB: -1, rssGrowthKB: -1, storeBytes: -1))
}

/// A row of a per-scenario file (fills.csv): the scenario and one value.
package struct ScenarioRow<Value: Sendable>: Sendable {
    package var scenario: String
    package var value: Value

    package init(scenario: String, value: Value) {
        self.scenario = scenario
        self.value = value
    }
}
