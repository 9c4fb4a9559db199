import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wall and CPU clocks for the timed region.
public enum Clock {
    /// Monotonic wall time in nanoseconds (`CLOCK_MONOTONIC`).
    @inlinable @inline(__always)
    public static func wallNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// CPU time of the process in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`, user + system).
    @inlinable @inline(__always)
    public static func cpuNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
