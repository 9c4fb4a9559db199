import Foundation
import SchemaLabEngine

/// `schemalab import MODEL`: an Xcode Core Data model or a Core Data store made into a
/// scenario file, checked to validate before it is written.
package struct ModelImport {
    /// The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder, its
    /// contents file, or a Core Data SQLite store.
    package var model: String
    /// The scenario file to write (nil: scenarios/NAME.json when ./scenarios exists, else NAME.json).
    package var out: String?
    /// The scenario's name (nil: the model's file name).
    package var name: String?
    /// Overwrite the output file if it exists.
    package var replace = false
    /// The date written into the scenario's description (yyyy-MM-dd, UTC); nil: today.
    package var today: String?
    /// A Core Data SQLDebug log of the app: its fetches become the workloads (``LogImport``).
    package var log: String?
    /// With a log: keep a statement that names a table or column the model lacks as raw SQL
    /// instead of failing.
    package var keepsUnknown = false

    package init(model: String) {
        self.model = model
    }

    /// Reads the model, writes the scenario, prints its path and contents to `console` and
    /// the importer's notes as notes. Returns the path written.
    @discardableResult
    package func write(console: any Console) throws(OperationError) -> String {
        let parsed: ImportedModel
        do { parsed = try ModelSource.read(path: model) } catch let error as ModelImportError {
            throw OperationError(.badInput, error.description)
        } catch {
            throw OperationError.from(error)
        }
        // The model's own name (`Photos` of Photos.xcdatamodeld/Photos 2.xcdatamodel/contents, or of Photos.sqlite),
        // kept to the characters a name takes; "imported" when none are left.
        let base = URL(fileURLWithPath: parsed.displayName.split(separator: "/").first.map(String.init) ?? "")
            .deletingPathExtension().lastPathComponent
        let kept = String(base.unicodeScalars.filter { Identifier.isLabel(String($0)) }.prefix(Identifier.maxLength).map(Character.init))
        let scenarioName = name ?? (kept.isEmpty ? "imported" : kept)
        guard Identifier.isLabel(scenarioName) else {
            throw OperationError(.badInput, "the scenario's name '\(scenarioName)' is not a name (letters, digits and + - _ .)")
        }
        let path = out ?? (FileManager.default.fileExists(atPath: "scenarios") ? "scenarios/\(scenarioName).json" : "\(scenarioName).json")
        if FileManager.default.fileExists(atPath: path) && !replace {
            throw OperationError(.badInput, "\(path) exists", remedy: .replace)
        }
        var importer = ScenarioImporter(model: parsed, name: scenarioName, today: today ?? Self.todayUTC())
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        importer.schemaReference = ["schema.json", "../schema.json"].first {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        var imported: Scenario
        do { imported = try importer.scenario() } catch let error as ModelImportError {
            throw OperationError(.badInput, error.description)
        } catch {
            throw OperationError.from(error)
        }
        var logSummary: LogImport.Summary?
        if let log {
            logSummary = try LogImport(path: log, keepsUnknown: keepsUnknown).apply(to: &imported, today: today ?? Self.todayUTC())
        }
        let text = ScenarioEncoder.text(imported)
        let plan: ScenarioPlan
        do {
            plan = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: path))
        } catch {
            throw OperationError(.badInput, "the scenario made from \(model) does not validate, so it was not written: \(error)")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OperationError(.failed, "cannot write \(path): \(error.localizedDescription)")
        }
        // Each note once: several roots' plans can say the same thing.
        var said = Set<String>()
        for note in importer.notes where said.insert(note).inserted { console.note("note: \(note)") }
        if let logSummary { Self.tell(logSummary, log: log ?? "", console: console) }
        let scenario = plan.scenario
        console.print(
            "wrote \(path): \(parsed.entities.count) entities, \(scenario.variants.count) variants (\(scenario.variants.map(\.name).joined(separator: ", "))), "
                + "\(scenario.workloads.count) workloads (\(scenario.workloads.map(\.name).joined(separator: ", ")))")
        return path
    }

    /// The log's lines, and for each workload whether it was rebuilt and came back identical.
    static func tell(_ summary: LogImport.Summary, log: String, console: any Console) {
        let t = summary.tally
        console.note(
            "note: \(log): level \(t.level), \(t.lines) lines, \(t.recognized) used, \(t.known) other Core Data lines, \(t.skipped) skipped; \(t.statements) statements"
        )
        for entry in summary.entries {
            let w = entry.workload
            let device = w.device.map { d in "\(d.runs) runs" + (d.seconds.map { String(format: ", %.4f s", $0) } ?? "") } ?? ""
            if let reason = entry.rawReason {
                console.note("note: \(w.name) (\(device)): kept as logged SQL: \(reason)")
            } else if entry.shape.kind == .write {
                let outcome: String
                switch summary.outcomes[w.name] {
                case .identical?, .identicalButFollowers?: outcome = "the logged statement issued again"
                case .differs(let lab)?: outcome = "the lab's statement differs: \(lab)"
                case .failed(let why)?: outcome = "it does not run here: \(why)"
                case nil: outcome = "not checked"
                }
                console.note("note: \(w.name) (\(device), in \(Int(w.weight)) saves): \(w.kind.phrase); \(outcome)")
            } else if case .identicalButFollowers(let missing)? = summary.outcomes[w.name] {
                console.note("note: \(w.name) (\(device)): rebuilt, identical; not issued here: \(missing.joined(separator: "; "))")
            } else {
                console.note("note: \(w.name) (\(device)): rebuilt, identical statement")
            }
        }
        for note in summary.poolNotes { console.note("note: \(note)") }
        for entry in summary.leftOut {
            console.note("note: line \(entry.shape.first.line): not run: \(entry.rawReason ?? "")")

        }
        console.note(
            "note: \(summary.identical) of \(summary.entries.filter { $0.shape.kind == .select }.count) fetch shapes rebuilt with identical SQL; \(summary.saves) saves, \(summary.entries.filter { $0.shape.kind == .write }.count) write workloads"
        )
    }

    /// Today's date, yyyy-MM-dd in UTC.
    static func todayUTC() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}
