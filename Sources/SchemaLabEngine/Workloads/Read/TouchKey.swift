import SchemaLabCoreData

/// A key path a workload reads on every touched object: an attribute (through to-one
/// relationships), or a to-many relationship (`books`: fire its fault) optionally
/// followed by an attribute of its destination (`books.title`: fire it, then read each).
package enum TouchKey {
    case value(KeyPathAccessor)
    /// To-one slots to follow, the to-many slot, and the destination attribute index to read.
    case toMany(toOne: [Int], index: Int, attribute: Int?)

    /// Resolves `keyPath` from `entity`: a path that crosses a to-many relationship is a
    /// `.toMany`, anything else resolves as a logical or dotted attribute key path.
    static func resolve(_ keyPath: String, from entity: EntityDescription, in model: ResolvedModel) throws(KeyPathError) -> TouchKey {
        let parts = keyPath.split(separator: ".").map(String.init)
        var e = entity
        var toOne: [Int] = []
        for (i, part) in parts.enumerated() {
            if let m = e.toManyIndex(part) {
                let rest = parts[(i + 1)...]
                let dest = e.toManyDestinations[m]
                guard rest.count <= 1 else {
                    throw KeyPathError(
                        message:
                            "in variant \(model.variant), '\(keyPath)' goes on past the to-many '\(part)': a touch key may end with one attribute after it"
                    )
                }
                var attribute: Int? = nil
                if let a = rest.first {
                    guard let ai = dest.model.attributes.firstIndex(where: { $0.name == a }) else {
                        throw KeyPathError(message: "in variant \(model.variant), \(dest.name) has no attribute '\(a)'")
                    }
                    attribute = ai
                }
                return .toMany(toOne: toOne, index: m, attribute: attribute)
            }
            guard i < parts.count - 1, let t = e.toOneIndex(part) else { break }
            toOne.append(t)
            e = e.destinations[t]
        }
        return .value(KeyPathAccessor(try model.resolve(keyPath: keyPath, from: entity.name), from: entity))
    }
}

/// The touch keys of a workload, compiled once: when every key is an attribute of the
/// touched object itself (no relationship on the way), their attribute indexes, read in a
/// tight loop. Iterating the `TouchKey` enums copied each key's resolved key path per
/// object (16% of a 10,000-row fetch's instructions under callgrind); the reads and the
/// faults fired are the same either way.
struct TouchPlan {
    let keys: [TouchKey]
    /// The keys' attribute indexes when all of them are direct attributes; nil otherwise.
    let directAttributes: [Int]?

    init(_ keys: [TouchKey]) {
        self.keys = keys
        var direct: [Int] = []
        for k in keys {
            guard case .value(let a) = k, a.relationshipIndexes.isEmpty else { directAttributes = nil; return }
            direct.append(a.attributeIndex)
        }
        directAttributes = direct
    }
}

extension ManagedObjectContext {
    /// Reads every key of `plan` on `object`; returns how many non-null values it read.
    @inline(__always)
    func touch(_ plan: TouchPlan, on object: ManagedObject) throws -> Int {
        guard let direct = plan.directAttributes else {
            var n = 0
            for k in plan.keys { n += try touch(k, on: object) }
            return n
        }
        guard !direct.isEmpty else { return 0 }
        if object.isFault {
            if object.partial == nil {
                try fireFault(object)
            } else {
                for a in direct { try fireFault(object, attribute: a) }
            }
        }
        // A value in the object is read where it is (no copy of it, as code that tests a property
        // reads it); a NULL one may be an external file's, which attributeValue reads.
        var n = 0
        let values = object.values
        for a in direct {
            if !values.isNull(at: a) {
                n += 1
            } else if case .null = try attributeValue(object, a) {
            } else {
                n += 1
            }
        }
        return n
    }

    /// Reads a touch key on `object`, firing faults as Core Data does; returns how many
    /// non-null values it read.
    func touch(_ key: TouchKey, on object: ManagedObject) throws -> Int {
        switch key {
        case .value(let accessor):
            if case .null = try value(of: object, at: accessor) { return 0 }
            return 1
        case .toMany(let toOne, let index, let attribute):
            var o = object
            for idx in toOne {
                if o.isFault { try fireFault(o, toOne: idx) }
                guard let next = related(o, idx) else { return 0 }
                o = next
            }
            if o.isFault { try fireFault(o) }
            let targets = try toMany(o, index)
            guard let attribute else { return targets.count }
            var n = 0
            for t in targets {
                if t.isFault { try fireFault(t) }
                if case .null = try attributeValue(t, attribute) {} else { n += 1 }
            }
            return n
        }
    }
}
