import CHeap

/// Runs a repetition's timed region through the C function `schemalab_timed_region`, the
/// symbol callgrind's `--toggle-collect` switches collection on for (``InstructionCounter``).
/// Outside valgrind it is one indirect call.
enum TimedRegion {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func run<T>(_ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        withoutActuallyEscaping(body) { body in
            let box = Box { result = Result { try body() } }
            let context = Unmanaged.passRetained(box).toOpaque()
            schemalab_timed_region({ context in Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body() }, context)
        }
        return try result!.get()
    }
}
