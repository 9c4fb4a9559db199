import Foundation

/// The process's resident memory, from /proc (Linux).
///
/// `resetPeak()` writes 5 to /proc/self/clear_refs, which sets the kernel's
/// high-water mark (VmHWM) back to the current resident size, so that the peak
/// read after a case belongs to that case.
public enum MemoryProbe {
    /// Whether the peak could be reset (false where /proc/self/clear_refs is not writable).
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let h = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? h.close() }
        do { try h.write(contentsOf: Array("5".utf8)); return true } catch { return false }
    }

    /// VmHWM in KiB (peak resident set since start or the last reset), or -1.
    public static func peakResidentKB() -> Int64 { statusField("VmHWM:") }

    /// VmRSS in KiB, or -1.
    public static func residentKB() -> Int64 { statusField("VmRSS:") }

    private static func statusField(_ name: String) -> Int64 {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).split(separator: " ").first ?? ""
            return Int64(digits) ?? -1
        }
        return -1
    }
}
