import SchemaLabEngine

/// The statements of a log with one shape (``StatementShape``), and what the log says they cost.
package struct LoggedShape: Sendable {
    /// What the statement does.
    package enum Kind: String, Sendable {
        /// A SELECT.
        case select
        /// An INSERT, UPDATE or DELETE.
        case write
        /// BEGIN, COMMIT, ROLLBACK, PRAGMA, CREATE …: a connection's or a save's frame.
        case other
    }

    /// The shape.
    package var key: String
    package var kind: Kind
    /// The first statement of this shape, as logged, with its values.
    package var first: LoggedStatement
    /// How many times it ran.
    package var runs = 0
    /// Rows returned in all, over the runs whose rows the log gives.
    package var rows = 0
    /// Runs whose rows the log gives.
    package var runsWithRows = 0
    /// Seconds in all, over the runs whose time the log gives.
    package var seconds = 0.0
    /// Runs whose time the log gives.
    package var timedRuns = 0
    /// For a keys-only fetch: the batch windows that followed it (`Z_PK IN (…) LIMIT n`), in all.
    package var windows = 0
    /// The largest window's LIMIT: the fetch's batch size.
    package var windowSize = 0
    /// The windows bound their keys as `IN (?,…)` rather than through `_Z_intarray0`.
    package var windowsBindParameters = false
    /// For a keys-only fetch: the faults (`WHERE t0.Z_PK = ?`) that followed it, in all.
    package var faults = 0
    /// A fetched-results controller's section query that ran with this fetch (its first), if any.
    package var sectionQuery: String?
    /// A write: the saves (`BEGIN EXCLUSIVE … COMMIT`) it ran in.
    package var saves = 0
    /// To-many prefetches that ran right after this fetch (their SQL).
    package var prefetchQueries: Set<String> = []
    /// Statements counted here rather than as shapes of their own: windows, faults, section queries.
    package var followerRuns = 0
    /// The shapes of the windows, faults and section queries counted here.
    package var followers: Set<String> = []

    /// The values bound to each marker over the runs, with how often (level 2 and up): at most
    /// ``maxValues`` distinct values per marker are kept, so memory stays bounded.
    package var values: [[LoggedValue: Int]] = []
    /// The distinct values kept per marker.
    static let maxValues = 64

    /// What the log says the shape cost on the device, within what a scenario holds (runs up to
    /// 2^31-1, rows up to 10^15: a log's sums could pass them).
    package var device: DeviceUsage {
        DeviceUsage(
            runs: min(max(runs, 1), Int(Int32.max)), rows: runsWithRows > 0 ? min(rows, 1_000_000_000_000_000) : nil,
            seconds: timedRuns > 0 ? seconds : nil)
    }

    /// Adds one run of the shape.
    mutating func add(_ statement: LoggedStatement) {
        runs += 1
        if values.count < statement.binds.count { values += Array(repeating: [:], count: statement.binds.count - values.count) }
        for (index, value) in statement.binds.enumerated() where values[index][value] != nil || values[index].count < Self.maxValues {
            values[index][value, default: 0] += 1
        }
        if let r = statement.rows {
            // A log's numbers are not to be trusted: a sum past Int.max stays there, not a trap.
            let (sum, overflow) = rows.addingReportingOverflow(r)
            rows = overflow ? .max : sum
            runsWithRows += 1
        }
        if let s = statement.seconds {
            seconds += s
            timedRuns += 1
        }
        if first.binds.isEmpty && !statement.binds.isEmpty { first = statement }
    }
}
