import CHeap

/// Runs a repetition's timed region through the C function `schemalab_timed_region`, the
/// symbol callgrind's `--toggle-collect` switches collection on for (``CallgrindCounter``).
/// Outside valgrind it is one indirect call.
enum TimedRegion {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` as a timed region; with `counted` false, as a warm-up on the same path, which
    /// callgrind does not collect (the first run of this path in a process instantiates type
    /// metadata and looks up conformances: 270,000 instructions that a `count` fetch's counted
    /// run paid, 5 times SQLite's own work, when the warm-ups ran outside it).
    static func run<T>(counted: Bool = true, _ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        withoutActuallyEscaping(body) { body in
            let box = Box { result = Result { try body() } }
            let context = Unmanaged.passRetained(box).toOpaque()
            let entry: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            }
            if counted { schemalab_timed_region(entry, context) } else { schemalab_warmup_region(entry, context) }
        }
        return try result!.get()
    }
}
