import ArgumentParser
import Foundation
import SchemaLab

/// `schemalab baseline save RUN_DIR NAME`, `schemalab baseline list`.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Stores runs to compare with later (results/baselines/NAME/: plain CSV and JSON, committable).",
        subcommands: [Save.self, List.self]
    )

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stores a finished run as a baseline.")

        @Argument(help: "A directory written by `schemalab run` (or `merge`).")
        var runDirectory: String

        @Argument(help: "The baseline's name (letters, digits, -, _ and .).")
        var name: String

        @OptionGroup var baselines: BaselineDirectoryOption

        @Flag(name: .long, help: "Replace a baseline of that name.")
        var replace = false

        func run() throws {
            try perform { () throws(OperationError) in
                do { try Baselines(directory: baselines.dir).save(run: runDirectory, name: name, replace: replace) } catch {
                    throw OperationError.from(error)
                }
            }
            print("\(baselines.dir)/\(name)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the stored baselines.")

        @OptionGroup var baselines: BaselineDirectoryOption

        func run() throws {
            let list = Baselines(directory: baselines.dir).list()
            if list.isEmpty { print("no baselines in \(baselines.dir)"); return }
            for b in list { print("\(b.name)  \(b.scenario)  \(b.cases) cases  commit \(b.commit)  \(b.started)") }
        }
    }
}
