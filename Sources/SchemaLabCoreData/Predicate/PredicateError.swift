/// Why a predicate string does not parse, or does not compile against a model.
///
/// `column` is 1-based and counted in `Character`s of the predicate string, so an
/// error can be shown under the text with a caret. Errors that concern the whole
/// string (too many arguments) point at column 1.
package struct PredicateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based position in the predicate string, in Characters.
    package let column: Int
    /// What is wrong, in one line (`expected a value after '>'`).
    package let message: String

    /// An error at `column` (1-based, in Characters).
    package init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// `column 8: expected a value after '>'`
    package var description: String { "column \(column): \(message)" }
}
