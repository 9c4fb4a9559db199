import SchemaLabEngine

/// What the values of a column measure: the unit docs/results.md gives each column.
package enum ColumnUnit: String, Sendable, CaseIterable {
    /// Text, a name, a flag or an identifier: no unit.
    case none = ""
    case milliseconds = "ms"
    case kibibytes = "KiB"
    case bytes
    /// A count of things: repetitions, rows, statements, VM steps, sorts.
    case count
    /// One quantity divided by another.
    case ratio
    /// Instructions counted by callgrind.
    case instructions
}

/// One column of a CSV file the lab writes, defined once: its name, its unit, how a row's
/// value is written and how it is read back. Every file a run writes (results.csv,
/// samples.csv, plans.csv, claims.csv, ...) is a `CSVTable` of such columns, so the
/// writer and the reader cannot disagree.
///
/// A column is built from a writable key path of its row (``integer(_:_:unit:)``,
/// ``milliseconds(_:_:)``, ...); a ``derived(_:unit:_:)`` column (a ratio of two others) is
/// written but not read back.
package struct CSVColumn<Row>: Sendable {
    /// The header name (`median_ms`).
    package let name: String
    package let unit: ColumnUnit
    /// The field's text for a row.
    let format: @Sendable (Row) -> String
    /// Sets the row's value from the field's text; false when the text is not a value of
    /// the column. nil for a derived column.
    let parse: (@Sendable (inout Row, String) -> Bool)?
    /// What the column holds, for an error message: "an integer", "a number".
    let expected: String

    /// A column of any type: `format` writes the value, `parse` reads it back (false when
    /// the text is not a value).
    package init(
        _ name: String, unit: ColumnUnit = .none, expected: String = "a value", format: @escaping @Sendable (Row) -> String,
        parse: (@Sendable (inout Row, String) -> Bool)?
    ) {
        self.name = name
        self.unit = unit
        self.expected = expected
        self.format = format
        self.parse = parse
    }

    /// A text column, written as it is.
    package static func text(_ name: String, _ path: WritableKeyPath<Row, String> & Sendable) -> Self {
        Self(
            name, format: { $0[keyPath: path] },
            parse: { row, text in
                row[keyPath: path] = text; return true
            })
    }

    /// A text column whose empty field is nil.
    package static func optionalText(_ name: String, _ path: WritableKeyPath<Row, String?> & Sendable) -> Self {
        Self(
            name, format: { $0[keyPath: path] ?? "" },
            parse: { row, text in
                row[keyPath: path] = text.isEmpty ? nil : text; return true
            })
    }

    /// An integer column.
    package static func integer<Value: FixedWidthInteger & Sendable>(
        _ name: String, _ path: WritableKeyPath<Row, Value> & Sendable, unit: ColumnUnit = .count
    ) -> Self {
        Self(
            name, unit: unit, expected: "an integer", format: { String($0[keyPath: path]) },
            parse: { row, text in
                guard let value = Value(text) else { return false }
                row[keyPath: path] = value
                return true
            })
    }

    /// An integer column whose empty field is nil.
    package static func optionalInteger<Value: FixedWidthInteger & Sendable>(
        _ name: String, _ path: WritableKeyPath<Row, Value?> & Sendable, unit: ColumnUnit = .count
    ) -> Self {
        Self(
            name, unit: unit, expected: "an integer or nothing", format: { $0[keyPath: path].map { String($0) } ?? "" },
            parse: { row, text in
                guard !text.isEmpty else { row[keyPath: path] = nil; return true }
                guard let value = Value(text) else { return false }
                row[keyPath: path] = value
                return true
            })
    }

    /// Milliseconds, written with 4 decimals (`Format/ms(_:)`).
    package static func milliseconds(_ name: String, _ path: WritableKeyPath<Row, Double> & Sendable) -> Self {
        number(name, path, unit: .milliseconds, format: Format.ms)
    }

    /// Milliseconds whose empty field is nil.
    package static func optionalMilliseconds(_ name: String, _ path: WritableKeyPath<Row, Double?> & Sendable) -> Self {
        optionalNumber(name, path, unit: .milliseconds, format: Format.ms)
    }

    /// A real number written by `format`.
    package static func number(
        _ name: String, _ path: WritableKeyPath<Row, Double> & Sendable, unit: ColumnUnit,
        format: @escaping @Sendable (Double) -> String
    ) -> Self {
        Self(
            name, unit: unit, expected: "a number", format: { format($0[keyPath: path]) },
            parse: { row, text in
                guard let value = Double(text) else { return false }
                row[keyPath: path] = value
                return true
            })
    }

    /// A real number whose empty field is nil.
    package static func optionalNumber(
        _ name: String, _ path: WritableKeyPath<Row, Double?> & Sendable, unit: ColumnUnit,
        format: @escaping @Sendable (Double) -> String
    ) -> Self {
        Self(
            name, unit: unit, expected: "a number or nothing", format: { $0[keyPath: path].map(format) ?? "" },
            parse: { row, text in
                guard !text.isEmpty else { row[keyPath: path] = nil; return true }
                guard let value = Double(text) else { return false }
                row[keyPath: path] = value
                return true
            })
    }

    /// A true-or-false column written as `yes` and `no` (or the words given).
    package static func flag(
        _ name: String, _ path: WritableKeyPath<Row, Bool> & Sendable, yes: String = "yes", no: String = "no"
    ) -> Self {
        Self(
            name, expected: "\(yes) or \(no)", format: { $0[keyPath: path] ? yes : no },
            parse: { row, text in
                guard text == yes || text == no else { return false }
                row[keyPath: path] = text == yes
                return true
            })
    }

    /// A column of a string enumeration, written as its raw value.
    package static func word<Value: RawRepresentable & Sendable>(_ name: String, _ path: WritableKeyPath<Row, Value> & Sendable) -> Self
    where Value.RawValue == String {
        Self(
            name, expected: "one of the column's words", format: { $0[keyPath: path].rawValue },
            parse: { row, text in
                guard let value = Value(rawValue: text) else { return false }
                row[keyPath: path] = value
                return true
            })
    }

    /// A column computed from the others (a ratio): written, not read back.
    package static func derived(_ name: String, unit: ColumnUnit, _ format: @escaping @Sendable (Row) -> String) -> Self {
        Self(name, unit: unit, format: format, parse: nil)
    }

    /// This column over a row that holds `Row` at `path` (a sample inside a case's row).
    package func lifted<Outer>(_ path: WritableKeyPath<Outer, Row> & Sendable) -> CSVColumn<Outer> {
        let format = self.format
        let outerFormat: @Sendable (Outer) -> String = { outer in format(outer[keyPath: path]) }
        var outerParse: (@Sendable (inout Outer, String) -> Bool)?
        if let parse = self.parse {
            outerParse = { (outer: inout Outer, text: String) -> Bool in parse(&outer[keyPath: path], text) }
        }
        return CSVColumn<Outer>(name, unit: unit, expected: expected, format: outerFormat, parse: outerParse)
    }
}
