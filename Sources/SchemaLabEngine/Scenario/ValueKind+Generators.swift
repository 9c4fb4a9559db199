import SchemaLabCoreData

extension ValueKind {
    /// The kinds a generator produces for each of its fields.
    package static func produced(by spec: FieldSpec) -> [String: Set<ValueKind>] {
        var out: [String: Set<ValueKind>] = [:]
        switch spec.generator {
        case .sequence(_, _, let prefix): out[spec.names[0]] = prefix == nil ? [.integer] : [.text]
        case .uniformInt, .pareto, .bool, .countOf, .derived, .wordsOf, .position: out[spec.names[0]] = [.integer]
        case .word, .joinedOf: out[spec.names[0]] = [.text, .null]
        case .parentField: break  // the parent field's kinds: see ScenarioPlan.valueKinds
        case .uniformDouble, .normal, .dateRange: out[spec.names[0]] = [.real]
        case .text, .uuid: out[spec.names[0]] = [.text]
        case .bytes: out[spec.names[0]] = [.blob]
        case .choice(let values, _), .cycle(let values): out[spec.names[0]] = Set(values.map(ValueKind.init))
        case .constant(let v): out[spec.names[0]] = [ValueKind(v)]
        case .clusteredLocation:
            out[spec.names[0]] = [.real]
            out[spec.names[1]] = [.real]
            if spec.names.count > 2 { out[spec.names[2]] = [.text] }
        }
        return out
    }
}
