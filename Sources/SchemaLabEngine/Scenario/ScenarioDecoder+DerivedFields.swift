import SchemaLabCoreData

extension ScenarioDecoder {
    /// Checks the derived generators of one level: `countOf` names one of the level's
    /// `related` relationships; `parentField` names a field of the parent level.
    static func checkDerived(
        _ fields: [FieldSpec], related: [RelatedSpec], parentFields: [FieldSpec]?, inPool: Bool, file: String,
        wordChildren: Bool = false
    ) throws {
        try checkWordsOf(related, fields: fields, file: file)
        for (i, f) in fields.enumerated() {
            try checkDerivedField(
                f, earlier: fields[..<i], related: related, parentFields: parentFields, inPool: inPool, file: file,
                wordChildren: wordChildren)
        }
        for r in related {
            if let pool = r.pool {
                try checkDerived(pool.fields, related: [], parentFields: nil, inPool: true, file: file)
            } else {
                var wordChildren = false
                if case .wordsOf = r.fanOut { wordChildren = true }
                try checkDerived(r.fields, related: r.related, parentFields: fields, inPool: false, file: file, wordChildren: wordChildren)
            }
        }
    }

    /// A `wordsOf` fan-out reads a text field of its level that is not a `joinedOf`.
    private static func checkWordsOf(_ related: [RelatedSpec], fields: [FieldSpec], file: String) throws {
        for r in related {
            guard case .wordsOf(let field) = r.fanOut else { continue }
            guard let source = fields.first(where: { $0.names.contains(field) }) else {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field", message: "wordsOf names '\(field)', which this level does not generate")
            }
            if ValueKind.produced(by: source)[field].map({ !$0.isSubset(of: [.text, .null]) }) ?? false {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field", message: "wordsOf needs a text field; '\(field)' is not one")
            }
            if case .joinedOf = source.generator {
                throw ScenarioError(
                    file: file, path: r.path + ".fanOut.field",
                    message: "wordsOf cannot read '\(field)', a joinedOf field (it is joined after the related rows exist)")
            }
        }
    }

    /// One field's generator where it stands: `word`, `position`, `joinedOf`, `derived`,
    /// `countOf` and `parentField` each need something of this level or the one above.
    private static func checkDerivedField(
        _ f: FieldSpec, earlier: ArraySlice<FieldSpec>, related: [RelatedSpec], parentFields: [FieldSpec]?, inPool: Bool,
        file: String, wordChildren: Bool
    ) throws {
        let g = f.path + ".generator"
        switch f.generator {
        case .word:
            if !wordChildren {
                throw ScenarioError(file: file, path: g, message: "word is the field of a related entry whose fan-out is wordsOf")
            }
        case .position:
            if parentFields == nil || inPool {
                throw ScenarioError(
                    file: file, path: g,
                    message:
                        "position is the field of a related entry's children (their place among a parent's children); \(inPool ? "a pool member is shared by many parents" : "the root entity has no parent row")"
                )
            }
        case .joinedOf(let r, let field, _):
            guard let entry = related.first(where: { $0.relationship == r }) else {
                throw ScenarioError(
                    file: file, path: g + ".relationship", message: "joinedOf names '\(r)', which is not a relationship filled here")
            }
            let memberFields = entry.pool?.fields ?? entry.fields
            guard memberFields.contains(where: { $0.names.contains(field) }) else {
                throw ScenarioError(
                    file: file, path: g + ".field",
                    message:
                        "joinedOf names '\(field)', which the members of '\(r)' do not have (fields: \(memberFields.flatMap(\.names).joined(separator: ", ")))"
                )
            }
        case .derived(let from, _):
            guard let source = earlier.first(where: { $0.names.contains(from) }) else {
                throw ScenarioError(
                    file: file, path: g + ".from",
                    message: "derived names '\(from)', which is not a field generated before it at this level")
            }
            switch source.generator {
            case .text, .uuid, .bytes, .bool, .word, .joinedOf, .sequence(_, _, .some):
                throw ScenarioError(
                    file: file, path: g + ".from", message: "derived needs a numeric or date field; '\(from)' is not one")
            default: break
            }
        case .countOf(let r):
            try checkCountOf(r, at: g, related: related, inPool: inPool, file: file)
        case .parentField(let name):
            try checkParentField(name, at: g, parentFields: parentFields, inPool: inPool, file: file)
        default: break
        }
    }

    /// `countOf` counts a relationship this level fills, not a `wordsOf` one.
    private static func checkCountOf(_ r: String, at g: String, related: [RelatedSpec], inPool: Bool, file: String) throws {
        if let entry = related.first(where: { $0.relationship == r }), case .wordsOf = entry.fanOut {
            throw ScenarioError(
                file: file, path: g + ".relationship",
                message: "countOf cannot count a wordsOf relationship (its fan-out is known only after the fields)")
        }
        guard related.contains(where: { $0.relationship == r }) else {
            let have = related.map(\.relationship)
            let why =
                inPool
                ? "a pool member fills no relationships"
                : have.isEmpty ? "this level's 'related' is empty" : "this level's 'related' fills \(have.joined(separator: ", "))"
            throw ScenarioError(
                file: file, path: g + ".relationship",
                message: "countOf names '\(r)', which is not a relationship filled here: \(why)")
        }
    }

    /// `parentField` reads a field of the parent level (not a pool's, not the root's, not a `joinedOf`).
    private static func checkParentField(_ name: String, at g: String, parentFields: [FieldSpec]?, inPool: Bool, file: String) throws {
        if inPool {
            throw ScenarioError(
                file: file, path: g, message: "parentField cannot be used in a pool: a pool member is shared by many parent rows")
        }
        guard let parent = parentFields else {
            throw ScenarioError(
                file: file, path: g, message: "parentField is for the fields of a related entry: the root entity has no parent row")
        }
        if let source = parent.first(where: { $0.names.contains(name) }), case .joinedOf = source.generator {
            throw ScenarioError(
                file: file, path: g + ".field",
                message: "parentField cannot read '\(name)', a joinedOf field (it is joined after the related rows exist)")
        }
        guard parent.contains(where: { $0.names.contains(name) }) else {
            throw ScenarioError(
                file: file, path: g + ".field",
                message:
                    "parentField names '\(name)', which the parent level does not generate (fields: \(parent.flatMap(\.names).joined(separator: ", ")))"
            )
        }
    }
}
