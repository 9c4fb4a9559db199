import Foundation

/// Number formatting shared by the CSV writers and the terminal table.
public enum Format {
    /// Milliseconds with 4 decimals (CSV) — enough for sub-microsecond differences.
    public static func ms(_ v: Double) -> String { String(format: "%.4f", v) }
    /// A ratio with 2 decimals.
    public static func ratio(_ v: Double) -> String { String(format: "%.2f", v) }
    /// Milliseconds for people: 3 significant decimals.
    public static func short(_ v: Double) -> String { v >= 100 ? String(format: "%.1f", v) : v >= 10 ? String(format: "%.2f", v) : String(format: "%.3f", v) }
}
