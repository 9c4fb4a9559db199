import SchemaLabSQLite

/// The canonical form of a search string: what a canonical search attribute
/// (`canonicalOf`) holds and what a `[n]` argument is expected to be. It is the folding
/// `[cd]` applies (case, diacritics and width: Foundation's `folding` with options 385),
/// so `key BEGINSWITH[n] canonical(q)` selects the rows `source BEGINSWITH[cd] q` does.
package enum CanonicalString {
    /// The canonical form of a text value; other values (NULL) stay as they are.
    package static func of(_ value: SQLValue) -> SQLValue {
        guard case .text(let s) = value else { return value }
        return .text(of(s))
    }

    /// The canonical form of `s`: lower-cased, diacritics and width variants removed.
    package static func of(_ text: String) -> String {
        StringMatching.fold(text, options: 385)
    }
}
