import CHeap
import SchemaLabSQLite

/// The parts of a timed repetition that are not the workload's to pay for: a workload
/// that generates its rows chunk by chunk while it inserts them (so that the rows of a
/// million-object insert are never all in memory) generates each chunk in an untimed span.
/// The case subtracts the spans' wall and CPU time from the sample
/// (`WorkloadOutcome/untimed`), and callgrind does not count their instructions
/// (``CallgrindCounter`` toggles collection on `schemalab_untimed_region`).
package struct UntimedSpans: Sendable {
    package private(set) var wallNanoseconds: UInt64 = 0
    package private(set) var cpuNanoseconds: UInt64 = 0

    package init() {}

    /// Runs `body` as an untimed span and adds its time.
    package mutating func run<T>(_ body: () -> T) -> T {
        let w0 = Clock.wallNanoseconds(), c0 = Clock.cpuNanoseconds()
        var result: T?
        withoutActuallyEscaping(body) { body in
            let box = Box { result = body() }
            let context = Unmanaged.passRetained(box).toOpaque()
            schemalab_untimed_region({ context in Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body() }, context)
        }
        cpuNanoseconds &+= Clock.cpuNanoseconds() - c0
        wallNanoseconds &+= Clock.wallNanoseconds() - w0
        return result!
    }

    /// Calls `body` with each chunk of `stream`, each generated in an untimed span and released
    /// in one: the generator's columns are not the workload's to free either (releasing a
    /// 10,000-row chunk's columns was 3.3M instructions of a 10,000-photo insert's count).
    package mutating func forEachChunk(of stream: inout DataStream, _ body: (GeneratedData) throws -> Void) rethrows {
        var next = run { stream.next() }
        while next != nil {
            try body(next!)
            // The old chunk goes as it is replaced, inside the span (no binding outlives the call).
            run { next = stream.next() }
        }
    }

    /// Adds another repetition's spans.
    package mutating func add(_ other: UntimedSpans) {
        wallNanoseconds &+= other.wallNanoseconds
        cpuNanoseconds &+= other.cpuNanoseconds
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
