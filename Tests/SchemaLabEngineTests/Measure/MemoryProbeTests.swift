import Testing
@testable import SchemaLabEngine

/// The resident-memory probe reads /proc/self/status without allocating (see ``MemoryProbe``).
@Suite("Memory probe: VmRSS and VmHWM from /proc, the peak reset")
struct MemoryProbeTests {
    @Test("The resident size and its peak are read as KiB, and the peak holds a block just touched")
    func residentAndPeak() {
        #expect(MemoryProbe.residentKB() > 0)
        // 64 MiB touched while alive: the peak covers it (other tests of this process may reset
        // the peak meanwhile, but the block is then resident and counted).
        var block = [UInt8](repeating: 1, count: 64 << 20)
        block[block.count - 1] = 2
        #expect(MemoryProbe.peakResidentKB() >= 64 << 10)
        #expect(MemoryProbe.residentKB() >= 64 << 10)
        withExtendedLifetime(block) {}
    }
}
