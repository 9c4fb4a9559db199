/// Why a `Subprocess` did not run at all (a child that ran and failed is a
/// `SubprocessResult` with its status).
package enum SubprocessError: Error, Equatable, CustomStringConvertible {
    /// No executable of that name on the `PATH`, or no executable file at that path.
    case notFound(String)
    /// The executable (its path) was found but could not be started, and why.
    case cannotStart(String, String)

    package var description: String {
        switch self {
        case .notFound(let name): return name.contains("/") ? "no executable at \(name)" : "no \(name) on the PATH"
        case .cannotStart(let path, let why): return "cannot start \(path): \(why)"
        }
    }
}
