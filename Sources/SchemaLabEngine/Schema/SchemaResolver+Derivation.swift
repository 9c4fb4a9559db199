import SchemaLabCoreData

extension SchemaResolver {
    /// A derived attribute's expression, resolved: `now()`, `lowercase:(a)`, `uppercase:(a)`,
    /// `canonical:(a)`, `a` (another attribute), `r.a` (through a to-one), `r.@count` (a to-many).
    func derivation(
        _ text: String, for a: AttributeSpec, attributes: [AttributeModel], relationships: [RelationshipModel], in model: VariantBuild
    ) throws -> Derivation {
        let variant = model.name
        let path = a.path + ".derivation"
        let forms = "now(), lowercase:(name), uppercase:(name), canonical:(name), name, relationship.name or relationship.@count"
        func requireType(_ types: [AttributeType], _ what: String) throws {
            guard types.contains(a.type) else {
                throw fail(path, "in variant \(variant), '\(text)' gives \(what): '\(a.name)' is \(a.type.rawValue)")
            }
        }
        func attribute(_ name: String) throws -> AttributeModel {
            guard let source = attributes.first(where: { $0.name == name }), name != a.name, source.derivation == nil else {
                throw fail(path, "in variant \(variant), '\(text)': '\(name)' is not another stored attribute of the entity")
            }
            return source
        }
        let trimmed = text.filter { !$0.isWhitespace }
        if trimmed == "now()" {
            try requireType([.date], "a date")
            return .now
        }
        if let colon = trimmed.firstIndex(of: ":"), trimmed.hasSuffix(")"), trimmed[trimmed.index(after: colon)...].hasPrefix("(") {
            let function = String(trimmed[..<colon])
            guard let sql = Derivation.functions[function] else {
                throw fail(path, "in variant \(variant), '\(function):' is not a derivation function (lowercase:, uppercase:, canonical:)")
            }
            let argument = String(trimmed[trimmed.index(colon, offsetBy: 2)..<trimmed.index(before: trimmed.endIndex)])
            let source = try attribute(argument)
            guard source.type == .string else {
                throw fail(path, "in variant \(variant), '\(text)' takes a string attribute; '\(argument)' is \(source.type.rawValue)")
            }
            try requireType([.string], "a string")
            return .function(sqlFunction: sql, sourceColumn: source.column)
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1, Identifier.isPlainName(parts[0]) {
            let source = try attribute(parts[0])
            guard source.type == a.type else {
                throw fail(path, "in variant \(variant), '\(text)' is \(source.type.rawValue); '\(a.name)' is \(a.type.rawValue)")
            }
            return .attribute(sourceColumn: source.column)
        }
        guard parts.count == 2, let r = relationships.first(where: { $0.name == parts[0] }) else {
            throw fail(path, "in variant \(variant), '\(text)' is not a derivation the lab takes (\(forms))")
        }
        if parts[1] == "@count" {
            guard r.toMany else { throw fail(path, "in variant \(variant), '\(text)': '\(r.name)' is a to-one (@count counts a to-many)") }
            try requireType([.integer16, .integer32, .integer64], "an integer")
            switch r.storage {
            case .inverseForeignKey(let column):
                return .count(table: model.layout.table(of: r.destination), keyColumn: column)
            case .joinTable(let table, let own, _):
                return .count(table: table, keyColumn: own)
            case .foreignKey:
                break
            }
        }
        guard !r.toMany, let fk = r.foreignKeyColumn, Identifier.isPlainName(parts[1]) else {
            throw fail(
                path, "in variant \(variant), '\(text)': a key path goes through a to-one ('\(r.name)' is a to-many: use \(r.name).@count)")
        }
        let destination = model.layout.chain(r.destination).compactMap { model.specs[$0] }.flatMap(\.attributes)
        guard let target = destination.first(where: { $0.name == parts[1] }),
            let column = model.layout.column(parts[1], of: r.destination)
        else {
            throw fail(path, "in variant \(variant), '\(text)': \(r.destination) has no attribute '\(parts[1])'")
        }
        guard target.type == a.type else {
            throw fail(path, "in variant \(variant), '\(text)' is \(target.type.rawValue); '\(a.name)' is \(a.type.rawValue)")
        }
        return .toOne(foreignKey: fk, destinationTable: model.layout.table(of: r.destination), destinationColumn: column)
    }
}
