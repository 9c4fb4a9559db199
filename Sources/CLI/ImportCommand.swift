import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab import MODEL`: writes a scenario from an Xcode Core Data model.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Writes a scenario from a Core Data model (.xcdatamodeld, .xcdatamodel, its contents file) or a Core Data store's tables.",
        discussion: """
            The scenario has the model as variant `as-is` and, when it has indexes, the same \
            without them as `no-indexes`; a data set with a generator per attribute (a starting \
            point to edit); a fetch of each entity sorted by each index's first key, and a \
            fetched-results controller with batches of 20 on the entity with the most rows. \
            Given a SQLite store instead, it reads the model from the store's tables (a copy of \
            them: the store is not opened) and says in notes what a store cannot tell. \
            With --log, the app's Core Data SQLDebug console log (run with the launch arguments \
            -com.apple.CoreData.SQLDebug 1 and -com.apple.CoreData.Logging.stderr 1) gives the \
            workloads instead: each fetch shape it shows, rebuilt as a request and checked by \
            issuing it again (identical SQL), or kept as its logged SQL with the reason, and each \
            save's writes as append, update and delete workloads; each weighted by its runs, with \
            the device's time. \
            What the import reads but does not model is printed as notes. The scenario is \
            checked before it is written. A model the lab cannot read or does not support is \
            refused with the element and its line, exit 2.
            """
    )

    @Argument(
        help:
            "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder, its contents file, or a Core Data SQLite store."
    )
    var model: String

    @Option(name: .long, help: "The scenario file to write (default: scenarios/NAME.json when ./scenarios exists, else NAME.json).")
    var out: String?

    @Option(name: .long, help: "The scenario's name (default: the model's file name).")
    var name: String?

    @Flag(name: .long, help: "Replace the output file if it exists.")
    var replace = false

    @Option(name: .long, help: "A Core Data SQLDebug console log of the app: its fetches and saves become the workloads.")
    var log: String?

    @Flag(name: .long, help: "With --log: list a statement naming a table or column the model lacks (not run) instead of refusing the log.")
    var keepUnknown = false

    func validate() throws {
        if keepUnknown && log == nil { throw ValidationError("--keep-unknown needs --log") }
    }

    func run() throws {
        var modelImport = ModelImport(model: model)
        modelImport.out = out
        modelImport.name = name
        modelImport.replace = replace
        modelImport.log = log
        modelImport.keepsUnknown = keepUnknown
        _ = try perform { () throws(OperationError) in try modelImport.write(console: TerminalConsole()) }
    }
}
