import Foundation
import SchemaLabCoreData

extension ScenarioEncoder {
    /// A workload; its `measurement` as the keys that differ from the scenario's (`measuredAs`).
    static func workload(_ w: WorkloadSpec, measuredAs scenarioMeasurement: MeasurementSpec) -> JSONValue {
        object(
            ScenarioKeys.workload,
            [
                ("name", .string(w.name)),
                ("kind", .string(w.kind.rawValue)),
                ("entity", w.entity.map(JSONValue.string)),
                ("relationship", w.relationship.map(JSONValue.string)),
                ("relate", list(w.relate.map(JSONValue.string))),
                ("operation", unless(w.operation, is: .read) { .string($0.rawValue) }),
                ("positionKey", w.positionKey.map(JSONValue.string)),
                ("sql", w.sql.map(JSONValue.string)),
                ("predicate", w.predicate.map { .string($0.text) }),
                ("arguments", list((w.predicate?.arguments ?? w.sqlArguments).map(argument))),
                ("reason", w.reason.map(JSONValue.string)),
                ("set", w.set.isEmpty && w.replacements.isEmpty ? nil : assignments(w)),
                (
                    "verify",
                    w.verify.map { v in
                        object(ScenarioKeys.verify, [("predicate", .string(v.text)), ("arguments", list(v.arguments.map(argument)))])
                    }
                ),
                ("sort", list(w.sort.map(sort))),
                ("sectionKey", w.sectionKey.map(JSONValue.string)),
                ("batchSize", unless(w.batchSize, is: 0, JSONValue.int)),
                ("fetchLimit", unless(w.fetchLimit, is: 0, JSONValue.int)),
                ("fetchOffset", unless(w.fetchOffset, is: 0, JSONValue.int)),
                ("pageSize", unless(w.pageSize, is: 0, JSONValue.int)),
                ("resultType", unless(w.resultType, is: .objects) { .string($0.rawValue) }),
                ("propertiesToFetch", list(w.propertiesToFetch.map(property))),
                ("groupBy", strings(w.groupBy)),
                ("having", w.having.map { .string($0.text) }),
                ("havingArguments", list(w.having?.arguments.map(argument) ?? [])),
                ("distinct", flag(w.distinct)),
                ("includesPropertyValues", w.includesPropertyValues ? nil : .bool(false)),
                ("returnsObjectsAsFaults", w.returnsObjectsAsFaults ? nil : .bool(false)),
                ("prefetch", strings(w.prefetch)),
                ("keyBinding", unless(w.keyBinding, is: .integerArray) { .string($0.rawValue) }),
                ("touch", touch(w.touch)),
                ("touchKeys", w.touchKeys.map { .array($0.map(JSONValue.string)) }),
                ("reduce", list(w.reduce.map(property))),
                ("boxes", w.boxes.map(boxes)),
                ("count", unless(w.count, is: 0, JSONValue.int)),
                ("saveEvery", unless(w.saveEvery, is: WorkloadSpec.defaultSaveEvery(kind: w.kind, count: w.count), JSONValue.int)),
                ("source", unless(w.source, is: .dictionaries) { .string($0.rawValue) }),
                ("mergePolicy", unless(w.mergePolicy, is: .error) { .string($0.rawValue) }),
                ("feed", w.feed.map(feed)),
                ("key", strings(w.key)),
                ("strategy", unless(w.strategy, is: .fetchEach) { .string($0.rawValue) }),
                ("mergeBatch", unless(w.mergeBatch, is: 500, JSONValue.int)),
                ("reads", unless(w.reads, is: 0, JSONValue.int)),
                ("journalMode", unless(w.journalMode, is: .wal) { .string($0.rawValue) }),
                ("deliver", w.deliver.map(delivery)),
                ("history", w.history.map { history($0, kind: w.kind) }),
                ("agreesWith", w.agreesWith.map(JSONValue.string)),
                ("variants", w.variants.map { .array($0.map(JSONValue.string)) }),
                ("weight", unless(w.weight, is: 1, number)),
                ("device", w.device.map(device)),
                ("measurement", w.measurement.map { measurement($0, over: scenarioMeasurement) }),
            ])
    }

    /// `set`: the assignments in order, then the word replacements.
    static func assignments(_ w: WorkloadSpec) -> JSONValue {
        .object(
            w.set.map { (key: $0.attribute, value: argument($0.value)) }
                + w.replacements.map { r in
                    (
                        key: r.attribute,
                        value: object(
                            ScenarioKeys.wordReplacement,
                            [
                                ("replaceWord", .string(r.word)), ("with", .string(r.with)),
                                ("separator", unless(r.separator, is: ",", JSONValue.string)),
                            ])
                    )
                })
    }

