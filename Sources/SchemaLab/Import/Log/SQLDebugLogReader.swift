import Foundation

/// Reads a Core Data SQLDebug console log as a stream of statements, in bounded memory: the
/// file is read in chunks and each statement is handed on as soon as the next one starts.
///
/// A statement starts at its `sql:` line and ends at the next one; the `bind[i]` lines after
/// it are its values; the time and row annotations after it are its cost; level 2's summary names its entity and
/// rows; level 3's row dump that follows a summary is skipped up to the next Core Data line.
/// A line the reader does not know is counted and skipped, never fatal.
package struct SQLDebugLogReader {
    /// A log that cannot be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// What was read so far.
    package private(set) var tally = LogTally()
    private var pending: LoggedStatement?
    /// The statement before `pending`, held back one statement: after a prefetch, the outer
    /// fetch's total comes after the prefetch's statement and its total.
    private var held: LoggedStatement?
    private var inDump = false
    /// The line before was the pending statement's SQL (or a continuation of it): an indented
    /// line of another kind continues it (a page that wrapped a long statement).
    private var inStatement = false
    private let emit: (LoggedStatement) -> Void

    /// A reader that hands each statement to `emit`.
    package init(emit: @escaping (LoggedStatement) -> Void) {
        self.emit = emit
    }

    /// The longest statement continued over wrapped lines (64 KiB): Core Data's statements are
    /// far shorter, and an app's indented output after a statement stops being taken for it
    /// here, so that memory stays bounded.
    static let maxWrappedStatement = 65_536

    /// Reads the file at `path` to its end.
    package static func read(path: String, emit: @escaping (LoggedStatement) -> Void) throws(Failure) -> LogTally {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: "\(path): cannot open the log") }
        defer { try? handle.close() }
        var reader = SQLDebugLogReader(emit: emit)
        var carry: [UInt8] = []
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw Failure(description: "\(path): \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            carry.append(contentsOf: chunk)
            var start = 0
            while let newline = carry[start...].firstIndex(of: 0x0A) {
                reader.consume(line: carry[start..<newline])
                start = newline + 1
            }
            carry.removeFirst(start)
        }
        if !carry.isEmpty { reader.consume(line: carry[...]) }
        reader.finish()
        return reader.tally
    }

    /// Reads `text` (a whole log in memory: tests and the fuzz target), line by line as a file
    /// is read: split at each line feed byte, so that `\r\n` ends a line (a `Character` split
    /// would not: `\r\n` is one Character) and an empty text has no line.
    package static func read(text: String, emit: @escaping (LoggedStatement) -> Void) -> LogTally {
        var reader = SQLDebugLogReader(emit: emit)
        let bytes = Array(text.utf8)
        var start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            reader.consume(line: bytes[start..<newline])
            start = newline + 1
        }
        if start < bytes.count { reader.consume(line: bytes[start...]) }
        reader.finish()
        return reader.tally
    }

    private mutating func consume(line bytes: ArraySlice<UInt8>) {
        consume(line: Substring(String(decoding: bytes, as: UTF8.self)))
    }

    /// Reads one line.
    package mutating func consume(line: Substring) {
        tally.lines += 1
        let parsed = SQLDebugLine.parse(line)
        if parsed == .foreign, inStatement, pending != nil, line.first == " " || line.first == "\t",
            pending!.sql.utf8.count + line.utf8.count <= Self.maxWrappedStatement
        {
            pending!.sql += " " + line.trimmingCharacters(in: .whitespaces)
            tally.recognized += 1
            return
        }
        inStatement = false
        if inDump {
            if parsed == .foreign {
                tally.known += 1
                return
            }
            inDump = false
        }
        switch parsed {
        case .sql(let text):
            flush()
            pending = LoggedStatement(sql: text, line: tally.lines)
            inStatement = true
            tally.recognized += 1
            tally.level = max(tally.level, 1)
        case .bind(let index, let value):
            guard pending != nil, index == pending!.binds.count else {
                tally.known += 1
                return
            }
            pending!.binds.append(value)
            tally.recognized += 1
            tally.level = max(tally.level, 2)
        case .connectionFetchTime:
            tally.recognized += 1
        case .fetchExecution(let seconds, let rows), .countExecution(let seconds, let rows):
            tally.recognized += 1
            guard pending != nil else { return }
            if pending!.seconds == nil {
                pending!.seconds = seconds
                pending!.rows = rows
            } else if held != nil, held!.seconds == nil {
                // A second total after a prefetch is the outer fetch's, whose statement came before.
                held!.seconds = seconds
                held!.rows = rows
            }
        case .statementSummary(let entity, let sql, let rows, let dumpFollows):
            tally.recognized += 1
            tally.level = max(tally.level, dumpFollows ? 3 : 2)
            inDump = dumpFollows
            if pending != nil, StatementShape.of(pending!.sql) == StatementShape.of(sql) {
                pending!.entity = entity
                if pending!.rows == nil { pending!.rows = rows }
            } else {
                flush()
                pending = LoggedStatement(sql: sql, line: tally.lines, rows: rows, entity: entity)
            }
        case .otherCoreData:
            tally.known += 1
        case .foreign:
            tally.skipped += 1
        }
    }

    /// Hands on the last statements.
    package mutating func finish() {
        flush()
        flush()
    }

    /// Moves the pending statement to the held one, handing on the one held before.
    private mutating func flush() {
        if let statement = held {
            tally.statements += 1
            emit(statement)
        }
        held = pending
        pending = nil
    }
}
