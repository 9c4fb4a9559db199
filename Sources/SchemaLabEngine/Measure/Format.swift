import Foundation

/// Number formatting shared by the CSV writers and the terminal table.
package enum Format {
    /// Milliseconds with 4 decimals (CSV) — enough for sub-microsecond differences.
    package static func ms(_ value: Double) -> String { String(format: "%.4f", value) }
    /// A ratio with 2 decimals.
    package static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
    /// Milliseconds for people: 3 significant decimals.
    package static func short(_ value: Double) -> String {
        value >= 100 ? String(format: "%.1f", value) : value >= 10 ? String(format: "%.2f", value) : String(format: "%.3f", value)
    }

    /// A whole number with thousands separators (`1,234,567`), or the value as written when not finite.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let digits = String(Int64(value.rounded()).magnitude)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + String(out.reversed())
    }

    /// A signed percentage (`+12.3%`, `-4.0%`).
    package static func percent(_ ratio: Double) -> String { String(format: "%+.1f%%", ratio * 100) }

    /// A p-value (`0.008`, `<0.001`).
    package static func pValue(_ value: Double) -> String { value < 0.001 ? "<0.001" : String(format: "%.3f", value) }
}
