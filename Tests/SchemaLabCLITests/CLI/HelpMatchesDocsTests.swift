import Foundation
import SchemaLabTestSupport
import Testing

/// Each subcommand's `--help` and its section of docs/cli.md name the same options: a help
/// that lags the docs (or the docs the code) is a test failure, not a user's surprise.
@Suite("Every subcommand's help and docs/cli.md agree")
struct HelpMatchesDocsTests {
    /// Options a section of docs/cli.md names that its command's help does not list, each for
    /// a reason: hidden test aids, and another command's options named in the prose.
    static let documentedElsewhere: [String: Set<String>] = [
        "run": ["--inject-slowdown"],
        "compare": ["--variants"],
        "merge": ["--shard"],
    ]
    /// Subcommands without a help of their own: `count-case` is the child process of
    /// `run --instructions`, not for a person (docs/cli.md says so), and refuses `--help`.
    static let internalCommands: Set<String> = ["count-case"]

    /// The `## name` sections of docs/cli.md that are subcommands, with their text.
    static func sections() throws -> [(command: String, text: String)] {
        let doc = try String(contentsOfFile: TestSupport.packageRoot + "/docs/cli.md", encoding: .utf8)
        return doc.components(separatedBy: "\n## ").dropFirst().compactMap { section in
            let name = String(section.prefix { $0 != "\n" }).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "-" }) else { return nil }
            return (name, section)
        }
    }

    /// The `--options` of a text: every `--word` not inside another word.
    static func options(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*")
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
            .subtracting(["--help", "--version"])
    }

    /// The options a help lists (each line of its OPTIONS that starts with `--`), aliases
    /// (`--variants, --variant`) by their first name.
    static func helpOptions(_ help: String) -> (names: Set<String>, aliases: Set<String>) {
        var names: Set<String> = [], aliases: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  ") {
            let spelled = line.split(separator: " ").prefix { $0.hasPrefix("--") }.map { String($0.trimmingCharacters(in: [","])) }
            guard let first = spelled.first else { continue }
            names.insert(first)
            aliases.formUnion(spelled.dropFirst())
        }
        return (names.subtracting(["--help", "--version"]), aliases)
    }

    @Test("each subcommand's options are in its docs section, and each documented option is in its help")
    func optionsAgree() throws {
        let sections = try Self.sections()
        #expect(sections.count >= 14, "\(sections.map(\.command))")
        for (command, text) in sections where !Self.internalCommands.contains(command) {
            let words = command == "baseline" ? [["baseline", "save"], ["baseline", "list"]] : [[command]]
            var listed: Set<String> = [], aliases: Set<String> = []
            for arguments in words {
                let help = try TestSupport.runCLI(arguments + ["--help"])
                #expect(help.status == 0, "\(arguments): \(help.err)")
                let options = Self.helpOptions(help.out)
                listed.formUnion(options.names)
                aliases.formUnion(options.aliases)
            }
            let documented = Self.options(in: text)
            #expect(
                listed.subtracting(documented).isEmpty,
                "\(command): in --help, not in docs/cli.md: \(listed.subtracting(documented).sorted())")
            let unknown = documented.subtracting(listed).subtracting(aliases).subtracting(Self.documentedElsewhere[command] ?? [])
            #expect(unknown.isEmpty, "\(command): in docs/cli.md, not in --help: \(unknown.sorted())")
        }
    }

    @Test("import's help does not call refused what the import reads (inheritance, ordered relationships, derived attributes)")
    func importHelpTellsTheTruth() throws {
        let help = try TestSupport.runCLI(["import", "--help"]).out.lowercased()
        for feature in ["inheritance", "ordered relationship", "derived attribute"] {
            // A sentence that names a feature the import reads must not also say it is refused.
            for sentence in help.replacingOccurrences(of: "\n", with: " ").components(separatedBy: ". ") where sentence.contains(feature) {
                #expect(!sentence.contains("refuse") && !sentence.contains("not supported"), "\(sentence)")
            }
        }
    }
}
