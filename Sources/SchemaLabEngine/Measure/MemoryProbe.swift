import CHeap

/// The process's resident memory, from /proc (Linux).
///
/// `resetPeak()` writes 5 to /proc/self/clear_refs, which sets the kernel's
/// high-water mark (VmHWM) back to the current resident size, so that the peak
/// read after a case belongs to that case.
///
/// Both read and write /proc in C without allocating: /proc/self/status grows and shrinks
/// with the process's context-switch counts, so reading it into a `Data` and a `String`
/// shifted the heap by a load-dependent amount, which moved the instruction count of the
/// same case by up to 5,400 (0.3%) between runs on a loaded machine (callgrind: the Swift
/// runtime's metadata caches, keyed by addresses, probed differently).
package enum MemoryProbe {
    /// Whether the peak could be reset (false where /proc/self/clear_refs is not writable).
    @discardableResult
    package static func resetPeak() -> Bool { schemalab_reset_peak_resident() == 1 }

    /// VmHWM in KiB (peak resident set since start or the last reset), or -1.
    package static func peakResidentKB() -> Int64 { schemalab_status_kib("VmHWM:") }

    /// VmRSS in KiB, or -1.
    package static func residentKB() -> Int64 { schemalab_status_kib("VmRSS:") }
}
