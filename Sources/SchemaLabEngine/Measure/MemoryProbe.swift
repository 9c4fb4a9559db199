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
        // /proc files report a size of 0: read to the end instead of by size.
        guard let h = FileHandle(forReadingAtPath: "/proc/self/status"),
            let data = try? h.readToEnd()
        else { return -1 }
        try? h.close()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
            return Int64(digits) ?? -1
        }
        return -1
    }
}
