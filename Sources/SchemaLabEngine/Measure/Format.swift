import Foundation

/// Number formatting shared by the CSV writers and the terminal table.
public enum Format {
    /// Milliseconds with 4 decimals (CSV) — enough for sub-microsecond differences.
    public static func ms(_ v: Double) -> String { String(format: "%.4f", v) }
    /// A ratio with 2 decimals.
    public static func ratio(_ v: Double) -> String { String(format: "%.2f", v) }
    /// Milliseconds for people: 3 significant decimals.
    public static func short(_ v: Double) -> String { v >= 100 ? String(format: "%.1f", v) : v >= 10 ? String(format: "%.2f", v) : String(format: "%.3f", v) }

    /// A whole number with thousands separators (`1,234,567`), or the value as written when not finite.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "\(v)" }
        let digits = String(Int64(v.rounded()).magnitude)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (v < 0 ? "-" : "") + String(out.reversed())
    }

    /// A signed percentage (`+12.3%`, `-4.0%`).
    public static func percent(_ r: Double) -> String { String(format: "%+.1f%%", r * 100) }

    /// A p-value (`0.008`, `<0.001`).
    public static func p(_ v: Double) -> String { v < 0.001 ? "<0.001" : String(format: "%.3f", v) }
}
