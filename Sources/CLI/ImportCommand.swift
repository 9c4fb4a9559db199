import ArgumentParser
import Foundation
import SchemaLab
import SchemaLabEngine

/// `schemalab import MODEL`: writes a scenario from an Xcode Core Data model.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Writes a scenario from a Core Data model (.xcdatamodeld, .xcdatamodel, its contents file) or a Core Data store's tables.",
        discussion: """
            The scenario has the model as variant `as-is` and, when it has indexes, the same \
            without them as `no-indexes`; a data set with a generator per attribute (a starting \
            point to edit); a fetch of each entity sorted by each index's first key, and a \
            fetched-results controller with batches of 20 on the entity with the most rows. \
            Given a SQLite store instead, it reads the model from the store's tables (a copy of \
            them: the store is not opened) and says in notes what a store cannot tell. \
            What the import reads but does not model is printed as notes. The scenario is \
            checked before it is written. A model the lab cannot read or does not support \
            (entity inheritance, ordered relationships, derived attributes) is refused with \
            the element and its line, exit 2.
            """
    )

    @Argument(help: "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder, its contents file, or a Core Data SQLite store.")
    var model: String

    @Option(name: .long, help: "The scenario file to write (default: scenarios/NAME.json when ./scenarios exists, else NAME.json).")
    var out: String?

    @Option(name: .long, help: "The scenario's name (default: the model's file name).")
    var name: String?

    @Flag(name: .long, help: "Overwrite the output file if it exists.")
    var force = false

    func run() throws {
        let parsed: CoreDataModel
        do { parsed = try ModelSource.read(path: model) } catch let e as ModelImportError { throw fail(e.description, code: 2) }
        // The model's own name (`Photos` of Photos.xcdatamodeld/Photos 2.xcdatamodel/contents, or of Photos.sqlite),
        // kept to the characters a name takes; "imported" when none are left.
        let base = URL(fileURLWithPath: parsed.displayName.split(separator: "/").first.map(String.init) ?? "").deletingPathExtension().lastPathComponent
        let kept = String(base.unicodeScalars.filter { Identifier.isLabel(String($0)) }.prefix(Identifier.maxLength).map(Character.init))
        let scenarioName = name ?? (kept.isEmpty ? "imported" : kept)
        guard Identifier.isLabel(scenarioName) else {
            throw fail("--name: '\(scenarioName)' is not a name (letters, digits and + - _ .)", code: 2)
        }
        let path = out ?? (FileManager.default.fileExists(atPath: "scenarios") ? "scenarios/\(scenarioName).json" : "\(scenarioName).json")
        if FileManager.default.fileExists(atPath: path) && !force {
            throw fail("\(path) exists: give --force to overwrite it, or another --out", code: 2)
        }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        var importer = ScenarioImporter(model: parsed, name: scenarioName, today: f.string(from: Date()))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        importer.schemaReference = ["schema.json", "../schema.json"].first { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        let text: String
        do { text = JSONWriter.text(try importer.scenario()) } catch let e as ModelImportError { throw fail(e.description, code: 2) }
        let plan: ScenarioPlan
        do {
            plan = try ScenarioPlan(ScenarioDecoder.decode(text: text, file: path))
        } catch let e as ScenarioError {
            throw fail("the scenario made from \(model) does not validate, so it was not written: \(e)", code: 2)
        }
        do {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw fail("cannot write \(path): \(error.localizedDescription)", code: 1)
        }
        for n in importer.notes { note("note: \(n)") }
        let s = plan.scenario
        print("wrote \(path): \(parsed.entities.count) entities, \(s.variants.count) variants (\(s.variants.map(\.name).joined(separator: ", "))), \(s.workloads.count) workloads (\(s.workloads.map(\.name).joined(separator: ", ")))")
    }
}
