import ArgumentParser
import SchemaLab

/// `schemalab findings RUN_DIR...`: the landing page of a bench, every claim on one page.
struct FindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "Writes OUT/index.html and OUT/findings.md: every claim of the run directories, with its verdict.",
        discussion: """
            Reads each run directory's claims.csv (written by `schemalab run` when the scenario \
            states claims) and writes one self-contained page: the environment, the reversed and \
            within-noise claims first, then per scenario each claim's source, words, measured ratio \
            with its 95% interval, expected effect and verdict, linked to the claim's section of the \
            scenario's report (run `schemalab report` on each directory for the links to resolve). \
            Prints the verdict counts, each reversed claim, and the paths written.
            """
    )

    @Argument(help: "Directories written by `schemalab run`.")
    var directories: [String]

    @Option(name: .long, help: "Where to write index.html and findings.md.")
    var out = "results"

    func run() throws {
        try perform { () throws(OperationError) in
            try FindingsPage.publish(directories: directories, outputDirectory: out, console: TerminalConsole())
        }
    }
}
