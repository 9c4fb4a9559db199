import Foundation

/// The columns of the CSV files a run writes (``RunDirectory``).
public enum ResultsFiles {
    public static let resultsHeader = [
        "scenario", "schema", "workload", "size", "reps", "min_ms", "median_ms", "max_ms", "p90_ms", "cpu_ms",
        "peak_rss_kb", "rss_growth_kb", "sqlite_heap_peak_bytes", "vm_steps", "fullscan_steps", "sorts", "autoindex",
        "cache_hits", "cache_misses", "rows", "statements", "result_digest", "schema_index", "workload_index",
        "reference_check", "agreement_check", "floor_ms", "floor_ratio", "heap_retained_kb",
        "longest_write_ms", "reads", "read_p50_ms", "read_p90_ms", "read_p99_ms", "read_max_ms",
        "mad_ms", "ci_low_ms", "ci_high_ms", "outliers", "multiplier", "instructions", "sqlite_instructions",
        "raw_ms", "raw_ratio",
    ]
    public static let samplesHeader = [
        "scenario", "schema", "workload", "size", "repetition", "wall_ms", "cpu_ms", "rows", "statements",
        "heap_retained_kb", "longest_write_ms",
    ]
    /// `latencies/<schema>-<workload>-<size>.csv`: every read of a reader under a writer.
    public static let latenciesHeader = [
        "scenario", "schema", "workload", "size", "repetition", "read", "latency_ms", "writer_active", "rows",
    ]
    public static let plansHeader = ["scenario", "schema", "workload", "size", "statement", "sql", "node_id", "parent_id", "detail"]
    public static let failuresHeader = ["scenario", "schema", "workload", "size", "error", "sql"]
}
