import Foundation
import SchemaLabEngine

/// The progress of a run on a terminal: one line rewritten in place, at most four times a
/// second: cases finished, the share of repetitions measured, what runs now, the time
/// elapsed and an estimate of the time left. Without a terminal (CI) it draws nothing: the
/// run prints one line per finished case instead.
struct ProgressLine: Sendable {
    let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    /// Draws `p` (throttled).
    mutating func update(_ p: RunProgress) {
        guard enabled, Date().timeIntervalSince(lastDraw) >= 0.25 else { return }
        lastDraw = Date()
        let elapsed = Date().timeIntervalSince(start)
        let left = p.fraction > 0.02 ? " · ~\(Self.clock(elapsed * (1 - p.fraction) / p.fraction)) left" : ""
        var line = "[\(p.casesDone)/\(p.cases) cases · \(Int(p.fraction * 100))%] \(p.now) · \(Self.clock(elapsed)) elapsed\(left)"
        let width = Self.columns()
        if line.count > width - 1 { line = String(line.prefix(max(10, width - 2))) + "…" }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        drawn = true
    }

    /// Clears the line before other output.
    mutating func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private static func columns() -> Int {
        var w = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &w) == 0 && w.ws_col > 0 ? Int(w.ws_col) : 100
    }
}
