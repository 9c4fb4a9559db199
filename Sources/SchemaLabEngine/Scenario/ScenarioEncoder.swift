import Foundation
import SchemaLabCoreData
import SchemaLabSQLite

/// Writes a ``Scenario`` as the format's JSON, the inverse of ``ScenarioDecoder``: every
/// object's keys in the order of `ScenarioKeys` (the order docs/scenario-format.md uses),
/// and only the keys whose values differ from the format's defaults.
///
/// What the decoder reads back is the same scenario (`ScenarioEncoderTests`). What the
/// format can write two ways is written one way: a size sweep as its sizes, `zipf` as the
/// weights it gives, a `choice` of booleans as 1 and 0, `"scroll"` as the default
/// `touch`, a sort key `"date"` for `{"key": "date", "ascending": true}`; a workload's
/// `measurement` as the keys that differ from the scenario's.
public enum ScenarioEncoder {
    /// The scenario as JSON.
    package static func json(_ scenario: Scenario) -> JSONValue {
        let s = scenario
        return object(
            ScenarioKeys.scenario,
            [
                ("$schema", s.schemaReference.map(JSONValue.string)),
                ("format", .int(s.format)),
                ("name", .string(s.name)),
                ("description", s.description.isEmpty ? nil : .string(s.description)),
                ("variants", .array(s.variants.map(variant))),
                ("dataset", dataset(s.dataset)),
                ("workloads", .array(s.workloads.map { workload($0, measuredAs: s.measurement) })),
                ("measurement", s.measurement == MeasurementSpec() ? nil : measurement(s.measurement, over: MeasurementSpec())),
                ("pragmas", s.pragmas.isEmpty ? nil : pragmas(s.pragmas)),
                ("reference", s.reference == s.variants.first?.name ? nil : .string(s.reference)),
                ("assertions", list(s.assertions.map(assertion))),
                ("claims", list(s.claims.map { claim($0, reference: s.reference) })),
            ])
    }

    /// The scenario as a file's text: indented, small objects on one line (`JSONWriter`).
    public static func text(_ scenario: Scenario) -> String {
        JSONWriter.text(json(scenario))
    }

    // MARK: Building blocks

    /// An object of the members whose value is not nil, in the order of `keys` (the format's
    /// table for the object); a key outside the table is a mistake of the encoder's.
    static func object(_ keys: [String], _ members: [(String, JSONValue?)]) -> JSONValue {
        let present = members.compactMap { key, value in value.map { (key: key, value: $0) } }
        for m in present { precondition(keys.contains(m.key), "ScenarioEncoder: '\(m.key)' is not in the format's table") }
        return .object(present.sorted { keys.firstIndex(of: $0.key)! < keys.firstIndex(of: $1.key)! })
    }

    /// An array, or nil (the key left out) when it is empty.
    static func list(_ items: [JSONValue]) -> JSONValue? { items.isEmpty ? nil : .array(items) }

    /// Strings as an array, or nil when there are none.
    static func strings(_ items: [String]) -> JSONValue? { list(items.map(JSONValue.string)) }

    /// A flag that defaults to false: `true`, or nil.
    static func flag(_ on: Bool) -> JSONValue? { on ? .bool(true) : nil }

    /// `value`, or nil when it is `default`.
    static func unless<T: Equatable>(_ value: T, is defaultValue: T, _ json: (T) -> JSONValue) -> JSONValue? {
        value == defaultValue ? nil : json(value)
    }

    static func int64(_ value: Int64) -> JSONValue { .number(Double(value), literal: String(value)) }

    static func seed(_ value: UInt64) -> JSONValue { .number(Double(value), literal: String(value)) }

    /// A double the decoder reads back as a double where an integer would do too (`5`).
    static func number(_ value: Double) -> JSONValue { .double(value) }

    /// A real written with a point or an exponent (`5.0`, `1e-05`): where the decoder tells
    /// an integer from a real by its literal (a `choice` value, a predicate argument).
    static func real(_ value: Double) -> JSONValue { .number(value, literal: "\(value)") }

    /// A value of a `choice` or a `constant`: a string, an integer or a real.
    static func scalar(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let i): return int64(i)
        case .real(let d): return real(d)
        case .text(let s): return .string(s)
        case .blob(let bytes): return argument(.bytes(bytes))
        }
    }

    /// A day as the format writes it, `YYYY-MM-DD`, from the seconds of its midnight.
    static func day(_ seconds: Double) -> JSONValue {
        let d = CivilDate.date(daysSince2001: Int((seconds / 86_400).rounded(.down)))
        return .string(String(format: "%04d-%02d-%02d", d.year, d.month, d.day))
    }

    /// An instant as ISO 8601 (`2014-10-01T00:00:00Z`, with the fraction digits that read
    /// back as the same double when it has a fraction).
    static func instant(_ seconds: Double) -> JSONValue {
        .string(CivilDate.instantText(seconds))
    }

    // MARK: Measurement, pragmas

    /// The keys of `m` that differ from `base` (the format's defaults, or a workload's
    /// scenario's measurement).
    static func measurement(_ m: MeasurementSpec, over base: MeasurementSpec) -> JSONValue {
        object(
            ScenarioKeys.measurement,
            [
                ("warmup", unless(m.warmup, is: base.warmup, JSONValue.int)),
                ("repetitions", unless(m.repetitions, is: base.repetitions, JSONValue.int)),
                ("maxSeconds", unless(m.maxSeconds, is: base.maxSeconds, number)),
                ("timeout", m.timeout == base.timeout ? nil : m.timeout.map(number)),
            ])
    }

    /// The pragmas, an integer where the pragma takes one.
    static func pragmas(_ list: [Pragma]) -> JSONValue {
        .object(
            list.map { p in
                let takesInteger = ScenarioKeys.pragmas.contains { $0.name == p.name && $0.values == nil }
                if takesInteger, let i = Int(p.value) { return (p.name, .int(i)) }
                return (p.name, .string(p.value))
            })
    }
}
