import SchemaLabCoreData
import SchemaLabEngine
import SchemaLabSQLite

/// The values an app's log bound where a fetch compares an attribute for equality (`kindRaw
/// == %@`, `state IN %@`), made the value pools of those attributes' generators: a generated
/// data set then holds the values the app looks for, in the proportion the log shows them, so
/// that the log's fetches find rows (random text never equals `"status"`).
///
/// Only string and integer attributes outside uniqueness constraints get a pool (a pool of a
/// few values would break a unique key); a level-1 log has no values and changes nothing.
package struct LoggedValuePools {
    /// Counts per value, by `Entity.attribute`.
    package private(set) var pools: [String: [LoggedValue: Int]] = [:]

    package init() {}

    /// Adds the values of `entry`'s markers compared for equality.
    package mutating func add(_ entry: LogWorkloads.Entry) {
        for (marker, owner) in entry.equalityTargets where marker < entry.shape.values.count {
            for (value, count) in entry.shape.values[marker] { pools[owner, default: [:]][value, default: 0] += count }
        }
    }

    /// Replaces the generator of each pooled attribute's field in `dataset` with a `choice` of
    /// the logged values, weighted by how often each was bound; returns a note per field changed.
    package func apply(to dataset: inout DatasetSpec, model: ResolvedModel) -> [String] {
        var notes: [String] = []
        for (owner, counts) in pools.sorted(by: { $0.key < $1.key }) {
            let parts = owner.split(separator: ".").map(String.init)
            guard parts.count == 2, let entity = model.entity(parts[0]), let attribute = entity.attribute(parts[1]) else { continue }
            if entity.uniquenessConstraints.contains(where: { $0.contains { $0.name == attribute.name } }) { continue }
            let values: [(SQLValue, Int)] = counts.compactMap { value, count in
                switch (value, attribute.type) {
                case (.text(let s), .string): return (.text(s), count)
                case (.integer(let i), .integer16), (.integer(let i), .integer32), (.integer(let i), .integer64):
                    return (.integer(i), count)
                default: return nil
                }
            }.sorted { $0.0.description < $1.0.description }
            guard !values.isEmpty else { continue }
            let generator = GeneratorSpec.choice(values: values.map(\.0), weights: values.map { Double($0.1) })
            var changed = false
            dataset.fields = Self.replacing(dataset.fields, names: [owner, attribute.name], with: generator, changed: &changed)
            dataset.related = Self.replacing(dataset.related, names: [owner, attribute.name], with: generator, changed: &changed)
            if changed {
                notes.append(
                    "\(owner): generated from the \(values.count) value(s) the log bound to it (\(values.prefix(5).map(\.0.description).joined(separator: ", "))\(values.count > 5 ? ", …" : "")), weighted by how often"
                )
            }
        }
        return notes
    }

    static func replacing(_ fields: [FieldSpec], names: [String], with generator: GeneratorSpec, changed: inout Bool) -> [FieldSpec] {
        fields.map { field in
            guard field.names.count == 1, names.contains(field.names[0]) else { return field }
            var f = field
            f.generator = generator
            changed = true
            return f
        }
    }

    static func replacing(_ entries: [RelatedSpec], names: [String], with generator: GeneratorSpec, changed: inout Bool) -> [RelatedSpec] {
        entries.map { entry in
            var e = entry
            e.fields = replacing(e.fields, names: names, with: generator, changed: &changed)
            if var pool = e.pool {
                pool.fields = replacing(pool.fields, names: names, with: generator, changed: &changed)
                e.pool = pool
            }
            e.related = replacing(e.related, names: names, with: generator, changed: &changed)
            return e
        }
    }
}
