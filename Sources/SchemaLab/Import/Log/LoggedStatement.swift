/// A statement read from a log, with what the log says about it.
package struct LoggedStatement: Equatable, Sendable {
    /// The SQL text, as logged.
    package var sql: String
    /// The 1-based line it starts on.
    package var line: Int
    /// The values bound to it (level 2 and up), in marker order; empty at level 1.
    package var binds: [LoggedValue] = []
    /// Rows returned (a fetch) or the count (a count request), when the log says.
    package var rows: Int?
    /// The whole fetch's time in seconds, when the log says (`total … execution time`).
    package var seconds: Double?
    /// The entity, when level 2's summary names it.
    package var entity: String?
}

/// How many lines a log had, and what became of them.
package struct LogTally: Equatable, Sendable {
    /// Lines read.
    package var lines = 0
    /// Core Data's lines the reader used (statements, binds, times, summaries).
    package var recognized = 0
    /// Core Data's lines it knows and has no use for (connections, metadata, level 3's row dumps).
    package var known = 0
    /// Lines that are not Core Data's (the app's own output), skipped.
    package var skipped = 0
    /// Statements read.
    package var statements = 0
    /// The highest SQLDebug level the lines show: 1 (statements and times), 2 (binds), 3 (row dumps).
    package var level = 0
}
