import SchemaLab

/// How the CLI words a library error: its exit status and its remedy as the command to type.
extension OperationError {
    /// The process exit status: 1 failed, 2 bad input or a regression, 3 baseline not found.
    var exitStatus: Int32 {
        switch status {
        case .failed: return 1
        case .badInput, .regression: return 2
        case .baselineNotFound: return 3
        }
    }

    /// The message with its remedy as flags and commands.
    var terminalMessage: String {
        guard let remedy else { return message }
        return message + " (" + Self.words(remedy) + ")"
    }

    static func words(_ remedy: Remedy) -> String {
        switch remedy {
        case .run(let directory): return "`schemalab run SCENARIO --out \(directory)` makes one"
        case .resume(let directory): return "`schemalab run --resume \(directory)` finishes it"
        case .resumeWithScenario(let directory): return "give the file: schemalab run FILE --resume \(directory)"
        case .replaceOrResume(let directory):
            return
                "choose another --out, pass --replace (the old run is kept as \(directory).previous), or --resume \(directory) if its run stopped early"
        case .chooseAnotherOutput: return "choose another --out"
        case .replace: return "give --replace to replace it, or another --out"
        case .compareAcrossEnvironments: return "give --across-environments to compare anyway"
        case .selectVariants(let variants): return "pick those with --variants \(variants.joined(separator: ","))"
        case .reduceSizeOrSkipFitCheck: return "run smaller sizes (--size), free space, or pass --skip-fit-check to run anyway"
        case .skipFitCheck: return "--skip-fit-check runs without it"
        case .giveScenarioFile: return "give the scenario file with --scenario"
        case .giveScriptDirectory: return "give a directory of the scripts with --scripts"
        case .plot(let directory): return "run `schemalab plot \(directory)` first"
        }
    }
}
