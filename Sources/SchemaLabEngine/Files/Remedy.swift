/// What the user can do about a problem: the fix, as data, that a front end words in its own
/// terms (the CLI as the flags and commands to type). Library messages name no flag; they
/// carry one of these (``FileError/remedy``, `OperationError.remedy`).
public enum Remedy: Sendable, Equatable {
    /// Run a scenario into this directory first.
    case run(String)
    /// Finish the stopped run in this directory.
    case resume(String)
    /// Resume the run in this directory, giving its scenario file (the one its run.json names is gone).
    case resumeWithScenario(String)
    /// Write elsewhere, replace the existing run directory (it is kept as `<path>.previous`), or
    /// resume its run if it stopped early.
    case replaceOrResume(String)
    /// Write elsewhere: the output path is not a directory that can be written.
    case chooseAnotherOutput
    /// Replace what exists (a baseline, an imported scenario, a merged run), or write elsewhere.
    case replace
    /// Compare anyway, across environments.
    case compareAcrossEnvironments
    /// Run only these variants (the ones that fit).
    case selectVariants([String])
    /// Run smaller sizes, free space, or skip the fit check.
    case reduceSizeOrSkipFitCheck
    /// Run without the fit check, which could not measure the data set.
    case skipFitCheck
    /// Give the run's scenario file (for index advice).
    case giveScenarioFile
    /// Give the directory of the gnuplot scripts.
    case giveScriptDirectory
    /// Plot the run first.
    case plot(String)
}
