import SchemaLabCoreData

/// The store names a model has (tables and columns, from its DDL), and the ones a logged
/// statement uses that it lacks: a statement from another model, or a model out of date.
package struct LoggedNames {
    /// Every table and column name of the model's store, and Core Data's own tables.
    package let known: Set<String>

    /// The names of `model`'s store.
    package init(model: ResolvedModel) {
        var names: Set<String> = [
            "Z_PK", "Z_ENT", "Z_OPT", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "Z_MAX", "Z_NAME", "Z_SUPER", "Z_UUID",
            "Z_VERSION", "Z_PLIST", "Z_CONTENT", "_Z_intarray0",
        ]
        for statement in SchemaDDL(model: model).statements {
            for token in (try? LoggedSQLLexer.tokens(statement)) ?? [] {
                if case .word(let w) = token { names.insert(w) }
            }
        }
        known = names
    }

    /// The names in `sql` that look like Core Data's (`ZNAME`, `Z_1TAGS`, `Z3_ENT`) and are not
    /// the model's, each with the model's nearest names.
    package func unknown(in sql: String) -> [(name: String, nearest: [String])] {
        guard let tokens = try? LoggedSQLLexer.tokens(sql) else { return [] }
        var seen: Set<String> = []
        var out: [(String, [String])] = []
        for case .word(let w) in tokens where Self.looksStored(w) && !known.contains(w) && !seen.contains(w) {
            seen.insert(w)
            let nearest = known.filter(Self.looksStored).map { ($0, Self.distance($0, w)) }.filter { $0.1 <= max(2, w.count / 3) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
            out.append((w, nearest))
        }
        return out
    }

    /// `Z` and upper-case letters, digits and underscores: a stored name, not an alias or a keyword.
    static func looksStored(_ word: String) -> Bool {
        guard word.first == "Z", word.count > 1 else { return false }
        return word.allSatisfy { ($0.isUppercase && $0.isASCII) || $0.isNumber || $0 == "_" }
    }

    /// The edit distance of two names.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        var previous = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var row = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(1, y.count) where !y.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return x.isEmpty ? y.count : previous[y.count]
    }
}
