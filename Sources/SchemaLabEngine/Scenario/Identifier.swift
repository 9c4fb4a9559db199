/// The rules for names that come from a scenario and may reach SQL.
///
/// Every entity, attribute, relationship and index name must be a plain name
/// before the store turns it into a table, column or index name. The store then
/// writes them unquoted, as Core Data does (`ZPHOTO`, `ZDATE`): every generated
/// name starts with `Z` and holds only ASCII letters, digits and `_`, and no
/// SQLite keyword starts with `Z`, so no name can be read as SQL.
package enum Identifier {
    package static let maxLength = 64

    /// A letter, then ASCII letters, digits or underscores, at most ``maxLength`` long.
    package static func isPlainName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.unicodeScalars.count <= maxLength else { return false }
        guard first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// A display label: letters, digits and `+ - _ .`, not empty.
    package static func isLabel(_ text: String) -> Bool {
        guard !text.isEmpty, text.unicodeScalars.count <= maxLength else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "+-_.".unicodeScalars.contains($0) }
    }

}

extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
