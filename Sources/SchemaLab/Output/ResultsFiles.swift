import Foundation

/// The files a run writes, as text: results.csv, samples.csv, plans.csv, env.json.
/// Built in memory and written by ``OutputDirectory`` in one step.
public struct ResultsFiles {
    public static let resultsHeader = [
        "scenario", "schema", "workload", "size", "reps", "min_ms", "median_ms", "max_ms", "p90_ms", "cpu_ms",
        "peak_rss_kb", "rss_growth_kb", "sqlite_heap_peak_bytes", "vm_steps", "fullscan_steps", "sorts", "autoindex",
        "cache_hits", "cache_misses", "rows", "statements", "result_digest", "schema_index", "workload_index",
        "reference_check", "agreement_check", "floor_ms", "floor_ratio", "heap_retained_kb",
    ]
    public static let samplesHeader = ["scenario", "schema", "workload", "size", "repetition", "wall_ms", "cpu_ms", "rows", "statements", "heap_retained_kb"]
    public static let plansHeader = ["scenario", "schema", "workload", "size", "statement", "sql", "node_id", "parent_id", "detail"]

    /// File name -> contents.
    public let files: [String: String]

    public init(results: [CaseResult], manifest: RunManifest) throws {
        let schemaOrder = manifest.variants, workloadOrder = manifest.workloads
        var r = CSVWriter(header: Self.resultsHeader)
        var s = CSVWriter(header: Self.samplesHeader)
        var p = CSVWriter(header: Self.plansHeader)
        for c in results {
            let key = [c.scenario, c.variant, c.workload, String(c.size)]
            r.append(key + [
                String(c.samples.count), Format.ms(c.wall.min), Format.ms(c.wall.median), Format.ms(c.wall.max),
                Format.ms(c.wall.p90), Format.ms(c.cpuMedianMs), String(c.peakRSSKB), String(c.rssGrowthKB),
                String(c.sqliteHeapPeakBytes), String(c.counters.vmSteps), String(c.counters.fullscanSteps),
                String(c.counters.sorts), String(c.counters.autoindex), String(c.counters.cacheHits),
                String(c.counters.cacheMisses), String(c.rows), String(c.statements), c.resultDigest,
                String(schemaOrder.firstIndex(of: c.variant) ?? -1), String(workloadOrder.firstIndex(of: c.workload) ?? -1),
                c.referenceCheck.rawValue, c.agreementCheck.rawValue,
                c.floor.map { Format.ms($0.median) } ?? "", c.floor.map { Format.ratio(c.wall.median / $0.median) } ?? "",
                String(Int64(Statistics(c.samples.map { Double($0.heapRetainedKB) }).median)),
            ])
            for x in c.samples {
                s.append(key + [String(x.repetition), Format.ms(x.wallMs), Format.ms(x.cpuMs), String(x.rows), String(x.statements), String(x.heapRetainedKB)])
            }
            for st in c.plans {
                if st.plan.isEmpty { p.append(key + [String(st.number), st.sql, "", "", ""]) }
                for n in st.plan { p.append(key + [String(st.number), st.sql, String(n.id), String(n.parent), n.detail]) }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let env = String(decoding: try encoder.encode(manifest), as: UTF8.self) + "\n"
        files = ["results.csv": r.text, "samples.csv": s.text, "plans.csv": p.text, "env.json": env]
    }
}

/// env.json: the environment, the scenario's identity and the run's settings.
public struct RunManifest: Codable, Sendable {
    public var scenarioName: String
    public var scenarioFile: String
    public var scenarioSHA256: String
    public var seed: UInt64
    public var sizes: [Int]
    public var variants: [String]
    public var workloads: [String]
    public var warmup: Int
    public var repetitions: Int
    public var maxSecondsPerCase: Double
    public var pragmas: [String: String]
    public var environment: EnvironmentFingerprint
    /// How batched fetches bind a window's keys (Core Data uses a `_Z_intarray0` virtual table).
    public var batchKeyBinding = "IN (?,...)"

    public init(plan: ScenarioPlan, options: RunOptions) {
        let sc = plan.scenario
        scenarioName = sc.name
        scenarioFile = sc.file
        scenarioSHA256 = sc.sha256
        seed = sc.dataset.seed
        sizes = options.sizes ?? sc.dataset.counts
        variants = sc.variants.map(\.name).filter { options.variants?.contains($0) ?? true }
        workloads = sc.workloads.map(\.name).filter { options.workloads?.contains($0) ?? true }
        warmup = options.warmup ?? sc.measurement.warmup
        repetitions = options.repetitions ?? sc.measurement.repetitions
        maxSecondsPerCase = sc.measurement.maxSeconds
        pragmas = Dictionary(uniqueKeysWithValues: sc.pragmas.map { ($0.name, $0.value) })
        environment = EnvironmentFingerprint()
    }
}
