/// A problem with a scenario file: where it is (file and JSON path) and what is wrong.
///
/// Printed as `scenarios/x.json: $.variants[1].addIndexes[0].elements[0]: Photo has no attribute 'dat'`.
public struct ScenarioError: Error, CustomStringConvertible, Sendable {
    /// The scenario file, as the user named it.
    public let file: String
    /// The JSON path of the offending value (`$` for the document).
    public let path: String
    /// What is wrong, in a sentence.
    public let message: String

    public init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    public var description: String { "\(file): \(path): \(message)" }
}
