import Foundation
import SchemaLabCoreData
import SchemaLabEngine

/// `schemalab import MODEL --log LOG`: the fetches an app's SQLDebug log shows, made into the
/// workloads of the scenario imported from its model. The log is read as a stream
/// (``SQLDebugLogReader``) into shapes (``LogDigest``); each SELECT shape is rebuilt as a
/// request (``RequestRebuilder``) and checked by issuing it again (``LogRoundTrip``), or kept
/// as its logged SQL with the reason; saves are counted per table.
package struct LogImport {
    /// What the import did with a log.
    package struct Summary: Sendable {
        package var tally: LogTally
        package var entries: [LogWorkloads.Entry]
        package var outcomes: [String: LogRoundTrip.Outcome]
        /// Statements per table and verb inside saves, and the saves.
        package var writes: [String: [String: Int]]
        package var saves: Int
        /// Statements listed, not run: writes no write workload can make, and statements kept
        /// with --keep-unknown that name what the model lacks.
        package var leftOut: [LogWorkloads.Entry] = []
        /// The attributes whose generators became the log's values (``LoggedValuePools``).
        package var poolNotes: [String] = []

        /// Fetch workloads rebuilt whose statement came back identical.
        package var identical: Int {
            entries.filter { $0.shape.kind == .select }.filter {
                switch outcomes[$0.workload.name] {
                case .identical?, .identicalButFollowers?: return true
                default: return false
                }
            }.count
        }
    }

    /// The log's path.
    let path: String
    /// Keep statements that name tables or columns the model lacks, as raw SQL.
    let keepsUnknown: Bool

    package init(path: String, keepsUnknown: Bool) {
        self.path = path
        self.keepsUnknown = keepsUnknown
    }

    /// Reads the log and replaces `scenario`'s workloads with the log's.
    package func apply(to scenario: inout Scenario, today: String) throws(OperationError) -> Summary {
        var digest = LogDigest()
        let tally: LogTally
        do { tally = try SQLDebugLogReader.read(path: path) { digest.add($0) } } catch {
            throw OperationError(.badInput, error.description)
        }
        digest.finish()
        if tally.lines == 0 || (tally.lines == 1 && tally.skipped == 1 && tally.statements == 0) {
            throw OperationError(.badInput, "\(path) is empty")
        }
        guard tally.statements > 0 else {
            throw OperationError(
                .badInput,
                "\(path) has no Core Data statements (\(tally.lines) lines, none a 'CoreData: sql:' line): run the app with -com.apple.CoreData.SQLDebug 1 and copy its console"
            )
        }
        let plan: ScenarioPlan
        do { plan = try ScenarioPlan(ScenarioDecoder.check(scenario)) } catch { throw OperationError.from(error) }
        // The model as the app has it: an import's `as-is`, else the scenario's first variant.
        guard let model = plan.models.first(where: { $0.variant == "as-is" }) ?? plan.models.first else {
            throw OperationError(.badInput, "the model has no variant to read the log against")
        }
        let tables = Set(model.entities.map(\.table))
        let known = LoggedNames(model: model).known
        let selects = digest.shapes.filter { $0.kind == .select }
        let logTables = Set(selects.compactMap { try? LoggedSQLParser.select($0.first.sql).table })
        if !logTables.isEmpty, logTables.isDisjoint(with: known.union(["SQLITE_MASTER"])) {
            throw OperationError(
                .badInput,
                "\(path) reads tables \(logTables.sorted().prefix(5).joined(separator: ", ")) and the model has \(tables.sorted().prefix(5).joined(separator: ", ")): is the log from another app's model?"
            )
        }
        let builder = LogWorkloads(model: model, dateStandIn: Self.dateStandIn(today: today), keepsUnknown: keepsUnknown)
        let saves = SaveRebuilder(
            model: model, root: scenario.dataset.entity, rows: scenario.dataset.counts.min() ?? 1,
            dateStandIn: Self.dateStandIn(today: today))
        var entries: [LogWorkloads.Entry]
        var unrebuiltWrites: [LogWorkloads.Entry] = []
        do { entries = try builder.entries(digest, saves: saves, unrebuilt: &unrebuiltWrites) } catch {
            throw OperationError(.badInput, "\(path): \(error.description)")
        }
        let outcomes = LogRoundTrip(variant: model.variant).check(entries, in: scenario)
        for index in entries.indices where entries[index].rawReason == nil && entries[index].shape.kind == .select {
            let name = entries[index].workload.name
            let reason: String?
            switch outcomes[name] {
            case .differs(let lab)?: reason = "rebuilt, the lab issues other SQL: \(lab)"
            case .failed(let why)?: reason = "rebuilt, but the request does not run here: \(why)"
            default: reason = nil
            }
            if let reason {
                var raw = builder.raw(entries[index].shape, reason: reason, device: entries[index].workload.device ?? DeviceUsage(runs: 1))
                raw.workload.name = name.replacingOccurrences(of: #"-[a-z]+$"#, with: "-sql", options: .regularExpression)
                entries[index] = raw
            }
        }
        // Logged SQL runs in the variants whose tables and columns it names (an import's `as-is`
        // and `no-indexes`; not a variant that moves a column elsewhere).
        // A statement that fits no variant (kept with --keep-unknown) cannot run: it is listed, not a workload.
        var leftOut: [LogWorkloads.Entry] = unrebuiltWrites
        for index in entries.indices.reversed() where entries[index].rawReason != nil && entries[index].workload.kind == .sql {
            let fits = plan.models.filter { LoggedNames(model: $0).unknown(in: entries[index].workload.sql ?? "").isEmpty }.map(\.variant)
            if fits.isEmpty {
                leftOut.insert(entries.remove(at: index), at: 0)
                continue
            }
            if fits.count < plan.models.count { entries[index].workload.variants = fits }
            // Logged SQL that does not prepare (a truncated last line, SQL past SQLite's limits)
            // is listed, not written into a scenario that would not check.
            var single = scenario
            single.workloads = [entries[index].workload]
            single.claims = []
            single.assertions = []
            do { _ = try ScenarioPlan(ScenarioDecoder.check(single)) } catch {
                var entry = entries.remove(at: index)
                entry.rawReason = "it does not run here: \(error)"
                leftOut.insert(entry, at: 0)
            }
        }
        guard !entries.isEmpty else {
            if leftOut.isEmpty {
                throw OperationError(
                    .badInput,
                    "\(path): its \(tally.statements) statements are all Core Data's own (opening the store, the key counter, pragmas): no fetch or save to run"
                )
            }
            throw OperationError(
                .badInput, "\(path): no statement of the log runs on the model (\(leftOut.count) statement shapes it cannot run)")
        }
        scenario.workloads = entries.map(\.workload)
        var pools = LoggedValuePools()
        for entry in entries where entry.rawReason == nil { pools.add(entry) }
        let poolNotes = pools.apply(to: &scenario.dataset, model: model)
        scenario.claims = []
        scenario.assertions = []
        let summary = Summary(
            tally: tally, entries: entries, outcomes: outcomes, writes: digest.writes, saves: digest.saves, leftOut: leftOut,
            poolNotes: poolNotes)
        scenario.description += " " + Self.describe(summary, log: URL(fileURLWithPath: path).lastPathComponent)
        return summary
    }

    /// What the scenario's description says about the log.
    static func describe(_ summary: Summary, log: String) -> String {
        let t = summary.tally
        let fetches = summary.entries.filter { $0.shape.kind == .select }
        let raw = fetches.filter { $0.rawReason != nil }.count
        var text =
            "Its workloads are the fetches of the SQLDebug log \(log) (level \(t.level)): \(t.lines) lines read, \(t.recognized + t.known) Core Data's (\(t.recognized) used), \(t.skipped) skipped; \(t.statements) statements in \(fetches.count) fetch shapes, \(fetches.count - raw) rebuilt as requests, \(raw) kept as logged SQL; weights are each shape's runs, in order of device time."
        if summary.saves > 0 || !summary.writes.isEmpty {
            let mix = summary.writes.sorted { $0.key < $1.key }.map { table, verbs in
                table + " " + verbs.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            }
            let writes = summary.entries.filter { $0.shape.kind == .write }.map(\.workload.name)
            text +=
                " Saves: \(summary.saves) (\(mix.joined(separator: "; "))), as \(writes.isEmpty ? "no workload" : writes.joined(separator: ", ")), each weighted by the saves it ran in."
        }
        if !summary.leftOut.isEmpty {
            text +=
                " Not run: "
                + summary.leftOut.map { "line \($0.shape.first.line) (\($0.rawReason ?? ""))" }.joined(separator: "; ") + "."
        }
        if t.level < 2 {
            text +=
                " The log has no bound values (level 1): the predicates' values are stand-ins of each attribute's type, and the data set keeps its guesses."
        } else if !summary.poolNotes.isEmpty {
            text +=
                " The data set's values of \(summary.poolNotes.count) attribute(s) compared for equality are the ones the log bound, weighted by how often."
        }
        return text
    }

    /// A month before `today` (yyyy-MM-dd), in seconds since 2001: the stand-in for a date the log does not give.
    static func dateStandIn(today: String) -> Double {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.date(from: today) ?? Date()
        return date.timeIntervalSinceReferenceDate - 30 * 86_400
    }
}