    /// A sort key: its key path when ascending with no comparator, else an object.
    static func sort(_ s: SortSpec) -> JSONValue {
        if s.ascending && s.comparator == nil { return .string(s.keyPath) }
        return object(
            ScenarioKeys.sort,
            [
                ("key", .string(s.keyPath)), ("ascending", s.ascending ? nil : .bool(false)),
                ("comparator", s.comparator.map { .string($0.rawValue) }),
            ])
    }

    /// `touch`: a count, or a word; nil for the default, all.
    static func touch(_ t: TouchSpec) -> JSONValue? {
        switch t {
        case .all: return nil
        case .none: return .string("none")
        case .array: return .string("array")
        case .first(let n): return .int(n)
        }
    }

    static func property(_ p: PropertySpec) -> JSONValue {
        switch p {
        case .keyPath(let k): return .string(k)
        case .expression(let name, let function, let keyPath):
            return object(
                ScenarioKeys.expression, [("name", .string(name)), ("function", .string(function.rawValue)), ("key", .string(keyPath))])
        }
    }

    /// A predicate argument (or a `set` value): a real keeps its point, a date is `{"date": ...}`.
    static func argument(_ v: PredicateValue) -> JSONValue {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .integer(let i): return int64(i)
        case .real(let d): return real(d)
        case .date(let seconds): return object(ScenarioKeys.dateArgument, [("date", instant(seconds))])
        case .bytes(let bytes):
            // 16 bytes read as a UUID (the same bytes either way).
            if bytes.count == 16 { return object(["uuid"], [("uuid", .string(BinaryText.uuidText(bytes)))]) }
            return object(["base64"], [("base64", .string(Data(bytes).base64EncodedString()))])
        case .array(let items): return .array(items.map(argument))
        }
    }

    /// `device`: the runs, and the rows and seconds when the log gave them.
    static func device(_ d: DeviceUsage) -> JSONValue {
        object(
            ScenarioKeys.device,
            [("runs", .int(d.runs)), ("rows", d.rows.map(JSONValue.int)), ("seconds", d.seconds.map(number))])
    }

    static func delivery(_ d: DeliverySpec) -> JSONValue {
        object(
            ScenarioKeys.deliver,
            [
                ("mode", .string(d.mode.rawValue)), ("entity", d.entity.map(JSONValue.string)),
                (
                    "sort",
                    .array(
                        d.sort.map { s in
                            s.ascending
                                ? .string(s.keyPath)
                                : object(["key", "ascending"], [("key", .string(s.keyPath)), ("ascending", .bool(false))])
                        })
                ),
                ("held", unless(d.held, is: DeliverySpec.defaultHeld, JSONValue.int)), ("shows", strings(d.shows)),
                ("filter", flag(d.filter)),
            ])
    }

    static func history(_ h: HistoryRequestSpec, kind: WorkloadKind) -> JSONValue {
        if kind == .deleteHistory {
            return object(
                ScenarioKeys.deleteHistory,
                [("before", unless(h.bound, is: .token) { .string($0.rawValue) }), ("keep", h.last.map(JSONValue.int))])
        }
        return object(
            ScenarioKeys.fetchHistory,
            [
                ("after", h.last == nil ? nil : .string(h.bound.rawValue)), ("last", h.last.map(JSONValue.int)),
                ("entity", h.entity.map(JSONValue.string)), ("object", flag(h.object)), ("author", h.author.map(JSONValue.string)),
                ("updatedProperties", strings(h.updatedProperties)),
                ("filterIn", unless(h.filterIn, is: .request) { .string($0.rawValue) }),
            ])
    }

    static func feed(_ f: FeedSpec) -> JSONValue {
        object(
            ScenarioKeys.feed,
            [
                ("size", unless(f.size, is: 1, number)), ("existing", unless(f.existing, is: 0.9, number)),
                ("seed", unless(f.seed, is: 1, seed)),
            ])
    }

    /// Boxes; `selectivity` when it is not the default (0.001 to 0.01), its `max` when it is
    /// not what the decoder gives without one (0.01, or `min` when that is larger).
    static func boxes(_ b: BoxSetSpec) -> JSONValue {
        let (lo, hi) = (b.minSelectivity, b.maxSelectivity)
        let selectivity: JSONValue? =
            lo == 0.001 && hi == 0.01
            ? nil
            : object(ScenarioKeys.selectivity, [("min", unless(lo, is: 0.001, number)), ("max", unless(hi, is: max(lo, 0.01), number))])
        return object(
            ScenarioKeys.boxes,
            [
                ("count", .int(b.count)), ("seed", unless(b.seed, is: 1, seed)), ("keys", .array(b.keys.map(JSONValue.string))),
                ("selectivity", selectivity),
            ])
    }
}
