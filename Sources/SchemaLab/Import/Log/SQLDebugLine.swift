/// One line of a Core Data SQLDebug console log, as the log reader understands it.
///
/// Core Data writes (with `-com.apple.CoreData.SQLDebug 1` to `3`) a line per statement
/// (`CoreData: sql: SELECT …`), at level 2 and up each bound value (`CoreData: details:
/// SQLite bind[0] = "a"`), and annotations with the time and rows
/// (`CoreData: annotation: total fetch execution time: 0.0021s for 12 rows.`). A console adds
/// prefixes (NSLog's `2014-07-31 15:29:04.797 App[73416:2971038] `, unified logging's
/// `… App: (CoreData) [com.apple.coredata:sql] `), colour codes and the app's own lines.
package enum SQLDebugLine: Equatable, Sendable {
    /// `CoreData: sql: TEXT`: a statement Core Data is about to run.
    case sql(String)
    /// `CoreData: details: SQLite bind[i] = VALUE`: a value bound to the current statement.
    case bind(index: Int, value: LoggedValue)
    /// `sql connection fetch time: 0.0013s`: the time SQLite took to step the rows.
    case connectionFetchTime(seconds: Double)
    /// `total fetch execution time: 0.0021s for 12 rows.`: the fetch as a whole.
    case fetchExecution(seconds: Double, rows: Int)
    /// `total count request execution time: 0.0007s for count of 3.`
    case countExecution(seconds: Double, count: Int)
    /// Level 2: `fetch using NSSQLiteStatement <0x…> on entity 'E' with sql text '…' returned N rows`
    /// (level 3 ends `… returned N rows with values: (` and a dump follows).
    case statementSummary(entity: String, sql: String, rows: Int, dumpFollows: Bool)
    /// Any other line Core Data wrote (connection, metadata, save annotations …): known, not used.
    case otherCoreData
    /// A line that is not Core Data's: the app's own output.
    case foreign

    /// Reads one line (without its line break).
    package static func parse(_ raw: Substring) -> SQLDebugLine {
        let line = LogLinePrefix.strip(raw)
        guard let message = LogLinePrefix.coreDataMessage(line) else {
            // A statement pasted without its category (a README's `SELECT 0, t0.Z_PK … FROM ZA t0`).
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("SELECT "), trimmed.contains(" FROM Z") || trimmed.contains(" FROM _Z") {
                return .sql(String(trimmed.trimmingTrailingSpaces))
            }
            return .foreign
        }
        if let text = message.after("sql: ") { return .sql(String(text.trimmingTrailingSpaces)) }
        if let text = message.after("details: ") { return parseDetails(text) }
        if let text = message.after("annotation: ") { return parseAnnotation(text) }
        return .otherCoreData
    }

    private static func parseDetails(_ text: Substring) -> SQLDebugLine {
        guard let rest = text.after("SQLite bind["), let close = rest.firstIndex(of: "]"), let index = Int(rest[..<close]),
            let value = rest[rest.index(after: close)...].after(" = ")
        else { return .otherCoreData }
        return .bind(index: index, value: LoggedValue.parse(value))
    }

    private static func parseAnnotation(_ text: Substring) -> SQLDebugLine {
        if let rest = text.after("sql connection fetch time: "), let seconds = time(rest) {
            return .connectionFetchTime(seconds: seconds)
        }
        if let rest = text.after("total fetch execution time: "), let seconds = time(rest),
            let rows = rest.after("s for ").flatMap({ Int($0.prefix { $0.isNumber }) })
        {
            return .fetchExecution(seconds: seconds, rows: rows)
        }
        if let rest = text.after("total count request execution time: "), let seconds = time(rest),
            let count = rest.after("for count of ").flatMap({ Int($0.prefix { $0.isNumber }) })
        {
            return .countExecution(seconds: seconds, count: count)
        }
        if let rest = text.after("fetch using NSSQLiteStatement "), let summary = parseSummary(rest) { return summary }
        return .otherCoreData
    }

    /// A time as Core Data prints it (`0.0021s`): seconds, at least 0 and below 10^9, so that a
    /// log's sums stay finite; `nans`, `infs`, `-1s` or `1e400s` are no time (a NaN or an
    /// infinity written into the scenario is not JSON, and a negative time does not validate).
    private static func time(_ text: Substring) -> Double? {
        guard let value = Double(text.prefix { $0 != "s" }), value >= 0, value < 1e9 else { return nil }
        return value
    }

    /// `<0x…> on entity 'E' with sql text 'TEXT' returned N rows[ with values: (]`; the SQL
    /// text may hold quotes, so it ends at the last `' returned `.
    private static func parseSummary(_ text: Substring) -> SQLDebugLine? {
        guard let entityStart = text.after("on entity '"), let entityEnd = entityStart.firstIndex(of: "'") else { return nil }
        let entity = String(entityStart[..<entityEnd])
        guard let sqlStart = entityStart[entityEnd...].after("' with sql text '"),
            let marker = sqlStart.range(of: "' returned ", options: .backwards)
        else { return nil }
        let tail = sqlStart[marker.upperBound...]
        guard let rows = Int(tail.prefix { $0.isNumber }) else { return nil }
        return .statementSummary(
            entity: entity, sql: String(sqlStart[..<marker.lowerBound]), rows: rows, dumpFollows: tail.contains("with values"))
    }
}

extension Substring {
    /// The text after the first occurrence of `marker`, or nil.
    func after(_ marker: String) -> Substring? {
        guard let range = range(of: marker) else { return nil }
        return self[range.upperBound...]
    }

    /// Without trailing spaces, tabs and carriage returns.
    var trimmingTrailingSpaces: Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" || last == "\r" {
            end = index(before: end)
        }
        return self[..<end]
    }
}
